"""Precision: where neighbouring positions stop being distinguishable in float32/float16/bfloat16."""

from __future__ import annotations

import numpy as np

import pyqtgraph as pg

from explorer.compute import precision as data
from explorer.ui.views.dots import Dots, move_points
from explorer.ui.views.thick_curve import add_line
from explorer.ui.views.ranges import held_span, steady_range
from explorer.ui.views.panel_view import GREY, PALETTE, PanelView, set_pen
from explorer.translations import fill

COLOURS = {"float32": PALETTE[0], "float16": PALETTE[1], "bfloat16": PALETTE[2]}
EXACT_MARKS = 33          # exact (float64) as dots float32's line runs through: both seen, and ~33
#                           cached symbols cost far less than a band as wide (a wide pen: +0.4 ms)
EXACT_GREY = "#5f5f5f"       # dark enough to stand out on the grey beyond the training length


class PrecisionView(PanelView):
    title = "precision"

    def __init__(self, parent=None):
        super().__init__(data.PrecisionState(), parent)
        self.explain.setText(self.tr(
            "‖PE(p+1) − PE(p)‖ after building the table in each precision. Where it drops to 0 "
            "two neighbouring positions get the same encoding (bfloat16 from p = 256, float16 "
            "from 2048). Positions beyond the training length are greyed."))
        s = self.state
        self.train_box = self.spin(self.tr("train max_len"), 1, 10_000_000, s.train_max_len,
                                   "train_max_len")
        self.span_box = self.combo(self.tr("positions shown"),
                                   ((self.tr("max_len"), 0), ("4,096", 4096), ("65,536", 65536),
                                    ("1,048,576", 1 << 20)), s.span, "span")
        self.mode_box = self.combo(self.tr("table"),
                                   ((self.tr("computed in the dtype"), "compute"),
                                    (self.tr("float64 table stored in the dtype"), "store")),
                                   s.mode, "mode")
        self.chart = self.plot(0, 0, self.tr("position p"), "‖PE(p+1) − PE(p)‖", whole_x=True)
        self.legend(self.chart)
        self.region = pg.LinearRegionItem(movable=False, brush=pg.mkBrush(160, 160, 160, 90),
                                          pen=pg.mkPen(GREY))
        self.chart.addItem(self.region, ignoreBounds=True)
        self.exact = Dots(symbol="o", size=10, pen=None, brush=EXACT_GREY, name=self.tr("exact (float64)"))
        self.chart.addItem(self.exact)                      # under the curves
        self.items = {dt: add_line(self.chart, name=dt) for dt in COLOURS}

    def draw(self, r) -> None:
        first = next(iter(r.curves.values()))
        n = len(first.positions)
        at = np.unique(np.linspace(0, n - 1, min(n, EXACT_MARKS)).astype(int)) if n else np.zeros(0, int)
        move_points(self.exact, np.asarray(first.positions, float)[at], first.exact_neighbour[at])
        for dt, item in self.items.items():
            c = r.curves[dt]
            item.setData(c.positions, c.neighbour)
            set_pen(item, self.pen(COLOURS[dt], 2.0 if dt != "float32" else 3.0))
        lo = min(r.state.train_max_len, r.span)
        self.region.setRegion((lo, max(lo, r.span)))
        self.region.setVisible(r.state.train_max_len < r.span)
        top = max(float(np.max(first.exact_neighbour)) if len(first.exact_neighbour) else 0.0,
                  *(float(np.max(c.neighbour)) if len(c.neighbour) else 0.0 for c in r.curves.values()))
        steady_range(self.chart, (0, r.span), held_span(self.chart, "y", 0.0, max(top, 1e-9)))
        parts = []
        for dt, c in r.curves.items():
            where = str(c.first_collision) if c.first_collision is not None else \
                fill(self.tr("none shown (from %1)"), f"{c.collision_position:,}")
            parts.append(dt + self.tr(": ") + where)
        drawn = len(first.positions)
        sampled = "" if drawn >= r.span else " " + fill(self.tr(
            "(%1 of %2 positions drawn, each collision point among them)"), f"{drawn:,}", f"{r.span:,}")
        self.set_readout(self.tr("first position whose neighbour rounds to the same encoding: ")
                         + self.tr("; ").join(parts) + sampled)
