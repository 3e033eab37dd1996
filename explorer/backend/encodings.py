"""Sinusoidal positional encodings in three channel layouts (numpy; torch twin in torch_ops).

Layouts (same formula, different channel order / frequency spacing):
  interleaved  the paper and the seeds: PE[p, 2i] = sin(p w_i), PE[p, 2i+1] = cos(p w_i),
               w_i = base ** (-2i / d). Odd d: the last, unpaired channel gets its sine.
  concat       the TensorFlow tutorial: all sines, then all cosines, same w_i as interleaved.
  t2t          tensor2tensor `common_attention.get_timing_signal_1d` and fairseq
               `SinusoidalPositionalEmbedding.get_embedding`: h = d // 2 timescales,
               w_i = exp(-i * ln(base) / max(h - 1, 1)), [sin | cos], odd d zero-padded at the end.
               (t2t: log_timescale_increment = log(max/min) / max(num_timescales - 1, 1);
                fairseq: emb = log(10000) / (half_dim - 1); both start positions at 0 here.)
"""

from __future__ import annotations

import math

import numpy as np

from explorer.backend.budget import check_budget
from explorer.backend.unit_rows import unit_rows
from explorer.errors import grouped, require, shown

LAYOUTS = ("interleaved", "concat", "t2t")
DTYPES = ("float32", "float64")
PE_BLOCK_CELLS = 1 << 15    # angles per pass of sinusoidal_pe (128 KB float32): each block's sine
#                             and cosine read it from cache and write the table's columns in place


def _whole(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def finite_number(value) -> bool:
    """A real number (Python or numpy, not a bool) finite as a float (a 400-digit int is not;
    math.isfinite would raise)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def check_args(d_model: int, base: float, layout: str) -> None:
    """Raise InputError for a d_model, base or layout the formula cannot take."""
    require(isinstance(layout, str) and layout in LAYOUTS, "layout must be one of %1, not %2",
            ", ".join(LAYOUTS), shown(layout))
    require(_whole(d_model) and d_model >= 1, "d_model must be a whole number >= 1, not %1", shown(d_model))
    require(finite_number(base) and base > 1, "base must be a finite number > 1, not %1", shown(base))


def channel_layout(d_model: int, layout: str) -> tuple[slice, slice]:
    """Column slices of the sine and cosine channels; the i-th of each shares w_i.

    n_cos <= n_sin; columns in neither are zero (t2t's padding for odd d).
    Slices, not index arrays: a strided write is ~10x faster than a scatter.
    """
    if layout == "interleaved":
        return slice(0, d_model, 2), slice(1, d_model, 2)
    if layout == "concat":
        n_sin = (d_model + 1) // 2
        return slice(0, n_sin), slice(n_sin, d_model)
    half = d_model // 2
    return slice(0, half), slice(half, 2 * half)


def channel_counts(d_model: int, layout: str) -> tuple[int, int]:
    """(number of sine channels, number of cosine channels)."""
    sin_cols, cos_cols = channel_layout(d_model, layout)
    return len(range(d_model)[sin_cols]), len(range(d_model)[cos_cols])


def frequencies(d_model: int, base: float = 10000.0, layout: str = "interleaved") -> np.ndarray:
    """Angular frequency w_i of each sine channel, float64; shape (n_sin,)."""
    check_args(d_model, base, layout)
    if layout == "t2t":
        half = d_model // 2
        return np.exp(np.arange(half) * -(math.log(base) / max(half - 1, 1)))
    return np.exp(np.arange(0, d_model, 2) * -(math.log(base) / d_model))


def _frequencies_like_seed(d_model: int, base: float, layout: str, dtype) -> np.ndarray:
    """w_i computed in `dtype` the way the seeds do (exp of arange * -ln(base)/d)."""
    if layout == "t2t":
        half = d_model // 2
        return np.exp(np.arange(half, dtype=dtype) * dtype(-(math.log(base) / max(half - 1, 1))))
    return np.exp(np.arange(0, d_model, 2, dtype=dtype) * dtype(-math.log(base) / d_model))


def check_table_budget(max_len: int, d_model: int, dtype: str, advice: str | None = None) -> None:
    """check_budget for a (max_len, d_model) PE table of dtype: the table and half again, one count
    for every path that makes one, so each refuses in the same words (numpy makes its angles a block
    at a time, so the half is spare; torch holds all of them)."""
    check_budget(max_len * d_model * 3 // 2, np.dtype(dtype).itemsize, "a %1 x %2 PE table",
                 grouped(max_len), grouped(d_model), advice=advice)


def sinusoidal_pe(max_len: int, d_model: int, base: float = 10000.0, layout: str = "interleaved",
                  dtype: str = "float32", start: int = 0) -> np.ndarray:
    """Full PE table for positions start .. start+max_len-1; shape (max_len, d_model). The seeds'
    values bit for bit (angle = position x w in `dtype`, then sin and cos), built a cache-sized block
    of angles at a time: 2048 x 1024 float32 2.9 -> 2.1 ms, 8192 x 4096 125 -> 54 ms (Xeon)."""
    check_args(d_model, base, layout)
    require(isinstance(dtype, str) and dtype in DTYPES, "dtype must be one of %1, not %2", ", ".join(DTYPES),
            shown(dtype))
    require(_whole(max_len) and max_len >= 1, "max_len must be a whole number >= 1, not %1", shown(max_len))
    check_table_budget(max_len, d_model, dtype)
    require(_whole(start) and abs(start) + max_len <= 1 << 53,
            "start must be a whole number, |start| + max_len <= 2^53 (where positions are exact), not %1",
            shown(start))
    np_dtype = np.dtype(dtype).type
    w = _frequencies_like_seed(d_model, base, layout, np_dtype)          # (n_sin,)
    position = np.arange(start, start + max_len, dtype=np_dtype)          # (N,)
    sin_cols, cos_cols = channel_layout(d_model, layout)
    n_sin, n_cos = channel_counts(d_model, layout)
    pe = np.empty((max_len, d_model), dtype=np_dtype)
    pe[:, n_sin + n_cos:] = 0                                  # t2t's padding channel for odd d
    rows = max(1, PE_BLOCK_CELLS // max(1, n_sin))
    angle = np.empty((min(rows, max_len), n_sin), dtype=np_dtype)        # (rows, n_sin)
    for r0 in range(0, max_len, rows):     # the seeds' angles, sines and cosines, a block at a time
        part = position[r0:r0 + rows, None]                                   # (rows, 1)
        block = angle[:len(part)]
        np.multiply(part, w[None, :], out=block)
        np.sin(block, out=pe[r0:r0 + rows, sin_cols])
        np.cos(block[:, :n_cos], out=pe[r0:r0 + rows, cos_cols])
    return pe


def box_columns(img: np.ndarray, step: int) -> np.ndarray:
    """Mean of each run of `step` columns (a trailing partial run is dropped); (rows, cols // step).

    Strided adds: ~10x faster than reshape(...).mean(axis=2) over a short last axis.
    """
    n = img.shape[1] // step
    out = img[:, 0:n * step:step].copy()
    for j in range(1, step):
        out += img[:, j:n * step:step]
    out *= 1.0 / step
    return out


def box_factor(w: np.ndarray, size: float) -> np.ndarray:
    """mean_{j<size} e^{i(j - (size-1)/2) w} = sin(size w/2) / (size sin(w/2)); 1 for size 1."""
    w = np.asarray(w, dtype=np.float64)
    if size <= 1:
        return np.ones_like(w)
    den = size * np.sin(w / 2)
    safe = np.abs(den) > 1e-300
    return np.where(safe, np.sin(size * w / 2) / np.where(safe, den, 1.0), 1.0)


def pe_block_mean(row0: float, step: float, rows: int, d_model: int, base: float,
                  layout: str, dtype=np.float64, by_doubling: bool = False) -> np.ndarray:
    """Mean of PE over `rows` consecutive blocks of `step` positions from row0; (rows, d_model).

    Closed form: the block mean of sin(p w) is sin(c w) * box_factor(w, step), c the block centre,
    so a screen-size image of any max_len costs `rows` evaluations, not max_len.
    With step == 1 this is PE itself at positions row0 .. row0+rows-1. float32 is the fast
    screen path (the angle c w is formed in float32: its error grows with c, ~2^-24 c radians; pe_screen
    forms its angles in float64). by_doubling: the float64 sines and cosines by unit_rows, two rows of
    trigonometry instead of `rows` (numpy's float64 sin is scalar here: 8 x 4096 ~0.5 -> ~0.3 ms with
    the damping), within the rounding of the angle itself.
    """
    w = frequencies(d_model, base, layout)                             # (n_sin,)
    sin_cols, cos_cols = channel_layout(d_model, layout)
    n_cos = channel_counts(d_model, layout)[1]
    out = np.zeros((rows, d_model), dtype=dtype)
    if by_doubling:
        z = unit_rows(row0 + (step - 1) / 2, step, rows, w)            # (rows, n_sin) e^{i c w}
        out[:, sin_cols] = z.imag
        out[:, cos_cols] = z.real[:, :n_cos]
    else:
        centres = row0 + (np.arange(rows) * step) + (step - 1) / 2    # (rows,)
        angle = centres.astype(dtype)[:, None] * w.astype(dtype)[None, :]  # (rows, n_sin)
        out[:, sin_cols] = np.sin(angle)
        out[:, cos_cols] = np.cos(angle[:, :n_cos])
    if step > 1:
        out *= channel_damping(d_model, base, layout, step).astype(dtype)[None, :]
    return out


def channel_damping(d_model: int, base: float, layout: str, step: float) -> np.ndarray:
    """box_factor of each channel's frequency for blocks of `step` positions; (d_model,)."""
    return box_factor(channel_frequency(d_model, base, layout), step)


def channel_frequency(d_model: int, base: float, layout: str) -> np.ndarray:
    """w of each channel (0 for a zero-padded channel); shape (d_model,)."""
    w = frequencies(d_model, base, layout)
    sin_cols, cos_cols = channel_layout(d_model, layout)
    out = np.zeros(d_model)
    out[sin_cols] = w
    out[cos_cols] = w[: channel_counts(d_model, layout)[1]]
    return out


def channel_is_cos(d_model: int, layout: str) -> np.ndarray:
    """True where the channel holds a cosine; shape (d_model,)."""
    _, cos_cols = channel_layout(d_model, layout)
    out = np.zeros(d_model, dtype=bool)
    out[cos_cols] = True
    return out
