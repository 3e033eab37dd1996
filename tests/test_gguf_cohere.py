"""GGUF files of Cohere's Command-R (llama.cpp's `command-r`) and Cohere 2 (`cohere2`) against transformers'
CohereForCausalLM and Cohere2ForCausalLM.

Written as convert_hf_to_gguf.py's CommandR2Model / Cohere2Model write them (tests/gguf_converter_writer.py),
they read as llama.cpp runs them (explorer/backend/models/gguf_cohere.py): a LayerNorm without bias, per-head q/k
LayerNorms when the file has them, RoPE on consecutive channel pairs (llama.cpp's NORM type, Cohere's own
interleaving: no permutation), and for Cohere 2 three layers in four sliding with RoPE, the full ones without.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import gguf_arch_writer as aw
from tests import gguf_converter_writer as gw
from tests import gguf_fixtures as fx
from tests import models_helpers as mh

pytest.importorskip("gguf")
pytest.importorskip("transformers")
pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2]


@pytest.mark.parametrize("arch, family, settings", [
    ("command-r", "cohere", {"use_qk_norm": True}), ("command-r", "cohere", {"use_qk_norm": False}),
    ("cohere2", "cohere2", {})])
def test_a_cohere_file_reads_as_transformers_runs_it(tmp_path, arch, family, settings):
    torch_model = aw.fp16_random_model(family, tmp_path / "hf", 31, {**mh.FAMILIES[family], **settings})
    gw.write_converted(tmp_path / "m.gguf", torch_model, arch)
    with open_model(str(tmp_path / "m.gguf")) as model:
        cfg = model.config
        assert (cfg.model_type, cfg.family, cfg.rope_interleaved, cfg.layer_norms) == (family, "cohere", True, True)
        assert cfg.qk_norm == settings.get("use_qk_norm", False) and cfg.norm_eps == pytest.approx(0.1)   # (float32)
        if arch == "cohere2":
            assert cfg.layer_types == ("sliding_attention",) * 3 + ("full_attention",) and cfg.nope_layers == (3,)
            assert cfg.window_of(0) == 6
        mh.assert_layer0_as_transformers(model, torch_model, family, IDS)


def test_a_cohere2_file_without_a_window_is_refused_in_one_line(tmp_path):
    """llama.cpp's cohere2 requires attention.sliding_window."""
    torch_model = aw.fp16_random_model("cohere2", tmp_path / "hf", 31, mh.FAMILIES["cohere2"])
    gw.write_converted(tmp_path / "m.gguf", torch_model, "cohere2",
                       edit=fx.without_keys("cohere2.attention.sliding_window"))
    with pytest.raises(InputError, match="metadata cohere2.attention.sliding_window is missing") as err:
        open_model(str(tmp_path / "m.gguf"))
    assert "\n" not in str(err.value)


def _keys(**changes):
    def edit(w, stored):
        for key, value in changes.items():
            fx.drop_keys(w, key)
            if isinstance(value, int):
                w.add_uint32(key, value)
            else:
                w.add_array(key, value)
    return edit


def test_a_cohere2_pattern_number_is_read_and_q_k_norms_are_not(tmp_path):
    """cohere2.attention.sliding_window_pattern 2 (a number, which newer llama.cpp reads): layers alternate;
    attn_q_norm / attn_k_norm tensors in a cohere2 file are not read (llama.cpp's cohere2 and Cohere2ForCausalLM
    have none)."""
    torch_model = aw.fp16_random_model("cohere2", tmp_path / "hf", 31, mh.FAMILIES["cohere2"])

    def edit(w, stored):
        _keys(**{"cohere2.attention.sliding_window_pattern": 2})(w, stored)
        for side, heads in (("q", 4), ("k", 2)):
            w.add_tensor(f"blk.0.attn_{side}_norm.weight", np.full((heads, 8), 5.0, np.float32))

    gw.write_converted(tmp_path / "m.gguf", torch_model, "cohere2", edit=edit)
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert model.config.layer_types == ("sliding_attention", "full_attention") * 2
        assert model.config.nope_layers == (1, 3) and not model.config.qk_norm
        mh.assert_layer0_as_transformers(model, torch_model, "cohere2", IDS)


def test_a_command_r_file_with_one_of_its_q_k_norms_is_refused(tmp_path):
    """llama.cpp's command-r applies attn_k_norm whenever it is there: a file with it but no attn_q_norm was read
    without either."""
    torch_model = aw.fp16_random_model("cohere", tmp_path / "hf", 31, {**mh.FAMILIES["cohere"], "use_qk_norm": True})
    gw.write_converted(tmp_path / "m.gguf", torch_model, "command-r",
                      edit=lambda w, stored: gw.replace_tensor(w, stored, "blk.0.attn_q_norm.weight"))
    with pytest.raises(InputError, match="tensor blk.0.attn_q_norm.weight is missing"):
        open_model(str(tmp_path / "m.gguf"))
