"""Sinusoidal PE in every layout against a float64 direct evaluation of the formulas."""

import math

import numpy as np
import pytest

from explorer.backend.encodings import (channel_frequency, frequencies, pe_block_mean,
                                        sinusoidal_pe)
from explorer.errors import InputError


def oracle(n, d, base, layout):
    """Direct float64 evaluation, one element at a time (no shared code with the module)."""
    out = np.zeros((n, d))
    half = d // 2
    for p in range(n):
        for c in range(d):
            if layout == "interleaved":
                i = c // 2
                w = base ** (-(2 * i) / d)
                out[p, c] = math.sin(p * w) if c % 2 == 0 else math.cos(p * w)
            elif layout == "concat":
                n_sin = (d + 1) // 2
                i = c if c < n_sin else c - n_sin
                w = base ** (-(2 * i) / d)
                out[p, c] = math.sin(p * w) if c < n_sin else math.cos(p * w)
            else:  # t2t: timescales base^(i/(h-1)), zero pad for odd d
                if c >= 2 * half:
                    continue
                i = c % half
                w = 1.0 / base ** (i / max(half - 1, 1))
                out[p, c] = math.sin(p * w) if c < half else math.cos(p * w)
    return out


@pytest.mark.parametrize("layout", ["interleaved", "concat", "t2t"])
@pytest.mark.parametrize("d", [1, 2, 3, 7, 16, 33])
@pytest.mark.parametrize("dtype,tol", [("float64", 1e-12), ("float32", 2e-5)])
def test_pe_equals_formula(layout, d, dtype, tol):
    got = sinusoidal_pe(40, d, 10000.0, layout, dtype)
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_allclose(got, oracle(40, d, 10000.0, layout), atol=tol)


def seed_listing(n, d, base, layout, dtype, start):
    """The seeds' recipe in numpy, the whole table at once: every angle in `dtype` (positions times
    exp(arange * -ln(base)/d)), then sin and cos into a zeroed table's sine and cosine columns."""
    kind = np.dtype(dtype).type
    if layout == "t2t":
        half = d // 2
        w = np.exp(np.arange(half, dtype=kind) * kind(-(math.log(base) / max(half - 1, 1))))
        sin_cols, cos_cols = slice(0, half), slice(half, 2 * half)
    else:
        w = np.exp(np.arange(0, d, 2, dtype=kind) * kind(-math.log(base) / d))
        sin_cols, cos_cols = ((slice(0, d, 2), slice(1, d, 2)) if layout == "interleaved" else
                              (slice(0, (d + 1) // 2), slice((d + 1) // 2, d)))
    angle = np.arange(start, start + n, dtype=kind)[:, None] * w[None, :]
    pe = np.zeros((n, d), dtype=kind)
    pe[:, sin_cols] = np.sin(angle)
    pe[:, cos_cols] = np.cos(angle[:, :len(range(d)[cos_cols])])
    return pe


@pytest.mark.parametrize("layout", ["interleaved", "concat", "t2t"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n,d,start", [(1, 1, 0), (300, 7, 5), (130, 513, 0), (97, 1024, -40),
                                       (70, 4096, 123_456)])
def test_pe_built_a_block_at_a_time_is_the_seed_listing_bit_for_bit(layout, dtype, n, d, start):
    """sinusoidal_pe writes sin and cos of cache-sized blocks of angles straight into the table's
    columns; every shape here spans several blocks (PE_BLOCK_CELLS angles each) with a partial last
    one, or one block, and every value is the whole-table listing's own bits."""
    from explorer.backend.encodings import PE_BLOCK_CELLS

    if d >= 513:                                  # ~d/2 angles a row: several blocks, a partial last
        rows = PE_BLOCK_CELLS // (d // 2)
        assert n > rows and n % rows
    got = sinusoidal_pe(n, d, 2500.0, layout, dtype, start=start)
    want = seed_listing(n, d, 2500.0, layout, dtype, start)
    assert got.dtype == want.dtype and got.tobytes() == want.tobytes()


def test_odd_d_last_channel_is_sine_of_its_own_frequency():
    pe = sinusoidal_pe(50, 5, 100.0, "interleaved", "float64")
    w2 = 100.0 ** (-4 / 5)
    np.testing.assert_allclose(pe[:, 4], np.sin(np.arange(50) * w2), atol=1e-14)


def test_concat_is_a_column_permutation_of_interleaved():
    a = sinusoidal_pe(30, 9, 500.0, "interleaved", "float64")
    b = sinusoidal_pe(30, 9, 500.0, "concat", "float64")
    order = list(range(0, 9, 2)) + list(range(1, 9, 2))
    np.testing.assert_array_equal(a[:, order], b)


def test_t2t_frequencies_differ_from_paper():
    assert not np.allclose(frequencies(8, 1e4, "t2t"), frequencies(8, 1e4, "interleaved"))
    np.testing.assert_allclose(frequencies(8, 1e4, "t2t")[[0, -1]], [1.0, 1e-4])


def test_start_offset_and_float_base():
    full = sinusoidal_pe(20, 6, 123.5, "interleaved", "float64")
    tail = sinusoidal_pe(5, 6, 123.5, "interleaved", "float64", start=15)
    np.testing.assert_allclose(full[15:], tail, atol=1e-13)


@pytest.mark.parametrize("layout", ["interleaved", "concat", "t2t"])
def test_block_mean_closed_form_equals_brute_force(layout):
    pe = oracle(96, 11, 50.0, layout)
    for step in (1, 3, 8):
        rows = 96 // step
        want = pe[: rows * step].reshape(rows, step, 11).mean(axis=1)
        got = pe_block_mean(0, step, rows, 11, 50.0, layout)
        np.testing.assert_allclose(got, want, atol=1e-12)
        doubled = pe_block_mean(0, step, rows, 11, 50.0, layout, by_doubling=True)
        np.testing.assert_allclose(doubled, want, atol=1e-12)


@pytest.mark.parametrize("layout", ["interleaved", "concat", "t2t"])
@pytest.mark.parametrize("d_model", [4096, 513])
def test_block_mean_by_doubling_equals_the_direct_sines(layout, d_model):
    """The Layouts check's tables: its sines by doubling (unit_rows) are the direct ones, at 8
    rows a thousand positions apart and at 5 rows from position 30,000."""
    for row0, step, rows in ((0, 1024, 8), (30_000.0, 1, 5)):
        direct = pe_block_mean(row0, step, rows, d_model, 10037.0, layout)
        doubled = pe_block_mean(row0, step, rows, d_model, 10037.0, layout, by_doubling=True)
        assert doubled.shape == direct.shape == (rows, d_model)
        # the angle (up to ~3e4 rad) carries ~3e4 x 1.1e-16 of rounding either way
        np.testing.assert_allclose(doubled, direct, rtol=0, atol=2e-11)


def test_channel_frequency_has_zero_for_t2t_padding():
    w = channel_frequency(7, 1e4, "t2t")
    assert w[6] == 0 and w[0] == 1.0


@pytest.mark.parametrize("bad", [
    dict(d_model=0), dict(d_model=-3), dict(d_model=2.5), dict(base=1.0), dict(base=0.5),
    dict(base=float("nan")), dict(base=float("inf")), dict(layout="spiral"), dict(max_len=0),
    dict(dtype="float16")])
def test_bad_input_raises_one_readable_type(bad):
    kwargs = dict(max_len=4, d_model=4, base=1e4, layout="interleaved", dtype="float32")
    kwargs.update(bad)
    with pytest.raises(InputError) as err:
        sinusoidal_pe(**kwargs)
    assert str(next(iter(bad.values())))[:3] in str(err.value) or next(iter(bad)) in str(err.value)
