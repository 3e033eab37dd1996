"""Ministral 3 (Ministral-3-3B / 8B / 14B, model_type ministral3): its class's RoPE and its position scale on q. No Qt.

As transformers 5.25's configuration_ministral3.py / modeling_ministral3.py (Ministral3Config, Ministral3Attention)
read them. Mistral's attention (head_dim, GQA, rotate-half RoPE, no q/k biases, an optional sliding window), with:
- a config naming no rope settings (no rope_parameters, no set rope_scaling) gets the class's own YaRN
  (Ministral3Config.__post_init__: x16 from 16,384 at base 1e6, llama_4_scaling_beta 0.1), whatever rope_theta says;
- after RoPE, query m is multiplied by get_llama_4_attn_scale: 1 + beta ln(1 + floor(m / L0)), beta and L0 being
  rope_parameters' llama_4_scaling_beta and original_max_position_embeddings (the standardised one: a YaRN, llama3 or
  LongRoPE without it reads max_position_embeddings). 1 below position L0. (Llama 4's NoPE temperature,
  explorer.backend.models.llama4, is the same curve at m + 1.) Without beta or L0 transformers cannot run it.
"""

from __future__ import annotations

import numpy as np

from explorer.backend.encodings import finite_number
from explorer.backend.models.config_rope import rope_parameters
from explorer.errors import msg, require, shown

# Ministral3Config.__post_init__'s rope_parameters when config.json names none
CLASS_ROPE = {"rope_type": "yarn", "rope_theta": 1000000.0, "factor": 16.0, "original_max_position_embeddings": 16384,
              "beta_fast": 32.0, "beta_slow": 1.0, "mscale_all_dim": 1.0, "mscale": 1.0, "llama_4_scaling_beta": 0.1}
L0_FILLED = ("yarn", "llama3", "longrope")       # the rope types whose standardisation fills in an L0


def with_class_rope(cfg: dict) -> dict:
    """A ministral3 config without rope settings, with its class's (any other config as it is)."""
    if cfg.get("model_type") != "ministral3" or cfg.get("rope_parameters") is not None or cfg.get("rope_scaling"):
        return cfg
    return {**cfg, "rope_parameters": dict(CLASS_ROPE)}


def ministral3_fields(cfg: dict, max_positions: int) -> dict:
    """ModelConfig's q_scale, (L0, beta); or an attention_refusal where transformers' attention cannot run."""
    params = rope_parameters(cfg, "mistral")
    beta = params.get("llama_4_scaling_beta")
    require(beta is None or finite_number(beta) and abs(beta) < 1e30,
            "config.json: rope_parameters' llama_4_scaling_beta must be a finite number, not %1", shown(beta))
    original = params.get("original_max_position_embeddings")
    require(original is None or type(original) is int and original >= 1, "config.json: rope_parameters' "
            "original_max_position_embeddings must be a whole number >= 1, not %1", shown(original))
    if original is None and params["rope_type"] in L0_FILLED:
        original = max_positions
    if beta is None or original is None:
        return {"attention_refusal": msg("config.json: Ministral 3 scales its queries by rope_parameters' "
                                         "llama_4_scaling_beta and original_max_position_embeddings, and %1 is "
                                         "missing", "llama_4_scaling_beta" if beta is None else
                                         "original_max_position_embeddings")}
    return {"q_scale": (original, float(beta))}


def position_scale(n: int, original: int, beta: float) -> np.ndarray:
    """1 + beta ln(1 + floor(m / original)) at positions 0..n-1, in float32 as get_llama_4_attn_scale; (n,)."""
    m = np.arange(n, dtype=np.float32)
    return (np.float32(1.0) + np.float32(beta) * np.log(np.float32(1.0) + np.floor(m / np.float32(original)))
            ).astype(np.float32)


def ministral3_q(cfg, q: np.ndarray, q_rot: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(q, q_rot), each (heads, n, hd), times the position scale: transformers scales the rotated q; the unrotated q
    shown beside it is scaled the same way (a scale per position, so the two still differ only by RoPE)."""
    scale = position_scale(q.shape[1], *cfg.q_scale)[None, :, None]                  # (1, n, 1)
    return (q * scale).astype(np.float32), (q_rot * scale).astype(np.float32)
