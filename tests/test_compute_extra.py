"""compute_extra: the numbers each beyond-the-paper view draws, against direct float64 oracles."""


import numpy as np
import pytest

from tests import compute_ns as ce
from explorer.backend import layouts, relative
from explorer.compute import permutation
from explorer.errors import InputError
from explorer.params import Params


def pe64(positions, d, base=10000.0):
    """Interleaved PE evaluated directly in float64 (the oracle)."""
    p = np.asarray(positions, dtype=np.float64)[:, None]
    i = np.arange(d)
    w = base ** (-(i - i % 2) / d)
    return np.where(i % 2 == 0, np.sin(p * w), np.cos(p * w))


def test_conventions_concat_equal_t2t_differs():
    r = ce.conventions(Params(d_model=64, max_len=200, metric="dot"))
    assert r.comparison.diff_concat < 1e-9
    assert r.comparison.diff_t2t > 0.1
    assert r.comparison.matrices["concat"] is r.comparison.matrices["interleaved"]   # one closed form
    assert np.allclose(r.diff_t2t, r.comparison.matrices["t2t"] - r.comparison.matrices["interleaved"],
                       atol=1e-5)
    assert r.pe["concat"].shape == (200, 64) and r.pos_step == 1
    # the concat image is the interleaved one with columns permuted
    assert np.array_equal(r.pe["concat"], r.pe["interleaved"] @ r.permutation.astype(np.float32))


def test_conventions_downsamples_long_tables():
    r = ce.conventions(Params(d_model=1000, max_len=100_000))
    assert r.pe["t2t"].shape[0] <= ce.IMAGE_PX and r.pe["t2t"].shape[1] <= ce.IMAGE_PX
    assert r.permutation.shape[0] <= 800 and r.permutation.shape[0] * r.perm_step >= 1000   # headless: 800 px


def test_permutation_image_block_maxima():
    shown = permutation.shown_permutation(300, 100, 100)
    full = np.zeros((300, 300))
    full[np.r_[0:300:2, 1:300:2], np.arange(300)] = 1.0        # oracle: P[src[j], j] = 1
    assert shown.step == 3
    assert np.array_equal(shown.image, full.reshape(100, 3, 100, 3).max(axis=(1, 3)))
    exact = permutation.shown_permutation(10, 100, 100)
    assert exact.step == 1 and np.array_equal(exact.image, layouts.concat_permutation(10))


@pytest.mark.parametrize("d", [200, 129])
def test_rotation_corner_is_the_leading_block(d):
    corner = ce.rotation_corner(d, 7, 10000.0, 32)
    assert corner.shape == (32, 32)
    assert np.allclose(corner, relative.rotation_matrix(d, 7, 10000.0)[:32, :32], atol=1e-12)


def test_offset_rotation_and_collapsing_curves():
    r = ce.offset(Params(d_model=128, max_len=300), ce.OffsetState(offset=25, position=40))
    assert r.max_error < 1e-5
    assert np.allclose(r.shifted, pe64([65], 128)[0], atol=1e-6)
    oracle = np.array([[pe64([p], 128)[0] @ pe64([p + k], 128)[0] for k in r.ks] for p in r.ps])
    assert np.allclose(r.dots, oracle, atol=1e-9)
    assert r.spread < 1e-9 and len(r.ps) >= 3
    assert r.unpaired_gap is None
    odd = ce.offset(Params(d_model=7, max_len=300), ce.OffsetState(offset=3, position=40))
    assert odd.spread > 1e-3                 # an unpaired sine makes the curves depend on p


@pytest.mark.parametrize("d", [1, 3, 7])
def test_offset_at_odd_d_measures_the_unpaired_sine_apart_from_the_rounding(d):
    """No rotation shifts the last channel (a sine without a cosine; R puts cos(kw) there): its gap
    |cos(pw) sin(kw)| is reported apart; the max error is float32's alone (d 3, p = k = 4: 0.0086
    was called float32)."""
    r = ce.offset(Params(d_model=d, max_len=300), ce.OffsetState(offset=4, position=4))
    w_last = 10000.0 ** (-(d - 1) / d)                       # channel d - 1 = 2i, i = (d - 1)/2
    assert r.unpaired_gap == pytest.approx(abs(np.cos(4 * w_last) * np.sin(4 * w_last)), abs=1e-6)
    assert r.unpaired_gap > 1e-3 and r.max_error < 1e-6


def test_offset_clamps_positions_into_the_table():
    r = ce.offset(Params(max_len=8), ce.OffsetState(offset=-30, position=8))
    assert (r.position, r.k) == (7, -7) and r.state.position == 8


def test_bad_view_state_is_refused_with_a_message():
    with pytest.raises(InputError, match="head_dim"):
        ce.rope_view(Params(), ce.RopeState(head_dim=7))
    with pytest.raises(InputError, match="train_max_len"):
        ce.precision_view(Params(), ce.PrecisionState(train_max_len=0))


def test_frequency_table():
    r = ce.frequency_table(Params(d_model=10, base=100.0, max_len=30))
    lam = 2 * np.pi * 100.0 ** (np.arange(0, 10, 2) / 10)
    assert np.allclose(r.wavelength, lam)
    assert r.shortest == pytest.approx(2 * np.pi) and r.longest == pytest.approx(lam[-1])
    assert r.beyond == int(np.sum(lam > 30))


def test_a_table_without_a_sine_cosine_pair_is_refused_in_one_line_or_drawn():
    """t2t at d_model 1 has one zero-padding channel and no pair: Frequencies says so (it raised
    ValueError from the min of no wavelengths: 'internal error' in the status bar), and the
    Precision view's stored-table mode draws it (phasors of no frequencies raised in a reshape)."""
    with pytest.raises(InputError, match="no sine/cosine pair to show") as err:
        ce.frequency_table(Params(d_model=1, layout="t2t"))
    assert "\n" not in str(err.value)
    assert len(ce.frequency_table(Params(d_model=1, layout="interleaved")).w) == 1   # one sine
    for max_len in (1, 2, 256):
        p = Params(d_model=1, layout="t2t", max_len=max_len)
        for mode in ("compute", "store"):
            r = ce.precision_view(p, ce.PrecisionState(span=4096, train_max_len=512, mode=mode))
            for curve in r.curves.values():     # an all-zero table: every neighbour is the same row
                assert not curve.neighbour.any() and not curve.exact_neighbour.any()


def test_phasors_of_no_frequencies_or_no_positions_are_empty():
    from explorer.backend.rope import phasors

    assert phasors(3, 5, np.array([])).shape == (5, 0)
    assert phasors(3, 0, np.array([0.5])).shape == (0, 1)
    theta = np.array([0.1, 0.2])
    np.testing.assert_allclose(phasors(2, 7, theta), np.exp(1j * np.outer(np.arange(0, 14, 2), theta)),
                               atol=1e-15)


def rope_score(q, k, m, n, hd, base, scale=1.0):
    """q(m).k(n) with explicit 2x2 rotations of interleaved pairs (the oracle)."""
    th = base ** (-np.arange(0, hd, 2) / hd) / scale

    def rot(x, p):
        c, s = np.cos(p * th), np.sin(p * th)
        out = np.empty(hd)
        out[0::2] = x[0::2] * c - x[1::2] * s
        out[1::2] = x[0::2] * s + x[1::2] * c
        return out
    return rot(q, m) @ rot(k, n)


def test_rope_scores_against_rotations():
    st = ce.RopeState(head_dim=16, base=500.0, scale=2.0)
    r = ce.rope_view(Params(max_len=50), st)
    rng = np.random.default_rng(st.seed)
    q, k = rng.standard_normal(16), rng.standard_normal(16)
    for j in (0, 20, 49, 98):
        delta = int(r.delta[j])
        assert r.score_random[j] == pytest.approx(rope_score(q, k, delta + 60, 60, 16, 500.0), abs=1e-9)
        assert r.score_ones[j] == pytest.approx(rope_score(np.ones(16), np.ones(16), delta, 0, 16, 500.0))
    assert r.score_ones[list(r.delta).index(0)] == pytest.approx(16.0)
    # interpolation at distance s*x equals the original at x
    assert np.allclose(r.variants["interpolation"][::2][:50], r.variants["original"][:50])
    assert r.ntk_base == pytest.approx(500.0 * 2.0 ** (16 / 14))
    assert r.permutation.shape == (16, 16)


def test_rope_curves_are_strided_for_long_contexts():
    r = ce.rope_view(Params(max_len=1_000_000))
    assert len(r.delta) <= ce.CURVE_PX and len(r.ext_delta) <= ce.CURVE_PX
    assert r.q.shape[0] <= ce.IMAGE_PX


def test_alibi_slopes_and_bias():
    r = ce.alibi_view(Params(max_len=300), ce.AlibiState(heads=8))
    assert np.allclose(r.slopes, 2.0 ** -np.arange(1, 9))
    assert r.shown == (0, 2, 5, 7)
    i = r.positions
    assert np.allclose(r.bias[3], -(2.0 ** -8) * np.abs(i[:, None] - i[None, :]))
    c = ce.alibi_view(Params(max_len=300), ce.AlibiState(heads=2, causal=True))
    assert c.shown == (0, 1)
    assert np.isnan(c.bias[0][0, 1]) and not np.isnan(c.bias[0][1, 0])


def test_distance_chart_shared_axes():
    r = ce.distance_view(Params(max_len=100), ce.DistanceState(learned=False))
    assert set(r.curves) == {"sinusoidal", "rope", "alibi", "none"}
    for k, y in r.curves.values():
        assert k[0] == 0 and y[0] == pytest.approx(1.0) and k[-1] == 99
    k, y = r.curves["alibi"]
    assert np.allclose(y, np.exp(-0.5 * k))


def test_distance_learned_curve_or_reason():
    r = ce.distance_view(Params(max_len=1000), ce.DistanceState(learned=True))
    got = ce.learned_curve()
    if isinstance(got, str):
        assert r.learned_note == got and "learned" not in r.curves
    else:
        k, y = r.curves["learned"]
        assert k[-1] == 511 and y[0] == pytest.approx(1.0, abs=1e-6)


def test_precision_collisions():
    r = ce.precision_view(Params(d_model=64, max_len=100), ce.PrecisionState(span=4096, train_max_len=512))
    assert r.span == 4096
    assert r.curves["bfloat16"].first_collision == 256
    assert r.curves["float16"].first_collision == 2048
    assert r.curves["float32"].first_collision is None
    assert r.curves["float32"].beyond_train.sum() == np.sum(r.curves["float32"].positions >= 512)
    short = ce.precision_view(Params(max_len=100), ce.PrecisionState(span=0))   # 0: the shared max_len
    assert short.span == 100 and short.curves["float16"].positions[-1] == 99


@pytest.mark.parametrize("d, grid", [(256, 256), (512, 256), (1024, 128), (2048, 96), (4096, 96)])
def test_precision_samples_fewer_positions_when_wide_but_keeps_the_collisions(d, grid):
    r = ce.precision_view(Params(d_model=d, max_len=10_000), ce.PrecisionState(span=10_000))
    pos = r.curves["bfloat16"].positions
    stride = -(-10_000 // grid)
    windows = np.unique(pos // stride)
    assert len(windows) == -(-10_000 // stride)            # one sample in every stride window
    assert {255, 256, 2047, 2048} <= set(pos) and len(pos) <= len(windows) + 4
    assert r.curves["bfloat16"].first_collision == 256
    assert r.curves["float16"].first_collision == 2048


def test_precision_chart_shows_that_only_some_neighbours_collide():
    """Beyond 256 bfloat16 merges some neighbours, not all: a jittered sample shows both."""
    from explorer.backend import precision as pr

    plain = pr.all_precisions(4096, 64, max_points=256, dtypes=("bfloat16",))["bfloat16"]
    jittered = ce.precision_view(Params(d_model=64, max_len=4096)).curves["bfloat16"]
    beyond = plain.positions > 256
    assert np.all(plain.neighbour[beyond] == 0)              # even strides hit only collisions
    j = jittered.neighbour[jittered.positions > 256]
    assert np.any(j == 0) and np.any(j > 0)
    full = pr.all_precisions(4096, 64, max_points=None, dtypes=("bfloat16",))["bfloat16"]
    np.testing.assert_array_equal(jittered.neighbour, full.neighbour[jittered.positions])


def test_results_are_cached_and_read_only():
    p = Params()
    assert ce.rope_view(p, ce.RopeState()) is ce.rope_view(p, ce.RopeState())
    r = ce.offset(p)
    with pytest.raises(ValueError):
        r.dots[0, 0] = 1.0
