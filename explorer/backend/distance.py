"""One chart: how much each position scheme changes the attention score with the distance k.

Raw curves (normalise=False), k = 0 .. max_dist:
  sinusoidal  PE(0) . PE(k) = sum_i cos(k w_i) (the PE-PE term of q.k with identity projections)
  rope        q(m) . k(m - k) for all-ones q, k (head_dim, rope_base) = 2 sum_i cos(k theta_i)
  alibi       the bias -m_h k of the chosen head h of `heads`
  learned     mean over p of cos-sim(P[p], P[p+k]) of a learned table P (L, D) (or the mean dot
              product with learned_metric="dot"); k stops at L - 1. Left out without a table.
  none        0: without positions the score does not depend on k
Normalised (default), so every curve is 1 at k = 0 and at most 1:
  sinusoidal, rope, learned (dot)   divided by their k = 0 value (cosine-like, in [-1, 1])
  learned (cosine)                  already 1 at k = 0
  alibi                             exp(-m_h k): the factor ALiBi multiplies a softmax weight by,
                                    relative to distance 0 (in (0, 1])
  none                              1
"""

from __future__ import annotations

import numpy as np

from explorer.backend.alibi import slopes
from explorer.backend.budget import check_budget
from explorer.backend.encodings import check_args
from explorer.backend.rope import rope_frequencies
from explorer.backend.similarity import cos_sum, split_frequencies
from explorer.errors import require

NAMES = ("sinusoidal", "rope", "alibi", "learned", "none")
LEARNED_METRICS = ("cosine", "dot")


def _whole(name: str, value, lo: int, hi: int) -> int:
    ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    require(ok and lo <= value <= hi,
            "%1 must be a whole number between %2 and %3, not %4", name, lo, f"{hi:,}", repr(value))
    return int(value)


def learned_vs_distance(table, ks, metric: str = "cosine") -> np.ndarray:
    """Mean over p of cos-sim (or dot) of rows p and p + k of `table` (L, D), for each k < L; (K,)."""
    require(metric in LEARNED_METRICS,
            "learned_metric must be one of %1, not %2", ", ".join(LEARNED_METRICS), repr(metric))
    p = np.asarray(table, dtype=np.float64)
    require(p.ndim == 2 and p.shape[0] >= 2 and p.shape[1] >= 1,
            "the learned position table must be 2-d with at least 2 rows, not shape %1", p.shape)
    require(bool(np.all(np.isfinite(p))), "the learned position table holds NaN or infinite values")
    if metric == "cosine":
        norms = np.linalg.norm(p, axis=1, keepdims=True)                      # (L, 1)
        p = p / np.where(norms > 0, norms, 1.0)
    g = p @ p.T                                                               # (L, L)
    n = len(g)
    flat = g.ravel()
    # the k-th superdiagonal of a square (n, n) matrix is flat[k :: n + 1][: n - k]
    return np.array([flat[k:: n + 1][: n - k].mean() for k in np.asarray(ks, dtype=int)])


def distance_chart(max_dist: int = 512, d_model: int = 128, base: float = 10000.0,
                   head_dim: int = 64, rope_base: float = 10000.0, heads: int = 8,
                   alibi_head: int = 0, learned=None, learned_metric: str = "cosine",
                   normalise: bool = True, max_points: int | None = None) -> dict:
    """name -> (k, y), float64 arrays; see the module doc for what each curve is and its scale.

    max_points: sample k on a stride so at most that many points per curve (values at the sampled
    k are exact; a fast oscillation can alias). 'learned' is present only when a table is given.
    """
    max_dist = _whole("max_dist", max_dist, 0, 10_000_000)
    check_args(d_model, base, "interleaved")
    heads = _whole("the number of heads", heads, 1, 1024)
    alibi_head = _whole("the ALiBi head", alibi_head, 0, heads - 1)
    require(isinstance(normalise, bool), "normalise must be true or false")
    stride = 1
    if max_points is not None:
        stride = -(-(max_dist + 1) // _whole("max_points", max_points, 2, 10_000_000))
    check_budget(-(-(max_dist + 1) // stride) * 12, 8, "curves over %1 distances", f"{max_dist + 1:,}")
    ks = np.arange(0, max_dist + 1, stride)                                   # (K,)

    w, _ = split_frequencies(d_model, base, "interleaved")   # PE(0)'s unpaired sine is 0
    sinus = cos_sum(0.0, float(stride), len(ks), w)                           # (K,)
    theta = rope_frequencies(head_dim, rope_base)
    rope = 2.0 * cos_sum(0.0, float(stride), len(ks), theta)                  # (K,)
    m = float(slopes(heads)[alibi_head])
    out = {}
    if normalise:
        out["sinusoidal"] = (ks, sinus / max(len(w), 1))
        out["rope"] = (ks, rope / (2.0 * len(theta)))
        out["alibi"] = (ks, np.exp(-m * ks))
    else:
        out["sinusoidal"] = (ks, sinus)
        out["rope"] = (ks, rope)
        out["alibi"] = (ks, 0.0 - m * ks)
    if learned is not None:
        n_rows = np.shape(learned)[0] if np.ndim(learned) == 2 else 0
        lk = ks[ks < n_rows]
        y = learned_vs_distance(learned, lk, learned_metric)
        if normalise and learned_metric == "dot" and len(y) and y[0] != 0:
            y = y / y[0]
        out["learned"] = (lk, y)
    out["none"] = (ks, np.full(len(ks), 1.0 if normalise else 0.0))
    return out
