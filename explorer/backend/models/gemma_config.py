"""Gemma 2 and Gemma 3 (text) configs: their attention's score scale and soft cap (Gemma 3's RoPE per layer type:
explorer.backend.models.typed_rope).

As transformers 5 reads them (models/gemma2, models/gemma3 configuration_*.py and modeling_*.py):
- both scale q·k by query_pre_attn_scalar^-0.5 (default 256), not head_dim^-0.5; Gemma 2 then soft-caps
  the logits, cap * tanh(logits / cap) with attn_logit_softcapping (default 50; Gemma 3: none);
- Gemma 2's layers alternate sliding / full attention with one RoPE; Gemma 3 has one RoPE per layer type
  (explorer.backend.models.typed_rope). Which layers slide, and their window: explorer.backend.models.
  layer_attention. Layer 0 is a sliding layer in every published Gemma 3.
A multimodal Gemma 3 (model_type gemma3) holds its text model's config as text_config.
"""

from __future__ import annotations

import math

import numpy as np

from explorer.errors import require, shown

# Gemma3TextConfig's field defaults (transformers 5.25): a multimodal checkpoint's text_config lists only
# what differs from them (google/gemma-3-4b-it: hidden_size, intermediate_size, num_hidden_layers,
# rope_scaling, sliding_window), and transformers fills in the rest
GEMMA3_TEXT_DEFAULTS = {"vocab_size": 262_208, "hidden_size": 2304, "num_hidden_layers": 26,
                        "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256,
                        "max_position_embeddings": 131_072, "rms_norm_eps": 1e-6, "query_pre_attn_scalar": 256}
SANE = (1e-30, 1e30)     # a score scale or soft cap outside this makes float32 logits inf, NaN or 0 / 0


def _sane(value) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and SANE[0] <= value <= SANE[1])


def score_scalar(cfg: dict) -> float:
    """query_pre_attn_scalar (transformers' default 256): q·k is multiplied by its -1/2 power."""
    value = cfg.get("query_pre_attn_scalar", 256)
    require(_sane(value), "config.json: query_pre_attn_scalar must be a number from 1e-30 to 1e30, not %1",
            shown(value))
    return float(value)


def softcap(cfg: dict, family: str) -> float | None:
    """Gemma 2's attn_logit_softcapping (default 50; None or a number); Gemma 3 never soft-caps its
    attention (Gemma3Attention passes no softcap, whatever its config says): None."""
    if family != "gemma2":
        return None
    value = cfg.get("attn_logit_softcapping", 50.0)
    require(value is None or _sane(value),
            "config.json: attn_logit_softcapping must be a number from 1e-30 to 1e30 or null, not %1", shown(value))
    return None if value is None else float(value)


MULTIMODAL = {"gemma3": "gemma3_text", "llama4": "llama4_text"}   # model_type -> its text model's
# multimodal wrappers whose config builds its text config by the model_type written inside it (AutoConfig), with
# this one when text_config names none: Mistral3Config (Mistral Small 3.1 / 3.2, a Pixtral vision tower)
WRAPPERS = {"mistral3": "mistral"}


def text_model_config(cfg: dict) -> dict:
    """A multimodal Gemma 3's, Llama 4's or Mistral 3's (model_type gemma3, llama4, mistral3) text model config:
    its text_config, with the outer dtype where the inner has none (model_config fills in Gemma3TextConfig's
    defaults); any other config as it is."""
    inner, outer = cfg.get("text_config"), cfg.get("model_type")
    if not isinstance(outer, str) or outer not in MULTIMODAL and outer not in WRAPPERS:   # (a list: unhashable)
        return cfg
    inner = text_settings(cfg, outer, inner)
    if outer in WRAPPERS:            # (the inner type decides; model_config refuses one it does not know)
        return {**inner, "model_type": inner.get("model_type", WRAPPERS[outer])}
    # (the outer type decides: Gemma3Config / Llama4Config build their text config class whatever it says inside)
    return {**inner, "model_type": MULTIMODAL[outer]}


def text_settings(cfg: dict, outer: str, inner) -> dict:
    """A multimodal `outer` config's text model settings `inner` (its text_config), checked to be an object,
    with cfg's dtype where inner has none."""
    require(isinstance(inner, dict), "config.json: a multimodal %1 model needs its text model's settings as "
                                     "text_config (an object), not %2", outer, shown(inner))
    return {**inner, **{k: cfg[k] for k in ("dtype", "torch_dtype") if k in cfg and inner.get(k) is None}}


def gemma_fields(cfg: dict, family: str) -> dict:
    """ModelConfig's Gemma 2/3 fields: score scale, soft cap. (Their layer types and window:
    explorer.backend.models.layer_attention; Gemma 3's RoPE per layer type: typed_rope.)"""
    return {"score_scalar": score_scalar(cfg), "attn_softcap": softcap(cfg, family)}


def embed_scale(d_model: int, dtype: str) -> float:
    """sqrt(d_model) rounded to the checkpoint's dtype, as Gemma's model classes multiply the embeddings by a
    tensor of that dtype (bfloat16: round to nearest even)."""
    x = math.sqrt(d_model)
    if dtype == "bfloat16":
        bits = np.array([x], dtype=np.float32).view(np.uint32)
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000               # round to nearest even
        return float(bits.view(np.float32)[0])
    if dtype == "float16":
        return float(np.float16(x))
    if dtype == "float64":
        return x
    return float(np.float32(x))
