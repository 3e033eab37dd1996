"""Frequencies: w_i and the wavelength 2π/w_i of each channel pair on a log axis, live with base."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg

from explorer.compute.frequencies import FrequenciesState
from explorer.ui.views.thick_curve import add_line
from explorer.ui.views.titles import set_title
from explorer.ui.views.ranges import decades, steady_range
from explorer.ui.views.panel_view import GREY, PALETTE, TITLE_SIZE, PanelView, decade_ticks, line_label_font, set_pen
from explorer.translations import fill, number_text
from explorer.ui.views.rope_words import scaling_words


class FrequenciesView(PanelView):
    title = "frequencies"

    def __init__(self, parent=None):
        super().__init__(FrequenciesState(), parent)
        self.explain.setText(self.tr(
            "wᵢ = base^(−2i/d) falls geometrically, so on a log axis it is a straight line; its "
            "wavelength 2π/wᵢ runs from 2π to about 2π·base. Pairs above the max_len line never "
            "complete one period inside the table."))
        self.check(self.tr("also RoPE's θᵢ before / after its rope type (set by a preset)"),
                   self.state.rope, "rope")
        self.chart = self.plot(0, 0, self.tr("frequency pair i"), self.tr("value (log scale)"),
                               whole_x=True)
        self.chart.setLogMode(y=True)
        decade_ticks(self.chart.getAxis("left"))
        self.legend(self.chart)
        # bare curves given log10 of their values (setLogMode does not reach them): a PlotDataItem's setData
        # and log mapping cost ~0.35 ms a curve a step, about a tenth of this view's frame
        self.w_curve = add_line(self.chart, name=self.tr("wᵢ (radians per position)"), pen=self.pen(PALETTE[0]))
        self.l_curve = add_line(self.chart, name=self.tr("wavelength 2π/wᵢ (positions)"), pen=self.pen(PALETTE[1]))
        # RoPE's own pairs (head_dim/2, far fewer than d_model/2): a second chart, shown with `rope`
        self.rope_chart = self.plot(1, 0, self.tr("RoPE pair i"), self.tr("θᵢ (log scale)"),
                                    whole_x=True)
        self.rope_chart.setLogMode(y=True)
        decade_ticks(self.rope_chart.getAxis("left"))
        self.r_before = add_line(self.rope_chart)
        self.r_after = add_line(self.rope_chart)
        self.canvas.ci.removeItem(self.rope_chart)
        self.rope_shown = False
        # its label at the left, where both curves are low: the wavelengths rise to the right and ran
        # under a label at 0.9 ("max_len = 32768" on the orange line)
        self.len_line = pg.InfiniteLine(angle=0, pen=pg.mkPen(GREY, width=1.5), movable=False,
                                        label="max_len", labelOpts={"position": 0.1, "color": "#444444"})
        self.chart.addItem(self.len_line, ignoreBounds=True)

    def _draw_rope(self, r) -> None:
        show = r.rope_after is not None
        if show != self.rope_shown:
            if show:
                self.canvas.addItem(self.rope_chart, row=1, col=0)
            else:
                self.canvas.ci.removeItem(self.rope_chart)
            self.rope_shown = show
        if not show:
            return
        # proportional RoPE's pairs past rope_turning have θ = 0: no point on a log axis, not drawn
        for item, y, colour in ((self.r_before, r.rope_before, GREY),
                                (self.r_after, r.rope_after[:r.rope_turning], PALETTE[2])):
            item.setData(np.arange(len(y)), np.log10(y))
            set_pen(item, self.pen(colour, 2.5 if item is self.r_before else 2.0))
        key = "<span style='color:%1'>■ %2</span>"
        title = (fill(key, GREY, self.tr("RoPE θᵢ before scaling")) + "  "
                 + fill(key, PALETTE[2], self.tr("RoPE θᵢ after scaling")) + "  ("
                 + scaling_words(r.state) + ")")
        set_title(self.rope_chart, title, size=TITLE_SIZE)
        steady_range(self.rope_chart, (0, max(1, len(r.rope_after) - 1)),
                     decades(np.concatenate([np.ravel(r.rope_before), np.ravel(r.rope_after)])))

    def draw(self, r) -> None:
        self.w_curve.setData(r.index, np.log10(r.w))
        set_pen(self.w_curve, self.pen(PALETTE[0]))
        self.l_curve.setData(r.index, np.log10(r.wavelength))
        set_pen(self.l_curve, self.pen(PALETTE[1]))
        self._draw_rope(r)
        self.len_line.setPos(math.log10(r.params.max_len))
        line_label_font(self.len_line)
        text = fill(self.tr("max_len = %1"), str(r.params.max_len))
        if self.len_line.label.format != text:     # each setFormat re-lays out the label (~0.2 ms)
            self.len_line.label.setFormat(text)
        steady_range(self.chart, (0, max(1, len(r.w) - 1)),
                     decades(np.concatenate([r.w, r.wavelength, [r.params.max_len]])))
        self.set_readout(
            self._wavelength_text(r)
            + ("" if r.rope_after is None else self.tr("; ") + fill(self.tr(
                "RoPE: head_dim %1, base %2, %3, %4 pairs, attention factor %5"), str(r.state.head_dim),
                number_text(r.state.base, 6), scaling_words(r.state), str(len(r.rope_after)),
                f"{r.attention_factor:.4g}"))
               + ("" if r.rope_after is None or r.rope_turning == len(r.rope_after) else self.tr("; ") + fill(
                   self.tr("pairs %1 to %2 do not turn (θ = 0)"), str(r.rope_turning), str(len(r.rope_after) - 1))))

    def _wavelength_text(self, r) -> str:
        """How many pairs, their shortest and longest wavelengths, how many outrun max_len (singular at 1)."""
        n, beyond, max_len = len(r.w), r.beyond, str(r.params.max_len)
        pairs = self.tr("1 pair") if n == 1 else fill(self.tr("%1 pairs"), str(n))
        span = fill(self.tr("shortest wavelength %1 positions (pair 0), longest %2 positions (pair %3)"),
                    number_text(r.shortest), number_text(r.longest), str(n - 1))
        longer = (fill(self.tr("1 pair has a wavelength longer than max_len = %1"), max_len) if beyond == 1 else
                  fill(self.tr("%1 pairs have wavelengths longer than max_len = %2"), str(beyond), max_len))
        return self.tr("; ").join((pairs, span, longer))
