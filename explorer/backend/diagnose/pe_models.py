"""The sinusoidal tables a check compares against: the right ones and the classic slips, as specs.

A Spec says which channels hold sines / cosines / zeros and how the frequencies fall:
  layout  interleaved | concat | t2t          (encodings.channel_layout)
  assign  sincos (right) | swapped | sin_zero (cos line missing) | sin_dup (sin written twice)
  law     2i (right) | per_channel (channel j uses base^(-j/d): i where 2i belongs)
  sign    -1 (right) | +1 (the exponent lost its minus sign)
Each is evaluated at any base and start position; the scale is fitted by least squares.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from explorer.backend.encodings import LAYOUTS, channel_counts, channel_layout
from explorer.backend.unit_rows import unit_rows

ASSIGNS = ("sincos", "swapped", "sin_zero", "sin_dup")
MIN_DOUBLED_ROWS = 4          # rows from which e^{i p w} by doubling beats a sine per entry
ROW_BLOCK_BYTES = 16 << 20    # e^{i p w} is made this many bytes of rows at a time (below
#                               glibc's mmap threshold, explorer.allocator: the pages are reused)
PAIR_BLOCK_BYTES = 4 << 20    # pair_frequencies' angles: this many bytes of rows at a time
ZERO, SIN, COS = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Spec:
    layout: str = "interleaved"
    assign: str = "sincos"
    law: str = "2i"
    sign: int = -1

    @property
    def is_right(self) -> bool:
        return self.assign == "sincos" and self.law == "2i" and self.sign == -1

    def right(self) -> "Spec":
        """The same layout with every slip undone."""
        return Spec(self.layout)


def all_specs(d_model: int) -> list[Spec]:
    """Every spec that makes sense for d_model (per_channel only interleaved; t2t needs d >= 2)."""
    out = [Spec(lay, a, "2i", s) for lay in LAYOUTS for a in ASSIGNS for s in (-1, 1)]
    out += [Spec("interleaved", a, "per_channel", s) for a in ("sincos", "swapped") for s in (-1, 1)]
    return [s for s in out if d_model >= 2 and not (s.layout == "t2t" and d_model < 2)]


def exponent_scale(d_model: int, layout: str) -> float:
    """E with w_k = base^(-k/E): d/2 for interleaved and concat, max(h-1, 1) for t2t."""
    return max(d_model // 2 - 1, 1) if layout == "t2t" else d_model / 2


def column_exponents(spec: Spec, d_model: int) -> tuple[np.ndarray, np.ndarray]:
    """(e, kind): w_j = exp(sign * e_j * ln(base)) for each column j, and ZERO/SIN/COS; (d_model,) each."""
    if spec.law == "per_channel":
        e = np.arange(d_model) / d_model
    else:
        n_sin, n_cos = channel_counts(d_model, spec.layout)
        ek = np.arange(n_sin) / exponent_scale(d_model, spec.layout)
        e = np.zeros(d_model)
        sin_cols, cos_cols = channel_layout(d_model, spec.layout)
        e[sin_cols] = ek
        e[cos_cols] = ek[:n_cos]
    kind = np.zeros(d_model, dtype=np.int8)
    sin_cols, cos_cols = channel_layout(d_model, "interleaved" if spec.law == "per_channel"
                                        else spec.layout)
    first, second = {"sincos": (SIN, COS), "swapped": (COS, SIN), "sin_zero": (SIN, ZERO),
                     "sin_dup": (SIN, SIN)}[spec.assign]
    kind[sin_cols] = first
    kind[cos_cols] = second
    return spec.sign * e, kind


def column_plan(spec: Spec, d_model: int, base: float) -> tuple[np.ndarray, np.ndarray]:
    """(w, kind): each column's angular frequency and ZERO/SIN/COS; each (d_model,)."""
    e, kind = column_exponents(spec, d_model)
    return np.exp(e * math.log(base)), kind


def template(spec: Spec, d_model: int, base: float, positions: np.ndarray,
             out: np.ndarray | None = None) -> np.ndarray:
    """The unit-scale table of `spec` at `positions`; (len(positions), d_model) float64 (written
    into `out` when given)."""
    return templates(spec, d_model, np.array([math.log(base)]), positions,
                     None if out is None else out[None])[0]


def templates(spec: Spec, d_model: int, ln_bases: np.ndarray, positions: np.ndarray,
              out: np.ndarray | None = None) -> np.ndarray:
    """Unit-scale tables of `spec` for many ln(base) at once; (len(ln_bases), len(positions), d_model).
    out: an array of that shape to write them into (a check of a large table reuses one: a fresh
    table-sized array is first touched page by page, ~2 s for 128 MB on our CI machines)."""
    e, kind = column_exponents(spec, d_model)
    w = np.exp(np.asarray(ln_bases, dtype=np.float64)[:, None] * e[None, :])          # (G, d)
    pos = np.asarray(positions, dtype=np.float64)
    if out is None:
        out = np.zeros((len(w), len(pos), d_model))
    else:
        out[..., kind == ZERO] = 0.0
    source = unit_source(pos)
    doubled = []                 # (view, part, w of its columns) for the e^{i p w} path
    for code, fn, part in ((SIN, np.sin, "imag"), (COS, np.cos, "real")):
        cols = np.flatnonzero(kind == code)
        if len(cols) > 1 and np.all(np.diff(cols) == cols[1] - cols[0]):
            # evenly spaced (every layout's sines and cosines): written in place, no temporaries
            view = out[..., cols[0]:cols[-1] + 1:cols[1] - cols[0]]                 # (G, n, c)
            if source is not None:
                doubled.append((view, part, w[:, cols]))
                continue
            np.multiply(pos[None, :, None], w[:, None, cols], out=view)
            fn(view, out=view)
        elif len(cols):
            out[..., cols] = fn(pos[None, :, None] * w[:, None, cols])               # (G, n, c)
    if len(doubled) == 2 and np.array_equal(doubled[0][2], doubled[1][2]):
        # a sine and a cosine per frequency (every right spec): one e^{i p w} serves both
        write_unit_parts([d[:2] for d in doubled], source, doubled[0][2])
    else:
        for view, part, wc in doubled:
            write_unit_parts([(view, part)], source, wc)
    return out


def progression_step(pos: np.ndarray) -> float | None:
    """The step of positions that are an arithmetic progression of at least MIN_DOUBLED_ROWS
    whole numbers (a whole table, the first rows), else None."""
    if len(pos) < MIN_DOUBLED_ROWS or pos[0] != math.floor(pos[0]):
        return None
    step = pos[1] - pos[0]
    if step <= 0 or step != math.floor(step) or not np.array_equal(np.diff(pos), np.full(len(pos) - 1, step)):
        return None
    return float(step)


def unit_source(pos: np.ndarray):
    """f(r0, k, w) = e^{i p w} for positions r0 .. r0 + k - 1 of pos, (k, len(w)) complex128, by
    doubling (unit_rows) when pos is an arithmetic progression (a whole table, its first rows);
    None (a sine per entry) for anything else. A sample spread over the table by doubling from
    a coarse and a fine table (p = q T + r) was tried: its gathers cost what the sines saved."""
    step = progression_step(pos)
    if step is None:
        return None
    return lambda r0, k, w: unit_rows(float(pos[0]) + r0 * step, step, k, w)


def write_unit_parts(targets, source, w: np.ndarray) -> None:
    """Write the imaginary (sin) or real (cos) part of e^{i p w_gc} into each (view (G, n, c),
    "imag" | "real") of targets, a block of rows at a time; source: see unit_source.

    numpy's float64 sin / cos are scalar calls here (~16-20 ns an element); doubling makes a
    block from a few rows of trigonometry and complex products (within the rounding of the angle
    itself, far inside a check's tolerance of 3 float32 ulp of the largest angle)."""
    g, c = w.shape
    n = targets[0][0].shape[1]
    rows = max(1, ROW_BLOCK_BYTES // (16 * g * c))
    flat = w.reshape(-1)                                                       # (G c,)
    for r0 in range(0, n, rows):
        k = min(rows, n - r0)
        z = source(r0, k, flat).reshape(k, g, c).transpose(1, 0, 2)           # (G, k, c)
        for view, part in targets:
            view[:, r0:r0 + k] = z.imag if part == "imag" else z.real


def pair_frequencies(x: np.ndarray, mask: np.ndarray | None, layout: str) -> np.ndarray:
    """Signed angular speed of each (sine column, cosine column) pair of `layout`, read from the
    data: the mean wrapped step of atan2(sine, cosine) between consecutive rows; (n_cos,).
    Negative speeds mean the pair turns backwards (sin and cos swapped). Taken a block of rows
    at a time: a (L, d/2) temporary of a 4096 x 4096 table is 67 MB, above glibc's mmap
    threshold, so each one was mapped and faulted in afresh (~1 s a layout here)."""
    d = x.shape[1]
    sin_cols, cos_cols = channel_layout(d, layout)
    n = channel_counts(d, layout)[1]
    if len(x) < 2 or n == 0:
        return np.zeros(n)
    total, count = np.zeros(n), np.zeros(n, np.int64)
    rows = max(2, PAIR_BLOCK_BYTES // (8 * n))
    for r0 in range(0, len(x) - 1, rows - 1):       # blocks share a row: every step once
        block = slice(r0, min(r0 + rows, len(x)))
        a, b = x[block, sin_cols][:, :n], x[block, cos_cols]                 # (k, n) views
        theta = np.arctan2(a, b)
        step = np.pi - np.mod(np.pi - (theta[1:] - theta[:-1]), 2 * np.pi)  # (k-1, n)
        ok = (a ** 2 + b ** 2) > 0
        if mask is not None:
            ok &= mask[block, sin_cols][:, :n] & mask[block, cos_cols]
        valid = ok[1:] & ok[:-1]
        count += valid.sum(axis=0)
        total += (step * valid).sum(axis=0)
    return np.where(count > 0, total / np.maximum(count, 1), 0.0)


def base_guesses(x: np.ndarray, mask: np.ndarray | None, layout: str) -> list[float]:
    """Bases suggested by the pair speeds of `layout`: a falling law (right) and a rising one."""
    d = x.shape[1]
    signed = pair_frequencies(x, mask, layout)                                   # (n,)
    signed = signed * (1.0 if len(signed) == 0 or signed[0] >= 0 else -1.0)     # swapped: turn back
    w = np.abs(signed)
    k = np.arange(len(w))
    span = max(len(x) - 1, 1)
    out = []
    usable = (k >= 1) & (w * span > 0.05) & (w < 3.0) & (w > 0)
    if usable.any():
        c = -float(np.dot(k[usable], np.log(w[usable]))) / float(np.dot(k[usable], k[usable]))
        if c != 0:
            out.append(math.exp(min(abs(c) * exponent_scale(d, layout), 60.0)))
    rising = 1
    while rising < len(w) and 1.0 < signed[rising] < 3.0 and signed[rising] > signed[rising - 1]:
        rising += 1
    if rising > 1:
        kk = k[1:rising]
        c = float(np.dot(kk, np.log(w[1:rising]))) / float(np.dot(kk, kk))
        if c > 0:
            out.append(math.exp(min(c * exponent_scale(d, layout), 60.0)))
    return [b for b in out if 1.0001 < b < 1e15]
