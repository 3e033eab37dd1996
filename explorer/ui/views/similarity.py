"""Position similarity: the max_len x max_len matrix and the offset profile f(k) beside it."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg

from explorer.translations import fill
from explorer.ui.views.thick_curve import add_line
from explorer.ui.views.base import (CURSOR_PEN, ImagePlot, ZoomableView, cache_axes, cell_under, line_at,
                                    per_pixel_hint)
from explorer.ui.views.tick_room import whole_steps
from explorer.ui.views.titles import set_title
from explorer.ui.views.ranges import held_span, steady_range, symmetric_levels
from explorer.ui.views.fitting_canvas import FittingCanvas


class SimilarityView(ZoomableView):
    title = "similarity"

    def __init__(self, parent=None):
        super().__init__(parent)
        self.explain.setText(self.tr(
            "S[p, q] = PE(p)·PE(q). Every diagonal is constant: the similarity depends only on the "
            "offset k = q − p, shown on the right as f(k) = Σᵢ cos(k·wᵢ)."))
        self.canvas = FittingCanvas()
        self.panel = ImagePlot(self.canvas, 0, 0, self.tr("position q"), self.tr("position p"))
        # no aspect lock: it widened one axis past the matrix (-50 ... 300), blank bands
        self.profile = self.canvas.addPlot(row=0, col=2)
        cache_axes(self.profile)
        self.profile.setLabel("bottom", self.tr("offset k = q − p"))
        whole_steps(self.profile.getAxis("bottom"))
        self.profile.setLabel("left", "f(k)")
        self.profile.setMenuEnabled(False)
        for name in ("left", "bottom"):     # no "(x0.001)" and 0 .. 800 for a cosine peak of 0.8
            self.profile.getAxis(name).enableAutoSIPrefix(False)
        self.profile_curve = add_line(self.profile, pen=pg.mkPen("#0072B2", width=2))
        self.canvas.ci.layout.setColumnStretchFactor(0, 3)
        self.canvas.ci.layout.setColumnStretchFactor(2, 2)
        self.row_line = pg.InfiniteLine(angle=0, pen=CURSOR_PEN, movable=False)
        self.col_line = pg.InfiniteLine(angle=90, pen=CURSOR_PEN, movable=False)
        for line in (self.row_line, self.col_line):
            line.hide()
            self.panel.plot.addItem(line, ignoreBounds=True)
        self.box.addWidget(self.canvas, 1)
        self.track_resizes(self.panel.plot.getViewBox())
        self.box.addWidget(self.readout)
        self._extent = None
        self._profile_of = None            # (d_model, metric) the profile's y label names
        self.hovered.connect(self._show_hover)
        self._width = 2.0
        self.panel.plot.scene().sigMouseClicked.connect(self._on_clicked)
        self.panel.plot.scene().sigMouseMoved.connect(self._on_moved)
        self.panel.plot.getViewBox().sigRangeChangedManually.connect(
            lambda *_: self.window_changed.emit())

    def set_result(self, result) -> None:
        p = result.params
        img = result.image
        levels = (-1.0, 1.0) if p.metric == "cosine" else symmetric_levels(img)
        side = img.shape[0] * result.pos_step
        self.panel.show(img, result.pos0, result.pos0, side, side, levels)
        self.profile_curve.setData(result.profile_k, result.profile_f)
        if len(result.profile_k):          # nice ends: the axes redraw only when these move
            f = result.profile_f
            steady_range(self.profile, x=(float(result.profile_k[0]), float(result.profile_k[-1])),
                         y=held_span(self.profile, "y", float(np.min(f)), float(np.max(f))))
        hint = per_pixel_hint(result.pos_step)
        set_title(self.panel.plot, (self.tr("cosine similarity") if p.metric == "cosine"
                                    else self.tr("dot product")) + (self.tr(": ") + hint if hint else ""))
        if (p.d_model, p.metric) != self._profile_of:     # the label names d_model's pairs
            self._profile_of = (p.d_model, p.metric)
            h = max(1, p.d_model // 2)
            self.profile.setLabel("left", fill(self.tr("f(k) / %1 (1 at k = 0)"), str(h))
                                  if p.metric == "cosine" else "f(k)")
        if (p.max_len, p.metric) != self._extent:   # ranges only when they change
            self._extent = (p.max_len, p.metric)
            span = tuple(self._zoom_shown[0:2]) or (0, p.max_len)    # a scene's zoom, or all of it
            self.panel.plot.setRange(xRange=span, yRange=span, padding=0)
        self.result = result

    def show_state(self, state, params=None) -> None:
        """Show the State's zoom (the same positions on both axes), or the whole matrix."""
        if not self.new_zoom(state, params):
            return
        zoom = state.zoom
        span = zoom[0:2] if zoom else (0, params.max_len) if params is not None else None
        if span is not None:
            self.panel.plot.setRange(xRange=span, yRange=span, padding=0)

    def zoomable_boxes(self) -> tuple:
        return (self.panel.plot.getViewBox(),)          # its zoom is the State's (ZoomState)

    def visible_region(self) -> tuple[int, int, int, int, int, int]:
        vb = self.panel.plot.getViewBox()
        (x0, x1), (y0, y1) = vb.viewRange()
        rect = vb.sceneBoundingRect()
        lo, hi = math.floor(min(x0, y0)), math.ceil(max(x1, y1))
        return (max(0, lo), hi, 0, 0, max(1, int(rect.height())), max(1, int(rect.width())))

    def set_cursor(self, pos: int | None) -> None:
        for line in (self.row_line, self.col_line):
            line_at(line, pos)

    def set_colormap(self, name: str) -> None:
        self.panel.set_colormap(name)

    def set_line_scale(self, scale: float) -> None:
        self.profile_curve.setPen(pg.mkPen("#0072B2", width=2.0 * scale))
        self.canvas.ci.layout.setVerticalSpacing(16 * scale)

    def _cell(self, scene_pos) -> tuple[int, int] | None:
        """(p, q) under the mouse, or None."""
        if self.result is None:
            return None
        n = self.result.params.max_len
        return cell_under(self.panel.plot, scene_pos, n, n)

    def _show_hover(self, p: int, q: int) -> None:
        """The readout of S[p, q] under the mouse, read from the shown result (no maths here)."""
        r = self.result
        cell = None if self.stale(r) else r.cell(p, q)
        if cell is None:
            return
        value, exact = cell
        text = (self.tr("p = %1, q = %2, offset k = %3: %4 = %5") if exact else
                self.tr("p = %1, q = %2, offset k = %3: %4 ≈ %5 (mean of the drawn block)"))
        self.set_readout(fill(text, p, q, q - p, r.params.metric, f"{value:+.6g}"))
        self.cursor_moved.emit(p)

    def _on_clicked(self, event) -> None:
        cell = self._cell(event.scenePos())
        if cell:
            self.cursor_moved.emit(cell[0])

    def _on_moved(self, scene_pos) -> None:
        cell = self._cell(scene_pos)
        if cell:
            self.hovered.emit(cell[0], cell[1])
