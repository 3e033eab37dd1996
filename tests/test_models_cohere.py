"""Cohere Command-R checkpoints (model_type "cohere") against transformers' CohereConfig and CohereForCausalLM.

What differs from Llama at layer 0: the norm before attention is a LayerNorm without bias (CohereLayerNorm,
eps layer_norm_eps); with use_qk_norm, q and k get a LayerNorm of each head's own (weights (heads, head_dim))
before RoPE; and RoPE turns neighbouring channels (2i, 2i + 1) over the whole head (its rotate_half takes
x[..., ::2] and x[..., 1::2], its cos / sin repeat_interleave), as GPT-J does on part of a head. The plain X,
q/k and attention checks run with every other family in tests/test_models_families.py.
"""

from __future__ import annotations

import pytest

from explorer.backend.models.config import model_config
from explorer.backend.models.families import input_norm_names
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")
pytest.importorskip("torch")


def test_the_cohere_defaults_read_as_transformers_reads_them():
    """CohereConfig() (Command-R's shape): 8192 wide, 64 heads of 128 (every head its own k and v), base
    500,000, LayerNorm eps 1e-5 without bias, 8,192 positions, no biases, no q/k norms, pairs (2i, 2i + 1)."""
    hf, cfg = mh.read_defaults(tf.CohereConfig, "cohere")
    assert (cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim) == (8192, 64, 64, 128)
    assert cfg.rope_base == hf.rope_parameters["rope_theta"] == 500000.0 and cfg.rope_dim == 128
    assert (cfg.norm_eps, cfg.max_positions, cfg.qk_bias, cfg.qk_norm) == (
        hf.layer_norm_eps, hf.max_position_embeddings, hf.attention_bias, hf.use_qk_norm) == (1e-5, 8192, False, False)
    assert (cfg.layer_norms, cfg.rope_interleaved) == (True, True)
    assert input_norm_names(cfg, 0) == ("layers.0.input_layernorm.weight", None)


@pytest.mark.parametrize("extra, layout", [
    ({}, "4.x"), ({"use_qk_norm": False}, "5.x"), ({"attention_bias": True}, "4.x"),
    ({"rope_parameters": {"rope_type": "linear", "factor": 3.0, "rope_theta": 800.0}}, "5.x")])
def test_a_cohere_folder_equals_transformers_layer_0(tmp_path, extra, layout):
    """X, q and k after their norms and RoPE and the causal softmax equal transformers' for 52 tokens (past the
    40 positions: Cohere's sines are computed, not a table as GPT-J's); with and without q/k norms, biases,
    linear scaling."""
    import torch

    settings = dict(mh.FAMILIES["cohere"], **extra)
    if "rope_parameters" in extra:
        settings.pop("rope_theta")
    config = tf.CohereConfig(**settings)
    torch.manual_seed(17)
    rewrite = mh.to_4x_config if layout == "4.x" else (lambda folder: None)
    mh.assert_reloaded_as_transformers(tf.CohereForCausalLM, config, tmp_path, "cohere", rewrite, 8)
    with open_model(tmp_path) as model:
        assert (model.config.qk_norm, model.config.qk_bias) == (extra.get("use_qk_norm", True),
                                                                extra.get("attention_bias", False))


def test_neighbouring_channels_turn_together(tmp_path):
    """Channel 2i turns with 2i + 1: a q whose only non-zero channel is 0 keeps channels 2 .. 7 zero after
    RoPE, channel 1 gets sin (rotate-half would move it to channel 4)."""
    mh.build("cohere", tmp_path, seed=3)
    with open_model(tmp_path) as model:
        qk = model.layer0_qk(model.tokenize(mh.TEXT).ids)
    import numpy as np

    from explorer.backend.models.attention import rotate

    q = np.zeros((1, 5, 8), np.float32)
    q[..., 0] = 1.0
    inv_freq = 1.0 / 800.0 ** (np.arange(0, 8, 2) / 8)
    turned = rotate(q, inv_freq.astype(np.float32), 1.0, None, model.config.rope_interleaved)
    assert np.abs(turned[..., 2:]).max() == 0 and np.allclose(turned[0, :, 1], np.sin(np.arange(5)), atol=1e-6)
    assert qk.q_rot.shape == qk.q.shape


def test_a_config_without_rope_theta_or_use_qk_norm_reads_as_cohereconfig():
    written = {"model_type": "cohere", "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
               "vocab_size": 10}
    assert model_config({**written, "use_qk_norm": None}).qk_norm is False      # (CohereConfig: bool | None)
    hf = tf.CohereConfig(**{k: v for k, v in written.items() if k != "model_type"})
    assert model_config(written).rope_base == hf.rope_parameters["rope_theta"] == 500000.0   # (default_theta)
    with pytest.raises(InputError, match="use_qk_norm must be true or false"):
        model_config({**written, "use_qk_norm": "yes"})
