"""The permutation matrix P (interleaved -> concat channel order) as drawn in a panel of given pixels. No Qt.

The Layouts view's P (backend/layouts.py concat_permutation) and the RoPE view's (backend/rope.py
pairing_permutation, the same matrix: rotate-half pairs channel i with i + d/2, the concat order) hold one 1
in every row and every column. Drawn into fewer pixels than it has rows, Qt's downscale keeps some rows and
drops the others (64 rows in a 30 px panel, RoPE in a 1280 x 520 window at 1.5x: half a permutation, rows
left empty), and a block mean dims each 1 to 1/step. Here P is reduced to the panel first by the max over
square step x step blocks: every row and column of blocks holds a 1, so every pixel row and column shows one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from explorer.backend import layouts
from explorer.compute.screen import Window, block_step, frozen


@dataclass(frozen=True, slots=True)
class ShownPermutation:
    """P as drawn: exactly, or the max over its step x step blocks."""

    image: np.ndarray     # (c, c) 0/1, read-only; c = ceil(d / step)
    step: int             # channels per cell (1: the exact P)

    @property
    def side(self) -> int:
        """The channels the image covers: c x step (>= d; a trailing partial block counts whole)."""
        return self.image.shape[0] * self.step


def panel_px(window: Window | None) -> tuple[int, int]:
    """(rows_px, cols_px) of the panel P is drawn in; a headless call (no window) gets Window's default."""
    w = window if window is not None else Window(0, 1)
    return max(1, int(w.rows_px)), max(1, int(w.cols_px))


def tiling_step(d: int, least: int) -> int:
    """The smallest step >= least that divides d, if one is at most 2 x least (the cells then tile P
    evenly: 64 channels in 30 px are 16 cells of 4, where cells of 3 drew its two lines as uneven
    stairs); else least (a trailing partial block)."""
    return next((s for s in range(least, 2 * least + 1) if d % s == 0), least)


@lru_cache(maxsize=8)
def shown_permutation(d: int, rows_px: int, cols_px: int) -> ShownPermutation:
    """P (d x d) exactly where d <= rows_px and d <= cols_px; else its maxima over square blocks of a step
    that fits both (tiling_step): cell (a, b) = 1 when an interleaved channel of block a goes to a concat
    channel of block b (a trailing partial block: the max over the channels it has). O(d) + the cells: P
    itself is never built when reduced (d = 8192 would be 512 MiB). Cached on (d, pixels): the base and
    max_len sliders leave it alone, and the view draws the same array without colouring it again."""
    step = tiling_step(d, max(block_step(d, rows_px), block_step(d, cols_px)))
    if step == 1:
        image = layouts.concat_permutation(d)                                     # (d, d) float64
    else:
        cells = -(-d // step)
        image = np.zeros((cells, cells), dtype=np.float32)                        # (c, c)
        image[layouts.concat_order(d) // step, np.arange(d) // step] = 1.0       # P[src[j], j] = 1
    frozen(image)
    return ShownPermutation(image, step)
