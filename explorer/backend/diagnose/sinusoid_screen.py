"""A quick test that a table cannot be any sinusoidal table the PE check knows, before fitting it.

Every column of every spec (pe_models) is s * sin(p w + phi) or zero, and a sinusoid obeys
    x(p+1) + x(p-1) = lam * x(p),   lam = 2 cos w in [-2, 2].
A table the check would accept is within tol of such a table on every entry it compares, so each
of those triples misses the recurrence by at most 4 tol (tol + tol + |lam| tol). Two rows p, q of
one column bound the best lam from below: no lam does better than
    |a_p b_q - a_q b_p| / (|b_p| + |b_q|)      (a = x(p+1) + x(p-1), b = x(p)),
nor, with |lam| <= 2, better than |a_p| - 2 |b_p|.

Which entries are compared: the check leaves out angles |p w| above ANGLE_CAP and needs at least
half of the entries; the angle grows with p, so at least 1/3 of the columns are compared on
their first L/4 rows (a column compared on fewer than L/4 of its rows counts at most 1/4). A
table where fewer than a quarter of the columns keep the recurrence on those rows cannot be
accepted in this orientation, and its fit (minutes for 32,768 columns) is skipped.

tol is tolerance(scale, dtype, ANGLE_CAP) at most, and |s| <= peak / (0.9 - c) with c = tol / |s|
and peak = max |x|: every spec has a column with w = 1 (sin or cos of p + start) that reaches |t| >= 0.9 in its first four rows (sin 2, cos 0 or cos 3), and in over a
quarter of all rows. Zeros are left out (dropout zeroes entries; the check then compares only the
others).
"""

from __future__ import annotations

import numpy as np

from explorer.backend.diagnose.pe_table import ANGLE_CAP
from explorer.backend.diagnose.result import tolerance

MAX_ROWS = 64          # rows read: the first min(64, L // 4)
MIN_ROWS = 4           # two triples need four rows
KEPT_SHARE = 0.25      # below 1/3: the columns a match compares on the first L/4 rows
PEAK_OF_W1 = 0.9       # max |t| of the w = 1 column in rows 0..3, either start


def recurrence_misses(x: np.ndarray) -> np.ndarray:
    """Per column, a lower bound on min over |lam| <= 2 of max_p |x(p+1) + x(p-1) - lam x(p)|,
    over the triples without a zero; x (n, d) -> (d,)."""
    prev, mid, nxt = x[:-2], x[1:-1], x[2:]                                   # (n-2, d)
    a, b = prev + nxt, mid
    whole = (prev != 0) & (mid != 0) & (nxt != 0)
    single = np.where(whole, np.maximum(np.abs(a) - 2 * np.abs(b), 0.0), 0.0)
    den = np.abs(b[:-1]) + np.abs(b[1:])                                      # (n-3, d)
    both = whole[:-1] & whole[1:] & (den > 0)
    pair = np.abs(a[:-1] * b[1:] - a[1:] * b[:-1]) / np.where(both, den, 1.0)
    pair = np.where(both, pair, 0.0)
    return np.maximum(single.max(axis=0), pair.max(axis=0, initial=0.0))


def cannot_be_sinusoidal(x: np.ndarray, dtype: str) -> bool:
    """True when no spec of the PE check can match x (L, d) (see above); False when it may (or
    the table is too short to tell)."""
    n = min(MAX_ROWS, len(x) // 4)
    c = tolerance(1.0, dtype, ANGLE_CAP)                          # tol / |scale| (+ 1e-12)
    if n < MIN_ROWS or x.shape[1] == 0 or c >= PEAK_OF_W1 / 2:    # float8: anything may match
        return False
    peak = max(float(x.max()), -float(x.min()))                    # no table-sized temporary
    limit = 4 * tolerance(peak / (PEAK_OF_W1 - c), dtype, ANGLE_CAP)
    kept = np.count_nonzero(recurrence_misses(np.asarray(x[:n], dtype=np.float64)) <= limit)
    return kept < KEPT_SHARE * x.shape[1]
