"""ALiBi (Press et al., 2022): no position vectors; each head adds -slope * distance to its scores.

Slopes for n heads, n a power of 2: the geometric sequence 2^(-8/n), 2^(-16/n), ..., 2^(-8)
(8 heads: 1/2, 1/4, ..., 1/256). Otherwise (rule of the authors' code): take the slopes of the
largest power of 2 below n, then the first n - that many of every other slope of twice that power
(the odd-numbered ones, which fall in between the first set).
"""

from __future__ import annotations

import math

import numpy as np

from explorer.backend.budget import check_budget
from explorer.errors import require

MAX_HEADS = 1024


def _whole(name: str, value, lo: int, hi: int) -> int:
    ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    require(ok and lo <= value <= hi, "%1 must be a whole number between %2 and %3, not %4", name, lo, f"{hi:,}",
                                      repr(value))
    return int(value)


def _power_of_2_slopes(n: int) -> np.ndarray:
    """2^(-8 (h+1) / n) for h < n; (n,)."""
    return 2.0 ** (-8.0 * np.arange(1, n + 1) / n)


def power_of_2_below(heads: int) -> int:
    """The largest power of 2 <= heads (heads >= 1): the heads whose slopes form one geometric sequence."""
    return 2 ** int(math.floor(math.log2(heads)))


def slopes(heads: int) -> np.ndarray:
    """The per-head slope m_h; (heads,) float64, decreasing."""
    heads = _whole("the number of heads", heads, 1, MAX_HEADS)
    low = power_of_2_below(heads)
    if low == heads:
        return _power_of_2_slopes(heads)
    extra = _power_of_2_slopes(2 * low)[0::2][: heads - low]
    return np.concatenate([_power_of_2_slopes(low), extra])


def bias(heads: int, max_len: int, causal: bool = False) -> np.ndarray:
    """(H, N, N) float64: B[h, i, j] = -m_h |i - j| (query i, key j).

    causal=True: -m_h (i - j) for j <= i and -inf for j > i (keys after the query are masked).
    The authors' causal code adds m_h j instead, which differs per row by a constant that the
    softmax cancels; this form shows the distance penalty itself.
    """
    heads = _whole("the number of heads", heads, 1, MAX_HEADS)
    max_len = _whole("max_len", max_len, 1, 10_000_000)
    check_budget(heads * max_len * max_len + max_len * max_len, 8,
                 "a %1 x %2 x %2 ALiBi bias tensor", heads, max_len)
    return _bias_at(heads, np.arange(max_len), causal)


def _bias_at(heads: int, pos: np.ndarray, causal: bool) -> np.ndarray:
    """-m_h |pos_i - pos_j| (-inf above the diagonal if causal); (H, n, n)."""
    dist = (pos[:, None] - pos[None, :]).astype(np.float64)                  # (n, n) i - j
    out = slopes(heads)[:, None, None] * np.abs(dist)[None]                  # (H, n, n)
    np.subtract(0.0, out, out=out)  # 0 - x, not -x: the diagonal is +0.0, not -0.0
    if causal:
        out[:, dist < 0] = -np.inf
    return out


def bias_strided(heads: int, max_len: int, max_rows: int = 512, causal: bool = False
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(positions, B at those positions): exact values on an evenly strided grid of <= max_rows.

    The bias is linear in the distance, so the strided image is the full one, sampled.
    Shapes: (rows,), (H, rows, rows).
    """
    heads = _whole("the number of heads", heads, 1, MAX_HEADS)
    max_len = _whole("max_len", max_len, 1, 10_000_000)
    max_rows = _whole("max_rows", max_rows, 1, 100_000)
    pos = np.arange(0, max_len, -(-max_len // max_rows))                     # (rows,)
    check_budget(heads * len(pos) ** 2 + len(pos) ** 2, 8, "a %1 x %2^2 ALiBi image", heads, len(pos))
    return pos, _bias_at(heads, pos, causal)


def bias_vs_distance(heads: int, max_dist: int) -> tuple[np.ndarray, np.ndarray]:
    """(k, -m_h k): k = 0 .. max_dist, bias per head; shapes (K,), (H, K)."""
    max_dist = _whole("max_dist", max_dist, 0, 10_000_000)
    k = np.arange(max_dist + 1)
    return k, 0.0 - slopes(heads)[:, None] * k[None, :]
