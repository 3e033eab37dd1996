"""The RoPE scaling settings a view keeps (rope type + its parameters), validated by the backend. No Qt.

`RopeScalingFields` is mixed into the RoPE view's, the frequencies view's and the distance chart's
states, so a preset sets the same values in all three. Field names are the CLI options of
`pe-explorer export rope-frequencies` (original_max_len = original_max_position_embeddings).
A state whose values the backend refuses is never built: `RopeScaling` raises its one-line message.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.backend.rope_scaling import (
    _FIELDS_OF,
    ROPE_TYPES,
    RopeScaling,
    inv_frequencies,
)
from explorer.viewstate import ViewState

_BIG = 10_000_000
CONTEXT_MAX = 1 << 24       # a model's claimed context: Llama-4-Scout-Instruct's 10,485,760 (float32 counts exactly)
SCALING_RANGES = {
    "factor": (0.0, 1e6), "original_max_len": (1, _BIG), "max_position_embeddings": (1, CONTEXT_MAX),
    "low_freq_factor": (0.0, 1e6), "high_freq_factor": (0.0, 1e6), "beta_fast": (0.0, 1e6),
    "beta_slow": (0.0, 1e6), "mscale": (-1e6, 1e6), "mscale_all_dim": (-1e6, 1e6),
    "attention_factor": (0.0, 1e6), "seq_len": (1, _BIG),
}
# state field -> RopeScaling field (the rest are equal)
_RENAMED = {"original_max_len": "original_max_position_embeddings"}
SCALING_FIELDS = ("factor", "original_max_len", "low_freq_factor", "high_freq_factor", "beta_fast",
                  "beta_slow", "mscale", "mscale_all_dim", "attention_factor", "short_factor",
                  "long_factor")


def fields_of(rope_type: str) -> tuple[str, ...]:
    """The state fields rope_type reads (besides partial_rotary_factor, seq_len, max_position_embeddings)."""
    names = {v: k for k, v in _RENAMED.items()}
    return tuple(names.get(f, f) for f in _FIELDS_OF[rope_type])


@dataclass(frozen=True)
class RopeScalingFields(ViewState):
    """rope_type and its parameters (None: not set); `scaling()` is the backend's RopeScaling."""

    RANGES = SCALING_RANGES
    CHOICES = {"rope_type": ROPE_TYPES}

    rope_type: str = "default"
    factor: float | None = None
    original_max_len: int | None = None
    low_freq_factor: float | None = None
    high_freq_factor: float | None = None
    beta_fast: float | None = None
    beta_slow: float | None = None
    mscale: float | None = None
    mscale_all_dim: float | None = None
    attention_factor: float | None = None
    short_factor: tuple | None = None        # longrope, (rotary_dim/2,)
    long_factor: tuple | None = None         # longrope, (rotary_dim/2,)
    partial_rotary_factor: float = 1.0
    max_position_embeddings: int | None = None   # the model's claimed context (yarn/longrope factor)
    seq_len: int | None = None                   # the current length (dynamic NTK, longrope long/short)
    truncate: bool = True                        # yarn: the ramp's ends rounded to whole pairs (GPT-OSS: not)

    def __post_init__(self) -> None:
        super().__post_init__()
        scaling = self.scaling()                          # InputError: the backend's one-line message
        head_dim, base = self.rope_head_base()
        inv_frequencies(head_dim, base, scaling, self.seq_len, self.max_position_embeddings)

    def rope_head_base(self) -> tuple[int, float]:  # pragma: no cover - each subclass overrides
        raise NotImplementedError

    def scaling(self) -> RopeScaling:
        """The backend's validated RopeScaling of these fields."""
        values = {_RENAMED.get(n, n): getattr(self, n) for n in SCALING_FIELDS}
        return RopeScaling(rope_type=self.rope_type, partial_rotary_factor=self.partial_rotary_factor,
                           truncate=None if self.truncate else False, **values)   # (None: transformers' True)

    def type_label(self) -> str:
        """The rope type and its factor: 'llama3 ×8', 'default' (the UI adds the rotary fraction)."""
        kind = self.rope_type
        return kind if self.factor is None or kind == "default" else f"{kind} ×{self.factor:g}"


_NEEDS = {"default": (), "linear": ("factor",), "dynamic": ("factor", "original_max_len"),
          "yarn": ("factor", "original_max_len"),
          "llama3": ("factor", "low_freq_factor", "high_freq_factor", "original_max_len"),
          "longrope": ("factor", "original_max_len", "short_factor", "long_factor"),
          "proportional": ()}


def with_rope_type(state: RopeScalingFields, rope_type: str, max_len: int) -> dict:
    """The changes that switch `state` to rope_type: fields the new type does not read are cleared,
    needed ones it lacks get teaching defaults (factor 4, L0 = the shared max_len, llama3's 1 / 4,
    longrope lists 1 .. factor/2 (short) and 1 .. factor (long), proportional's rotary fraction 0.25 in place
    of 1 where a pair then turns; leaving proportional, the fraction goes back to 1: there it picks the
    turning pairs of the whole head, elsewhere the rotated channels). An unknown type is passed on (the
    state refuses it by name)."""
    if rope_type not in ROPE_TYPES:
        return {"rope_type": rope_type}
    used = set(fields_of(rope_type))
    changes = {"rope_type": rope_type}
    changes.update({n: None for n in SCALING_FIELDS if n not in used and getattr(state, n) is not None})
    factor = state.factor if state.factor is not None else 4.0
    head_dim, _ = state.rope_head_base()
    half = max(1, int(head_dim * state.partial_rotary_factor) // 2)
    fills = {"factor": factor, "original_max_len": state.original_max_len or max(2, int(max_len)),
             "low_freq_factor": 1.0, "high_freq_factor": 4.0,
             "short_factor": tuple(float(x) for x in np.linspace(1.0, max(1.0, factor / 2), half)),
             "long_factor": tuple(float(x) for x in np.linspace(1.0, factor, half))}
    for name in _NEEDS[rope_type]:
        value = getattr(state, name)
        if value is None or (isinstance(value, tuple) and len(value) != half):
            changes[name] = fills[name]
    if rope_type == "proportional" and state.partial_rotary_factor == 1.0 and head_dim >= 8:
        changes["partial_rotary_factor"] = 0.25   # Gemma 4's: a quarter of the pairs turn (at 1: linear)
    elif state.rope_type == "proportional" and rope_type != "proportional":
        changes["partial_rotary_factor"] = 1.0    # p-RoPE's fraction means another thing in the other types
    if rope_type != "yarn" and not state.truncate:
        changes["truncate"] = True                # only YaRN reads it
    return changes


def scaling_fields_from(scaling: RopeScaling, max_position_embeddings: int | None) -> dict:
    """RopeScaling (a preset's) -> the state's field values (every scaling field, None where unset)."""
    out = {"rope_type": scaling.rope_type, "partial_rotary_factor": float(scaling.partial_rotary_factor),
           "max_position_embeddings": max_position_embeddings, "truncate": scaling.truncate is not False}
    for name in SCALING_FIELDS:
        value = getattr(scaling, _RENAMED.get(name, name))
        out[name] = float(value) if isinstance(value, (int, float)) and name != "original_max_len" else value
    return out
