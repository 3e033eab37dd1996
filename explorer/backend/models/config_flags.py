"""A config.json's attention switches, family by family: q/k biases, q/k norms, OLMo's clip. No Qt.

As transformers 5.25's configuration_<family>.py and modeling_<family>.py read them: Qwen2 (and Qwen2-VL's and
Qwen2.5-VL's text models) and Phi always have
q/k/v biases, Qwen2-MoE when qkv_bias (default true), StableLM when use_qkv_bias (default false), StarCoder2 when
use_bias (default true), ERNIE 4.5 when use_bias (default false, null: none), GPT-NeoX, GPT-OSS, GLM-4 and
Seed-OSS when attention_bias (default true), Mistral, Mixtral and Phi-3 never, the others (GLM-4.5 too) when
attention_bias (default false); transformers leaves the bias tensors of a config without them unread. q/k norms: per
head for Qwen3, Gemma 3 and Apertus, over all heads for OLMo 2 / 3 and OLMoE, Phi's and StableLM's when
qk_layernorm, Cohere's when use_qk_norm (Cohere 2 has none), GLM-4.5's per-head RMSNorms when use_qk_norm.
"""

from __future__ import annotations

from explorer.backend.models.ernie4_5 import ERNIE_TYPES, ernie_qk_bias
from explorer.backend.models.family_tables import BIAS_BY_DEFAULT, NO_QK_BIAS
from explorer.errors import require, shown


def flag(cfg: dict, key: str, default: bool) -> bool:
    """A true / false key of config.json (transformers refuses anything else, "false" included)."""
    value = cfg.get(key, default)
    require(type(value) is bool, "config.json: %1 must be true or false, not %2", key, shown(value))
    return value


def qk_bias(cfg: dict, model_type: str, family: str) -> bool:
    """Whether layer 0's q and k projections carry biases that transformers reads."""
    if model_type in ("qwen2", "qwen2_moe", "qwen2_vl_text", "qwen2_5_vl_text"):
        return model_type != "qwen2_moe" or flag(cfg, "qkv_bias", True)
    if family == "stablelm":
        return flag(cfg, "use_qkv_bias", False)
    if family == "starcoder2":
        return flag(cfg, "use_bias", True)
    if model_type in ERNIE_TYPES:                    # ERNIE 4.5: use_bias (default false, null: none)
        return ernie_qk_bias(cfg)
    return family == "phi" or model_type not in NO_QK_BIAS and flag(
        cfg, "attention_bias", family in BIAS_BY_DEFAULT or model_type in BIAS_BY_DEFAULT)


def qk_norm(cfg: dict, model_type: str, family: str) -> bool:
    """Whether q and k are normalised before RoPE."""
    return (family in ("qwen3", "gemma3", "olmo2", "olmoe", "apertus", "exaone4")
            or family in ("phi", "stablelm") and flag(cfg, "qk_layernorm", False)
            or model_type == "cohere" and cfg.get("use_qk_norm") is not None and flag(cfg, "use_qk_norm", False)
            or model_type == "glm4_moe" and flag(cfg, "use_qk_norm", False))


def clip_qkv(cfg: dict) -> float | None:
    """OlmoConfig's clip_qkv: None (no clamp, its default) or a positive number."""
    value = cfg.get("clip_qkv")
    if value is None:
        return None
    require(isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < 1e30,
            "config.json: clip_qkv must be a positive number or null, not %1", shown(value))
    return float(value)


def positive_int(cfg: dict, key: str, *fallbacks: str, default=None) -> int:
    """config.json's key (else the first fallback key it has, else default): a positive integer."""
    for k in (key, *fallbacks):
        v = cfg.get(k)
        if v is not None:
            break
    else:
        v = default
    require(type(v) is int and v > 0, "config.json: %1 must be a positive integer, not %2", key, shown(v))
    return v


def aliased_int(cfg: dict, alias: str | None, key: str, default=None) -> int:
    """positive_int of `alias` when config.json has it (a name the config class maps onto key), else of key."""
    return positive_int(cfg, alias if alias and cfg.get(alias) is not None else key, default=default)
