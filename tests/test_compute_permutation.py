"""P (interleaved -> concat / rotate-half) at the pixels of its panel: exact where it fits, else the maxima of
its blocks, so that every pixel row and column shows a 1 (compute.permutation). Oracles: the backend's exact
P (layouts.concat_permutation, rope.pairing_permutation) and a P built here from its definition."""

import numpy as np
import pytest

from explorer import catalogue
from explorer.backend import layouts, rope
from explorer.compute import conventions, permutation
from explorer.compute import rope as rope_compute
from explorer.compute.screen import Window
from explorer.params import Params


def definition_p(d: int) -> np.ndarray:
    """P[src[j], j] = 1 with concat = the even (sine) channels, then the odd (cosine) ones."""
    p = np.zeros((d, d))
    p[np.r_[0:d:2, 1:d:2], np.arange(d)] = 1.0
    return p


def block_max(p: np.ndarray, step: int) -> np.ndarray:
    """The max over step x step blocks, a trailing partial block over what it has (zero-padded)."""
    cells = -(-p.shape[0] // step)
    padded = np.zeros((cells * step, cells * step))
    padded[:p.shape[0], :p.shape[1]] = p
    return padded.reshape(cells, step, cells, step).max(axis=(1, 3))


def window(rows_px: int, cols_px: int) -> Window:
    return Window(0, 1, 0, 0, rows_px, cols_px)


@pytest.mark.parametrize("d, rows_px, cols_px", [(128, 64, 252), (64, 30, 380), (512, 100, 100),
                                                  (101, 30, 40), (768, 250, 300), (8192, 250, 480)])
def test_reduced_p_is_the_block_max_of_the_exact_p_and_no_row_or_column_is_empty(d, rows_px, cols_px):
    shown = permutation.shown_permutation(d, rows_px, cols_px)
    cells = shown.image.shape[0]
    assert shown.step > 1 and shown.image.shape == (cells, cells)
    assert cells <= min(rows_px, cols_px)                      # one pixel at least for each cell
    assert shown.side >= d > (cells - 1) * shown.step
    exact = layouts.concat_permutation(d) if d <= 1024 else definition_p(d)
    assert np.array_equal(shown.image, block_max(exact, shown.step))
    assert (shown.image.max(axis=1) == 1).all() and (shown.image.max(axis=0) == 1).all()
    assert not shown.image.flags.writeable


@pytest.mark.parametrize("d, px", [(128, 64), (64, 30), (512, 130), (96, 30)])
def test_evenly_tiled_p_has_one_cell_per_row_in_each_half_and_two_per_column(d, px):
    """With an even step that divides d / 2, block row a (interleaved channels a s .. a s + s - 1) sends
    its sines to one block of the concat half and its cosines to one of the cosine half; block column b
    takes the sines of block rows 2b and 2b + 1. Any square blocking of P has two cells a row: its ones
    lie on two lines, sines and cosines."""
    shown = permutation.shown_permutation(d, px, px)
    s, cells = shown.step, shown.image.shape[0]
    assert s % 2 == 0 and (d // 2) % s == 0 and cells * s == d
    left, right = shown.image[:, :cells // 2], shown.image[:, cells // 2:]
    assert (left.sum(axis=1) == 1).all() and (right.sum(axis=1) == 1).all()
    assert (shown.image.sum(axis=0) == 2).all()
    assert np.array_equal(shown.image, block_max(rope.pairing_permutation(d), s))


def test_the_step_tiles_p_evenly_where_a_divisor_is_near():
    assert permutation.tiling_step(64, 3) == 4          # 16 cells of 4, not 22 of 3 (a partial last)
    assert permutation.tiling_step(768, 5) == 6
    assert permutation.tiling_step(101, 4) == 4         # 101 is prime: a trailing partial block
    assert permutation.tiling_step(10, 1) == 1
    assert permutation.shown_permutation(64, 30, 380).step == 4


@pytest.mark.parametrize("d", [1, 2, 7, 64, 128, 250])
def test_the_exact_p_is_kept_where_it_fits(d):
    shown = permutation.shown_permutation(d, 250, 400)
    assert shown.step == 1 and np.array_equal(shown.image, definition_p(d))
    assert np.array_equal(shown.image, layouts.concat_permutation(d))


def test_the_views_results_hold_p_at_their_panels_pixels():
    p = Params(d_model=128, max_len=64)
    small = conventions.conventions(p, window=window(64, 252))
    assert small.perm_step == 2 and np.array_equal(small.permutation, block_max(definition_p(128), 2))
    large = conventions.conventions(p, window=window(253, 200))
    assert large.perm_step == 1 and np.array_equal(large.permutation, layouts.concat_permutation(128))
    state = rope_compute.RopeState(head_dim=64)
    r = rope_compute.rope_view(p, state, window(30, 380))
    assert r.perm_step == 4 and np.array_equal(r.permutation, block_max(rope.pairing_permutation(64), 4))
    exact = rope_compute.rope_view(p, state, window(202, 210))
    assert exact.perm_step == 1 and np.array_equal(exact.permutation, rope.pairing_permutation(64))
    # what the rest of the result shows does not depend on the panel
    assert np.array_equal(r.q, exact.q) and np.array_equal(r.score_ones, exact.score_ones)
    assert np.array_equal(small.diff_t2t, large.diff_t2t)


def test_a_base_or_max_len_step_reuses_the_same_p():
    """P depends on d and the panel alone: a slider step draws the same array (ImagePlot.show skips it)."""
    w = window(60, 300)
    a = catalogue.entry("conventions").run(Params(d_model=256, base=10000.0), None, w)
    b = catalogue.entry("conventions").run(Params(d_model=256, base=9000.0, max_len=300), None, w)
    assert a.permutation is b.permutation and a.perm_step == b.perm_step == 8     # 5 px a row: 8 tiles 256
    state = rope_compute.RopeState(head_dim=128)
    c = catalogue.entry("rope").run(Params(max_len=100), state, w)
    d = catalogue.entry("rope").run(Params(max_len=200), state.with_(base=500.0), w)
    assert c.permutation is d.permutation and c.perm_step == 4


def test_headless_runs_get_the_default_screen_size():
    """The CLI's export computes a windowed view at 800 x 1000 (commands.views): P exact up to d = 800."""
    r = catalogue.entry("conventions").run(Params(d_model=512))
    assert r.perm_step == 1 and np.array_equal(r.permutation, layouts.concat_permutation(512))
    r = catalogue.entry("conventions").run(Params(d_model=1000))
    assert r.perm_step == 2 and r.permutation.shape == (500, 500)
    assert catalogue.entry("conventions").windowed and catalogue.entry("rope").windowed
    assert not catalogue.entry("offset").windowed
