"""An inv_freq vector of proportional RoPE (Gemma 4's p-RoPE): its first pairs turn, the rest are 0.

transformers' `_compute_proportional_rope_parameters`: w_k = base^(-2k/head_dim) / factor for
k < int(p * head_dim // 2), 0 after. The positive prefix is fitted as a plain vector would be (the
exponent runs over the whole head, head_dim = 2 len(w)); p is reported as 2 x turning / head_dim,
the smallest fraction that turns that many pairs.
"""

from __future__ import annotations

import math

import numpy as np

from explorer.backend.diagnose.fitting import log_slope, snap
from explorer.backend.diagnose.messages import mistake
from explorer.backend.diagnose.result import Diagnosis


def turning_prefix(w: np.ndarray) -> int:
    """How many leading pairs turn, when w is positive numbers then exact zeros (both parts at least
    one pair; two turning pairs or more, so that a base can be fitted); else 0."""
    positive = w > 0
    turning = int(np.argmin(positive)) if not positive.all() else len(w)
    if turning < 2 or turning == len(w) or np.any(w[turning:] != 0):
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
    params = {"partial_rotary_factor": 2 * turning / (2 * h)}
    if factor != 1:
        params["factor"] = factor
    conv = {**conv, "base": base, "rope_type": "proportional", "rope_params": params}
    ref = np.zeros(h)
    ref[:turning] = np.exp(-k * math.log(base) / h) / factor
    if e <= tol and slope < 0 and base > 1:
        return Diagnosis("inv_freq", True, conv, (), e, tol, w, ref)
    found = (mistake("unknown", lang, nearest=f"proportional, base {base:.6g}, {turning} of {h} pairs turning",
                     err=e, tol=tol),)
    return Diagnosis("inv_freq", False, conv, found, e, tol, w, ref)
