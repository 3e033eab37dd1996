"""GGUF files of StarCoder2 (llama.cpp's `starcoder2`) against transformers' Starcoder2ForCausalLM.

Written as convert_hf_to_gguf.py's StarCoder2Model writes them (tests/gguf_converter_writer.py), they read as
llama.cpp's starcoder2.cpp runs them: a LayerNorm with bias before attention (eps attention.layer_norm_epsilon),
q/k biases when the file has them, NEOX RoPE over the whole head, and no sliding window (the graph has none,
where the checkpoint's config sets one). F16 files hold float16-rounded weights exactly.
"""

from __future__ import annotations

import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import gguf_arch_writer as aw
from tests import gguf_converter_writer as gw
from tests import models_helpers as mh

pytest.importorskip("gguf")
pytest.importorskip("transformers")
pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2]


def _written(tmp_path, edit=None, **settings):
    torch_model = aw.fp16_random_model("starcoder2", tmp_path / "hf", 29,
                                       {**mh.FAMILIES["starcoder2"], "norm_epsilon": 0.25, **settings})
    gw.write_converted(tmp_path / "m.gguf", torch_model, "starcoder2", edit=edit)
    return torch_model


@pytest.mark.parametrize("use_bias", [True, False])
def test_a_starcoder2_file_reads_as_llama_cpp_runs_it(tmp_path, use_bias):
    """X, q/k after RoPE and the causal softmax equal the model's own run without a window (llama.cpp's
    starcoder2 has none); the LayerNorm's eps (0.25 here, so it shows) is the file's."""
    torch_model = _written(tmp_path, use_bias=use_bias)
    with open_model(str(tmp_path / "m.gguf")) as model:
        cfg = model.config
        assert (cfg.model_type, cfg.layer_norms, cfg.norm_eps, cfg.qk_bias) == ("starcoder2", True, 0.25, use_bias)
        assert cfg.window_of(0) is None
        with pytest.raises(AssertionError):                       # the checkpoint's own 6-token window
            mh.assert_layer0_as_transformers(model, torch_model, "starcoder2", IDS)
        torch_model.config.sliding_window = None
        mh.assert_layer0_as_transformers(model, torch_model, "starcoder2", IDS)


@pytest.mark.parametrize("edit, match", [
    (lambda w, stored: gw.replace_tensor(w, stored, "blk.0.attn_norm.bias"), "tensor blk.0.attn_norm.bias is missing"),
    (lambda w, stored: w.add_rope_dimension_count(4), "starcoder2.rope.dimension_count is 4; llama.cpp's "
                                                      "starcoder2 turns the whole head"),
])
def test_a_damaged_starcoder2_file_is_refused_in_one_line(tmp_path, edit, match):
    _written(tmp_path, edit=edit)
    with pytest.raises(InputError, match=match) as err:
        open_model(str(tmp_path / "m.gguf"))
    assert "\n" not in str(err.value)
