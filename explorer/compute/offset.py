"""The relative-offset view's data: R(k), PE(p+k) against R(k) PE(p), dot against k. No Qt here."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from explorer.backend import relative
from explorer.compute.screen import frozen, grid
from explorer.params import Params
from explorer.viewstate import ViewState


ROTATION_PX = 32   # the leading channels of R(k) drawn (its 2x2 blocks stay visible)


@dataclass(frozen=True)
class OffsetState(ViewState):
    RANGES = {"offset": (-10_000_000, 10_000_000), "position": (0, 10_000_000)}

    offset: int = 16          # k
    position: int = 10        # p

    def fit(self, params: Params) -> "OffsetState":
        """k and p pulled back into a table of params.max_len positions."""
        n = params.max_len
        k, p = min(max(-(n - 1), self.offset), n - 1), min(max(0, self.position), n - 1)
        return self if (k, p) == (self.offset, self.position) else OffsetState(k, p)


@dataclass(frozen=True)
class OffsetResult:
    rotation: np.ndarray      # (c, c) leading c = min(d, ROTATION_PX) channels of R(k)
    shifted: np.ndarray       # (d,) PE(p + k), float32
    rotated: np.ndarray       # (d,) R(k) PE(p), float32
    max_error: float          # max |PE(p+k) - R(k) PE(p)| in float32 over the paired channels
    position: int             # p used: state.position clamped to 0 .. max_len-1
    k: int                    # k used: state.offset clamped to -(max_len-1) .. max_len-1
    ps: tuple                 # positions p of the dot-product curves
    ks: np.ndarray            # (K,) offsets k
    dots: np.ndarray          # (len(ps), K) PE(p) . PE(p + k)
    spread: float             # max over k of the spread between the curves (0: they collapse)
    params: Params
    state: OffsetState
    unpaired_gap: float | None = None   # odd d: |PE(p+k) - R(k) PE(p)| of the last channel, a sine
    #                                     with no cosine partner (R scales it by cos(kw)): |cos(pw) sin(kw)|


def rotation_corner(d_model: int, offset: int, base: float, size: int = ROTATION_PX) -> np.ndarray:
    """The leading (c, c) block of R(k) for d_model, c = min(d, size) rounded down to even.

    base^(-2i/d) = (base^(c/d))^(-2i/c): the corner is R(k) of a c-wide PE with base^(c/d).
    """
    if d_model <= size:
        return relative.rotation_matrix(d_model, offset, base)
    c = size - size % 2
    return relative.rotation_matrix(c, offset, base ** (c / d_model))


@lru_cache(maxsize=4)
def offset(params: Params, state: OffsetState = OffsetState()) -> OffsetResult:
    """R(k), PE(p+k) beside R(k) PE(p) (float32), and PE(p).PE(p+k) against k for several p.

    p and k are clamped into the table (a worker may compute before the view's controls follow).
    """
    d, n = params.d_model, params.max_len
    pos = min(max(0, int(state.position)), n - 1)          # the view's controls may lag max_len
    k = min(max(-(n - 1), int(state.offset)), n - 1)
    shifted, rotated, err = relative.shifted_vs_rotated(pos, k, d, params.base, "float32")
    gap = None
    if d % 2:            # the unpaired sine is no rounding error: measured apart, named in the view
        paired = d - 1
        err = float(np.max(np.abs(shifted[:paired].astype(np.float64) - rotated[:paired]))) if paired else 0.0
        gap = float(abs(np.float64(shifted[-1]) - rotated[-1]))
    ps = tuple(sorted({0, pos, n // 4, n // 2}))
    step, count = grid(n)
    ks = np.arange(count) * step                                              # (K,)
    dots = relative.dot_vs_offset(ps, ks, d, params.base)                     # (P, K)
    spread = float(np.max(dots.max(axis=0) - dots.min(axis=0))) if len(ps) > 1 else 0.0
    rot = rotation_corner(d, k, params.base)
    frozen(rot, shifted, rotated, ks, dots)
    return OffsetResult(rot, shifted, rotated, err, pos, k, ps, ks, dots, spread, params, state, gap)
