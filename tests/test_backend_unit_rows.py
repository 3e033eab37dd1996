"""unit_rows (e^{i (start + j step) w} by doubling) against cos + i sin of each angle, and the sums
that use it against their direct float64 forms."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.rope import phasors
from explorer.backend.similarity import cos_sum
from explorer.backend.unit_rows import exp_i, unit_rows

EPS = np.finfo(np.float64).eps


@pytest.mark.parametrize("start, step, count", [
    (0.0, 1.0, 0), (3.0, 1.0, 1), (0.0, 1.0, 2), (2.5, 1.0, 3), (0.0, 300.0, 28), (5.5, 3.0, 1000),
    (-8000.0, 11.0, 64), (0.0, 1.0, 65), (1e6, 7.0, 4097), (0.0, 0.5, 129)])
def test_unit_rows_equal_cos_and_sin_of_each_angle(start, step, count):
    w = 10000.0 ** (-np.arange(0, 96, 2) / 96)                                 # 1 .. ~1e-4
    angle = (start + np.arange(count) * step)[:, None] * w[None, :]           # (count, 48)
    got = unit_rows(start, step, count, w)
    assert got.shape == (count, len(w)) and got.dtype == np.complex128
    if count:
        # within a few roundings of the angle itself (float64 cannot place it closer)
        tol = 16 * EPS * (np.abs(angle).max() + 1)
        np.testing.assert_allclose(got.real, np.cos(angle), rtol=0, atol=tol)
        np.testing.assert_allclose(got.imag, np.sin(angle), rtol=0, atol=tol)


def test_exp_i_is_cos_plus_i_sin():
    theta = np.linspace(-50, 50, 77).reshape(7, 11)
    np.testing.assert_array_equal(exp_i(theta), np.cos(theta) + 1j * np.sin(theta))


def test_the_sums_built_on_it_equal_their_direct_float64_forms():
    w = 500.0 ** (-np.arange(0, 64, 2) / 64)
    a = np.random.default_rng(1).random(len(w))
    k = -300.0 + 7 * np.arange(777)
    np.testing.assert_allclose(cos_sum(-300.0, 7, 777, w, a), (np.cos(k[:, None] * w) * a).sum(1),
                               rtol=0, atol=1e-11)
    p = 3 * np.arange(500)
    np.testing.assert_allclose(phasors(3, 500, w), np.exp(1j * p[:, None] * w[None, :]),
                               rtol=0, atol=1e-12)
