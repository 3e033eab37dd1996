"""The layout-conventions view's data: three layouts, P, and their similarity check. No Qt here."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from explorer.backend import layouts
from explorer.compute.screen import IMAGE_PX, block_step, channel_step, frozen
from explorer.params import Params
from explorer.viewstate import ViewState


MATRIX_PX = 128    # the most channels of a permutation matrix drawn exactly


@dataclass(frozen=True)
class ConventionsState(ViewState):
    RANGES = {"rows": (16, 1024)}

    rows: int = IMAGE_PX                    # rows of each image


@dataclass(frozen=True)
class ConventionsResult:
    pe: dict                 # layout -> (rows, cols) float32 block-mean PE image
    pos_step: int            # positions per PE image row
    ch_step: int             # channels per PE image column
    permutation: np.ndarray  # (c, c) P (interleaved -> concat), block-averaged when d > MATRIX_PX
    perm_step: int           # channels per permutation image cell
    comparison: layouts.LayoutComparison
    diff_t2t: np.ndarray     # (rows, rows) S_t2t - S_interleaved
    params: Params
    state: ConventionsState


def permutation_image(d_model: int, px: int = MATRIX_PX) -> tuple[np.ndarray, int]:
    """(image, step): P exactly for d <= px, else the fraction of ones in each step x step block."""
    if d_model <= px:
        return layouts.concat_permutation(d_model), 1
    step = block_step(d_model, px)
    n = -(-d_model // step)
    src = layouts.concat_order(d_model)                                       # (d,)
    counts = np.bincount((src // step) * n + np.arange(d_model) // step, minlength=n * n)
    return counts.reshape(n, n) / step, step                                  # (n, n)


@lru_cache(maxsize=4)
def conventions(params: Params, state: ConventionsState = ConventionsState()) -> ConventionsResult:
    """PE of the three layouts side by side, P, the similarity check and the t2t difference."""
    d, n = params.d_model, params.max_len
    step = block_step(n, state.rows)
    rows = max(1, n // step)
    ch_step = channel_step(d, IMAGE_PX)                  # even: the interleaved image's columns
    pe = {lay: np.ascontiguousarray(img)                                     # (rows, d // ch_step)
          for lay, img in layouts.layout_images(step, rows, d, params.base, ch_step).items()}
    comp = layouts.compare_layouts(n, d, params.base, params.metric, state.rows, np.float32)
    perm, perm_step = permutation_image(d)
    m = comp.matrices
    diff_t2t = (m["t2t"] - m["interleaved"]).astype(np.float32)
    frozen(perm, diff_t2t, *pe.values())
    return ConventionsResult(pe, step, ch_step, perm, perm_step, comp, diff_t2t,
                             params, state)
