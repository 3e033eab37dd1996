"""T5's relative position bias: the bucket of each distance and each head's learned bias on the logits. No Qt.

transformers 5.25 models/t5/modeling_t5.py, T5Attention.compute_bias(n, n): relative_position = memory_position -
context_position (key n minus query m), bucketed by _relative_position_bucket (bidirectional for the encoder), then
looked up in relative_attention_bias (an nn.Embedding of num_buckets rows, one column per head): position_bias[h, m, n]
= weight[bucket(n - m), h], added to every layer's q·k. _relative_position_bucket, bidirectional: half the buckets
(num_buckets // 2) for each sign, keys after the query (n - m > 0) in the upper half; of a half, distances
|n - m| < max_exact = half // 2 each have a bucket of their own, longer ones max_exact + int(log(|n - m| / max_exact)
/ log(max_distance / max_exact) * (half - max_exact)) in float32, capped at half - 1 (every distance from about
max_distance on shares the last bucket: the bias stops changing, so no text is too long for it).
"""

from __future__ import annotations

import math

import numpy as np

from explorer.backend.models.rope_float32 import loaded_torch
from explorer.backend.models.t5 import bias_name
from explorer.errors import require


def relative_bucket(relative: np.ndarray, buckets: int, max_distance: int) -> np.ndarray:
    """The encoder's bucket of each key-minus-query distance, as _relative_position_bucket(bidirectional=True)
    makes it; int64, relative's shape. With torch loaded, its own float32 log (bit for bit), else numpy's."""
    relative = np.asarray(relative, np.int64)
    half = buckets // 2
    upper = np.where(relative > 0, half, 0)
    distance = np.abs(relative)
    exact = half // 2
    scale = math.log(max_distance / exact)
    torch = loaded_torch()
    large = None
    if torch is not None:
        try:
            d = torch.as_tensor(distance)
            large = (exact + (torch.log(d.float() / exact) / scale * (half - exact)).to(torch.long)).numpy()
        except Exception:  # noqa: BLE001 - a torch that misbehaves: numpy's float32 below
            large = None
    if large is None:
        with np.errstate(divide="ignore", invalid="ignore"):      # (distance 0: log 0, never picked below)
            logs = np.log(distance.astype(np.float32) / np.float32(exact))
            steps = logs / np.float32(scale) * np.float32(half - exact)
            large = exact + np.where(np.isfinite(steps), steps, 0).astype(np.int64)
    large = np.minimum(large, half - 1)
    return (upper + np.where(distance < exact, distance, large)).astype(np.int64)


def bias_table(cfg, reader, layer: int = 0) -> np.ndarray:
    """The relative_attention_bias that layer adds (layer 0's, or UMT5's layer's own: t5.bias_name), checked
    (num_buckets, num_heads); float32."""
    name = bias_name(cfg, layer)
    weight = reader.read(name)
    require(weight.shape == (cfg.relative_buckets[0], cfg.n_heads), "%1 has shape %2; config.json says (%3, %4)",
            name, tuple(weight.shape), cfg.relative_buckets[0], cfg.n_heads)
    return weight.astype(np.float32, copy=False)


def bias_at(cfg, weight: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """The bias between the given positions (rows: queries m, columns: keys n) from bias_table's `weight`:
    weight[bucket(n - m), h]; (H, r, r) float32."""
    pos = np.asarray(pos, dtype=np.int64)
    buckets = relative_bucket(pos[None, :] - pos[:, None], *cfg.relative_buckets)          # (r, r)
    return np.ascontiguousarray(weight[buckets].transpose(2, 0, 1))


def relative_bias(cfg, reader, n: int, layer: int = 0) -> np.ndarray:
    """position_bias for n tokens in layer: its relative_attention_bias[bucket(n - m), h] (bias_table's);
    (H, n, n) float32."""
    return bias_at(cfg, bias_table(cfg, reader, layer), np.arange(n))


def by_offset(cfg, weight: np.ndarray, reach: int) -> tuple[np.ndarray, np.ndarray]:
    """(j − i for -reach .. reach, each head's bias there); (2 reach + 1,), (H, 2 reach + 1) float32: the bucketed
    steps of the bias against key minus query, T5Attention.compute_bias's relative_position (the ALiBi view's)."""
    offset = np.arange(-reach, reach + 1, dtype=np.int64)
    return offset, np.ascontiguousarray(weight[relative_bucket(offset, *cfg.relative_buckets)].T)


def by_distance(cfg, weight: np.ndarray, reach: int) -> tuple[np.ndarray, np.ndarray]:
    """(m − n for -reach .. reach, each head's bias at that distance): by_offset read the other way, as a query m
    reads key n (relative n - m = -(m − n))."""
    offset, bias = by_offset(cfg, weight, reach)
    return offset, np.ascontiguousarray(bias[:, ::-1])          # column k: m − n = offset[k], j − i = -offset[k]


def bias_by_distance(cfg, reader, reach: int) -> tuple[np.ndarray, np.ndarray]:
    """by_distance of the checkpoint's own table."""
    return by_distance(cfg, bias_table(cfg, reader), reach)
