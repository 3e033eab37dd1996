"""The distance chart's data: every scheme's score factor against distance. No Qt here."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from explorer.backend import distance
from explorer.backend.alibi import slopes
from explorer.backend.rope_scaling import inv_frequencies
from explorer.backend.similarity import cos_sum, split_frequencies
from explorer.compute.rope_settings import SCALING_RANGES, RopeScalingFields
from explorer.compute.screen import CURVE_PX, frozen
from explorer.errors import require
from explorer.params import Params


@dataclass(frozen=True)
class DistanceState(RopeScalingFields):
    """The RoPE curve's head_dim, base and rope type (RopeScalingFields), ALiBi's heads, learned on/off."""

    RANGES = {**SCALING_RANGES, "head_dim": (2, 512), "rope_base": (1.0001, 1e9), "heads": (1, 64),
              "alibi_head": (0, 63)}

    head_dim: int = 64
    rope_base: float = 10000.0
    heads: int = 8
    alibi_head: int = 0
    learned: bool = True

    def __post_init__(self) -> None:
        super().__post_init__()
        require(self.alibi_head < self.heads,
                "alibi_head must be a head 0 .. %1 of the %2 heads; got %3", self.heads - 1, self.heads,
                self.alibi_head)

    def rope_head_base(self) -> tuple[int, float]:
        return self.head_dim, self.rope_base

    @property
    def plain_rope(self) -> bool:
        """True when the RoPE curve is the unscaled one (default type, every channel rotated)."""
        return self.rope_type == "default" and self.partial_rotary_factor == 1.0


@dataclass(frozen=True)
class DistanceResult:
    curves: dict              # name -> (k, y), normalised to 1 at k = 0 (see backend.distance)
    learned_note: str         # "" or why the learned curve is missing
    params: Params
    state: DistanceState


@lru_cache(maxsize=1)
def learned_curve() -> tuple[np.ndarray, np.ndarray] | str:
    """MiniLM's mean cos-sim of positions p and p + k, k = 0 .. 511; or why it is unavailable."""
    from explorer.backend import pretrained

    reason = pretrained.minilm_available()
    if reason is not None:
        return reason
    table = pretrained.minilm_tables().position                               # (512, 384)
    k = np.arange(table.shape[0])
    y = distance.learned_vs_distance(table, k, "cosine")
    frozen(k, y)
    return k, y


@lru_cache(maxsize=4)
def distance_view(params: Params, state: DistanceState = DistanceState()) -> DistanceResult:
    """All schemes' score factor against distance k = 0 .. max_len - 1 on shared axes."""
    curves = distance.distance_chart(params.max_len - 1, params.d_model, params.base,
                                     state.head_dim, state.rope_base, state.heads,
                                     state.alibi_head, None, max_points=CURVE_PX)
    if not state.plain_rope:
        curves = {**curves, **_scaled_rope(curves["rope"][0], state)}
    note = ""
    if state.learned:
        got = learned_curve()
        if isinstance(got, str):
            note = got
        else:
            k, y = got
            keep = k < params.max_len
            curves = {**curves, "learned": (k[keep], y[keep])}
    return DistanceResult(curves, note, params, state)


def factors_at(params: Params, state: DistanceState, k: int) -> dict:
    """name -> each curve's value at one distance k, as distance_view draws it there (exact at any k,
    sampled or not): sinusoidal, rope (and rope_unscaled for a scaled rope), alibi, learned (k < 512)."""
    k = int(k)
    w, _ = split_frequencies(params.d_model, params.base, "interleaved")      # as distance_chart
    out = {"sinusoidal": float(cos_sum(float(k), 1.0, 1, w)[0]) / max(len(w), 1)}
    if state.plain_rope:
        theta = distance.rope_frequencies(state.head_dim, state.rope_base)
        out["rope"] = float(2.0 * cos_sum(float(k), 1.0, 1, theta)[0]) / (2.0 * len(theta))
    else:
        out.update({name: float(y[0]) for name, (_, y) in _scaled_rope(np.array([k]), state).items()})
    out["alibi"] = math.exp(-float(slopes(state.heads)[state.alibi_head]) * k)
    got = learned_curve() if state.learned else None
    if got is not None and not isinstance(got, str) and k < len(got[1]) and k < params.max_len:
        out["learned"] = float(got[1][k])
    return out


def _scaled_rope(ks: np.ndarray, state: DistanceState) -> dict:
    """{"rope": the scaled curve, "rope_unscaled": the plain one} at distances ks (evenly spaced from
    ks[0]): all-ones q, k with the rope type's frequencies; the rotated part times attention_factor^2, the
    unrotated channels a constant; divided by the plain full-rotation value at k = 0 (head_dim), so the
    attention factor shows at k = 0."""
    got = inv_frequencies(state.head_dim, state.rope_base, state.scaling(), state.seq_len,
                          state.max_position_embeddings)
    step = float(ks[1] - ks[0]) if len(ks) > 1 else 1.0
    dim = 2 * len(got.inv_freq)
    rotated = 2.0 * cos_sum(float(ks[0]), step, len(ks), got.inv_freq)                 # (K,)
    y = (got.attention_factor ** 2 * rotated + (state.head_dim - dim)) / state.head_dim
    plain = distance.rope_frequencies(state.head_dim, state.rope_base)
    y0 = 2.0 * cos_sum(float(ks[0]), step, len(ks), plain) / state.head_dim
    frozen(y, y0)
    return {"rope": (ks, y), "rope_unscaled": (ks, y0)}
