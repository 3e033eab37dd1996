"""A config.json's RoPE keys as transformers' config classes read them, family by family. No Qt.

`rope_parameters`: the 5.x-style dict from 4.x (`rope_theta`, `rope_scaling`) and 5.x (`rope_parameters`)
files, a set 4.x `rope_scaling` winning as in `convert_rope_params_to_dict`; GPT-NeoX's own
`rotary_emb_base` / `rotary_pct`, GPT-J's fixed base and `rotary_dim`, and GPT-OSS's YaRN when it names
no rope settings. `rope_scaling_of`: the (rope_theta, RopeScaling, refusal) transformers' model classes
would run.
"""

from __future__ import annotations

import math
from dataclasses import replace

from explorer.backend.encodings import finite_number
from explorer.backend.models.family_tables import DEFAULT_ROPE
from explorer.backend.rope_config import scaling_from_config
from explorer.backend.rope_scaling import RopeScaling
from explorer.errors import InputError, msg, require, shown

# the families that turn int(head_dim x partial_rotary_factor) channels of a head, with any rope type
PARTIAL_FAMILIES = ("phi3", "gpt_neox", "phi", "gptj", "stablelm", "glm4", "glm4_moe", "nemotron")
# the partial families whose attention cannot run proportional RoPE on part of a head (PhiAttention and
# StableLmAttention slice int(head_dim x p) channels; proportional's cos and sin span the whole head)
PROPORTIONAL_WHOLE_HEAD = ("phi", "stablelm")
# partial_rotary_factor of a config.json without one, where the class has its own default (PhiConfig's
# __init__, StableLmConfig's, Glm4Config's, Glm4MoeConfig's and NemotronConfig's __post_init__ in transformers
# 5.25; the others turn the whole head)
PARTIAL_DEFAULTS = {"phi": 0.5, "stablelm": 0.25, "glm4": 0.5, "glm4_moe": 0.5, "nemotron": 0.5}
PHI3_ORIGINAL = 4096     # Phi3Config.original_max_position_embeddings when config.json has none (it wins)


def _float(v, key: str) -> float:
    require(isinstance(v, (int, float)) and finite_number(v) and v > 0,      # (10**400: not finite)
            "config.json: %1 must be a positive number, not %2", key, shown(v))
    return float(v)


def rope_parameters(cfg: dict, family: str = "") -> dict:
    """5.x-style RoPE settings from a 4.x or 5.x config: {"rope_type", "rope_theta", ...}. Phi-3's
    "su" and "yarn" are its LongRoPE (Phi3Config.convert_rope_params_to_dict renames them)."""
    params, scaling = cfg.get("rope_parameters"), cfg.get("rope_scaling")
    require(not scaling or isinstance(scaling, dict), "config.json: rope_scaling must be an object, not %1",
            repr(scaling))
    require(params is None or isinstance(params, dict), "config.json: rope_parameters must be an object, not %1",
            repr(params))
    if not scaling and params is None and family in DEFAULT_ROPE:     # GPT-OSS: its class's YaRN
        params = DEFAULT_ROPE[family]
    params = dict(scaling or params or {})     # convert_rope_params_to_dict: rope_scaling or rope_parameters
    #                                            (a set 4.x rope_scaling wins over a 5.x dict)
    if family == "gpt_neox":
        _gpt_neox_keys(cfg, params)
    kind = params.pop("type", None)
    params["rope_type"] = params.get("rope_type") or kind or "default"
    if family == "phi3" and params["rope_type"] in ("su", "yarn"):
        params["rope_type"] = "longrope"
    if family in PARTIAL_DEFAULTS:          # the class's default fraction (a top-level key, else its own)
        params.setdefault("partial_rotary_factor", cfg.get("partial_rotary_factor", PARTIAL_DEFAULTS[family]))
    params.setdefault("rope_theta", cfg.get("rope_theta", 10000.0))
    params["rope_theta"] = _float(params["rope_theta"], "rope_theta")
    # base <= 1 gives every pair a frequency of 1 rad per token or more (1e-300: inf, then NaN q and k)
    require(params["rope_theta"] > 1, "config.json: rope_theta (RoPE's base) must be a number > 1, not %1",
            repr(params["rope_theta"]))
    return params


def _gpt_neox_keys(cfg: dict, params: dict) -> None:
    """GPTNeoXConfig.convert_rope_params_to_dict's own 4.x keys into params where it has none:
    rotary_emb_base (default 10,000; a top-level rope_theta it never reads) and rotary_pct (0.25)."""
    if "rope_theta" not in params:
        base = cfg.get("rotary_emb_base", 10000.0)
        require(isinstance(base, (int, float)) and not isinstance(base, bool) and finite_number(base) and base > 1,
                "config.json: rotary_emb_base (RoPE's base) must be a number > 1, not %1", shown(base))
        params["rope_theta"] = base
    if "partial_rotary_factor" not in params:
        pct = cfg.get("rotary_pct", 0.25)
        require(isinstance(pct, (int, float)) and not isinstance(pct, bool) and finite_number(pct)
                and 0 < pct <= 1,
                "config.json: rotary_pct must be a number in (0, 1], not %1", shown(pct))
        params["partial_rotary_factor"] = pct


def gptj_rope(cfg: dict, d: int, heads: int) -> dict:
    """GPT-J's RoPE as rope_parameters: base 10,000 (create_sinusoidal_positions), rotary_dim channels of
    each head (default 64); a fraction whose int(head_dim x p) is rotary_dim exactly."""
    require(d % heads == 0, "config.json: the hidden size %1 is not a multiple of the %2 heads", d, heads)
    head_dim, rotary = d // heads, cfg.get("rotary_dim", 64)
    # rotary_dim null: GPTJRotaryEmbedding turns hidden_size channels, wider than a head unless there is one
    require(type(rotary) is int and 2 <= rotary <= head_dim and rotary % 2 == 0,
            "config.json: rotary_dim must be an even whole number from 2 to head_dim %1, not %2", head_dim,
            shown(rotary))
    return {"rope_type": "default", "rope_theta": 10000.0,
            "partial_rotary_factor": rotary_fraction(rotary, head_dim)}


def odd_rotation(rope_head_dim: int, scaling: RopeScaling | None) -> str | None:
    """Why q and k are not shown where int(head_dim x p) is odd, else None. transformers' inv_freq then has
    ceil(dim / 2) frequencies base^(-2i / dim): GPT-NeoX and Phi-3 turn one channel more than dim, at
    frequencies spaced for the odd dim, and Phi's attention fails on the mismatch; PE Explorer's rotations
    take an even count. (No published model has an odd one.)"""
    if scaling is None or scaling.rope_type == "proportional":
        return None
    dim = int(rope_head_dim * scaling.partial_rotary_factor)
    if dim % 2 == 0:
        return None
    return msg("head_dim x partial_rotary_factor = %1 x %2 gives %3 rotated channels, an odd count: transformers "
               "turns %4 at frequencies made for %3, which PE Explorer does not model", rope_head_dim,
               f"{scaling.partial_rotary_factor:g}", dim, dim + 1)


def rotary_fraction(rotated: int, head_dim: int) -> float:
    """rotated / head_dim, nudged up to the next float where int(head_dim x it) would fall below `rotated`
    (26 / 46 x 46 is 25.999...: a partial_rotary_factor read back as 24 turned channels)."""
    fraction = rotated / head_dim
    while int(head_dim * fraction) < rotated:
        fraction = math.nextafter(fraction, 1.0)
    return fraction


def rope_scaling_of(cfg: dict, family: str, max_positions: int,
                  runtime: str) -> tuple[float, RopeScaling | None, str | None]:
    """(rope_theta, RopeScaling, None) as transformers standardizes a config (explorer.backend.rope_config):
    dynamic scales against max_position_embeddings, a top-level original_max_position_embeddings
    (Phi-3) wins, keys a rope type does not read are dropped. Settings that cannot be used give
    (rope_theta, None, why): q and k are refused, as transformers' validation would warn about them."""
    params = rope_parameters(cfg, family)              # rope_theta checked, in config.json's words
    require(not any(isinstance(v, dict) for v in params.values()),      # per-layer-type settings
            "config.json: nested rope_parameters (per layer type) are not supported")
    partial = params.get("partial_rotary_factor", cfg.get("partial_rotary_factor", 1.0))
    require(_float(partial, "partial_rotary_factor") <= 1.0,
            "config.json: partial_rotary_factor must be in (0, 1], not %1", partial)
    # only partial_rotary_factor (GPT-NeoX's rotary_pct is in params already): no rotary_dim (GPT-J)
    read = {k: v for k, v in cfg.items() if k not in ("rotary_pct", "rotary_dim")}
    if family == "phi3":              # its class always has an L0 (default 4096), and it wins over the dict's
        read.setdefault("original_max_position_embeddings", PHI3_ORIGINAL)
    try:
        base, scaling = scaling_from_config({**read, "rope_parameters": params,
                                             "max_position_embeddings": max_positions})
    except InputError as exc:
        return params["rope_theta"], None, exc.args[0]
    partial = scaling.partial_rotary_factor
    if runtime == "transformers" and family == "phi3" and scaling.rope_type not in ("default", "longrope"):
        # Phi3Config.validate_rope: transformers refuses to build the config at all
        return base, None, msg("config.json: Phi-3's rope type must be default or longrope, not %1 (transformers' "
                               "Phi3Config refuses it)", scaling.rope_type)
    if (runtime == "transformers" and family in PROPORTIONAL_WHOLE_HEAD and scaling.rope_type == "proportional"
            and partial != 1.0):
        # their attention turns int(head_dim x p) channels with angles made for the whole head: a shape error
        return base, None, msg("config.json: partial_rotary_factor %1 with rope type proportional: transformers' "
                               "%2 cannot run it", f"{partial:g}", family)
    # (Phi-3 and GPT-NeoX rotate the first int(head_dim x p) channels of a head, any rope type;
    # proportional spans it)
    if (runtime == "transformers" and partial != 1.0 and scaling.rope_type != "proportional"
            and family not in PARTIAL_FAMILIES):
        # transformers' default RoPE for these classes takes dim = head_dim; a scaled type's inv_freq of
        # partial width does not fit the head it multiplies, and the model cannot run
        if scaling.rope_type != "default":
            return base, None, msg("config.json: partial_rotary_factor %1 with rope type %2: transformers' "
                                   "%3 rotates the whole head and cannot run it", f"{partial:g}",
                                   scaling.rope_type, family)
        scaling = replace(scaling, partial_rotary_factor=1.0)
    return base, scaling, None


def rope_type_label(s: RopeScaling | None, max_positions: int) -> str:
    """The rope type unless plain RoPE: "yarn ×4 (64 → 256)", else "" (the UI adds the rotary fraction)."""
    if s is None or s.rope_type == "default":
        return ""
    text = s.rope_type + (f" ×{s.factor:g}" if s.factor is not None else "")
    if s.original_max_position_embeddings and s.original_max_position_embeddings != max_positions:
        text += f" ({s.original_max_position_embeddings} → {max_positions})"
    return text
