"""The PE heatmap's data: screen-size block means of the table. No Qt here."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from explorer.backend.encodings import box_columns, channel_frequency, sinusoidal_pe
from explorer.backend.pe_screen import screen_block_means
from explorer.compute.screen import Window, block_step, channel_step
from explorer.errors import require
from explorer.params import Params


@dataclass(frozen=True)
class HeatmapResult:
    image: np.ndarray        # (rows, cols) float32: block means of PE, rows = positions
    pos0: int
    pos_step: int            # positions per image row (1 = exact)
    ch0: int
    ch_step: int             # channels per image column
    params: Params
    channel_w: np.ndarray = None     # (d,) angular frequency of each channel (for the hover readout)
    wavelength: np.ndarray = None    # (d,) 2 pi / w per channel (inf for a zero frequency)

    def cell(self, pos: int, channel: int) -> tuple[float, bool] | None:
        """(drawn value at position, channel; True when it is PE itself, False for a block mean), or
        None outside the image. Reads the image only: the GUI thread computes nothing."""
        r = (pos - self.pos0) // self.pos_step
        c = (channel - self.ch0) // self.ch_step
        if not (0 <= r < self.image.shape[0] and 0 <= c < self.image.shape[1]):
            return None
        return float(self.image[r, c]), self.pos_step == 1 and self.ch_step == 1




@lru_cache(maxsize=4)
def heatmap(params: Params, window: Window) -> HeatmapResult:
    """Screen-size PE image: closed-form block means over positions, box filter over channels."""
    win = window.clipped(params)
    step = block_step(win.pos1 - win.pos0, win.rows_px)
    rows = math.ceil((win.pos1 - win.pos0) / step)
    ch_step = channel_step(win.ch1 - win.ch0, win.cols_px, params.layout)
    if step == 1:   # every position on screen: the table itself, in the chosen dtype
        img = sinusoidal_pe(rows, params.d_model, params.base, params.layout, params.dtype,
                            start=win.pos0)[:, win.ch0:win.ch1]               # (rows, channels)
        img = box_columns(img, ch_step) if ch_step > 1 else img
    else:           # only the screen's pixels: block means, and a box filter over channels
        img = screen_block_means(win.pos0, step, rows, win.ch0, ch_step, (win.ch1 - win.ch0) // ch_step,
                                 params.d_model, params.base, params.layout)  # (rows, cols)
    w = channel_frequency(params.d_model, params.base, params.layout)          # (d,)
    with np.errstate(divide="ignore"):
        wavelength = np.where(w > 0, 2 * np.pi / np.where(w > 0, w, 1.0), np.inf)
    return HeatmapResult(np.ascontiguousarray(img, dtype=np.float32), win.pos0, step,
                         win.ch0, ch_step, params, w, wavelength)



def pe_value(params: Params, pos: int, channel: int) -> tuple[float, float, float]:
    """(PE[pos, channel] in the chosen dtype, w of the channel, wavelength 2 pi / w)."""
    require(0 <= pos < params.max_len, "position must be in 0 .. %1", params.max_len - 1)
    require(0 <= channel < params.d_model, "channel must be in 0 .. %1", params.d_model - 1)
    row = sinusoidal_pe(1, params.d_model, params.base, params.layout, params.dtype, start=pos)
    w = float(channel_frequency(params.d_model, params.base, params.layout)[channel])
    return float(row[0, channel]), w, (2 * math.pi / w) if w > 0 else math.inf
