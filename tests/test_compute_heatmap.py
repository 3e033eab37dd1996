"""The heatmap's screen-size image equals the plain computation it replaces, on every path."""

import numpy as np
import pytest

from explorer.backend.encodings import box_columns, pe_block_mean, sinusoidal_pe
from explorer.backend.pe_screen import FLOAT32_ANGLES_BELOW
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
    if params.layout == "interleaved" and ch_step > 1:
        ch_step += ch_step % 2                   # whole (sin, cos) pairs in a column: see below
    return box_columns(img, ch_step) if ch_step > 1 else img


@pytest.mark.parametrize("n,d,layout,win", [
    (8192, 4096, "interleaved", None), (32768, 1024, "concat", None), (2048, 1024, "t2t", None),
    (512, 4096, "interleaved", None), (100_000, 2585, "interleaved", Window(5000, 90_000, 7, 2000, 700, 900)),
    (4096, 128, "interleaved", None), (40_000, 300, "concat", Window(0, 30_000, 0, 300, 700, 900)),
    (10_000_000, 512, "interleaved", Window(9_990_000, 10_000_000, 0, 512, 700, 900))])
def test_every_heatmap_path_equals_the_plain_table(n, d, layout, win):
    p = Params(max_len=n, d_model=d, layout=layout, base=7000.0)
    win = win or Window.full(p, 800, 1000)
    r = heatmap.__wrapped__(p, win)
    want = plain(p, win.clipped(p))
    assert r.image.shape == want.shape and r.image.dtype == np.float32
    # the screen path (pe_screen) and the one-sine-per-cell block means beyond FLOAT32_ANGLES_BELOW reduce
    # their angles in float64: float32 rounding only; before it, p*w in float32, whose error grows with the
    # position (2^-24 * p per radian: under one colour step); the table itself (step 1) in its dtype
    end = win.clipped(p).pos1
    exact = r.pos_step > 1 and (r.ch_step > 1 or end > FLOAT32_ANGLES_BELOW)
    tol = 2e-6 if exact else 2e-6 + 4 * end * 2.0 ** -24
    np.testing.assert_allclose(r.image, want, atol=tol, rtol=0)


@pytest.mark.parametrize("cols_px, step", [(1366, 4), (820, 6), (2048, 2), (4096, 1)])
def test_interleaved_columns_average_whole_sin_cos_pairs_so_slow_channels_show_no_false_stripes(cols_px, step):
    """d = 4096 in 1366 columns was 3 channels a column: (sin, cos, sin) then (cos, sin, cos), so
    where the slow channels sit near (sin, cos) = (0, 1), near position 0, the columns alternated
    1/3 and 2/3: stripes that no channel has (seen at 1920 px). An even step gives each column as
    many sines as cosines: 1/2 throughout."""
    p = Params(max_len=8192, d_model=4096, layout="interleaved", base=10000.0)
    r = heatmap.__wrapped__(p, Window(0, 8192, 0, 4096, 800, cols_px))
    assert r.ch_step == step
    slow = r.image[0, -200:]                     # positions 0 .. 10, the slowest 200 columns
    if step == 1:
        np.testing.assert_allclose(slow[::2], 0.0, atol=1e-2)     # sin, cos, sin, cos ...: exact
        np.testing.assert_allclose(slow[1::2], 1.0, atol=1e-2)
    else:
        np.testing.assert_allclose(slow, 0.5, atol=1e-2)
    concat = heatmap.__wrapped__(p.with_(layout="concat"), Window(0, 8192, 0, 4096, 800, 1366))
    assert concat.ch_step == 3                   # a sine block then a cosine block: any step
