"""The screen-size PE fast path against the plain computation it replaces and a float64 oracle."""

import numpy as np
import pytest

from explorer.backend.encodings import box_columns, pe_block_mean
from explorer.backend.pe_screen import channel_terms, pe_screen, pe_screen_plain, transposed
from explorer.errors import InputError
from tests.test_backend_encodings import oracle

F32 = 2e-6     # float32 precision of values in [-1, 1] after a sum of a few terms


@pytest.mark.parametrize("layout", ["interleaved", "concat", "t2t"])
@pytest.mark.parametrize("d,ch0,ch_step,cols", [(11, 0, 1, 11), (11, 0, 3, 3), (11, 2, 2, 4),
                                                (12, 1, 5, 2), (33, 0, 4, 8), (7, 6, 1, 1),
                                                (12, 3, 2, 4), (16, 4, 6, 2), (9, 1, 4, 2)])
@pytest.mark.parametrize("step,rows,row0", [(1, 40, 0), (3, 30, 0), (8, 11, 5), (5, 7, 13)])
def test_equals_brute_force_block_and_box_means(layout, d, ch0, ch_step, cols, step, rows, row0):
    """Mean over each step x ch_step cell of the element-by-element float64 PE table: interleaved
    pairs summed within a column (even ch_step from an even channel), the gathered tables of every
    other layout and width (odd d: an unpaired sine, t2t's zero padding), and one channel a column."""
    pe = oracle(row0 + rows * step, d, 50.0, layout)[row0:]                 # (rows*step, d)
    blocks = pe[: rows * step].reshape(rows, step, d).mean(axis=1)         # (rows, d)
    want = box_columns(blocks[:, ch0:ch0 + cols * ch_step], ch_step)       # (rows, cols)
    got = pe_screen(row0, step, rows, ch0, ch_step, cols, d, 50.0, layout)
    assert got.dtype == np.float32 and got.shape == (rows, cols)
    np.testing.assert_allclose(got, want, atol=F32)


@pytest.mark.parametrize("n,d,rows_px,cols_px", [(8192, 4096, 800, 1000), (32768, 1024, 800, 1000),
                                                 (2048, 1024, 800, 1000), (100_000, 768, 613, 397)])
@pytest.mark.parametrize("base", [10000.0, 1e6 + 0.5, 2.5])
def test_screen_sizes_equal_float64_plain_path(n, d, rows_px, cols_px, base):
    """The sizes the heatmap draws, against pe_block_mean + box_columns in float64."""
    step = -(-n // rows_px)
    rows = -(-n // step)
    ch_step = -(-d // cols_px)
    cols = d // ch_step
    got = pe_screen(0, step, rows, 0, ch_step, cols, d, base)
    want = pe_screen_plain(0, step, rows, 0, ch_step, cols, d, base, dtype=np.float64)
    np.testing.assert_allclose(got, want, atol=F32)


def test_far_positions_keep_float32_precision():
    """Angles are reduced in float64: a window deep in a long table is as exact as the start."""
    got = pe_screen(10_000_000, 7, 50, 0, 2, 64, 128, 10000.0)
    want = pe_screen_plain(10_000_000, 7, 50, 0, 2, 64, 128, 10000.0, dtype=np.float64)
    np.testing.assert_allclose(got, want, atol=F32)


def test_plain_path_is_pe_block_mean_sliced_and_box_filtered():
    img = pe_block_mean(3, 4, 20, 30, 100.0, "concat")
    np.testing.assert_array_equal(pe_screen_plain(3, 4, 20, 6, 3, 8, 30, 100.0, "concat"),
                                  box_columns(img[:, 6:30], 3))


def test_cached_channel_terms_are_read_only():
    turns, phase, damp = channel_terms(16, 1e4, "interleaved", 4.0, 2)
    for a in (turns, phase, damp):
        with pytest.raises(ValueError):
            a[0] = 1.0


@pytest.mark.parametrize("args", [(0, 1, 0, 0, 1, 4, 8, 1e4), (0, 1, 4, 0, 0, 4, 8, 1e4),
                                  (0, 1, 4, 6, 1, 4, 8, 1e4), (0, 1, 4, 0, 1, 4, 8, 0.5),
                                  (0, 1, 4, 0, 3, 3, 8, 1e4)])
def test_bad_arguments_raise_input_error(args):
    with pytest.raises(InputError):
        pe_screen(*args)


@pytest.mark.parametrize("step, rows, ch_step, d", [(32, 256, 16, 4096), (2, 40, 2, 384), (1, 16, 3, 12),
                                                    (5, 7, 4, 8), (3, 10, 3, 10), (7, 20, 1, 6)])
def test_layouts_together_equal_each_alone_bit_for_bit(step, rows, ch_step, d):
    """pe_screen_layouts gathers concat's factor tables from interleaved's (a permutation of the same
    channels): the same pixels as pe_screen of each layout, bit for bit (also where ch_step does not
    divide d_model or is 1, which take pe_screen itself)."""
    from explorer.backend.encodings import LAYOUTS
    from explorer.backend.pe_screen import pe_screen_layouts

    got = pe_screen_layouts(step, rows, ch_step, d, 500.0, LAYOUTS)
    assert list(got) == list(LAYOUTS)
    for layout in LAYOUTS:
        np.testing.assert_array_equal(got[layout], pe_screen(0, step, rows, 0, ch_step, d // ch_step, d,
                                                             500.0, layout))


@pytest.mark.parametrize("shape", [(1, 1), (63, 5), (64, 745), (65, 3), (1024, 745), (130, 1)])
def test_blocked_transpose_is_the_transpose(shape):
    """pe_screen's blocked copy (a block of rows at a time, the last block short) equals a.T, also
    for a sliced source as pe_screen passes it (its rows cut to the picture's)."""
    wide = np.random.default_rng(3).standard_normal((shape[0], shape[1] + 7)).astype(np.float32)
    a = wide[:, : shape[1]]
    got = transposed(a)
    assert got.flags.c_contiguous and got.dtype == a.dtype and got.shape == shape[::-1]
    np.testing.assert_array_equal(got, a.T)
