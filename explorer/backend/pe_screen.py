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
4. Per-channel factors (w, phi, D/s) are cached on (d_model, base, layout, step): panning and zooming
   at a fixed base reuse them; a base step costs four float32 sin/cos passes over (B + T) x d.
5. pe_screen_layouts (the Layouts view's three images): concat's channels are interleaved's,
   permuted, so its factor tables are interleaved's with their columns gathered.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from explorer.backend.encodings import (
    box_factor,
    channel_frequency,
    channel_is_cos,
    check_args,
)
from explorer.errors import require

TWO_PI = 2 * math.pi


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
def doubled_terms(d_model: int, base: float, layout: str, step: float, ch_step: int, ch0: int,
                  cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per-column factors for channels ch0 .. ch0 + cols * ch_step, each (2C,), C = cols * ch_step:
    column j's s channels twice, as (turns, phase of [sin A | cos A], phase of [cos B | sin B],
    D / s). Cached: panning and zooming at a fixed base reuse them."""
    turns, phase, damp = channel_terms(d_model, base, layout, step, ch_step)
    s, c1 = ch_step, ch0 + cols * ch_step

    def doubled(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.stack([a.reshape(cols, s), b.reshape(cols, s)], axis=1).reshape(-1)  # (2C,)

    t, p, dm = turns[ch0:c1], phase[ch0:c1], damp[ch0:c1]
    out = (doubled(t, t), doubled(p, p + 0.25),
           doubled(np.full_like(t, 0.25), np.zeros_like(t)), doubled(dm, dm).astype(np.float32))
    for a in out:
        a.setflags(write=False)
    return out


def _sines32(pos: np.ndarray, turns: np.ndarray, phase: np.ndarray) -> np.ndarray:
    """sin(2 pi (pos x turns + phase)) in float32; (len(pos), len(turns)).

    The angle is formed in float64 (exact enough for any table), reduced to one turn, rounded.
    """
    t = np.multiply.outer(pos, turns)
    t += phase
    t -= np.floor(t)
    t *= TWO_PI
    return np.sin(t.astype(np.float32))


def _one_channel_columns(a_pos, b_pos, d_model, base, layout, step, ch0, cols) -> np.ndarray:
    """ch_step 1: out[b, t, c] = sin A_bc D cos B_tc + cos A_bc D sin B_tc, contiguous in c."""
    turns, phase, damp = channel_terms(d_model, base, layout, step, 1)
    turns, phase = turns[ch0:ch0 + cols], phase[ch0:ch0 + cols]          # (J,)
    d32 = damp[ch0:ch0 + cols].astype(np.float32)
    sin_a, cos_a = _sines32(a_pos, turns, phase), _sines32(a_pos, turns, phase + 0.25)  # (B, J)
    cos_b = _sines32(b_pos, turns, np.full_like(turns, 0.25)) * d32                     # (T, J)
    sin_b = _sines32(b_pos, turns, np.zeros_like(turns)) * d32
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


def _factor_tables(a_pos, b_pos, d_model, base, layout, step, s, ch0, cols):
    """(left (B, 2C), right (T, 2C)) float32: per column j's s channels [sin A | cos A] and
    [D cos B | D sin B] / s (see the module doc), C = cols * s."""
    turns, phase, right_phase, damp = doubled_terms(d_model, float(base), layout, float(step), s,
                                                    ch0, cols)
    right = _sines32(b_pos, turns, right_phase)
    right *= damp
    return _sines32(a_pos, turns, phase), right


def _columns(left, right, rows, cols, s) -> np.ndarray:
    """The screen pixels from the factor tables: one (B, 2s) @ (2s, T) product per column, on
    strided views (no copies in; einsum's own transposes copied both operands and its result);
    (rows, cols)."""
    b_count, t_count = len(left), len(right)
    left = left.reshape(b_count, cols, 2 * s)                                   # (B, J, 2s)
    right = right.reshape(t_count, cols, 2 * s)                                 # (T, J, 2s)
    out = np.matmul(left.transpose(1, 0, 2), right.transpose(1, 2, 0))        # (J, B, T)
    return np.ascontiguousarray(out.transpose(1, 2, 0).reshape(b_count * t_count, cols)[:rows])


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
    left, right = _factor_tables(a_pos, b_pos, d_model, base, layout, step, s, ch0, cols)
    return _columns(left, right, rows, cols, s)


@lru_cache(maxsize=8)
def _concat_index(d_model: int, s: int) -> np.ndarray:
    """Where concat's doubled factor columns sit among interleaved's (both over all d_model
    channels, runs of s): concat channel c is interleaved channel src[c] (the same w, phase and
    damping, so the same float32 factors bit for bit); (2 d_model,)."""
    src = np.concatenate([np.arange(0, d_model, 2), np.arange(1, d_model, 2)])   # (d,)
    at = 2 * s * (src // s) + src % s                                   # its sin A / D cos B slot
    j, k = np.divmod(np.arange(d_model), s)
    index = np.empty(2 * d_model, np.intp)
    index[2 * s * j + k] = at
    index[2 * s * j + s + k] = at + s                                   # its cos A / D sin B slot
    index.setflags(write=False)
    return index


def pe_screen_layouts(step: float, rows: int, ch_step: int, d_model: int, base: float,
                      layouts) -> dict:
    """pe_screen(0, step, rows, 0, ch_step, d_model // ch_step, d_model, base, layout) for each
    layout, equal bit for bit; concat's factor tables are interleaved's with their columns
    gathered (a permutation of the same channels) when both are asked for and ch_step divides
    d_model: two sine passes fewer (~1.2 ms of ~6 at 8192 x 4096)."""
    s, cols = int(ch_step), d_model // int(ch_step)
    shared = s > 1 and d_model % s == 0 and {"interleaved", "concat"} <= set(layouts)
    out, tables = {}, None
    for layout in layouts:
        if shared and layout in ("interleaved", "concat"):
            if tables is None:
                _check(rows, 0, s, cols, d_model)
                a_pos, b_pos = _grid(0, step, rows)
                tables = _factor_tables(a_pos, b_pos, d_model, base, "interleaved", step, s, 0, cols)
            left, right = tables
            if layout == "concat":
                index = _concat_index(d_model, s)
                left, right = left[:, index], right[:, index]
            out[layout] = _columns(left, right, rows, cols, s)
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
