"""The warm-started subspace PCA equals numpy's SVD of the centred rows, for PE and random tables."""

import numpy as np
import pytest

from explorer.backend.encodings import sinusoidal_pe
from explorer.compute import pca as pca_module
from explorer.compute.pca import pca, top_eigenpairs
from explorer.compute.sinusoidal_pca import CentredToeplitz, offset_kernel, pca_of_sinusoidal
from tests.pe_tables import float64_table


def svd_reference(rows):
    a = np.asarray(rows, np.float64)
    a = a - a.mean(axis=0)
    u, s, vt = np.linalg.svd(a, full_matrices=False)
    return u[:, :3] * s[:3], s[:3] ** 2 / (s ** 2).sum(), vt[:3]


def assert_same_components(rows, coords, var):
    want, want_var, vt = svd_reference(rows)
    scale = np.abs(want).max()
    for j in range(3):
        sign = np.sign(vt[j][np.abs(vt[j]).argmax()])      # the module's convention: largest loading > 0
        np.testing.assert_allclose(coords[:, j], want[:, j] * sign, atol=2e-5 * scale)
    np.testing.assert_allclose(var, want_var, rtol=1e-6, atol=1e-12)


@pytest.mark.parametrize("n, d, base", [(512, 384, 10000.0), (512, 384, 100.0), (1024, 768, 1e6),
                                        (40, 32, 10000.0), (64, 512, 10000.0), (512, 384, 1.5)])
def test_pca_of_sinusoidal_pe_equals_svd(n, d, base):
    rows = sinusoidal_pe(n, d, base, "interleaved", "float32")
    coords, var = pca(rows)
    assert coords.shape == (n, 3) and coords.dtype == np.float32
    assert_same_components(rows, coords, var)


@pytest.mark.parametrize("n, d, base, layout", [(512, 384, 10000.0, "interleaved"), (512, 384, 1.5, "concat"),
                                                (1024, 768, 1e6, "t2t"), (64, 512, 10000.0, "interleaved"),
                                                (2048, 1024, 10000.0, "interleaved"), (8, 6, 10000.0, "concat"),
                                                (512, 385, 10000.0, "interleaved"), (300, 101, 500.0, "t2t")])
def test_pca_from_the_toeplitz_gram_matrix_equals_svd(n, d, base, layout):
    """Against the float64 table at the same frequencies: at base 1.5 PC2 and PC3 are nearly
    degenerate (their eigenvalues 2e-4 apart), so the float32 table's rounding may turn them within
    their plane; the Gram matrix is that of the exact table. Odd d (an unpaired sine) takes pca()."""
    rows = float64_table(n, d, base, layout)
    coords, var = pca_of_sinusoidal(n, d, base, layout)
    assert coords.shape == (n, 3) and coords.dtype == np.float32
    assert_same_components(rows, coords, var)


@pytest.mark.parametrize("n", [1, 2, 7, 45, 46, 2049])
def test_the_sinusoid_sums_are_the_table_product(n):
    """sinusoid_sums(u, w) = uᵀ [cos(p w) + i sin(p w)]: the loadings that sign each component, with
    no table (n = a B + b over blocks of B ~ sqrt(n), a partial last block included)."""
    from explorer.compute.sinusoidal_pca import seed_frequencies, sinusoid_sums

    u = np.random.default_rng(n).standard_normal((n, 3))
    w = seed_frequencies(64, 100.0, "interleaved")
    angle = np.arange(n, dtype=np.float64)[:, None] * w[None, :]                  # (n, 32)
    want = u.T @ np.cos(angle) + 1j * (u.T @ np.sin(angle))
    np.testing.assert_allclose(sinusoid_sums(u, w), want, atol=1e-12 * np.abs(want).max())


@pytest.mark.parametrize("n", [1, 2, 7, 512])
def test_the_fft_product_equals_the_centred_gram_matrix(n):
    rows = float64_table(n, 64, 100.0, "interleaved")
    centred = rows - rows.mean(axis=0)
    kernel = CentredToeplitz(offset_kernel(n, 64, 100.0, "interleaved"))
    v = np.random.default_rng(n).standard_normal((n, 5))
    want = centred @ (centred.T @ v)
    np.testing.assert_allclose(kernel.apply(v), want, atol=1e-10 * np.abs(want).max())
    np.testing.assert_allclose(kernel.full(), centred @ centred.T, atol=1e-10 * n * 32)
    assert kernel.trace == pytest.approx(float(np.einsum("ij,ij->", centred, centred)), rel=1e-10)


def test_a_warm_start_from_the_previous_step_gives_the_same_answer_as_a_cold_one():
    pca_module._STARTS.clear()
    cold = [pca(sinusoidal_pe(512, 384, b, "concat", "float32")) for b in (9000.0, 9100.0)]
    pca_module._STARTS.clear()
    warm_second = pca(sinusoidal_pe(512, 384, 9100.0, "concat", "float32"))
    np.testing.assert_allclose(cold[1][0], warm_second[0], atol=1e-5 * np.abs(cold[1][0]).max())
    assert_same_components(sinusoidal_pe(512, 384, 9100.0, "concat", "float32"), *cold[1])


def test_pca_of_random_and_degenerate_tables():
    rng = np.random.default_rng(3)
    rows = rng.standard_normal((300, 100)) * np.linspace(3, 0.1, 100)   # distinct variances
    assert_same_components(rows, *pca(rows))
    flat = np.ones((20, 8))                                            # no variance at all
    coords, var = pca(flat)
    assert np.all(coords == 0) and np.all(var == 0)
    two = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])               # rank 1, d < 3
    coords, var = pca(two)
    assert coords.shape == (3, 3) and var[0] == pytest.approx(1.0) and np.all(coords[:, 1:] == 0)


def test_top_eigenpairs_falls_back_to_the_full_solver_when_the_iteration_does_not_settle(monkeypatch):
    monkeypatch.setattr(pca_module, "MAX_STEPS", 0)
    rng = np.random.default_rng(1)
    a = rng.standard_normal((200, 120))
    lam, v = top_eigenpairs(a.T @ a, 3)
    want_lam, want_v = np.linalg.eigh(a.T @ a)
    np.testing.assert_allclose(lam, want_lam[::-1][:3], rtol=1e-12)
    np.testing.assert_allclose(np.abs((v * want_v[:, ::-1][:, :3]).sum(axis=0)), 1.0, rtol=1e-10)


def test_the_chebyshev_filter_is_the_polynomial_of_the_matrix():
    """chebyshev_filter(v) = U T_m((2Λ - cut) / cut) Uᵀ v, from numpy's eigendecomposition."""
    from explorer.compute.pca import chebyshev_filter

    rng = np.random.default_rng(5)
    a = rng.standard_normal((60, 40))
    c = a.T @ a                                                        # (40, 40) PSD
    lam, u = np.linalg.eigh(c)
    v = rng.standard_normal((40, 4))
    cut = float(lam[-8])
    for degree in (1, 2, 6):
        t = np.cos(degree * np.arccos(np.clip(2 * lam / cut - 1, -1, 1)))
        above = 2 * lam / cut - 1 > 1
        t[above] = np.cosh(degree * np.arccosh(2 * lam[above] / cut - 1))
        want = u @ (t[:, None] * (u.T @ v))
        got = chebyshev_filter(lambda x: c @ x, v, c @ v, cut, degree)
        np.testing.assert_allclose(got, want, atol=1e-9 * np.abs(want).max())


@pytest.mark.parametrize("n, d, base", [(512, 384, 1.5), (1024, 768, 2.0), (2048, 1024, 5.0)])
def test_a_small_base_settles_without_the_full_solver(n, d, base, monkeypatch):
    """At base <= 10 the spectrum is flat (each eigenvalue ~2 % below the one before): plain subspace
    iteration ran out of steps and formed the (n, n) matrix for eigh (~1.1 s a slider step at OPT's
    2048 rows). The Chebyshev-filtered steps settle on their own, to the same components."""
    pca_module._STARTS.clear()

    def no_full(self):
        raise AssertionError("the full solver was used")

    monkeypatch.setattr(CentredToeplitz, "full", no_full)
    coords, var = pca_of_sinusoidal(n, d, base, "interleaved")
    assert_same_components(float64_table(n, d, base, "interleaved"), coords, var)
    for step in (1.013, 1.013 ** 2):                                  # dragged: warm starts
        b = base * step
        coords, var = pca_of_sinusoidal(n, d, b, "interleaved")
    assert_same_components(float64_table(n, d, b, "interleaved"), coords, var)
