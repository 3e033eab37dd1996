"""GGUF files of EXAONE 4.0 (llama.cpp's `exaone4`) against the transformers Exaone4ForCausalLM they came from.

Each tiny random model (float16-rounded, so an F16 file holds it exactly) is written as convert_hf_to_gguf.py's
Exaone4Model writes it (tests/gguf_converter_writer.py: gguf-py's names, no permutation, the window and one bool
per layer, Llama 3's rope_freqs). llama.cpp's exaone4 loader gives a window only to a 64-layer file (the 32B):
then layers 3, 7, ... are full and NoPE; a file of any other depth (the 1.2B's 30) turns every layer, unmasked,
whatever its window keys say (src/models/exaone4.cpp, load_arch_hparams and its graph's use_rope)."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import gguf_arch_writer as aw
from tests import gguf_converter_writer as gw
from tests import models_helpers as mh
from tests.test_models_exaone4 import same_layer

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")

LLAMA3 = {"rope_type": "llama3", "rope_theta": 1e6, "factor": 16.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
          "original_max_position_embeddings": 8192}             # EXAONE-4.0's own (base 1e6, x16 from 8,192)
SMALL = dict(mh.SMALL, num_key_value_heads=2, head_dim=12, rope_parameters=LLAMA3, max_position_embeddings=16384)
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2] * 4          # (tests/gguf_fixtures.py's byte vocabulary's ids)


def _written(tmp_path, settings, edit=None):
    torch_model = aw.fp16_random_model("exaone4", tmp_path / "hf", 23, settings)
    gw.write_converted(tmp_path / "m.gguf", torch_model, "exaone4", edit=edit)
    return torch_model


def test_a_64_layer_file_slides_three_layers_in_four_and_its_full_layers_have_no_rope(tmp_path):
    """The 32B's depth: a 6-token window on layers il % 4 < 3 (the converter's bool array passed over), layers 3,
    7, ..., 63 full and unturned; Llama 3's RoPE read back from rope_freqs. Layers 0 and 3 equal transformers'."""
    torch_model = _written(tmp_path, dict(SMALL, num_hidden_layers=64, sliding_window=6))
    names = {t.name for t in gguf.GGUFReader(str(tmp_path / "m.gguf")).tensors}
    assert "blk.0.attn_norm.weight" not in names and {"blk.0.post_attention_norm.weight",
                                                      "rope_freqs.weight"} <= names
    with open_model(str(tmp_path / "m.gguf")) as model:
        cfg = model.config
        assert (cfg.family, cfg.pre_norm, cfg.qk_norm, cfg.sliding_window) == ("exaone4", False, True, 6)
        assert cfg.layer_types == tuple(torch_model.config.layer_types)
        assert cfg.nope_layers == tuple(range(3, 64, 4))
        assert (cfg.rope_scaling.rope_type, cfg.rope_scaling.factor) == ("llama3", 16.0)
        for layer in (0, 3):
            same_layer(model, torch_model, IDS, layer)


def test_a_file_of_another_depth_turns_every_layer_without_a_window(tmp_path):
    """A 4-layer file written from a model with a window of 6: llama.cpp's exaone4 runs it with no window and RoPE
    on every layer, which is transformers' Exaone4 with sliding_window null; the same weights, compared so."""
    torch_model = _written(tmp_path, dict(SMALL, num_hidden_layers=4, sliding_window=6))
    fields = gguf.GGUFReader(str(tmp_path / "m.gguf")).fields
    assert "exaone4.attention.sliding_window" in fields
    unwindowed = aw.fp16_random_model("exaone4", tmp_path / "ref", 23, dict(
        SMALL, num_hidden_layers=4, sliding_window=None, layer_types=["full_attention"] * 4))
    unwindowed.load_state_dict(torch_model.state_dict())
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert (model.config.sliding_window, model.config.nope_layers) == (None, ())
        assert model.config.layer_types == ("full_attention",) * 4
        for layer in (0, 3):
            same_layer(model, unwindowed, IDS, layer)


def _input_norm(w, stored):
    gw.replace_tensor(w, stored, "blk.0.attn_norm.weight", np.ones(32, np.float32), float32=True)


def _two_bases(w, stored):
    w.add_float32("exaone4.rope.freq_base_swa", 5000.0)


@pytest.mark.parametrize("layers, edit, match", [
    (4, _input_norm, r"tensor blk\.0\.attn_norm\.weight is not part of an exaone4 file"),
    (64, _two_bases, r"metadata exaone4\.rope\.freq_base_swa \(5000\.0\) differs from exaone4\.rope\.freq_base"),
])
def test_bad_exaone4_files_are_refused_in_one_line(tmp_path, layers, edit, match):
    _written(tmp_path, dict(SMALL, num_hidden_layers=layers, sliding_window=6), edit=edit)
    with pytest.raises(InputError, match=match) as info:
        open_model(str(tmp_path / "m.gguf")).close()
    assert "\n" not in str(info.value)
