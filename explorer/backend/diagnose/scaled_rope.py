"""The hook for RoPE types beyond default and linear (llama3, yarn, dynamic, longrope).

Their inverse frequencies are not one straight line in log space, so they cannot be fitted from a
formula with two numbers; instead the data is compared with the inv_freq of every model preset of
the same head_dim (explorer.backend.presets, computed by explorer.backend.rope_scaling). Without those
modules the list is empty and such data is reported as unknown.
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np

from explorer.errors import InputError


class Candidate(NamedTuple):
    name: str                  # the preset, e.g. "llama-3.1-8b"
    rope_type: str
    params: dict               # the RoPE scaling parameters (JSON-able)
    base: float
    inv_freq: np.ndarray       # (head_dim/2,) float64
    attention_factor: float


def preset_candidates(head_dim: int) -> list[Candidate]:
    """A Candidate for each preset with a scaled RoPE of this head_dim (empty without presets)."""
    try:
        from explorer.backend.presets import load_presets
    except ImportError:
        return []
    out = []
    for name, preset in load_presets().items():
        scaling = getattr(preset, "rope_scaling", None)
        if scaling is None or scaling.rope_type in ("default", "linear"):
            continue
        try:
            freqs = preset.frequencies()
        except InputError:
            continue
        inv = np.asarray(freqs.inv_freq, dtype=np.float64)
        if 2 * len(inv) != head_dim:
            continue
        params = {k: (list(v) if isinstance(v, tuple) else v) for k, v in dataclasses.asdict(scaling).items()
                  if v is not None and k != "rope_type"}
        out.append(Candidate(name, scaling.rope_type, params, float(preset.rope_theta), inv,
                             float(freqs.attention_factor)))
    return out
