"""Values as float32 / float16 / bfloat16 hold them: numpy emulation of the rounding, no torch.

Each function rounds to nearest, ties to even, as torch's casts do; float64 input goes via float32,
as torch does. float16 and bfloat16 are done on the float32 bit pattern (a 16-bit value is a float32
whose lowest 13 / 16 mantissa bits are 0); the tests check them bit for bit against numpy's float16
and torch's bfloat16.
"""

from __future__ import annotations

import numpy as np

from explorer.errors import require

PRECISIONS = ("float32", "float16", "bfloat16")
MANTISSA_BITS = {"float32": 23, "float16": 10, "bfloat16": 7}
SPARE_BITS = {"float16": 13, "bfloat16": 16}   # float32 mantissa bits a 16-bit value leaves 0
# Where rounding float32 bits to the dtype is plain mantissa rounding: non-zero magnitudes from the
# smallest normal (float16's subnormals are fixed-point; bfloat16's are float32's own) to the largest
# finite value (above it float16 is inf)
MANTISSA_ROUNDING = {"float16": (2.0 ** -14, 65504.0), "bfloat16": (0.0, float(np.finfo(np.float32).max))}


def to_bfloat16(x) -> np.ndarray:
    """Values rounded to bfloat16 (nearest, ties to even), returned as float32; NaN stays NaN.

    Input is first rounded to float32 (as torch does from float64). Overflow rounds to +-inf.
    """
    f = _float32(x)
    return _keep_nan(_round_mantissa(f, 16), f)      # bfloat16 keeps 7 of float32's 23 bits


def to_float16(x) -> np.ndarray:
    """Values rounded to float16 (nearest, ties to even), returned as float32: for float32 input bit
    for bit what numpy's astype(float16) gives (subnormals, +-inf beyond 65504, NaN), ~3x faster;
    float64 input goes via float32, as torch does."""
    f = _float32(x)
    out = _round_mantissa(f, 13)                     # float16 keeps 10 of float32's 23 bits
    small = np.abs(f) < np.float32(2.0 ** -14)          # float16 subnormals: multiples of 2^-24
    if small.any():
        out[small] = np.rint(f[small] * np.float32(2.0 ** 24)) * np.float32(2.0 ** -24)
    big = np.abs(out) > np.float32(65504.0)             # float16's largest finite value
    if big.any():
        out[big] = np.copysign(np.float32(np.inf), f[big])
    return _keep_nan(out, f)


def _round_mantissa(f: np.ndarray, drop: int) -> np.ndarray:
    """float32 f with its lowest `drop` mantissa bits rounded off (nearest, ties to even), as a new
    float32 array; NaN payloads may become inf (callers restore NaN). In-place passes over one new
    array: the screen path calls this on (rows, d/2) blocks many times a frame."""
    r = rounded_bits(f, drop)
    r &= np.uint32(0xFFFFFFFF ^ ((1 << drop) - 1))
    return r.view(np.float32)


def rounded_bits(f: np.ndarray, drop: int) -> np.ndarray:
    """float32 f's bit patterns rounded at bit `drop` (nearest, ties to even), low bits not yet
    cleared: >> drop gives the rounded value's top bits; a new uint32 array of f's shape."""
    u = f.view(np.uint32)
    r = u >> np.uint32(drop)
    r &= np.uint32(1)                              # the lowest kept bit: ties go to even
    r += np.uint32((1 << (drop - 1)) - 1)
    r += u
    return r


def _float32(x) -> np.ndarray:
    with np.errstate(over="ignore"):  # beyond float32's range is inf, as in torch
        return np.ascontiguousarray(x, dtype=np.float32)


def _keep_nan(out: np.ndarray, f: np.ndarray) -> np.ndarray:
    """NaN where f is NaN (bit tricks can turn a NaN payload into inf)."""
    nan = np.isnan(f)
    if nan.any():
        out[nan] = np.nan
    return out


def round_to(x, dtype: str) -> np.ndarray:
    """x as stored in `dtype`, returned as float32 (which holds all three exactly).

    float32: one correct rounding (numpy); float16 and bfloat16: via float32, as torch does.
    """
    require(dtype in PRECISIONS, "precision must be one of %1, not %2", ", ".join(PRECISIONS), repr(dtype))
    if dtype == "bfloat16":
        return to_bfloat16(x)
    if dtype == "float16":
        return to_float16(x)         # beyond 65504 is inf: the honest float16 value
    return np.asarray(x, dtype=np.float32)


def collision_position(dtype: str) -> int:
    """The first whole p with p + 1 rounding onto p in `dtype` (2^(mantissa bits + 1))."""
    require(dtype in PRECISIONS, "precision must be one of %1, not %2", ", ".join(PRECISIONS), repr(dtype))
    return 2 ** (MANTISSA_BITS[dtype] + 1)

