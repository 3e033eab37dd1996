"""The one list of views, Qt-free: name -> title, state type, compute function, the Params it reads, formula.

Scenes, settings, the CLI (`views`, `export view`, `render`), the bench and the self-test iterate this
list; the UI keeps one dict from name to widget class (`explorer.ui.views.registry`). Adding a view:
its compute module (state + result + cached function), its widget, and one entry here.

`ViewEntry.run(params, state, window)` is what the controller's worker calls: the compute function is
cached on only the Params fields it reads (`reads`), so typing in the sentence box does not evict the
heatmap's result; the returned result carries the full current Params.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from explorer.compute import (alibi, conventions, curves, distance, frequencies, heatmap, learned,
                              offset, precision, qk, rope, similarity, tokens)
from explorer.compute import check as check_data
from explorer.compute.screen import Window
from explorer.errors import require
from explorer.params import Params
from explorer.viewstate import NoState, ViewState, ZoomState


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - the name lupdate looks for
    """Mark a title for translation (context "Catalogue"); the UI translates it at run time."""
    return text


PE = ("d_model", "max_len", "base", "layout")     # what the sinusoidal table itself depends on
TOKENS = ("d_model", "max_len", "base", "layout", "scale_embedding", "seed", "text", "tokenizer",
          "embedding_source", "model")


@dataclass(frozen=True)
class ViewEntry:
    """One view: what it is called, what it keeps, how its data is computed."""

    name: str
    title: str                      # English; translated in the UI (context "Catalogue")
    state_type: type                # a ViewState subclass; its defaults are the view's defaults
    compute: Callable               # the cached module-level compute function
    call: str                       # "window": compute(params, window) (the zoom and / or the panel's
    #                                 pixels); "state": compute(params, state); "state_window":
    #                                 compute(params, state, window) (a panel drawn at its pixels: the
    #                                 Layouts and RoPE views' P); "params": compute(params)
    reads: tuple[str, ...]          # Params fields the compute reads: its cache key
    formula: str                    # the view's formula in plain text (the formula panel has the rich one)

    @property
    def windowed(self) -> bool:
        """Whether the compute reads a Window: the controller passes the view's panel pixels, and a
        resize of that panel computes the view again."""
        return self.call in ("window", "state_window")

    def run(self, params: Params, state: ViewState | None = None, window: Window | None = None):
        """The view's frozen result for the shared params and its own state (worker thread)."""
        state = state if state is not None else self.state_type()
        key = params.project(self.reads)
        if self.windowed:
            window = window if window is not None else zoom_window(params, state)
        if self.call == "window":
            result = self.compute(key, window)
        elif self.call == "state_window":
            result = self.compute(key, state, window)
        elif self.call == "state":
            result = self.compute(key, state)
        else:
            result = self.compute(key)
        return result if result.params == params else replace(result, params=params)


def zoom_window(params: Params, state, rows_px: int = 800, cols_px: int = 1000) -> Window:
    """The Window a zoomable view computes: its State's zoom (or the whole table) at these pixels."""
    z = getattr(state, "zoom", ())
    if not z:
        return Window.full(params, rows_px, cols_px)
    ch0, ch1 = z[2:] if len(z) == 4 else (0, 0)
    return Window(z[0], z[1], ch0, ch1, rows_px, cols_px)


ENTRIES = (
    ViewEntry("heatmap", QT_TRANSLATE_NOOP("Catalogue", "PE heatmap"), ZoomState, heatmap.heatmap,
              "window", PE + ("dtype",), "PE(p, 2i) = sin(p·base^(−2i/d)), PE(p, 2i+1) = cos(p·base^(−2i/d))"),
    ViewEntry("curves", QT_TRANSLATE_NOOP("Catalogue", "Frequency curves"), ZoomState, curves.curves,
              "window", PE + ("curve_pairs",), "sin(p·wᵢ), cos(p·wᵢ) with wᵢ = base^(−2i/d)"),
    ViewEntry("similarity", QT_TRANSLATE_NOOP("Catalogue", "Position similarity"), ZoomState,
              similarity.similarity, "window", PE + ("metric",),
              "S[p, q] = PE(p)·PE(q) = Σᵢ cos((q − p)·wᵢ) = f(q − p)"),
    ViewEntry("tokens", QT_TRANSLATE_NOOP("Catalogue", "Tokens"), tokens.TokensState,
              tokens.for_params, "params", TOKENS, "X = one_hot(ids)·E·√d_model + PE[0:n]"),
    ViewEntry("learned", QT_TRANSLATE_NOOP("Catalogue", "Learned positions"), NoState,
              learned.learned, "window", ("base", "layout", "model"), "X = E[ids] + P[0:n] (P trained)"),
    ViewEntry("conventions", QT_TRANSLATE_NOOP("Catalogue", "Layout conventions"),
              conventions.ConventionsState, conventions.conventions, "state_window",
              ("d_model", "max_len", "base", "metric"), "PE_concat = PE_interleaved · P"),
    ViewEntry("offset", QT_TRANSLATE_NOOP("Catalogue", "Relative offset"), offset.OffsetState,
              offset.offset, "state", ("d_model", "max_len", "base"), "PE(p + k) = R(k)·PE(p)"),
    ViewEntry("frequencies", QT_TRANSLATE_NOOP("Catalogue", "Frequencies"), frequencies.FrequenciesState,
              frequencies.frequency_table, "state", ("d_model", "max_len", "base", "layout"),
              "wᵢ = base^(−2i/d), wavelength 2π/wᵢ"),
    ViewEntry("rope", QT_TRANSLATE_NOOP("Catalogue", "RoPE"), rope.RopeState, rope.rope_view,
              "state_window", ("max_len",), "q(m)·k(n) = Re Σᵢ qᵢ conj(kᵢ) e^{i(m−n)θᵢ}"),
    ViewEntry("alibi", QT_TRANSLATE_NOOP("Catalogue", "ALiBi"), alibi.AlibiState, alibi.alibi_view,
              "state", ("max_len", "model"), "score(i, j) += −m_h·|i − j|"),
    ViewEntry("distance", QT_TRANSLATE_NOOP("Catalogue", "Distance chart"), distance.DistanceState,
              distance.distance_view, "state", ("d_model", "max_len", "base"),
              "score factor against distance k, 1 at k = 0"),
    ViewEntry("precision", QT_TRANSLATE_NOOP("Catalogue", "Precision"), precision.PrecisionState,
              precision.precision_view, "state", ("d_model", "max_len", "base", "layout"),
              "‖PE~(p+1) − PE~(p)‖ in float32 / float16 / bfloat16"),
    ViewEntry("qk", QT_TRANSLATE_NOOP("Catalogue", "RoPE, real weights"), qk.QkState, qk.qk_view,
              "state", ("text", "model"), "logit(m, n) = (R_m W_q x_m)·(R_n W_k x_n) / √head_dim"),
    ViewEntry("check", QT_TRANSLATE_NOOP("Catalogue", "Check my table"), check_data.CheckState,
              check_data.check_view, "state", (), "your table − the reference it matches or should match"),
)

VIEWS: dict[str, ViewEntry] = {e.name: e for e in ENTRIES}
NAMES: tuple[str, ...] = tuple(VIEWS)


def entry(name: str) -> ViewEntry:
    """The catalogue entry of `name`; InputError listing the known names."""
    require(name in VIEWS, "unknown view %1; the views are %2", repr(name), ", ".join(NAMES))
    return VIEWS[name]


def default_states() -> dict[str, ViewState]:
    """name -> the view's default state."""
    return {e.name: e.state_type() for e in ENTRIES}


def describe() -> list[dict]:
    """Every view's name, title, formula and own state fields with their defaults (for `views --json`)."""
    return [{"name": e.name, "title": e.title, "formula": e.formula, "reads": list(e.reads),
             "state": e.state_type.field_specs()} for e in ENTRIES]
