"""Sinusoidal PE's principal components from its Toeplitz Gram matrix, applied by FFT. No Qt.

Each (sin, cos) pair of a frequency w adds sin(pw)sin(qw) + cos(pw)cos(qw) = cos((p - q)w) to
G = PE PEᵀ, so G[p, q] = f(p - q) with f(k) = Σ_i cos(k w_i) (explorer.backend.similarity): n numbers,
not n·d. The centred Gram matrix K = H G H (H = I - 11ᵀ/n) has the nonzero eigenvalues of the
covariance C = Σ_p (PE[p] - μ)ᵀ (PE[p] - μ), and its eigenvectors u are the principal coordinates
divided by sqrt(λ). G V is a convolution of each column of V with f: one real FFT of length >= 2n - 1
per column (G embedded in a circulant matrix), so a product K V (V: n x BLOCK) costs O(n log n) a
column instead of the d² of C V, and no (d, d) C is formed. The loadings are uᵀ PE / sqrt(λ) (u ⟂ 1),
and the coordinates (PE - μ) · loading = K u / sqrt(λ) = sqrt(λ) u.

The frequencies are the float32 ones `sinusoidal_pe(..., "float32")` uses, so K is that table's
centred Gram matrix up to the table's own float32 rounding. An odd d_model's unpaired sine is not
Toeplitz: pca_of_sinusoidal then takes the table's own PCA (explorer.compute.pca).
Figures (one core, base steps, each path warm-started): 512 x 384 4.2 -> 2.6 ms, 1024 x 768 (GPT-2)
17 -> 4.6 ms, 2048 x 1024 (OPT-350m) 35 -> 13 ms, against the closed-form covariance it replaces;
the signs' loadings as a float32 product (no float64 copy of the table): 2048 x 1024 2.3 -> 0.7 ms.
"""

from __future__ import annotations

import numpy as np

from explorer.backend.encodings import _frequencies_like_seed, channel_counts
from explorer.backend.similarity import cos_sum
from explorer.compute.pca import PCS, _top_eigenpairs, pca


def offset_kernel(n: int, d_model: int, base: float, layout: str) -> np.ndarray:
    """f(k) = Σ_i cos(k w_i) over the paired channels, k = 0 .. n-1, float64; (n,). The paired
    channels are the first n_cos frequencies (a cosine channel exists for each of them)."""
    n_cos = channel_counts(d_model, layout)[1]
    w = _frequencies_like_seed(d_model, base, layout, np.float32).astype(np.float64)[:n_cos]   # (h,)
    return cos_sum(0.0, 1.0, n, w)


class CentredToeplitz:
    """K = H G H for the symmetric Toeplitz G[p, q] = f(|p - q|), applied to blocks of vectors."""

    def __init__(self, f: np.ndarray):
        n = f.shape[0]
        self.n = n
        self.size = 1 << max(1, (2 * n - 2).bit_length())                    # >= 2n - 1
        column = np.zeros(self.size)
        column[:n] = f
        if n > 1:
            column[-(n - 1):] = f[1:][::-1]                                   # the circulant's wrap
        self.spectrum = np.fft.rfft(column)                                   # (size/2 + 1,) real part
        k = np.arange(1, n)
        total = n * f[0] + 2.0 * float(np.dot(n - k, f[1:]))                  # 1ᵀ G 1
        self.trace = n * float(f[0]) - total / n                              # tr(K)
        self.f = f

    def gram_apply(self, v: np.ndarray) -> np.ndarray:
        """G @ v for v (n, p); (n, p)."""
        spec = np.fft.rfft(v, self.size, axis=0)                              # (size/2 + 1, p)
        spec *= self.spectrum[:, None]
        return np.fft.irfft(spec, self.size, axis=0)[:self.n]

    def apply(self, v: np.ndarray) -> np.ndarray:
        """K @ v = H (G (H v)) for v (n, p); (n, p)."""
        centred = v - v.mean(axis=0, keepdims=True)
        out = self.gram_apply(centred)
        out -= out.mean(axis=0, keepdims=True)
        return out

    def full(self) -> np.ndarray:
        """K itself (n, n): for the small-matrix solver and the fallback."""
        idx = np.abs(np.subtract.outer(np.arange(self.n), np.arange(self.n)))
        g = self.f[idx]
        g -= g.mean(axis=0, keepdims=True)
        g -= g.mean(axis=1, keepdims=True)
        return g


def pca_of_sinusoidal(table: np.ndarray, base: float, layout: str, k: int = PCS):
    """pca(table) for table = sinusoidal_pe(n, d, base, layout, "float32"): (coordinates (n, k)
    float32, variance fractions (k,)), each component signed as pca() signs it."""
    n, d = table.shape
    n_sin, n_cos = channel_counts(d, layout)
    if n_sin != n_cos:                       # an unpaired sine: not Toeplitz
        return pca(table, k)
    kernel = CentredToeplitz(offset_kernel(n, d, base, layout))
    kk = min(k, n, d)
    lam, u = _top_eigenpairs(kernel.apply, kernel.full, n, kernel.trace, kk, key=("toeplitz", n, d),
                             form_after=None)
    s = np.sqrt(np.clip(lam, 0.0, None))                                     # (kk,)
    rows = np.asarray(table)        # only the signs come from it: a float32 product, no float64 copy
    loadings = (u.T.astype(np.float32) @ rows if rows.dtype == np.float32    # (kk, d) x s (u ⟂ 1)
                else u.T @ rows.astype(np.float64))
    sign = np.sign(loadings[np.arange(kk), np.abs(loadings).argmax(axis=1)])  # as pca() signs them
    sign[sign == 0] = 1.0
    coords = u * (s * sign)                     # (n, kk) = (PE - μ) · loading: K u / s = s u
    var = np.clip(lam, 0.0, None) / kernel.trace if kernel.trace > 0 else np.zeros(kk)
    if kk < k:
        coords, var = np.pad(coords, ((0, 0), (0, k - kk))), np.pad(var, (0, k - kk))
    return coords.astype(np.float32), var
