"""One RoPE per layer type (Gemma 3, OLMo 3): each type's rope_parameters from a 4.x or 5.x config. No Qt.

5.x configs nest them, {"sliding_attention": {...}, "full_attention": {...}}; 4.x ones give `rope_theta` and a
`rope_scaling` that applies to the full layers only, as the classes' convert_rope_params_to_dict merge it
(transformers 5.25, models/gemma3 and models/olmo3 configuration_*.py). Where neither says a type's base:
- Gemma 3: the full layers' is rope_theta (default 1e6), the sliding layers' rope_local_base_freq (1e4).
- OLMo 3: both are rope_theta (default 500,000), as transformers 4.57, older vLLM (olmo2.py) and llama.cpp
  read it. (transformers 5.25's Olmo3Config gives the sliding layers 500,000 whatever rope_theta says: it pops
  rope_theta for the full layers first. Only a config with another rope_theta tells the two apart; the
  published ones have 500,000.)
"""

from __future__ import annotations

from explorer.backend.models.config_rope import rope_scaling_of
from explorer.backend.models.layer_attention import LAYER_TYPES
from explorer.errors import require, shown

# model_type -> (its name in messages, {layer type: (config key, default) of the base where none is given})
TYPED = {"gemma3_text": ("Gemma 3", {"full_attention": ("rope_theta", 1_000_000.0),
                                     "sliding_attention": ("rope_local_base_freq", 10_000.0)}),
         "olmo3": ("OLMo 3", {"full_attention": ("rope_theta", 500_000.0),
                              "sliding_attention": ("rope_theta", 500_000.0)})}


def typed_rope_parameters(cfg: dict, model_type: str, layer_type: str) -> dict:
    """The 5.x rope_parameters of one layer type of a TYPED model, from its 4.x or 5.x config."""
    name, bases = TYPED[model_type]
    nested = cfg.get("rope_parameters")
    require(nested is None or isinstance(nested, dict), "config.json: rope_parameters must be an object, not %1",
            shown(nested))
    scaling = cfg.get("rope_scaling")
    require(scaling is None or isinstance(scaling, dict), "config.json: rope_scaling must be an object, not %1",
            shown(scaling))
    params = {"rope_type": "default"}
    require(not nested or any(isinstance(v, dict) for v in nested.values()),
            "config.json: %1's rope_parameters must be set per layer type (%2), not %3", name,
            " / ".join(LAYER_TYPES), shown(nested))
    if nested:
        given = nested.get(layer_type)
        require(given is None or isinstance(given, dict), "config.json: rope_parameters' %1 must be an object, "
                "not %2", layer_type, shown(given))
        params.update(given or {})
    if layer_type == "full_attention" and scaling:
        # merged into the full layers' settings, as convert_rope_params_to_dict does (a 4.x "type" beside
        # the "rope_type": "default" it starts from is not read, there, either)
        params.update(scaling)
    if "rope_theta" not in params:
        key, default = bases[layer_type]
        params["rope_theta"] = cfg.get(key, default)
    return params


def type_ropes(cfg: dict, family: str, model_type: str, max_positions: int, runtime: str) -> tuple:
    """((layer type, base, RopeScaling | None, refusal), ...) of a TYPED model, one per layer type."""
    flat = {k: v for k, v in cfg.items() if k not in ("rope_parameters", "rope_scaling", "rope_theta")}
    return tuple((kind, *rope_scaling_of({**flat, "rope_parameters": typed_rope_parameters(cfg, model_type, kind)},
                                         family, max_positions, runtime))
                 for kind in LAYER_TYPES)
