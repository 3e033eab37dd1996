"""Params + what each view shows -> frozen results at screen resolution. No Qt here.

Every function is cached on its (hashable) arguments, so a change of base does not recompute the
token view, and a view that did not move returns its previous result at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from explorer.backend.encodings import (box_columns, channel_counts, channel_frequency,
                                        frequencies, pe_block_mean, sinusoidal_pe)
from explorer.backend.similarity import offset_profile_blocks, similarity_blocks
from explorer.errors import require
from explorer.params import Params


@dataclass(frozen=True, slots=True)
class Window:
    """The part of a view on screen: positions [pos0, pos1), channels [ch0, ch1), and its pixels."""

    pos0: int
    pos1: int
    ch0: int = 0
    ch1: int = 0          # 0 = all channels
    rows_px: int = 800
    cols_px: int = 1000

    @staticmethod
    def full(params: Params, rows_px: int = 800, cols_px: int = 1000) -> "Window":
        return Window(0, params.max_len, 0, params.d_model, rows_px, cols_px)

    def clipped(self, params: Params) -> "Window":
        """This window kept inside [0, max_len) x [0, d_model), at least one position wide."""
        pos0 = min(max(0, int(self.pos0)), params.max_len - 1)
        pos1 = min(max(pos0 + 1, int(self.pos1)), params.max_len)
        ch1 = self.ch1 if self.ch1 > 0 else params.d_model
        ch0 = min(max(0, int(self.ch0)), params.d_model - 1)
        ch1 = min(max(ch0 + 1, int(ch1)), params.d_model)
        return Window(pos0, pos1, ch0, ch1, max(1, int(self.rows_px)), max(1, int(self.cols_px)))


def block_step(count: int, pixels: int) -> int:
    """Positions per drawn row so that count positions fit in `pixels` rows."""
    return max(1, math.ceil(count / max(1, pixels)))


@dataclass(frozen=True)
class HeatmapResult:
    image: np.ndarray        # (rows, cols) float32: block means of PE, rows = positions
    pos0: int
    pos_step: int            # positions per image row (1 = exact)
    ch0: int
    ch_step: int             # channels per image column
    params: Params


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


@dataclass(frozen=True)
class SimilarityResult:
    image: np.ndarray        # (rows, cols) float32 block means of S (dot or cosine)
    pos0: int
    pos_step: int
    profile_k: np.ndarray    # (m,) offsets k (block centres)
    profile_f: np.ndarray    # (m,) f(k), block means when the step is > 1
    params: Params


@lru_cache(maxsize=4)
def heatmap(params: Params, window: Window) -> HeatmapResult:
    """Screen-size PE image: closed-form block means over positions, box filter over channels."""
    win = window.clipped(params)
    step = block_step(win.pos1 - win.pos0, win.rows_px)
    rows = math.ceil((win.pos1 - win.pos0) / step)
    if step == 1:   # every position on screen: the table itself, in the chosen dtype
        img = sinusoidal_pe(rows, params.d_model, params.base, params.layout, params.dtype,
                            start=win.pos0)
    else:           # block means for the display: float32 is ample
        img = pe_block_mean(win.pos0, step, rows, params.d_model, params.base, params.layout,
                            np.float32)
    img = img[:, win.ch0:win.ch1]                                        # (rows, channels)
    ch_step = block_step(win.ch1 - win.ch0, win.cols_px)
    if ch_step > 1:
        img = box_columns(img, ch_step)
    return HeatmapResult(np.ascontiguousarray(img, dtype=np.float32), win.pos0, step,
                         win.ch0, ch_step, params)


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
    """sin/cos of the chosen frequency pairs over positions; per-pixel min/max envelope when dense."""
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
                lo, hi = _sin_envelope(starts * w[i] + phase, ends * w[i] + phase)
                x = np.repeat((starts + ends) / 2, 2)
                y = np.stack([lo, hi], axis=1).reshape(-1)
            lines.append(CurveLine(i, kind, float(2 * np.pi / w[i]), x, y))
    return CurvesResult(tuple(lines), step, params)


@lru_cache(maxsize=4)
def similarity(params: Params, window: Window) -> SimilarityResult:
    """Screen-size position-similarity matrix (closed form) and the offset profile f(k)."""
    win = window.clipped(params)
    n = win.pos1 - win.pos0
    step = block_step(n, min(win.rows_px, win.cols_px))
    rows = math.ceil(n / step)
    img = similarity_blocks(win.pos0, win.pos0, step, rows, rows, params.d_model, params.base,
                            params.layout, params.metric, np.float32)
    k_step = block_step(params.max_len, win.cols_px)
    k_count = math.ceil(params.max_len / k_step)
    f = offset_profile_blocks(0, k_step, k_count, params.d_model, params.base, params.layout)
    if params.metric == "cosine":
        f = f / max(1, channel_counts(params.d_model, params.layout)[1])   # h paired channels
    k = np.arange(k_count) * k_step + (k_step - 1) / 2
    return SimilarityResult(img.astype(np.float32), win.pos0, step, k, f, params)


def pe_value(params: Params, pos: int, channel: int) -> tuple[float, float, float]:
    """(PE[pos, channel] in the chosen dtype, w of the channel, wavelength 2 pi / w)."""
    require(0 <= pos < params.max_len, f"position must be in 0 .. {params.max_len - 1}")
    require(0 <= channel < params.d_model, f"channel must be in 0 .. {params.d_model - 1}")
    row = sinusoidal_pe(1, params.d_model, params.base, params.layout, params.dtype, start=pos)
    w = float(channel_frequency(params.d_model, params.base, params.layout)[channel])
    return float(row[0, channel]), w, (2 * math.pi / w) if w > 0 else math.inf


def similarity_value(params: Params, p: int, q: int) -> float:
    """Exact S[p, q] (dot or cosine) by the closed form."""
    n = params.max_len
    require(0 <= p < n and 0 <= q < n, f"positions must be in 0 .. {n - 1}")
    return float(similarity_blocks(p, q, 1, 1, 1, params.d_model, params.base, params.layout,
                                   params.metric)[0, 0])
