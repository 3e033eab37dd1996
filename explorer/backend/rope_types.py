"""The per-type pieces of RoPE scaling, as transformers' modeling_rope_utils computes them (float64 here),
and the widths: how many channels of a head the rotation spans and how many pairs turn.

Each takes a validated RopeScaling (explorer.backend.rope_scaling) and the rotated width dim or the
context lengths (max_position_embeddings, seq_len).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from explorer.errors import InputError, msg, require, shown

if TYPE_CHECKING:
    from explorer.backend.rope_scaling import RopeScaling

MAX_HEAD_DIM = 1 << 16    # head_dim at most (an inv_freq of head_dim / 2 is made before any weight is read)


def _check_head_dim(head_dim) -> None:
    ok = isinstance(head_dim, (int, np.integer)) and not isinstance(head_dim, (bool, np.bool_))
    require(ok and 2 <= head_dim <= MAX_HEAD_DIM, "head_dim must be a whole number from 2 to %1, not %2",
            f"{MAX_HEAD_DIM:,}", shown(head_dim))


def rotary_dim(head_dim: int, partial_rotary_factor: float = 1.0) -> int:
    """dim = int(head_dim * p), the rotated channels; InputError unless even and >= 2."""
    _check_head_dim(head_dim)
    dim = int(head_dim * partial_rotary_factor)
    require(dim >= 2 and dim % 2 == 0,
            "head_dim x partial_rotary_factor = %1 x %2 gives %3 rotated channels; it must be an even whole number "
            ">= 2 (RoPE rotates channel pairs)", head_dim, partial_rotary_factor, dim)
    return dim


def rotated_width(head_dim: int, scaling: RopeScaling | None = None) -> int:
    """The channels the rotation spans, twice len(inv_freq): int(head_dim * p), or for proportional the
    whole head (its pairs past int(p * head_dim // 2) have frequency 0). InputError as rotary_dim."""
    if scaling is None or scaling.rope_type != "proportional":
        return rotary_dim(head_dim, 1.0 if scaling is None else scaling.partial_rotary_factor)
    _check_head_dim(head_dim)
    p = scaling.partial_rotary_factor
    require(head_dim % 2 == 0, "rope type proportional turns pairs across the whole head; head_dim must be "
                               "even, not %1", head_dim)
    require(int(p * head_dim // 2) >= 1, "head_dim x partial_rotary_factor = %1 x %2 leaves no pair that "
            "rotates (proportional rotates int(head_dim x p / 2) pairs)", head_dim, p)
    return int(head_dim)


def rotated_pairs(head_dim: int, scaling: RopeScaling | None = None) -> int:
    """How many pairs turn (a frequency > 0): rotated_width / 2, or proportional's int(p * head_dim // 2)."""
    width = rotated_width(head_dim, scaling)
    if scaling is None or scaling.rope_type != "proportional":
        return width // 2
    return int(scaling.partial_rotary_factor * head_dim // 2)       # transformers' rope_angles


def default_inv_freq(dim: int, base: float) -> np.ndarray:
    """base^(-2i/dim), i < dim/2; (dim/2,) float64."""
    return 1.0 / float(base) ** (np.arange(0, dim, 2, dtype=np.float64) / dim)


def yarn_bounds(scaling: RopeScaling, dim: int, base: float) -> tuple[float, float]:
    """(low, high) before yarn_ramp clamps them to 0 and dim - 1: the correction dims of beta_fast and beta_slow,
    floored and ceiled unless truncate is False (transformers' find_correction_range before max / min)."""
    fast, slow = scaling.yarn_betas
    length = scaling.original_max_position_embeddings

    def correction_dim(rotations: float) -> float:
        return (dim * math.log(length / (rotations * 2 * math.pi))) / (2 * math.log(base))

    low, high = correction_dim(fast), correction_dim(slow)
    if scaling.truncate is not False:
        low, high = math.floor(low), math.ceil(high)
    return low, high


def yarn_ramp(scaling: RopeScaling, dim: int, base: float) -> tuple[np.ndarray, float, float]:
    """(ramp (dim/2,), low, high): ramp_i = clip((i - low) / (high - low), 0, 1), the weight of w_i / factor."""
    low, high = yarn_bounds(scaling, dim, base)
    low, high = max(low, 0), min(high, dim - 1)
    top = high + 0.001 if low == high else high       # transformers' guard against a zero width
    ramp = np.clip((np.arange(dim // 2, dtype=np.float64) - low) / (top - low), 0.0, 1.0)
    return ramp, float(low), float(high)


def yarn_attention_factor(scaling: RopeScaling, factor: float) -> float:
    """attention_factor, or 0.1 * mscale * ln(factor) + 1 (the ratio of two when both mscales are set)."""
    if scaling.attention_factor is not None:
        return float(scaling.attention_factor)

    def get_mscale(scale: float, mscale: float = 1.0, name: str = "mscale") -> float:
        value = 1.0 if scale <= 1 else 0.1 * mscale * math.log(scale) + 1.0
        # a zero divides by zero, a negative turns every score's sign: refused (transformers computes on)
        if not value > 0:                         # (scale > 1 here: the bound's ln is not 0)
            raise InputError(msg("yarn's 0.1 x %1 x ln(factor) + 1 must be > 0; with %1 %2 and factor %3 "
                                 "it is %4: choose %1 > %5", name, f"{mscale:g}", f"{scale:g}",
                                 f"{value:.3g}", f"{-10 / math.log(scale):.4g}"))
        return value

    if scaling.mscale and scaling.mscale_all_dim:
        return float(get_mscale(factor, scaling.mscale) / get_mscale(factor, scaling.mscale_all_dim,
                                                                        "mscale_all_dim"))
    return float(get_mscale(factor))


def llama3_smooth(scaling: RopeScaling, inv_freq: np.ndarray) -> np.ndarray:
    """llama3's weight of the unchanged w_i per pair: 0 (long wavelengths), 1 (short), a ramp between (none when
    low_freq_factor equals high_freq_factor: a step, as transformers computes it)."""
    length = scaling.original_max_position_embeddings
    low, high = scaling.low_freq_factor, scaling.high_freq_factor
    wavelength = 2 * math.pi / inv_freq
    smooth = (length / wavelength - low) / (high - low) if high != low else np.zeros_like(wavelength)
    smooth = np.where(wavelength > length / low, 0.0, smooth)
    return np.where(wavelength < length / high, 1.0, smooth)


def longrope_attention_factor(scaling: RopeScaling, factor: float) -> float:
    """attention_factor, or sqrt(1 + ln(factor) / ln(L0)) (1 when factor <= 1)."""
    if scaling.attention_factor is not None:
        return float(scaling.attention_factor)
    if factor <= 1.0:
        return 1.0
    length = scaling.original_max_position_embeddings
    require(length is not None and length >= 2, "longrope's attention factor sqrt(1 + ln(factor) / "
            "ln(L0)) needs original_max_position_embeddings >= 2, not %1", str(length))
    return math.sqrt(1 + math.log(factor) / math.log(length))


def _context(scaling: RopeScaling, max_position_embeddings: int | None, what: str) -> int:
    length = scaling.original_max_position_embeddings or max_position_embeddings
    require(length is not None, "rope type %1 needs %2: give original_max_position_embeddings (or "
                                "max_position_embeddings)", scaling.rope_type, what)
    require(isinstance(length, (int, np.integer)) and length >= 1,
            "max_position_embeddings must be a whole number >= 1, not %1", shown(length))
    return int(length)


def resolved_factor(scaling: RopeScaling, max_position_embeddings: int | None = None) -> float:
    """The factor; for yarn/longrope without one, max_position_embeddings / L0 (as transformers)."""
    if scaling.factor is not None:
        return float(scaling.factor)
    if scaling.rope_type in ("yarn", "longrope"):
        require(max_position_embeddings is not None,
                "rope type %1 without factor needs max_position_embeddings (factor = max_position_embeddings / "
                "original_max_position_embeddings)", scaling.rope_type)
        return max_position_embeddings / scaling.original_max_position_embeddings
    return 1.0


def dynamic_scale(scaling: RopeScaling, seq_len: int | None, max_position_embeddings: int | None) -> float:
    """Dynamic NTK's s = factor * L / L0 - (factor - 1) with L = max(seq_len, L0); 1 while L <= L0."""
    trained = _context(scaling, max_position_embeddings, "the trained context length")
    length = trained if seq_len is None else max(seq_len, trained)
    return scaling.factor * length / trained - (scaling.factor - 1)
