"""Small fitting tools shared by the PE and RoPE checks: the peak, least-squares scale, largest
residual, golden-section search, row samples, snapping a fitted base to a round number."""

from __future__ import annotations

import math

import numpy as np

GOLDEN = (math.sqrt(5) - 1) / 2


def peak_abs(x: np.ndarray) -> float:
    """max |x| without a table-sized temporary."""
    return float(max(x.max(), -x.min()))


def lsq_scale(x: np.ndarray, t: np.ndarray) -> float:
    """The least-squares scale s of x ~ s * t (0 when t is all zero); no temporaries."""
    tt = float(np.vdot(t, t))
    return float(np.vdot(x, t)) / tt if tt > 0 else 0.0


RESIDUAL_ROWS = 64      # rows per pass of max_residual: a 2 MB buffer at d = 4096, not the table's 128 MB


def max_residual(x: np.ndarray, t: np.ndarray, s: float) -> float:
    """max |x - s t| over all entries, a block of rows at a time into one small buffer (a fresh
    table-sized array is first touched page by page: ~2 s for 128 MB on our CI machines)."""
    out = 0.0
    if x.size == 0:
        return out
    buf = np.empty((min(RESIDUAL_ROWS, len(x)), x.shape[1]))
    for r0 in range(0, len(x), RESIDUAL_ROWS):
        r = buf[:len(x[r0:r0 + RESIDUAL_ROWS])]
        np.multiply(t[r0:r0 + RESIDUAL_ROWS], s, out=r)
        r -= x[r0:r0 + RESIDUAL_ROWS]                               # -(x - s t), exactly
        out = max(out, float(r.max()), -float(r.min()))
    return out


def scaled_sse(x: np.ndarray, t: np.ndarray, mask: np.ndarray | None) -> tuple[float, float]:
    """(scale, sum of squared residuals) of x ~ scale * t over mask (least squares in the scale)."""
    if mask is not None:
        x, t = x[mask], t[mask]
    scale = lsq_scale(x, t)
    r = x - scale * t
    return scale, float(np.vdot(r, r))


def golden_min(f, lo: float, hi: float, iters: int = 40) -> float:
    """argmin of f on [lo, hi] by golden-section search (f unimodal near its minimum)."""
    a, b = lo, hi
    c, d = b - GOLDEN * (b - a), a + GOLDEN * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(iters):
        if fc <= fd:
            b, d, fd = d, c, fc
            c = b - GOLDEN * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + GOLDEN * (b - a)
            fd = f(d)
    return c if fc <= fd else d


def sample_rows(n_rows: int, first: int, spread: int) -> np.ndarray:
    """Sorted unique row indices: the first `first` rows and `spread` rows spaced over all of them."""
    head = np.arange(min(n_rows, first))
    tail = np.linspace(0, n_rows - 1, min(n_rows, spread)).round().astype(int)
    return np.unique(np.concatenate([head, tail]))


def snap(value: float, error_of, tol: float) -> float:
    """The roundest number near `value` whose error_of() stays within tol and not far above the
    fitted value's (a base of 10000 is reported as 10000, not 9999.9997)."""
    from explorer.backend.diagnose.result import nice_number

    best = error_of(value)
    for candidate in nice_number(value):
        err = error_of(candidate)
        if err <= max(tol, best * 1.5 + tol * 0.1):
            return candidate
    return value


def wrap(angle: np.ndarray) -> np.ndarray:
    """Angles wrapped into (-pi, pi]."""
    return np.pi - np.mod(np.pi - angle, 2 * np.pi)


def log_slope(k: np.ndarray, log_w: np.ndarray, intercept: bool) -> tuple[float, float]:
    """(slope, intercept) of log_w ~ intercept + slope * k by least squares (intercept 0 if not asked)."""
    if intercept and len(k) >= 2:
        slope, icpt = np.polyfit(k.astype(float), log_w, 1)
        return float(slope), float(icpt)
    den = float(np.dot(k, k))
    return (float(np.dot(k, log_w)) / den if den else 0.0), 0.0
