"""GGUF files of GLM-4 (llama.cpp's `glm4`) and GLM-4.5 (`glm4moe`) against the transformers Glm4ForCausalLM /
Glm4MoeForCausalLM they came from.

Each tiny random model is written as conversion/glm.py's Glm4Model / Glm4MoeModel writes it
(tests/gguf_glm_vl_writer.py: no permutation, rope.dimension_count = 4 of each head's 8 channels). llama.cpp turns
glm4 in neighbouring pairs (NORM), GLM-4's own (2i, 2i + 1), and glm4moe rotate-half (NEOX). F16 files hold
float16-rounded weights exactly, so X, layer-0 q/k after RoPE and the causal softmax equal the model's own.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import gguf_arch_writer as aw
from tests import gguf_converter_writer as gw
from tests import gguf_fixtures as fx
from tests import gguf_glm_vl_writer as vw
from tests import models_helpers as mh

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2]
FAMILY = {"glm4": "glm4", "glm4moe": "glm4_moe"}


def _written(tmp_path, arch, edit=None, nextn=0, **settings):
    family = FAMILY[arch]
    torch_model = aw.fp16_random_model(family, tmp_path / "hf", 29, dict(mh.FAMILIES[family], **settings))
    vw.write_glm_vl(tmp_path / "m.gguf", torch_model, arch, edit=edit, nextn=nextn)
    return torch_model


@pytest.mark.parametrize("arch, settings", [("glm4", {}), ("glm4", {"attention_bias": False}), ("glm4moe", {}),
                                            ("glm4moe", {"use_qk_norm": False, "attention_bias": False})])
@pytest.mark.parametrize("ids", [IDS, IDS * 4], ids=["12 tokens", "48 tokens"])
def test_x_rotated_qk_and_attention_equal_transformers(tmp_path, arch, settings, ids):
    torch_model = _written(tmp_path, arch, **settings)
    with open_model(str(tmp_path / "m.gguf")) as model:
        cfg = model.config
        assert (cfg.family, cfg.rope_dim, cfg.rope_base, cfg.rope_interleaved) == (
            FAMILY[arch], 4, mh.FAMILIES[FAMILY[arch]]["rope_theta"], arch == "glm4")
        assert (cfg.qk_bias, cfg.qk_norm) == (settings.get("attention_bias", True),
                                              arch == "glm4moe" and settings.get("use_qk_norm", True))
        mh.assert_layer0_as_transformers(model, torch_model, FAMILY[arch], ids)


def test_the_nextn_layers_are_not_counted(tmp_path):
    """Glm4MoeModel counts GLM-4.5's NextN (MTP) layer in block_count; llama.cpp runs the others."""
    _written(tmp_path, "glm4moe", nextn=1)
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert model.config.n_layers == mh.FAMILIES["glm4_moe"]["num_hidden_layers"]


def _one_norm(w, stored):
    """A q norm without its k twin (GLM-4.5 has both or neither)."""
    gw.replace_tensor(w, stored, "blk.0.attn_k_norm.weight")


def _wide_norm(w, stored):
    """A q norm over all heads where GLM-4.5's is per head."""
    gw.replace_tensor(w, stored, "blk.0.attn_q_norm.weight", np.ones(32, np.float32), float32=True)


def _glm4v(w, stored):
    w.add_rope_dimension_sections([1, 1, 0, 0])


@pytest.mark.parametrize("arch, edit, match", [
    ("glm4moe", _one_norm, r"tensor blk\.0\.attn_k_norm\.weight is missing"),
    ("glm4moe", _wide_norm, r"tensor blk\.0\.attn_q_norm\.weight has shape \[32\], expected \[8\]"),
    ("glm4", _glm4v, r"metadata glm4\.rope\.dimension_sections marks a GLM-4V file"),
    ("glm4", fx.without_keys("glm4.rope.freq_base", "glm4.rope.dimension_count"), None),
    ("glm4moe", lambda w, stored: (fx.drop_keys(w, "glm4moe.nextn_predict_layers"), w.add_nextn_predict_layers(2)),
     r"glm4moe\.nextn_predict_layers is 2; the file has 2 layers in all"),
    ("glm4", lambda w, stored: (fx.drop_keys(w, "glm4.rope.dimension_count"), w.add_rope_dimension_count(3)),
     r"RoPE dimension 3 must be even")])
def test_bad_glm_files_are_refused_in_one_line(tmp_path, arch, edit, match):
    _written(tmp_path, arch, edit=edit)
    if match is None:                      # (no keys: llama.cpp's base 10,000 over the whole head, not refused)
        with open_model(str(tmp_path / "m.gguf")) as model:
            assert (model.config.rope_dim, model.config.rope_base) == (8, 10000.0)
        return
    with pytest.raises(InputError, match=match) as info:
        open_model(str(tmp_path / "m.gguf"))
    assert "\n" not in str(info.value)
