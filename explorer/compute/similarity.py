"""The position-similarity view's data: the Toeplitz matrix at screen size and f(k). No Qt here."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from explorer.backend.encodings import channel_counts
from explorer.backend.similarity import offset_profile_blocks, similarity_blocks
from explorer.compute.screen import Window, block_step
from explorer.errors import require
from explorer.params import Params


@dataclass(frozen=True)
class SimilarityResult:
    image: np.ndarray        # (rows, cols) float32 block means of S (dot or cosine)
    pos0: int
    pos_step: int
    profile_k: np.ndarray    # (m,) offsets k: 0, then block centres when the step is > 1
    profile_f: np.ndarray    # (m,) f(k): f(0) itself, then block means when the step is > 1
    params: Params

    def cell(self, p: int, q: int) -> tuple[float, bool] | None:
        """(drawn S[p, q]; True when exact, False for a block mean), or None outside the image."""
        r, c = (p - self.pos0) // self.pos_step, (q - self.pos0) // self.pos_step
        if not (0 <= r < self.image.shape[0] and 0 <= c < self.image.shape[1]):
            return None
        return float(self.image[r, c]), self.pos_step == 1




@lru_cache(maxsize=4)
def similarity(params: Params, window: Window) -> SimilarityResult:
    """Screen-size position-similarity matrix (closed form) and the offset profile f(k)."""
    win = window.clipped(params)
    n = win.pos1 - win.pos0
    step = block_step(n, min(win.rows_px, win.cols_px))
    rows = math.ceil(n / step)
    img = similarity_blocks(win.pos0, win.pos0, step, rows, rows, params.d_model, params.base,
                            params.layout, params.metric, np.float32, np.float32)
    k_step = block_step(params.max_len, max(1, win.cols_px - 1))     # (room for f(0) itself)
    full, rest = divmod(params.max_len, k_step)      # offsets 0 .. max_len - 1 exist, no more
    f = offset_profile_blocks(0, k_step, full, params.d_model, params.base, params.layout)
    k = np.arange(full) * k_step + (k_step - 1) / 2
    if rest:            # the trailing partial block: the mean of its own offsets, at its centre
        f_rest = offset_profile_blocks(full * k_step, rest, 1, params.d_model, params.base, params.layout)
        f, k = np.concatenate([f, f_rest]), np.concatenate([k, [full * k_step + (rest - 1) / 2]])
    if k_step > 1:      # the first block's mean hides the peak f(0) (0.8 of it at 1024 x 8192)
        f0 = offset_profile_blocks(0, 1, 1, params.d_model, params.base, params.layout)
        f, k = np.concatenate([f0, f]), np.concatenate([[0.0], k])
    if params.metric == "cosine":
        f = f / max(1, channel_counts(params.d_model, params.layout)[1])   # h paired channels
    return SimilarityResult(img, win.pos0, step, k, f, params)



def similarity_value(params: Params, p: int, q: int) -> float:
    """Exact S[p, q] (dot or cosine) by the closed form."""
    n = params.max_len
    require(0 <= p < n and 0 <= q < n, "positions must be in 0 .. %1", n - 1)
    return float(similarity_blocks(p, q, 1, 1, 1, params.d_model, params.base, params.layout,
                                   params.metric)[0, 0])
