"""Channel layouts side by side: the permutation interleaved -> concat, and their similarity matrices.

A channel permutation P does not change dot products: (E P)(E P)^T = E P P^T E^T = E E^T, so
interleaved and concat give the same position-similarity matrix. t2t is not a permutation of
interleaved: its frequencies are spaced w_i = base^(-i/(h-1)) instead of base^(-2i/d), so its
matrix differs (by more as d gets smaller).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.backend.budget import check_budget
from explorer.backend.encodings import LAYOUTS, check_args, pe_block_mean
from explorer.backend.pe_screen import pe_screen_layouts
from explorer.backend.similarity import METRICS, rows_similarity, similarity_blocks
from explorer.errors import msg, require

SCREEN_ROWS = 512  # the most rows a layout heatmap gets; longer max_len is shown as block means
CHECK_ROWS = 8     # table rows on which the permutation itself is checked (cost: 2 x 8 x d float64 sines)


def concat_order(d_model: int) -> np.ndarray:
    """src[j] = the interleaved column that concat column j holds; shape (d_model,).

    Concat = all sines (interleaved columns 0, 2, 4, ...), then all cosines (1, 3, 5, ...).
    Odd d: (d+1)/2 sines and (d-1)/2 cosines, as in `encodings.channel_layout`.
    """
    check_args(d_model, 10000.0, "concat")
    return np.concatenate([np.arange(0, d_model, 2), np.arange(1, d_model, 2)])


def concat_permutation(d_model: int) -> np.ndarray:
    """P (d x d, 0/1 float64) with PE_concat = PE_interleaved @ P; P[src[j], j] = 1."""
    check_budget(d_model * d_model, 8, "a %1 x %1 permutation matrix", d_model,
                 advice=msg("choose a smaller d_model"))
    p = np.zeros((d_model, d_model))
    p[concat_order(d_model), np.arange(d_model)] = 1.0
    return p


def layout_images(step: int, rows: int, d_model: int, base: float,
                  ch_step: int) -> dict[str, np.ndarray]:
    """Each layout's PE as block means of step positions x ch_step channels, float32;
    layout -> (rows, d_model // ch_step) (a trailing partial run of channels is left out).

    explorer.backend.pe_screen computes exactly these screen-size means by angle addition
    (~4x faster than the block-mean table box-filtered at 8192 x 4096); concat's factor tables are
    interleaved's, gathered.
    """
    return pe_screen_layouts(step, rows, ch_step, d_model, base, LAYOUTS)


@dataclass(frozen=True, slots=True)
class LayoutComparison:
    """The three layouts' similarity matrices over the same (block-mean) positions and the checks."""

    matrices: dict          # layout name -> (rows, rows) float64
    step: int               # positions per row/column block (1 = exact, unaveraged)
    rows: int               # rows shown; positions 0 .. rows*step - 1
    diff_concat: float      # max |S_interleaved - S_concat| on CHECK_ROWS sampled rows of the tables
    #                         (0 up to rounding: a permutation of channels keeps dot products)
    diff_t2t: float         # max |S_interleaved - S_t2t| (not 0: different frequencies)
    permutation_error: float  # max |PE_interleaved @ P - PE_concat| on CHECK_ROWS sampled rows


def screen_grid(max_len: int, max_rows: int = SCREEN_ROWS) -> tuple[int, int]:
    """(step, rows): the smallest whole block size with rows = max_len // step <= max_rows."""
    require(isinstance(max_len, (int, np.integer)) and max_len >= 1,
            "max_len must be a whole number >= 1, not %1", repr(max_len))
    require(isinstance(max_rows, (int, np.integer)) and max_rows >= 1,
            "the number of rows shown must be a whole number >= 1, not %1", repr(max_rows))
    step = -(-max_len // max_rows)
    return step, max(1, max_len // step)


def compare_layouts(max_len: int, d_model: int, base: float = 10000.0, metric: str = "dot",
                    max_rows: int = SCREEN_ROWS, dtype=np.float64) -> LayoutComparison:
    """Similarity matrices of interleaved / concat / t2t for the same d_model and base.

    max_len > max_rows is shown as means over step x step blocks (step = ceil(max_len / max_rows));
    the trailing max_len % step positions are left out. diff_concat and permutation_error check the
    tables themselves (independent of the closed form).
    """
    require(metric in METRICS, "metric must be one of %1, not %2", ", ".join(METRICS), repr(metric))
    check_args(d_model, base, "interleaved")
    step, rows = screen_grid(max_len, max_rows)
    check_budget(rows * rows * 4 + rows * d_model * 3, 8, "%1 x %1 layout comparison", rows)
    # dtype=float32 is the screen path. Interleaved and concat share every frequency, so the closed
    # form gives them the same matrix bit for bit: concat's is interleaved's (one pass less);
    # that they keep dot products is checked on the tables themselves below
    mats = {lay: similarity_blocks(0, 0, step, rows, rows, d_model, base, lay, metric, dtype)
            for lay in ("interleaved", "t2t")}                                  # each (rows, rows)
    mats["concat"] = mats["interleaved"]
    # the table check on n_check block means of PE (a permutation commutes with the mean)
    n_check = min(rows * step, CHECK_ROWS)
    stride = max(1, (rows * step) // n_check)
    inter = pe_block_mean(0, stride, n_check, d_model, base, "interleaved", by_doubling=True)  # (n_check, d)
    concat = pe_block_mean(0, stride, n_check, d_model, base, "concat", by_doubling=True)     # (n_check, d)
    perm_err = float(np.max(np.abs(inter[:, concat_order(d_model)] - concat)))
    return LayoutComparison(
        matrices=mats, step=step, rows=rows,
        diff_concat=float(np.max(np.abs(rows_similarity(inter, metric) - rows_similarity(concat, metric)))),
        diff_t2t=float(np.max(np.abs(mats["interleaved"] - mats["t2t"]))),
        permutation_error=perm_err)
