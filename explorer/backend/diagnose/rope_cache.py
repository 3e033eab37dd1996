"""Check a RoPE cos/sin cache (L, head_dim) or an inv_freq vector (head_dim/2,).

Cache layouts (each frequency theta_k held by two columns):
  half         cat(freqs, freqs): columns k and k + d/2 (HF `emb = torch.cat((freqs, freqs), -1)`)
  interleaved  repeat_interleave: columns 2k and 2k + 1 (RoFormer / GPT-J style)
theta_k = g * base^(-2k/d): g = 1 for rope_type default, 1/factor for linear (position interpolation).
Other rope types go through `_scaled_candidates` (explorer.backend.rope_scaling, when present).
"""

from __future__ import annotations

import math

import numpy as np

from explorer.backend.diagnose.fitting import (golden_min, log_slope, lsq_scale, max_residual,
                                               sample_rows, scaled_sse, snap)
from explorer.backend.diagnose.messages import base_slip, mistake, spec_word
from explorer.backend.diagnose.pe_fit import bases_near
from explorer.backend.diagnose.pe_start import cache_start_guess
from explorer.backend.diagnose.proportional import (check_proportional, fit_proportional_cache, still_columns,
                                                    turning_fraction, turning_prefix)
from explorer.backend.diagnose.result import Diagnosis, tolerance

PAIRINGS = ("half", "interleaved")
PAIRING_BLOCK_BYTES = 4 << 20   # duplicated_pairing compares this many bytes of rows at a time


def duplicated_pairing(x: np.ndarray, tol: float) -> str | None:
    """'half' or 'interleaved' when the columns of x come in equal twos that way, else None."""
    d = x.shape[1]
    if d < 2 or d % 2:
        return None
    h = d // 2
    rows = max(1, PAIRING_BLOCK_BYTES // (8 * h))   # a block of rows at a time, stopping at the
    for name, first, second in (("half", np.s_[:h], np.s_[h:]),     # first that differs (a PE
                                ("interleaved", np.s_[0::2], np.s_[1::2])):   # table: its first)
        if all(np.max(np.abs(x[r0:r0 + rows, first] - x[r0:r0 + rows, second])) <= tol
               for r0 in range(0, len(x), rows)):
            return name
    return None


def _columns(x: np.ndarray, pairing: str) -> np.ndarray:
    """The d/2 distinct columns, one per frequency; (L, d/2)."""
    return x[:, : x.shape[1] // 2] if pairing == "half" else x[:, 0::2]


def column_speed(u: np.ndarray) -> np.ndarray:
    """Angular speed of each column of u (L, h) read through cos(w) = sum (u[p+1] + u[p-1]) u[p] /
    (2 sum u[p]^2), which holds for any amplitude and phase; (h,), 0 where it cannot be read."""
    if len(u) < 3:
        return np.zeros(u.shape[1])
    num = ((u[2:] + u[:-2]) * u[1:-1]).sum(axis=0)
    den = 2 * (u[1:-1] ** 2).sum(axis=0)
    c = np.where(den > 0, num / np.where(den > 0, den, 1), 1.0)
    return np.arccos(np.clip(c, -1.0, 1.0))


def cache_model(h: int, base: float, gain: float, func: str, start: int, rows: np.ndarray,
                inv_freq: np.ndarray | None = None) -> np.ndarray:
    """Unit-scale distinct columns func(p theta_k); (len(rows), h)."""
    theta = inv_freq if inv_freq is not None else gain * np.exp(-np.arange(h) * 2 * math.log(base) / (2 * h))
    angle = (rows + start)[:, None] * theta[None, :]
    return np.cos(angle) if func == "cos" else np.sin(angle)


def _speed_guess(u: np.ndarray) -> tuple[float, float]:
    """(gain, ln(base)) of theta_k = gain base^(-k/h) from the columns' speeds (whatever the first position)."""
    h = u.shape[1]
    w = column_speed(u)
    gain = float(w[0]) if w[0] > 0 else 1.0
    k = np.arange(h)
    ok = (k >= 1) & (w > 0.02) & (w < 3.0)
    slope = log_slope(k[ok], np.log(w[ok] / gain), False)[0] if ok.any() else -math.log(1e4) / h
    return gain, min(max(-slope * h, math.log(1.0001)), 60.0)


def _later_starts(u: np.ndarray, dtype: str) -> list[dict]:
    """Fits from the first positions past 1 that the first two rows' phases give (pe_start), at the common
    bases near the speeds' one (or it): a cache cut from a longer one; no factor (gain 1)."""
    guess = math.exp(_speed_guess(u)[1])
    out, rows = [], np.arange(len(u))
    for func in ("cos", "sin"):
        for base in bases_near(guess):
            start = cache_start_guess(u, func, base)
            if start is not None:
                t = cache_model(u.shape[1], base, 1.0, func, start, rows)
                scale = lsq_scale(u, t)
                out.append({"base": base, "factor": 1.0, "func": func, "start": start, "scale": scale,
                            "max_error": max_residual(u, t, scale), "tol": tolerance(scale, dtype, len(u) + start)})
    return out


def _fit_cache(u: np.ndarray, func: str, start: int, dtype: str) -> dict:
    """Fit base and gain of func(p theta_k) to the distinct columns u (L, h)."""
    n, h = u.shape
    gain, ln_b = _speed_guess(u)

    def sse(rows, base, g):
        return scaled_sse(u[rows], cache_model(h, base, g, func, start, rows), None)[1]

    for rows, width in ((sample_rows(n, 48, 0), 0.5), (sample_rows(n, 256, 0), 0.02),
                        (sample_rows(n, 512, 512), 2e-3)):
        ln_b = golden_min(lambda v: sse(rows, math.exp(v), gain), max(ln_b - width, 1e-4), ln_b + width)
        gain = math.exp(golden_min(lambda v: sse(rows, math.exp(ln_b), math.exp(v)),
                                   math.log(gain) - width / 4, math.log(gain) + width / 4))
    rows = np.arange(n)

    def err(base, g):
        t = cache_model(h, base, g, func, start, rows)
        s = lsq_scale(u, t)
        return max_residual(u, t, s), s

    scale = err(math.exp(ln_b), gain)[1]
    tol = tolerance(scale, dtype, n + start)
    factor = snap(1 / gain, lambda f: err(math.exp(ln_b), 1 / f)[0], tol)
    base = snap(math.exp(ln_b), lambda b: err(b, 1 / factor)[0], tol)
    base = base if base > 1 else math.exp(ln_b)          # a fit near 1 is not reported as base 1
    e, scale = err(base, 1 / factor)
    return {"base": base, "factor": factor, "func": func, "start": start, "scale": scale,
            "max_error": e, "tol": tolerance(scale, dtype, n + start)}


def _relative_error(fit: dict) -> float:
    """How a cache fit ranks: its max error over its scale."""
    return fit["max_error"] / max(abs(fit["scale"]), 1e-300)


def check_cache(x: np.ndarray, pairing: str, dtype: str, orientation: str, expect: dict,
                lang: str = "en") -> Diagnosis:
    """Diagnosis of a cos or sin cache x (L, head_dim) whose columns are duplicated as `pairing`."""
    u = _columns(x, pairing)
    fits = [_fit_cache(u, f, s, dtype) for f in ("cos", "sin") for s in (0, 1)]
    best = min(fits, key=_relative_error)
    if best["max_error"] > best["tol"]:                 # a slice from a later position?
        best = min([best, *_later_starts(u, dtype)], key=_relative_error)
    hd = x.shape[1]
    rope_type, params = ("default", {}) if abs(best["factor"] - 1) < 1e-9 else \
        ("linear", {"factor": best["factor"]})
    conv = {"function": best["func"], "pairing": pairing, "head_dim": hd, "base": best["base"],
            "rope_type": rope_type, "rope_params": params, "scale": best["scale"],
            "orientation": orientation, "start": best["start"], "dtype": dtype, "max_len": len(x)}
    found = []
    still = proportional_cache(u, dtype) if best["max_error"] > best["tol"] else None
    if still is not None:                               # p-RoPE: its slow pairs do not turn
        params = {"partial_rotary_factor": turning_fraction(int(np.count_nonzero(still["inv_freq"])), hd)}
        if still["factor"] != 1:
            params["factor"] = still["factor"]
        conv.update({"base": still["base"], "rope_type": "proportional", "rope_params": params,
                     "scale": still["scale"], "function": still["func"], "start": still["start"]})
        if still["start"]:
            found.append(mistake("positions_from_1", lang, start=still["start"]))
        found += _expectations(conv, expect, lang)
        cols = still["scale"] * cache_model(hd // 2, 0, 0, still["func"], 0, np.arange(len(x)), still["inv_freq"])
        return Diagnosis("rope_cache", not found, conv, tuple(found), still["max_error"], still["tol"], x,
                         _duplicated(cols, pairing))
    scaled = _best_scaled(u, best, dtype) if best["max_error"] > best["tol"] else None
    if scaled is not None:
        best, cand = scaled
        conv.update({"base": cand.base, "rope_type": cand.rope_type, "rope_params": cand.params,
                     "preset": cand.name, "attention_factor": cand.attention_factor,
                     "scale": best["scale"], "function": best["func"], "start": best["start"]})
        cols = best["scale"] * cache_model(hd // 2, 0, 0, best["func"], 0, np.arange(len(x)), cand.inv_freq)
        return Diagnosis("rope_cache", True, conv, (), best["max_error"], best["tol"], x, _duplicated(cols, pairing))
    if best["max_error"] > best["tol"]:
        found.append(mistake("unknown", lang, nearest=spec_word("cache", lang, func=best["func"], base=best["base"]),
                             err=best["max_error"], tol=best["tol"]))
    else:
        slip, meant = base_slip(best["base"], lang)
        if slip is not None and hd >= 4:
            found.append(slip)
            conv["base"] = meant
        if best["start"]:
            found.append(mistake("positions_from_1", lang, start=best["start"]))
        found += _expectations(conv, expect, lang)
    ref_cols = best["scale"] * cache_model(hd // 2, conv["base"], 1 / best["factor"], best["func"],
                                           0, np.arange(len(x)))
    return Diagnosis("rope_cache", not found, conv, tuple(found), best["max_error"], best["tol"], x,
                     _duplicated(ref_cols, pairing))


def _duplicated(cols: np.ndarray, pairing: str) -> np.ndarray:
    """Distinct columns (L, d/2) back to a cache (L, d), each held twice as `pairing` does (_columns' inverse)."""
    return np.concatenate([cols, cols], axis=1) if pairing == "half" else np.repeat(cols, 2, axis=1)


def proportional_cache(u: np.ndarray, dtype: str) -> dict | None:
    """A p-RoPE fit of the columns u (explorer.backend.diagnose.proportional), or None."""
    turning = still_columns(u, tolerance(float(np.max(np.abs(u))), dtype, len(u)))
    return fit_proportional_cache(u, turning, _fit_cache, cache_model, dtype) if turning else None


def _best_scaled(u: np.ndarray, best: dict, dtype: str):
    """(fit, Candidate) of the scaled-RoPE preset that reproduces the columns u within tolerance."""
    from explorer.backend.diagnose.scaled_rope import preset_candidates

    n, h = u.shape
    rows = np.arange(n)
    for cand in preset_candidates(2 * h):
        for func in ("cos", "sin"):
            t = cache_model(h, 0, 0, func, 0, rows, cand.inv_freq)
            scale = lsq_scale(u, t)
            err = max_residual(u, t, scale)
            tol = tolerance(scale, dtype, n)
            if err <= tol:
                return dict(best, func=func, start=0, scale=scale, max_error=err, tol=tol), cand
    return None


def _expectations(conv: dict, expect: dict, lang: str) -> list:
    """Mistakes against what the caller said the data should be (base, pairing, head_dim)."""
    out = []
    base = expect.get("base")
    if base is not None and abs(conv["base"] / base - 1) > 1e-4:
        out.append(mistake("wrong_base", lang, fitted=conv["base"], expected=base))
    pairing = expect.get("pairing")
    if pairing is not None and conv.get("pairing") is not None and pairing != conv["pairing"]:
        out.append(mistake("wrong_pairing", lang, found=spec_word("pairing_" + conv["pairing"], lang),
                           expected=spec_word("pairing_" + pairing, lang),
                           why=spec_word("pairs_" + conv["pairing"], lang)))
    return out


NOT_A_VECTOR = {   # why nothing is fitted to an inv_freq of one number or of non-positive numbers, (English, Chinese)
    "positive": ("an inv_freq vector holds positive numbers", "inv_freq 向量的各项应为正数"),
    "one": ("one number", "只有一个数"),
}


def _first_not_positive(w: np.ndarray, lang: str) -> str:
    """": w[2] = -0.01 (3 of 64 are <= 0)", the first entry that is not positive (NaN included), or ""."""
    bad = np.flatnonzero(~(w > 0))
    if not bad.size:
        return ""
    i = int(bad[0])
    count = "" if bad.size == 1 else (f"（共 {bad.size:,} 项 <= 0）" if lang == "zh_CN"
                                      else f" ({bad.size:,} of {len(w):,} are <= 0)")
    return ("：" if lang == "zh_CN" else ": ") + f"w[{i}] = {float(w[i]):.3g}" + count


def check_inv_freq(w: np.ndarray, dtype: str, expect: dict, lang: str = "en") -> Diagnosis:
    """Diagnosis of an inv_freq vector w (h,): theta_k = g * base^(-2k/(2h)), or proportional's
    (explorer.backend.diagnose.proportional: positive, then zeros)."""
    h = len(w)
    hd = 2 * h
    k = np.arange(h)
    conv = {"head_dim": hd, "dtype": dtype, "scale": 1.0}
    tol = tolerance(1.0, dtype, 8 * math.log(1e6))
    turning = turning_prefix(w)
    if turning:                                         # p-RoPE: its slow pairs have frequency 0
        return check_proportional(w, turning, tol, conv, lang)
    if np.any(w <= 0) or h < 2:
        why = NOT_A_VECTOR["positive" if np.any(w <= 0) else "one"][lang == "zh_CN"] + _first_not_positive(w, lang)
        found = (mistake("unknown_unfit", lang, why=why),)          # its error inf: nothing was fitted
        return Diagnosis("inv_freq", False, conv, found, float("inf"), tol, w, None)
    with np.errstate(over="ignore"):                    # w[0] a denormal: w / w[0] is inf
        spread = float(np.max(np.abs(w / w[0] - 1)))
    if spread <= tol:         # every pair the same frequency: the slip explains w exactly, but there is no base to
        found = (mistake("constant_freq", lang, w=float(w[0])),)   # read (it had reported "base 1"): no reference
        return Diagnosis("inv_freq", False, conv, found, 0.0, tol, w, None)
    slope, icpt = log_slope(k, np.log(w), True)
    sign = -1 if slope <= 0 else 1
    top = math.log(1e300)              # exp beyond this overflows (w spanning 1 .. 1e-300)
    gain = math.exp(max(-top, min(icpt, top)))

    def err(base, g):
        with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
            ref = g * np.exp(sign * k * math.log(base) / h)
            return float(np.max(np.abs(w / ref - 1)))

    base = math.exp(min(abs(slope) * h, top))
    factor = snap(1 / gain, lambda f: err(base, 1 / f), tol)
    base = snap(base, lambda b: err(b, 1 / factor), tol)
    e = err(base, 1 / factor)
    rope_type, params = ("default", {}) if factor == 1 else ("linear", {"factor": factor})
    conv.update({"base": base, "rope_type": rope_type, "rope_params": params})
    ref = np.exp(-k * math.log(base) / h) / factor
    found = []
    if e > tol:
        from explorer.backend.diagnose.scaled_rope import preset_candidates

        for cand in preset_candidates(hd):
            if np.any(cand.inv_freq <= 0):          # p-RoPE's zeros: w has none (it is all positive here)
                continue
            ce = float(np.max(np.abs(w / cand.inv_freq - 1)))
            if ce <= tol:
                conv.update({"base": cand.base, "rope_type": cand.rope_type, "rope_params": cand.params,
                             "preset": cand.name})
                return Diagnosis("inv_freq", True, conv, (), ce, tol, w, cand.inv_freq)
    if e > tol:
        found.append(mistake("unknown", lang, nearest=spec_word("inv_freq", lang, base=base, factor=factor),
                             err=e, tol=tol))
    elif sign > 0:
        found.append(mistake("wrong_sign", lang, w1=float(w[1] / w[0])))
    elif base_slip(base, lang)[0] is not None and h >= 2:
        found.append(base_slip(base, lang)[0])
    if not found:
        found += _expectations(conv, expect, lang)
    return Diagnosis("inv_freq", not found, conv, tuple(found), e, tol, w, ref)
