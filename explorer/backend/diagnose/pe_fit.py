"""Fit every sinusoidal PE spec of pe_models (base, first position, scale) to a table (L, d): coarse grid,
common and guessed bases, refinement on ever more rows, round bases and scales where they fit as well,
and the tolerance each fit is held to (pe_table names what the closest one means)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from explorer.backend.diagnose.fitting import (golden_min, lsq_scale, max_residual, sample_rows,
                                               scaled_sse, snap)
from explorer.backend.diagnose.pe_models import Spec, all_specs, base_guesses, column_plan, template, templates
from explorer.backend.diagnose.pe_start import ANGLE_CAP, start_guess
from explorer.backend.diagnose.result import tolerance
from explorer.backend.encodings import LAYOUTS

COMMON_BASES = (10000.0, 100.0, 500.0, 1e5, 5e5, 1e6, 1e8)
GRID = np.linspace(math.log(1.5), math.log(1e9), 64)            # coarse search over ln(base)
STARTS = (0, 1)
TOP = 3                                                          # candidates refined on all rows


@dataclass(frozen=True, slots=True)
class Fit:
    spec: Spec
    base: float
    start: int
    scale: float
    max_error: float


def _sse(x, mask, rows, spec, base, start) -> float:
    t = template(spec, x.shape[1], base, rows + start)
    return scaled_sse(x[rows], t, None if mask is None else mask[rows])[1]


def _sse_many(x, mask, rows, spec, ln_bases, start) -> np.ndarray:
    """Least-squares-scaled SSE of `spec` for each ln(base); (len(ln_bases),)."""
    t = templates(spec, x.shape[1], ln_bases, rows + start)                    # (G, n, d)
    xr = x[rows]
    if mask is not None:
        m = mask[rows]
        t = t * m
        xr = xr * m
    tt = np.einsum("gnd,gnd->g", t, t)
    xt = np.einsum("gnd,nd->g", t, xr)
    scale = np.where(tt > 0, xt / np.where(tt > 0, tt, 1), 0.0)
    return float(np.vdot(xr, xr)) - scale * xt


def _refine(x, mask, spec, start, ln_b) -> float:
    """ln(base) refined on ever more rows with ever narrower brackets (the error in ln(base) gets
    more wiggly as positions grow, so each stage starts where the previous one ended)."""
    n = len(x)
    for rows, half_width in ((sample_rows(n, 48, 0), 0.35), (sample_rows(n, 128, 0), 0.01),
                             (sample_rows(n, 64, 192), 1e-3)):
        ln_b = golden_min(lambda v: _sse(x, mask, rows, spec, math.exp(v), start),
                          max(ln_b - half_width, math.log(1.0001)), ln_b + half_width, 36)
        if len(rows) >= n:
            break
    return ln_b


def _checkable(spec, base, start, rows, d, mask) -> tuple[np.ndarray | None, float]:
    """(the entries to compare, the share of those in mask that are): entries whose angle
    |p w| <= ANGLE_CAP (beyond it float32 tables are noise) and in mask; None when that is every
    entry."""
    w_max = float(np.max(column_plan(spec, d, base)[0]))
    if (rows[-1] + start) * w_max <= ANGLE_CAP:
        return mask, 1.0
    ok = np.abs((rows + start)[:, None] * column_plan(spec, d, base)[0][None, :]) <= ANGLE_CAP
    if mask is None:
        return ok, float(ok.mean())
    kept, asked = ok & mask, int(np.count_nonzero(mask))
    return kept, (np.count_nonzero(kept) / asked if asked else 0.0)


def _residual(x, t, s, mask, share) -> float:
    """max |x - s t| over mask (None: every entry); inf when less than half of the entries
    asked for can be checked (a rising law cannot 'explain' a table by its first columns)."""
    if share < 0.5:
        return float("inf")
    if mask is None:     # no table-sized temporaries (a 4096 x 4096 table has 128 MB each)
        return max_residual(x, t, s)
    r = np.abs(x - s * t)[mask]
    return float(r.max()) if r.size else 0.0


def _max_error(x, mask, spec, base, start, rows=None, work=None) -> tuple[float, float]:
    """(scale, max |x - scale * template|) over the whole table, x being the table's `rows`
    (default: all of them); masked entries and angles beyond ANGLE_CAP left out (see _residual).
    work: an array shaped like x for the template."""
    rows = np.arange(len(x)) if rows is None else rows
    t = template(spec, x.shape[1], base, rows + start, work)
    mask, share = _checkable(spec, base, start, rows, x.shape[1], mask)
    scale = lsq_scale(x, t) if mask is None else scaled_sse(x, t, mask)[0]
    return scale, _residual(x, t, scale, mask, share)


def _snap_scale(x, mask, spec, base, start, scale, err, tol, work=None) -> tuple[float, float]:
    """A round scale (1, sqrt(d), 4 significant digits) when it fits within the tolerance. A fit
    that matches nothing keeps its least-squares scale: "no worse" in max error let one wild entry
    of a 0.2-scaled sine table snap it to -1 (its reference drawn upside down), and a learned table
    of values ~0.03 to 1; a fit that cannot be checked (err inf) keeps it too."""
    if not math.isfinite(err):
        return scale, err
    rows = np.arange(len(x))
    t = template(spec, x.shape[1], base, rows + start, work)
    mask, share = _checkable(spec, base, start, rows, x.shape[1], mask)
    for s in (1.0, -1.0, math.sqrt(x.shape[1]), float(f"{scale:.4g}")):
        e = _residual(x, t, s, mask, share)
        if e <= tol:
            return s, e
    return scale, err


def fit_table(x: np.ndarray, mask: np.ndarray | None, dtype: str) -> list[Fit]:
    """Every spec fitted; the closest first (by max error relative to the fitted scale)."""
    d = x.shape[1]
    head = sample_rows(len(x), 8, 0)
    first = sample_rows(len(x), 48, 0)
    guesses = {lay: base_guesses(x, mask, lay) for lay in LAYOUTS}
    ranked = []
    for spec in all_specs(d):
        for start in STARTS:
            coarse = GRID[int(np.argmin(_sse_many(x, mask, head, spec, GRID, start)))]
            ln_bases = np.log([math.exp(coarse), *COMMON_BASES, *guesses[spec.layout]])
            sse = _sse_many(x, mask, first, spec, ln_bases, start)
            i = int(np.argmin(sse))
            ranked.append((float(sse[i]), spec, start, math.exp(ln_bases[i])))
    ranked.sort(key=lambda r: r[0])
    work = np.empty(x.shape)             # every whole-table template below is written here
    fits = [_fit_one(x, mask, spec, start, base, dtype, work) for _, spec, start, base in ranked[:TOP]]
    if not any(math.isfinite(f.max_error) for f in fits):
        # rising laws past ANGLE_CAP cannot be checked (error inf): a falling one is named instead
        falling = next((r for r in ranked[TOP:] if r[1].sign < 0), None)
        if falling is not None:
            fits.append(_fit_one(x, mask, *falling[1:], dtype, work))
    if not any(f.max_error <= _fit_tol(f, x.shape, dtype) for f in fits):
        fits += _later_starts(x, mask, guesses, dtype, work)       # a slice from a later position?
    fits.sort(key=lambda f: f.max_error / max(abs(f.scale), 1e-300))
    return fits


def bases_near(guess: float) -> list[float]:
    """The common bases within 1.5x of a guessed one (a speed-read base is a few % off), else the guess itself:
    where a first position is looked for, which needs the base to the last digit."""
    return [b for b in COMMON_BASES if abs(math.log(b / guess)) < math.log(1.5)] or [guess]


def _later_starts(x, mask, guesses: dict, dtype: str, work) -> list[Fit]:
    """Fits from the first positions past 1 that row 0's phases give (pe_start), at the bases the pair speeds
    suggest (start-independent) and the common bases near them; only asked for when nothing else fits."""
    out, seen = [], set()
    for spec in all_specs(x.shape[1]):
        if not guesses[spec.layout]:
            continue
        for base in bases_near(guesses[spec.layout][0]):            # near the falling law's guess
            start = start_guess(x, mask, spec, base)
            if start is not None and (spec, start) not in seen:
                seen.add((spec, start))
                out.append(_fit_one(x, mask, spec, start, base, dtype, work))
    return out


def _fit_one(x, mask, spec: Spec, start: int, base: float, dtype: str, work) -> Fit:
    """The candidate refined on all rows, with a round base when it fits as well and a round
    scale when it matches (_snap_scale)."""
    refined = math.exp(_refine(x, mask, spec, start, math.log(base)))
    # a rising law (or a short table) can make the refinement wander off: keep the better one
    tried = [(b, *_max_error(x, mask, spec, b, start, work=work)) for b in dict.fromkeys((refined, base))]
    base, scale, err = min(tried, key=lambda r: r[2] / max(abs(r[1]), 1e-300))
    tol = _tol(spec, base, start, x.shape, scale, dtype)
    probe = sample_rows(len(x), 64, 192)           # round bases are tried on a sample first
    sub = None if mask is None else mask[probe]
    round_base = snap(base, lambda b: _max_error(x[probe], sub, spec, b, start, probe)[1], tol)
    if round_base != base and round_base > 1:      # 1.0003 is not "base 1": no such PE
        r_scale, r_err = _max_error(x, mask, spec, round_base, start, work=work)
        if r_err <= max(tol, err):
            base, scale, err = round_base, r_scale, r_err
    scale, err = _snap_scale(x, mask, spec, base, start, scale, err, tol, work)
    return Fit(spec, base, start, scale, err)


def _tol(spec: Spec, base: float, start: int, shape, scale: float, dtype: str) -> float:
    """tolerance() with the largest angle (L - 1 + start) * max w of this spec and base."""
    w_max = float(np.max(column_plan(spec, shape[1], base)[0]))
    return tolerance(scale, dtype, min((shape[0] - 1 + start) * w_max, ANGLE_CAP))


def _fit_tol(fit: Fit, shape, dtype: str) -> float:
    return _tol(fit.spec, fit.base, fit.start, shape, fit.scale, dtype)
