"""The frequencies view's data: w_i and wavelengths per pair. No Qt here."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from explorer.backend.encodings import frequencies
from explorer.compute.screen import frozen
from explorer.params import Params


@dataclass(frozen=True)
class FrequenciesResult:
    index: np.ndarray        # (h,) pair index i
    w: np.ndarray            # (h,) angular frequency w_i
    wavelength: np.ndarray   # (h,) 2 pi / w_i in positions
    shortest: float
    longest: float
    beyond: int              # pairs whose wavelength exceeds max_len (no full period in the table)
    params: Params


@lru_cache(maxsize=4)
def frequency_table(params: Params) -> FrequenciesResult:
    """w_i and 2 pi / w_i per pair for the current d_model, base and layout."""
    w = frequencies(params.d_model, params.base, params.layout)               # (h,)
    lam = 2 * np.pi / w
    i = np.arange(len(w))
    frozen(w, lam, i)
    return FrequenciesResult(i, w, lam, float(lam.min()), float(lam.max()),
                             int(np.sum(lam > params.max_len)), params)
