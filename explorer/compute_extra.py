"""Frozen, screen-size results for the "beyond the paper" views (issue #5). No Qt here.

Each function takes the shared Params plus a small frozen state of the view's own controls, is cached
on both, and returns a frozen result that carries both (a view drops a result whose state is stale).
All maths comes from explorer.backend; this module only picks what to show and downsamples it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from explorer.backend import alibi, distance, layouts, precision, relative, rope
from explorer.backend.encodings import frequencies
from explorer.compute import block_step
from explorer.params import Params

IMAGE_PX = 256     # the most rows / columns of any image here (downsampled beyond)
CURVE_PX = 2048    # the most points of any curve here
MATRIX_PX = 128    # the most channels of a permutation matrix drawn exactly
ROTATION_PX = 32   # the leading channels of R(k) drawn (its 2x2 blocks stay visible)
ALIBI_SHOWN = 4    # bias matrices drawn for this many heads (evenly spread)


def _frozen(*arrays: np.ndarray) -> None:
    for a in arrays:
        a.setflags(write=False)


def _grid(n: int, px: int = CURVE_PX) -> tuple[int, int]:
    """(stride, count) sampling 0 .. n-1 with at most px points."""
    step = block_step(max(1, n), px)
    return step, -(-max(1, n) // step)


# 1. layout conventions -------------------------------------------------------------------------
@dataclass(frozen=True)
class ConventionsState:
    rows: int = IMAGE_PX                    # rows of each image


@dataclass(frozen=True)
class ConventionsResult:
    pe: dict                 # layout -> (rows, cols) float32 block-mean PE image
    pos_step: int            # positions per PE image row
    ch_step: int             # channels per PE image column
    permutation: np.ndarray  # (c, c) P (interleaved -> concat), block-averaged when d > MATRIX_PX
    perm_step: int           # channels per permutation image cell
    comparison: layouts.LayoutComparison
    diff_t2t: np.ndarray     # (rows, rows) S_t2t - S_interleaved
    diff_concat: np.ndarray  # (rows, rows) S_concat - S_interleaved (zero up to rounding)
    params: Params
    state: ConventionsState


def permutation_image(d_model: int, px: int = MATRIX_PX) -> tuple[np.ndarray, int]:
    """(image, step): P exactly for d <= px, else the fraction of ones in each step x step block."""
    if d_model <= px:
        return layouts.concat_permutation(d_model), 1
    step = block_step(d_model, px)
    n = -(-d_model // step)
    src = layouts.concat_order(d_model)                                       # (d,)
    counts = np.bincount((src // step) * n + np.arange(d_model) // step, minlength=n * n)
    return counts.reshape(n, n) / step, step                                  # (n, n)


@lru_cache(maxsize=4)
def conventions(params: Params, state: ConventionsState = ConventionsState()) -> ConventionsResult:
    """PE of the three layouts side by side, P, the similarity check and the t2t difference."""
    d, n = params.d_model, params.max_len
    step = block_step(n, state.rows)
    rows = max(1, n // step)
    ch_step = block_step(d, IMAGE_PX)
    pe = {lay: np.ascontiguousarray(img)                                     # (rows, d // ch_step)
          for lay, img in layouts.layout_images(step, rows, d, params.base, ch_step).items()}
    comp = layouts.compare_layouts(n, d, params.base, params.metric, state.rows, np.float32)
    perm, perm_step = permutation_image(d)
    m = comp.matrices
    diff_t2t = (m["t2t"] - m["interleaved"]).astype(np.float32)
    diff_concat = (m["concat"] - m["interleaved"]).astype(np.float32)
    _frozen(perm, diff_t2t, diff_concat, *pe.values())
    return ConventionsResult(pe, step, ch_step, perm, perm_step, comp, diff_t2t, diff_concat,
                             params, state)


# 2. relative offset ---------------------------------------------------------------------------
@dataclass(frozen=True)
class OffsetState:
    offset: int = 16          # k
    position: int = 10        # p


@dataclass(frozen=True)
class OffsetResult:
    rotation: np.ndarray      # (c, c) leading c = min(d, ROTATION_PX) channels of R(k)
    shifted: np.ndarray       # (d,) PE(p + k), float32
    rotated: np.ndarray       # (d,) R(k) PE(p), float32
    max_error: float          # max |PE(p+k) - R(k) PE(p)| in float32
    position: int             # p used: state.position clamped to 0 .. max_len-1
    k: int                    # k used: state.offset clamped to -(max_len-1) .. max_len-1
    ps: tuple                 # positions p of the dot-product curves
    ks: np.ndarray            # (K,) offsets k
    dots: np.ndarray          # (len(ps), K) PE(p) . PE(p + k)
    spread: float             # max over k of the spread between the curves (0: they collapse)
    params: Params
    state: OffsetState


def rotation_corner(d_model: int, offset: int, base: float, size: int = ROTATION_PX) -> np.ndarray:
    """The leading (c, c) block of R(k) for d_model, c = min(d, size) rounded down to even.

    base^(-2i/d) = (base^(c/d))^(-2i/c): the corner is R(k) of a c-wide PE with base^(c/d).
    """
    if d_model <= size:
        return relative.rotation_matrix(d_model, offset, base)
    c = size - size % 2
    return relative.rotation_matrix(c, offset, base ** (c / d_model))


@lru_cache(maxsize=4)
def offset(params: Params, state: OffsetState = OffsetState()) -> OffsetResult:
    """R(k), PE(p+k) beside R(k) PE(p) (float32), and PE(p).PE(p+k) against k for several p.

    p and k are clamped into the table (a worker may compute before the view's controls follow).
    """
    d, n = params.d_model, params.max_len
    pos = min(max(0, int(state.position)), n - 1)          # the view's controls may lag max_len
    k = min(max(-(n - 1), int(state.offset)), n - 1)
    shifted, rotated, err = relative.shifted_vs_rotated(pos, k, d, params.base, "float32")
    ps = tuple(sorted({0, pos, n // 4, n // 2}))
    step, count = _grid(n)
    ks = np.arange(count) * step                                              # (K,)
    dots = relative.dot_vs_offset(ps, ks, d, params.base)                     # (P, K)
    spread = float(np.max(dots.max(axis=0) - dots.min(axis=0))) if len(ps) > 1 else 0.0
    rot = rotation_corner(d, k, params.base)
    _frozen(rot, shifted, rotated, ks, dots)
    return OffsetResult(rot, shifted, rotated, err, pos, k, ps, ks, dots, spread, params, state)


# 3. frequencies -------------------------------------------------------------------------------
@dataclass(frozen=True)
class FrequenciesResult:
    index: np.ndarray        # (h,) pair index i
    w: np.ndarray            # (h,) angular frequency w_i
    wavelength: np.ndarray   # (h,) 2 pi / w_i in positions
    shortest: float
    longest: float
    beyond: int              # pairs whose wavelength exceeds max_len (no full period in the table)
    params: Params


@lru_cache(maxsize=4)
def frequency_table(params: Params) -> FrequenciesResult:
    """w_i and 2 pi / w_i per pair for the current d_model, base and layout."""
    w = frequencies(params.d_model, params.base, params.layout)               # (h,)
    lam = 2 * np.pi / w
    i = np.arange(len(w))
    _frozen(w, lam, i)
    return FrequenciesResult(i, w, lam, float(lam.min()), float(lam.max()),
                             int(np.sum(lam > params.max_len)), params)


# 4. RoPE ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RopeState:
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
    step, count = _grid(2 * n - 1)
    delta = -(n - 1) + np.arange(count) * step                                 # (K,)
    ones, _ = rope.query_key(hd, "ones")
    q, k = rope.query_key(hd, "random", state.seed)
    s_ones = _profile(theta, ones, ones, -(n - 1), step, count)
    s_rand = _profile(theta, q, k, -(n - 1), step, count)
    span = int(math.ceil(state.scale * n))
    e_step, e_count = _grid(span)
    ext = np.arange(e_count) * e_step                                          # (E,)
    variants = {name: _profile(th, ones, ones, 0.0, e_step, e_count)
                for name, th in rope.frequency_variants(hd, b, state.scale).items()}
    nb = rope.ntk_base(b, state.scale, hd) if hd >= 4 else None
    _frozen(perm, pos, q_rot, k_rot, delta, s_ones, s_rand, ext, *variants.values())
    return RopeResult(perm, pos, q_rot, k_rot, delta, s_ones, s_rand, ext, variants, nb,
                      params, state)


# 5. ALiBi ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AlibiState:
    heads: int = 8
    causal: bool = False


@dataclass(frozen=True)
class AlibiResult:
    slopes: np.ndarray        # (H,) m_h
    shown: tuple              # head indices whose bias is drawn
    positions: np.ndarray     # (rows,) positions of the bias image rows / columns
    bias: np.ndarray          # (len(shown), rows, rows) -m_h |i - j| (NaN where causal masks)
    params: Params
    state: AlibiState


@lru_cache(maxsize=4)
def alibi_view(params: Params, state: AlibiState = AlibiState()) -> AlibiResult:
    """Per-head slopes and the bias images of up to ALIBI_SHOWN evenly spread heads."""
    m = alibi.slopes(state.heads)
    shown = tuple(dict.fromkeys(int(round(x)) for x in
                                np.linspace(0, state.heads - 1, min(ALIBI_SHOWN, state.heads))))
    pos, full = alibi.bias_strided(state.heads, params.max_len, 128, state.causal)
    b = full[list(shown)].astype(np.float32)                                   # (S, rows, rows)
    b[np.isinf(b)] = np.nan   # masked (causal) cells: drawn transparent
    _frozen(m, pos, b)
    return AlibiResult(m, shown, pos, b, params, state)


# 6. one distance chart -------------------------------------------------------------------------
@dataclass(frozen=True)
class DistanceState:
    head_dim: int = 64
    rope_base: float = 10000.0
    heads: int = 8
    alibi_head: int = 0
    learned: bool = True


@dataclass(frozen=True)
class DistanceResult:
    curves: dict              # name -> (k, y), normalised to 1 at k = 0 (see backend.distance)
    learned_note: str         # "" or why the learned curve is missing
    params: Params
    state: DistanceState


@lru_cache(maxsize=1)
def learned_curve() -> tuple[np.ndarray, np.ndarray] | str:
    """MiniLM's mean cos-sim of positions p and p + k, k = 0 .. 511; or why it is unavailable."""
    from explorer.backend import pretrained

    reason = pretrained.minilm_available()
    if reason is not None:
        return reason
    table = pretrained.minilm_tables().position                               # (512, 384)
    k = np.arange(table.shape[0])
    y = distance.learned_vs_distance(table, k, "cosine")
    _frozen(k, y)
    return k, y


@lru_cache(maxsize=4)
def distance_view(params: Params, state: DistanceState = DistanceState()) -> DistanceResult:
    """All schemes' score factor against distance k = 0 .. max_len - 1 on shared axes."""
    curves = distance.distance_chart(params.max_len - 1, params.d_model, params.base,
                                     state.head_dim, state.rope_base, state.heads,
                                     state.alibi_head, None, max_points=CURVE_PX)
    note = ""
    if state.learned:
        got = learned_curve()
        if isinstance(got, str):
            note = got
        else:
            k, y = got
            keep = k < params.max_len
            curves = {**curves, "learned": (k[keep], y[keep])}
    return DistanceResult(curves, note, params, state)


# 7. precision -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class PrecisionState:
    train_max_len: int = 512
    span: int = 0             # positions shown; 0 = the shared max_len
    mode: str = "compute"


@dataclass(frozen=True)
class PrecisionResult:
    curves: dict              # dtype -> backend.precision.PrecisionCurve
    span: int                 # positions 0 .. span - 1 shown
    params: Params
    state: PrecisionState


PRECISION_POINTS = 256   # grid positions sampled (fewer for wide d); collision edges added exactly
PRECISION_WORK = 1 << 17  # positions x channels per frame: keeps wide d within the frame budget


def precision_points(d_model: int) -> int:
    """256 grid positions, or fewer (>= 128) when d_model is wide: the cost is positions x d."""
    return max(128, min(PRECISION_POINTS, PRECISION_WORK // d_model))


@lru_cache(maxsize=4)
def precision_view(params: Params, state: PrecisionState = PrecisionState()) -> PrecisionResult:
    """Neighbour distances ||PE~(p+1) - PE~(p)|| in float32 / float16 / bfloat16."""
    span = state.span or params.max_len
    curves = precision.all_precisions(span, params.d_model, params.base, state.mode,
                                      params.layout, state.train_max_len,
                                      precision_points(params.d_model), errors=False,
                                      jitter=True)
    return PrecisionResult(curves, span, params, state)
