"""Independent rebuild of what a Diagnosis claims (straight from the formulas, no shared code), so
tests can verify that a claimed match is really in the data."""

from __future__ import annotations

import numpy as np


def pe_formula(n, d, base, layout, start=0):
    """PE[p, c] for p = start .. start+n-1, element by element in float64."""
    out = np.zeros((n, d))
    half = d // 2
    for c in range(d):
        if layout == "interleaved":
            w, is_sin = base ** (-(2 * (c // 2)) / d), c % 2 == 0
        elif layout == "concat":
            n_sin = (d + 1) // 2
            i = c if c < n_sin else c - n_sin
            w, is_sin = base ** (-(2 * i) / d), c < n_sin
        else:
            if c >= 2 * half:
                continue
            w, is_sin = base ** (-(c % half) / max(half - 1, 1)), c < half
        p = np.arange(start, start + n, dtype=np.float64)
        out[:, c] = np.sin(p * w) if is_sin else np.cos(p * w)
    return out


def cache_formula(n, head_dim, base, pairing, function, factor=1.0, start=0, turning=None):
    """RoPE cos/sin cache from inv_freq = 1 / (factor * base^(2i/d)); with `turning` (p-RoPE) the
    pairs from that one on have frequency 0."""
    inv = 1.0 / (factor * base ** (np.arange(0, head_dim, 2) / head_dim))
    if turning is not None:
        inv[turning:] = 0.0
    freqs = np.arange(start, start + n, dtype=np.float64)[:, None] * inv[None, :]
    emb = np.concatenate([freqs, freqs], 1) if pairing == "half" else np.repeat(freqs, 2, 1)
    return np.cos(emb) if function == "cos" else np.sin(emb)


def as_lxd(data, orientation):
    """The user's array in (L, d) orientation, as the diagnosis describes it."""
    x = np.asarray(data, dtype=np.float64)
    if x.ndim == 3:
        x = x.squeeze()
        x = x[0] if x.ndim == 3 else x
    return x.T if "transposed" in orientation else x


def claimed_error(result, data) -> float:
    """max |data - what the result says the data is| (for a match: the convention it names)."""
    c = result.convention
    turning = None
    if c.get("rope_type") == "proportional":       # transformers: int(p * head_dim // 2) pairs turn
        turning = int(c["rope_params"]["partial_rotary_factor"] * c["head_dim"] // 2)
    if result.kind == "inv_freq":
        h = len(np.ravel(data))
        factor = c["rope_params"].get("factor", 1.0)
        ref = 1.0 / (factor * c["base"] ** (np.arange(0, 2 * h, 2) / (2 * h)))
        w = np.ravel(data)
        if turning is not None:
            assert np.all(w[turning:] == 0)
            w, ref = w[:turning], ref[:turning]
        return float(np.max(np.abs(w / ref - 1)))
    x = as_lxd(data, c["orientation"])
    n, d = x.shape
    if result.kind == "pe":
        ref = pe_formula(n, d, c["base"], c["layout"], c["start"])
    else:
        ref = cache_formula(n, d, c["base"], c["pairing"], c["function"],
                            c["rope_params"].get("factor", 1.0), c["start"], turning)
    return float(np.max(np.abs(x - c["scale"] * ref)))
