"""GLM-4 (glm4) and GLM-4.5 / 4.6 (glm4_moe) checkpoints read as transformers 5.25's Glm4Config /
Glm4ForCausalLM and Glm4MoeConfig / Glm4MoeForCausalLM read them: the first partial_rotary_factor of each head
turns, GLM-4's in neighbouring pairs (2i, 2i + 1), GLM-4.5's rotate-half (i, i + rot/2); q/k/v biases by
attention_bias (GLM-4's default true), GLM-4.5's per-head q/k RMSNorms when use_qk_norm. (The tiny checkpoints
of tests/models_helpers.py also run tests/test_models_families.py's checks.)"""

from __future__ import annotations

import json

import pytest

from explorer.backend.models.config import model_config
from explorer.errors import InputError
from tests import models_helpers as mh

pytest.importorskip("transformers")
pytest.importorskip("torch")

# GLM-4.5 (zai-org/GLM-4.5, 355B-A32B)'s attention as published in public code found with the search tool:
# zyzshishui/slime scripts/models/glm4.5-355B-A32B.sh (--hidden-size 5120, --num-attention-heads 96,
# --num-query-groups 8, --kv-channels 128, --rotary-percent 0.5, --rotary-base 1000000, --add-qkv-bias,
# --qk-layernorm, 92 layers, 3 dense) and pufanyi/Megatron-Bridge docs/models/llm/glm45.md ("Includes QK
# LayerNorm"; GLM-4.5-Air: 4096 hidden, 96 heads, 8 query groups, "No QK LayerNorm"), written as the config.json
# keys Glm4MoeConfig reads (head_dim, partial_rotary_factor, rope_theta, attention_bias, use_qk_norm)
GLM45 = {"model_type": "glm4_moe", "architectures": ["Glm4MoeForCausalLM"], "hidden_size": 5120,
         "num_attention_heads": 96, "num_key_value_heads": 8, "head_dim": 128, "num_hidden_layers": 92,
         "first_k_dense_replace": 3, "partial_rotary_factor": 0.5, "rope_theta": 1000000, "attention_bias": True,
         "use_qk_norm": True, "max_position_embeddings": 131072, "vocab_size": 151552}


def _as_transformers(cfg, hf) -> None:
    """cfg (a ModelConfig) has the widths, RoPE, biases and norms that transformers' model of hf would run."""
    # (Glm4Attention / Glm4MoeAttention: getattr(config, "head_dim", hidden // heads); their rotary embedding
    # turns int(head_dim x partial_rotary_factor) channels)
    head_dim = getattr(hf, "head_dim", None) or hf.hidden_size // hf.num_attention_heads
    rotary = int(head_dim * hf.rope_parameters["partial_rotary_factor"])
    assert (cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim) == (
        hf.hidden_size, hf.num_attention_heads, hf.num_key_value_heads, head_dim)
    assert (cfg.rope_dim, cfg.rope_base) == (rotary, hf.rope_parameters["rope_theta"])
    assert cfg.rope_scaling.rope_type == hf.rope_parameters["rope_type"] == "default"
    assert (cfg.qk_bias, cfg.qk_norm) == (hf.attention_bias, bool(getattr(hf, "use_qk_norm", False)))
    assert (cfg.norm_eps, cfg.max_positions) == (hf.rms_norm_eps, hf.max_position_embeddings)
    assert cfg.rope_interleaved == (hf.model_type == "glm4")     # GLM-4: pairs (2i, 2i + 1); GLM-4.5: rotate-half


def test_glm4_class_defaults_read_as_transformers_reads_them():
    """Glm4Config(): head_dim 128 (a field of its own), half of it turning in neighbouring pairs at base 10,000,
    q/k/v biases, 2 kv heads, rms_norm_eps 1.5625e-7, 131,072 positions."""
    import transformers as tf

    hf, cfg = mh.read_defaults(tf.Glm4Config, "glm4")
    _as_transformers(cfg, hf)
    assert (cfg.rope_dim, cfg.qk_bias, cfg.rope_interleaved) == (64, True, True)


def test_glm4_moe_class_defaults_are_refused_and_read_with_a_head_dim():
    """Glm4MoeConfig() has no head_dim: its attention splits 4096 / 96 heads (42 channels, 4032 of the width);
    that is refused in one line. With the head_dim of 128 that the published GLM-4.5 files carry, its defaults
    read as transformers reads them (rotate-half on 64 channels, no biases, no q/k norms, 8 kv heads)."""
    import transformers as tf

    written = json.loads(json.dumps(tf.Glm4MoeConfig().to_dict()))
    with pytest.raises(InputError, match="not a multiple of the 96 heads"):
        model_config(written)
    hf = tf.Glm4MoeConfig(head_dim=128)
    cfg = model_config(json.loads(json.dumps(hf.to_dict())))
    assert cfg.family == "glm4_moe"
    _as_transformers(cfg, hf)
    assert (cfg.rope_dim, cfg.qk_bias, cfg.qk_norm, cfg.rope_interleaved) == (64, False, False, False)


@pytest.mark.parametrize("layout", ["4.x", "5.x"])
def test_published_glm45_attention_reads_as_transformers(layout):
    """GLM-4.5's published attention settings (GLM45): 64 of 128 channels turn rotate-half at base 10^6, q/k/v
    biases and per-head q/k RMSNorms; as a 4.x file (top-level keys) and as transformers 5.x writes it."""
    import transformers as tf

    hf = tf.Glm4MoeConfig(**{k: v for k, v in GLM45.items() if k not in ("model_type", "architectures")})
    cfg = model_config(GLM45 if layout == "4.x" else json.loads(json.dumps(hf.to_dict())))
    _as_transformers(cfg, hf)
    assert (cfg.rope_dim, cfg.rope_base, cfg.qk_bias, cfg.qk_norm) == (64, 1e6, True, True)


def test_a_missing_partial_rotary_factor_is_the_class_default_half():
    """Neither class turns the whole head when config.json names no fraction: __post_init__'s 0.5."""
    for family in ("glm4", "glm4_moe"):
        cfg = model_config({k: v for k, v in dict(mh.FAMILIES[family], model_type=family).items()
                            if k != "partial_rotary_factor"})
        assert (cfg.partial_rotary_factor, cfg.rope_dim) == (0.5, 4)


@pytest.mark.parametrize("family, changes", [("glm4", {}), ("glm4_moe", {"use_qk_norm": False,
                                                                          "attention_bias": False})])
def test_a_4x_file_reloads_as_transformers_with_half_of_each_head_turned(family, changes, tmp_path):
    """A 4.x config.json (rope_theta, partial_rotary_factor at the top level) of each class, reloaded by
    transformers: X, rotated q / k and the attention equal it for 52 tokens; channels 4..7 of each head never turn.
    GLM-4.5 here without biases or q/k norms (its class's defaults)."""
    config_class, model_class = mh.classes(family)
    config = config_class(**{**mh.FAMILIES[family], **changes})
    mh.assert_reloaded_as_transformers(model_class, config, tmp_path, family, mh.to_4x_config, rotated=4)


def test_the_rope_words_say_which_channels_turn_and_how(tmp_path):
    """The opened-model line and the Real RoPE readout (rope_parts): GLM-4 "rotary 0.5, pairs (2i, 2i+1)";
    GLM-4.5 only "rotary 0.5" (rotate-half, as GPT-NeoX)."""
    from explorer.ui.views.rope_words import rope_parts

    words = {}
    for family in ("glm4", "glm4_moe"):
        c = model_config(dict(mh.FAMILIES[family], model_type=family), family)
        words[family] = rope_parts(c.rope_type_label, c.partial_rotary_factor, neighbour_pairs=c.rope_interleaved,
                                   decoupled=c.decoupled_rope, mrope=c.mrope)
    assert words == {"glm4": ("rotary 0.5", "pairs (2i, 2i+1)"), "glm4_moe": ("rotary 0.5",)}
