"""Llama 4's attention (Llama-4-Scout, Llama-4-Maverick): its config fields and what it does to q and k. No Qt.

As transformers 5.25's configuration_llama4.py / modeling_llama4.py (Llama4TextConfig, Llama4TextAttention) read
them. Llama's attention, with:
- RoPE on neighbouring channels (2i, 2i + 1): apply_rotary_emb multiplies complex pairs (view_as_complex);
- NoPE layers: no_rope_layers holds 1 (RoPE) or 0 (none) per layer; an empty or absent list is the class's
  pattern, every no_rope_layer_interval-th layer (default 4: layers 3, 7, ...) without RoPE;
- on the RoPE layers, when use_qk_norm (default and Scout: true; a comment in transformers says the 128-expert
  model has none), q and k are RMS-normalised per head without a weight (Llama4TextWeightlessRMSNorm, eps
  rms_norm_eps) after RoPE. A rotation keeps the norm, so the unrotated q and k PE Explorer shows beside them are
  normalised the same way;
- on the NoPE layers, when attn_temperature_tuning (Meta's configs say 4: any true
  value, as transformers 4.51 tested it; 5.25's typed config refuses the 4), query m is scaled by
  attn_scale · log1p(floor((m + 1) / floor_scale)) + 1 (defaults 0.1 and 8192: 1 below position 8191);
- chunked attention: the layers of type "chunked_attention" (layer_types, else every RoPE layer when
  attention_chunk_size is set, default 8192) read only the keys of the query's own chunk (masking_utils'
  chunked_overlay: n // chunk == m // chunk), causal within it.
"""

from __future__ import annotations

import numpy as np

from explorer.backend.encodings import finite_number
from explorer.backend.models.config_flags import flag
from explorer.backend.models.layer_attention import listed_layer_types, nope_layers, null_span_refusal, token_span
from explorer.errors import require, shown

LLAMA4_LAYER_TYPES = ("full_attention", "chunked_attention")


def _number(cfg: dict, key: str, default: float, positive: bool) -> float:
    value = cfg.get(key, default)
    require(finite_number(value) and abs(value) < 1e30, "config.json: %1 must be a finite number, not %2", key,
            shown(value))
    require(value > 0 or not positive, "config.json: %1 must be a positive number, not %2", key, shown(value))
    return float(value)


def llama4_fields(cfg: dict, n_layers: int) -> dict:
    """ModelConfig's Llama 4 fields: pairing, NoPE layers, layer types and chunk, the q/k norm after RoPE,
    the NoPE layers' temperature (and attention_refusal where transformers could not build the mask)."""
    nope = nope_layers(cfg, n_layers, "llama4_text")
    chunk = token_span(cfg, "attention_chunk_size", 8192)
    types = listed_layer_types(cfg, n_layers, LLAMA4_LAYER_TYPES) or tuple(
        "chunked_attention" if chunk is not None and i not in nope else "full_attention" for i in range(n_layers))
    tuning = cfg.get("attn_temperature_tuning", True)
    require(type(tuning) in (bool, int), "config.json: attn_temperature_tuning must be true, false or a whole "
                                         "number, not %1", shown(tuning))
    out = {"rope_interleaved": True, "nope_layers": nope, "layer_types": types, "attention_chunk": chunk,
           "qk_norm_after_rope": flag(cfg, "use_qk_norm", True),
           "attn_temperature": ((_number(cfg, "floor_scale", 8192, True), _number(cfg, "attn_scale", 0.1, False))
                                if tuning else None)}
    if chunk is None and "chunked_attention" in types:
        out["attention_refusal"] = null_span_refusal("attention_chunk_size", "chunked_attention")
    return out


def temperature(n: int, floor_scale: float, attn_scale: float) -> np.ndarray:
    """Llama 4's NoPE-layer query scale at positions 0..n-1: attn_scale log1p(floor((m + 1) / floor_scale)) + 1,
    in float32 as transformers computes it; (n,)."""
    m = np.arange(n, dtype=np.float32)
    return (np.log1p(np.floor((m + np.float32(1.0)) / np.float32(floor_scale))) * np.float32(attn_scale)
            + np.float32(1.0)).astype(np.float32)


def llama4_qk(cfg, layer: int, rotated: bool, q, k, q_rot, k_rot):
    """(q, k, q_rot, k_rot) after Llama 4's steps past RoPE: the weightless norm on a RoPE layer (`rotated`),
    the temperature on a NoPE layer's queries; each (heads, n, hd)."""
    from explorer.backend.models.families import rms_norm      # (families imports config, which imports this)

    if rotated and cfg.qk_norm_after_rope:
        one = np.float32(1.0)
        q, k, q_rot, k_rot = (rms_norm(t, one, cfg.norm_eps) for t in (q, k, q_rot, k_rot))
    elif not rotated and cfg.attn_temperature is not None:
        scale = temperature(q.shape[1], *cfg.attn_temperature)[None, :, None]        # (1, n, 1)
        q = q_rot = (q * scale).astype(np.float32)
    return q, k, q_rot, k_rot
