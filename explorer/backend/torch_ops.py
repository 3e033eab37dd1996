"""torch twins of the full-size numpy computations, run on the chosen device."""

from __future__ import annotations

import math

import numpy as np

from explorer.backend.device import choose_device, to_numpy
from explorer.backend.encodings import (channel_counts, channel_layout, check_args, check_table_budget,
                                        sinusoidal_pe)


def sinusoidal_pe_torch(max_len: int, d_model: int, base: float = 10000.0,
                        layout: str = "interleaved", dtype: str = "float32", device: str = "cpu"):
    """The seeds' recipe in torch: exp-of-arange div_term, sin/cos, on `device`; (max_len, d_model)."""
    import torch

    check_args(d_model, base, layout)
    tdtype = getattr(torch, dtype)
    if layout == "t2t":
        half = d_model // 2
        w = torch.exp(torch.arange(half, dtype=tdtype, device=device)
                      * -(math.log(base) / max(half - 1, 1)))
    else:
        w = torch.exp(torch.arange(0, d_model, 2, dtype=tdtype, device=device)
                      * (-math.log(base) / d_model))
    position = torch.arange(max_len, dtype=tdtype, device=device).unsqueeze(1)   # (N, 1)
    angle = position * w                                                          # (N, n_sin)
    sin_cols, cos_cols = channel_layout(d_model, layout)
    n_cos = channel_counts(d_model, layout)[1]
    pe = torch.zeros(max_len, d_model, dtype=tdtype, device=device)
    pe[:, sin_cols] = torch.sin(angle)
    pe[:, cos_cols] = torch.cos(angle[:, :n_cos])
    return pe


def full_pe(max_len: int, d_model: int, base: float = 10000.0, layout: str = "interleaved",
            dtype: str = "float32", device: str = "auto") -> tuple[np.ndarray, str]:
    """Full PE as numpy, computed on the chosen device; returns (array, device name used)."""
    check_table_budget(max_len, d_model, dtype)          # the words and size sinusoidal_pe refuses with
    choice = choose_device(device)
    if choice.name == "numpy":
        return sinusoidal_pe(max_len, d_model, base, layout, dtype), "numpy"
    try:
        pe = sinusoidal_pe_torch(max_len, d_model, base, layout, dtype, choice.name)
        return to_numpy(pe), choice.name
    except RuntimeError:  # e.g. out of GPU memory: the CPU path still answers
        return sinusoidal_pe(max_len, d_model, base, layout, dtype), "numpy"
