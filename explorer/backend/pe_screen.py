"""Screen-size PE: block means over positions, box filter over channels, only the pixels drawn.

`pe_screen(...)` equals `box_columns(pe_block_mean(...)[:, ch0:ch0 + cols * ch_step], ch_step)`
(see explorer.backend.encodings) to float32 precision, without forming the (rows, d_model) table:

1. Every channel is sin(x w_c + phi_c) (phi_c = pi/2 for a cosine channel, w_c = 0 for t2t's zero
   padding), and its block mean is that at the block centre x_r times D_c = box_factor(w_c, step).
2. Angle addition: write row r = b T + t (T ~ sqrt(rows)). With A_bc = (x_0 + b T step) w_c + phi_c
   and B_tc = t step w_c, sin(A + B) = sin A cos B + cos A sin B: (B + T) x d sines and cosines
   instead of rows x d (745 x 4096 -> 56 x 4096 at 8192 x 4096).
3. The box filter over the s = ch_step channels of one screen column is a sum over c, so each column
   j is one small matrix product: out[b, t, j] = sum_{c in j} [sin A, cos A]_bc . [D cos B, D sin B]_ct / s,
   a batched (B, 2s) @ (2s, T) in float32. Angles are formed and reduced mod 2 pi in float64, then
   rounded to float32 (|angle| < 2 pi, so the rounding costs < 4e-7).
4. A sine and a cosine channel share w, so sin and cos of A and B are computed once per frequency
   (half the sines) and each channel's terms are gathered (a cosine channel is cos A cos B - sin A
   sin B). Interleaved pairs that lie in one column (even s from an even channel) add up to
   sin A (D cos B - D sin B) + cos A (D sin B + D cos B): a (B, s) @ (s, T) product, no gather
   (at 8192 x 4096 2.5 -> 1.35 ms on a 2-core Xeon).
5. Per-frequency factors (w, D/s) and the gather indices are cached: panning and zooming at a fixed
   base reuse them; a base step costs one float32 sin and one cos pass over (B + T) x d/2.
6. pe_screen_layouts (the Layouts view's three images): concat's frequencies are interleaved's,
   so the two share their sine tables.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from explorer.backend.encodings import (
    box_factor,
    channel_frequency,
    channel_is_cos,
    channel_layout,
    check_args,
    frequencies,
    pe_block_mean,
)
from explorer.backend.unit_rows import FLOAT32_ANGLES_BELOW, TWO_PI, angles32
from explorer.errors import require


@lru_cache(maxsize=8)
def channel_terms(d_model: int, base: float, layout: str, step: float, ch_step: int
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(w / 2 pi, phi / 2 pi, D / ch_step) per channel, float64, each (d_model,); read-only."""
    check_args(d_model, base, layout)
    w = channel_frequency(d_model, base, layout)                         # (d,)
    turns = w / TWO_PI
    phase = np.where(channel_is_cos(d_model, layout), 0.25, 0.0)         # (d,) cos = quarter turn
    damp = box_factor(w, step) / ch_step                                 # (d,)
    for a in (turns, phase, damp):
        a.setflags(write=False)
    return turns, phase, damp


@lru_cache(maxsize=8)
def frequency_terms(d_model: int, base: float, layout: str, step: float, ch_step: int
                    ) -> tuple[np.ndarray, np.ndarray]:
    """(w_k / 2 pi, D_k / ch_step) for each sine frequency k, float64, each (n_sin,); read-only.
    Interleaved and concat have the same frequencies, bit for bit (one formula)."""
    check_args(d_model, base, layout)
    w = frequencies(d_model, base, layout)                               # (n_sin,)
    out = (w / TWO_PI, box_factor(w, step) / ch_step)
    for a in out:
        a.setflags(write=False)
    return out


@lru_cache(maxsize=8)
def channel_slots(d_model: int, layout: str, ch_step: int, ch0: int, cols: int
                  ) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Where each of the doubled factor tables' columns comes from (see _doubled_tables): for
    channels ch0 .. ch0 + C, C = cols * ch_step, column j's s channels twice, (2C,) intp each into
    [sin A | cos A] (2K columns) and [D cos B | D sin B | -D sin B | 0] (3K + 1 columns), where
    the K frequencies are k0 .. k0 + K; then k0 and K. A sine channel is sin A cos B + cos A sin B, a
    cosine channel cos A cos B - sin A sin B, t2t's zero padding 0."""
    sin_cols, cos_cols = channel_layout(d_model, layout)
    freq = np.full(d_model, -1, np.intp)                                 # (d,) k, -1 for padding
    freq[sin_cols] = np.arange(len(range(d_model)[sin_cols]))
    freq[cos_cols] = np.arange(len(range(d_model)[cos_cols]))
    is_cos = channel_is_cos(d_model, layout)
    k, cos = freq[ch0:ch0 + cols * ch_step], is_cos[ch0:ch0 + cols * ch_step]   # (C,)
    used = k[k >= 0]
    k0 = int(used.min()) if len(used) else 0
    n = int(used.max()) + 1 - k0 if len(used) else 1
    kr = np.where(k >= 0, k - k0, 0)
    left = (np.where(cos, kr + n, kr), np.where(cos, kr, kr + n))        # (sin A, cos A) or (cos A, sin A)
    right = (np.where(k >= 0, kr, 3 * n), np.where(k < 0, 3 * n, np.where(cos, kr + 2 * n, kr + n)))

    def doubled(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.stack([a.reshape(cols, ch_step), b.reshape(cols, ch_step)], axis=1).reshape(-1)

    out = (doubled(*left), doubled(*right))
    for a in out:
        a.setflags(write=False)
    return out[0], out[1], k0, n


def _sin_cos32(pos: np.ndarray, turns: np.ndarray, phase=0.0) -> tuple[np.ndarray, np.ndarray]:
    """(sin, cos) of angles32(pos, turns, phase), one angle pass for both; (len(pos), len(turns)) each."""
    t32 = angles32(pos, turns, phase)
    return np.sin(t32), np.cos(t32)


def _one_channel_columns(a_pos, b_pos, d_model, base, layout, step, ch0, cols) -> np.ndarray:
    """ch_step 1: out[b, t, c] = sin A_bc D cos B_tc + cos A_bc D sin B_tc, contiguous in c."""
    turns, phase, damp = channel_terms(d_model, base, layout, step, 1)
    turns, phase = turns[ch0:ch0 + cols], phase[ch0:ch0 + cols]          # (J,)
    d32 = damp[ch0:ch0 + cols].astype(np.float32)
    sin_a, cos_a = _sin_cos32(a_pos, turns, phase)                        # (B, J)
    sin_b, cos_b = _sin_cos32(b_pos, turns)                               # (T, J)
    sin_b *= d32
    cos_b *= d32
    out = sin_a[:, None, :] * cos_b[None, :, :]                          # (B, T, J)
    out += cos_a[:, None, :] * sin_b[None, :, :]
    return out


def _check(rows, ch0, ch_step, cols, d_model) -> None:
    require(isinstance(rows, (int, np.integer)) and rows >= 1, "rows must be >= 1, not %1", repr(rows))
    require(isinstance(ch_step, (int, np.integer)) and ch_step >= 1,
            "ch_step must be a whole number >= 1, not %1", repr(ch_step))
    require(isinstance(cols, (int, np.integer)) and cols >= 1, "cols must be >= 1, not %1", repr(cols))
    require(0 <= ch0 and ch0 + cols * ch_step <= d_model,
            "channels ch0 .. ch0 + cols * ch_step must lie in 0 .. %1", d_model)


def _grid(row0: float, step: float, rows: int) -> tuple[np.ndarray, np.ndarray]:
    """(a_pos (B,), b_pos (T,)): row r = b T + t sits at a_pos[b] + b_pos[t] (block centres)."""
    t_count = max(1, math.isqrt(rows))
    b_count = -(-rows // t_count)
    x0 = row0 + (step - 1) / 2                                           # first block centre
    return x0 + np.arange(b_count) * (t_count * step), np.arange(t_count) * float(step)


def _frequency_tables(a_pos, b_pos, d_model, base, layout, step, s, k0, n):
    """(sin A, cos A) (B, n) and (D cos B, D sin B) (T, n) float32 for frequencies k0 .. k0 + n:
    half the sines of one table per channel (a sine and a cosine channel share w)."""
    turns, damp = frequency_terms(d_model, float(base), layout, float(step), s)
    turns, d32 = turns[k0:k0 + n], damp[k0:k0 + n].astype(np.float32)
    sin_a, cos_a = _sin_cos32(a_pos, turns)
    sin_b, cos_b = _sin_cos32(b_pos, turns)
    sin_b *= d32
    cos_b *= d32
    return (sin_a, cos_a), (cos_b, sin_b)


def _paired_tables(tables, k0, n):
    """Interleaved channels whose (sine, cosine) pairs each lie in one screen column: a pair adds
    up to sin A (D cos B - D sin B) + cos A (D sin B + D cos B), so (B, 2n) and (T, 2n) tables of
    [pair k's two terms] for frequencies k0 .. k0 + n (taken from `tables`, which start at 0)."""
    (sin_a, cos_a), (dcos_b, dsin_b) = tables
    k = slice(k0, k0 + n)
    left = np.stack([sin_a[:, k], cos_a[:, k]], axis=-1).reshape(len(sin_a), -1)
    right = np.stack([dcos_b[:, k] - dsin_b[:, k], dsin_b[:, k] + dcos_b[:, k]], axis=-1)
    return left, right.reshape(len(dcos_b), -1)


def _doubled_tables(tables, d_model, layout, s, ch0, cols, k_start):
    """Any layout and column width: (B, 2C) and (T, 2C) float32 factor tables, per column j its
    s channels' [sin A | cos A]-like and [D cos B | D sin B]-like terms (channel_slots), gathered
    from `tables`, whose frequencies start at k_start."""
    left_at, right_at, k0, n = channel_slots(d_model, layout, s, ch0, cols)
    (sin_a, cos_a), (dcos_b, dsin_b) = tables
    k = slice(k0 - k_start, k0 - k_start + n)
    left = np.concatenate([sin_a[:, k], cos_a[:, k]], axis=1)                 # (B, 2n)
    right = np.concatenate([dcos_b[:, k], dsin_b[:, k], -dsin_b[:, k],
                            np.zeros((len(dcos_b), 1), np.float32)], axis=1)  # (T, 3n + 1)
    return np.take(left, left_at, axis=1), np.take(right, right_at, axis=1)


def _pairs_in_columns(layout: str, s: int, ch0: int) -> bool:
    return layout == "interleaved" and s % 2 == 0 and ch0 % 2 == 0


def _frequency_range(d_model: int, layout: str, s: int, ch0: int, cols: int) -> tuple[int, int]:
    """(k0, n): the frequencies that channels ch0 .. ch0 + cols * s use."""
    if _pairs_in_columns(layout, s, ch0):
        return ch0 // 2, cols * s // 2
    return channel_slots(d_model, layout, s, ch0, cols)[2:]


def _columns(left, right, rows, cols) -> np.ndarray:
    """The screen pixels from the factor tables (B, J m) and (T, J m): one (B, m) @ (m, T) product
    per column j, on strided views (no copies in; einsum's own transposes copied both operands and
    its result); (rows, cols)."""
    b_count, t_count = len(left), len(right)
    left = left.reshape(b_count, cols, -1)                                      # (B, J, m)
    right = right.reshape(t_count, cols, -1)                                    # (T, J, m)
    out = np.matmul(left.transpose(1, 0, 2), right.transpose(1, 2, 0))        # (J, B, T)
    return transposed(out.reshape(cols, b_count * t_count)[:, :rows])           # (rows, J)


TRANSPOSE_BLOCK = 64     # source rows per pass of `transposed`: the block stays in cache


def transposed(a: np.ndarray) -> np.ndarray:
    """a.T made contiguous, TRANSPOSE_BLOCK rows of `a` at a time: each pass reads a block that
    fits in cache instead of striding over all of `a` for every row written (1024 x 745 float32:
    0.5 -> 0.3 ms on the 2-core EPYC); (n, m) -> (m, n), the same values."""
    out = np.empty(a.shape[::-1], dtype=a.dtype)                               # (m, n)
    for r0 in range(0, a.shape[0], TRANSPOSE_BLOCK):
        out[:, r0:r0 + TRANSPOSE_BLOCK] = a[r0:r0 + TRANSPOSE_BLOCK].T
    return out


def _screen(a_pos, b_pos, rows, ch0, s, cols, d_model, base, layout, step, tables=None):
    """pe_screen for s > 1, from `tables` (_frequency_tables from frequency 0) when given."""
    k0, n = _frequency_range(d_model, layout, s, ch0, cols)
    k_start = 0
    if tables is None:
        tables, k_start = _frequency_tables(a_pos, b_pos, d_model, base, layout, step, s, k0, n), k0
    if _pairs_in_columns(layout, s, ch0):
        left, right = _paired_tables(tables, k0 - k_start, n)
    else:
        left, right = _doubled_tables(tables, d_model, layout, s, ch0, cols, k_start)
    return _columns(left, right, rows, cols)


def pe_screen(row0: float, step: float, rows: int, ch0: int, ch_step: int, cols: int,
              d_model: int, base: float, layout: str = "interleaved") -> np.ndarray:
    """Mean of PE over `rows` blocks of `step` positions from row0 and `cols` runs of `ch_step`
    channels from ch0; (rows, cols) float32."""
    _check(rows, ch0, ch_step, cols, d_model)
    s = int(ch_step)
    a_pos, b_pos = _grid(row0, step, rows)
    if s == 1:
        out = _one_channel_columns(a_pos, b_pos, d_model, float(base), layout, float(step),
                                   ch0, cols)                            # (B, T, J)
        return np.ascontiguousarray(out.reshape(-1, cols)[:rows])
    return _screen(a_pos, b_pos, rows, ch0, s, cols, d_model, base, layout, step)


def screen_block_means(row0: float, step: float, rows: int, ch0: int, ch_step: int, cols: int,
                       d_model: int, base: float, layout: str = "interleaved") -> np.ndarray:
    """pe_screen's picture by the faster way for its shape: pe_screen when columns are averaged, and
    without a box filter (ch_step 1) the block means' own columns, one sine per cell (faster than
    pe_screen's angle addition there): float32 angles before FLOAT32_ANGLES_BELOW, whole turns taken off
    in float64 beyond (a float32 angle at position 10^7 is off by ~0.6 rad); (rows, cols) float32."""
    if ch_step > 1:
        return pe_screen(row0, step, rows, ch0, ch_step, cols, d_model, base, layout)
    if row0 + rows * step <= FLOAT32_ANGLES_BELOW:
        return pe_block_mean(row0, step, rows, d_model, base, layout, np.float32)[:, ch0:ch0 + cols]
    turns, phase, damp = channel_terms(d_model, base, layout, step, 1)
    centres = row0 + np.arange(rows) * float(step) + (step - 1) / 2                    # (rows,)
    out = np.sin(angles32(centres, turns[ch0:ch0 + cols], phase[ch0:ch0 + cols]))     # (rows, cols)
    out *= damp[ch0:ch0 + cols].astype(np.float32)
    return out


def pe_screen_layouts(step: float, rows: int, ch_step: int, d_model: int, base: float,
                      layouts) -> dict:
    """pe_screen(0, step, rows, 0, ch_step, d_model // ch_step, d_model, base, layout) for each
    layout, equal bit for bit; interleaved and concat (the same frequencies) share one set of
    frequency tables when both are asked for: two sine passes fewer."""
    s, cols = int(ch_step), d_model // int(ch_step)
    shared = s > 1 and {"interleaved", "concat"} <= set(layouts)
    out, tables = {}, None
    for layout in layouts:
        if shared and layout in ("interleaved", "concat"):
            if tables is None:
                _check(rows, 0, s, cols, d_model)
                a_pos, b_pos = _grid(0, step, rows)
                n = max(_frequency_range(d_model, lay, s, 0, cols)[1] for lay in ("interleaved", "concat"))
                tables = _frequency_tables(a_pos, b_pos, d_model, base, "interleaved", step, s, 0, n)
            out[layout] = _screen(a_pos, b_pos, rows, 0, s, cols, d_model, base, layout, step, tables)
        else:
            out[layout] = pe_screen(0, step, rows, 0, s, cols, d_model, base, layout)
    return out


def pe_screen_plain(row0: float, step: float, rows: int, ch0: int, ch_step: int, cols: int,
                    d_model: int, base: float, layout: str = "interleaved",
                    dtype=np.float64) -> np.ndarray:
    """The computation pe_screen replaces: the full block-mean table, sliced, box-filtered."""
    from explorer.backend.encodings import box_columns, pe_block_mean

    img = pe_block_mean(row0, step, rows, d_model, base, layout, dtype)
    img = img[:, ch0:ch0 + cols * ch_step]
    return box_columns(img, ch_step) if ch_step > 1 else img
