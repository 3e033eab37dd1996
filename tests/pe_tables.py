"""Sinusoidal PE built here, without the app's code: the float32 frequencies sinusoidal_pe uses,
with the angles and their sines in float64 (the exact table those frequencies define)."""

import numpy as np

from explorer.backend.encodings import channel_layout, frequencies


def float64_table(n: int, d: int, base: float, layout: str) -> np.ndarray:
    """(n, d) float64: sin / cos of p w in float64, w the seeds' float32 frequencies."""
    if layout == "t2t":   # exp of arange * -ln(base) / (h - 1), in float32
        half = d // 2
        w = np.exp(np.arange(half, dtype=np.float32) * np.float32(-np.log(base) / max(half - 1, 1)))
    else:                 # exp of arange(0, d, 2) * -ln(base) / d, in float32
        w = np.exp(np.arange(0, d, 2, dtype=np.float32) * np.float32(-np.log(base) / d))
    w = w.astype(np.float64)
    assert np.allclose(w, frequencies(d, base, layout), rtol=1e-6)
    angle = np.arange(n, dtype=np.float64)[:, None] * w[None, :]
    sin_cols, cos_cols = channel_layout(d, layout)
    table = np.zeros((n, d))
    table[:, sin_cols] = np.sin(angle)
    n_cos = len(range(d)[cos_cols])
    table[:, cos_cols] = np.cos(angle[:, :n_cos])
    return table
