"""Check a PE table (L, d): the closest fit of pe_fit, and what it is (a right convention) or which slips
it has, with the evidence."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from explorer.backend.diagnose.messages import CAT_FIX, ONLY_SIN_WHERE, base_slip, mistake, spec_word
from explorer.backend.diagnose.pe_fit import COMMON_BASES, Fit, _checkable, _fit_tol, fit_table
from explorer.backend.diagnose.pe_models import column_plan, template
from explorer.backend.diagnose.result import Diagnosis, describe
from explorer.backend.diagnose.wrong_channels import (column_errors, few, held_channels, holdings, listed,
                                                      mostly_missing, standing_out)

MIN_NONZERO = 16    # nonzero values a fit that leaves the zeros out (dropout) needs at least
MIN_CHANNELS = 8    # channels a table needs for its few wrong ones to be named (the rest must fix the base)
FAR = 0.5        # a fit whose RMS error (at its best scale) passes this share of the table's RMS is
#                  not "near" it: a sine table with 12% noise misses by ~0.17, random and learned ~1


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
        # a fit to the nonzero values needs enough of them: a one-hot 4 x 8 table's 4 ones fit a swapped
        # sine, and it read "about 83% zeros and the rest x 1: dropout p = 0.83 was on"
        enough = np.count_nonzero(mask) >= MIN_NONZERO
        if masked.max_error <= _fit_tol(masked, x.shape, dtype) and p > 0.01 and enough:
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
    # too few channels left to tell the base (a 5-wide table's one damaged channel set it to 1e9), or
    # a sine written twice: the numbers of a RoPE sin cache, which the cache reading names
    if share < 0.5 or not few(out, d) or d < MIN_CHANNELS or fit.spec.assign == "sin_dup":
        return None
    keep = np.ones(x.shape, dtype=bool)
    keep[:, out] = False
    # every convention fitted again without them, chosen as for a clean table (t2t base 10000 and concat
    # base 37276 have the same frequencies at d = 16: the damaged fit had kept the odd one)
    refit = _choose(fit_table(x, keep, dtype), x.shape, dtype)
    tol = _fit_tol(refit, x.shape, dtype)
    t, col_err, _ = errors(refit)
    wrong = np.flatnonzero(col_err > tol)
    if not few(wrong, d) or not mostly_missing(x, t, refit.scale, wrong, tol) or refit.spec.assign == "sin_dup":
        return None
    refit = replace(refit, max_error=float(col_err.max()))
    held = holdings(held_channels(x, t, refit.scale, wrong, tol), lang)

    def named(conv: dict):
        found = mistake("wrong_channels", lang, nearest=describe("pe", conv, lang), cols=listed(wrong, lang),
                        err=refit.max_error, tol=tol, held=held)
        return found if conv["layout"] == "interleaved" else replace(found, fix=CAT_FIX)

    return _diagnosis(x, refit, tol, dtype, orientation, None, lang, extra=named)


def _choose(fits: list, shape, dtype: str, x=None, rms: dict | None = None) -> Fit:
    """The fit with the fewest slips among those within tolerance (integer positions cannot tell
    w from w + 2 pi: a rising law can alias a right one), a common base before an odd one where both fit
    (t2t at base 10000 and concat at 10000^(h / (h - 1)) have the same frequencies: XGLM's table from position 2
    was named by the alias its float32 noise favoured), else the closest: given the table x, by
    RMS error at its best scale (kept in `rms`), checkable fits first; else by max error / scale
    (one wild entry decided "positions from 1" for a sine table from 0)."""
    good = [f for f in fits if f.max_error <= _fit_tol(f, shape, dtype)]
    slips = lambda f: (f.spec.assign != "sincos") + (f.spec.law != "2i") + (f.spec.sign > 0) + (f.start != 0)
    if good:
        return min(good, key=lambda f: (slips(f), f.base not in COMMON_BASES, f.max_error))
    if x is None:
        return fits[0]
    rms = {} if rms is None else rms
    for f in fits:
        rms[f] = _rms_error(x, f)
    return min(fits, key=lambda f: (not math.isfinite(f.max_error), rms[f][0] / (rms[f][1] or 1.0)))


def _structural_nonzero(fit: Fit, shape) -> np.ndarray:
    """True where the fitted template is not (nearly) zero: the entries dropout could zero."""
    t = template(fit.spec, shape[1], fit.base, np.arange(shape[0]) + fit.start)
    return np.abs(t) > 1e-6


def _diagnosis(x, fit: Fit, tol, dtype, orientation, dropout, lang, rms_of=None, extra=None) -> Diagnosis:
    """rms_of: _rms_error(x, fit) when _choose took it; extra: convention -> the Mistake of the few
    channels that miss a fit the others match (then fit's own slips come before it)."""
    spec, d = fit.spec, x.shape[1]
    scale = fit.scale * (1 - dropout_p(fit.scale, dropout)) if dropout else fit.scale
    base = fit.base
    conv = {"layout": spec.layout, "base": base, "scale": scale, "orientation": orientation,
            "start": fit.start, "dtype": dtype, "max_len": int(x.shape[0]), "d_model": int(d),
            "scale_is_sqrt_d": bool(abs(abs(scale) / math.sqrt(d) - 1) < 1e-3)}
    found = []
    if fit.max_error <= tol or extra is not None:
        found = _slips(x, fit, dropout, lang) + ([extra(conv)] if extra is not None else [])
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
    if fit.start != 0:            # (t2t from 2: fairseq's models, XGLM's and M2M100's, start there by design)
        fairseq = fit.start == 2 and s.layout == "t2t"
        out.append(mistake("positions_from_2_fairseq" if fairseq else "positions_from_1", lang, start=fit.start))
    if dropout:
        out.append(mistake("dropout_on", lang, pct=100 * dropout, gain=fit.scale,
                           p=round(dropout_p(fit.scale, dropout), 3)))
    return out


def dropout_p(gain: float, zero_fraction: float) -> float:
    """Dropout's p: 1 - 1/gain when the kept values' gain agrees with the zero fraction (a unit
    table), else the zero fraction itself."""
    p = 1 - 1 / gain if gain > 1 else -1.0
    return p if 0 < p < 0.95 and abs(p - zero_fraction) < 0.1 else zero_fraction
