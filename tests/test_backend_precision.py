"""Precision: bfloat16 emulation checked bit for bit against torch; where neighbours collide."""

import numpy as np
import pytest

from explorer.backend import dtype_rounding as rd
from explorer.backend import precision as pr
from explorer.errors import InputError


def special_float32():
    """Random values plus the awkward ones: ties, subnormals, extremes, inf, nan, -0."""
    rng = np.random.default_rng(0)
    bits = rng.integers(0, 2**32, 200_000, dtype=np.uint64).astype(np.uint32)
    rand = bits.view(np.float32)
    ties = (np.arange(0, 2**16, dtype=np.uint32) << 16 | np.uint32(0x8000)).view(np.float32)
    extra = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-45, -1e-40, 3.4028235e38,
                      1.0 + 2**-8, 1.0 + 3 * 2**-9, 255.5, 256.0, 257.0, 65504.0], dtype=np.float32)
    return np.concatenate([rand, ties, extra, rng.standard_normal(1000).astype(np.float32) * 1e3])


def test_bfloat16_emulation_equals_torch_bit_for_bit():
    import torch

    x = special_float32()
    ours = rd.to_bfloat16(x)
    theirs = torch.from_numpy(x).to(torch.bfloat16).to(torch.float32).numpy()
    nan = np.isnan(theirs)
    assert np.array_equal(np.isnan(ours), nan)
    assert np.array_equal(ours[~nan].view(np.uint32), theirs[~nan].view(np.uint32))


def test_bfloat16_from_float64_like_torch():
    import torch

    x = np.random.default_rng(1).standard_normal(50_000) * 300
    theirs = torch.from_numpy(x).to(torch.bfloat16).to(torch.float64).numpy()
    np.testing.assert_array_equal(rd.round_to(x, "bfloat16").astype(np.float64), theirs)


def test_float16_emulation_equals_numpy_bit_for_bit():
    x = np.concatenate([special_float32(), np.linspace(-7e4, 7e4, 200_001, dtype=np.float32),
                        np.arange(-2**16, 2**16, dtype=np.float32) * np.float32(2.0**-26)])
    with np.errstate(over="ignore"):
        theirs = x.astype(np.float16).astype(np.float32)
    ours = rd.to_float16(x)
    nan = np.isnan(theirs)
    assert np.array_equal(np.isnan(ours), nan)
    assert np.array_equal(ours[~nan].view(np.uint32), theirs[~nan].view(np.uint32))


def test_float16_from_float64_like_torch():
    import torch

    # float64 just past a float16 tie: direct rounding goes up, torch (via float32) to even
    h = np.random.default_rng(2).uniform(1, 2, 20_000).astype(np.float16).astype(np.float64)
    x = h + 2.0**-11 + 2.0**-40
    theirs = torch.from_numpy(x).to(torch.float16).to(torch.float64).numpy()
    np.testing.assert_array_equal(rd.round_to(x, "float16").astype(np.float64), theirs)


def test_round_to_float16_and_float32():
    x = np.array([1.0 + 2**-12, 2049.0, 70000.0, 0.1])
    np.testing.assert_array_equal(rd.round_to(x, "float16"), [1.0, 2048.0, np.inf, np.float16(0.1)])
    assert rd.round_to(x, "float32")[3] == np.float32(0.1)
    with pytest.raises(InputError, match="precision"):
        rd.round_to(x, "int8")


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_compute_pipeline_matches_torch(dtype):
    import torch

    d, n = 64, 3000
    tdt = getattr(torch, dtype)
    w = np.exp(np.arange(0, d, 2) * -(np.log(10000.0) / d))
    angle = torch.arange(n, dtype=torch.float32).to(tdt)[:, None] * torch.from_numpy(w).to(tdt)[None, :]
    oracle = np.empty((n, d), dtype=np.float32)
    oracle[:, 0::2] = torch.sin(angle).float().numpy()
    oracle[:, 1::2] = torch.cos(angle).float().numpy()
    ours = pr.pe_rounded(np.arange(n), d, 10000.0, dtype, "compute")
    same = np.mean(ours == oracle)
    assert same > 0.999                                    # sin/cos in float32 may differ near ties
    ulp = 2.0 ** -(rd.MANTISSA_BITS[dtype]) * 2            # one step at |value| <= 1 (worst case)
    assert np.abs(ours - oracle).max() <= ulp


def test_collisions_start_where_integers_stop_being_exact():
    curves = pr.all_precisions(2600, 32, mode="compute", max_points=None)
    assert curves["bfloat16"].first_collision == 256 == rd.collision_position("bfloat16")
    assert curves["float16"].first_collision == 2048 == rd.collision_position("float16")
    assert curves["float32"].first_collision is None
    bf = curves["bfloat16"]
    assert np.all(bf.neighbour[:256] > 0.5)
    assert np.mean(bf.neighbour[256:] == 0) > 0.4          # about half the neighbours merge
    assert bf.rounding_error[1000] > 1.0                   # the table is far from PE64 there
    for c in pr.all_precisions(2600, 32, mode="store", max_points=None).values():
        assert c.first_collision is None                   # rounding the exact table never merges


def test_exact_neighbour_and_rounding_error_against_float64():
    d, base = 24, 10000.0
    c = pr.neighbour_distances(300, d, base, "float32", mode="store", max_points=None)
    w = base ** (-np.arange(0, d, 2) / d)
    np.testing.assert_allclose(c.exact_neighbour, np.sqrt(np.sum(2 - 2 * np.cos(w))), rtol=1e-12)
    p = np.arange(300)[:, None]
    exact = np.zeros((300, d))
    exact[:, 0::2], exact[:, 1::2] = np.sin(p * w), np.cos(p * w)
    want = np.linalg.norm(exact.astype(np.float32).astype(np.float64) - exact, axis=1)
    np.testing.assert_allclose(c.rounding_error, want, rtol=1e-6, atol=1e-12)
    assert np.all(c.rounding_error < np.sqrt(d) * 2.0 ** -24) and c.rounding_error[5] > 0


def test_sampled_train_marker_and_layouts():
    c = pr.neighbour_distances(4096, 33, dtype="float16", train_max_len=512, max_points=128,
                               layout="concat")
    # the 128-point grid (stride 32) plus 2047 and 2048 around float16's collision
    np.testing.assert_array_equal(c.positions, np.union1d(np.arange(0, 4096, 32), [2047, 2048]))
    np.testing.assert_array_equal(c.beyond_train, c.positions >= 512)
    assert c.train_max_len == 512
    full = pr.neighbour_distances(4096, 33, dtype="float16", max_points=None, layout="concat")
    np.testing.assert_allclose(c.neighbour, full.neighbour[c.positions], rtol=1e-6)
    np.testing.assert_allclose(c.rounding_error, full.rounding_error[c.positions], rtol=1e-6,
                               atol=1e-9)


@pytest.mark.parametrize("mode", pr.MODES)
def test_row_blocks_and_skipped_errors_change_nothing(mode, monkeypatch):
    one = pr.all_precisions(700, 20, 500.0, mode, max_points=None)
    monkeypatch.setattr(pr, "ROW_BLOCK", 7)
    blocked = pr.all_precisions(700, 20, 500.0, mode, max_points=None)
    quick = pr.all_precisions(700, 20, 500.0, mode, max_points=None, errors=False)
    for dt in pr.PRECISIONS:
        np.testing.assert_array_equal(one[dt].neighbour, blocked[dt].neighbour)
        np.testing.assert_array_equal(one[dt].rounding_error, blocked[dt].rounding_error)
        np.testing.assert_array_equal(one[dt].neighbour, quick[dt].neighbour)
        assert quick[dt].rounding_error is None


def test_first_collision_exact_when_the_grid_misses_it():
    # 10,000 positions in 100 points: stride 100 never lands on 256 or 2048
    curves = pr.all_precisions(10_000, 16, max_points=100)
    assert curves["bfloat16"].first_collision == 256
    assert curves["float16"].first_collision == 2048
    bf = curves["bfloat16"]
    assert bf.neighbour[bf.positions == 255][0] > 0        # the last distinct neighbour is drawn


def test_precision_errors():
    with pytest.raises(InputError, match="mode"):
        pr.neighbour_distances(10, 8, mode="fast")
    with pytest.raises(InputError, match="train_max_len"):
        pr.neighbour_distances(10, 8, train_max_len=0)
    with pytest.raises(InputError, match="precision"):
        pr.neighbour_distances(10, 8, dtype="float64")
    with pytest.raises(InputError, match="max_points"):
        pr.neighbour_distances(10, 8, max_points=0)
    with pytest.raises(InputError, match="memory budget"):
        pr.neighbour_distances(10_000_000, 8192, max_points=None)


@pytest.mark.parametrize("base", [10000.0, 1e9])
def test_float16_beyond_its_range_is_nan_without_warnings(base):
    """At base 1e9 the slowest w rounds to 0 in float16, and inf x 0 warned 'invalid value in
    multiply' (the Precision view, span 2^20); torch's float16 gives the same NaN rows."""
    import warnings

    import torch

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c = pr.neighbour_distances(70_000, 64, base=base, dtype="float16", max_points=None)
        rows = pr.pe_rounded([65000, 70000], 64, base, "float16", "compute")
    assert np.all(np.isnan(c.neighbour[65520:]))           # positions round to inf
    assert np.all(np.isfinite(c.neighbour[:65000]))
    w = torch.from_numpy(np.exp(np.arange(0, 64, 2) * -(np.log(base) / 64))).half()
    assert (w == 0).any() == (base > 1e8)                  # the slowest w is below float16's range
    angle = torch.tensor([65000.0, 70000.0]).half()[:, None] * w[None, :]
    np.testing.assert_array_equal(np.isnan(rows[:, 0::2]), torch.sin(angle).isnan().numpy())
    assert np.isnan(rows[1]).all() and np.isfinite(rows[0]).all()
    assert np.isinf(rd.round_to(np.array([1e39]), "bfloat16")[0])


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_looked_up_sines_equal_sin_then_rounding_bit_for_bit(dtype):
    """The 16-bit pipeline looks its rounded sin/cos up in a table of every 16-bit value; it must
    give what computing them does: every finite value, subnormals, inf (-> NaN) and NaN."""
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.uniform(0, 70000, 20000), rng.uniform(-5, 5, 5000), 10.0 ** rng.uniform(-9, 5, 5000),
                        [0.0, -0.0, 2.0 ** -24, 6e-8, 65504.0, 1e6, np.inf, -np.inf, np.nan]])
    angle = rd.round_to(x, dtype)
    with np.errstate(invalid="ignore"):
        want_sin, want_cos = rd.round_to(np.sin(angle), dtype), rd.round_to(np.cos(angle), dtype)
    table = pr._phasor_table(dtype)
    key = angle.view(np.uint32) >> np.uint32(rd.SPARE_BITS[dtype])
    sin_table, cos_table = table.imag, table.real
    np.testing.assert_array_equal(sin_table[key].view(np.uint32)[~np.isnan(want_sin)],
                                  want_sin.view(np.uint32)[~np.isnan(want_sin)])
    np.testing.assert_array_equal(np.isnan(sin_table[key]), np.isnan(want_sin))
    np.testing.assert_array_equal(cos_table[key], want_cos)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("base", [10.0, 10000.0, 1e6, 1e9])
def test_rounded_angle_keys_equal_round_to_bit_for_bit(dtype, base):
    """The pipeline rounds p * w by rounding the float32 product's bits at once, and falls back to
    round_to on rows with subnormal, overflowing or non-finite angles (small p at a large base,
    float16 positions past 65504, a w that rounds to 0): every row must give round_to's angle and
    the sines computed from it."""
    pos = np.concatenate([np.arange(0, 300.0), np.arange(300, 70000, 7.0), [-3.0, -65504.0, 1e5]])
    w = pr.frequencies(64, base, "interleaved")
    with np.errstate(invalid="ignore"):
        a = rd.round_to(rd.round_to(pos, dtype)[:, None] * rd.round_to(w, dtype)[None, :], dtype)
    fast = pr._mantissa_rounding_rows(rd.round_to(pos, dtype), rd.round_to(w, dtype), dtype)
    assert fast.any()
    if dtype == "float16":
        assert not fast.all()            # positions past 65504 (and small ones at a large base)
    np.testing.assert_array_equal(pr._angle_keys(pos, w, dtype),
                                  a.view(np.uint32) >> np.uint32(rd.SPARE_BITS[dtype]))
    got = pr._rounded_sin_cos(pos, w, dtype)
    want = pr._sin_cos_rounded(a, dtype)
    for g, v in zip(got, want):
        np.testing.assert_array_equal(g, v)


def test_float32_phasors_equal_sin_and_cos():
    """float32's pipeline writes cos and sin into one complex64 array: the same values as np.sin
    and np.cos of the float32 angle."""
    pos = np.arange(0, 5000, 3.0)
    w = pr.frequencies(30, 10000.0, "interleaved")
    angle = pos.astype(np.float32)[:, None] * w.astype(np.float32)[None, :]
    sin, cos = pr._rounded_sin_cos(pos, w, "float32")
    np.testing.assert_array_equal(sin, np.sin(angle))
    np.testing.assert_array_equal(cos, np.cos(angle))


@pytest.mark.parametrize("dtype", pr.PRECISIONS)
@pytest.mark.parametrize("d", [33, 2048])
def test_neighbour_distance_is_the_float64_norm_of_row_differences(dtype, d):
    """The curves sum squares in float32 (pairwise) from cos + i sin pairs, an odd d's unpaired sine
    without its cosine: within 1e-6 of float64 norms of the assembled rows' differences, and 0
    exactly where the rows are equal."""
    c = pr.neighbour_distances(3000, d, 10000.0, dtype, mode="compute", max_points=100)
    p = c.positions
    rows = pr.pe_rounded(np.concatenate([p, p + 1]), d, 10000.0, dtype, "compute").astype(np.float64)
    want = np.linalg.norm(rows[len(p):] - rows[:len(p)], axis=1)
    np.testing.assert_allclose(c.neighbour, want, rtol=1e-6)
    np.testing.assert_array_equal(c.neighbour == 0, want == 0)
    if dtype == "bfloat16":
        assert (want == 0).any() and (want > 0).any()
