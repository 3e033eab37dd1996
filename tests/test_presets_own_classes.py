"""The presets of GLM-4, GLM-4.5-Air / GLM-4.7 (glm4_moe), Qwen2.5-VL, Mistral Small 3.1 (mistral3), Phi-2 and
Gemma 3's global layers, each through its own transformers classes: the config class built from the config.json
values the preset was read from, its rotary embedding's inv_freq, and its apply_rotary_pos_emb showing the
preset's pairing (which channel a pair's first channel turns into)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from explorer.backend.presets import get_preset

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")


def _inv(rotary, attr="inv_freq"):
    return getattr(rotary, attr).double().numpy()


def _check(name, inv_freq):
    p = get_preset(name)
    assert inv_freq.shape == (p.rotary_dim // 2,)
    np.testing.assert_allclose(p.frequencies().inv_freq, inv_freq, rtol=1e-6)


def _glm4_config(p):
    from transformers import Glm4Config

    return Glm4Config(hidden_size=p.d_model, num_attention_heads=p.n_heads, num_key_value_heads=p.n_kv_heads,
                      head_dim=p.head_dim, partial_rotary_factor=p.rotary_fraction, rope_theta=p.rope_theta,
                      vocab_size=p.vocab_size, num_hidden_layers=2)


def test_glm4_interleaved_half_rotary():
    """GLM-4-9B-0414: Glm4RotaryEmbedding's 32 frequencies; its apply_rotary_pos_emb turns channel 2i into
    2i + 1 only, and leaves the 64 channels past rotary_dim alone."""
    from transformers.models.glm4.modeling_glm4 import Glm4RotaryEmbedding, apply_rotary_pos_emb

    p = get_preset("glm-4-9b-0414")
    rotary = Glm4RotaryEmbedding(_glm4_config(p))
    _check(p.name, _inv(rotary))
    pair, m = 5, 3000
    x = torch.zeros(1, 1, 1, p.head_dim)
    x[..., 2 * pair] = 1.0
    x[..., p.rotary_dim + 3] = 1.0                            # a channel past the rotated part
    cos, sin = rotary(x, torch.tensor([[m]]))
    out = apply_rotary_pos_emb(x, x, cos, sin)[0][0, 0, 0].double().numpy()
    assert np.flatnonzero(out).tolist() == [2 * pair, 2 * pair + 1, p.rotary_dim + 3]
    angle = float(torch.tensor(float(m)) * rotary.inv_freq[pair])
    np.testing.assert_allclose(out[2 * pair:2 * pair + 2], [math.cos(angle), math.sin(angle)], atol=1e-5)


@pytest.mark.parametrize("name", ["glm-4.5-air", "glm-4.7"])
def test_glm4_moe_rotate_half_partial(name):
    """glm4_moe: the same half-head RoPE, but rotate_half pairs (i, i + rotary_dim/2)."""
    from transformers import Glm4MoeConfig
    from transformers.models.glm4_moe.modeling_glm4_moe import Glm4MoeRotaryEmbedding, apply_rotary_pos_emb

    p = get_preset(name)
    config = Glm4MoeConfig(hidden_size=p.d_model, num_attention_heads=p.n_heads, num_key_value_heads=p.n_kv_heads,
                           head_dim=p.head_dim, partial_rotary_factor=p.rotary_fraction, rope_theta=p.rope_theta,
                           max_position_embeddings=p.max_position_embeddings, vocab_size=p.vocab_size,
                           num_hidden_layers=2, n_routed_experts=4, num_experts_per_tok=2)
    rotary = Glm4MoeRotaryEmbedding(config)
    _check(name, _inv(rotary))
    pair, half = 5, p.rotary_dim // 2
    x = torch.zeros(1, 1, 1, p.head_dim)
    x[..., pair] = 1.0
    cos, sin = rotary(x, torch.tensor([[3000]]))
    out = apply_rotary_pos_emb(x, x, cos, sin)[0][0, 0, 0].double().numpy()
    assert np.flatnonzero(out).tolist() == [pair, pair + half]


def test_qwen25_vl_text_tokens_are_plain_rope():
    """Qwen2.5-VL: Qwen2_5_VLRotaryEmbedding (M-RoPE, sections 16 / 24 / 24) has the preset's 64 frequencies, and
    for a text token (the same id on the temporal, height and width axes) its cos / sin are plain RoPE's."""
    from transformers import Qwen2_5_VLConfig
    from transformers.models.qwen2_5_vl.modeling_qwen2_5_vl import Qwen2_5_VLRotaryEmbedding

    p = get_preset("qwen2.5-vl-7b")
    config = Qwen2_5_VLConfig(text_config={
        "hidden_size": p.d_model, "num_attention_heads": p.n_heads, "num_key_value_heads": p.n_kv_heads,
        "max_position_embeddings": p.max_position_embeddings, "vocab_size": p.vocab_size, "num_hidden_layers": 2,
        "rope_theta": p.rope_theta,
        "rope_scaling": {"mrope_section": [16, 24, 24], "rope_type": "default", "type": "default"}})
    rotary = Qwen2_5_VLRotaryEmbedding(config.text_config)
    _check(p.name, _inv(rotary))
    assert rotary.mrope_section == [16, 24, 24] and sum(rotary.mrope_section) == p.head_dim // 2
    positions = torch.arange(0, 60000, 997)
    cos, sin = rotary(torch.zeros(1, 1, p.head_dim), positions[None, None, :].expand(3, 1, -1))
    angles = positions.float()[:, None] * rotary.inv_freq[None, :]          # plain RoPE, as transformers forms it
    torch.testing.assert_close(cos[0], torch.cat([angles, angles], -1).cos(), rtol=0, atol=0)
    torch.testing.assert_close(sin[0], torch.cat([angles, angles], -1).sin(), rtol=0, atol=0)


def test_mistral_small_31_text_config():
    """Mistral Small 3.1: the mistral3 wrapper's text_config, read by Mistral3Config, through MistralRotaryEmbedding
    (head_dim 128 from the config, not 5120 / 32)."""
    from transformers import Mistral3Config
    from transformers.models.mistral.modeling_mistral import MistralRotaryEmbedding

    p = get_preset("mistral-small-3.1")
    config = Mistral3Config(text_config={
        "model_type": "mistral", "head_dim": 128, "hidden_size": 5120, "num_attention_heads": 32,
        "num_key_value_heads": 8, "max_position_embeddings": 131072, "rope_theta": 1000000000.0,
        "sliding_window": None, "vocab_size": 131072, "num_hidden_layers": 2})
    text = config.get_text_config()
    assert (text.head_dim, text.hidden_size, text.num_key_value_heads) == (p.head_dim, p.d_model, p.n_kv_heads)
    _check(p.name, _inv(MistralRotaryEmbedding(text)))


def test_phi2_partial_rotary():
    """Phi-2: rotary_dim 32 of head_dim 80 is PhiConfig's partial_rotary_factor 0.4; PhiRotaryEmbedding's 16
    frequencies."""
    from transformers import PhiConfig
    from transformers.models.phi.modeling_phi import PhiRotaryEmbedding

    p = get_preset("phi-2")
    config = PhiConfig(hidden_size=2560, num_attention_heads=32, max_position_embeddings=2048, vocab_size=51200,
                       partial_rotary_factor=32 / 80, num_hidden_layers=2)
    assert config.rope_parameters["rope_theta"] == p.rope_theta
    _check(p.name, _inv(PhiRotaryEmbedding(config)))


def test_gemma3_global_layers():
    """Gemma 3 1B from its 4.x config.json form: Gemma3TextConfig puts rope_theta on the full-attention layers and
    rope_local_base_freq on the sliding ones; the preset is the full-attention set."""
    from transformers import Gemma3TextConfig
    from transformers.models.gemma3.modeling_gemma3 import Gemma3RotaryEmbedding

    p = get_preset("gemma-3-1b-global")
    config = Gemma3TextConfig(hidden_size=1152, num_attention_heads=4, num_key_value_heads=1, head_dim=256,
                              max_position_embeddings=32768, rope_theta=1000000, rope_local_base_freq=10000,
                              rope_scaling=None, sliding_window=512, vocab_size=262144, num_hidden_layers=6)
    assert config.layer_types.count("full_attention") == 1
    rotary = Gemma3RotaryEmbedding(config)
    _check(p.name, _inv(rotary, "full_attention_inv_freq"))
    local = _inv(rotary, "sliding_attention_inv_freq")
    np.testing.assert_allclose(local[1], 10000 ** (-2 / 256), rtol=1e-6)     # the sliding layers' base
    assert p.embedding_scale == pytest.approx(config.hidden_size ** 0.5)
