"""PE heatmap: positions (rows) x channels (columns), colour bar, hover readout, cursor row."""

from __future__ import annotations

import math

import pyqtgraph as pg

from explorer.translations import fill, number_text
from explorer.ui.views.base import (CURSOR_PEN, ImagePlot, ZoomableView, cell_under, line_at, per_pixel_hint,
                                    zoom_ranges)
from explorer.ui.views.titles import set_title
from explorer.ui.views.fitting_canvas import FittingCanvas


class HeatmapView(ZoomableView):
    title = "heatmap"

    def __init__(self, parent=None):
        super().__init__(parent)
        self.explain.setText(self.tr(
            "Each row is one position's encoding vector; each column one channel. Left channels "
            "oscillate fast (short wavelength), right channels slowly: a multi-scale ruler."))
        self.canvas = FittingCanvas()
        self.panel = ImagePlot(self.canvas, 0, 0, self.tr("channel (dimension index)"),
                               self.tr("position"))
        self.panel.bar.axis.setLabel(self.tr("PE value"))     # what the colours are
        self.cursor_line = pg.InfiniteLine(angle=0, pen=CURSOR_PEN, movable=False)
        self.cursor_line.hide()
        self.panel.plot.addItem(self.cursor_line, ignoreBounds=True)
        self.box.addWidget(self.canvas, 1)
        self.track_resizes(self.panel.plot.getViewBox())
        self.box.addWidget(self.readout)
        self._extent = None
        self.hovered.connect(self._show_hover)
        self.panel.plot.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self.panel.plot.scene().sigMouseClicked.connect(self._on_mouse_clicked)
        self.panel.plot.getViewBox().sigRangeChangedManually.connect(
            lambda *_: self.window_changed.emit())

    def set_result(self, result) -> None:
        p = result.params
        new_extent = (p.max_len, p.d_model)
        img = result.image
        self.panel.show(img, result.ch0, result.pos0, img.shape[1] * result.ch_step,
                        img.shape[0] * result.pos_step, (-1.0, 1.0))
        set_title(self.panel.plot, per_pixel_hint(result.pos_step, result.ch_step))
        if new_extent != self._extent:
            self._extent = new_extent
            rows, cols = zoom_ranges(self._zoom_shown, p.max_len, p.d_model)   # a scene's zoom, or all
            self.panel.plot.setRange(xRange=cols, yRange=rows, padding=0)
        self.result = result

    def show_state(self, state, params=None) -> None:
        """Show the State's zoom (positions x channels), or the whole table when it has none."""
        if not self.new_zoom(state, params):
            return
        table = (params.max_len, params.d_model) if params is not None else self._table
        if table is not None:
            rows, cols = zoom_ranges(state.zoom, *table)      # two numbers: those positions, every channel
            self.panel.plot.setRange(xRange=cols, yRange=rows, padding=0)
        elif len(state.zoom) == 4:
            self.panel.plot.setRange(xRange=state.zoom[2:4], yRange=state.zoom[0:2], padding=0)

    def zoomable_boxes(self) -> tuple:
        return (self.panel.plot.getViewBox(),)          # its zoom is the State's (ZoomState)

    def visible_region(self) -> tuple[int, int, int, int, int, int]:
        """(pos0, pos1, ch0, ch1, rows_px, cols_px) of what the plot shows now."""
        vb = self.panel.plot.getViewBox()
        (x0, x1), (y0, y1) = vb.viewRange()
        rect = vb.sceneBoundingRect()
        return (math.floor(y0), math.ceil(y1), math.floor(x0), math.ceil(x1),
                max(1, int(rect.height())), max(1, int(rect.width())))

    def set_cursor(self, pos: int | None) -> None:
        line_at(self.cursor_line, pos)

    def set_colormap(self, name: str) -> None:
        self.panel.set_colormap(name)

    def _data_point(self, scene_pos) -> tuple[int, int] | None:
        """(position, channel) under the mouse, or None."""
        if self.result is None:
            return None
        p = self.result.params
        return cell_under(self.panel.plot, scene_pos, p.max_len, p.d_model)

    def _on_mouse_moved(self, scene_pos) -> None:
        hit = self._data_point(scene_pos)
        if hit:
            self.hovered.emit(*hit)

    def _show_hover(self, pos: int, ch: int) -> None:
        """The readout of the cell under the mouse, read from the shown result (no maths here)."""
        r = self.result
        cell = None if self.stale(r) else r.cell(pos, ch)
        if cell is None:   # the picture under the mouse may be one step behind the params
            return
        value, exact = cell
        text = (self.tr("position %1, channel %2: PE = %3   w = %4   wavelength 2π/w = %5 positions")
                if exact else
                self.tr("position %1, channel %2: PE ≈ %3 (mean of the drawn block)   w = %4   "
                        "wavelength 2π/w = %5 positions"))
        self.set_readout(fill(text, pos, ch, f"{value:+.6f}", f"{float(r.channel_w[ch]):.4g}",
                              number_text(r.wavelength[ch])))
        self.cursor_moved.emit(pos)

    def _on_mouse_clicked(self, event) -> None:
        hit = self._data_point(event.scenePos())
        if hit:
            self.cursor_moved.emit(hit[0])
