"""Llama 3.x and Llama 4 RoPE in a GGUF file: `rope_freqs.weight`, one divisor per rotated pair, as a transformers
rope_scaling. No Qt.

Source (ggml-org/llama.cpp, convert_hf_to_gguf.py): `LlamaModel.generate_extra_tensors`, for rope_type "llama3",
writes `rope_freqs.weight`, one float32 factor per rotated pair (1 / ((1 - smooth) / factor + smooth) between
the two wavelengths), and llama.cpp's RoPE divides theta_i by it. No rope scaling metadata is written for it.
"""

from __future__ import annotations

import math
import os

import numpy as np

from explorer.errors import require

ROPE_FREQS = "rope_freqs.weight"
# (low_freq_factor, high_freq_factor, L0) of Llama 3.1 / 3.2 / 3.3 and Llama-4-Scout (base), and of
# Llama-4-Scout-Instruct (equal factors: a step at L0)
LLAMA3_CANDIDATES = ((1.0, 4.0, 8192), (1.0, 1.0, 8192))
FACTOR_TOLERANCE = 1e-6


def llama_cpp_factors(base: float, dim: int, factor: float, low: float, high: float, original: int) -> np.ndarray:
    """rope_freqs as convert_hf_to_gguf.py's LlamaModel.generate_extra_tensors computes them; (dim/2,) float32.

    freqs = 1 / base^(arange(0, dim, 2) / dim) in float32 (torch there), the rest in Python floats."""
    freqs = (1.0 / (np.float32(base) ** (np.arange(0, dim, 2, dtype=np.float32) / np.float32(dim))))
    freqs = freqs.astype(np.float32)
    low_wavelen, high_wavelen = original / low, original / high
    out = []
    for freq in freqs.tolist():
        wavelen = 2 * math.pi / freq
        if wavelen < high_wavelen:
            out.append(1.0)
        elif wavelen > low_wavelen:
            out.append(factor)
        else:
            smooth = (original / wavelen - low) / (high - low)
            out.append(1 / ((1 - smooth) / factor + smooth))
    return np.asarray(out, dtype=np.float32)


def rope_scaling_from_factors(factors: np.ndarray, base: float, dim: int, context: int, where: str) -> dict:
    """A transformers rope_scaling that gives theta_i / factors[i], the frequencies llama.cpp uses.

    A llama3 scaling when one of the Llama 3.x parameter sets reproduces every factor to 1e-6 (relative);
    otherwise the factors themselves, carried as a 'longrope' scaling whose short and long factors are both
    the file's and whose attention factor is 1 (transformers' longrope: inv_freq = 1 / (ext * base^(2i/dim)))."""
    factors = np.asarray(factors, dtype=np.float64).reshape(-1)               # (dim/2,)
    require(factors.size == dim // 2, "%1: tensor %2 has %3 factors; RoPE rotates %4 pairs", where, ROPE_FREQS,
                                      factors.size, dim // 2)
    require(bool(np.all(np.isfinite(factors)) and np.all(factors > 0)),
            "%1: tensor %2 must hold finite factors > 0", where, ROPE_FREQS)
    if np.all(factors == 1.0):
        return {}
    top = float(factors.max())
    for low, high, original in LLAMA3_CANDIDATES:
        want = llama_cpp_factors(base, dim, top, low, high, original).astype(np.float64)
        if np.all(np.abs(want - factors) <= FACTOR_TOLERANCE * factors):
            return {"rope_type": "llama3", "factor": top, "low_freq_factor": low, "high_freq_factor": high,
                    "original_max_position_embeddings": original}
    listed = [float(f) for f in factors]
    return {"rope_type": "longrope", "short_factor": listed, "long_factor": listed, "factor": 1.0,
            "attention_factor": 1.0, "original_max_position_embeddings": int(context)}


def apply_rope_freqs(fd: int, info, config: dict, where: str) -> None:
    """Llama 3.x: rope_freqs.weight (info: its TensorInfo; one F32 factor per pair) -> config["rope_scaling"]."""
    require(info.ggml_type == 0 and len(info.ne) == 1, "%1: tensor %2 must be a 1-D F32 tensor", where, ROPE_FREQS)
    raw = os.pread(fd, info.n_bytes, info.start)
    require(len(raw) == info.n_bytes, "%1: the file ended early (was it changed or removed while open?)", where)
    factors = np.frombuffer(raw, dtype="<f4")                                   # (rot/2,)
    rot = round(config["head_dim"] * config.get("partial_rotary_factor", 1.0))
    scaling = rope_scaling_from_factors(factors, config["rope_theta"], rot, config["max_position_embeddings"],
                                        where)
    if scaling:
        config["rope_scaling"] = scaling
