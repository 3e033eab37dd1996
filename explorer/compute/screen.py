"""Shared screen-size helpers of the compute layer: the visible window, block steps, frozen arrays. No Qt."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from explorer.backend.encodings import box_columns
from explorer.params import Params

IMAGE_PX = 256     # the most rows / columns of any image of the multi-panel views (downsampled beyond)
CURVE_PX = 1024    # the most points of any curve there (about one per pixel of the widest chart: 2 px
#                    pens cost ~0.6 us a segment in the raster engine, so 2048 points cost 4 ms more)


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


def channel_step(count: int, pixels: int, layout: str = "interleaved") -> int:
    """Channels per drawn column so that count channels fit in `pixels` columns; an even number for
    interleaved sin/cos when columns are averaged, so that each holds as many sines as cosines. An
    odd step alternates (sin, cos, sin) and (cos, sin, cos) columns, whose means differ where slow
    channels sit near (0, 1): false stripes (d = 4096 at 1920 px, 3 channels a column). Never more than
    count: 3 channels in one pixel are one column of 3, not an even step of 4 that leaves no column."""
    step = block_step(count, pixels)
    even = step + 1 if layout == "interleaved" and step > 1 and step % 2 else step
    return even if even <= count else step



@dataclass(frozen=True, slots=True)
class ShownImage:
    """A table as drawn: block means sized to the panel's pixels, and the extent they cover."""

    data: np.ndarray      # (rows, cols) float32, read-only
    height: int           # table rows covered: rows x the row step (a trailing partial block is left out)
    width: int            # table columns covered


def block_means(table: np.ndarray, rows_px: int, cols_px: int) -> ShownImage:
    """Means of `table` (n, m) over the smallest whole blocks that fit rows_px x cols_px: each pixel
    shows its block, where a nearest-pixel downscale drops rows and columns (and aliases fast
    channels into false patterns). The table itself (as float32) when it fits."""
    n, m = table.shape
    rs, cs = block_step(n, rows_px), block_step(m, cols_px)
    rows, cols = n // rs, m // cs
    if rs == cs == 1:    # a read-only view of the table, no copy
        data = np.asarray(table, dtype=np.float32).view()
    else:
        data = _block_means(np.asarray(table)[:rows * rs, :cols * cs], rs, cs)  # (rows, cols)
        data = data.astype(np.float32, copy=False)
    data.setflags(write=False)
    return ShownImage(data, rows * rs, cols * cs)


def _block_means(a: np.ndarray, rs: int, cs: int) -> np.ndarray:
    """Means of the rs x cs blocks of a (rows rs, cols cs) by strided whole-array adds in a's
    precision (float32 or float64): numpy's mean over the (1, 3) axes of a 4-d reshape walks the
    blocks element by element (~2.5 ms for 512 x 384 into 250 x 330, ~0.2 ms this way)."""
    a = a if a.dtype in (np.float32, np.float64) else a.astype(np.float64)
    rows = a[0::rs].copy()                                    # (rows, cols cs): sums of rs rows
    for i in range(1, rs):
        rows += a[i::rs]
    out = box_columns(rows, cs) if cs > 1 else rows           # (rows, cols)
    out *= 1.0 / rs
    return out


def frozen(*arrays: np.ndarray) -> None:
    """Mark result arrays read-only (results are shared between views and cached)."""
    for a in arrays:
        a.setflags(write=False)


def grid(n: int, px: int = CURVE_PX) -> tuple[int, int]:
    """(stride, count) sampling 0 .. n-1 with at most px points."""
    step = block_step(max(1, n), px)
    return step, -(-max(1, n) // step)
