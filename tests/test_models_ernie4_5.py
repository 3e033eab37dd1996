"""ERNIE 4.5 (explorer.backend.models.ernie4_5) against transformers 5.25's Ernie4_5ForCausalLM and
Ernie4_5_MoeForCausalLM: X, layer 0's q / k after RoPE and its attention; RoPE on neighbouring pairs (2j, 2j + 1)
(apply_rotary_pos_emb's repeat_interleave), not rotate-half; the classes' defaults, ERNIE-4.5-0.3B's published
config.json, and bad fields refused in one line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")

# ERNIE-4.5-0.3B's config.json as published (its remote-code layout, architectures Ernie4_5_ForCausalLM; found with
# the find_string tool on its "auto_map" line)
ERNIE_03B = {"architectures": ["Ernie4_5_ForCausalLM"],
             "auto_map": {"AutoConfig": "configuration_ernie4_5.Ernie4_5_Config",
                          "AutoModel": "modeling_ernie4_5.Ernie4_5_Model",
                          "AutoModelForCausalLM": "modeling_ernie4_5.Ernie4_5_ForCausalLM"},
             "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu", "hidden_size": 1024, "intermediate_size": 3072,
             "max_position_embeddings": 131072, "model_type": "ernie4_5", "num_attention_heads": 16,
             "num_key_value_heads": 2, "head_dim": 128, "num_hidden_layers": 18, "pad_token_id": 0,
             "rms_norm_eps": 1e-05, "use_cache": False, "vocab_size": 103424, "rope_theta": 500000, "use_bias": False,
             "tie_word_embeddings": True, "torch_dtype": "bfloat16"}
CLASSES = {"ernie4_5": ("Ernie4_5Config", "Ernie4_5ForCausalLM"),
           "ernie4_5_moe": ("Ernie4_5_MoeConfig", "Ernie4_5_MoeForCausalLM")}


def _written(config) -> dict:
    return json.loads(json.dumps(config.to_dict()))


def test_the_classes_defaults_read_as_transformers_reads_them():
    """Ernie4_5Config: head_dim 128 (not 1024 / 16), 2 kv heads; Ernie4_5_MoeConfig: no head_dim field (its attention
    takes 2560 / 20), 4 kv heads; both base 500,000 (default_theta), eps 1e-5, 131,072 positions, no biases."""
    for model_type, (config_name, _) in CLASSES.items():
        hf = getattr(tf, config_name)()
        cfg = model_config(_written(hf))
        head_dim = getattr(hf, "head_dim", None) or hf.hidden_size // hf.num_attention_heads
        assert (cfg.model_type, cfg.family, cfg.position, cfg.rope_interleaved) == (model_type, "llama", "rope", True)
        assert (cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim) == (
            hf.hidden_size, hf.num_attention_heads, hf.num_key_value_heads, head_dim)
        assert (cfg.rope_base, cfg.norm_eps, cfg.max_positions, cfg.qk_bias) == (
            hf.rope_parameters["rope_theta"], hf.rms_norm_eps, hf.max_position_embeddings, hf.use_bias)
        assert cfg.rope_base == 500000.0 and cfg.head_dim == 128 and cfg.rope_dim == 128


def test_ernie_0_3b_published_config_opens_with_its_head_dim_base_and_pairs():
    cfg = model_config(dict(ERNIE_03B))
    hf = tf.Ernie4_5Config(**{k: v for k, v in ERNIE_03B.items() if k not in ("architectures", "auto_map",
                                                                               "model_type")})
    assert (cfg.head_dim, cfg.rope_base, cfg.rope_interleaved, cfg.rope_dim) == (128, 500000.0, True, 128)
    assert (cfg.head_dim, cfg.rope_base) == (hf.head_dim, hf.rope_parameters["rope_theta"])
    assert (cfg.n_heads, cfg.n_kv_heads, cfg.qk_bias, cfg.dtype, cfg.rope_scaling.rope_type) == (
        16, 2, False, "bfloat16", "default")


def _saved(model_type: str, folder, settings: dict, seed: int = 5):
    config_name, model_name = CLASSES[model_type]
    config = getattr(tf, config_name)(**{**mh.FAMILIES[model_type], **settings})
    config._attn_implementation = "eager"
    torch.manual_seed(seed)
    return mh.save_random(getattr(tf, model_name)(config).eval(), folder)


@pytest.mark.parametrize("model_type, settings", [
    ("ernie4_5", {}),                                                      # heads of 12, biases
    ("ernie4_5", dict(use_bias=False, head_dim=None)),                     # hidden / heads, no biases read
    ("ernie4_5", dict(num_key_value_heads=None,                            # one kv head a head; YaRN x4 from 10
                      rope_parameters={"rope_type": "yarn", "rope_theta": 800.0, "factor": 4.0,
                                       "original_max_position_embeddings": 10})),
    ("ernie4_5_moe", {}),                                                  # heads of hidden / heads (8), biases
    ("ernie4_5_moe", dict(head_dim=16, use_bias=False)),                   # a config.json head_dim it reads
], ids=["dense", "dense-no-bias-head-dim-null", "dense-kv-null-yarn", "moe", "moe-head-dim-16"])
def test_ernie_equals_transformers(tmp_path, model_type, settings):
    """X, q and k after RoPE, and the causal softmax of layer 0 for 52 tokens, to 1e-5 of transformers'."""
    reference = _saved(model_type, tmp_path, settings)
    with open_model(tmp_path) as model:
        assert (model.config.model_type, model.config.rope_interleaved) == (model_type, True)
        assert model.config.head_dim == reference.model.layers[0].self_attn.head_dim
        ids = model.tokenize(" ".join([mh.TEXT] * 4)).ids
        mh.assert_layer0_as_transformers(model, reference, model_type, ids)


def _turned(x: np.ndarray, angles: np.ndarray, neighbours: bool) -> np.ndarray:
    """x (H, n, hd) turned by angles (n, hd / 2): pair j is channels (2j, 2j + 1), else (j, j + hd / 2)."""
    half = x.shape[-1] // 2
    a, b = (x[..., 0::2], x[..., 1::2]) if neighbours else (x[..., :half], x[..., half:])
    cos, sin = np.cos(angles), np.sin(angles)
    a2, b2 = a * cos - b * sin, a * sin + b * cos
    return np.stack([a2, b2], axis=-1).reshape(x.shape) if neighbours else np.concatenate([a2, b2], axis=-1)


@pytest.mark.parametrize("model_type", sorted(CLASSES))
def test_rope_turns_neighbouring_pairs_not_rotate_half(tmp_path, model_type):
    """transformers' q after RoPE is q_proj's turned in pairs (2j, 2j + 1) at base^(-2j / hd) x m, far from the same
    angles turned rotate-half; PE Explorer's q / k after RoPE are the former (a rotate-half reading fails here)."""
    reference = _saved(model_type, tmp_path, {})
    hd = reference.model.layers[0].self_attn.head_dim
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        ref = mh.capture(reference, model_type, ids)
        q = ref["q"].reshape(len(ids), -1, hd).transpose(1, 0, 2).astype(np.float64)         # (H, n, hd)
        base = mh.FAMILIES[model_type]["rope_theta"]
        angles = np.arange(len(ids))[:, None] * base ** (-np.arange(0, hd, 2) / hd)[None, :]  # (n, hd / 2)
        pairs, half = _turned(q, angles, True), _turned(q, angles, False)
        scale = np.abs(q).max()
        np.testing.assert_allclose(ref["q_rot"], pairs, rtol=0, atol=1e-5 * scale)        # transformers' pairing
        assert np.abs(half - pairs)[:, 1:].max() > 0.1 * scale                             # (position 0 turns not)
        qk = model.layer0_qk(ids)
        np.testing.assert_allclose(qk.q_rot, pairs, rtol=0, atol=1e-5 * scale)
        np.testing.assert_allclose(qk.q, q, rtol=0, atol=1e-5 * scale)


def test_a_moe_config_with_a_null_head_dim_reads_hidden_over_heads(tmp_path):
    """Ernie4_5_MoeConfig has no head_dim field: a null one (as some quoted 21B-A3B configs carry) is read as
    hidden / heads, the width its rotary embedding falls back to (getattr(config, "head_dim", None) or hidden / heads)
    and that of the model built without it."""
    reference = _saved("ernie4_5_moe", tmp_path, {})
    cfg = json.loads((tmp_path / "config.json").read_text())
    assert "head_dim" not in cfg
    (tmp_path / "config.json").write_text(json.dumps({**cfg, "head_dim": None}))
    with open_model(tmp_path) as model:
        assert model.config.head_dim == 8
        ids = model.tokenize(mh.TEXT).ids
        mh.assert_layer0_as_transformers(model, reference, "ernie4_5_moe", ids)


@pytest.mark.parametrize("model_type, change, says", [
    ("ernie4_5", {"use_bias": "false"}, "use_bias must be true, false or null, not 'false'"),
    ("ernie4_5_moe", {"use_bias": 1}, "use_bias must be true, false or null, not 1"),
    ("ernie4_5_moe", {"num_key_value_heads": None}, "num_key_value_heads must be a positive integer, not null"),
    ("ernie4_5", {"head_dim": 0}, "head_dim must be a whole number from 1"),
    ("ernie4_5", {"head_dim": "128"}, "head_dim must be a whole number from 1"),
    ("ernie4_5", {"rope_theta": 1}, "rope_theta .RoPE's base. must be a number > 1"),
    ("ernie4_5_moe", {"num_key_value_heads": 3}, "num_attention_heads 4 is not a multiple of num_key_value_heads 3"),
])
def test_bad_ernie_fields_are_refused_in_one_line(model_type, change, says):
    with pytest.raises(InputError, match=says) as info:
        model_config({**mh.FAMILIES[model_type], "model_type": model_type, **change})
    assert "\n" not in str(info.value)


def test_a_use_bias_checkpoints_short_bias_is_refused_in_one_line(tmp_path):
    """(A missing one reads as zeros, as for every family: layer_weights.bias.)"""
    mh.assert_damaged_refused("ernie4_5", tmp_path, "layers.0.self_attn.k_proj.bias", lambda t: t[:-1],
                              r"k_proj.bias has shape \(23,\), not \(24,\)")


@pytest.mark.parametrize("model_type", sorted(CLASSES))
def test_a_config_naming_only_its_sizes_gets_the_classs_defaults(model_type):
    """rope_theta, head_dim, kv heads, eps and positions left out: the class's (transformers' default_theta 500,000,
    Ernie4_5Config's head_dim 128 and 2 kv heads, Ernie4_5_MoeConfig's hidden / heads and 4 kv heads)."""
    sizes = {"hidden_size": 64, "num_attention_heads": 8, "num_hidden_layers": 2, "vocab_size": 64}
    hf = getattr(tf, CLASSES[model_type][0])(**sizes)
    cfg = model_config({**sizes, "model_type": model_type})
    assert (cfg.rope_base, cfg.head_dim, cfg.n_kv_heads, cfg.norm_eps, cfg.max_positions, cfg.qk_bias) == (
        hf.rope_parameters["rope_theta"], getattr(hf, "head_dim", 64 // 8), hf.num_key_value_heads, hf.rms_norm_eps,
        hf.max_position_embeddings, False)
    assert cfg.head_dim == (128 if model_type == "ernie4_5" else 8) and cfg.rope_base == 500000.0
