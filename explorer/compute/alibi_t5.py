"""The ALiBi view's "the opened model's heads" for a T5 (explorer.compute.alibi): no slopes, each head's learned
relative position bias instead, against j − i and as bias images. No Qt.

Spelled as the rest of the ALiBi view (query i, key j): transformers 5.25's T5Attention.compute_bias (models/t5/
modeling_t5.py) takes relative_position = memory_position - context_position, key j minus query i, and the encoder's
position_bias[h, i, j] is layer 0's relative_attention_bias[bucket(j − i), h] (models.t5_bias): constant within a
bucket, so the curves step, one value for each of the max_exact nearest distances, then log-spaced steps, flat from
about max_distance on. The encoder is bidirectional (every query reads every key): the view's causal box is not
applied (the view greys it).
"""

from __future__ import annotations

import numpy as np

from explorer.backend.models.t5_bias import bias_at, by_offset
from explorer.compute.alibi import IMAGE_ROWS, AlibiResult, AlibiState, shown_heads
from explorer.compute.screen import frozen
from explorer.params import Params

REACH_PER_DISTANCE = 2     # the curves span j − i up to twice max_distance (the last bucket's flat part shows)


def t5_view(model, state: AlibiState, params: Params) -> AlibiResult:
    """The opened T5's heads: each one's bias b_h(bucket(j − i)) against j − i (key minus query, -reach .. reach,
    reach = min(max_len - 1, twice max_distance)) and the bias images [query i, key j] of up to ALIBI_SHOWN evenly
    spread heads at up to IMAGE_ROWS strided positions, every key read (state.causal is not applied: T5's encoder
    masks none)."""
    cfg = model.config
    weight = model.relative_bias_table()                                          # (buckets, H)
    reach = max(0, min(params.max_len - 1, REACH_PER_DISTANCE * cfg.relative_buckets[1]))
    offset, head_bias = by_offset(cfg, weight, reach)                             # j − i (K,), (H, K)
    shown = shown_heads(cfg.n_heads)
    pos = np.arange(0, params.max_len, -(-params.max_len // IMAGE_ROWS))           # (rows,)
    bias = bias_at(cfg, weight, pos)[list(shown)].astype(np.float32)              # (S, rows, rows) [i, j]
    slopes = np.zeros(0, np.float32)
    frozen(slopes, pos, bias, offset, head_bias)
    return AlibiResult(slopes, shown, pos, bias, params, state, model.name, cfg.family, distance=offset,
                       head_bias=head_bias)
