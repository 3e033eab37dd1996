"""The covariance of sinusoidal PE's channels over positions 0 .. n-1, by closed form. No Qt.

A PCA of the PE table needs C = Σ_p (PE[p] - μ)ᵀ (PE[p] - μ), (d, d). From the table that is n·d²
multiply-adds, or a few (n, d, block) products per eigen-iteration step (~0.5 ms each at 512 x 384).
Each entry is a sum of a cosine over positions, which has a closed form:

    Σ_p sin(a p) sin(b p) = ½ [Sc(a - b) - Sc(a + b)]      Σ_p cos(a p) cos(b p) = ½ [Sc(a - b) + Sc(a + b)]
    Σ_p sin(a p) cos(b p) = ½ [Ss(a + b) + Ss(a - b)]
    Sc(θ) = Σ_{p<n} cos(θ p) = D(θ) cos((n-1)θ/2),   Ss(θ) = D(θ) sin((n-1)θ/2),   D(θ) = sin(nθ/2) / sin(θ/2)

(D(0) = n). The trigonometry of θ = a ± b comes by angle addition from each frequency's own sines
and cosines at the multiples ½, n/2 and (n-1)/2: 6 h trig calls and ~30 (h, h) array operations,
h = d/2, instead of n·d² (~1 ms against ~2.5 ms to form C at 512 x 384; ~30 ms at 2048 x 1024,
where the whole PCA takes 52 ms against 111 from the table). Angle addition loses nothing to
cancellation here: the frequencies lie in (0, 1], so a small θ comes only from two small frequencies
(whose sines are small too) or two equal ones (an exact 0, where D = n).

The frequencies are the float32 ones `sinusoidal_pe(..., "float32")` uses, so C is that table's
covariance up to the table's own float32 rounding (~1e-8 of the largest eigenvalue).
"""

from __future__ import annotations

import numpy as np

from explorer.backend.encodings import _frequencies_like_seed, channel_counts, channel_layout

MAX_D = 1024   # wider tables take the table's own path: ~16 (d/2, d/2) float64 grids are alive at once
#                (34 MB at d = 1024, 512 MB at 4096), and their cost grows as d², the table's as n·d


def cheaper_than_the_table(n: int, d_model: int) -> bool:
    """Whether the closed form beats reading the (n, d) table. Measured with each path's own warm start
    over base steps: 3.4 vs 8.0 ms at 512 x 384, 14.5 vs 31 at 1024 x 768, 52 vs 111 at 2048 x 1024; but
    with d > n the table's PCA works on the smaller (n, n) Gram matrix (4.7 vs 23 ms at 512 x 768)."""
    return d_model <= min(n, MAX_D)


def _position_sums(a: np.ndarray, b: np.ndarray, n: int) -> dict:
    """{sign: (Sc, Ss)} of θ = a_i + sign * b_j over positions 0 .. n-1 for sign = +1 and -1; each
    (len(a), len(b)) float64. The two signs share the outer products of angle addition."""
    def sin_of_sums(m: float):     # sin(m θ) = sin(ma) cos(mb) ± cos(ma) sin(mb), for both signs
        sa, ca, sb, cb = np.sin(m * a), np.cos(m * a), np.sin(m * b), np.cos(m * b)
        p, q = np.multiply.outer(sa, cb), np.multiply.outer(ca, sb)
        return {1.0: p + q, -1.0: p - q}, (sa, ca, sb, cb)

    half, _ = sin_of_sums(0.5)                                                 # sin(θ/2)
    whole, _ = sin_of_sums(n / 2)                                              # sin(nθ/2)
    shift, (sa, ca, sb, cb) = sin_of_sums((n - 1) / 2)                         # sin((n-1)θ/2)
    p, q = np.multiply.outer(ca, cb), np.multiply.outer(sa, sb)
    shift_cos = {1.0: p - q, -1.0: p + q}                                      # cos((n-1)θ/2)
    out = {}
    for sign in (1.0, -1.0):
        zero = half[sign] == 0.0                                               # θ = 0: D = n
        kernel = np.divide(whole[sign], half[sign], out=np.full(zero.shape, float(n)), where=~zero)
        shift[sign][zero], shift_cos[sign][zero] = 0.0, 1.0
        out[sign] = (kernel * shift_cos[sign], kernel * shift[sign])
    return out


def sinusoidal_covariance(n: int, d_model: int, base: float, layout: str) -> tuple[np.ndarray, np.ndarray]:
    """(covariance C (d, d), column means μ (d,)), float64, of sinusoidal_pe(n, d, base, layout) rows:
    C = Σ_p (PE[p] - μ)ᵀ (PE[p] - μ) (not divided by n)."""
    w = _frequencies_like_seed(d_model, base, layout, np.float32).astype(np.float64)   # (n_sin,)
    n_cos = channel_counts(d_model, layout)[1]
    sums_of = _position_sums(w, w, n)
    (cos_plus, sin_plus), (cos_minus, sin_minus) = sums_of[1.0], sums_of[-1.0]          # θ = a ± b
    sin_cols, cos_cols = channel_layout(d_model, layout)
    gram = np.zeros((d_model, d_model))                                                 # Σ_p PEᵀ PE
    gram[sin_cols, sin_cols] = 0.5 * (cos_minus - cos_plus)
    gram[cos_cols, cos_cols] = 0.5 * (cos_minus + cos_plus)[:n_cos, :n_cos]
    sin_cos = 0.5 * (sin_plus + sin_minus)[:, :n_cos]                                   # (n_sin, n_cos)
    gram[sin_cols, cos_cols] = sin_cos
    gram[cos_cols, sin_cols] = sin_cos.T
    sums = np.zeros(d_model)
    kernel_sc, kernel_ss = _position_sums(w, np.zeros(1), n)[1.0]                       # θ = a
    sums[sin_cols], sums[cos_cols] = kernel_ss[:, 0], kernel_sc[:n_cos, 0]
    mean = sums / n
    return gram - np.multiply.outer(sums, mean), mean
