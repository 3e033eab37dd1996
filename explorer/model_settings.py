"""The opened model's own settings applied to the whole State, as a preset of that model would. No Qt.

`preset_of_model(config)` reads a Preset from an opened model's ModelConfig (what its config.json or GGUF header
says, as transformers / llama.cpp standardise it): d_model, heads, the context (max_position_embeddings, or the
GGUF context length), the embedding scale, and its RoPE as the RoPE views can show it: base, rope type and
parameters, rotary fraction, pairing (rotate-half, or neighbour pairs for GPT-J, Cohere, GLM-4), the rotated
head width (DeepSeek's MLA: its rope part); Gemma 3's and OLMo 3's global (full-attention) layers' RoPE rather
than the sliding layers' base; ALiBi's head count. `apply_model_settings(state, config)` sets those values
(explorer.presets_state.preset_values_applied) with no preset named: the values are the model's, not a bundled preset's.
"""

from __future__ import annotations

import math
from dataclasses import replace

from explorer.backend.presets import Preset
from explorer.backend.rope_scaling import RopeScaling
from explorer.errors import Message, localized, msg, require
from explorer.presets_state import apply_preset, preset_values_applied
from explorer.translations import layer_list, list_separator

MODEL_PRESET = "model"     # --preset model: the opened model's own settings, not a bundled preset


def _global_rope(config) -> tuple[float | None, RopeScaling | None, str | None]:
    """(base, scaling, refusal): a full-attention layer's RoPE where layer types have their own (Gemma 3,
    OLMo 3), else the model's."""
    if config.type_ropes and "full_attention" in config.layer_types:
        return config.rope_of(config.layer_types.index("full_attention"))
    return config.rope_base, config.rope_scaling, config.rope_refusal


def _sqrt_d_scale(config) -> float:
    """Gemma's sqrt(d_model) (rounded to its dtype) as the √d box's scale, else 1: the box scales by √d only
    (Granite's embedding_multiplier is the model's own, used where its embeddings are)."""
    root = math.sqrt(config.d_model)
    return float(config.embed_scale) if abs(config.embed_scale - root) <= 0.01 * root else 1.0


def preset_of_model(config) -> Preset:
    """The Preset an opened model's config makes; InputError (one line) when its RoPE settings cannot be used."""
    rope = config.position == "rope"
    base, scaling, refusal = _global_rope(config) if rope else (None, None, None)
    require(not rope or refusal is None, "%1: its RoPE settings cannot be used: %2", config.name, refusal)
    if rope and scaling is None:
        scaling = RopeScaling()
    preset = Preset(name=config.name, title=config.name, d_model=config.d_model, n_heads=config.n_heads,
                    n_kv_heads=config.n_kv_heads, head_dim=config.rope_head_dim if rope else config.head_dim,
                    position=config.position, context_length=config.max_positions,
                    max_position_embeddings=config.max_positions if rope else None,
                    rope_theta=float(base) if rope else None, rope_scaling=scaling,
                    rotary_fraction=float(scaling.partial_rotary_factor) if rope else None,
                    pairing=("interleaved" if config.rope_interleaved else "half") if rope else None,
                    embedding_scale=_sqrt_d_scale(config), vocab_size=config.vocab_size, sources=(), notes="")
    if rope:
        preset.frequencies()          # the same check every bundled RoPE preset passes
    return preset


def not_carried(config) -> list[Message]:
    """What the opened model does to positions that the views' settings cannot carry (the status line lists it,
    so the views are not taken for the whole model): NoPE layers, sliding windows and chunks, M-RoPE, llama.cpp's
    still pairs, a q scale or temperature after RoPE, a score soft cap."""
    out = []
    if config.nope_layers:
        out.append(msg("layers without RoPE (%1)", layer_list(config.nope_layers)))
    if config.sliding_window:
        out.append(msg("sliding windows of %1 tokens", f"{config.sliding_window:,}"))
    if config.attention_chunk:
        out.append(msg("attention chunks of %1 tokens", f"{config.attention_chunk:,}"))
    if config.mrope or config.still_pairs:
        out.append(msg("M-RoPE (text tokens turn as plain RoPE)"))
    if config.q_scale or config.attn_temperature:
        out.append(msg("a q scale that grows with the position"))
    if config.attn_softcap:
        out.append(msg("a soft cap of %1 on the scores", f"{config.attn_softcap:g}"))
    return out


def settings_line(preset: Preset, config, lang: str) -> str:
    """The status line after applying: what was set (preset_line) and, where any, what the views leave out."""
    from explorer.presets_state import preset_line

    line, left = preset_line(preset, lang), [localized(m, lang) for m in not_carried(config)]
    if not left:
        return line
    return localized(msg("%1. Not in the views: %2", line, list_separator(lang).join(left)), lang)


def apply_model_settings(state, config):
    """`state` with every value preset_of_model(config) sets (d_model, max_len, the RoPE views, the distance
    chart, the ALiBi heads); no preset named; text, model, view and colours kept."""
    return model_preset_applied(state, preset_of_model(config))


def model_preset_applied(state, preset: Preset):
    """`state` with every value of a preset_of_model Preset set, no preset named (it is no bundled one)."""
    return replace(preset_values_applied(state, preset), preset="")


def with_preset(state, name: str, model_spec: str | None = None):
    """`state` with the bundled preset `name`, or with name MODEL_PRESET ("model") the settings of the model
    `model_spec` (the CLI's --preset model --model PATH); InputError in one line."""
    if name != MODEL_PRESET:
        return apply_preset(state, name)
    require(bool(model_spec), "--preset model takes the settings of the model given with --model; give --model")
    from explorer.compute import models

    return apply_model_settings(state, models.open_cached(models.normal_spec(model_spec)).config)


__all__ = ["MODEL_PRESET", "apply_model_settings", "model_preset_applied", "preset_of_model", "with_preset"]
