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
Toeplitz: pca_of_sinusoidal then takes the table's own PCA (explorer.compute.pca). Each component's
sign needs its loadings uᵀ PE: for a frequency w they are the sums Σ_p u[p] e^{i p w}, by blocked
angle addition (sinusoid_sums), so a base step forms no (n, d) table.
Figures (one core, base steps, each path warm-started): 512 x 384 4.2 -> 2.6 ms, 1024 x 768 (GPT-2)
17 -> 4.6 ms, 2048 x 1024 (OPT-350m) 35 -> 13 ms, against the closed-form covariance it replaces;
the signs' loadings by sinusoid_sums instead of the table's product: 2048 x 1024 ~0.3 ms, where the
float32 table and its product took ~3.5.
"""

from __future__ import annotations

import numpy as np

from explorer.backend.encodings import _frequencies_like_seed, channel_counts, channel_layout, sinusoidal_pe
from explorer.backend.similarity import cos_sum
from explorer.backend.unit_rows import unit_rows
from explorer.compute.pca import PCS, _top_eigenpairs, pca


TOEPLITZ_BLOCK = 8   # vectors iterated together: each costs an FFT pair a product, so fewer than pca()'s 12
#                      (base steps at 512 x 384: 1.5 -> 1.3 ms; at 1024 x 768: 2.7 -> 2.1; base 1.5 and 10 too)


def seed_frequencies(d_model: int, base: float, layout: str) -> np.ndarray:
    """The float32 w_i of sinusoidal_pe(..., "float32"), as float64; (n_sin,)."""
    return _frequencies_like_seed(d_model, base, layout, np.float32).astype(np.float64)


def offset_kernel(n: int, d_model: int, base: float, layout: str) -> np.ndarray:
    """f(k) = Σ_i cos(k w_i) over the paired channels, k = 0 .. n-1, float64; (n,). The paired
    channels are the first n_cos frequencies (a cosine channel exists for each of them)."""
    n_cos = channel_counts(d_model, layout)[1]
    return cos_sum(0.0, 1.0, n, seed_frequencies(d_model, base, layout)[:n_cos])


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


def pca_of_sinusoidal(n: int, d_model: int, base: float, layout: str, k: int = PCS):
    """pca(sinusoidal_pe(n, d_model, base, layout, "float32")) without the table: (coordinates (n, k)
    float32, variance fractions (k,)), each component signed as pca() signs it (its largest-|loading|
    channel positive), the loadings by closed form (sinusoid_sums)."""
    n_sin, n_cos = channel_counts(d_model, layout)
    if n_sin != n_cos:                       # an unpaired sine: not Toeplitz
        return pca(sinusoidal_pe(n, d_model, base, layout, "float32"), k)
    kernel = CentredToeplitz(offset_kernel(n, d_model, base, layout))
    kk = min(k, n, d_model)
    lam, u = _top_eigenpairs(kernel.apply, kernel.full, n, kernel.trace, kk, key=("toeplitz", n, d_model),
                             form_after=None, block=TOEPLITZ_BLOCK)
    s = np.sqrt(np.clip(lam, 0.0, None))                                     # (kk,)
    w = seed_frequencies(d_model, base, layout)[:n_cos]                      # (h,) the kernel's
    sums = sinusoid_sums(u, w)                       # (kk, h): uᵀ PE's sine and cosine channels
    sin_cols, cos_cols = channel_layout(d_model, layout)
    loadings = np.zeros((kk, d_model))                                       # (kk, d) x s (u ⟂ 1)
    loadings[:, sin_cols], loadings[:, cos_cols] = sums.imag, sums.real
    sign = np.sign(loadings[np.arange(kk), np.abs(loadings).argmax(axis=1)])  # as pca() signs them
    sign[sign == 0] = 1.0
    coords = u * (s * sign)                     # (n, kk) = (PE - μ) · loading: K u / s = s u
    var = np.clip(lam, 0.0, None) / kernel.trace if kernel.trace > 0 else np.zeros(kk)
    if kk < k:
        coords, var = np.pad(coords, ((0, 0), (0, k - kk))), np.pad(var, (0, k - kk))
    return coords.astype(np.float32), var


def sinusoid_sums(u: np.ndarray, w: np.ndarray) -> np.ndarray:
    """sum_p u[p, j] e^{i p w_c} for every column j of u (n, m) and frequency w_c; (m, h) complex128.
    With p = a B + b (B ~ sqrt(n)) each is sum_a e^{i a B w} sum_b u[a B + b, j] e^{i b w}: one
    (m A, B) @ (B, 2h) product and (A + B) x h phasors instead of the n x h table."""
    n, m = u.shape
    h = len(w)
    block = max(1, int(np.sqrt(n)))
    blocks = -(-n // block)                                                  # A
    padded = np.zeros((blocks * block, m))
    padded[:n] = u
    rows = padded.reshape(blocks, block, m).transpose(2, 0, 1).reshape(m * blocks, block)  # (m A, B)
    inner_phasors = unit_rows(0.0, 1.0, block, w)                            # (B, h) e^{i b w}
    outer_phasors = unit_rows(0.0, float(block), blocks, w)                  # (A, h) e^{i a B w}
    both = rows @ np.concatenate([inner_phasors.real, inner_phasors.imag], axis=1)   # (m A, 2h)
    both = both.reshape(m, blocks, 2 * h)
    re, im = both[..., :h], both[..., h:]                                    # (m, A, h) each
    o_re, o_im = outer_phasors.real, outer_phasors.imag                      # (A, h)
    # the complex product in real parts: a float array times 1j went through numpy's buffered cast to
    # complex (~16 ns an element: 0.4 of this function's 0.5 ms at 512 x 384)
    out = np.empty((m, h), np.complex128)
    out.real = np.einsum("mah,ah->mh", re, o_re) - np.einsum("mah,ah->mh", im, o_im)
    out.imag = np.einsum("mah,ah->mh", re, o_im) + np.einsum("mah,ah->mh", im, o_re)
    return out
