"""GGUF files of OLMo 3 (llama.cpp's `olmo2` with a sliding window) against transformers' Olmo3ForCausalLM.

Written as convert_hf_to_gguf.py's Olmo2Model writes an Olmo3ForCausalLM (tests/gguf_converter_writer.py: the
window, one bool per layer for the sliding ones, the full layers' YaRN), they read as llama.cpp's olmo2.cpp runs
them (explorer/backend/models/gguf_olmo3.py): sliding layers with plain RoPE at freq_base, full ones with the
file's scaling. F16 files hold float16-rounded weights exactly, so X, layer-0 q/k after RoPE and the softmax
within the window equal the model's own.
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
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2]            # 12 tokens: past the 6-token window


def _written(tmp_path, edit=None, **settings):
    torch_model = aw.fp16_random_model("olmo3", tmp_path / "hf", 23, {**mh.FAMILIES["olmo3"], **settings})
    gw.write_converted(tmp_path / "m.gguf", torch_model, "olmo2", edit=edit)
    return torch_model


@pytest.mark.parametrize("layer0", ["sliding_attention", "full_attention"])
def test_an_olmo3_file_reads_as_transformers_runs_it(tmp_path, layer0):
    """Layer 0 sliding (plain RoPE, 6 keys) or, by the file's pattern, full (YaRN x4, every key)."""
    types = [layer0, "sliding_attention", "sliding_attention", "full_attention"]
    torch_model = _written(tmp_path, layer_types=types)
    with open_model(str(tmp_path / "m.gguf")) as model:
        cfg = model.config
        assert (cfg.model_type, cfg.family, cfg.layer_types) == ("olmo3", "olmo2", tuple(types))
        assert cfg.window_of(0) == (6 if layer0 == "sliding_attention" else None)
        assert cfg.rope_scaling.rope_type == ("default" if layer0 == "sliding_attention" else "yarn")
        assert cfg.rope_of(3)[1].rope_type == "yarn"
        mh.assert_layer0_as_transformers(model, torch_model, "olmo3", IDS)


def test_without_a_pattern_three_layers_in_four_slide(tmp_path):
    """A file without attention.sliding_window_pattern: llama.cpp's default period 4 (il % 4 < 3 slides)."""
    def drop(w, stored):
        for kv in w.kv_data:
            kv.pop("olmo2.attention.sliding_window_pattern", None)

    _written(tmp_path, edit=drop, num_hidden_layers=8, layer_types=None)
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert model.config.layer_types == (("sliding_attention",) * 3 + ("full_attention",)) * 2


def test_a_second_rope_base_is_refused_in_one_line(tmp_path):
    """rope.freq_base_swa other than freq_base: newer llama.cpp reads the key but its olmo2 graph turns the
    sliding layers at freq_base; such a file is refused rather than shown one way or the other."""
    _written(tmp_path, edit=lambda w, stored: w.add_rope_freq_base_swa(1234.0))
    with pytest.raises(InputError, match="metadata olmo2.rope.freq_base_swa .* differs from olmo2.rope.freq_base") as err:
        open_model(str(tmp_path / "m.gguf"))
    assert "\n" not in str(err.value)
