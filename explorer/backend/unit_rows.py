"""e^{i (start + j step) w} for many j at once, with two rows of trigonometry.

numpy's float64 sin / cos are scalar libm calls here (~20 ns an element; float32 is SIMD at
~3 ns) and its complex exp ~65 ns, so the blocked angle-addition sums (similarity.cos_sum,
rope.phasors) spent most of their time on the trig of their (blocks, h) and (block, h) factor
tables. `unit_rows` computes row 0 and one step directly; the others come by doubling,
z[m + j] = z[j] e^{i m step w} with e^{i m step w} squared from round to round, so each row is
~2 log2(count) products from exact ones: within the rounding of the angle (start + j step) w
itself (tested against cos + i sin of that angle).

`angles32`: angles for float32 trigonometry (pe_screen, similarity.cos_sum's float32 path), formed and
reduced to one turn in float64 before they are rounded.
"""

from __future__ import annotations

import math

import numpy as np

TWO_PI = 2 * math.pi
FLOAT32_ANGLES_BELOW = 1 << 15  # angles p w (<= p: w <= 1) that float32 holds within 2^-9 rad (2^-8 with w also
#                                rounded to float32: 2^-23 p), under one of a colour map's 256 steps of 2 / 256;
#                                beyond, whole turns are taken off in float64 first (angles32)


def exp_i(theta: np.ndarray) -> np.ndarray:
    """e^{i theta} as cos + i sin (float64 in, complex128 out, the shape of theta)."""
    theta = np.asarray(theta, dtype=np.float64)
    z = np.empty(theta.shape, np.complex128)
    np.cos(theta, out=z.real)
    np.sin(theta, out=z.imag)
    return z


def angles32(pos: np.ndarray, turns: np.ndarray, phase=0.0) -> np.ndarray:
    """2 pi (pos x turns + phase) in float32, (len(pos), len(turns)): formed in float64 (exact enough for
    any table), reduced to one turn, then rounded (a float32 angle near 10^7 is off by ~0.5 rad)."""
    t = np.multiply.outer(pos, turns)
    t += phase
    t -= np.floor(t)
    t *= TWO_PI
    return t.astype(np.float32)


def unit_rows(start: float, step: float, count: int, w: np.ndarray) -> np.ndarray:
    """e^{i (start + j step) w_c} for j < count; (count, len(w)) complex128."""
    w = np.asarray(w, dtype=np.float64)
    z = np.empty((max(0, count), len(w)), np.complex128)
    if count <= 0:
        return z
    z[0] = exp_i(start * w)
    if count == 1:
        return z
    shift = exp_i(step * w)                           # e^{i step w} (not z1 / z0: at a large
    #                                                   start their angles' rounding would grow m-fold)
    np.multiply(z[0], shift, out=z[1])
    m = 2                                             # rows 0 .. m-1 are filled
    while m < count:
        shift = shift * shift                         # e^{i m step w}
        n = min(m, count - m)
        np.multiply(z[:n], shift, out=z[m:m + n])     # rows m .. m+n-1
        m *= 2
    return z
