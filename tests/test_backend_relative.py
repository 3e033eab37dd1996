"""Relative offsets: R(k) PE(p) = PE(p + k), dot products depend only on k; the distance chart."""

import numpy as np
import pytest

from explorer.backend.distance import distance_chart, learned_vs_distance
from explorer.backend.relative import dot_vs_offset, rotation_matrix, shifted_vs_rotated
from explorer.errors import InputError


def pe64(positions, d, base=10000.0):
    """Interleaved PE written out per channel in float64 (the oracle)."""
    pos = np.asarray(positions, dtype=np.float64)
    out = np.zeros((len(pos), d))
    for j in range(d):
        w = base ** (-(j - j % 2) / d)
        out[:, j] = np.sin(pos * w) if j % 2 == 0 else np.cos(pos * w)
    return out


@pytest.mark.parametrize("d", [2, 16, 64, 512])
@pytest.mark.parametrize("p", [0, 1, 37, 100, 500])
@pytest.mark.parametrize("k", [-3, 1, 5, 50])
def test_rotation_error_float32_below_1e5(d, p, k):
    there, rotated, err = shifted_vs_rotated(p, k, d, 10000.0, "float32")
    assert there.dtype == np.float32 and rotated.dtype == np.float32
    assert err < 1e-5
    np.testing.assert_allclose(there, pe64([p + k], d)[0], atol=1e-6)
    assert err == pytest.approx(np.abs(there.astype(float) - rotated.astype(float)).max())


def test_rotation_matrix_algebra():
    r0 = rotation_matrix(10, 0)
    np.testing.assert_array_equal(r0, np.eye(10))
    a, b = rotation_matrix(10, 7), rotation_matrix(10, 11)
    np.testing.assert_allclose(a @ b, rotation_matrix(10, 18), atol=1e-12)
    np.testing.assert_allclose(a @ a.T, np.eye(10), atol=1e-12)      # orthogonal for even d
    np.testing.assert_allclose(rotation_matrix(10, -7), a.T, atol=1e-15)
    table = pe64(np.arange(30), 10)
    np.testing.assert_allclose(table[:-7] @ a.T, table[7:], atol=1e-12)
    assert rotation_matrix(8, 3, dtype="float32").dtype == np.float32
    # off-block entries are zero: 2x2 blocks on the diagonal only
    mask = np.kron(np.eye(5), np.ones((2, 2))).astype(bool)
    assert np.all(a[~mask] == 0) and np.all(a[mask] != 0)


def test_odd_d_reports_the_unpaired_channel_error_honestly():
    d, base, p, k = 3, 10000.0, 0, 500
    w = base ** (-2 / d)
    there, rotated, err = shifted_vs_rotated(p, k, d, base)
    expected = abs(np.cos(p * w) * np.sin(k * w))            # |a sin(pw) - sin((p+k)w)|, a = cos(kw)
    assert err == pytest.approx(expected, rel=1e-9)
    assert err > 0.5
    r = rotation_matrix(d, k, base)
    assert r[-1, -1] == pytest.approx(np.cos(k * w))
    assert not np.allclose(r @ r.T, np.eye(d))              # not a pure rotation
    np.testing.assert_allclose(there[:2], rotated[:2], atol=1e-12)  # the pair still rotates exactly


@pytest.mark.parametrize("d", [8, 9])
def test_dot_vs_offset_against_direct_dots(d):
    ps, ks = [0, 3, 40], np.arange(0, 60)
    got = dot_vs_offset(ps, ks, d, 100.0)
    want = np.array([[pe64([p], d, 100.0)[0] @ pe64([p + k], d, 100.0)[0] for k in ks] for p in ps])
    np.testing.assert_allclose(got, want, atol=1e-10)
    uneven = np.array([0, 2, 3, 10, -4])
    want_u = np.array([[pe64([p], d, 100.0)[0] @ pe64([p + k], d, 100.0)[0] for k in uneven]
                       for p in ps])
    np.testing.assert_allclose(dot_vs_offset(ps, uneven, d, 100.0), want_u, atol=1e-10)
    spread = np.ptp(got, axis=0).max()
    if d % 2 == 0:
        assert spread < 1e-10        # the curves collapse onto one
    else:
        assert spread > 1e-2         # the unpaired sine depends on p


def test_relative_errors():
    with pytest.raises(InputError, match="offset"):
        rotation_matrix(8, 1.5)
    with pytest.raises(InputError, match="dtype"):
        rotation_matrix(8, 1, dtype="float16")
    with pytest.raises(InputError, match="d_model"):
        shifted_vs_rotated(0, 1, 0)
    with pytest.raises(InputError, match="memory budget"):
        rotation_matrix(20000, 1)


# ---- the distance chart -------------------------------------------------------------------


def test_distance_chart_raw_values_against_oracles():
    out = distance_chart(64, d_model=16, base=100.0, head_dim=8, rope_base=500.0, heads=8,
                         alibi_head=2, normalise=False)
    assert set(out) == {"sinusoidal", "rope", "alibi", "none"}
    k = np.arange(65)
    table = pe64(k, 16, 100.0)
    np.testing.assert_allclose(out["sinusoidal"][1], table @ table[0], atol=1e-10)
    theta = 500.0 ** (-np.arange(0, 8, 2) / 8)
    q = np.ones(4) + 1j * np.ones(4)                        # all-ones q and k as complex pairs
    rope = [np.real(np.sum(q * np.exp(1j * kk * theta) * np.conj(q))) for kk in k]
    np.testing.assert_allclose(out["rope"][1], rope, atol=1e-10)
    np.testing.assert_allclose(out["alibi"][1], -k / 8.0)   # head 2 of 8: slope 1/8
    np.testing.assert_array_equal(out["none"][1], np.zeros(65))
    for name in out:
        np.testing.assert_array_equal(out[name][0], k)


def test_distance_chart_normalised_shares_axes():
    out = distance_chart(200, d_model=32, head_dim=16, heads=4, alibi_head=0)
    for name, (k, y) in out.items():
        assert y[0] == pytest.approx(1.0), name
        assert np.all(y <= 1.0 + 1e-12), name
    np.testing.assert_allclose(out["alibi"][1], np.exp(-out["alibi"][0] / 4.0))
    assert out["sinusoidal"][1][-1] < 0.9                   # the curve does fall with distance


def test_learned_curve_with_a_sinusoidal_table_and_a_short_table():
    table = pe64(np.arange(100), 16)
    # for a sinusoidal table every row has norm sqrt(8) and the cosine is f(k)/8 for every p
    got = learned_vs_distance(table, np.arange(10))
    np.testing.assert_allclose(got, (table[:10] @ table[0]) / 8, atol=1e-12)
    rng = np.random.default_rng(1)
    t = rng.standard_normal((6, 5))
    dots = learned_vs_distance(t, [0, 2, 5], "dot")
    want = [np.mean([t[p] @ t[p + k] for p in range(6 - k)]) for k in (0, 2, 5)]
    np.testing.assert_allclose(dots, want)
    out = distance_chart(20, learned=t, learned_metric="dot")
    assert list(out["learned"][0]) == [0, 1, 2, 3, 4, 5]     # stops at L - 1
    assert out["learned"][1][0] == pytest.approx(1.0)


def test_distance_chart_stride_and_errors():
    out = distance_chart(1000, max_points=101)
    assert len(out["rope"][0]) <= 101 and out["rope"][0][1] == 10
    full = distance_chart(1000)
    np.testing.assert_allclose(out["rope"][1], full["rope"][1][::10], atol=1e-12)
    with pytest.raises(InputError, match="ALiBi head"):
        distance_chart(10, heads=4, alibi_head=4)
    with pytest.raises(InputError, match="head_dim"):
        distance_chart(10, head_dim=7)
    with pytest.raises(InputError, match="learned position table"):
        distance_chart(10, learned=np.ones(5))
    with pytest.raises(InputError, match="learned_metric"):
        distance_chart(10, learned=np.ones((5, 2)), learned_metric="l1")


@pytest.mark.parametrize("d", [1, 2, 7, 64])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_apply_rotation_equals_the_matrix(d, dtype):
    from explorer.backend.relative import apply_rotation
    x = np.random.default_rng(d).standard_normal(d)
    want = rotation_matrix(d, 13, 500.0, dtype) @ x.astype(dtype)
    np.testing.assert_allclose(apply_rotation(x, 13, d, 500.0, dtype), want,
                               rtol=1e-5 if dtype == "float32" else 1e-12, atol=1e-6)
