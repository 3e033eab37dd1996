"""DeepSeek-V2 / V3 configs (model_type deepseek_v2, deepseek_v3): multi-head latent attention (MLA). No Qt.

As transformers 5.25 reads them (models/deepseek_v2 and deepseek_v3, configuration_*.py and modeling_*.py):
- a q head and a k head have qk_nope_head_dim + qk_rope_head_dim channels (128 + 64 in the published models):
  the first part never turns, the last (the decoupled RoPE part) does;
- q = q_proj(x), or q_b_proj(RMSNorm(q_a_proj(x))) when q_lora_rank is set (default 1536);
- kv_a_proj_with_mqa(x) gives a latent of kv_lora_rank channels and k's rope part, one for every head; the
  latent goes through kv_a_layernorm and kv_b_proj into each head's k nope part (and its v);
- RoPE over the rope part only, its inv_freq made for qk_rope_head_dim (the config classes set head_dim to it),
  in neighbouring pairs (2i, 2i + 1): V2 by complex multiplication, V3 by its `rope_interleave` (default true;
  false: rotate-half within the rope part);
- the logit scale is qk_head_dim^-1/2, times mscale^2 = (0.1 mscale_all_dim ln factor + 1)^2 when the rope type is
  not default and mscale_all_dim is set (`yarn_apply_mscale`): DeepSeek's YaRN scales the whole logit, not only
  the rotated channels. Kept as the score scalar qk_head_dim / mscale^4.
A config whose num_key_value_heads differs from num_attention_heads is refused: kv_b_proj gives one k per head,
and transformers' attention would repeat them into the wrong number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from explorer.backend.encodings import finite_number
from explorer.backend.models.config_rope import rope_parameters
from explorer.backend.rope_scaling import MAX_HEAD_DIM
from explorer.errors import require, shown

Q_LORA_DEFAULT = 1536     # q_lora_rank of a config.json without the key (both classes' default)
DIMS_DEFAULTS = {"kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128}


@dataclass(frozen=True)
class MlaDims:
    """The widths of one MLA layer's q and k paths."""

    q_lora_rank: int | None   # q's low-rank width (q_a_proj, q_a_layernorm, q_b_proj); None: q_proj from x
    kv_lora_rank: int         # the shared latent's width (kv_a_proj_with_mqa's first rows, kv_a_layernorm)
    nope: int                 # qk_nope_head_dim: a head's channels that never turn
    rope: int                 # qk_rope_head_dim: a head's channels that turn, k's shared by all heads
    v: int                    # v_head_dim: kv_b_proj's v rows per head (never read)


def _width(cfg: dict, key: str, default, least: int = 1) -> int:
    v = cfg.get(key, default)
    require(type(v) is int and least <= v <= 1 << 20, "config.json: %1 must be a whole number from %2 to %3, not %4",
            key, least, f"{1 << 20:,}", shown(v))
    return v


def mla_dims(cfg: dict) -> MlaDims:
    """The MLA widths of a DeepSeek config.json (the classes' defaults where it is silent); InputError for one
    that is not a whole number (the nope and v parts may be 0, as transformers runs them; the others positive),
    an odd rope part (its channels turn in pairs), or (V3) a head_dim key other than the rope part (transformers
    makes that many frequencies for it, and its attention cannot run)."""
    q_lora = cfg.get("q_lora_rank", Q_LORA_DEFAULT)
    dims = MlaDims(q_lora_rank=None if q_lora is None else _width(cfg, "q_lora_rank", Q_LORA_DEFAULT),
                   **{field: _width(cfg, key, DIMS_DEFAULTS[key], least) for field, key, least in (
                       ("kv_lora_rank", "kv_lora_rank", 1), ("nope", "qk_nope_head_dim", 0),
                       ("rope", "qk_rope_head_dim", 1), ("v", "v_head_dim", 0))})
    require(dims.rope % 2 == 0, "config.json: qk_rope_head_dim must be even (its channels turn in pairs), not %1",
            dims.rope)
    if cfg.get("model_type") == "deepseek_v3":     # (V2's __post_init__ sets head_dim to the rope part itself)
        require(cfg.get("head_dim") in (None, dims.rope), "config.json: head_dim %1 is not qk_rope_head_dim %2: "
                "transformers' DeepSeek-V3 would make RoPE frequencies for %1 channels and cannot run",
                shown(cfg.get("head_dim")), dims.rope)
    return dims


def mscale_squared(cfg: dict) -> float:
    """yarn_apply_mscale's factor on the logit scale: mscale^2, with mscale = 0.1 mscale_all_dim ln(factor) + 1 when
    the rope type is not default and mscale_all_dim is set and not 0 (1 for factor <= 1), else 1."""
    params = rope_parameters(cfg, "deepseek")
    all_dim = params.get("mscale_all_dim", 0)
    if params.get("rope_type", "default") == "default" or not all_dim:
        return 1.0
    factor = params.get("factor")
    for key, v in (("mscale_all_dim", all_dim), ("factor", factor)):
        require(isinstance(v, (int, float)) and not isinstance(v, bool) and finite_number(v),
                "config.json: the rope settings' %1 must be a number, not %2", key, shown(v))
    m = 1.0 if factor <= 1 else 0.1 * all_dim * math.log(factor) + 1.0
    with np.errstate(over="ignore"):
        squared = float(np.float64(m) * np.float64(m))
    require(squared != 0 and finite_number(squared), "config.json: mscale_all_dim %1 with factor %2 multiplies the "
            "logits by %3; it must be a finite number other than 0", shown(all_dim), shown(factor), f"{squared:g}")
    return squared


def mla_fields(cfg: dict, model_type: str, d_model: int, n_heads: int, n_kv_heads: int) -> dict:
    """ModelConfig's fields of a DeepSeek model: {"mla", "head_dim" (nope + rope), "score_scalar",
    "rope_interleaved"}. (V2's class also refuses a hidden size that is not a multiple of the heads.)"""
    require(model_type != "deepseek_v2" or d_model % n_heads == 0,
            "config.json: the hidden size %1 is not a multiple of the %2 heads", d_model, n_heads)
    require(n_kv_heads == n_heads, "config.json: num_key_value_heads %1 is not num_attention_heads %2: "
                                   "multi-head latent attention gives every head its own k", n_kv_heads, n_heads)
    dims = mla_dims(cfg)
    head_dim = dims.nope + dims.rope
    require(head_dim <= MAX_HEAD_DIM, "config.json: qk_nope_head_dim + qk_rope_head_dim is %1; a head may have at "
                                      "most %2 channels", f"{head_dim:,}", f"{MAX_HEAD_DIM:,}")
    # V3: `if config.rope_interleave:` (a null one rotates half); V2 always multiplies complex pairs
    interleave = cfg.get("rope_interleave", True) if model_type == "deepseek_v3" else True
    require(isinstance(interleave, bool) or interleave is None,
            "config.json: rope_interleave must be true or false, not %1", shown(interleave))
    return {"mla": dims, "head_dim": head_dim, "score_scalar": head_dim / mscale_squared(cfg) ** 2,
            "rope_interleaved": bool(interleave)}
