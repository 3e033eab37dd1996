"""The per-type pieces of RoPE scaling, as transformers' modeling_rope_utils computes them (float64 here).

Each takes a validated RopeScaling (explorer.backend.rope_scaling) and the rotated width dim.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from explorer.errors import InputError, msg, require

if TYPE_CHECKING:
    from explorer.backend.rope_scaling import RopeScaling


def default_inv_freq(dim: int, base: float) -> np.ndarray:
    """base^(-2i/dim), i < dim/2; (dim/2,) float64."""
    return 1.0 / float(base) ** (np.arange(0, dim, 2, dtype=np.float64) / dim)


def yarn_ramp(scaling: RopeScaling, dim: int, base: float) -> tuple[np.ndarray, float, float]:
    """(ramp (dim/2,), low, high): ramp_i = clip((i - low) / (high - low), 0, 1), the weight of w_i / factor."""
    fast, slow = scaling.yarn_betas
    length = scaling.original_max_position_embeddings

    def correction_dim(rotations: float) -> float:
        return (dim * math.log(length / (rotations * 2 * math.pi))) / (2 * math.log(base))

    low, high = correction_dim(fast), correction_dim(slow)
    if scaling.truncate is not False:
        low, high = math.floor(low), math.ceil(high)
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
    """llama3's weight of the unchanged w_i per pair: 0 (long wavelengths), 1 (short), a ramp between."""
    length = scaling.original_max_position_embeddings
    low, high = scaling.low_freq_factor, scaling.high_freq_factor
    wavelength = 2 * math.pi / inv_freq
    smooth = (length / wavelength - low) / (high - low)
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
