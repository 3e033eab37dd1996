"""OLMo 2 checkpoints (model_type "olmo2") against transformers' Olmo2Config and Olmo2ForCausalLM.

What differs from the Llama-like families: no norm before attention (Olmo2DecoderLayer normalises the
attention's and the MLP's outputs instead), so layer 0's q and k are projections of X itself; and q_norm /
k_norm are RMSNorms over the whole q (heads x head_dim) and k (kv heads x head_dim) projections, before
the split into heads (Qwen3's and Gemma 3's are over one head). The plain X, q/k and RoPE checks run with
every other family in tests/test_models_families.py.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from explorer.backend.models.families import input_norm_names
from explorer.backend.models.hf_folder import open_model
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")
pytest.importorskip("torch")


def test_the_olmo2_7b_defaults_read_as_transformers_reads_them():
    """Olmo2Config() is "a Olmo2 7B style configuration": 4096 wide, 32 heads of 128 (every head its own
    k and v), base 10,000, RMSNorm eps 1e-5, 2,048 positions, no biases; no input norm, q/k norms."""
    hf, cfg = mh.read_defaults(tf.Olmo2Config, "olmo2")
    assert (cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim) == (4096, 32, 32, 128)
    assert cfg.rope_base == hf.rope_parameters["rope_theta"] == 10000.0 and cfg.rope_dim == 128
    assert (cfg.norm_eps, cfg.max_positions, cfg.qk_bias) == (
        hf.rms_norm_eps, hf.max_position_embeddings, hf.attention_bias) == (1e-5, 2048, False)
    assert (cfg.pre_norm, cfg.qk_norm, cfg.layer_norms) == (False, True, False)
    assert input_norm_names(cfg, 0) == (None, None)


@pytest.mark.parametrize("extra, layout", [
    ({}, "4.x"), ({"attention_bias": True}, "5.x"), ({"head_dim": 12}, "5.x"),
    ({"rope_scaling": {"type": "linear", "factor": 3.0}}, "4.x"),
    ({"rope_scaling": {"type": "dynamic", "factor": 2.0}}, "4.x"),
    ({"rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 20}}, "4.x")])
def test_an_olmo2_folder_equals_transformers_layer_0(tmp_path, extra, layout):
    """X, q and k after their norms and RoPE (scaled too) and the softmax of the causal logits equal
    transformers' model of the same folder; with q/k biases, or a head_dim of config.json's own (the
    attention and its RoPE both read it)."""
    import torch

    settings = dict(mh.FAMILIES["olmo2"], **{k: v for k, v in extra.items() if k != "rope_scaling"})
    if "rope_scaling" in extra:
        scaling = dict(extra["rope_scaling"])
        scaling["rope_type"] = scaling.pop("type", None) or scaling["rope_type"]
        settings["rope_parameters"] = {"rope_theta": settings.pop("rope_theta"), **scaling}
    config = tf.Olmo2Config(**settings)
    torch.manual_seed(11)
    rewrite = mh.to_4x_config if layout == "4.x" else (lambda folder: None)
    head_dim = extra.get("head_dim", 8)
    mh.assert_reloaded_as_transformers(tf.Olmo2ForCausalLM, config, tmp_path, "olmo2", rewrite, head_dim)
    with open_model(tmp_path) as model:
        assert (model.config.head_dim, model.config.qk_bias) == (head_dim, extra.get("attention_bias", False))


def test_the_q_norm_spans_all_heads(tmp_path):
    """One RMSNorm over q's 32 channels, not one per head: scaling head 0's q_proj rows by 100 changes
    the rms every head is divided by, so every head's normalised q changes (a per-head norm would leave
    heads 1-3 as they were), and PE Explorer's q equals transformers' q_norm output in both."""
    torch_model = mh.build("olmo2", tmp_path)
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        before = model.layer0_qk(ids).q
    mh.rewrite_tensor(tmp_path, "layers.0.self_attn.q_proj.weight",
                      lambda w: np.concatenate([100 * w[:8], w[8:]]))
    with open_model(tmp_path) as model:
        after = model.layer0_qk(ids).q
    for head in range(1, 4):
        assert not np.allclose(after[head], before[head], rtol=1e-3)
    import torch

    with torch.no_grad():
        torch_model.model.layers[0].self_attn.q_proj.weight[:8] *= 100
    ref = mh.capture(torch_model, "olmo2", ids)["q"]                       # (n, H hd), after q_norm
    np.testing.assert_allclose(after, ref.reshape(len(ids), 4, 8).transpose(1, 0, 2), rtol=0,
                               atol=1e-5 * np.abs(ref).max())


@pytest.mark.parametrize("suffix, change, match", [
    # a per-head norm where OLMo 2 has one over all heads (Qwen3's shape) is named, not broadcast
    ("layers.0.self_attn.q_norm.weight", lambda w: w[:8], r"q_norm.weight has shape \(8,\), not \(32,\)"),
    ("layers.0.self_attn.k_norm.weight", lambda w: w[0], r"k_norm.weight has shape \(\), not \(16,\)")])
def test_a_q_or_k_norm_of_the_wrong_width_is_named(tmp_path, suffix, change, match):
    mh.assert_damaged_refused("olmo2", tmp_path, suffix, change, match)


def test_a_missing_k_norm_is_named(tmp_path):
    mh.assert_damaged_refused("olmo2", tmp_path, "layers.0.self_attn.k_norm.weight", lambda w: None,
                              r"k_norm\.weight")
