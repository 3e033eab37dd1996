"""The frequencies view's data: w_i and wavelengths per pair; with `rope` on, RoPE's inv_freq before and
after the rope type (the same settings a preset puts in the RoPE view). No Qt here."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from explorer.backend.encodings import frequencies
from explorer.backend.rope_scaling import inv_frequencies, rotated_pairs
from explorer.backend.rope_types import default_inv_freq
from explorer.compute.rope_settings import SCALING_RANGES, RopeScalingFields
from explorer.compute.screen import frozen
from explorer.errors import require
from explorer.params import Params


@dataclass(frozen=True)
class FrequenciesState(RopeScalingFields):
    """rope: also draw RoPE's inv_freq (head_dim, base and the rope type's settings) before/after."""

    RANGES = {**SCALING_RANGES, "head_dim": (2, 512), "base": (1.0001, 1e9)}

    rope: bool = False
    head_dim: int = 64
    base: float = 10000.0

    def rope_head_base(self) -> tuple[int, float]:
        return self.head_dim, self.base


@dataclass(frozen=True)
class FrequenciesResult:
    index: np.ndarray        # (h,) pair index i
    w: np.ndarray            # (h,) angular frequency w_i
    wavelength: np.ndarray   # (h,) 2 pi / w_i in positions
    shortest: float
    longest: float
    beyond: int              # pairs whose wavelength exceeds max_len (no full period in the table)
    params: Params
    rope_before: np.ndarray | None = None   # (dim/2,) RoPE base^(-2i/dim), dim = rotated channels
    rope_after: np.ndarray | None = None    # (dim/2,) after the rope type (transformers' inv_freq)
    attention_factor: float = 1.0
    state: FrequenciesState | None = None
    rope_turning: int = 0    # the pairs of rope_after that turn (proportional: the first ones; the rest 0)


@lru_cache(maxsize=4)
def frequency_table(params: Params, state: FrequenciesState = FrequenciesState()) -> FrequenciesResult:
    """w_i and 2 pi / w_i per pair for the current d_model, base and layout (+ RoPE's when state.rope)."""
    w = frequencies(params.d_model, params.base, params.layout)               # (h,)
    require(len(w) > 0, "d_model %1 in the %2 layout has no sine/cosine pair to show: choose "
            "d_model >= 2", str(params.d_model), params.layout)
    lam = 2 * np.pi / w
    i = np.arange(len(w))
    frozen(w, lam, i)
    before = after = None
    factor, turning = 1.0, 0
    if state.rope:
        got = inv_frequencies(state.head_dim, state.base, state.scaling(), state.seq_len,
                              state.max_position_embeddings)
        after = np.array(got.inv_freq)
        before = default_inv_freq(len(after) * 2, state.base)                # (dim/2,)
        factor = got.attention_factor
        turning = rotated_pairs(state.head_dim, state.scaling())
        frozen(before, after)
    return FrequenciesResult(i, w, lam, float(lam.min()), float(lam.max()),
                             int(np.sum(lam > params.max_len)), params, before, after, factor, state, turning)
