"""The RoPE view's data: rotated q/k, pairings, score against distance, context extension. No Qt."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from explorer.backend import rope
from explorer.compute.permutation import panel_px, shown_permutation
from explorer.compute.rope_scaled import ScaledResult, scaled_view
from explorer.compute.rope_settings import SCALING_RANGES, RopeScalingFields
from explorer.compute.screen import IMAGE_PX, Window, frozen, grid
from explorer.params import Params

PAGES = ("rotation", "scaling")
HALF_CURVE_PX = 512   # points of each rotation-page curve: its two charts share the view's width


@dataclass(frozen=True)
class RopeState(RopeScalingFields):
    """head_dim, base, pairing, the rope type and its parameters (RopeScalingFields), the page shown."""

    RANGES = {**SCALING_RANGES, "head_dim": (2, 512), "base": (1.0001, 1e9), "scale": (1, 64),
              "seed": (0, 2**31 - 1)}
    CHOICES = {**RopeScalingFields.CHOICES, "pairing": rope.PAIRINGS, "page": PAGES}

    head_dim: int = 64
    base: float = 10000.0
    pairing: str = "interleaved"
    scale: float = 4.0        # context-extension factor s (rotation page: interpolation vs NTK)
    seed: int = 0
    page: str = "rotation"    # "rotation" (q/k, pairings, P) or "scaling" (rope type, regimes)

    def rope_head_base(self) -> tuple[int, float]:
        return self.head_dim, self.base


@dataclass(frozen=True)
class RopeResult:
    permutation: np.ndarray   # (hd, hd) x_half = x_interleaved @ P; block maxima where hd > the panel's pixels
    positions: np.ndarray     # (rows,) positions of the q/k heatmap rows
    q: np.ndarray             # (rows, hd) rotated random q, float32
    k: np.ndarray             # (rows, hd) rotated random k, float32
    delta: np.ndarray         # (K,) m - n, -(max_len-1) .. max_len-1 (strided)
    score_ones: np.ndarray    # (K,) q(m).k(n), all-ones vectors
    score_random: np.ndarray  # (K,) q(m).k(n), random vectors
    ext_delta: np.ndarray     # (E,) 0 .. s max_len (strided)
    variants: dict            # name -> (E,) all-ones score with original / interpolated / NTK theta
    ntk_base: float | None
    scaled: ScaledResult      # the rope type's per-pair profile, score before/after, channel axis
    params: Params
    state: RopeState
    perm_step: int = 1        # channels per permutation image cell (1: the exact P)


def _profile(theta, q, k, start: float, step: float, count: int) -> np.ndarray:
    """Score q(m).k(n) at m - n = start + j step, j < count (rope's blocked evaluator)."""
    return rope._score_profile(theta, q, k, start, step, count)


def rope_view(params: Params, state: RopeState = RopeState(), window: Window | None = None) -> RopeResult:
    """Everything the RoPE view draws; curves strided to <= HALF_CURVE_PX points; P (rope.pairing_permutation,
    the concat permutation) at the pixels of the window's panel (compute.permutation), cached on head_dim
    and the pixels alone: a base step costs a cache look-up and a replace() (a few us)."""
    return _rope_view_at(params, state, *panel_px(window))


@lru_cache(maxsize=4)
def _rope_view_at(params: Params, state: RopeState, rows_px: int, cols_px: int) -> RopeResult:
    """The result with P at rows_px x cols_px: the same object for the same inputs (a redraw, another view)."""
    result = _rope_view(params, state)
    shown = shown_permutation(state.head_dim, rows_px, cols_px)
    return replace(result, permutation=shown.image, perm_step=shown.step)


@lru_cache(maxsize=4)
def _rope_view(params: Params, state: RopeState) -> RopeResult:
    """Everything but P (an empty placeholder: rope_view() sets the P of the panel's pixels)."""
    hd, b, n = state.head_dim, state.base, params.max_len
    rope.check_rope(hd, b, state.pairing)
    perm = np.zeros((0, 0), dtype=np.float32)
    pos, q_rot, k_rot = rope.rotated_qk(hd, n, b, state.pairing, "random", state.seed, IMAGE_PX)
    theta = rope.rope_frequencies(hd, b)
    step, count = grid(2 * n - 1, HALF_CURVE_PX)
    delta = -(n - 1) + np.arange(count) * step                                 # (K,)
    ones, _ = rope.query_key(hd, "ones")
    q, k = rope.query_key(hd, "random", state.seed)
    s_ones = _profile(theta, ones, ones, -(n - 1), step, count)
    s_rand = _profile(theta, q, k, -(n - 1), step, count)
    span = int(math.ceil(state.scale * n))
    e_step, e_count = grid(span, HALF_CURVE_PX)
    ext = np.arange(e_count) * e_step                                          # (E,)
    variants = {name: _profile(th, ones, ones, 0.0, e_step, e_count)
                for name, th in rope.frequency_variants(hd, b, state.scale).items()}
    nb = rope.ntk_base(b, state.scale, hd) if hd >= 4 else None
    frozen(perm, pos, q_rot, k_rot, delta, s_ones, s_rand, ext, *variants.values())
    scaled = scaled_view(params.max_len, hd, b, state.pairing, state.scaling(), state.seq_len,
                         state.max_position_embeddings)
    return RopeResult(perm, pos, q_rot, k_rot, delta, s_ones, s_rand, ext, variants, nb, scaled,
                      params, state)
