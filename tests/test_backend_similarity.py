"""Closed-form similarity equals the matmul; block means equal brute-force block averages."""

import numpy as np
import pytest

from explorer.backend.encodings import sinusoidal_pe
from explorer.backend.similarity import (cos_sum, offset_profile, offset_profile_blocks,
                                         similarity_blocks, similarity_matmul, similarity_matrix)
from explorer.errors import InputError
from tests.pe_tables import float64_table


@pytest.mark.parametrize("layout", ["interleaved", "concat", "t2t"])
@pytest.mark.parametrize("d", [1, 2, 5, 64, 65])
@pytest.mark.parametrize("metric", ["dot", "cosine"])
def test_closed_form_equals_matmul(layout, d, metric):
    np.testing.assert_allclose(similarity_matrix(70, d, 1e4, layout, metric),
                               similarity_matmul(70, d, 1e4, layout, metric), atol=1e-9)


def test_even_d_cosine_is_dot_over_half_d():
    dot = similarity_matrix(40, 32, 1e4, "interleaved", "dot")
    np.testing.assert_allclose(np.diag(dot), 16.0)
    np.testing.assert_allclose(similarity_matrix(40, 32, 1e4, "interleaved", "cosine"), dot / 16)


def test_toeplitz_for_even_d():
    s = similarity_matrix(50, 16, 100.0)
    f = offset_profile(49, 16, 100.0)
    for p in range(0, 50, 7):
        np.testing.assert_allclose(s[p, p:], f[: 50 - p], atol=1e-10)


def test_cos_sum_matches_direct_sum():
    w = np.linspace(0.001, 1, 37)
    a = np.random.default_rng(0).random(37)
    k = 5.5 + 3 * np.arange(1000)
    np.testing.assert_allclose(cos_sum(5.5, 3, 1000, w, a), (np.cos(k[:, None] * w) * a).sum(1),
                               atol=1e-9)


@pytest.mark.parametrize("d", [8, 9])
def test_block_means(d):
    full = similarity_matmul(96, d, 30.0, "interleaved", "dot")
    want = full.reshape(12, 8, 12, 8).mean(axis=(1, 3))
    np.testing.assert_allclose(similarity_blocks(0, 0, 8, 12, 12, d, 30.0, "interleaved"), want,
                               atol=1e-10)
    f = offset_profile(95, 8, 30.0)
    np.testing.assert_allclose(offset_profile_blocks(0, 8, 12, 8, 30.0, "interleaved"),
                               f.reshape(12, 8).mean(1), atol=1e-10)


@pytest.mark.parametrize("layout", ["interleaved", "concat", "t2t"])
@pytest.mark.parametrize("row0, col0, step", [(0, 0, 16), (40, 8, 7)])
def test_cosine_block_means_at_d_1_are_the_means_of_the_cosine_matrix(layout, row0, col0, step):
    """d_model 1: every cosine is sign(sin(pw)) sign(sin(qw)) (0 for position 0). The block means
    of those (the matmul's), not the cosine of the blocks' mean rows: that gave a saturated +-1
    pattern (max error 1.0 at max_len 4096 in 16-position blocks)."""
    rows, cols = 30, 20
    full = similarity_matmul(row0 + rows * step, 1, 10000.0, layout, "cosine")
    full = np.asarray(full)[row0:row0 + rows * step, col0:col0 + cols * step]
    want = full.reshape(rows, step, cols, step).mean(axis=(1, 3))
    got = similarity_blocks(row0, col0, step, rows, cols, 1, 10000.0, layout, "cosine")
    np.testing.assert_allclose(got, want, atol=1e-12)
    assert np.abs(got).max() < 0.9          # the means of +-1 cells, not +-1 themselves


def test_offset_window():
    full = similarity_matmul(60, 12, 1e4)
    np.testing.assert_allclose(similarity_blocks(10, 30, 1, 5, 7, 12, 1e4, "interleaved"),
                               full[10:15, 30:37], atol=1e-10)


def test_float32_matmul_agrees_with_closed_form():
    pe = sinusoidal_pe(128, 64, 1e4, dtype="float32")
    np.testing.assert_allclose(pe @ pe.T, similarity_matrix(128, 64), atol=2e-4)


def test_full_matrix_beyond_budget_is_refused_with_size():
    with pytest.raises(InputError, match="GiB"):
        similarity_matrix(100_000, 8)


def test_float32_screen_path_is_close_to_float64():
    a = similarity_blocks(0, 0, 7, 300, 300, 1024, 1e4, "interleaved", "cosine", np.float32)
    b = similarity_blocks(0, 0, 7, 300, 300, 1024, 1e4, "interleaved", "cosine")
    assert np.abs(a - b).max() < 1e-3


@pytest.mark.parametrize("layout", ["interleaved", "t2t"])
@pytest.mark.parametrize("d", [64, 65, 384])
@pytest.mark.parametrize("metric", ["dot", "cosine"])
@pytest.mark.parametrize("trig", [np.float64, np.float32])
def test_a_float32_matrix_is_the_float64_one_rounded_bit_for_bit(layout, d, metric, trig):
    # the Toeplitz profile is rounded before it is laid out (no float64 matrix): the same bits
    for args in ((0, 0, 1, 90, 90), (5, 17, 3, 40, 60)):
        wide = similarity_blocks(*args, d, 1e4, layout, metric, trig)
        narrow = similarity_blocks(*args, d, 1e4, layout, metric, trig, np.float32)
        assert narrow.dtype == np.float32 and wide.dtype == np.float64
        np.testing.assert_array_equal(narrow, wide.astype(np.float32))
    np.testing.assert_array_equal(similarity_matrix(90, d, 1e4, layout, metric, np.float32),
                                  similarity_matrix(90, d, 1e4, layout, metric).astype(np.float32))


@pytest.mark.parametrize("n, d, layout", [(512, 384, "interleaved"), (300, 64, "concat"), (100, 64, "t2t"),
                                          (50, 7, "interleaved"), (37, 13, "t2t"), (9, 1, "interleaved"),
                                          (1, 2, "concat")])
def test_the_cosine_matrix_view_holds_the_matrix_values_without_writing_the_matrix(n, d, layout):
    """The Learned view's sinusoidal cosine: the same float32 values as similarity_matrix, read-only,
    and (where S depends on p - q alone) backed by 2n - 1 numbers, not n²."""
    from explorer.backend.similarity import cosine_matrix_view, similarity_matmul

    view = cosine_matrix_view(n, d, 500.0, layout)
    np.testing.assert_array_equal(view, similarity_matrix(n, d, 500.0, layout, "cosine", np.float32))
    np.testing.assert_allclose(view, similarity_matmul(n, d, 500.0, layout, "cosine"), atol=2e-6)
    assert view.dtype == np.float32 and view.shape == (n, n) and not view.flags.writeable
    paired = d % 2 == 0 or layout == "t2t"
    if paired and n > 1:
        low, high = np.lib.array_utils.byte_bounds(view)     # the memory the view reads
        assert high - low == (2 * n - 1) * 4


@pytest.mark.parametrize("metric", ["dot", "cosine"])
def test_screen_profile_ends_at_the_last_offset(metric):
    """f(k)'s blocks cover the offsets 0 .. max_len - 1 and no more: a trailing partial block is the
    mean of its own offsets, drawn at its centre (it was a whole block, past the table's last offset)."""
    from explorer.compute.screen import Window
    from explorer.compute.similarity import similarity
    from explorer.params import Params

    p = Params(d_model=64, max_len=1000, base=1e4, metric=metric)
    r = similarity(p, Window.full(p, 64, 64))      # k_step 16: 62 blocks and 8 over
    pe = float64_table(p.max_len, p.d_model, p.base, p.layout)        # built without the app's code
    f = pe @ pe[0]                                                   # f(k) = PE[k] . PE[0], (max_len,)
    if metric == "cosine":
        f = f / (p.d_model // 2)
    assert r.profile_k[-1] == (992 + 999) / 2 and r.profile_k.max() <= p.max_len - 1
    np.testing.assert_allclose(r.profile_f[-1], f[992:].mean(), rtol=1e-5)     # (float64 w here)
    np.testing.assert_allclose(r.profile_f[-2], f[976:992].mean(), rtol=1e-5)
    np.testing.assert_allclose(r.profile_f[0], f[0], rtol=1e-9)


@pytest.mark.parametrize("d, metric", [(64, "dot"), (65, "cosine"), (512, "cosine"), (4096, "dot")])
@pytest.mark.parametrize("row0, step", [(9_999_000, 1), (9_000_000, 12_500)])
def test_float32_screen_path_holds_far_from_the_diagonal(d, metric, row0, step):
    """Rows near position 10^7 against columns from 0: offsets near 10^7, whose angle k w formed in float32 was
    off by up to ~0.5 rad (dot off by 0.48 at d = 64, step 1). Whole turns are now taken off in float64 first.
    (The Similarity and Layouts views draw square windows on the diagonal, whose offsets stay within the
    window's width: none of them showed it.)"""
    rows = 80
    a = similarity_blocks(row0, 0, step, rows, rows, d, 1e4, "interleaved", metric, np.float32)
    b = similarity_blocks(row0, 0, step, rows, rows, d, 1e4, "interleaved", metric)
    scale = d // 2 if metric == "dot" else 1
    assert np.abs(a - b).max() < 1e-5 * scale


def test_float32_cos_sum_far_along_equals_the_float64_one():
    w = 10000.0 ** (-np.arange(0, 64, 2) / 64)
    for start, step in ((9_999_000.0, 1.0), (-9_999_999.0, 3.0), (0.0, 25_000.0)):
        got = cos_sum(start, step, 400, w, dtype=np.float32)
        np.testing.assert_allclose(got, cos_sum(start, step, 400, w), rtol=0, atol=1e-5 * len(w))
