"""A quick test that a table is nothing like a sinusoidal table the PE check knows, before fitting it.

Every column of every spec (pe_models) is s * sin(p w + phi) or zero, and a sinusoid obeys
    x(p+1) + x(p-1) = lam * x(p),   lam = 2 cos w in [-2, 2].
Two rows p, q of one column bound the best lam's miss from below: no lam does better than
    |a_p b_q - a_q b_p| / (|b_p| + |b_q|)      (a = x(p+1) + x(p-1), b = x(p)),
nor, with |lam| <= 2, better than |a_p| - 2 |b_p|. A reading is turned away when fewer than a
quarter of its columns keep the recurrence within peak / 4 (peak = max |x|) on 9 in 10 of the
pairs of triples of their first L/4 rows (at most 64).

It is never a reading the check would accept. Such a table is within tol of a spec on every
entry it compares, so each of those triples misses by at most 4 tol (tol + tol + |lam| tol), and
so do all its pairs. The check leaves out angles |p w| above ANGLE_CAP and needs at least half of
the entries; the angle grows with p, so at least 1/3 of the columns are compared on their first
L/4 rows (a column compared on fewer than L/4 of its rows counts at most 1/4). tol is tolerance(s, dtype, ANGLE_CAP)
at most, and |s| <= peak / (0.9 - c) with c = tol / |s|: every spec has a column with w = 1 (sin
or cos of p + start) that reaches |t| >= 0.9 in its first four rows (sin 2, cos 0 or cos 3), and
in over a quarter of all rows. So 4 tol <= 4 c peak / (0.9 - c), within peak / 4 for float32,
float16 and bfloat16 (c <= 0.043); float8 tables are never turned away. Triples with a zero are
left out, and a table with more than 2% zeros is never turned away: the check then also compares
only its nonzero entries (dropout), where "half of the entries" no longer bounds the columns.

And its nearest convention would say nothing: a sinusoidal table with Gaussian noise of 3% of
its peak keeps nearly every column, and one with 12% over a quarter (their nearest conventions
are worth naming), while random tables and embeddings keep under a fifth of theirs. Only the
likelier reading of such a table is fitted: the second one took up to 88 s when its positions
became 32,768 channels.
"""

from __future__ import annotations

import numpy as np

from explorer.backend.diagnose.fitting import peak_abs
from explorer.backend.diagnose.pe_fit import ANGLE_CAP
from explorer.backend.diagnose.result import tolerance

MAX_ROWS = 64          # rows read: the first min(64, L // 4)
MIN_ROWS = 4           # two triples need four rows
KEPT_SHARE = 0.25      # below 1/3: the columns a match compares on the first L/4 rows
PEAK_OF_W1 = 0.9       # max |t| of the w = 1 column in rows 0..3, either start
NEAR_SHARE = 0.25      # of the peak: within it a column is near a sinusoid (noise of 3% is)
MAX_ZEROS = 0.02       # the share of zeros above which check_pe also fits the nonzero entries
PAIR_SHARE = 0.9       # a column's miss: the 90th percentile of its pairs' (the max grows with rows)


def recurrence_misses(x: np.ndarray, share: float = PAIR_SHARE) -> np.ndarray:
    """Per column, the `share` quantile (by rank) over its pairs of triples (rows p-1 .. p+2) of a
    lower bound on min over |lam| <= 2 of the larger of their two misses |x(p+1) + x(p-1) - lam x(p)|;
    a pair with a zero counts 0. x (n, d), n >= 4 -> (d,)."""
    prev, mid, nxt = x[:-2], x[1:-1], x[2:]                                   # (n-2, d)
    a, b = prev + nxt, mid
    whole = (prev != 0) & (mid != 0) & (nxt != 0)
    single = np.maximum(np.abs(a) - 2 * np.abs(b), 0.0)                       # (n-2, d)
    den = np.abs(b[:-1]) + np.abs(b[1:])                                      # (n-3, d)
    both = whole[:-1] & whole[1:] & (den > 0)
    pair = np.abs(a[:-1] * b[1:] - a[1:] * b[:-1]) / np.where(both, den, 1.0)
    bound = np.where(both, np.maximum(pair, np.maximum(single[:-1], single[1:])), 0.0)
    k = int(np.ceil(share * (len(bound) - 1)))
    return np.partition(bound, k, axis=0)[k]


def cannot_be_sinusoidal(x: np.ndarray, dtype: str, peak: float | None = None) -> bool:
    """True when x (L, d) is nothing like any spec of the PE check and cannot match one (see
    above); False when it may (or the table is too short to tell, or has many zeros). peak:
    max |x| when the caller has it."""
    n = min(MAX_ROWS, len(x) // 4)
    c = tolerance(1.0, dtype, ANGLE_CAP)                          # tol / |scale| (+ 1e-12)
    if c >= PEAK_OF_W1 or 4 * c / (PEAK_OF_W1 - c) > NEAR_SHARE:    # float8: a match may miss more
        return False
    if n < MIN_ROWS or x.shape[1] == 0 or x.size - np.count_nonzero(x) > MAX_ZEROS * x.size:
        return False
    limit = NEAR_SHARE * (peak_abs(x) if peak is None else peak)
    kept = np.count_nonzero(recurrence_misses(np.asarray(x[:n], dtype=np.float64)) <= limit)
    return kept < KEPT_SHARE * x.shape[1]
