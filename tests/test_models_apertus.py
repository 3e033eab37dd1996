"""Apertus (model_type apertus: swiss-ai Apertus-8B / 70B) read as transformers 5.25's ApertusConfig /
ApertusForCausalLM read it: Llama's projections (no biases unless attention_bias), an RMSNorm of each head's own on
q and on k (q_norm / k_norm, eps rms_norm_eps) applied BEFORE RoPE (ApertusAttention.forward: q_proj, view,
transpose, q_norm, then apply_rotary_pos_emb), rotate-half over the whole head, the layer's input norm named
attention_layernorm, and the class's Llama 3 RoPE (x8 from 8,192 at base 1.2e7, ApertusConfig.__post_init__) when
config.json names no rope settings, whatever its rope_theta says. The xIELU MLP is never read. (The tiny
checkpoint of tests/models_helpers.py, "apertus", also runs tests/test_models_families.py's checks.)"""

from __future__ import annotations

import json

import numpy as np
import pytest

from explorer.backend.models.attention import rotate
from explorer.backend.models.config import model_config
from explorer.backend.models.families import rms_norm
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh
from tests.test_models_families import _same_attention, close, same_layer0

tf = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")

# Apertus-8B's config.json (swiss-ai/Apertus-8B-Instruct-2509, ApertusConfig's auto_docstring checkpoint) as
# ollama's MLX runner test quotes it (TestParseConfigApertus8B, found with the find_string tool on
# '"ApertusForCausalLM"'): 32 heads of 4096 / 32 = 128 channels, 8 kv heads, Llama 3 RoPE x8 from 8,192 at base
# 1.2e7, 65,536 positions, q/k norms (its qk_norm / post_norm keys are its own: transformers keeps them unread)
APERTUS_8B = {"architectures": ["ApertusForCausalLM"], "model_type": "apertus", "dtype": "bfloat16",
              "hidden_size": 4096, "intermediate_size": 21504, "num_hidden_layers": 32, "num_attention_heads": 32,
              "num_key_value_heads": 8, "max_position_embeddings": 65536, "rope_theta": 12000000,
              "rope_scaling": {"factor": 8, "high_freq_factor": 4, "low_freq_factor": 1,
                               "original_max_position_embeddings": 8192, "rope_type": "llama3", "type": "llama3"},
              "hidden_act": "xielu", "qk_norm": True, "post_norm": False, "attention_bias": False,
              "mlp_bias": False, "tie_word_embeddings": False, "rms_norm_eps": 1e-5, "vocab_size": 131072}


def _hf(cfg: dict):
    return tf.ApertusConfig(**{k: v for k, v in cfg.items() if k not in ("model_type", "architectures")})


def _as_transformers(cfg, hf) -> None:
    """cfg (a ModelConfig) has the widths, RoPE and norms that ApertusForCausalLM of hf would run."""
    rope = hf.rope_parameters
    assert (cfg.family, cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim) == (
        "apertus", hf.hidden_size, hf.num_attention_heads, hf.num_key_value_heads,
        getattr(hf, "head_dim", hf.hidden_size // hf.num_attention_heads))
    assert (cfg.rope_dim, cfg.rope_base, cfg.rope_interleaved) == (cfg.head_dim, rope["rope_theta"], False)
    assert (cfg.rope_scaling.rope_type, cfg.rope_scaling.factor) == (rope["rope_type"], rope.get("factor"))
    assert (cfg.qk_norm, cfg.qk_bias, cfg.norm_eps, cfg.max_positions) == (
        True, hf.attention_bias, hf.rms_norm_eps, hf.max_position_embeddings)


def test_the_class_defaults_read_as_transformers_reads_them():
    """ApertusConfig(): Llama 3 RoPE x8 from 8,192 at base 1.2e7, one kv head per head, q/k norms, no biases."""
    hf, cfg = mh.read_defaults(tf.ApertusConfig, "apertus")
    _as_transformers(cfg, hf)
    assert (cfg.rope_base, cfg.rope_scaling.original_max_position_embeddings, cfg.n_kv_heads) == (12e6, 8192, 32)


@pytest.mark.parametrize("name, keys", [
    ("no rope keys", {}),
    ("a rope_theta alone (the class's Llama 3 RoPE wins)", {"rope_theta": 500.0}),
    ("a 4.x linear rope_scaling without rope_theta (its default_theta)", {
        "rope_scaling": {"rope_type": "linear", "factor": 2.0}}),
])
def test_rope_settings_read_as_the_class_fills_them_in(name, keys):
    plain = {"model_type": "apertus", "hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 4,
             "vocab_size": 10, **keys}
    cfg, hf = model_config(plain), _hf(plain)
    _as_transformers(cfg, hf)
    assert cfg.rope_base == 12e6


def test_published_apertus_8b_opens_as_transformers_reads_it():
    cfg, hf = model_config(dict(APERTUS_8B)), _hf(APERTUS_8B)
    _as_transformers(cfg, hf)
    assert (cfg.head_dim, cfg.n_kv_heads, cfg.rope_base, cfg.rope_scaling.rope_type, cfg.dtype) == (
        128, 8, 12e6, "llama3", "bfloat16")
    assert cfg.rope_scaling.original_max_position_embeddings == 8192 and cfg.rope_type_label.startswith("llama3 ×8")


def test_apertus_equals_transformers_with_its_qk_norms_before_rope(tmp_path):
    """X, q / k after RoPE and the attention of ApertusForCausalLM for 52 tokens (Llama 3 RoPE from 8 positions);
    q before RoPE is q_proj's normalised per head with q_norm's weight: the same norm after RoPE would differ."""
    config = tf.ApertusConfig(**mh.FAMILIES["apertus"])
    config._attn_implementation = "eager"
    torch.manual_seed(7)
    reference = mh.save_random(tf.ApertusForCausalLM(config).eval(), tmp_path)
    with open_model(tmp_path) as model:
        ids = model.tokenize(" ".join([mh.TEXT] * 4)).ids
        ref = mh.capture(reference, "apertus", ids)
        same_layer0(model, ref, ids)
        _same_attention(model, reference, ids)
        qk, att = model.layer0_qk(ids), reference.model.layers[0].self_attn
        close(qk.q, ref["q"])                                                     # (H, n, hd), after q_norm
        weight, eps = att.q_norm.weight.detach().numpy(), model.config.norm_eps
        x = reference.model.layers[0].attention_layernorm(torch.as_tensor(ref["x"])[None]).detach().numpy()[0]
        q_proj = (x @ att.q_proj.weight.detach().numpy().T).reshape(len(ids), 4, 12).transpose(1, 0, 2)
        close(qk.q, rms_norm(q_proj, weight, eps))
        assert not np.allclose(qk.q, q_proj, atol=1e-2)                           # (the norm shows)
        # the same norm after RoPE (not Apertus's order): q_norm's weight differs within a turned pair (i, i + 6)
        inv_freq, scaling = model.rope_inv_freq(len(ids))
        close(rotate(qk.q, inv_freq, scaling), qk.q_rot)                          # Apertus: rotate(norm(q))
        assert not np.allclose(rms_norm(rotate(q_proj, inv_freq, scaling), weight, eps), qk.q_rot, atol=1e-3)


def test_a_4x_file_reloads_as_transformers(tmp_path):
    """A 4.x config.json (rope_theta, a llama3 rope_scaling) reloaded by transformers: the same X, q, k, attention."""
    config = tf.ApertusConfig(**mh.FAMILIES["apertus"])
    mh.assert_reloaded_as_transformers(tf.ApertusForCausalLM, config, tmp_path, "apertus", mh.to_4x_config,
                                       rotated=12)


def test_a_missing_or_misshapen_norm_is_refused_in_one_line(tmp_path):
    mh.assert_damaged_refused("apertus", tmp_path / "a", "layers.0.attention_layernorm.weight", lambda t: None,
                              r"attention_layernorm")
    mh.assert_damaged_refused("apertus", tmp_path / "b", "layers.0.self_attn.k_norm.weight", lambda t: t[:-1],
                              r"k_norm")


@pytest.mark.parametrize("change, says", [
    ({"head_dim": None}, r"config\.json: head_dim must be a whole number from 1 to 65,536, not null"),
    ({"num_key_value_heads": 3}, r"num_attention_heads 32 is not a multiple of num_key_value_heads 3"),
    ({"rms_norm_eps": "small"}, r"rms_norm_eps must be a positive number, not 'small'"),
])
def test_bad_fields_are_refused_in_one_line(change, says):
    with pytest.raises(InputError, match=says) as info:
        model_config({**APERTUS_8B, **change})
    assert "\n" not in str(info.value)
