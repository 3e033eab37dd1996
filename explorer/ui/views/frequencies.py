"""Frequencies: w_i and the wavelength 2π/w_i of each channel pair on a log axis, live with base."""

from __future__ import annotations

import math

import pyqtgraph as pg

from explorer.ui.views.extra_base import GREY, PALETTE, ExtraView, decade_ticks, line_label_font


class FrequenciesView(ExtraView):
    title = "frequencies"

    def __init__(self, parent=None):
        super().__init__(None, parent)
        self.explain.setText(self.tr(
            "wᵢ = base^(−2i/d) falls geometrically, so on a log axis it is a straight line; its "
            "wavelength 2π/wᵢ runs from 2π to about 2π·base. Pairs above the max_len line never "
            "complete one period inside the table."))
        self.chart = self.plot(0, 0, self.tr("frequency pair i"), self.tr("value (log scale)"))
        self.chart.setLogMode(y=True)
        decade_ticks(self.chart.getAxis("left"))
        self.legend(self.chart, (10, 10))
        self.w_curve = self.chart.plot([], [], pen=self.pen(PALETTE[0]), name=self.tr("wᵢ (radians per position)"))
        self.l_curve = self.chart.plot([], [], pen=self.pen(PALETTE[1]), name=self.tr("wavelength 2π/wᵢ (positions)"))
        self.len_line = pg.InfiniteLine(angle=0, pen=pg.mkPen(GREY, width=1.5), movable=False,
                                        label="max_len", labelOpts={"position": 0.9, "color": "#444444"})
        self.chart.addItem(self.len_line, ignoreBounds=True)

    def draw(self, r) -> None:
        self.w_curve.setData(r.index, r.w)
        self.w_curve.setPen(self.pen(PALETTE[0]))
        self.l_curve.setData(r.index, r.wavelength)
        self.l_curve.setPen(self.pen(PALETTE[1]))
        self.len_line.setPos(math.log10(r.params.max_len))
        line_label_font(self.len_line)
        self.len_line.label.setFormat(self.tr("max_len = %1").replace("%1", str(r.params.max_len)))
        self.chart.enableAutoRange()
        self.set_readout(
            self.tr("%1 pairs; shortest wavelength %2 positions (pair 0), longest %3 positions "
                    "(pair %4); %5 pairs have wavelengths longer than max_len = %6")
            .replace("%1", str(len(r.w))).replace("%2", f"{r.shortest:.4g}")
            .replace("%3", f"{r.longest:.4g}").replace("%4", str(len(r.w) - 1))
            .replace("%5", str(r.beyond)).replace("%6", str(r.params.max_len)))
