"""The RoPE view's data: rotated q/k, pairings, score against distance, context extension. No Qt."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from explorer.backend import rope
from explorer.compute.screen import IMAGE_PX, frozen, grid
from explorer.params import Params
from explorer.viewstate import ViewState


@dataclass(frozen=True)
class RopeState(ViewState):
    RANGES = {"head_dim": (2, 512), "base": (1.0001, 1e9), "scale": (1, 64), "seed": (0, 2**31 - 1)}
    CHOICES = {"pairing": rope.PAIRINGS}

    head_dim: int = 64
    base: float = 10000.0
    pairing: str = "interleaved"
    scale: float = 4.0        # context-extension factor s
    seed: int = 0


@dataclass(frozen=True)
class RopeResult:
    permutation: np.ndarray   # (hd, hd) x_half = x_interleaved @ P
    positions: np.ndarray     # (rows,) positions of the q/k heatmap rows
    q: np.ndarray             # (rows, hd) rotated random q, float32
    k: np.ndarray             # (rows, hd) rotated random k, float32
    delta: np.ndarray         # (K,) m - n, -(max_len-1) .. max_len-1 (strided)
    score_ones: np.ndarray    # (K,) q(m).k(n), all-ones vectors
    score_random: np.ndarray  # (K,) q(m).k(n), random vectors
    ext_delta: np.ndarray     # (E,) 0 .. s max_len (strided)
    variants: dict            # name -> (E,) all-ones score with original / interpolated / NTK theta
    ntk_base: float | None
    params: Params
    state: RopeState


def _profile(theta, q, k, start: float, step: float, count: int) -> np.ndarray:
    """Score q(m).k(n) at m - n = start + j step, j < count (rope's blocked evaluator)."""
    return rope._score_profile(theta, q, k, start, step, count)


@lru_cache(maxsize=4)
def rope_view(params: Params, state: RopeState = RopeState()) -> RopeResult:
    """Everything the RoPE view draws; curves strided to <= CURVE_PX points."""
    hd, b, n = state.head_dim, state.base, params.max_len
    rope.check_rope(hd, b, state.pairing)
    perm = rope.pairing_permutation(hd)
    pos, q_rot, k_rot = rope.rotated_qk(hd, n, b, state.pairing, "random", state.seed, IMAGE_PX)
    theta = rope.rope_frequencies(hd, b)
    step, count = grid(2 * n - 1)
    delta = -(n - 1) + np.arange(count) * step                                 # (K,)
    ones, _ = rope.query_key(hd, "ones")
    q, k = rope.query_key(hd, "random", state.seed)
    s_ones = _profile(theta, ones, ones, -(n - 1), step, count)
    s_rand = _profile(theta, q, k, -(n - 1), step, count)
    span = int(math.ceil(state.scale * n))
    e_step, e_count = grid(span)
    ext = np.arange(e_count) * e_step                                          # (E,)
    variants = {name: _profile(th, ones, ones, 0.0, e_step, e_count)
                for name, th in rope.frequency_variants(hd, b, state.scale).items()}
    nb = rope.ntk_base(b, state.scale, hd) if hd >= 4 else None
    frozen(perm, pos, q_rot, k_rot, delta, s_ones, s_rand, ext, *variants.values())
    return RopeResult(perm, pos, q_rot, k_rot, delta, s_ones, s_rand, ext, variants, nb,
                      params, state)
