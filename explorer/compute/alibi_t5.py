"""The ALiBi view's "the opened model's heads" for a T5 (explorer.compute.alibi): no slopes, each head's learned
relative position bias instead, against m − n and as bias images. No Qt.

The bias is layer 0's relative_attention_bias at the bucket of n − m (models.t5_bias, as transformers 5.25's
T5Attention.compute_bias makes it for the encoder): constant within a bucket, so the curves step, one value for
each of the max_exact nearest distances, then log-spaced steps, flat from about max_distance on.
"""

from __future__ import annotations

import numpy as np

from explorer.backend.models.t5_bias import bias_at, by_distance
from explorer.compute.alibi import IMAGE_ROWS, AlibiResult, AlibiState, shown_heads
from explorer.compute.screen import frozen
from explorer.params import Params

REACH_PER_DISTANCE = 2     # the curves span m − n up to twice max_distance (the last bucket's flat part shows)


def t5_view(model, state: AlibiState, params: Params) -> AlibiResult:
    """The opened T5's heads: each one's bias against m − n (-reach .. reach, reach = min(max_len - 1, twice
    max_distance)) and the bias images of up to ALIBI_SHOWN evenly spread heads at up to IMAGE_ROWS strided
    positions (state.causal: NaN for the keys after the query, as the view's causal box says, though T5's encoder
    reads them)."""
    cfg = model.config
    weight = model.relative_bias_table()                                          # (buckets, H)
    reach = max(0, min(params.max_len - 1, REACH_PER_DISTANCE * cfg.relative_buckets[1]))
    distance, head_bias = by_distance(cfg, weight, reach)                         # (K,), (H, K)
    shown = shown_heads(cfg.n_heads)
    pos = np.arange(0, params.max_len, -(-params.max_len // IMAGE_ROWS))           # (rows,)
    bias = bias_at(cfg, weight, pos)[list(shown)].astype(np.float32)              # (S, rows, rows) [m, n]
    if state.causal:
        bias[:, np.triu(np.ones((len(pos), len(pos)), bool), 1)] = np.nan
    slopes = np.zeros(0, np.float32)
    frozen(slopes, pos, bias, distance, head_bias)
    return AlibiResult(slopes, shown, pos, bias, params, state, model.name, cfg.family, distance=distance,
                       head_bias=head_bias)
