"""A model's inv_freq as transformers' own float32 code makes it, for its q and k.

The same torch operations in the same order as `modeling_rope_utils` (linear, dynamic, yarn, longrope,
llama3, proportional) and the model classes' default, so the angles p·θ agree with transformers to the last bit
thousands of positions in: numpy's float32 pow differs from torch's in the last bit for some θ, and
p·θ carries that ulp along (~4e-5 of q's scale at 2,210 tokens). The scalar parts (dynamic's base,
YaRN's correction range, the factors) are transformers' Python floats, computed once in
explorer.backend.rope_types. The float64 explorer.backend.rope_scaling stays what the views draw.
"""

from __future__ import annotations

import math
import sys

import numpy as np

from explorer.backend.rope_scaling import RopeScaling
from explorer.backend.rope_types import dynamic_scale, resolved_factor, rotated_pairs, yarn_ramp


def transformers_inv_freq(dim: int, base: float, scaling: RopeScaling, seq_len: int | None,
                          max_positions: int | None) -> np.ndarray | None:
    """(dim/2,) float32 as transformers computes it; None when torch is not loaded (numpy's then stands
    in). Loading torch for 64 numbers would cost a command ~1 s and ~190 MB; the window has it loaded
    (its device probe), and so does a notebook that uses transformers. The settings must have passed
    rope_scaling.inv_frequencies (its checks are not repeated here)."""
    torch = loaded_torch()
    if torch is None:
        return None
    try:
        return _inv_freq(torch, dim, base, scaling, seq_len, max_positions)
    except Exception:  # noqa: BLE001 - a torch that misbehaves: numpy's float32, the last bit apart
        return None


def loaded_torch():
    """torch when this process has imported it (the window's device probe, a notebook's transformers), else None:
    not loaded, or still being imported on another thread. Never imports it."""
    torch = sys.modules.get("torch")
    return None if torch is None or getattr(getattr(torch, "__spec__", None), "_initializing", True) else torch


def _inv_freq(torch, dim: int, base: float, scaling: RopeScaling, seq_len: int | None,
              max_positions: int | None) -> np.ndarray:
    shape = torch.arange(0, dim, 2, dtype=torch.int64).float() / dim                 # (dim/2,)
    kind = scaling.rope_type
    if kind == "dynamic":
        base = base * dynamic_scale(scaling, seq_len, max_positions) ** (dim / (dim - 2))
    if kind == "longrope":
        long = seq_len is not None and seq_len > scaling.original_max_position_embeddings
        ext = torch.tensor(scaling.long_factor if long else scaling.short_factor, dtype=torch.float32)
        return (1.0 / (ext * base ** shape)).numpy()
    if kind == "proportional":           # dim = head_dim: the first pairs turn, the rest have frequency 0
        turning = rotated_pairs(dim, scaling)      # (pow over exactly these: torch's last bit depends on length)
        inv = 1.0 / (base ** (torch.arange(0, 2 * turning, 2, dtype=torch.int64).float() / dim))
        inv = torch.cat((inv, torch.zeros(dim // 2 - turning, dtype=torch.float32)))
        return (inv / (1.0 if scaling.factor is None else scaling.factor)).numpy()
    inv = 1.0 / (base ** shape)
    if kind == "linear":
        inv = inv / scaling.factor
    elif kind == "yarn":
        inv = _yarn(torch, scaling, dim, base, shape, resolved_factor(scaling, max_positions))
    elif kind == "llama3":
        inv = _llama3(torch, scaling, inv)
    return inv.numpy()


def _yarn(torch, scaling: RopeScaling, dim: int, base: float, shape, factor: float):
    """_compute_yarn_parameters' inv_freq: a ramp between interpolation and extrapolation."""
    pos_freqs = base ** shape
    _, low, high = yarn_ramp(scaling, dim, base)
    top = high + 0.001 if low == high else high                        # its guard against a zero width
    ramp = torch.clamp((torch.arange(dim // 2, dtype=torch.float32) - low) / (top - low), 0, 1)
    extrapolation = 1 - ramp
    return (1.0 / (factor * pos_freqs)) * (1 - extrapolation) + (1.0 / pos_freqs) * extrapolation


def _llama3(torch, scaling: RopeScaling, inv):
    """_compute_llama3_parameters' inv_freq: long wavelengths / factor, a smooth band, short ones kept."""
    factor, low, high = scaling.factor, scaling.low_freq_factor, scaling.high_freq_factor
    context = scaling.original_max_position_embeddings
    wavelen = 2 * math.pi / inv
    llama = torch.where(wavelen > context / low, inv / factor, inv)
    smooth = (context / wavelen - low) / (high - low)
    smoothed = (1 - smooth) * llama / factor + smooth * llama
    medium = ~(wavelen < context / high) * ~(wavelen > context / low)
    return torch.where(medium, smoothed, llama)
