"""The learned-positions view's data: a trained position table beside sinusoidal PE at the same d. No Qt.

The table is the opened model's (Params.model: GPT-2 1024 x 768, BERT 512 x 768, OPT and RoBERTa from the row
of position 0, MiniLM) when it has learned positions, else MiniLM's 512 x 384. Both tables come with their cosine
similarity and a PCA of their rows (centred; explorer.compute.pca): the first three principal components of every
position.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

import numpy as np

from explorer.backend import pretrained
from explorer.backend.models.finite import bad_rows, listed
from explorer.backend.encodings import sinusoidal_pe
from explorer.backend.pe_screen import screen_block_means
from explorer.backend.similarity import cosine_block_means, cosine_matrix_view, rows_similarity
from explorer.compute.pca import pca
from explorer.compute.screen import ShownImage, Window, block_means, block_step, channel_step
from explorer.compute.sinusoidal_pca import pca_of_sinusoidal
from explorer.compute.tokens import MINILM_D, MINILM_LEN
from explorer.errors import InputError, message_of, msg, require
from explorer.params import Params

MAX_ROWS = 2048            # positions shown at most (OPT-350m has 2048; cosine 2048² is 16 MB)


@dataclass(frozen=True)
class LearnedResult:
    """A learned position table beside sinusoidal PE at the same (n, d) (params.base, params.layout)."""

    params: Params
    sinusoidal_of: tuple              # (n, d, base, layout) of the sinusoidal table (see .sinusoidal)
    sim_sinusoidal: np.ndarray        # (n, n) cosine, closed form (read-only; a Toeplitz view)
    learned: np.ndarray | None        # (n, d) or None when no table is available
    sim_learned: np.ndarray | None    # (n, n) cosine
    error: str = ""                   # why the learned table is missing
    pca_learned: np.ndarray | None = None      # (n, 3) the rows' coordinates on PC1..PC3
    pca_sinusoidal: np.ndarray | None = None   # (n, 3)
    var_learned: np.ndarray | None = None      # (3,) fraction of the variance on PC1..PC3
    var_sinusoidal: np.ndarray | None = None   # (3,)
    source: str = "all-MiniLM-L6-v2"  # whose table it is
    note_kind: str = ""               # "" | "rope" / "alibi" / "relative" (the opened model has no learned table)
    #                                   | "failed"
    requested: str = ""               # the opened model's name, when note_kind is set
    reason: str = ""                  # why the opened model's table is not shown (a Message; "" when
    #                                   it is), without the fallback named
    total_rows: int = 0               # rows of the whole table (more than n when cut at MAX_ROWS)
    first_row: int = 0                # the stored row of position 0 (OPT 2, RoBERTa pad_token_id + 1): the rows
    #                                   before it are not shown, no text's first token reads them
    computed: bool = False            # the model's table is computed from its config.json, not stored (XGLM's
    #                                   sinusoidal one, rows 2, 3, ... of fairseq's t2t table: models.xglm)
    embed_scale: float = 1.0          # the model's factor on E in X (XGLM's √d_model with scale_embedding)
    family: str = ""                  # the opened model's family (models.family_tables): its X's LayerNorm and
    #                                   token type (BERT's) in the formula
    # what the four image panels draw: block means at the panel's pixels (None: no learned table)
    shown_sinusoidal: ShownImage | None = None
    shown_sim_sinusoidal: ShownImage | None = None
    shown_learned: ShownImage | None = None
    shown_sim_learned: ShownImage | None = None

    @property
    def shape(self) -> tuple[int, int]:
        """(n, d): positions and channels of both tables."""
        return self.sinusoidal_of[:2]

    @cached_property
    def sinusoidal(self) -> np.ndarray:
        """The float32 sinusoidal table (n, d), made on first use: a base step draws its block means
        and PCA by closed forms and never needs it (2048 x 1024: ~3 ms)."""
        table = sinusoidal_pe(*self.sinusoidal_of, "float32")
        table.setflags(write=False)
        return table

    learned_level: float = 1.0        # the learned table's colour limit: the 99.5th percentile of |value| (a
    #                                   few channels are outliers ~30x larger, which would wash the picture out)
    learned_peak: float = 0.0         # its largest |value| (the note names it)


def cosine_matrix(rows: np.ndarray) -> np.ndarray:
    """Cosine similarity of every pair of rows, in float64; (n, n). Zero rows give 0."""
    return rows_similarity(np.asarray(rows, dtype=np.float64), "cosine")


@lru_cache(maxsize=4)
def _model_table(spec: str, stamp: tuple = ()):
    """(name, table (n, d), total rows, kind, reason, first row, more): the opened model's learned table from
    the row of position 0 (models.families.position_rows; XGLM's computed from config.json) and `more`, its
    LearnedResult fields computed and embed_scale; or (None, None, 0, kind, reason, 0, {}) with kind "rope" or
    "alibi" (it has none) or "failed" (it cannot be shown)."""
    if not spec:
        return None, None, 0, "", "", 0, {}
    from explorer.compute import models

    try:
        model = models.open_cached(spec)
        if model.config.position == "alibi":
            return None, None, 0, "alibi", msg("%1 has no learned position table (ALiBi: each head adds a "
                                               "distance penalty to its attention scores)", model.name), 0, {}
        if model.config.position == "relative":
            return None, None, 0, "relative", msg("%1 has no learned position table (T5: each head adds a learned "
                                                  "bias per bucket of distance to its attention scores)",
                                                  model.name), 0, {}
        if model.config.position != "learned":
            return None, None, 0, "rope", msg("%1 has no learned position table (its positions enter "
                                              "inside attention: RoPE)", model.name), 0, {}
        table = model.positions()                                              # (rows, d)
        shown = np.asarray(table[:MAX_ROWS], np.float32)
        bad = bad_rows(shown)      # no cosine or PCA of them: shown as a failed read, with the rows
        require(bad.size == 0, "%1's learned position table holds NaN or infinite values (positions %2)",
                model.name, listed(bad))
    except InputError as exc:
        return None, None, 0, "failed", message_of(exc), 0, {}
    cfg = model.config
    more = {"computed": cfg.computed_positions, "embed_scale": float(cfg.embed_scale), "family": cfg.family}
    return model.name, shown, table.shape[0], "", "", cfg.position_offset, more


_PER_TABLE: dict = {}   # (id(table), what) -> (table, what was derived from it): a trained table
#                        does not move with the base, so its cosine, PCA and images are made once


def _per_table(table: np.ndarray, what: tuple, make):
    """make(), kept for this very array (its id alone could be reused by a new one) and `what`."""
    key = (id(table), what)
    got = _PER_TABLE.get(key)
    if got is None or got[0] is not table:
        if len(_PER_TABLE) > 12:
            _PER_TABLE.clear()
        got = _PER_TABLE[key] = (table, make())
    return got[1]


def _learned_side(rows: np.ndarray) -> dict:
    """The learned table's cosine matrix and PCA, computed once per table (the base slider moves only
    the sinusoidal side)."""
    def make() -> dict:
        pca_l, var_l = pca(rows)
        size = np.abs(rows)
        return {"sim_learned": cosine_matrix(rows).astype(np.float32), "pca_learned": pca_l,
                "var_learned": var_l, "learned_level": max(float(np.percentile(size, 99.5)), 1e-12),
                "learned_peak": float(size.max())}
    return _per_table(rows, ("sides",), make)


def _sides(learned_rows, n: int, d: int, base: float, layout: str) -> dict:
    sim_sin = cosine_matrix_view(n, d, base, layout)                  # (n, n), a view of 2n - 1 values
    pca_sin, var_sin = pca_of_sinusoidal(n, d, base, layout)
    out = {"sinusoidal_of": (n, d, base, layout), "sim_sinusoidal": sim_sin, "pca_sinusoidal": pca_sin,
           "var_sinusoidal": var_sin}
    if learned_rows is not None:
        out.update(learned=learned_rows, **_learned_side(learned_rows))
    else:
        out.update(learned=None, sim_learned=None)
    return out


@lru_cache(maxsize=4)
def _learned(base: float, layout: str) -> LearnedResult:
    """MiniLM's table (512 x 384) beside sinusoidal PE at d = 384."""
    learned_rows, error = None, ""
    try:
        learned_rows = pretrained.minilm_tables().position                             # (512, 384)
    except InputError as exc:
        error = message_of(exc)
    return LearnedResult(Params(), error=error, total_rows=MINILM_LEN,
                         **_sides(learned_rows, MINILM_LEN, MINILM_D, base, layout))


@lru_cache(maxsize=4)
def _learned_model(spec: str, stamp: tuple, base: float, layout: str) -> LearnedResult | tuple:
    """The opened model's table beside sinusoidal PE, or (kind, reason) when it has none to show."""
    name, table, total, kind, reason, first, more = _model_table(spec, stamp)
    if table is None:
        return kind, reason
    n, d = table.shape
    return LearnedResult(Params(), source=name, total_rows=total, first_row=first, **more,
                         **_sides(table, n, d, base, layout))


@lru_cache(maxsize=4)
def _learned_params(params: Params) -> LearnedResult:
    """The tables, similarities and PCAs for params.base, params.layout and params.model."""
    base, layout = float(params.base), params.layout
    if params.model:
        from explorer.compute import models

        try:
            r = _learned_model(models.normal_spec(params.model), models.stamp(params.model), base, layout)
        except InputError as exc:
            r = ("failed", message_of(exc))
        if isinstance(r, LearnedResult):
            return replace(r, params=params)
        kind, reason = r
        return replace(_learned(base, layout), params=params, note_kind=kind,
                       requested=models.display_name(params.model), reason=reason)
    return replace(_learned(base, layout), params=params)


def shown_table(params: Params) -> LearnedResult:
    """The tables and similarities the view shows for params (no images): whose table it is, its shape."""
    return _learned_params(params.project(("base", "layout", "model")))


def _shown_fixed(a: np.ndarray | None, rows_px: int, cols_px: int) -> ShownImage | None:
    """block_means of a trained table or its similarity, once per array and panel size."""
    if a is None:
        return None
    return _per_table(a, ("shown", rows_px, cols_px), lambda: block_means(a, rows_px, cols_px))


def _shown_pe(r: LearnedResult, rows_px: int, cols_px: int) -> ShownImage:
    """block_means(r.sinusoidal, ...) by closed form (pe_screen, as the heatmap draws): no (n, d)
    table (2048 x 1024 into 250 x 480: ~3.7 -> ~0.3 ms). The table itself where every cell has a pixel."""
    n, d, base, layout = r.sinusoidal_of
    rs, cs = block_step(n, rows_px), channel_step(d, cols_px, layout)
    if rs == cs == 1:
        return block_means(r.sinusoidal, rows_px, cols_px)
    rows, cols = n // rs, d // cs
    data = screen_block_means(0, rs, rows, 0, cs, cols, d, base, layout)            # (rows, cols)
    data.setflags(write=False)
    return ShownImage(data, rows * rs, cols * cs)


def _shown_sim_sinusoidal(r: LearnedResult, rows_px: int, cols_px: int) -> ShownImage:
    """block_means(r.sim_sinusoidal, ...) by the closed form (cosine_block_means) where there is one:
    a few thousand offsets instead of a pass over the n x n matrix (2048 x 2048: 2.1 -> 0.8 ms)."""
    n, d = r.shape
    rs, cs = block_step(n, rows_px), block_step(n, cols_px)
    data = None if rs == cs == 1 else cosine_block_means(rs, cs, n // rs, n // cs, d,
                                                         float(r.params.base), r.params.layout)
    if data is None:                   # the matrix fits (no copy) or an unpaired sine: the means
        return block_means(r.sim_sinusoidal, rows_px, cols_px)
    data.setflags(write=False)
    return ShownImage(data, n // rs * rs, n // cs * cs)


@lru_cache(maxsize=4)
def _shown(params: Params, rows_px: int, cols_px: int) -> LearnedResult:
    return _drawn(_learned_params(params), rows_px, cols_px)


def beside_table(table: np.ndarray, params: Params, rows_px: int, cols_px: int) -> LearnedResult:
    """A trained table (n, d) float32 beside sinusoidal PE at params.base and params.layout, drawn at
    rows_px x cols_px, uncached: what one base step costs with a model's table open (the bench's
    GPT-2 and OPT-sized rows; the table's own side is made once per table, as in the view)."""
    n, d = table.shape
    r = LearnedResult(params, source="table", total_rows=n,
                      **_sides(table, n, d, float(params.base), params.layout))
    return _drawn(r, rows_px, cols_px)


def _drawn(r: LearnedResult, rows_px: int, cols_px: int) -> LearnedResult:
    """r with its four images as block means at the panel's pixels."""
    return replace(r, shown_sinusoidal=_shown_pe(r, rows_px, cols_px),
                   shown_sim_sinusoidal=_shown_sim_sinusoidal(r, rows_px, cols_px),
                   shown_learned=_shown_fixed(r.learned, rows_px, cols_px),
                   shown_sim_learned=_shown_fixed(r.sim_learned, rows_px, cols_px))


def learned(params: Params, window: Window | None = None) -> LearnedResult:
    """Learned vs sinusoidal positions; depends only on params.base, params.layout and params.model,
    and draws them at the pixels of the window's panel (default 800 x 1000: the tables themselves).
    Cached on those pixels alone: the window's positions and channels follow max_len and d_model,
    which this view does not read."""
    return _shown(params, *((window.rows_px, window.cols_px) if window is not None else (800, 1000)))
