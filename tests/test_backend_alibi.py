"""ALiBi slopes (the paper's geometric sequence and the code's non-power-of-2 rule) and bias."""

import numpy as np
import pytest

from explorer.backend.alibi import bias, bias_strided, bias_vs_distance, slopes
from explorer.errors import InputError


def test_eight_heads_are_a_half_to_1_over_256():
    np.testing.assert_array_equal(slopes(8), [1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64,
                                              1 / 128, 1 / 256])


@pytest.mark.parametrize("heads, exponents", [
    (1, [-8]),
    (2, [-4, -8]),
    (3, [-4, -8, -2]),
    (5, [-2, -4, -6, -8, -1]),
    (6, [-2, -4, -6, -8, -1, -3]),
    (12, [-1, -2, -3, -4, -5, -6, -7, -8, -0.5, -1.5, -2.5, -3.5]),
    (16, [-0.5 * (i + 1) for i in range(16)]),
])
def test_slopes_for_other_head_counts(heads, exponents):
    np.testing.assert_allclose(slopes(heads), 2.0 ** np.array(exponents), rtol=1e-15)


def test_slopes_properties():
    for h in range(1, 70):
        s = slopes(h)
        assert len(s) == h and len(set(s)) == h
        assert np.all((s > 0) & (s < 1))


def test_bias_tensor():
    b = bias(8, 5)
    assert b.shape == (8, 5, 5)
    i, j = np.meshgrid(np.arange(5), np.arange(5), indexing="ij")
    for h, m in enumerate(slopes(8)):
        np.testing.assert_array_equal(b[h], -m * np.abs(i - j))
    assert not np.any(np.signbit(np.diagonal(b, axis1=1, axis2=2)))   # +0.0, not -0.0
    c = bias(3, 5, causal=True)
    upper = j > i
    assert np.all(np.isneginf(c[:, upper]))
    np.testing.assert_array_equal(c[:, ~upper], bias(3, 5)[:, ~upper])


def test_strided_view_samples_the_full_tensor():
    pos, b = bias_strided(4, 100, max_rows=20)
    assert list(pos) == list(range(0, 100, 5))
    np.testing.assert_array_equal(b, bias(4, 100)[:, pos][:, :, pos])
    pos, c = bias_strided(2, 10, max_rows=20, causal=True)
    np.testing.assert_array_equal(c, bias(2, 10, causal=True))


def test_bias_vs_distance():
    k, y = bias_vs_distance(8, 10)
    np.testing.assert_array_equal(k, np.arange(11))
    np.testing.assert_array_equal(y[7], -k / 256)


def test_alibi_errors():
    for bad in (0, -1, 2.5, True, 1025):
        with pytest.raises(InputError, match="number of heads"):
            slopes(bad)
    with pytest.raises(InputError, match="max_len"):
        bias(8, 0)
    with pytest.raises(InputError, match="memory budget"):
        bias(16, 20000)
