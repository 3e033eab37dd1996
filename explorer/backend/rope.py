"""Rotary position embedding (RoPE): two pairings, the score against distance, context extension.

theta_i = base^(-2i/d), i < d/2. Position m rotates pair i by the angle m theta_i.
  interleaved  RoFormer: pair i = channels (2i, 2i+1)
  half         rotate-half (LLaMA-style code): pair i = channels (i, i + d/2)
Same maths, different channel order: x_half = x_interleaved[:, pairing_order(d)] (the concat order).
Score of q at m and k at n: Re sum_i z_i e^{i (m-n) theta_i}, z_i = q_i conj(k_i) with q_i, k_i the
pairs read as complex numbers (first channel real), so it depends only on m - n.
Context extension by a factor s: position interpolation (positions / s, i.e. theta_i / s) and
NTK-aware base scaling (base' = base * s^(d/(d-2)): the highest frequency stays, the lowest is / s).
"""

from __future__ import annotations

import math

import numpy as np

from explorer.backend.budget import check_budget
from explorer.backend.encodings import box_factor
from explorer.backend.layouts import concat_order, concat_permutation
from explorer.backend.rope_scaling import MAX_HEAD_DIM
from explorer.backend.similarity import cos_sum
from explorer.backend.unit_rows import unit_rows
from explorer.errors import msg, require, shown

PAIRINGS = ("interleaved", "half")
KINDS = ("ones", "random", "same_random")


def check_rope(head_dim: int, base: float, pairing: str = "interleaved") -> None:
    """InputError for an odd or non-positive head_dim, a base <= 1 or an unknown pairing."""
    ok = isinstance(head_dim, (int, np.integer)) and not isinstance(head_dim, bool)
    require(ok and head_dim >= 2 and head_dim % 2 == 0,
            "head_dim must be an even whole number >= 2 (RoPE rotates channel pairs), not %1", shown(head_dim))
    require(head_dim <= MAX_HEAD_DIM, "head_dim must be a whole number from 2 to %1, not %2",   # its angles are
            f"{MAX_HEAD_DIM:,}", shown(head_dim))                                            # made before any budget
    require(isinstance(base, (int, float)) and math.isfinite(base) and base > 1,
            "base must be a finite number > 1, not %1", repr(base))
    require(pairing in PAIRINGS, "pairing must be one of %1, not %2", ", ".join(PAIRINGS), repr(pairing))


def rope_frequencies(head_dim: int, base: float = 10000.0) -> np.ndarray:
    """theta_i = base^(-2i/d) for i < d/2; (d/2,) float64."""
    check_rope(head_dim, base)
    return np.exp(np.arange(0, head_dim, 2) * -(math.log(base) / head_dim))


def pairing_order(head_dim: int) -> np.ndarray:
    """src with x_half[:, j] = x_interleaved[:, src[j]]: (0, 2, 4, ..., 1, 3, 5, ...); (head_dim,)."""
    check_rope(head_dim, 10000.0)
    return concat_order(head_dim)


def pairing_permutation(head_dim: int) -> np.ndarray:
    """P (d x d) with x_half = x_interleaved @ P and rotate_half(x P) = rotate_interleaved(x) P."""
    check_rope(head_dim, 10000.0)
    return concat_permutation(head_dim)


def ntk_base(base: float, scale: float, head_dim: int) -> float:
    """NTK-aware base base * s^(d/(d-2)); head_dim must be >= 4 (d = 2 has no formula)."""
    check_rope(head_dim, base)
    require(head_dim >= 4, "NTK-aware scaling needs head_dim >= 4, not %1", head_dim)
    return float(base * _check_scale(scale) ** (head_dim / (head_dim - 2)))


def _check_scale(scale: float) -> float:
    """The context-extension factor s, checked (a finite number >= 1)."""
    ok = isinstance(scale, (int, float)) and not isinstance(scale, bool) and math.isfinite(scale)
    require(ok and scale >= 1, "the context-extension factor must be a number >= 1, not %1", repr(scale))
    return float(scale)


def _pairs(head_dim: int, pairing: str) -> tuple[slice, slice]:
    """Column slices (first, second) of each pair; pair i = (first[i], second[i])."""
    if pairing == "interleaved":
        return slice(0, head_dim, 2), slice(1, head_dim, 2)
    return slice(0, head_dim // 2), slice(head_dim // 2, head_dim)


def rotate(x, positions, base: float = 10000.0, pairing: str = "interleaved",
           scale: float = 1.0) -> np.ndarray:
    """Rotate rows x[j] (n, head_dim) by positions[j] / scale; float64 (n, head_dim)."""
    x = np.asarray(x, dtype=np.float64)
    require(x.ndim == 2, "x must be a 2-d array (n, head_dim), not shape %1", x.shape)
    check_rope(x.shape[1], base, pairing)
    pos = np.asarray(positions, dtype=np.float64).reshape(-1) / _check_scale(scale)  # (n,)
    require(len(pos) == len(x), "%1 positions for %2 rows", len(pos), len(x))
    angle = pos[:, None] * rope_frequencies(x.shape[1], base)[None, :]       # (n, d/2)
    return _apply(x, np.cos(angle), np.sin(angle), pairing)


def _apply(x: np.ndarray, c: np.ndarray, s: np.ndarray, pairing: str) -> np.ndarray:
    """Rotate each pair of x (n, d) or (d,) by the angles whose cos/sin are c, s (n, d/2)."""
    a, b = _pairs(x.shape[-1], pairing)
    out = np.empty(np.broadcast_shapes(x.shape, (len(c), x.shape[-1])), dtype=c.dtype)
    out[:, a] = x[..., a] * c - x[..., b] * s
    out[:, b] = x[..., a] * s + x[..., b] * c
    return out


def phasors(step: int, count: int, theta: np.ndarray) -> np.ndarray:
    """e^{i p theta} for p = 0, step, ..., (count-1) step; (count, h) complex, blocked:
    e^{i(B + J) theta} = e^{i B theta} e^{i J theta} needs only ~2 sqrt(count) h exponentials."""
    block = max(1, int(np.sqrt(count)))
    n_blocks = -(-count // block)
    outer = unit_rows(0.0, block * step, n_blocks, theta)                    # (B, h)
    inner = unit_rows(0.0, step, block, theta)                               # (J, h)
    return (outer[:, None, :] * inner[None, :, :]).reshape(n_blocks * block, len(theta))[:count]


def query_key(head_dim: int, kind: str = "ones", seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(q, k), each (head_dim,): all ones; independent N(0,1) draws; or one draw used for both."""
    check_rope(head_dim, 10000.0)
    require(kind in KINDS, "kind must be one of %1, not %2", ", ".join(KINDS), repr(kind))
    if kind == "ones":
        return np.ones(head_dim), np.ones(head_dim)
    rng = np.random.default_rng(seed)
    q = rng.standard_normal(head_dim)
    return (q, q.copy()) if kind == "same_random" else (q, rng.standard_normal(head_dim))


def _score_profile(theta: np.ndarray, q: np.ndarray, k: np.ndarray, start: float, step: float,
                   count: int) -> np.ndarray:
    """Re sum_i z_i e^{i delta theta_i} for delta = start + j step, j < count; (count,).

    z_i = (q[2i] + i q[2i+1]) (k[2i] - i k[2i+1]) (interleaved pairs). Blocked like
    `similarity.cos_sum`: e^{i(B + J) theta} = e^{i B theta} e^{i J theta}, a small complex matmul.
    """
    z = (q[0::2] + 1j * q[1::2]) * (k[0::2] - 1j * k[1::2])                  # (h,)
    block = max(1, int(np.sqrt(count)))
    n_blocks = -(-count // block)
    outer = unit_rows(start, block * step, n_blocks, theta)                  # (B, h)
    inner = unit_rows(0.0, step, block, theta)                               # (J, h)
    return ((outer * z) @ inner.T).real.reshape(-1)[:count]                  # (count,)


def score_vs_distance(head_dim: int, base: float = 10000.0, max_dist: int = 512,
                      kind: str = "ones", seed: int = 0, scale: float = 1.0
                      ) -> tuple[np.ndarray, np.ndarray]:
    """(delta, score): q(m) . k(n) against delta = m - n = -max_dist .. max_dist; each (2 max_dist + 1,).

    Exact for both pairings when q and k are given in the interleaved order (the half pairing of
    q P, k P gives the same numbers). scale > 1 divides positions (position interpolation).
    """
    _check_len("max_dist", max_dist, 0)
    check_budget((2 * max_dist + 1) * 3, 8, "a score curve over %1 distances", f"{2 * max_dist + 1:,}")
    theta = rope_frequencies(head_dim, base) / _check_scale(scale)
    q, k = query_key(head_dim, kind, seed)
    delta = np.arange(-max_dist, max_dist + 1)
    return delta, _score_profile(theta, q, k, -max_dist, 1.0, len(delta))


def frequency_variants(head_dim: int, base: float = 10000.0, scale: float = 4.0) -> dict:
    """name -> theta (d/2,): 'original', 'interpolation' (theta / s), 'ntk' (base' = NTK base).

    'ntk' is left out for head_dim 2, where the NTK formula divides by zero.
    """
    out = {"original": rope_frequencies(head_dim, base)}
    out["interpolation"] = out["original"] / _check_scale(scale)
    if head_dim >= 4:
        out["ntk"] = rope_frequencies(head_dim, ntk_base(base, scale, head_dim))
    return out


def rotated_qk(head_dim: int, max_len: int, base: float = 10000.0, pairing: str = "interleaved",
               kind: str = "ones", seed: int = 0, max_rows: int = 512
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(positions, q rotated, k rotated) for heatmaps; positions strided to <= max_rows rows.

    The same q, k vectors (`query_key`) are fed to either pairing, as the same weights would be.
    Shapes: (rows,), (rows, head_dim) float32, (rows, head_dim) float32 (screen precision).
    """
    _check_len("max_len", max_len)
    _check_len("max_rows", max_rows)
    check_rope(head_dim, base, pairing)
    step = -(-max_len // max_rows)
    positions = np.arange(0, max_len, step)                                  # (rows,)
    check_budget(len(positions) * head_dim * 4, 8, "%1 rotated rows", len(positions))
    q, k = query_key(head_dim, kind, seed)
    z = phasors(step, len(positions), rope_frequencies(head_dim, base))     # (rows, d/2)
    c, s = z.real.astype(np.float32), z.imag.astype(np.float32)
    q, k = q.astype(np.float32), k.astype(np.float32)
    return positions, _apply(q, c, s, pairing), _apply(k, c, s, pairing)


def _check_len(name: str, value, lo: int = 1) -> int:
    ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    require(ok and lo <= value <= 10_000_000,
            "%1 must be a whole number between %2 and 10,000,000, not %3", name, lo, repr(value))
    return int(value)


def variant_scores(head_dim: int, base: float = 10000.0, scale: float = 4.0, max_dist: int = 2048,
                   kind: str = "ones", seed: int = 0) -> dict:
    """name -> (delta, score) for delta = 0 .. max_dist, one curve per frequency variant."""
    _check_len("max_dist", max_dist, 0)
    check_budget((max_dist + 1) * 8, 8, "score curves over %1 distances", f"{max_dist + 1:,}")
    q, k = query_key(head_dim, kind, seed)
    delta = np.arange(max_dist + 1)
    return {name: (delta, _score_profile(theta, q, k, 0.0, 1.0, len(delta)))
            for name, theta in frequency_variants(head_dim, base, scale).items()}


def score_matrix(head_dim: int, max_len: int, base: float = 10000.0,
                 pairing: str = "interleaved") -> np.ndarray:
    """(N, N) q(m) . k(n) for all-ones q, k after rotation: 2 sum_i cos((m - n) theta_i).

    The pairing does not change it (all-ones vectors are the same in both orders); it is checked
    and accepted so the CLI can say which one it used.
    """
    check_rope(head_dim, base, pairing)
    _check_len("max_len", max_len)
    check_budget(max_len * max_len * 2, 8, "a %1 x %1 RoPE score matrix", max_len,
                 advice=msg("choose a smaller max_len"))
    return score_matrix_blocks(head_dim, max_len, 1, base)


def score_matrix_blocks(head_dim: int, rows: int, step: int, base: float = 10000.0) -> np.ndarray:
    """Means of the all-ones score matrix over step x step blocks from position 0; (rows, rows)."""
    _check_len("rows", rows)
    _check_len("step", step)
    check_budget(rows * rows * 2, 8, "a %1 x %1 RoPE score image", rows)
    theta = rope_frequencies(head_dim, base)
    wgt = 2.0 * box_factor(theta, step) ** 2
    g = cos_sum(-(rows - 1) * step, step, 2 * rows - 1, theta, wgt)          # (2 rows - 1,)
    return np.lib.stride_tricks.sliding_window_view(g, rows)[:, ::-1].copy()  # (rows, rows)
