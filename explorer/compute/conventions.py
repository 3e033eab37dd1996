"""The layout-conventions view's data: three layouts, P, and their similarity check. No Qt here."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from explorer.backend import layouts
from explorer.compute.permutation import panel_px, shown_permutation
from explorer.compute.screen import IMAGE_PX, Window, block_step, channel_step, frozen
from explorer.params import Params
from explorer.viewstate import ViewState


@dataclass(frozen=True)
class ConventionsState(ViewState):
    RANGES = {"rows": (16, 1024)}

    rows: int = IMAGE_PX                    # rows of each image


@dataclass(frozen=True)
class ConventionsResult:
    pe: dict                 # layout -> (rows, cols) float32 block-mean PE image
    pos_step: int            # positions per PE image row
    ch_step: int             # channels per PE image column
    permutation: np.ndarray  # (c, c) P (interleaved -> concat); block maxima where d > the panel's pixels
    perm_step: int           # channels per permutation image cell (1: the exact P)
    comparison: layouts.LayoutComparison
    diff_t2t: np.ndarray     # (rows, rows) S_t2t - S_interleaved
    params: Params
    state: ConventionsState


def conventions(params: Params, state: ConventionsState = ConventionsState(),
                window: Window | None = None) -> ConventionsResult:
    """PE of the three layouts side by side, P at the pixels of the window's panel (compute.permutation),
    the similarity check and the t2t difference. P is cached on d and the pixels alone: a base or max_len
    step costs a cache look-up and a replace() (a few us), and the view draws the same P array."""
    return _conventions_at(params, state, *panel_px(window))


@lru_cache(maxsize=4)
def _conventions_at(params: Params, state: ConventionsState, rows_px: int, cols_px: int) -> ConventionsResult:
    """The result with P at rows_px x cols_px: the same object for the same inputs (a redraw, another view)."""
    result = _conventions(params, state)
    shown = shown_permutation(params.d_model, rows_px, cols_px)
    return replace(result, permutation=shown.image, perm_step=shown.step)


@lru_cache(maxsize=4)
def _conventions(params: Params, state: ConventionsState) -> ConventionsResult:
    """Everything but P (an empty placeholder: conventions() sets the P of the panel's pixels)."""
    d, n = params.d_model, params.max_len
    step = block_step(n, state.rows)
    rows = max(1, n // step)
    ch_step = channel_step(d, IMAGE_PX)                  # even: the interleaved image's columns
    pe = {lay: np.ascontiguousarray(img)                                     # (rows, d // ch_step)
          for lay, img in layouts.layout_images(step, rows, d, params.base, ch_step).items()}
    comp = layouts.compare_layouts(n, d, params.base, params.metric, state.rows, np.float32)
    m = comp.matrices
    diff_t2t = (m["t2t"] - m["interleaved"]).astype(np.float32)
    frozen(diff_t2t, *pe.values())
    no_p = np.zeros((0, 0), dtype=np.float32)
    return ConventionsResult(pe, step, ch_step, no_p, 1, comp, diff_t2t, params, state)
