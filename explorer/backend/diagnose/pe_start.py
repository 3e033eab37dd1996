"""The first position of a sinusoidal table or a RoPE cache that starts past 1, read from its first rows. No Qt.

Row 0 of PE from position p0 holds sin(p0 w_i) and cos(p0 w_i) for each frequency w_i, so its phases are
theta_i = atan2(sin, cos) = p0 w_i mod 2 pi. The slowest frequency w_L pins p0 to theta_L / w_L + k 2 pi / w_L;
the faster pairs refine each candidate and choose k (the right whole p0 fits every phase at once, a wrong k
leaves them scattered). A negative scale turns every phase by pi. A RoPE cache row holds only the cosines
(or sines): the next row gives the other part. The fits had tried positions from 0 and 1 only, so a slice
of a longer table (rows 5 .. 68, a later chunk's positions) read as "matches no known convention".
"""

from __future__ import annotations

import math

import numpy as np

from explorer.backend.diagnose.pe_models import SIN, Spec, column_plan
from explorer.backend.encodings import channel_counts, channel_layout

MAX_START = 2 ** 31          # first positions looked for: below this
MAX_CANDIDATES = 1 << 16     # values of k tried at most (base 10, d = 128: 2 pi / w_L ~ 60 positions, 3.9 M in all)
CHECK_PAIRS = 6              # pairs spread over the frequencies that score each candidate (beside the chain's)
PHASE_FIT = 1e-3             # mean 1 - cos(phase misfit) over them for a start to be proposed
ANGLE_CAP = 2.0 ** 15        # past this angle |p w| a float32 table is noise (pe_fit._checkable)


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
    return start_of_phases(w[s_col][ok], np.arctan2(sin[ok], cos[ok]))


def cache_start_guess(u: np.ndarray, func: str, base: float) -> int | None:
    """p0 >= 2 when the distinct columns u (L, h) of a RoPE cache read as func(p theta_k) from position p0 at
    `base` (theta_k = base^(-k/h)), else None. One row holds only cos (or sin) of each phase: the next row gives
    the other, cos((p0 + 1) theta) = cos(p0 theta) cos(theta) - sin(p0 theta) sin(theta) (sin: the same turned).
    None too where more than half of the angles (p0 + L - 1) theta pass ANGLE_CAP, as a PE table's fit cannot be
    checked there: the tolerance grows with the angle, and an all-ones 8 x 8 table had read as a cache from
    position 20,791,688 within a tolerance of 7."""
    n, h = u.shape
    if n < 2 or h < 2:
        return None
    theta = np.exp(-np.arange(h) * math.log(base) / h)                         # (h,)
    first, second = np.asarray(u[0], np.float64), np.asarray(u[1], np.float64)
    c, s = np.cos(theta), np.sin(theta)
    with np.errstate(divide="ignore", invalid="ignore"):
        if func == "cos":
            cos, sin = first, (first * c - second) / s
        else:
            sin, cos = first, (second - first * c) / s
    ok = np.isfinite(sin) & np.isfinite(cos) & (s > 1e-3) & (np.hypot(sin, cos) > 0)
    start = start_of_phases(theta[ok], np.arctan2(sin[ok], cos[ok]))
    if start is None or np.mean((start + n - 1) * theta <= ANGLE_CAP) < 0.5:
        return None        # most angles past ANGLE_CAP: its tolerance, growing with p0, let all of [-1, 1] fit
    return start


def start_of_phases(freq: np.ndarray, theta: np.ndarray) -> int | None:
    """The whole p0 >= 2 with p0 freq_i = theta_i (mod 2 pi) for every i (or every theta_i + pi: a negative
    scale), when one fits; None for fewer than two distinct frequencies or no fit. freq, theta: (m,) each.
    Each candidate from the slowest pair is refined up a chain of pairs, each at most twice as fast as the one
    before, so that a phase off by a little (a float32 cache far out: ~0.01 rad) moves p0 by less than the next
    pair's half turn; the candidates are then scored on the chain and on pairs spread over the rest."""
    freq, first = np.unique(freq, return_index=True)                      # ascending, distinct
    theta = theta[first]
    if len(freq) < 2:
        return None                               # one frequency: any of many positions fits it
    chain = [0]
    while chain[-1] < len(freq) - 1:
        reach = int(np.searchsorted(freq, 2.0 * freq[chain[-1]], side="right")) - 1
        chain.append(max(reach, chain[-1] + 1))
    spread = np.linspace(1, len(freq) - 1, min(CHECK_PAIRS, len(freq) - 1)).astype(int)
    scored = np.unique(np.r_[chain, spread])
    period = 2 * math.pi / freq[0]
    count = int(min(MAX_CANDIDATES, math.ceil(MAX_START / period)))
    best = None
    for flip in (0.0, math.pi):
        p = np.mod(theta[0] + flip, 2 * math.pi) / freq[0] + np.arange(count) * period          # (K,)
        for j in chain[1:]:
            p += (np.mod(theta[j] + flip - p * freq[j] + math.pi, 2 * math.pi) - math.pi) / freq[j]
        p = np.rint(p)
        score = (1.0 - np.cos(np.outer(p, freq[scored]) - (theta[scored] + flip))).mean(axis=1)   # (K,)
        i = int(np.argmin(score))
        if score[i] < PHASE_FIT and (best is None or score[i] < best[0]):
            best = (float(score[i]), int(p[i]))
    return best[1] if best is not None and best[1] >= 2 else None
