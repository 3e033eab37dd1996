"""Position similarity of sinusoidal PE: dot product and cosine, by closed form.

For each paired frequency, sin(pw)sin(qw) + cos(pw)cos(qw) = cos((p-q)w), so the paired part of
S = PE @ PE.T depends only on the offset k = p - q:  f(k) = sum_i cos(k w_i)  (Toeplitz).
An odd d_model's unpaired sine adds the rank-one term sin(pw)sin(qw) (interleaved/concat only).
The matmul stays as the check (`similarity_matmul`).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from explorer.backend.budget import check_budget
from explorer.backend.encodings import box_factor, channel_counts, frequencies, sinusoidal_pe
from explorer.backend.unit_rows import FLOAT32_ANGLES_BELOW, TWO_PI, angles32, unit_rows
from explorer.errors import msg

METRICS = ("dot", "cosine")


def split_frequencies(d_model: int, base: float, layout: str) -> tuple[np.ndarray, float | None]:
    """(paired w_i, unpaired w or None): which frequencies have both a sine and a cosine."""
    w = frequencies(d_model, base, layout)
    n_sin, n_pair = channel_counts(d_model, layout)
    unpaired = float(w[n_pair]) if n_sin > n_pair else None
    return w[:n_pair], unpaired


def cos_sum(start: float, step: float, count: int, w: np.ndarray, weight: np.ndarray | None = None,
            dtype=np.float64) -> np.ndarray:
    """g[j] = sum_i weight_i cos((start + j step) w_i) for j < count; shape (count,).

    Blocked angle addition, cos(A + B) = cos A cos B - sin A sin B, turns the count x len(w)
    cosines into a (blocks x 2h) @ (2h x block) matmul: ~2 sqrt(count) h trig calls.
    """
    w = np.asarray(w, dtype=np.float64)
    if count <= 0:
        return np.zeros(0)
    if len(w) == 0:
        return np.zeros(count)
    a = np.ones_like(w) if weight is None else np.asarray(weight, dtype=np.float64)
    block = max(1, int(np.sqrt(count)))
    n_blocks = -(-count // block)
    if dtype == np.float64:   # float64 trig is scalar here: e^{i angle} rows by doubling
        outer = unit_rows(start, block * step, n_blocks, w)                      # (B, h)
        inner = unit_rows(0.0, step, block, w)                                   # (J, h)
        cos_o, sin_o, cos_i, sin_i = outer.real, outer.imag, inner.real, inner.imag
    else:                     # float32 trig is SIMD: on the float64 angle rounded (whole turns off first)
        outer = _angles(start + np.arange(n_blocks) * block * step, w, dtype)   # (B, h)
        inner = _angles(np.arange(block) * step, w, dtype)                       # (J, h)
        cos_o, sin_o, cos_i, sin_i = np.cos(outer), np.sin(outer), np.cos(inner), np.sin(inner)
    a = a.astype(dtype)
    left = np.concatenate([cos_o * a, -sin_o * a], axis=1)                       # (B, 2h)
    right = np.concatenate([cos_i, sin_i], axis=1).T                             # (2h, J)
    return (left @ right).reshape(-1)[:count].astype(np.float64)


def _angles(pos: np.ndarray, w: np.ndarray, dtype) -> np.ndarray:
    """pos x w rounded to dtype; (len(pos), len(w)). Past FLOAT32_ANGLES_BELOW whole turns are taken off in
    float64 first (angles32): a float32 angle near 10^7 is off by ~0.5 rad (an offset that far apart drew
    dot products off by 0.48 at d = 64), and numpy's float32 sin leaves its SIMD path past ~10^5 (~8x slower)."""
    if np.abs(pos).max(initial=0.0) * np.abs(w).max(initial=0.0) <= FLOAT32_ANGLES_BELOW:
        return np.multiply.outer(pos, w).astype(dtype)
    return angles32(pos, w / TWO_PI).astype(dtype, copy=False)


def offset_profile(max_offset: int, d_model: int, base: float = 10000.0,
                   layout: str = "interleaved") -> np.ndarray:
    """f(k) = sum over paired channels of cos(k w_i) for k = 0 .. max_offset; (max_offset+1,)."""
    w, _ = split_frequencies(d_model, base, layout)
    return cos_sum(0.0, 1.0, max_offset + 1, w)


def offset_profile_blocks(start: float, step: float, count: int, d_model: int, base: float,
                          layout: str) -> np.ndarray:
    """Mean of f(k) over `count` blocks of `step` offsets from `start`; (count,)."""
    w, _ = split_frequencies(d_model, base, layout)
    return cos_sum(start + (step - 1) / 2, step, count, w, box_factor(w, step))


def similarity_blocks(row0: float, col0: float, step: float, rows: int, cols: int, d_model: int,
                      base: float, layout: str, metric: str = "dot", dtype=np.float64,
                      out_dtype=np.float64) -> np.ndarray:
    """Block means of S over a (rows x cols) grid of step x step blocks; (rows, cols) out_dtype.

    Exact for step 1. Mean of cos((p-q)w) over a block = cos((c_p - c_q) w) * box(w)^2, so the
    Toeplitz part needs only rows + cols - 1 values of a weighted offset profile. dtype=float32 is
    the screen path (trig and matmul in float32, angles reduced to one turn in float64 past 2^15 rad:
    ~1e-5 relative at any offset, invisible in a colour map).
    out_dtype=float32 gives the float64 result rounded, bit for bit, without a float64 matrix
    when d_model is even (the profile is rounded before it is laid out).
    """
    w, w_odd = split_frequencies(d_model, base, layout)
    if w_odd is not None and len(w) == 0 and metric == "cosine" and step > 1:
        # d_model 1: the cosine of two 1-wide rows is sign(PE(p)) sign(PE(q)), so a block's mean is
        # the product of its row's and its column's sign means (exact). The means of the rows
        # themselves, below, would give sign(mean) sign(mean): a saturated +-1 pattern
        rows_mean = sign_means(float(row0), int(step), rows, w_odd)
        cols_mean = (rows_mean if (col0, cols) == (row0, rows)
                     else sign_means(float(col0), int(step), cols, w_odd))
        return np.multiply.outer(rows_mean, cols_mean).astype(out_dtype)
    box = box_factor(w, step)
    # offsets between block centres: (row0 - col0) + (r - c) step, r - c from -(cols-1) to rows-1
    g = cos_sum(row0 - col0 - (cols - 1) * step, step, rows + cols - 1, w, box * box, dtype)
    if w_odd is None:
        if metric == "cosine":
            g /= len(w) if len(w) else np.inf  # every row has squared norm h; d=0 pairs -> 0
        return _toeplitz(g.astype(out_dtype, copy=False), cols)
    s = _toeplitz(g, cols)
    f = box_factor(np.array([w_odd]), step)[0]
    u = np.sin((row0 + np.arange(rows) * step + (step - 1) / 2) * w_odd) * f       # (rows,)
    v = np.sin((col0 + np.arange(cols) * step + (step - 1) / 2) * w_odd) * f       # (cols,)
    s += u[:, None] * v[None, :]
    if metric == "cosine":
        s /= _safe_sqrt_outer(len(w) + u * u, len(w) + v * v)
    return s.astype(out_dtype, copy=False)


SIGN_CHUNK = 1 << 20     # positions per pass of sign_means (8 MB of float64)


@lru_cache(maxsize=4)
def sign_means(start: float, step: int, count: int, w: float) -> np.ndarray:
    """Means of sign(sin(p w)) over `count` blocks of `step` positions p from `start`; (count,),
    read-only. O(count x step) sines, a chunk at a time; cached (at d_model 1, w = 1 for every
    base: only max_len and the window move it)."""
    out = np.empty(count)
    per = max(1, SIGN_CHUNK // step)
    for b0 in range(0, count, per):
        b1 = min(count, b0 + per)
        p = start + np.arange(b0 * step, b1 * step, dtype=np.float64)
        out[b0:b1] = np.sign(np.sin(p * w)).reshape(b1 - b0, step).mean(axis=1)
    out.setflags(write=False)
    return out


def cosine_block_means(row_step: int, col_step: int, rows: int, cols: int, d_model: int, base: float,
                       layout: str) -> np.ndarray | None:
    """Means of the cosine matrix over row_step x col_step blocks from position 0; (rows, cols)
    float32, or None when an unpaired sine (odd d_model) makes it depend on more than p - q.

    Block (r, c)'s mean of cos((p - q) w) is cos((a_r - b_c) w) box(w, row_step) box(w, col_step)
    at the block centres a_r = r row_step + (row_step - 1)/2, b_c = c col_step + (col_step - 1)/2.
    With g = gcd(row_step, col_step), a_r - b_c = g (P r - Q c) + (row_step - col_step)/2
    (P = row_step/g, Q = col_step/g): one profile of P (rows - 1) + Q (cols - 1) + 1 offsets,
    gathered. Unequal steps (a panel wider than tall) are the usual case, and not Toeplitz.
    """
    w, w_odd = split_frequencies(d_model, base, layout)
    if w_odd is not None or len(w) == 0:
        return None
    g = np.gcd(row_step, col_step)
    p_step, q_step = row_step // g, col_step // g
    weight = box_factor(w, row_step) * box_factor(w, col_step) / len(w)          # (h,)
    count = p_step * (rows - 1) + q_step * (cols - 1) + 1
    start = (row_step - col_step) / 2 - g * q_step * (cols - 1)
    profile = cos_sum(start, g, count, w, weight).astype(np.float32)              # (count,)
    index = (p_step * np.arange(rows))[:, None] + (q_step * (cols - 1 - np.arange(cols)))[None, :]
    return profile[index]                                                         # (rows, cols)


def _toeplitz(g: np.ndarray, cols: int, copy: bool = True) -> np.ndarray:
    """s[r, c] = g[r - c + cols - 1]: a Toeplitz view of g, reversed so rows step forwards, copied
    (copy=False: the read-only view itself); (len(g) - cols + 1, cols)."""
    view = np.lib.stride_tricks.sliding_window_view(g, cols)[:, ::-1]
    return view.copy() if copy else view


def _safe_sqrt_outer(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """sqrt(a_i b_j), with inf where a row has zero norm (so its cosine is shown as 0)."""
    prod = np.sqrt(np.outer(a, b))
    return np.where(prod > 0, prod, np.inf)


def similarity_matrix(max_len: int, d_model: int, base: float = 10000.0,
                      layout: str = "interleaved", metric: str = "dot",
                      out_dtype=np.float64) -> np.ndarray:
    """Full (max_len, max_len) similarity by closed form (float64, or it rounded to out_dtype)."""
    check_budget(int(max_len * max_len * 1.5), 8, "a %1 x %1 similarity matrix", max_len,
                 advice=msg("choose a smaller max_len"))          # d_model does not size it
    return similarity_blocks(0, 0, 1, max_len, max_len, d_model, base, layout, metric,
                             out_dtype=out_dtype)


def cosine_matrix_view(max_len: int, d_model: int, base: float = 10000.0,
                       layout: str = "interleaved") -> np.ndarray:
    """similarity_matrix(..., "cosine", np.float32), value for value, as a read-only strided view of
    its 2 max_len - 1 offsets f(p - q) / h: no (max_len, max_len) array is written (2048 x 2048:
    16 MB, ~2 ms a base step). The matrix itself where an unpaired sine breaks the Toeplitz form."""
    w, w_odd = split_frequencies(d_model, base, layout)
    if w_odd is not None or len(w) == 0:
        matrix = similarity_matrix(max_len, d_model, base, layout, "cosine", np.float32)
        matrix.setflags(write=False)
        return matrix
    g = cos_sum(1.0 - max_len, 1.0, 2 * max_len - 1, w, np.ones_like(w)) / len(w)     # (2n - 1,)
    return _toeplitz(g.astype(np.float32), max_len, copy=False)


def similarity_matmul(max_len: int, d_model: int, base: float = 10000.0,
                      layout: str = "interleaved", metric: str = "dot",
                      dtype: str = "float64") -> np.ndarray:
    """The textbook path: PE @ PE.T (and row norms for cosine); the check for the closed form."""
    check_budget(max_len * (max_len + d_model), 8, "a %1 x %1 similarity matrix", max_len)
    return rows_similarity(sinusoidal_pe(max_len, d_model, base, layout, dtype), metric)


def rows_similarity(rows: np.ndarray, metric: str = "dot") -> np.ndarray:
    """rows @ rows.T, or the cosine of every pair of rows (a zero row gives 0); (n, n)."""
    s = rows @ rows.T
    if metric == "cosine":
        n = np.einsum("ij,ij->i", rows, rows)
        s = s / _safe_sqrt_outer(n, n)
    return s
