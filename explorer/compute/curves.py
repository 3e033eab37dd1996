"""The frequency curves' data: sin/cos of chosen pairs, per-pixel envelopes when dense. No Qt here."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from explorer.backend.encodings import channel_counts, frequencies
from explorer.compute.screen import Window, block_step
from explorer.params import Params


@dataclass(frozen=True)
class CurveLine:
    pair: int                # frequency index i
    kind: str                # "sin" or "cos"
    wavelength: float        # 2 pi / w_i, in positions
    x: np.ndarray            # (m,) positions
    y: np.ndarray            # (m,) values (an envelope zig-zag when pos_step > 1)


@dataclass(frozen=True)
class CurvesResult:
    lines: tuple[CurveLine, ...]
    pos_step: int
    params: Params



def _sin_envelope(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(min, max) of sin over each angle interval [a, b]; (m,) each."""
    sa, sb = np.sin(a), np.sin(b)
    lo, hi = np.minimum(sa, sb), np.maximum(sa, sb)
    two_pi = 2 * np.pi
    peak = np.pi / 2 + two_pi * np.ceil((a - np.pi / 2) / two_pi)
    trough = -np.pi / 2 + two_pi * np.ceil((a + np.pi / 2) / two_pi)
    return np.where(trough <= b, -1.0, lo), np.where(peak <= b, 1.0, hi)


@lru_cache(maxsize=4)
def curves(params: Params, window: Window) -> CurvesResult:
    """sin/cos of the chosen frequency pairs over positions; per-pixel min/max envelope when dense
    (pairs (x, min), (x, max) per pixel column: the curve's range over that column's positions and the
    one before it)."""
    win = window.clipped(params)
    w = frequencies(params.d_model, params.base, params.layout)
    n_cos = channel_counts(params.d_model, params.layout)[1]
    n = win.pos1 - win.pos0
    step = block_step(n, win.cols_px)
    lines = []
    for i in dict.fromkeys(params.curve_pairs):          # unique, order kept
        if i >= len(w):
            continue
        kinds = ("sin", "cos") if i < n_cos else ("sin",)
        for kind in kinds:
            phase = np.pi / 2 if kind == "cos" else 0.0
            if step == 1:
                x = np.arange(win.pos0, win.pos1, dtype=np.float64)
                y = np.sin(x * w[i] + phase)
            else:
                starts = np.arange(win.pos0, win.pos1, step, dtype=np.float64)
                ends = np.minimum(starts + step - 1, win.pos1 - 1)
                # each pixel column's range includes the previous block's last position, so the
                # columns' vertical bars join (the view draws one bar min..max per column)
                joined = np.maximum(starts - 1, win.pos0)
                lo, hi = _sin_envelope(joined * w[i] + phase, ends * w[i] + phase)
                x = np.repeat((starts + ends) / 2, 2)
                y = np.stack([lo, hi], axis=1).reshape(-1)
            lines.append(CurveLine(i, kind, float(2 * np.pi / w[i]), x, y))
    return CurvesResult(tuple(lines), step, params)
