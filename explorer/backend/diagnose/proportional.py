"""Proportional RoPE (Gemma 4's p-RoPE) in an inv_freq vector or a cos/sin cache: its first pairs turn,
the rest have frequency 0 (an inv_freq of 0; cache columns that stay cos 0 = 1 and sin 0 = 0).

transformers' `_compute_proportional_rope_parameters`: w_k = base^(-2k/head_dim) / factor for
k < int(p * head_dim // 2), 0 after. The turning part is fitted as a plain vector or cache would be,
with the exponent over the whole head (head_dim = 2 x the distinct columns); p is reported as
2 x turning / head_dim, or (2 x turning + 1) / head_dim where transformers' int(p * head_dim // 2)
would round the first down a pair (head_dim 44, 15 pairs: 29.999999999999996). At least MIN_TURNING pairs
must turn, falling geometrically: two numbers always fit a base and a factor exactly.
"""

from __future__ import annotations

import math

import numpy as np

from explorer.backend.diagnose.fitting import log_slope, lsq_scale, max_residual, snap
from explorer.backend.diagnose.messages import mistake, spec_word
from explorer.backend.diagnose.result import Diagnosis, tolerance

MIN_TURNING = 3


def turning_fraction(turning: int, head_dim: int) -> float:
    """A partial_rotary_factor p for which transformers' int(p * head_dim // 2) is `turning`."""
    p = 2 * turning / head_dim
    return p if int(p * head_dim // 2) == turning else (2 * turning + 1) / head_dim


def turning_prefix(w: np.ndarray) -> int:
    """How many leading pairs turn, when w is falling positive numbers then exact zeros (at least
    MIN_TURNING falling, at least one zero); else 0."""
    positive = w > 0
    turning = int(np.argmin(positive)) if not positive.all() else len(w)
    if (turning < MIN_TURNING or turning == len(w) or np.any(w[turning:] != 0)
            or np.any(np.diff(w[:turning]) >= 0)):
        return 0
    return turning


def check_proportional(w: np.ndarray, turning: int, tol: float, conv: dict, lang: str) -> Diagnosis:
    """Diagnosis of w (h,) whose first `turning` entries are positive and the rest 0."""
    h = len(w)
    k = np.arange(turning)
    lead = w[:turning]
    slope, icpt = log_slope(k, np.log(lead), True)

    def err(base, g):
        with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
            ref = g * np.exp(-k * math.log(base) / h)
            return float(np.max(np.abs(lead / ref - 1)))

    top = math.log(1e300)
    base = math.exp(min(max(-slope * h, 1e-12), top))
    factor = 1 / math.exp(max(-top, min(icpt, top)))
    factor = snap(factor, lambda f: err(base, 1 / f), tol)
    base = snap(base, lambda b: err(b, 1 / factor), tol)
    e = err(base, 1 / factor)
    params = {"partial_rotary_factor": turning_fraction(turning, 2 * h)}
    if factor != 1:
        params["factor"] = factor
    conv = {**conv, "base": base, "rope_type": "proportional", "rope_params": params}
    ref = np.zeros(h)
    ref[:turning] = np.exp(-k * math.log(base) / h) / factor
    if e <= tol and base > 1:
        return Diagnosis("inv_freq", True, conv, (), e, tol, w, ref)
    found = (mistake("unknown", lang, nearest=spec_word("proportional", lang, base=base, turning=turning, h=h),
                     err=e, tol=tol),)
    return Diagnosis("inv_freq", False, conv, found, e, tol, w, ref)


def still_columns(u: np.ndarray, tol: float) -> int:
    """How many leading distinct columns of a cos/sin cache u (L, h) move, when all the others stay
    within tol of constant (cos(0 p) = 1, sin(0 p) = 0: p-RoPE's pairs that do not turn); else 0."""
    moving = np.ptp(u, axis=0) > tol                                            # (h,)
    turning = int(np.argmin(moving)) if not moving.all() else len(moving)
    if turning < MIN_TURNING or turning == len(moving) or moving[turning:].any():
        return 0
    return turning


def fit_proportional_cache(u: np.ndarray, turning: int, fit_plain, cache_model, dtype: str) -> dict | None:
    """The best p-RoPE fit of a cache whose first `turning` distinct columns move: the moving ones are
    fitted as a plain cache of `turning` frequencies (fit_plain(u, func, start, dtype): its base b'
    is base^(turning/h)), then checked whole, the still columns included. A dict as fit_plain's plus
    "inv_freq" (h,), or None when no fit is within tolerance."""
    n, h = u.shape
    rows, k = np.arange(n), np.arange(turning)

    def whole(base, factor, func, start):
        inv = np.zeros(h)
        inv[:turning] = np.exp(-k * math.log(base) / h) / factor
        t = cache_model(h, 0, 0, func, start, rows, inv)
        scale = lsq_scale(u, t)
        return max_residual(u, t, scale), scale, inv

    best = None
    for func in ("cos", "sin"):
        for start in (0, 1):
            part = fit_plain(u[:, :turning], func, start, dtype)
            base = part["base"] ** (h / turning)
            if not (math.isfinite(base) and base > 1):
                continue
            e, scale, _ = whole(base, part["factor"], func, start)
            tol = tolerance(scale, dtype, n + start)
            base = snap(base, lambda b: whole(b, part["factor"], func, start)[0], tol)
            e, scale, inv = whole(base, part["factor"], func, start)
            fit = {"base": base, "factor": part["factor"], "func": func, "start": start, "scale": scale,
                   "max_error": e, "tol": tol, "inv_freq": inv}
            if best is None or e / max(abs(scale), 1e-300) < best["max_error"] / max(abs(best["scale"]), 1e-300):
                best = fit
    return best if best is not None and best["max_error"] <= best["tol"] else None
