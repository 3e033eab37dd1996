"""The heatmap's screen-size image equals the plain computation it replaces, on every path."""

import numpy as np
import pytest

from explorer.backend.encodings import box_columns, pe_block_mean, sinusoidal_pe
from explorer.compute.heatmap import heatmap
from explorer.compute.screen import Window
from explorer.params import Params


def plain(params: Params, win: Window) -> np.ndarray:
    """The table in the chosen dtype when every position is on screen (what the view must show),
    else full block means in float64; sliced to the window, box-filtered to its columns."""
    n = win.pos1 - win.pos0
    step = -(-n // win.rows_px)
    rows = -(-n // step)
    if step == 1:
        img = sinusoidal_pe(rows, params.d_model, params.base, params.layout, params.dtype, start=win.pos0)
    else:
        img = pe_block_mean(win.pos0, step, rows, params.d_model, params.base, params.layout, np.float64)
    img = img[:, win.ch0:win.ch1]
    ch_step = -(-(win.ch1 - win.ch0) // win.cols_px)
    return box_columns(img, ch_step) if ch_step > 1 else img


@pytest.mark.parametrize("n,d,layout,win", [
    (8192, 4096, "interleaved", None), (32768, 1024, "concat", None), (2048, 1024, "t2t", None),
    (512, 4096, "interleaved", None), (100_000, 2585, "interleaved", Window(5000, 90_000, 7, 2000, 700, 900)),
    (4096, 128, "interleaved", None)])
def test_every_heatmap_path_equals_the_plain_table(n, d, layout, win):
    p = Params(max_len=n, d_model=d, layout=layout, base=7000.0)
    win = win or Window.full(p, 800, 1000)
    r = heatmap.__wrapped__(p, win)
    want = plain(p, win.clipped(p))
    assert r.image.shape == want.shape and r.image.dtype == np.float32
    # the screen path (pe_screen) forms its angles in float64: float32 rounding only; the one-sine-per-
    # cell block mean forms p*w in float32, whose error grows with the position (2^-24 * p per radian)
    fast = r.pos_step > 1 and r.ch_step > 1
    tol = 2e-6 if fast else 2e-6 + 4 * win.clipped(p).pos1 * 2.0 ** -24
    np.testing.assert_allclose(r.image, want, atol=tol, rtol=0)
