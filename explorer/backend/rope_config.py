"""A model's config.json -> (rope_theta, RopeScaling), read as transformers 5.x standardizes it.

Accepted: 4.x files (`rope_theta` + `rope_scaling` {"type" | "rope_type", ...}, `partial_rotary_factor`,
`rotary_pct` (GPT-NeoX), `rotary_dim` (GPT-J), a top-level `original_max_position_embeddings` (Phi-3),
`max_position_embeddings`) and 5.x files (`rope_parameters` {"rope_type", "rope_theta", ...}, or one such
dict per layer type, as Gemma 3 and 4 have: {"sliding_attention": {...}, "full_attention": {...}}).
Keys a rope type does not read are dropped, as transformers ignores them (with a warning).
"""

from __future__ import annotations

from explorer.backend.encodings import finite_number
from explorer.backend.rope_scaling import _FIELDS_OF, ROPE_TYPES, RopeScaling, require_length
from explorer.errors import require, shown

DEFAULT_THETA = 10_000.0        # transformers' RotaryEmbeddingConfigMixin.default_theta


def _head_dim(config: dict) -> int | None:
    """head_dim, or hidden_size / num_attention_heads (also GPT-2 style n_embd / n_head)."""
    if config.get("head_dim"):
        return int(config["head_dim"])
    hidden = config.get("hidden_size", config.get("n_embd"))
    heads = config.get("num_attention_heads", config.get("n_head"))
    return hidden // heads if hidden and heads else None


def _fraction(config: dict, params: dict) -> float:
    """partial_rotary_factor from the rope dict, the top level, rotary_pct or rotary_dim / head_dim."""
    for source in (params, config):
        if source.get("partial_rotary_factor") is not None:
            return source["partial_rotary_factor"]
    if config.get("rotary_pct") is not None:
        return config["rotary_pct"]
    if config.get("rotary_dim") is not None:
        head_dim = _head_dim(config)
        require(head_dim is not None, "rotary_dim needs head_dim (or hidden_size and num_attention_heads)")
        return config["rotary_dim"] / head_dim
    return 1.0


def _scalar_list(value):
    return tuple(value) if isinstance(value, list) else value


def layer_types(config: dict) -> tuple[str, ...]:
    """The layer types a config sets RoPE for one by one (5.x nested rope_parameters); () when one set."""
    rope = config.get("rope_parameters") if isinstance(config, dict) else None
    if not isinstance(rope, dict):
        return ()
    return tuple(key for key, value in rope.items() if isinstance(value, dict))


def scaling_from_config(config: dict, layer_type: str | None = None) -> tuple[float, RopeScaling]:
    """(base, scaling) from a config dict; InputError naming what is wrong or missing. layer_type picks
    one of a nested rope_parameters' sets ("full_attention", "sliding_attention"); it is needed there."""
    require(isinstance(config, dict), "a model config must be a JSON object (dict), not %1", shown(config))
    rope = config.get("rope_parameters")
    if rope is None:
        rope = config.get("rope_scaling")
    require(rope is None or isinstance(rope, dict), "rope_parameters / rope_scaling must be an object or null")
    nested = layer_types(config)
    require(nested or layer_type is None, "this config sets one RoPE for every layer: give no layer_type "
                                          "(not %1)", shown(layer_type))
    if nested:
        require(layer_type in nested, "this config sets RoPE per layer type (%1): choose one with layer_type, "
                "not %2", ", ".join(nested), shown(layer_type))
        rope = rope[layer_type]
    rope = dict(rope or {})
    kind = rope.get("rope_type", rope.get("type", "default"))
    require(kind in ROPE_TYPES, "rope_type must be one of %1; got %2", ", ".join(ROPE_TYPES), shown(kind))
    base = rope.get("rope_theta", config.get("rope_theta", DEFAULT_THETA))
    require(finite_number(base) and base > 1, "rope_theta (RoPE's base) must be a finite number > 1, not %1",
            shown(base))
    values = {name: _scalar_list(rope[name]) for name in _FIELDS_OF[kind] if rope.get(name) is not None}
    if kind == "yarn" and "truncate" in rope and rope["truncate"] is None:
        values["truncate"] = False     # transformers' get("truncate", True) is None: it does not truncate
    top_original = config.get("original_max_position_embeddings")
    max_len = config.get("max_position_embeddings")
    if kind in ("llama3", "yarn", "longrope"):
        # transformers: a top-level original_max_position_embeddings wins (Phi-3); else the dict's; else
        # max_position_embeddings
        original = top_original or values.get("original_max_position_embeddings") or max_len
        require(original is not None, "rope type %1 needs original_max_position_embeddings (or "
                                      "max_position_embeddings) in the config", kind)
        values["original_max_position_embeddings"] = original
        if kind in ("yarn", "longrope") and values.get("factor") is None:
            require(max_len is not None, "rope type %1 without factor needs max_position_embeddings", kind)
            require_length("original_max_position_embeddings", original)
            require_length("max_position_embeddings", max_len)
            values["factor"] = max_len / original
    elif kind == "dynamic":
        # transformers scales against max_position_embeddings, whatever the dict says
        require(max_len is not None, "rope type dynamic needs max_position_embeddings in the config")
        values["original_max_position_embeddings"] = max_len
    else:
        values.pop("original_max_position_embeddings", None)
    values["partial_rotary_factor"] = _fraction(config, rope)
    return float(base), RopeScaling(rope_type=kind, **values)


def scaling_to_config(head_dim: int, base: float, scaling: RopeScaling, max_position_embeddings: int) -> dict:
    """A 5.x-style config dict (hidden_size = head_dim, one head) that transformers reads as `scaling`."""
    params = scaling.to_dict()
    params["rope_theta"] = float(base)
    params.setdefault("partial_rotary_factor", scaling.partial_rotary_factor)
    if scaling.rope_type in ("default", "linear", "dynamic"):
        # transformers reads no L0 for these; dynamic scales against max_position_embeddings
        original = params.pop("original_max_position_embeddings", None)
        if scaling.rope_type == "dynamic" and original is not None:
            max_position_embeddings = original
    return {"hidden_size": head_dim, "num_attention_heads": 1, "head_dim": head_dim,
            "max_position_embeddings": max_position_embeddings, "rope_parameters": params}
