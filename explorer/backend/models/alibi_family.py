"""Each ALiBi family's own slopes and bias on layer 0's logits: BLOOM's, MPT's (models.mpt), Falcon's (models.falcon).
No Qt. slopes_of gives the slope each head's logits get per token of distance; bias_of the (H, n, n) bias added,
softmax-equal to what the family's transformers class adds."""

from __future__ import annotations

import numpy as np

from explorer.backend.models import bloom, falcon, mpt


def slopes_of(cfg) -> np.ndarray:
    """(H,) float32: BLOOM's rule (falcon: rounded to bfloat16, / sqrt(head_dim)) or MPT's."""
    if cfg.family == "mpt":
        return mpt.mpt_alibi_slopes(cfg.n_heads)      # (MptModel's alibi_bias_max: 8, always)
    if cfg.family == "falcon":
        return falcon.falcon_slopes(cfg.n_heads, cfg.head_dim)
    return bloom.alibi_slopes(cfg.n_heads)


def bias_of(cfg, slopes: np.ndarray, n: int) -> np.ndarray:
    """The bias on n tokens' logits, (H, n, n) float32: slope_h · (n − m), Falcon's made in bfloat16."""
    return bias_at(cfg, slopes, np.arange(n, dtype=np.float32))


def bias_at(cfg, slopes: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """bias_of between the given positions (rows: queries m, columns: keys n); (H, r, r) float32 for `slopes`'
    heads (Falcon: all cfg.n_heads, its slopes made again from the head count)."""
    if cfg.family == "falcon":
        return falcon.falcon_bias_at(cfg.n_heads, cfg.head_dim, pos)
    return bloom.alibi_bias_at(slopes, pos)
