"""Layout conventions: interleaved -> concat is a channel permutation; t2t is not."""

import numpy as np
import pytest

from explorer.backend.encodings import sinusoidal_pe
from explorer.backend.layouts import compare_layouts, concat_order, concat_permutation, screen_grid
from explorer.errors import InputError


def direct_pe(n, d, base=10000.0, layout="interleaved"):
    """float64 oracle written out from the formulas, not from the package."""
    p = np.arange(n, dtype=np.float64)[:, None]
    if layout == "t2t":
        h = d // 2
        w = np.exp(-np.arange(h) * np.log(base) / max(h - 1, 1))
        out = np.zeros((n, d))
        out[:, :h], out[:, h:2 * h] = np.sin(p * w), np.cos(p * w)
        return out
    out = np.zeros((n, d))
    for j in range(d):
        w = base ** (-(j - j % 2) / d)
        out[:, j] = np.sin(p[:, 0] * w) if j % 2 == 0 else np.cos(p[:, 0] * w)
    if layout == "concat":
        out = np.concatenate([out[:, 0::2], out[:, 1::2]], axis=1)
    return out


@pytest.mark.parametrize("d", [1, 2, 3, 7, 8, 65, 128])
def test_permutation_maps_interleaved_to_concat(d):
    p = concat_permutation(d)
    assert np.array_equal(p.sum(axis=0), np.ones(d)) and np.array_equal(p.sum(axis=1), np.ones(d))
    assert np.array_equal(p @ p.T, np.eye(d))
    inter = sinusoidal_pe(50, d, layout="interleaved", dtype="float64")
    concat = sinusoidal_pe(50, d, layout="concat", dtype="float64")
    np.testing.assert_array_equal(inter @ p, concat)
    np.testing.assert_allclose(direct_pe(50, d, layout="concat"), inter @ p, atol=1e-12)
    np.testing.assert_array_equal(inter[:, concat_order(d)], concat)


def test_permutation_is_not_identity():
    p = concat_permutation(6)
    assert not np.array_equal(p, np.eye(6))
    assert list(concat_order(6)) == [0, 2, 4, 1, 3, 5]


@pytest.mark.parametrize("d", [16, 17])
@pytest.mark.parametrize("metric", ["dot", "cosine"])
def test_compare_layouts_exact_against_matmul(d, metric):
    res = compare_layouts(40, d, 100.0, metric)
    assert (res.step, res.rows) == (1, 40)
    for layout in ("interleaved", "concat", "t2t"):
        pe = direct_pe(40, d, 100.0, layout)
        s = pe @ pe.T
        if metric == "cosine":
            n = np.linalg.norm(pe, axis=1)
            s = s / np.where(np.outer(n, n) > 0, np.outer(n, n), np.inf)
        np.testing.assert_allclose(res.matrices[layout], s, atol=1e-9)
    assert res.diff_concat < 1e-9
    assert res.permutation_error == 0.0
    assert res.diff_t2t > 1e-3  # different frequency spacing


def test_t2t_difference_is_real_and_matches_oracle():
    res = compare_layouts(64, 8, 10000.0, "dot")
    a, b = direct_pe(64, 8), direct_pe(64, 8, layout="t2t")
    assert res.diff_t2t == pytest.approx(np.abs(a @ a.T - b @ b.T).max(), rel=1e-9)
    assert res.diff_t2t > 1.0


def test_block_mean_view_of_long_max_len():
    res = compare_layouts(64, 12, 10000.0, "dot", max_rows=16)
    assert (res.step, res.rows) == (4, 16)
    pe = direct_pe(64, 12)
    full = pe @ pe.T
    blocks = full.reshape(16, 4, 16, 4).mean(axis=(1, 3))
    np.testing.assert_allclose(res.matrices["interleaved"], blocks, atol=1e-9)
    np.testing.assert_allclose(res.matrices["concat"], blocks, atol=1e-9)


def test_screen_grid_and_errors():
    assert screen_grid(2048, 512) == (4, 512)
    assert screen_grid(2047, 512) == (4, 511)
    assert screen_grid(10, 512) == (1, 10)
    with pytest.raises(InputError, match="max_len"):
        compare_layouts(0, 8)
    with pytest.raises(InputError, match="metric"):
        compare_layouts(8, 8, metric="l2")
    with pytest.raises(InputError, match="d_model"):
        concat_permutation(0)



@pytest.mark.parametrize("d, ch_step", [(512, 2), (1024, 4), (4096, 16), (64, 1), (100, 4),
                                        (101, 2), (600, 3), (24, 8), (48, 8)])
def test_layout_images_are_block_means_of_each_table(d, ch_step):
    """Shared-pair path (even d, ch_step | d/2, even ch_step) and fallback both equal the float64
    table, block-averaged over 4 positions x ch_step channels."""
    from explorer.backend.layouts import layout_images

    step, rows, base = 4, 20, 700.0
    imgs = layout_images(step, rows, d, base, ch_step)
    for lay, img in imgs.items():
        pe = sinusoidal_pe(step * rows, d, base, lay, "float64")             # (80, d)
        cols = d // ch_step
        want = pe[:, :cols * ch_step].reshape(rows, step, cols, ch_step).mean(axis=(1, 3))
        assert img.dtype == np.float32 and img.shape == (rows, cols)
        np.testing.assert_allclose(img, want, atol=2e-5, err_msg=lay)


@pytest.mark.parametrize("metric", ["dot", "cosine"])
def test_the_concat_checks_read_the_tables_and_catch_a_wrong_one(monkeypatch, metric):
    """diff_concat and permutation_error come from sampled rows of the two tables, not from the
    closed form (which gives concat the interleaved matrix): a concat table with other frequencies
    shows in both."""
    from explorer.backend import layouts

    real = layouts.pe_block_mean

    def skewed(row0, step, rows, d_model, base, layout, *a, **kw):
        return real(row0, step, rows, d_model, base * (2.0 if layout == "concat" else 1.0), layout, *a, **kw)

    assert compare_layouts(512, 64, 10000.0, metric).diff_concat < 1e-9
    monkeypatch.setattr(layouts, "pe_block_mean", skewed)
    res = compare_layouts(512, 64, 10000.0, metric)
    assert res.diff_concat > 1e-3 and res.permutation_error > 1e-3
