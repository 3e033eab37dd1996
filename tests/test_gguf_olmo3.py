"""GGUF files of OLMo 3 (llama.cpp's `olmo2` with a sliding window) against transformers' Olmo3ForCausalLM.

Written as convert_hf_to_gguf.py's Olmo2Model writes an Olmo3ForCausalLM (tests/gguf_converter_writer.py: the
window, one bool per layer for the sliding ones, the full layers' YaRN), they read as llama.cpp's olmo2.cpp runs
them (explorer/backend/models/gguf_olmo3.py): sliding layers with plain RoPE at freq_base, full ones with the
file's scaling. F16 files hold float16-rounded weights exactly, so X, layer-0 q/k after RoPE and the softmax
within the window equal the model's own.
"""

from __future__ import annotations

import math

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
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2]            # 12 tokens: past the 6-token window


def _written(tmp_path, edit=None, **settings):
    torch_model = aw.fp16_random_model("olmo3", tmp_path / "hf", 23, {**mh.FAMILIES["olmo3"], **settings})
    gw.write_converted(tmp_path / "m.gguf", torch_model, "olmo2", edit=edit)
    return torch_model


PUBLISHED_YARN = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 10, "beta_fast": 32.0,
                  "beta_slow": 1.0, "attention_factor": 1.0 + 0.1 * math.log(4.0)}   # (OLMo 3's, L0 scaled down)


@pytest.mark.parametrize("full", [None, PUBLISHED_YARN], ids=["yarn x4", "published keys"])
def test_an_olmo3_file_reads_as_transformers_runs_it(tmp_path, full):
    """Layer 0 slides (plain RoPE, 6 keys), layer 3 is full (YaRN), also with the published rope_scaling's
    keys in the file (yarn_attn_factor, betas: llama.cpp's olmo2 does not read them)."""
    settings = {} if full is None else {"rope_parameters": {
        "sliding_attention": {"rope_type": "default", "rope_theta": 650.0},
        "full_attention": {**full, "rope_theta": 650.0}}}
    torch_model = _written(tmp_path, **settings)
    with open_model(str(tmp_path / "m.gguf")) as model:
        cfg = model.config
        assert (cfg.model_type, cfg.family, cfg.layer_types) == ("olmo3", "olmo2", tuple(torch_model.config.layer_types))
        assert (cfg.window_of(0), cfg.rope_scaling.rope_type, cfg.rope_of(3)[1].rope_type) == (6, "default", "yarn")
        mh.assert_layer0_as_transformers(model, torch_model, "olmo3", IDS)


def test_a_pattern_of_1_makes_every_layer_full(tmp_path):
    """attention.sliding_window_pattern 1 (a number: set_swa_pattern(1)): no layer slides, so layer 0 reads
    every key and turns with the file's YaRN, as the model with four full layers does."""
    def every_layer_full(w, stored):
        fx.drop_keys(w, "olmo2.attention.sliding_window_pattern")
        w.add_sliding_window_pattern(1)

    torch_model = _written(tmp_path, edit=every_layer_full, layer_types=["full_attention"] * 4)
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert model.config.layer_types == ("full_attention",) * 4 and model.config.rope_scaling.rope_type == "yarn"
        mh.assert_layer0_as_transformers(model, torch_model, "olmo3", IDS)


def test_a_bool_pattern_is_passed_over_as_llama_cpp_passes_over_it(tmp_path):
    """The converter's one-bool-per-layer pattern is read by llama.cpp's olmo2 with the scalar form of
    get_key_or_arr, which passes over an array: three layers in four slide, whatever the array says (8 layers;
    the array marks layer 0 full)."""
    def mark_layer0_full(w, stored):
        fx.drop_keys(w, "olmo2.attention.sliding_window_pattern")
        w.add_sliding_window_pattern([False] + [True] * 7)

    _written(tmp_path, edit=mark_layer0_full, num_hidden_layers=8, layer_types=None)
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert model.config.layer_types == (("sliding_attention",) * 3 + ("full_attention",)) * 2


def test_a_second_rope_base_is_refused_in_one_line(tmp_path):
    """rope.freq_base_swa other than freq_base: newer llama.cpp reads the key but its olmo2 graph turns the
    sliding layers at freq_base; such a file is refused rather than shown one way or the other."""
    _written(tmp_path, edit=lambda w, stored: w.add_rope_freq_base_swa(1234.0))
    with pytest.raises(InputError, match="metadata olmo2.rope.freq_base_swa .* differs from olmo2.rope.freq_base") as err:
        open_model(str(tmp_path / "m.gguf"))
    assert "\n" not in str(err.value)
