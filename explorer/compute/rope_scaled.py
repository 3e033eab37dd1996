"""The RoPE view's scaling page: per-pair frequencies before/after a rope type, the regimes against the
original and extended context, the channel axis (pairing, partial rotary), score against distance
before/after with the attention factor. No Qt here; the numbers are the backend's (transformers').
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from explorer.backend import rope
from explorer.backend.rope_profile import (
    REGIMES,
    PairProfile,
    channel_pairs,
    pair_profile,
)
from explorer.backend.rope_scaling import RopeScaling
from explorer.compute.screen import CURVE_PX, frozen, grid


@dataclass(frozen=True)
class ScaledResult:
    profile: PairProfile          # per pair (dim/2,): inv_freq before/after, wavelengths, regimes
    regime_index: np.ndarray      # (dim/2,) index into REGIMES per pair
    channel_pair: np.ndarray      # (head_dim,) pair index per channel, -1 = not rotated
    channel_log_w: np.ndarray     # (2, head_dim) log10 w of each channel before / after, NaN unrotated
    unrotated: tuple              # ((start, stop), ...) runs of channels that do not turn
    distance: np.ndarray          # (K,) 0 .. span (strided)
    score_before: np.ndarray      # (K,) all-ones q(m).k(n), plain frequencies
    score_after: np.ndarray       # (K,) the same with the scaled frequencies x attention factor^2
    span: int                     # distances drawn: max(extended context, max_len)


def scaled_score(head_dim: int, theta: np.ndarray, factor: float, start: float, step: float,
                 count: int) -> np.ndarray:
    """All-ones q(m).k(n) at m - n = start + j step: factor^2 x rotated part + the unrotated channels'
    constant (head_dim - rotary_dim); (count,). As `rope_profile.score_vs_distance_scaled`, strided."""
    dim = 2 * len(theta)
    ones = np.ones(dim)
    return factor ** 2 * rope._score_profile(theta, ones, ones, start, step, count) + (head_dim - dim)


@lru_cache(maxsize=8)
def scaled_view(max_len: int, head_dim: int, base: float, pairing: str, scaling: RopeScaling,
                seq_len: int | None, max_position_embeddings: int | None) -> ScaledResult:
    """Everything the scaling page draws, for the rope type in `scaling`."""
    rope.check_rope(head_dim, base, pairing)
    prof = pair_profile(head_dim, base, scaling, seq_len, max_position_embeddings)
    regime = np.array([REGIMES.index(r) for r in prof.regime], dtype=np.int64)       # (dim/2,)
    pairs = channel_pairs(head_dim, pairing=pairing, scaling=scaling)                 # (hd,)
    # before: the pairs plain RoPE turns (proportional: the whole head's)
    pairs_before = channel_pairs(head_dim, 1.0, pairing) if scaling.rope_type == "proportional" else pairs
    logw = np.full((2, head_dim), np.nan)
    for row, chosen, inv in ((0, pairs_before, prof.inv_freq_before), (1, pairs, prof.inv_freq_after)):
        rotated = chosen >= 0
        logw[row, rotated] = np.log10(inv[chosen[rotated]])
    span = max(int(max_len), prof.extended_context or 0, prof.original_context or 0, 2)
    step, count = grid(span + 1, CURVE_PX)
    dist = np.arange(count) * float(step)                                             # (K,)
    before = scaled_score(head_dim, prof.inv_freq_before, 1.0, 0.0, step, count)
    after = scaled_score(head_dim, prof.inv_freq_after, prof.attention_factor, 0.0, step, count)
    frozen(regime, pairs, logw, dist, before, after)
    return ScaledResult(prof, regime, pairs, logw, unrotated_runs(pairs), dist, before, after, span)


def unrotated_runs(pairs: np.ndarray) -> tuple[tuple[int, int], ...]:
    """The (start, stop) channel runs whose pair is -1, in order: (rotary_dim, head_dim) for partial
    rotary, two runs for proportional's rotate-half pairs."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], (pairs < 0).astype(np.int8), [0]))))   # (2R,)
    return tuple((int(a), int(b)) for a, b in zip(edges[::2], edges[1::2]))


def context_text(profile: PairProfile) -> str:
    """'8192 → 131072' or '—'."""
    a, b = profile.original_context, profile.extended_context
    if a is None:
        return "—"
    return f"{a}" if b is None or b == a else f"{a} → {b}"


__all__ = ["ScaledResult", "context_text", "scaled_score", "scaled_view", "unrotated_runs"]
