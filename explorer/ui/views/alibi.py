"""ALiBi: per-head slopes and the bias -m_h·|i - j| each head adds to its attention scores."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np

from explorer.compute import alibi as data
from explorer.backend.alibi import MAX_HEADS
from explorer.ui.views import alibi_t5
from explorer.ui.views.dots import Dots, move_points
from explorer.ui.views.thick_curve import add_line
from explorer.ui.views.titles import set_title, title_over_axis
from explorer.ui.views.ranges import labelled_span, set_extent
from explorer.ui.views.span_ticks import span_ticks
from explorer.ui.views.panel_view import PALETTE, TITLE_SIZE, PanelView, decade_ticks, set_pen
from explorer.errors import localized
from explorer.translations import fill
from explorer.ui.i18n import current_language


class AlibiView(PanelView):
    title = "alibi"

    def __init__(self, parent=None):
        super().__init__(data.AlibiState(), parent)
        self.explain.setText(self.tr(
            "ALiBi adds no position vectors: head h subtracts m_h × distance from its attention "
            "scores. Slopes fall geometrically (8 heads: 1/2 … 1/256), so some heads look far."))
        self.heads_box = self.spin(self.tr("heads"), 1, min(MAX_HEADS, 64), self.state.heads, "heads")
        self.causal_box = self.check(self.tr("causal (mask future keys)"), self.state.causal, "causal")
        self.model_box = self.check(self.tr("the opened model's heads"), self.state.model_slopes, "model_slopes")
        self.model_box.setToolTip(self.tr("When the opened model uses ALiBi (BLOOM, MPT, Falcon-RW): its heads and "
                                          "the slopes its attention puts on the logits"))
        self.slope_plot = self.plot(0, 0, self.tr("head (from 0)"), self.tr("slope m_h"),
                                    self.tr("slopes"), colspan=2 * data.ALIBI_SHOWN)
        self.slope_plot.setLogMode(y=True)
        self.slope_plot.getAxis("left").enableAutoSIPrefix(False)
        decade_ticks(self.slope_plot.getAxis("left"))
        # a bare line and dots at log10(m_h) on the log axis (a PlotDataItem's log and symbol layers
        # rebuilt every dot's style on each head count: ~2 ms a step)
        self.slope_curve = add_line(self.slope_plot, pen=self.pen(PALETTE[0]))
        self.slope_dots = Dots(size=7, pen=None, brush=PALETTE[0], symbol="o")
        self.slope_plot.addItem(self.slope_dots)
        self.panels = [self.image(1, 2 * i, self.tr("key j"), self.tr("query i"), cmap="CET-L1")
                       for i in range(data.ALIBI_SHOWN)]
        for panel in self.panels[1:]:   # one "query i" label is enough; the others crowd the bars
            panel.plot.getAxis("left").showLabel(False)
        for panel in self.panels:       # "head 12: m = 0.04419" is wider than its image in F11
            title_over_axis(panel.plot)
        self.canvas.ci.layout.setRowStretchFactor(0, 2)
        self.canvas.ci.layout.setRowStretchFactor(1, 3)

    def show_state(self, state, params=None) -> None:
        """The own controls show `state`; with a T5's heads drawn the causal box stays greyed and unticked."""
        super().show_state(state, params)
        if getattr(self, "_t5_mode", False):
            alibi_t5.grey_causal(self)

    def draw(self, r) -> None:
        if self.model_box.isHidden() == bool(r.params.model):    # no model open: nothing to take (a greyed,
            self.model_box.setHidden(not r.params.model)          # ticked box read as "the model's heads")
        if r.family == "t5":             # an opened T5's heads: each one's bias, no slopes (views.alibi_t5)
            alibi_t5.draw(self, r)
            return
        alibi_t5.leave(self)
        self._show_heads(len(r.slopes) if r.model_name else None, r.state.heads)
        heads, log_slopes = np.arange(len(r.slopes), dtype=float), np.log10(r.slopes)
        # a line only where the slopes fall from head to head: a head count that is not a power of 2 interleaves
        # a second geometric series (BLOOM's 6 heads: 1/4 … 1/256, then 1/2, 1/8), and a line joining the two
        # drew a trend that is not there; its dots stay
        falling = bool(np.all(np.diff(log_slopes) <= 0))
        self.slope_curve.setData(heads if falling else [], log_slopes if falling else [])
        move_points(self.slope_dots, heads, log_slopes)
        axis_heads = _axis_heads(len(r.slopes))
        if getattr(self.slope_plot, "_ticked_heads", None) != axis_heads:   # a new axis: ~1.5 ms
            self.slope_plot._ticked_heads = axis_heads
            step = max(1, -(-axis_heads // 16))  # whole heads only (pyqtgraph put ticks at 0.5)
            self.slope_plot.getAxis("bottom").setTicks([[(h, str(h)) for h in range(0, axis_heads, step)], []])
        set_extent(self.slope_plot, x=(-0.5, axis_heads - 0.5), padding=0.02)
        set_pen(self.slope_curve, self.pen(PALETTE[0]))
        n = r.params.max_len
        step = int(r.positions[1] - r.positions[0]) if len(r.positions) > 1 else 1
        span = len(r.positions) * step
        for i, panel in enumerate(self.panels):
            if i >= len(r.shown):
                panel.plot.hide()
                panel.bar.hide()
                continue
            panel.plot.show()
            panel.bar.show()
            h = r.shown[i]
            lo = -float(r.slopes[h]) * (n - 1)
            if r.family == "falcon":      # positions rounded to bfloat16: the farthest key may read past n - 1
                lo = min(lo, float(np.nanmin(r.bias[i])))
            # a labelled bottom end (-127.5 -> -150): the bar's last label was -100, its end unnamed
            panel.show(r.bias[i], 0, 0, span, span, labelled_span(min(lo, -1e-9), 0.0))
            set_extent(panel.plot, (0, span), (0, span))
            span_ticks(panel.plot.getAxis("bottom"), span)
            set_title(panel.plot, size=TITLE_SIZE, free_width=True,
                      text=fill(self.tr("head %1: m = %2"), str(h), _fraction(r.slopes[h], 3)))
        shown = ", ".join(_fraction(m) for m in r.slopes[:16])
        more = " …" if len(r.slopes) > 16 else ""
        text = (fill(self.tr("1 head, slope: %1"), shown) if len(r.slopes) == 1 else
                fill(self.tr("%1 heads, slopes: %2"), str(len(r.slopes)), shown + more))
        if r.model_name:
            text = fill(self.tr("%1: %2 (%3)"), r.model_name, text, self._family_words(r.family))
        elif r.reason:
            text = fill(self.tr("%1. %2"), localized(r.reason, current_language()), text)
        self.set_readout(text)

    def _show_heads(self, model_heads: int | None, own_heads: int) -> None:
        """The heads box: greyed with the model's head count in it (BLOOM-176B's 112 too), or the state's own.
        Changed only when it differs (a new range re-lays out the view: each step of a slider would)."""
        box, top = self.heads_box, max(min(MAX_HEADS, 64), model_heads or 0)
        value, enabled = model_heads or own_heads, model_heads is None
        if (box.maximum(), box.value(), box.isEnabled()) == (top, value, enabled):
            return
        box.blockSignals(True)
        box.setMaximum(top)
        box.setValue(value)
        box.setEnabled(enabled)
        box.blockSignals(False)

    def _family_words(self, family: str) -> str:
        """How the model's family makes the slopes shown, in the UI's language."""
        if family == "falcon":
            return self.tr("Falcon: each slope and position rounded to bfloat16, then ÷ √head_dim, as on the logits")
        if family == "mpt":
            return self.tr("MPT's slopes, float32")
        return self.tr("BLOOM's slopes, float32")


def _axis_heads(heads: int) -> int:
    """How many heads the slope chart's x axis spans: `heads` rounded up to a multiple of 4 (of 8
    above 16; up to 4 heads, exact), so 8, 12, 16, 32 or 64 heads fill it. The heads spin box
    redrew the axis and its ticks on every step (~1.5 ms); now on every fourth or eighth."""
    unit = 1 if heads <= 4 else 4 if heads <= 16 else 8
    return -(-max(1, heads) // unit) * unit


@lru_cache(maxsize=4096)
def _fraction(m: float, digits: int = 4) -> str:
    """1/256 for exact powers of two, else `digits` significant digits (a display format, not
    maths; a panel title takes 3, so that "head 12: m = 0.0442" fits its panel in F11 at 1280 px)."""
    f = Fraction(float(m)).limit_denominator(1 << 20)
    return f"{f.numerator}/{f.denominator}" if f.numerator == 1 and float(f) == m else f"{m:.{digits}g}"

