"""Check a PE table (L, d): fit every spec of pe_models (base, start, scale), keep the closest,
and name what it is (a right convention) or which slips it has, with the evidence."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from explorer.backend.diagnose.fitting import (golden_min, lsq_scale, max_residual, sample_rows,
                                               scaled_sse, snap)
from explorer.backend.diagnose.messages import ONLY_SIN_WHERE, base_slip, mistake, spec_word
from explorer.backend.diagnose.pe_models import (Spec, all_specs, base_guesses, column_plan, template,
                                                 templates)
from explorer.backend.diagnose.result import Diagnosis, tolerance
from explorer.backend.diagnose.wrong_channels import (column_errors, few, held_channels, holdings, listed,
                                                      mostly_missing, standing_out)
from explorer.backend.encodings import LAYOUTS

COMMON_BASES = (10000.0, 100.0, 500.0, 1e5, 5e5, 1e6, 1e8)
GRID = np.linspace(math.log(1.5), math.log(1e9), 64)            # coarse search over ln(base)
STARTS = (0, 1)
ANGLE_CAP = 2.0 ** 15                                            # see _checkable
TOP = 3                                                          # candidates refined on all rows
FAR = 0.5        # a fit whose RMS error (at its best scale) passes this share of the table's RMS is
#                  not "near" it: a sine table with 12% noise misses by ~0.17, random and learned ~1


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
    fits.sort(key=lambda f: f.max_error / max(abs(f.scale), 1e-300))
    return fits


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


def check_pe(x: np.ndarray, dtype: str, orientation: str, lang: str = "en") -> Diagnosis:
    """Diagnosis of a PE table x (L, d) float64 (already in (L, d) orientation)."""
    rms: dict = {}                                  # Fit -> _rms_error(x, fit), when taken
    best = _choose(fit_table(x, None, dtype), x.shape, dtype, x, rms)
    tol = _fit_tol(best, x.shape, dtype)
    dropout = None
    whole = np.all(x == 0, axis=0)                  # zero channels: not dropout's scattered zeros
    zeros = float(np.mean(x[:, ~whole] == 0)) if not whole.all() else 1.0
    if best.max_error > tol and zeros > 0.02:
        mask = x != 0
        masked = _choose(fit_table(x, mask, dtype), x.shape, dtype)
        kept = _structural_nonzero(masked, x.shape)
        p = float(np.mean(x[kept] == 0)) if kept.any() else 0.0
        if masked.max_error <= _fit_tol(masked, x.shape, dtype) and p > 0.01:
            best, dropout = masked, p
            tol = _fit_tol(best, x.shape, dtype)
    if best.max_error > tol and dropout is None:
        few_wrong = _few_wrong_channels(x, best, dtype, orientation, lang)
        if few_wrong is not None:
            return few_wrong
    return _diagnosis(x, best, tol, dtype, orientation, dropout, lang, rms.get(best))


def _few_wrong_channels(x, fit: Fit, dtype: str, orientation: str, lang: str) -> Diagnosis | None:
    """The diagnosis of a table that is `fit`'s convention except in a few channels (wrong_channels.py):
    fitted again without them, the channels that still miss named; None when they are not a few."""
    d, rows = x.shape[1], np.arange(len(x))

    def errors(f: Fit):
        t = template(f.spec, d, f.base, rows + f.start)                                  # (L, d)
        checked, share = _checkable(f.spec, f.base, f.start, rows, d, None)
        return t, column_errors(x, t, f.scale, checked), share

    _, col_err, share = errors(fit)
    out = standing_out(col_err, _fit_tol(fit, x.shape, dtype))
    if share < 0.5 or not few(out, d):
        return None
    keep = np.ones(x.shape, dtype=bool)
    keep[:, out] = False
    refit = _fit_one(x, keep, fit.spec, fit.start, fit.base, dtype, np.empty(x.shape))
    tol = _fit_tol(refit, x.shape, dtype)
    t, col_err, _ = errors(refit)
    wrong = np.flatnonzero(col_err > tol)
    if not few(wrong, d) or not mostly_missing(x, t, refit.scale, wrong, tol):
        return None
    refit = replace(refit, max_error=float(col_err.max()))
    held = holdings(held_channels(x, t, refit.scale, wrong, tol), lang)
    named = mistake("wrong_channels", lang, nearest=_spec_words(refit, lang), cols=listed(wrong, lang),
                    err=refit.max_error, tol=tol, held=held)
    return _diagnosis(x, refit, tol, dtype, orientation, None, lang, extra=named)


def _choose(fits: list, shape, dtype: str, x=None, rms: dict | None = None) -> Fit:
    """The fit with the fewest slips among those within tolerance (integer positions cannot tell
    w from w + 2 pi: a rising law can alias a right one), else the closest: given the table x, by
    RMS error at its best scale (kept in `rms`), checkable fits first; else by max error / scale
    (one wild entry decided "positions from 1" for a sine table from 0)."""
    good = [f for f in fits if f.max_error <= _fit_tol(f, shape, dtype)]
    slips = lambda f: (f.spec.assign != "sincos") + (f.spec.law != "2i") + (f.spec.sign > 0) + (f.start != 0)
    if good:
        return min(good, key=lambda f: (slips(f), f.max_error))
    if x is None:
        return fits[0]
    rms = {} if rms is None else rms
    for f in fits:
        rms[f] = _rms_error(x, f)
    return min(fits, key=lambda f: (not math.isfinite(f.max_error), rms[f][0] / (rms[f][1] or 1.0)))


def _tol(spec: Spec, base: float, start: int, shape, scale: float, dtype: str) -> float:
    """tolerance() with the largest angle (L - 1 + start) * max w of this spec and base."""
    w_max = float(np.max(column_plan(spec, shape[1], base)[0]))
    return tolerance(scale, dtype, min((shape[0] - 1 + start) * w_max, ANGLE_CAP))


def _fit_tol(fit: Fit, shape, dtype: str) -> float:
    return _tol(fit.spec, fit.base, fit.start, shape, fit.scale, dtype)


def _structural_nonzero(fit: Fit, shape) -> np.ndarray:
    """True where the fitted template is not (nearly) zero: the entries dropout could zero."""
    t = template(fit.spec, shape[1], fit.base, np.arange(shape[0]) + fit.start)
    return np.abs(t) > 1e-6


def _diagnosis(x, fit: Fit, tol, dtype, orientation, dropout, lang, rms_of=None, extra=None) -> Diagnosis:
    """rms_of: _rms_error(x, fit) when _choose took it; extra: a Mistake of the few channels that miss
    a fit the others match (then fit's own slips come before it)."""
    spec, d = fit.spec, x.shape[1]
    scale = fit.scale * (1 - dropout_p(fit.scale, dropout)) if dropout else fit.scale
    base = fit.base
    conv = {"layout": spec.layout, "base": base, "scale": scale, "orientation": orientation,
            "start": fit.start, "dtype": dtype, "max_len": int(x.shape[0]), "d_model": int(d),
            "scale_is_sqrt_d": bool(abs(abs(scale) / math.sqrt(d) - 1) < 1e-3)}
    found = []
    if fit.max_error <= tol or extra is not None:
        found = _slips(x, fit, dropout, lang) + ([extra] if extra is not None else [])
        if spec.is_right and found and found[0].id.startswith("exponent_"):
            base = base_slip(base, lang)[1]
            conv["base"] = base
    ref = template(spec.right(), d, base, np.arange(len(x)))
    ref *= scale                                          # in place: one table-sized array, not two
    if fit.max_error > tol and extra is None:
        nearest = _spec_words(fit, lang)
        rms, size = rms_of or _rms_error(x, fit)
        conv.update(rms_error=rms, rms=size)
        found = [mistake("unknown_far", lang, nearest=nearest, rms=rms, size=size, err=fit.max_error, tol=tol,
                         orientation=orientation.split(":")[0])
                 if rms > FAR * size else mistake("unknown", lang, nearest=nearest, err=fit.max_error, tol=tol)]
    match = not found
    return Diagnosis("pe", match, conv, tuple(found), fit.max_error, tol, x, ref)


def _rms_error(x, fit: Fit) -> tuple[float, float]:
    """(RMS of x - s t, RMS of x) over the entries the fit is checked on (see _checkable), t the
    fit's template at its least-squares scale s (not the snapped one: one outlier let the max-error
    snap pick -1 for a clean sine table). Three dot products a block of rows at a time: no
    table-sized template or residual."""
    xx = xt = tt = 0.0
    count = 0
    step = max(1, (1 << 20) // max(1, x.shape[1]))                      # ~8 MB of template a block
    for r0 in range(0, len(x), step):
        rows = np.arange(r0, min(len(x), r0 + step))
        t = template(fit.spec, x.shape[1], fit.base, rows + fit.start)     # (rows, d)
        xb = x[r0:r0 + len(rows)]
        mask = _checkable(fit.spec, fit.base, fit.start, rows, x.shape[1], None)[0]
        if mask is not None:
            t, xb = np.where(mask, t, 0.0), np.where(mask, xb, 0.0)
        xx, xt, tt = xx + float(np.vdot(xb, xb)), xt + float(np.vdot(xb, t)), tt + float(np.vdot(t, t))
        count += xb.size if mask is None else int(np.count_nonzero(mask))
    if count == 0:
        return 0.0, 0.0
    sse = xx - xt * xt / tt if tt > 0 else xx
    return math.sqrt(max(sse, 0.0) / count), math.sqrt(xx / count)


def _spec_words(fit: Fit, lang: str = "en") -> str:
    """The fit in words, in `lang`: "interleaved sin/cos, base 10000, positions from 0", ..."""
    s = fit.spec
    words = [spec_word("layout", lang, layout=spec_word(s.layout, lang)), spec_word("base", lang, base=fit.base),
             spec_word("start", lang, start=fit.start)]
    if s.assign != "sincos":
        words.append(spec_word(s.assign, lang))
    if s.law != "2i":
        words.append(spec_word("per_channel", lang))
    if s.sign > 0:
        words.append(spec_word("plus", lang))
    return spec_word("sep", lang).join(words)


def _slips(x, fit: Fit, dropout, lang) -> list:
    """The Mistakes of a fit that is within tolerance."""
    s, out = fit.spec, []
    if s.assign == "swapped":
        col = int(np.flatnonzero(column_plan(s, x.shape[1], fit.base)[1])[0])
        out.append(mistake("sin_cos_swapped", lang, col=col, first=x[0, col] / fit.scale))
    if s.assign in ("sin_zero", "sin_dup"):
        where = ONLY_SIN_WHERE["zero" if s.assign == "sin_zero" else "sin"][lang == "zh_CN"]
        out.append(mistake("only_sin", lang, where=where))
    if s.sign > 0:
        w1 = column_plan(s, x.shape[1], fit.base)[0]
        out.append(mistake("wrong_sign", lang, w1=float(w1[w1 > 1].min()) if (w1 > 1).any() else 1.0))
    if s.law == "per_channel":
        out.append(mistake("exponent_i_per_channel", lang, err=fit.max_error))
    elif s.sign < 0 and x.shape[1] >= 4 and base_slip(fit.base, lang)[0] is not None:
        out.append(base_slip(fit.base, lang)[0])
    if fit.start != 0:
        out.append(mistake("positions_from_1", lang, start=fit.start))
    if dropout:
        out.append(mistake("dropout_on", lang, pct=100 * dropout, gain=fit.scale,
                           p=round(dropout_p(fit.scale, dropout), 3)))
    return out


def dropout_p(gain: float, zero_fraction: float) -> float:
    """Dropout's p: 1 - 1/gain when the kept values' gain agrees with the zero fraction (a unit
    table), else the zero fraction itself."""
    p = 1 - 1 / gain if gain > 1 else -1.0
    return p if 0 < p < 0.95 and abs(p - zero_fraction) < 0.1 else zero_fraction
