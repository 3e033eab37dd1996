"""RoPE: pairings equal up to the permutation, torch's complex multiplication as the oracle."""

import numpy as np
import pytest

from explorer.backend import rope
from explorer.errors import InputError


def torch_rotate(x, positions, base, pairing):
    """The oracle: pairs as complex numbers times torch.polar(1, m theta)."""
    import torch

    x = torch.as_tensor(x, dtype=torch.float64)
    n, d = x.shape
    theta = base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
    angle = torch.as_tensor(positions, dtype=torch.float64)[:, None] * theta[None, :]
    rot = torch.polar(torch.ones_like(angle), angle)
    if pairing == "interleaved":
        z = torch.view_as_complex(x.reshape(n, d // 2, 2).contiguous()) * rot
        return torch.view_as_real(z).reshape(n, d).numpy()
    z = torch.complex(x[:, : d // 2], x[:, d // 2:]) * rot
    return torch.cat([z.real, z.imag], dim=1).numpy()


@pytest.mark.parametrize("pairing", rope.PAIRINGS)
@pytest.mark.parametrize("d", [2, 8, 64])
def test_rotate_matches_torch_polar(pairing, d):
    rng = np.random.default_rng(d)
    x = rng.standard_normal((30, d))
    pos = rng.integers(0, 5000, 30)
    np.testing.assert_allclose(rope.rotate(x, pos, 500.0, pairing), torch_rotate(x, pos, 500.0, pairing),
                               atol=1e-10)


@pytest.mark.parametrize("d", [2, 6, 64])
def test_pairings_equal_up_to_the_permutation(d):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((20, d))
    pos = np.arange(20) * 13
    p = rope.pairing_permutation(d)
    np.testing.assert_allclose(rope.rotate(x @ p, pos, pairing="half"),
                               rope.rotate(x, pos, pairing="interleaved") @ p, atol=1e-12)
    # and the two differ when the same vector is fed to both (they are different conventions)
    if d > 2:
        assert not np.allclose(rope.rotate(x, pos, pairing="half"), rope.rotate(x, pos))
    assert list(rope.pairing_order(6)) == [0, 2, 4, 1, 3, 5]


@pytest.mark.parametrize("kind", rope.KINDS)
def test_score_vs_distance_against_torch_dot_products(kind):
    d, base = 16, 100.0
    delta, score = rope.score_vs_distance(d, base, 40, kind, seed=3)
    q, k = rope.query_key(d, kind, seed=3)
    m = np.arange(0, 60)
    qr = torch_rotate(np.tile(q, (60, 1)), m, base, "interleaved")
    kr = torch_rotate(np.tile(k, (60, 1)), m, base, "interleaved")
    full = qr @ kr.T                                          # [m, n] = q(m) . k(n)
    for a in (0, 7, 19):
        for b in (0, 5, 40, 59):
            if abs(a - b) <= 40:
                assert score[a - b + 40] == pytest.approx(full[a, b], abs=1e-9)
    # the half pairing of the permuted vectors gives the same numbers
    p = rope.pairing_permutation(d)
    qh = torch_rotate(np.tile(q @ p, (60, 1)), m, base, "half")
    kh = torch_rotate(np.tile(k @ p, (60, 1)), m, base, "half")
    np.testing.assert_allclose(qh @ kh.T, full, atol=1e-9)
    assert np.array_equal(delta, np.arange(-40, 41))


def test_long_range_decay_for_ones_not_for_independent_random():
    _, ones = rope.score_vs_distance(64, 10000.0, 2000, "ones")
    assert ones[2000] == pytest.approx(64.0)                  # |q|^2 at distance 0
    assert np.all(ones <= 64.0 + 1e-9)
    assert np.abs(ones[2000 + 500:]).mean() < 0.3 * 64
    _, rnd = rope.score_vs_distance(64, 10000.0, 10, "random", seed=1)
    assert not np.allclose(rnd, rnd[::-1])                    # not symmetric in m - n


@pytest.mark.parametrize("pairing", rope.PAIRINGS)
def test_score_matrix_against_rotated_ones(pairing):
    d, n, base = 12, 30, 50.0
    ones = np.ones((n, d))
    r = torch_rotate(ones, np.arange(n), base, pairing)
    np.testing.assert_allclose(rope.score_matrix(d, n, base, pairing), r @ r.T, atol=1e-10)


def test_score_matrix_blocks_are_block_means():
    full = rope.score_matrix(8, 40, 30.0)
    blocks = rope.score_matrix_blocks(8, 10, 4, 30.0)
    np.testing.assert_allclose(blocks, full.reshape(10, 4, 10, 4).mean(axis=(1, 3)), atol=1e-10)


def test_context_extension_variants():
    d, base, s = 16, 10000.0, 4.0
    v = rope.frequency_variants(d, base, s)
    orig = v["original"]
    np.testing.assert_allclose(v["interpolation"], orig / s)
    assert rope.ntk_base(base, s, d) == pytest.approx(base * s ** (16 / 14))
    assert v["ntk"][0] == pytest.approx(orig[0])               # highest frequency unchanged
    assert v["ntk"][-1] == pytest.approx(orig[-1] / s)         # lowest one interpolated
    curves = rope.variant_scores(d, base, s, 100)
    assert set(curves) == {"original", "interpolation", "ntk"}
    # position interpolation: distance s*j scores like distance j did
    _, pi = rope.score_vs_distance(d, base, 400, scale=s)
    np.testing.assert_allclose(pi[400 + np.arange(0, 101) * 4], curves["original"][1], atol=1e-9)
    np.testing.assert_allclose(curves["interpolation"][1], pi[400:501], atol=1e-9)
    assert "ntk" not in rope.frequency_variants(2, base, s)


def test_rotated_qk_matches_rotate():
    pos, q, k = rope.rotated_qk(16, 100, 30.0, "half", "random", seed=2, max_rows=25)
    assert list(pos) == list(range(0, 100, 4)) and q.dtype == np.float32
    q0, k0 = rope.query_key(16, "random", seed=2)
    np.testing.assert_allclose(q, rope.rotate(np.tile(q0, (25, 1)), pos, 30.0, "half"), atol=1e-5)
    np.testing.assert_allclose(k, rope.rotate(np.tile(k0, (25, 1)), pos, 30.0, "half"), atol=1e-5)


def test_rope_input_errors():
    for bad in (7, 0, -2, 2.0, True):
        with pytest.raises(InputError, match="head_dim must be an even"):
            rope.rope_frequencies(bad)
    with pytest.raises(InputError, match="pairing"):
        rope.rotate(np.ones((2, 4)), [0, 1], pairing="llama")
    with pytest.raises(InputError, match="base"):
        rope.score_matrix(8, 4, base=1.0)
    with pytest.raises(InputError, match="context-extension"):
        rope.frequency_variants(8, scale=0.5)
    with pytest.raises(InputError, match="kind"):
        rope.score_vs_distance(8, kind="zeros")
    with pytest.raises(InputError, match="memory budget"):
        rope.score_matrix(8, 20000)
    with pytest.raises(InputError, match="positions"):
        rope.rotate(np.ones((3, 4)), [0, 1])

