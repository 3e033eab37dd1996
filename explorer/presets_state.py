"""A model preset applied to the whole State: every view's values from one published config. No Qt.

`apply_preset(state, preset)` sets the shared d_model and max_len (the context, within the window's
slider range), base for a sinusoidal model, √d scaling of token embeddings (Gemma's embedding scale),
the RoPE view's head_dim / base / pairing / rope type and parameters, the frequencies view's RoPE
curves, the distance chart's RoPE and ALiBi heads, the ALiBi view's heads; and names the preset in
`state.preset`. `preset_values` lists what a preset sets, `preset_overrides` what was changed since.
"""

from __future__ import annotations

import math
from dataclasses import replace

from explorer.backend.presets import Preset, get_preset
from explorer.backend.rope_scaling import RopeScaling
from explorer.compute.rope_settings import scaling_fields_from
from explorer.errors import Message, localized, msg
from explorer.translations import list_separator, number_text

MAX_LEN_LIMIT = 32768      # the window's max_len slider range (explorer/ui/controls.py SLIDER_MAX_LEN)
HEADS_LIMIT = 64           # the ALiBi view's and distance chart's head range


def _rope_fields(preset: Preset) -> dict:
    scaling = preset.rope_scaling or RopeScaling()
    return scaling_fields_from(scaling, preset.max_position_embeddings if preset.rope_scaling else None)


def preset_values(preset: Preset | str) -> list[tuple[str, str, object]]:
    """[(where, field, value)] the preset sets; where is "params" or a view name."""
    p = get_preset(preset) if isinstance(preset, str) else preset
    out = [("params", "d_model", p.d_model), ("params", "max_len", min(p.context_length, MAX_LEN_LIMIT)),
           ("params", "scale_embedding", not math.isclose(p.embedding_scale, 1.0))]
    heads = min(p.n_heads, HEADS_LIMIT)
    rope = _rope_fields(p)
    out += [("rope", "head_dim", p.head_dim)]
    if p.position == "rope":
        out += [("rope", "base", p.rope_theta), ("rope", "pairing", p.pairing)]
    out += [("rope", k, v) for k, v in rope.items()]
    if p.position == "rope":
        out += [("rope", "page", "scaling")]
    out += [("frequencies", "rope", p.position == "rope"), ("frequencies", "head_dim", p.head_dim)]
    if p.position == "rope":
        out += [("frequencies", "base", p.rope_theta)]
    out += [("frequencies", k, v) for k, v in rope.items()]
    out += [("distance", "head_dim", p.head_dim), ("distance", "heads", heads),
            ("distance", "alibi_head", 0)]
    if p.position == "rope":
        out += [("distance", "rope_base", p.rope_theta)]
    out += [("distance", k, v) for k, v in rope.items()]
    out += [("alibi", "heads", heads)]
    return out


def apply_preset(state, preset: Preset | str):
    """`state` with every value the preset sets; other settings (text, view, colour ...) kept."""
    p = get_preset(preset) if isinstance(preset, str) else preset
    return replace(preset_values_applied(state, p), preset=p.name)


def preset_values_applied(state, p: Preset):
    """`state` with every value of preset_values(p) set, the State's preset name left as it was (a Preset made
    from an opened model's config is no bundled one: explorer.model_settings)."""
    values = preset_values(p)
    params = {f: v for where, f, v in values if where == "params"}
    out = state.with_params(**params)
    for name in dict.fromkeys(where for where, _, _ in values if where != "params"):
        changes = {f: v for where, f, v in values if where == name}
        view_state = out.views[name]
        out = replace(out, views=out.views.replace(name, replace(view_state, **changes)))
    return out


def preset_overrides(state) -> list[tuple[str, str, object, object]]:
    """[(where, field, preset value, current value)] for the values changed since the preset was chosen."""
    if not state.preset:
        return []
    out = []
    for where, f, value in preset_values(state.preset):
        now = getattr(state.params if where == "params" else state.views[where], f)
        if now != value:
            out.append((where, f, value, now))
    return out


PAIRS = {"interleaved": msg("interleaved pairs"), "half": msg("half pairs")}


def preset_line(preset: Preset | str, lang: str = "en") -> str:
    """'llama-3.1-8b: d_model 4096, max_len 32768 (context 131072), head_dim 128, RoPE base 500,000,
    llama3 ×8 (8192 → 131072), half pairs' — what choosing it sets, in `lang` (the window's language;
    field names and rope types stay as they are written in config.json)."""
    p = get_preset(preset) if isinstance(preset, str) else preset
    shown = min(p.context_length, MAX_LEN_LIMIT)
    parts = [f"d_model {p.d_model}",
             msg("max_len %1 (context %2)", shown, p.context_length) if shown != p.context_length
             else f"max_len {shown}",
             msg("heads %1, head_dim %2", p.n_heads, p.head_dim)]
    if p.position == "rope":
        s = p.rope_scaling
        parts.append(msg("RoPE base %1", number_text(p.rope_theta, 6)))     # not the shared slider's base
        kind = s.rope_type if s.factor is None or s.rope_type == "default" else f"{s.rope_type} ×{s.factor:g}"
        if s.original_max_position_embeddings:
            kind += f" ({s.original_max_position_embeddings} → {p.context_length})"
        parts.append(msg("%1, not truncated", kind) if s.truncate is False else kind)
        parts.append(PAIRS.get(p.pairing) or msg("%1 pairs", p.pairing))
        if p.rotary_fraction != 1.0:
            parts.append(msg("rotary %1", f"{p.rotary_fraction:g}"))
    else:
        parts.append(msg("positions %1", p.position))
    if not math.isclose(p.embedding_scale, 1.0):
        parts.append(msg("embeddings ×%1", f"{p.embedding_scale:.4g}"))
    words = [localized(part, lang) if isinstance(part, Message) else part for part in parts]
    return f"{p.name}: " + list_separator(lang).join(words)


__all__ = ["MAX_LEN_LIMIT", "apply_preset", "preset_line", "preset_overrides", "preset_values"]
