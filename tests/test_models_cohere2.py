"""Cohere 2 checkpoints (model_type "cohere2": Command R7B, Command A) against transformers' Cohere2Config and
Cohere2ForCausalLM.

Cohere's attention (a LayerNorm without bias, RoPE on neighbouring channels) without q/k norms; three layers in
four slide over 4,096 tokens (sliding_window_pattern, default 4) and turn q and k, the full layers turn
neither (Cohere2Attention applies RoPE only where it has a sliding window). The plain X, q/k and attention checks
(layer 0 sliding over 6 tokens) run with every other family in tests/test_models_families.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")


def test_the_cohere2_defaults_read_as_transformers_reads_them():
    """Cohere2Config(): 8192 wide, 64 heads of 128, base 10,000, LayerNorm eps 1e-5, layers 0-2 of every 4
    sliding over 4,096 tokens, the 4th full and without RoPE; no q/k norms."""
    hf, cfg = mh.read_defaults(tf.Cohere2Config, "cohere")
    assert cfg.model_type == "cohere2" and cfg.layer_types == tuple(hf.layer_types)
    assert cfg.layer_types[:4] == ("sliding_attention",) * 3 + ("full_attention",)
    assert [cfg.window_of(i) for i in range(4)] == [hf.sliding_window] * 3 + [None] == [4096] * 3 + [None]
    assert cfg.nope_layers == tuple(range(3, hf.num_hidden_layers, 4))
    assert (cfg.rope_base, cfg.norm_eps, cfg.qk_norm, cfg.rope_interleaved) == (10000.0, 1e-5, False, True)


def test_a_config_without_layer_types_reads_the_classes_pattern():
    """No layer_types: sliding_window_pattern (default 4), as Cohere2Config's __post_init__ makes them."""
    for extra in ({}, {"sliding_window_pattern": 2}):
        written = {"model_type": "cohere2", "hidden_size": 32, "num_hidden_layers": 6, "num_attention_heads": 4,
                   "vocab_size": 10, **extra}
        hf = tf.Cohere2Config(**{k: v for k, v in written.items() if k != "model_type"})
        cfg = model_config(written)
        assert cfg.layer_types == tuple(hf.layer_types)
        assert cfg.nope_layers == tuple(i for i, t in enumerate(hf.layer_types) if t == "full_attention")


def test_a_full_layer_turns_no_q_or_k(tmp_path):
    """Layer 3 (full): q and k as projected, no rotation, as Cohere2Attention leaves them there; layer 0 turns.
    Each equals transformers' q/k of that layer given the same hidden state."""
    torch_model = mh.build("cohere2", tmp_path, seed=6)
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        x = np.random.default_rng(0).normal(size=(len(ids), 32)).astype(np.float32)
        full, sliding = model.layer0_qk(x, layer=3), model.layer0_qk(x, layer=0)
    assert np.array_equal(full.q_rot, full.q) and not np.allclose(sliding.q_rot, sliding.q)
    attention = torch_model.model.layers[3].self_attn
    norm = torch_model.model.layers[3].input_layernorm
    with torch.no_grad():
        h = norm(torch.as_tensor(x)[None])
        q = attention.q_proj(h).view(1, len(ids), 4, 8).transpose(1, 2)[0].numpy()   # (H, n, hd)
    np.testing.assert_allclose(full.q_rot, q, atol=1e-5)


def test_use_qk_norm_is_not_read_as_cohere2config_does_not_read_it():
    """Cohere2Attention has no q/k norms: use_qk_norm (true, or even a string) changes nothing."""
    written = {"model_type": "cohere2", "hidden_size": 32, "num_hidden_layers": 4, "num_attention_heads": 4,
               "vocab_size": 10}
    for value in (True, "yes"):
        assert model_config({**written, "use_qk_norm": value}).qk_norm is False
