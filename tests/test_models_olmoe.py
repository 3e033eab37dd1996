"""OLMoE checkpoints (model_type "olmoe") against transformers' OlmoeConfig and OlmoeForCausalLM.

What differs at layer 0: an RMSNorm before attention (OLMo 2 has none), RMSNorms over the whole q and k
projections (as OLMo 2's), and, when clip_qkv is set, q and k clamped after those norms (OLMo's clamps the
projections themselves); the experts of its MLP are never read. The plain X, q/k and attention checks (clip 0.9,
which the normalised q and k pass) run with every other family in tests/test_models_families.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.families import input_norm_names
from explorer.backend.models.hf_folder import open_model
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")
pytest.importorskip("torch")


def test_the_olmoe_defaults_read_as_transformers_reads_them():
    """OlmoeConfig() (OLMoE-1B-7B's shape): 2048 wide, 16 heads of 128, base 10,000, RMSNorm eps 1e-5, 4,096
    positions, no biases, no clip; an input norm and q/k norms over all heads."""
    hf, cfg = mh.read_defaults(tf.OlmoeConfig, "olmoe")
    assert (cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim) == (2048, 16, 16, 128)
    assert (cfg.rope_base, cfg.norm_eps, cfg.max_positions, cfg.qk_bias, cfg.qkv_clip) == (
        hf.rope_parameters["rope_theta"], hf.rms_norm_eps, hf.max_position_embeddings, hf.attention_bias,
        hf.clip_qkv) == (10000.0, 1e-5, 4096, False, None)
    assert (cfg.pre_norm, cfg.qk_norm) == (True, True)
    assert input_norm_names(cfg, 0) == ("layers.0.input_layernorm.weight", None)


@pytest.mark.parametrize("extra, layout", [({}, "4.x"), ({"clip_qkv": None}, "5.x"), ({"clip_qkv": 0.3}, "5.x")])
def test_an_olmoe_folder_equals_transformers_layer_0(tmp_path, extra, layout):
    """X, q and k after their norms, clamp and RoPE, and the causal softmax equal transformers'; a clamp of 0.3
    cuts most of the normalised q and k."""
    import torch

    config = tf.OlmoeConfig(**dict(mh.FAMILIES["olmoe"], **extra))
    torch.manual_seed(19)
    rewrite = mh.to_4x_config if layout == "4.x" else (lambda folder: None)
    mh.assert_reloaded_as_transformers(tf.OlmoeForCausalLM, config, tmp_path, "olmoe", rewrite, 8)
    with open_model(tmp_path) as model:
        qk = model.layer0_qk(model.tokenize(mh.TEXT).ids)
        clip = extra.get("clip_qkv", 0.9)
        assert model.config.qkv_clip == clip
        if clip is not None:
            assert np.abs(qk.q).max() <= clip and np.isclose(np.abs(qk.q).max(), clip)
