"""OLMo (1) checkpoints (model_type "olmo") against transformers' OlmoConfig and OlmoForCausalLM.

What differs from Llama at layer 0: OlmoLayerNorm, a LayerNorm without weight or bias (eps 1e-5, whatever
config.json says), before attention; and clip_qkv (default none), which clamps q, k and v to
[-clip_qkv, clip_qkv] right after the projections, before RoPE. The plain X, q/k and RoPE checks run with
every other family in tests/test_models_families.py.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")
pytest.importorskip("torch")


def test_the_olmo_defaults_read_as_transformers_reads_them():
    """OlmoConfig(): 4096 wide, 32 heads (each its own k and v), base 10,000, no clamp, no biases."""
    hf, cfg = mh.read_defaults(tf.OlmoConfig, "olmo")
    assert (cfg.rope_base, cfg.qkv_clip, cfg.qk_bias, cfg.norm_eps, cfg.max_positions) == (
        hf.rope_parameters["rope_theta"], hf.clip_qkv, hf.attention_bias, 1e-5, hf.max_position_embeddings)


@pytest.mark.parametrize("clip", [None, 0.3, 50.0])
@pytest.mark.parametrize("layout", ["4.x", "5.x"])
def test_an_olmo_folder_equals_transformers_layer_0(tmp_path, clip, layout):
    """X, q and k after the clamp and RoPE, and the causal softmax, equal transformers' model of the same
    folder; a clamp of 0.3 holds most of q and k at +-0.3, one of 50 none of it."""
    import torch

    settings = dict(mh.FAMILIES["olmo"], clip_qkv=clip, attention_bias=True, rms_norm_eps=0.5)   # (eps unread)
    torch.manual_seed(29)
    rewrite = mh.to_4x_config if layout == "4.x" else (lambda folder: None)
    mh.assert_reloaded_as_transformers(tf.OlmoForCausalLM, tf.OlmoConfig(**settings), tmp_path, "olmo", rewrite, 8)
    with open_model(tmp_path) as model:
        qk = model.layer0_qk(model.tokenize(mh.TEXT).ids)
        at_clip = np.isclose(np.abs(qk.q), clip or np.inf).mean()
        assert (at_clip > 0.3) if clip == 0.3 else at_clip == 0


def test_a_stray_input_layernorm_is_not_read(tmp_path):
    """OLMo's norm has no weight: a checkpoint that carries one anyway (NaN here) is read as transformers
    reads it, without it."""
    from safetensors.numpy import load_file, save_file

    torch_model = mh.build("olmo", tmp_path)
    tensors = load_file(tmp_path / "model.safetensors")
    tensors["model.layers.0.input_layernorm.weight"] = np.full(32, np.nan, np.float32)
    save_file(tensors, tmp_path / "model.safetensors", metadata={"format": "pt"})
    with open_model(tmp_path) as model:
        mh.assert_layer0_as_transformers(model, torch_model, "olmo", model.tokenize(mh.TEXT).ids)


@pytest.mark.parametrize("value", [0, -1.0, "8", True, [8]])
def test_a_clip_that_is_not_a_positive_number_is_refused_in_one_line(value):
    cfg = {"model_type": "olmo", "hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 4,
           "vocab_size": 10, "clip_qkv": value}
    with pytest.raises(InputError, match="config.json: clip_qkv must be a positive number or null") as info:
        model_config(cfg)
    assert "\n" not in str(info.value)
