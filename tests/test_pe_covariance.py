"""The closed-form covariance of sinusoidal PE equals the one formed from the table itself."""

import numpy as np
import pytest

from explorer.backend.encodings import sinusoidal_pe
from explorer.backend.pe_covariance import sinusoidal_covariance
from tests.pe_tables import float64_table

CASES = [(512, 384, 10000.0, "interleaved"), (512, 384, 1.5, "concat"), (40, 33, 100.0, "interleaved"),
         (64, 31, 10000.0, "t2t"), (1024, 768, 1e6, "concat"), (300, 64, 1e12, "interleaved"),
         (7, 1, 10.0, "interleaved"), (512, 384, 1.0001, "t2t"), (1, 8, 10000.0, "concat")]


def covariance_of(table):
    a = np.asarray(table, np.float64)
    mean = a.mean(axis=0)
    return (a - mean).T @ (a - mean), mean


@pytest.mark.parametrize("n, d, base, layout", CASES)
def test_it_equals_the_float32_tables_covariance(n, d, base, layout):
    want, want_mean = covariance_of(sinusoidal_pe(n, d, base, layout, "float32"))
    got, mean = sinusoidal_covariance(n, d, base, layout)
    scale = max(np.linalg.eigvalsh(want)[-1], 1.0)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-6 * scale)      # the table's float32 rounding
    np.testing.assert_allclose(mean, want_mean, rtol=0, atol=3e-6)


@pytest.mark.parametrize("n, d, base, layout", CASES)
def test_it_equals_a_float64_table_at_the_same_float32_frequencies(n, d, base, layout):
    """The reference table is built in tests/pe_tables.py, without the module."""
    want, want_mean = covariance_of(float64_table(n, d, base, layout))
    got, mean = sinusoidal_covariance(n, d, base, layout)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9 * max(np.abs(want).max(), 1.0))
    np.testing.assert_allclose(mean, want_mean, rtol=0, atol=1e-12)


def test_the_learned_view_uses_the_closed_form_only_where_it_is_cheaper(monkeypatch):
    """Up to MAX_D and d <= n (wider, the grids hold ~16 x d²/32 bytes at once; with d > n the table's
    PCA works on the smaller Gram matrix): the PCA reads the table otherwise, with the same answer."""
    from explorer.backend import pe_covariance
    from explorer.compute import learned
    from tests.test_pca import assert_same_components

    calls = []
    real = pe_covariance.sinusoidal_covariance
    monkeypatch.setattr(pe_covariance, "sinusoidal_covariance", lambda *a: calls.append(a) or real(*a))
    monkeypatch.setattr(pe_covariance, "MAX_D", 64)
    for n, d, closed in ((96, 64, True), (96, 66, False), (60, 64, False)):
        calls.clear()
        sides = learned._sides(None, n, d, 10000.0, "interleaved")
        assert bool(calls) == closed, (n, d)
        assert_same_components(sides["sinusoidal"], sides["pca_sinusoidal"], sides["var_sinusoidal"])
