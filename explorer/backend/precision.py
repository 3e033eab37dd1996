"""Where do neighbouring positions stop being distinguishable in float32 / float16 / bfloat16?

For each position p: neighbour[p] = ||PE~(p+1) - PE~(p)|| and rounding_error[p] = ||PE~(p) - PE64(p)||,
PE~ the table as a low-precision pipeline holds it, PE64 the exact float64 table. Two pipelines:
  compute  (default) what code does when it builds the table in that dtype: positions, frequencies,
           the angle p * w and sin/cos are each rounded to the dtype (sin/cos evaluated in float32 on
           the rounded angle, then rounded, as torch does for half types). Integers stop being
           exact at 2^(mantissa bits + 1): bfloat16 256, float16 2048, float32 16,777,216; from there
           neighbouring positions round to the same number and get the same PE (neighbour = 0).
           float16 positions above 65504 round to inf: their PE and curves are NaN (not drawn).
  store    the exact table rounded once (a float64 table saved in the dtype): never collides; the
           error is the dtype's spacing near each value.
The rounding to each dtype is backend/dtype_rounding.py's (numpy only: this module never imports
torch).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from explorer.backend.budget import check_budget
from explorer.backend.dtype_rounding import (MANTISSA_ROUNDING, PRECISIONS, SPARE_BITS, collision_position,
                                            round_to, rounded_bits)
from explorer.backend.encodings import channel_counts, channel_layout, check_args, frequencies
from explorer.backend.rope import phasors
from explorer.backend.unit_rows import exp_i
from explorer.errors import require

MODES = ("compute", "store")
ROW_BLOCK = 64          # positions per pass at most: each pass's arrays stay in cache (2-3x faster)
ROW_BLOCK_CELLS = 1 << 16   # positions x frequencies per pass (rows p and p + 1 go together: 512 KB
#                             float32 arrays); at d = 4096 that is 32 positions, ~2x faster than 64


def pe_rounded(positions, d_model: int, base: float = 10000.0, dtype: str = "bfloat16",
               mode: str = "compute", layout: str = "interleaved") -> np.ndarray:
    """PE at `positions` as the dtype pipeline holds it (see module doc); (n, d_model) float32."""
    check_args(d_model, base, layout)
    require(mode in MODES, "mode must be one of %1, not %2", ", ".join(MODES), repr(mode))
    pos = np.asarray(positions, dtype=np.float64).reshape(-1)                # (n,)
    check_budget(len(pos) * d_model * 4, 8, "%1 rows of a %2-wide PE table", len(pos), d_model)
    w = frequencies(d_model, base, layout)                                   # (n_sin,)
    if mode == "store":
        angle = pos[:, None] * w[None, :]                                    # (n, n_sin)
        sin, cos = round_to(np.sin(angle), dtype), round_to(np.cos(angle), dtype)
    else:
        sin, cos = _rounded_sin_cos(pos, w, dtype)
    return _assemble(sin, cos, d_model, layout)


def _rounded_sin_cos(pos: np.ndarray, w: np.ndarray, dtype: str) -> tuple[np.ndarray, np.ndarray]:
    """The compute pipeline: position, w, p*w and sin/cos each rounded to dtype; (n, n_sin) each."""
    z = _rounded_phasors(pos, w, dtype)
    return z.imag, z.real


def _rounded_phasors(pos: np.ndarray, w: np.ndarray, dtype: str) -> np.ndarray:
    """The compute pipeline's cos + i sin (see _rounded_sin_cos); (n, n_sin) complex64: one array
    for one table lookup, and the norms read both parts in one pass."""
    if dtype in SPARE_BITS:              # a 16-bit angle: its rounded sine and cosine are looked up
        return np.take(_phasor_table(dtype), _angle_keys(pos, w, dtype))
    with np.errstate(invalid="ignore"):  # float32 x float32: one correct rounding
        angle = np.multiply.outer(round_to(pos, dtype), round_to(w, dtype))   # (n, n_sin)
    z = np.empty(angle.shape, dtype=np.complex64)
    parts = z.view(np.float32).reshape(*angle.shape, 2)                       # cos, sin
    np.cos(angle, out=parts[..., 0])
    np.sin(angle, out=parts[..., 1])
    return z


def _angle_keys(pos: np.ndarray, w: np.ndarray, dtype: str) -> np.ndarray:
    """Table keys (see _phasor_table) of the 16-bit angles round_to(round_to(p) * round_to(w));
    (n, n_sin) intp. Each key is the exact float32 product's bits rounded at once (~1/2 the work of
    round_to, then a shift and a cast); rows where that is not the dtype's rounding (a product that
    is subnormal or too big for the dtype, or non-finite) go through round_to."""
    p, f = round_to(pos, dtype), round_to(w, dtype)                          # (n,), (n_sin,)
    # For 16-bit inputs the float32 product is exact. A float16 position > 65504 is inf, and a w
    # below its smallest subnormal is 0: inf x 0 is NaN, as in a float16 pipeline (sin(inf): NaN)
    with np.errstate(invalid="ignore"):
        angle = np.multiply.outer(p, f)                                      # (n, n_sin)
    drop = np.uint32(SPARE_BITS[dtype])
    key = np.empty(angle.shape, dtype=np.intp)
    np.right_shift(rounded_bits(angle, SPARE_BITS[dtype]), drop, out=key, casting="unsafe")
    slow = ~_mantissa_rounding_rows(p, f, dtype)                             # (n,)
    if slow.any():
        key[slow] = round_to(angle[slow], dtype).view(np.uint32) >> drop
    return key


def _mantissa_rounding_rows(p: np.ndarray, f: np.ndarray, dtype: str) -> np.ndarray:
    """(n,) bool: row i of the outer product p x f holds only 0 and magnitudes where mantissa
    rounding is the dtype's rounding (MANTISSA_ROUNDING); the row's extremes are |p_i| times the
    extremes of |f|, in float64 (exact for 16-bit factors)."""
    low, high = MANTISSA_ROUNDING[dtype]
    a, b = np.abs(p.astype(np.float64)), np.abs(f.astype(np.float64))
    if not np.isfinite(b).all():
        return np.zeros(len(a), dtype=bool)
    b_max = b.max(initial=0.0)
    b_min = b[b > 0].min(initial=np.inf)
    with np.errstate(invalid="ignore", over="ignore"):
        return np.isfinite(a) & (a * b_max <= high) & ((a == 0) | (a * b_min >= low))


def _sin_cos_rounded(angle: np.ndarray, dtype: str) -> tuple[np.ndarray, np.ndarray]:
    """round_to(sin(angle)), round_to(cos(angle)): sin/cos in float32 on the float32 angle."""
    with np.errstate(invalid="ignore"):  # float16 positions > 65504 are inf: sin is NaN
        return round_to(np.sin(angle), dtype), round_to(np.cos(angle), dtype)


@lru_cache(maxsize=None)
def _phasor_table(dtype: str) -> np.ndarray:
    """The rounded cos + i sin of every value of a 16-bit dtype, indexed by its float32 bit
    pattern >> SPARE_BITS[dtype] (round_to leaves those low bits 0, NaN and inf included);
    (2^(32 - spare),) complex64: 512 KB for bfloat16, 4 MB for float16 (whose 13 spare bits leave
    a wider key, most of it unused). Built once (~3 ms); one lookup costs ~1/4 of the sin, cos and
    rounding passes it replaces, and gives the same bits (tests/test_backend_precision.py)."""
    spare = SPARE_BITS[dtype]
    every = (np.arange(1 << (32 - spare), dtype=np.uint32) << np.uint32(spare)).view(np.float32)
    sin, cos = _sin_cos_rounded(every, dtype)
    table = _phasor(cos, sin)
    table.setflags(write=False)
    return table


def _phasor(cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    """cos + i sin as complex64 (both parts float32 values)."""
    z = np.empty(np.shape(cos), dtype=np.complex64)
    z.real, z.imag = cos, sin
    return z


def _norm(dz: np.ndarray, n_cos: int) -> np.ndarray:
    """Row norms of a PE difference held as cos + i sin per frequency (n, n_sin) complex (a new
    array: changed in place); channels past n_cos (odd d's unpaired sine) have no cosine. Summed
    in the parts' own dtype, pairwise (numpy's sum along a row): ~1e-7 relative in float32, ~1/3
    the time of casting to float64; 0 exactly when every channel is equal."""
    if n_cos < dz.shape[1]:
        dz.real[:, n_cos:] = 0
    parts = dz.view(dz.real.dtype)                                           # (n, 2 n_sin)
    np.square(parts, out=parts)
    return np.sqrt(parts.sum(axis=1, dtype=parts.dtype).astype(np.float64))


def _assemble(sin: np.ndarray, cos: np.ndarray, d_model: int, layout: str) -> np.ndarray:
    """Place sine / cosine columns (n, n_sin) in the layout's channel order; (n, d_model)."""
    sin_cols, cos_cols = channel_layout(d_model, layout)
    out = np.zeros((len(sin), d_model), dtype=sin.dtype)
    out[:, sin_cols] = sin
    out[:, cos_cols] = cos[:, : channel_counts(d_model, layout)[1]]
    return out


@dataclass(frozen=True, slots=True)
class PrecisionCurve:
    """One dtype's curves over positions; positions may be sampled (see sample_positions; every
    value at a sampled position is exact)."""

    dtype: str
    mode: str
    positions: np.ndarray        # (n,) int
    neighbour: np.ndarray        # (n,) ||PE~(p+1) - PE~(p)||
    exact_neighbour: np.ndarray  # (n,) ||PE64(p+1) - PE64(p)|| (constant for even d)
    rounding_error: np.ndarray | None  # (n,) ||PE~(p) - PE64(p)|| (None: not asked for)
    train_max_len: int           # marker: positions >= this were never seen in training
    beyond_train: np.ndarray     # (n,) bool
    first_collision: int | None  # first shown p with neighbour == 0 (None: none shown)
    collision_position: int      # where whole positions start to collide in this dtype (compute)


def neighbour_distances(max_len: int, d_model: int, base: float = 10000.0, dtype: str = "bfloat16",
                        mode: str = "compute", layout: str = "interleaved",
                        train_max_len: int = 512, max_points: int | None = 256) -> PrecisionCurve:
    """The curves for positions 0 .. max_len-1 (sampled with sample_positions)."""
    return all_precisions(max_len, d_model, base, mode, layout, train_max_len, max_points,
                          dtypes=(dtype,))[dtype]


def sample_positions(max_len: int, max_points: int | None, dtypes=PRECISIONS,
                     jitter: bool = False) -> np.ndarray:
    """0 .. max_len-1 strided to <= max_points (None: all), plus c - 1 and c for each dtype's
    collision position c < max_len, so the first collision is found at its exact place; (n,) int.

    jitter=True moves each grid point to a fixed pseudo-random place inside its stride: beyond a
    collision point only some neighbours collide (which ones depends on p mod a power of 2), and a
    plain grid of even strides would land on colliding ones only, drawing 0 everywhere.
    """
    stride = _stride(max_len, max_points)
    grid = np.arange(0, max_len, stride)
    if jitter and stride > 1:
        grid = np.minimum(grid + np.random.default_rng(0).integers(0, stride, len(grid)),
                          max_len - 1)
    edges = [q for dt in dtypes for q in (collision_position(dt) - 1, collision_position(dt))
             if q < max_len]
    return np.union1d(grid, np.array(edges, dtype=grid.dtype))


def _stride(max_len: int, max_points: int | None) -> int:
    return 1 if max_points is None else -(-max_len // max_points)


def exact_phasors(pos: np.ndarray, stride: int, w: np.ndarray) -> np.ndarray:
    """e^{i p w} in float64 for sampled positions; (n, n_sin) complex. The grid rows (multiples of
    stride) by blocked angle addition, the few inserted rows directly: float64 sin/cos cost ~8x
    float32's here, angle addition ~1/4 of that."""
    on_grid = pos % stride == 0
    z = np.empty((len(pos), len(w)), dtype=np.complex128)
    z[on_grid] = phasors(stride, int(on_grid.sum()), w)
    z[~on_grid] = exp_i(pos[~on_grid, None].astype(np.float64) * w[None, :])
    return z


def all_precisions(max_len: int, d_model: int, base: float = 10000.0, mode: str = "compute",
                   layout: str = "interleaved", train_max_len: int = 512,
                   max_points: int | None = 256, dtypes=PRECISIONS, errors: bool = True,
                   jitter: bool = False) -> dict:
    """dtype name -> PrecisionCurve (float32, float16 and bfloat16 by default).

    errors=False skips rounding_error (and, in compute mode, the float64 table): what a chart of
    neighbour distances needs, ~1/3 less work. jitter: see sample_positions."""
    for name, value in (("max_len", max_len), ("train_max_len", train_max_len)):
        ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
        require(ok and 1 <= value <= 100_000_000,
                "%1 must be a whole number between 1 and 100,000,000, not %2", name, repr(value))
    ok = isinstance(max_points, (int, np.integer)) and not isinstance(max_points, bool)
    require(max_points is None or (ok and max_points >= 1),
            "max_points must be a whole number >= 1 or None, not %1", repr(max_points))
    require(mode in MODES, "mode must be one of %1, not %2", ", ".join(MODES), repr(mode))
    for dt in dtypes:
        require(dt in PRECISIONS, "precision must be one of %1, not %2", ", ".join(PRECISIONS), repr(dt))
    check_args(d_model, base, layout)
    pos = sample_positions(max_len, max_points, dtypes, jitter)              # (n,)
    n = len(pos)
    check_budget(n * d_model * 8, 8, "%1 positions of a %2-wide PE table", n, d_model)
    w = frequencies(d_model, base, layout)                                   # (n_sin,)
    n_cos = channel_counts(d_model, layout)[1]
    # |PE64(p+1) - PE64(p)|^2: a pair gives |e^{iw} - 1|^2 = 2 - 2 cos w for every p; an unpaired
    # sine gives (2 cos((p + 1/2) w) sin(w / 2))^2
    paired = float(np.sum(2 - 2 * np.cos(w[:n_cos])))
    odd = (2 * np.cos((pos + 0.5) * w[n_cos:, None]) * np.sin(w[n_cos:, None] / 2)) ** 2  # (u, n)
    exact_neighbour = np.sqrt(paired + odd.sum(axis=0))
    need_exact = errors or mode == "store"
    z = exact_phasors(pos, _stride(max_len, max_points), w) if need_exact else None  # (n, n_sin)
    neighbour = {dt: np.empty(n) for dt in dtypes}
    error = {dt: np.empty(n) for dt in dtypes} if errors else None
    block = max(8, min(ROW_BLOCK, ROW_BLOCK_CELLS // max(len(w), 1)))
    for r0 in range(0, n, block):
        rows = slice(r0, r0 + block)
        _fill_block(pos[rows], None if z is None else z[rows], w, n_cos, mode, dtypes,
                    {dt: v[rows] for dt, v in neighbour.items()},
                    None if error is None else {dt: v[rows] for dt, v in error.items()})
    out = {}
    for dt in dtypes:
        zero = np.flatnonzero(neighbour[dt] == 0)
        out[dt] = PrecisionCurve(
            dtype=dt, mode=mode, positions=pos, neighbour=neighbour[dt],
            exact_neighbour=exact_neighbour, rounding_error=None if error is None else error[dt],
            train_max_len=int(train_max_len), beyond_train=pos >= train_max_len,
            first_collision=int(pos[zero[0]]) if len(zero) else None,
            collision_position=collision_position(dt))
    return out


def _fill_block(p: np.ndarray, z: np.ndarray | None, w: np.ndarray, n_cos: int, mode: str,
                dtypes, neighbour: dict, error: dict | None) -> None:
    """One block of rows p (b,) with z = e^{ipw} (b, n_sin) or None: writes each dtype's neighbour
    distance and rounding error. Norms ignore channel order, so no layout assembly."""
    p = p.astype(np.float64)
    if mode == "store":
        z_next = z * np.exp(1j * w)[None, :]                                 # e^{i(p+1)w}
    for dt in dtypes:
        if mode == "store":
            z_a = _phasor(round_to(z.real, dt), round_to(z.imag, dt))
            z_b = _phasor(round_to(z_next.real, dt), round_to(z_next.imag, dt))
        else:                            # rows p and p + 1 in one pass (elementwise: the same values)
            z_ab = _rounded_phasors(np.concatenate([p, p + 1]), w, dt)       # (2b, n_sin)
            z_a, z_b = z_ab[:len(p)], z_ab[len(p):]
        neighbour[dt][:] = _norm(z_b - z_a, n_cos)
        if error is not None:
            error[dt][:] = _norm(z_a - z, n_cos)
