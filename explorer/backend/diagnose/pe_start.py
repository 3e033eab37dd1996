"""The first position of a sinusoidal table that starts past 1, read from its row 0. No Qt.

Row 0 of PE from position p0 holds sin(p0 w_i) and cos(p0 w_i) for each frequency w_i, so its phases are
theta_i = atan2(sin, cos) = p0 w_i mod 2 pi. The slowest frequency w_L pins p0 to theta_L / w_L + k 2 pi / w_L;
the other pairs choose k (the right whole p0 fits every phase at once, a wrong k leaves them scattered). A
negative scale turns every phase by pi. The fit had tried positions from 0 and 1 only, so a slice of a longer
table (rows 5 .. 68, a later chunk's positions) read as "matches no known convention".
"""

from __future__ import annotations

import math

import numpy as np

from explorer.backend.diagnose.pe_models import SIN, Spec, column_plan
from explorer.backend.encodings import channel_counts, channel_layout

MAX_START = 2 ** 31          # first positions looked for: below this
MAX_CANDIDATES = 1 << 16     # values of k tried at most (base 10, d = 128: 2 pi / w_L ~ 60 positions, 3.9 M in all)
CHECK_PAIRS = 6              # the pairs that choose k, spread over the frequencies
PHASE_FIT = 1e-3             # mean 1 - cos(phase misfit) over them for a start to be proposed
PRUNE = 0.02                 # 1 - cos(misfit) of the fastest of them that keeps a k for the others (~1 in 16)


def start_guess(x: np.ndarray, mask: np.ndarray | None, spec: Spec, base: float) -> int | None:
    """p0 >= 2 when row 0 of x (L, d) reads as spec's table from position p0 at `base`, else None. Only specs
    whose pairs hold one frequency's sine and cosine (the 2i law, falling, right or swapped) have phases."""
    if spec.law != "2i" or spec.assign not in ("sincos", "swapped") or spec.sign > 0 or len(x) == 0:
        return None
    d = x.shape[1]
    w, kind = column_plan(spec, d, base)                                      # (d,) each
    sin_cols, cos_cols = channel_layout(d, spec.layout)
    n = channel_counts(d, spec.layout)[1]
    columns = np.arange(d)
    a, b = columns[sin_cols][:n], columns[cos_cols]                           # (n,) the pairs' columns
    s_col, c_col = np.where(kind[a] == SIN, a, b), np.where(kind[a] == SIN, b, a)
    row = np.asarray(x[0], np.float64)
    sin, cos = row[s_col], row[c_col]
    ok = np.isfinite(sin) & np.isfinite(cos) & (np.hypot(sin, cos) > 0) & (w[s_col] > 0)
    if mask is not None:
        ok &= mask[0, s_col] & mask[0, c_col]
    freq, theta = w[s_col][ok], np.arctan2(sin[ok], cos[ok])                  # (m,) each
    if len(np.unique(freq)) < 2:
        return None                               # one frequency: any of many positions fits it
    order = np.argsort(freq)
    freq, theta = freq[order], theta[order]
    period = 2 * math.pi / freq[0]
    count = int(min(MAX_CANDIDATES, math.ceil(MAX_START / period)))
    pick = np.unique(np.linspace(1, len(freq) - 1, min(CHECK_PAIRS, len(freq) - 1)).astype(int))
    best = None
    for flip in (0.0, math.pi):
        p = np.rint(np.mod(theta[0] + flip, 2 * math.pi) / freq[0] + np.arange(count) * period)   # (K,)
        p = p[1.0 - np.cos(p * freq[pick[-1]] - (theta[pick[-1]] + flip)) < PRUNE]   # the fastest pair first
        misfit = 1.0 - np.cos(np.outer(p, freq[pick]) - (theta[pick] + flip))                  # (K', pairs)
        score = misfit.mean(axis=1)
        i = int(np.argmin(score)) if len(score) else 0
        if len(score) and score[i] < PHASE_FIT and (best is None or score[i] < best[0]):
            best = (float(score[i]), int(p[i]))
    return best[1] if best is not None and best[1] >= 2 else None
