"""Per pair of channels: the frequency before and after a RoPE scaling, and which regime the pair is in.

Regimes (what the scaling did to the pair's frequency w_i):
  extrapolated  unchanged (high frequencies: many turns inside the original context)
  interpolated  divided by the full factor (low frequencies: less than a turn in the original context)
  between       a blend; `interpolation` says how much (yarn's ramp, llama3's middle band, dynamic NTK)
  rescaled      longrope: divided by its own per-pair factor (`divisor`)
  not rotated   proportional (p-RoPE): frequency 0, the pair's two channels never turn
`interpolation` is the weight of w_i / factor in the blend (yarn, llama3: linear in w; dynamic: the
exponent, w_after = w_before / s^interpolation); NaN for longrope.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from explorer.backend.rope_scaling import RopeScaling, inv_frequencies
from explorer.backend.rope_types import (
    default_inv_freq,
    dynamic_scale,
    llama3_smooth,
    resolved_factor,
    rotated_pairs,
    rotated_width,
    yarn_ramp,
)

REGIMES = ("extrapolated", "between", "interpolated", "rescaled", "not rotated")
_SNAP = 1e-9


@dataclass(frozen=True, eq=False)
class PairProfile:
    """What the RoPE view draws; arrays are (dim/2,) float64, read-only."""

    rope_type: str
    head_dim: int
    rotary_dim: int                       # dim = int(head_dim * partial_rotary_factor); proportional: head_dim
    rotated_pairs: int                    # pairs that turn (frequency > 0): dim/2, or proportional's first ones
    base: float
    inv_freq_before: np.ndarray           # (dim/2,) base^(-2i/dim)
    inv_freq_after: np.ndarray            # (dim/2,) after the scaling
    wavelength_before: np.ndarray         # (dim/2,) 2 pi / w, in positions
    wavelength_after: np.ndarray          # (dim/2,) inf where not rotated
    divisor: np.ndarray                   # (dim/2,) before / after; inf where not rotated
    interpolation: np.ndarray             # (dim/2,) 0 unchanged .. 1 divided by the factor; NaN longrope
    #                                       and pairs not rotated
    regime: tuple[str, ...]               # (dim/2,) one of REGIMES
    attention_factor: float
    factor: float                         # the factor in effect (dynamic: s for this seq_len)
    original_context: int | None          # L0
    extended_context: int | None          # max_position_embeddings if > L0, else L0 * factor (dynamic: seq_len)
    band_wavelengths: tuple[float, float] | None   # wavelengths bounding the "between" band, if any
    ramp_pairs: tuple[float, float] | None         # yarn: pair indices (low, high) of its ramp
    seq_len: int | None

    def counts(self) -> dict[str, int]:
        """How many pairs are in each regime."""
        return {name: self.regime.count(name) for name in REGIMES}


def _frozen(array) -> np.ndarray:
    out = np.array(array, dtype=np.float64)
    out.setflags(write=False)
    return out


def _label(weight: np.ndarray) -> tuple[str, ...]:
    return tuple("extrapolated" if w <= _SNAP else "interpolated" if w >= 1 - _SNAP else "between"
                 for w in weight)


def _blend(scaling: RopeScaling, dim: int, base: float, before: np.ndarray, seq_len, max_len):
    """(interpolation (dim/2,), factor in effect, extended context, band wavelengths, ramp pairs)."""
    kind = scaling.rope_type
    half = dim // 2
    original = scaling.original_max_position_embeddings or max_len
    if kind == "default":
        return np.zeros(half), 1.0, original, None, None
    if kind == "proportional":                # the turning pairs / factor (the others: regime "not rotated")
        factor = 1.0 if scaling.factor is None else float(scaling.factor)
        extended = None if original is None else round(original * factor)
        return np.full(half, 0.0 if factor == 1 else 1.0), factor, extended, None, None
    if kind == "linear":
        extended = None if original is None else round(original * scaling.factor)
        return np.ones(half), float(scaling.factor), extended, None, None
    if kind == "dynamic":
        scale = dynamic_scale(scaling, seq_len, max_len)
        extended = max(seq_len or original, original)
        weight = np.zeros(half) if scale == 1 else np.arange(half) * 2.0 / (dim - 2)
        return weight, float(scale), extended, None, None
    factor = resolved_factor(scaling, max_len)
    extended = round(scaling.original_max_position_embeddings * factor)
    if max_len is not None and max_len > scaling.original_max_position_embeddings:
        extended = int(max_len)              # the context the model claims (Llama 3.1: 131072, not 8 x 8192)
    if kind == "yarn":
        ramp, low, high = yarn_ramp(scaling, dim, base)
        fast, slow = scaling.yarn_betas
        length = scaling.original_max_position_embeddings
        return ramp, factor, extended, (length / fast, length / slow), (low, high)
    if kind == "llama3":
        length = scaling.original_max_position_embeddings
        weight = 1.0 - llama3_smooth(scaling, before)
        band = (length / scaling.high_freq_factor, length / scaling.low_freq_factor)
        return weight, factor, extended, band, None
    return np.full(half, np.nan), factor, extended, None, None


def pair_profile(head_dim: int, base: float, scaling: RopeScaling | None = None, seq_len: int | None = None,
                 max_position_embeddings: int | None = None) -> PairProfile:
    """Every pair before and after `scaling` (same arguments as inv_frequencies)."""
    scaling = scaling or RopeScaling()
    after = inv_frequencies(head_dim, base, scaling, seq_len, max_position_embeddings)
    dim, turning = rotated_width(head_dim, scaling), rotated_pairs(head_dim, scaling)
    before = default_inv_freq(dim, base)                          # (dim/2,)
    weight, factor, extended, band, ramp = _blend(scaling, dim, base, before, seq_len,
                                                  max_position_embeddings)
    if scaling.rope_type == "longrope":
        regime = ("rescaled",) * (dim // 2)
    elif math.isclose(factor, 1.0):
        regime = ("extrapolated",) * (dim // 2)
    else:
        regime = _label(weight)
    regime = regime[:turning] + ("not rotated",) * (dim // 2 - turning)
    weight = np.array(weight, dtype=np.float64)
    weight[turning:] = np.nan
    original = scaling.original_max_position_embeddings or max_position_embeddings
    with np.errstate(divide="ignore"):                            # frequency 0: wavelength and divisor inf
        wavelength_after, divisor = 2 * math.pi / after.inv_freq, before / after.inv_freq
    return PairProfile(
        rope_type=scaling.rope_type, head_dim=int(head_dim), rotary_dim=dim, rotated_pairs=turning,
        base=float(base), inv_freq_before=_frozen(before), inv_freq_after=_frozen(after.inv_freq),
        wavelength_before=_frozen(2 * math.pi / before), wavelength_after=_frozen(wavelength_after),
        divisor=_frozen(divisor), interpolation=_frozen(weight), regime=regime,
        attention_factor=float(after.attention_factor), factor=float(factor),
        original_context=None if original is None else int(original),
        extended_context=None if extended is None else int(extended),
        band_wavelengths=band, ramp_pairs=ramp, seq_len=seq_len)


def score_vs_distance_scaled(head_dim: int, base: float, scaling: RopeScaling | None = None,
                             max_dist: int = 512, seq_len: int | None = None,
                             max_position_embeddings: int | None = None, kind: str = "ones", seed: int = 0
                             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(delta, before, after): q(m) . k(n) against delta = m - n = -max_dist .. max_dist, each
    (2 max_dist + 1,), with the plain and the scaled frequencies. The rotated channels (the first
    rotary_dim, interleaved order) are multiplied by the attention factor in q and in k (as transformers
    scales cos and sin); the unrotated rest adds its constant dot product."""
    from explorer.backend.budget import check_budget
    from explorer.backend.rope import _check_len, _score_profile, query_key

    scaling = scaling or RopeScaling()
    after = inv_frequencies(head_dim, base, scaling, seq_len, max_position_embeddings)
    dim = rotated_width(head_dim, scaling)
    _check_len("max_dist", max_dist, 0)
    count = 2 * max_dist + 1
    check_budget(count * 6, 8, "a score curve over %1 distances", f"{count:,}")
    q, k = query_key(head_dim, kind, seed)
    rest = float(q[dim:] @ k[dim:])
    curve = [_score_profile(theta, q[:dim], k[:dim], -max_dist, 1.0, count)
             for theta in (default_inv_freq(dim, base), after.inv_freq)]
    return (np.arange(-max_dist, max_dist + 1), curve[0] + rest,
            after.attention_factor ** 2 * curve[1] + rest)


PAIRINGS = ("interleaved", "half")


def channel_pairs(head_dim: int, partial_rotary_factor: float = 1.0, pairing: str = "half",
                  scaling: RopeScaling | None = None) -> np.ndarray:
    """For each channel of a head, the pair index i it rotates in (frequency w_i), or -1 if it is not
    rotated; (head_dim,) int. The first dim = int(head_dim * p) channels rotate:
      half         transformers' rotate_half (GPT-NeoX, Llama): pair i = channels (i, i + dim/2)
      interleaved  GPT-J / RoFormer rotate_every_two, DeepSeek: pair i = channels (2i, 2i + 1)
    A `scaling` (its own p) may span more channels than turn: proportional's pairs span the whole head
    and only the first rotated_pairs turn (half pairs (i, i + head_dim/2) for i < that count)."""
    from explorer.errors import require

    require(pairing in PAIRINGS, "pairing must be one of %1, not %2", ", ".join(PAIRINGS), repr(pairing))
    scaling = scaling or RopeScaling(partial_rotary_factor=partial_rotary_factor)
    dim, turning = rotated_width(head_dim, scaling), rotated_pairs(head_dim, scaling)
    out = np.full(head_dim, -1, dtype=np.int64)
    half = dim // 2
    out[:dim] = np.arange(dim) // 2 if pairing == "interleaved" else np.arange(dim) % half
    out[out >= turning] = -1
    return out
