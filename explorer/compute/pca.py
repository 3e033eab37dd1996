"""The first principal components of a table's rows, by warm-started subspace iteration. No Qt.

A full eigendecomposition of the (d, d) covariance costs ~16 ms at d = 384 on one core, for the three
components the view shows. Orthogonal (subspace) iteration with Rayleigh-Ritz on a block of BLOCK
vectors converges at the rate lambda_{BLOCK+1} / lambda_3 (~0.3 for sinusoidal PE), so a few products
C @ V (d x d x BLOCK) give the top three eigenpairs to RESIDUAL; the block of the previous call on a
table of the same shape is where the next call starts (a slider step moves the components a little).
pca() starts without forming C = AᵀA (n·d², ~2.5 ms at 512 x 384): each product is Aᵀ(A V), two
(n, d, BLOCK) products (~0.5 ms); a base step's warm start settles in ~7. After IMPLICIT_STEPS it
forms C and goes on with C @ V (~0.1 ms each). Sinusoidal PE's Gram matrix is Toeplitz, and its
products come by FFT (explorer.compute.sinusoidal_pca, through _top_eigenpairs).

A flat spectrum settles slowly: at base <= 10 each of sinusoidal PE's eigenvalues is only ~2 %
below the one before, so after CHEBYSHEV_AFTER plain steps each step applies a Chebyshev filter
instead (Zhou & Saad's filtered subspace iteration): a degree-DEGREE polynomial of C, at most 1 on
[0, the block's smallest Ritz value (the cut)] and steep above it. An eigenvalue 1.09x the cut grows
17x in one filtered step (six products) where six plain products give 1.7x. MiniLM's 512 rows at
base 1.5 took 40 plain steps and then `eigh` (~30 ms), OPT's 2048 ~1.1 s a slider step; filtered,
~4 and ~25 ms. When the iteration does not settle in MAX_STEPS, the full `np.linalg.eigh` answers
instead.
"""

from __future__ import annotations

import numpy as np

PCS = 3                    # principal components kept
BLOCK = 12                 # vectors iterated together (more than PCS: a wider gap, faster convergence)
RESIDUAL = 1e-6            # ||C v - lambda v|| <= RESIDUAL * lambda_1 for each kept pair
MAX_STEPS = 30
IMPLICIT_STEPS = 6         # products A^T (A V) before C itself is formed
CHEBYSHEV_AFTER = 4        # plain steps before each step is a Chebyshev filter
DEGREE = 6                 # the filter's degree: products a filtered step
_STARTS: dict[tuple, np.ndarray] = {}   # (n, d) -> the last block (d, BLOCK): the next call's start


def top_eigenpairs(c: np.ndarray, k: int, key=None) -> tuple[np.ndarray, np.ndarray]:
    """(eigenvalues (k,) descending, eigenvectors (d, k)) of the symmetric PSD matrix c (d, d), float64."""
    return _top_eigenpairs(lambda v: c @ v, lambda: c, c.shape[0], float(np.trace(c)), k, key, explicit=True)


def _top_eigenpairs(apply, full, d: int, trace: float, k: int, key=None, explicit: bool = False,
                    form_after: int | None = IMPLICIT_STEPS, block: int = BLOCK):
    """top_eigenpairs of the (d, d) PSD matrix C given as apply(V) = C @ V for the first
    `form_after` products (None: every product); full() forms C itself (then, for small d, or for
    the fallback; at once when `explicit`, C being at hand); trace = tr(C). Once C is formed, a step takes two
    products (C² V: the convergence rate squared for one Rayleigh-Ritz and QR, which cost more than
    a product C @ V at d = 384); block: the vectors iterated together."""
    p = min(d, max(block, k))
    if p >= d // 2:                              # small matrices: the full solver is cheap
        lam, v = np.linalg.eigh(full())
        return lam[::-1][:k], v[:, ::-1][:, :k]
    v = _STARTS.get(key)             # the last call's Ritz vectors: orthonormal already
    if v is None or v.shape != (d, p):
        v = np.linalg.qr(np.random.default_rng(0).standard_normal((d, p)))[0]  # (d, p) orthonormal
    scale = max(trace, 1e-300)
    c = full() if explicit else None
    for step in range(MAX_STEPS):
        if c is None and step == form_after:
            c = full()
        w = apply(v) if c is None else c @ v                                   # (d, p)
        lam, s = np.linalg.eigh(v.T @ w)                                       # Ritz values, ascending
        lam, s = lam[::-1], s[:, ::-1]
        vs, ws = v @ s, w @ s                                                  # (d, p) Ritz vectors, C @ them
        residual = np.linalg.norm(ws[:, :k] - vs[:, :k] * lam[:k], axis=0)     # (k,)
        if residual.max() <= RESIDUAL * max(float(lam[0]), scale * 1e-12):
            if key is not None:
                _STARTS[key] = vs
            return lam[:k], vs[:, :k]
        cut = float(lam[-1])                      # the block's smallest Ritz value
        if step + 1 >= CHEBYSHEV_AFTER and cut > 1e-8 * float(lam[0]):
            v = np.linalg.qr(chebyshev_filter(apply if c is None else c.__matmul__, vs, ws, cut))[0]
        else:
            v = np.linalg.qr(ws if c is None else c @ ws)[0]
    lam, v = np.linalg.eigh(full() if c is None else c)
    return lam[::-1][:k], v[:, ::-1][:, :k]


def chebyshev_filter(apply, v: np.ndarray, w: np.ndarray, cut: float, degree: int = DEGREE) -> np.ndarray:
    """T_degree(L)(v) for L = (2C - cut) / cut, given w = C @ v (v, w (d, p)): eigenvalues in [0, cut]
    map into [-1, 1], where |T| <= 1, and those above grow like cosh(degree * acosh(2 lam / cut - 1)).
    Needs cut > 0 (the caller's guard: >= 1e-8 lam_1 keeps T below 1e70)."""
    half = cut / 2.0
    previous, current = v, (w - half * v) / half                              # T_0, T_1 of L on v
    for _ in range(degree - 1):
        previous, current = current, 2.0 * (apply(current) - half * current) / half - previous
    return current


def pca(rows: np.ndarray, k: int = PCS) -> tuple[np.ndarray, np.ndarray]:
    """(coordinates (n, k) float32, explained variance fractions (k,)) of the centred rows (n, d).

    Sinusoidal PE has a faster way: explorer.compute.sinusoidal_pca. Each component's sign is fixed
    so that its largest-|loading| channel is positive (an eigenvector's sign is arbitrary; this keeps
    the picture from flipping between slider steps)."""
    a = np.asarray(rows, dtype=np.float64)                                     # (n, d)
    n, d = a.shape
    a = a - a.mean(axis=0, keepdims=True)
    total = float(np.einsum("ij,ij->", a, a))                                  # the whole variance = tr(C)
    if d <= n:                                   # eigenvectors of the (d, d) covariance: the loadings
        lam, vt = _top_eigenpairs(lambda v: a.T @ (a @ v), lambda: a.T @ a, d, total, min(k, d),
                                  key=("cov", n, d))
        vt = vt.T                                                              # (k, d) rows = PCs
    else:                                        # of the (n, n) Gram matrix: the coordinates
        lam, u = _top_eigenpairs(lambda v: a @ (a.T @ v), lambda: a @ a.T, n, total, min(k, n),
                                 key=("gram", n, d))
        s = np.sqrt(np.clip(lam, 0.0, None))
        vt = (u.T @ a) / np.where(s > 0, s, 1.0)[:, None]                      # (k, d)
    return _signed_coordinates(a, lam, vt, total, k)


def _signed_coordinates(a: np.ndarray, lam: np.ndarray, vt: np.ndarray, total: float, k: int):
    """(coordinates (n, k) float32, variance fractions (k,)) of the centred rows a (n, d) on the
    components vt (kk, d) with eigenvalues lam (kk,), padded with zeros to k."""
    kk = lam.size
    sign = np.sign(vt[np.arange(kk), np.abs(vt).argmax(axis=1)])               # (kk,)
    sign[sign == 0] = 1.0
    coords = (a @ vt.T) * sign                                                 # (n, kk) = U S, signed
    var = np.clip(lam, 0.0, None) / total if total > 0 else np.zeros(kk)
    if kk < k:
        coords = np.pad(coords, ((0, 0), (0, k - kk)))
        var = np.pad(var, (0, k - kk))
    return coords.astype(np.float32), var
