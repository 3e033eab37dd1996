"""Why the sinusoid encodes relative position: PE(p + k) = R(k) PE(p), R(k) a fixed rotation.

Interleaved layout, pair i = channels (2i, 2i+1) = (sin(p w_i), cos(p w_i)). The angle-addition rules
    sin((p+k)w) = cos(kw) sin(pw) + sin(kw) cos(pw)
    cos((p+k)w) = -sin(kw) sin(pw) + cos(kw) cos(pw)
give the 2x2 block [[cos kw, sin kw], [-sin kw, cos kw]] on each pair, independent of p.

Odd d_model: the last channel sin(p w) has no cosine partner, so no matrix maps it exactly. R puts
cos(k w) on its diagonal (the least-squares best factor a minimising the mean over p of
(a sin(pw) - sin((p+k)w))^2); that channel is then off by |cos(pw) sin(kw)|, and the max error
reported includes it. R(k) is then not orthogonal; only the paired part is a rotation.
"""

from __future__ import annotations

import numpy as np

from explorer.backend.budget import check_budget
from explorer.backend.encodings import check_args, frequencies, pe_block_mean
from explorer.backend.similarity import cos_sum, split_frequencies
from explorer.errors import msg, require, shown

DTYPES = ("float32", "float64")


def _check_dtype(dtype: str) -> np.dtype:
    require(dtype in DTYPES, "dtype must be one of %1, not %2", ", ".join(DTYPES), repr(dtype))
    return np.dtype(dtype)


def _check_int(name: str, value) -> int:
    """A position or offset: a whole number of at most 2^53 either way (where positions are exact as floats;
    a 309-digit offset had raised OverflowError in k * w)."""
    ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    require(ok, "%1 must be a whole number, not %2", name, shown(value))
    require(abs(int(value)) <= 1 << 53, "%1 must lie within ±2^53 (where positions are exact), not %2", name,
            shown(value))
    return int(value)


def rotation_matrix(d_model: int, offset: int, base: float = 10000.0,
                    dtype: str = "float64") -> np.ndarray:
    """R(k) (d x d): block-diagonal 2x2 rotations by k w_i; odd d ends with cos(k w) (see module doc).

    Row convention: PE(p + k) = R(k) @ PE(p) for column vectors (so table rows: PE @ R.T).
    """
    check_args(d_model, base, "interleaved")
    k = _check_int("the offset k", offset)
    np_dtype = _check_dtype(dtype)
    check_budget(d_model * d_model, np_dtype.itemsize, "a %1 x %1 rotation matrix", d_model,
                 advice=msg("choose a smaller d_model"))
    kw = k * frequencies(d_model, base)                                      # (n_sin,) float64
    h = d_model // 2
    c, s = np.cos(kw), np.sin(kw)
    r = np.zeros((d_model, d_model))
    i = np.arange(h)
    r[2 * i, 2 * i] = c[:h]
    r[2 * i, 2 * i + 1] = s[:h]
    r[2 * i + 1, 2 * i] = -s[:h]
    r[2 * i + 1, 2 * i + 1] = c[:h]
    if d_model % 2:
        r[-1, -1] = c[-1]
    return r.astype(np_dtype, copy=False)


def apply_rotation(x: np.ndarray, offset: int, d_model: int, base: float = 10000.0,
                   dtype: str = "float64") -> np.ndarray:
    """R(k) @ x without forming the d x d matrix (O(d), not O(d^2)); same numbers, in `dtype`."""
    np_dtype = _check_dtype(dtype)
    kw = offset * frequencies(d_model, base)                                 # (n_sin,) float64
    c, s = np.cos(kw).astype(np_dtype), np.sin(kw).astype(np_dtype)          # R's entries
    x = np.asarray(x, dtype=np_dtype)
    h = d_model // 2
    out = np.empty(d_model, dtype=np_dtype)
    out[0:2 * h:2] = c[:h] * x[0:2 * h:2] + s[:h] * x[1:2 * h:2]
    out[1:2 * h:2] = -s[:h] * x[0:2 * h:2] + c[:h] * x[1:2 * h:2]
    if d_model % 2:
        out[-1] = c[-1] * x[-1]
    return out


def shifted_vs_rotated(p: int, k: int, d_model: int, base: float = 10000.0,
                       dtype: str = "float64") -> tuple[np.ndarray, np.ndarray, float]:
    """(PE(p+k), R(k) PE(p), max abs error); vectors (d_model,) in `dtype`.

    PE values are evaluated in float64 and stored in `dtype`; R(k) likewise; the product R(k) PE(p)
    is then formed in `dtype`. The error is measured in float64 between the two stored vectors.
    """
    p = _check_int("the position p", p)
    k = _check_int("the offset k", k)
    np_dtype = _check_dtype(dtype)
    check_args(d_model, base, "interleaved")
    here = pe_block_mean(p, 1, 1, d_model, base, "interleaved")[0].astype(np_dtype)       # (d,)
    there = pe_block_mean(p + k, 1, 1, d_model, base, "interleaved")[0].astype(np_dtype)  # (d,)
    rotated = apply_rotation(here, k, d_model, base, dtype)                                # (d,)
    err = float(np.max(np.abs(there.astype(np.float64) - rotated.astype(np.float64))))
    return there, rotated, err


def _even_spacing(ks: np.ndarray) -> float | None:
    """The common step of an evenly spaced array, or None."""
    if len(ks) < 2:
        return 1.0
    d = np.diff(ks)
    return float(d[0]) if d[0] != 0 and np.all(d == d[0]) else None


def dot_vs_offset(ps, ks, d_model: int, base: float = 10000.0) -> np.ndarray:
    """PE(p) . PE(p + k) for each p in ps (rows) and k in ks (columns); (len(ps), len(ks)) float64.

    Paired channels give sum_i cos(k w_i), the same curve for every p (the curves collapse);
    an odd d's unpaired sine adds sin(p w) sin((p+k) w), which does depend on p.
    """
    check_args(d_model, base, "interleaved")
    ps = np.atleast_1d(np.asarray(ps, dtype=np.float64))                     # (P,)
    ks = np.atleast_1d(np.asarray(ks, dtype=np.float64))                     # (K,)
    require(ps.ndim == 1 and ks.ndim == 1, "ps and ks must be lists of positions / offsets")
    check_budget(len(ps) * len(ks) * 2, 8, "a %1 x %2 table of dot products", len(ps), len(ks))
    w, w_odd = split_frequencies(d_model, base, "interleaved")
    step = _even_spacing(ks)
    if step is not None and len(ks):
        f = cos_sum(ks[0], step, len(ks), w)                                 # (K,)
    else:
        f = np.cos(ks[:, None] * w[None, :]).sum(axis=1)                     # (K,)
    out = np.broadcast_to(f, (len(ps), len(ks))).copy()                      # (P, K)
    if w_odd is not None:
        out += np.sin(ps * w_odd)[:, None] * np.sin((ps[:, None] + ks[None, :]) * w_odd)
    return out
