"""Curves whose 2-3 px lines are drawn as a few 1 px lines side by side (Qt's fast path).

Qt's raster engine draws a 1 px cosmetic pen with a line rasterizer, but strokes any wider pen into
polygons first: a 1024-point curve at 2 px costs ~2.3 ms against ~0.2 ms at 1 px. The views draw
every curve at >= 2 px (thin lines fade on a projector), so ThickCurve draws a w px line as the same
1 px line offset by whole device pixels: 3 copies at 2 px, 5 at 3 px (a plus sign, corners left
out). The pixels set are the pen's within a pixel (tested against Qt's own wide pen).
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QPaintEngine, QPainter, QPen, QTransform

MAX_PASSES_WIDTH = 3      # wider pens (presentation scale >= 2) are stroked by Qt as before


def offsets(width: int) -> list[tuple[int, int]]:
    """Device-pixel offsets of the 1 px copies that make a `width` px line: a width x width
    square without its corners (for width 2: one corner, so the copies touch but do not widen a
    horizontal line to 3 px)."""
    lo = -((width - 1) // 2)
    square = [(dx, dy) for dy in range(lo, lo + width) for dx in range(lo, lo + width)]
    if width == 2:
        return [o for o in square if o != (lo + 1, lo + 1)]
    hi = lo + width - 1
    return [(dx, dy) for dx, dy in square if not (dx in (lo, hi) and dy in (lo, hi))]


def pass_width(pen: QPen, antialias: bool, device_ratio: float) -> int:
    """The whole number of 1 px copies' width for this pen, or 0 when Qt should stroke it itself
    (thin, dashed, translucent, antialiased or high-DPI: there 1 device px is not 1 logical px)."""
    width = round(pen.widthF())
    if (antialias or device_ratio != 1.0 or not pen.isCosmetic() or not pen.isSolid()
            or pen.style() != Qt.PenStyle.SolidLine or pen.color().alphaF() != 1.0
            or abs(pen.widthF() - width) > 0.25 or not 2 <= width <= MAX_PASSES_WIDTH):
        return 0
    return width


class ThickCurve(pg.PlotCurveItem):
    """pg.PlotCurveItem that paints a plain 2-3 px line as offset 1 px copies (fills, shadows and
    other pens as pyqtgraph does)."""

    def dataBounds(self, ax, frac=1.0, orthoRange=None):  # noqa: N802, N803 (pyqtgraph's names)
        """pyqtgraph's (min, max) of x (ax 0) or y (ax 1), by two reductions: its own general
        version (nanmin / nanmax under a warnings guard) cost ~25 us a call, and every curve's
        bounding rectangle asks for both axes after each setData (~0.5-0.8 ms a frame in the curve
        views). Percentiles, masked ranges, fills, non-cosmetic pens, step mode and data that is
        not all finite go to pyqtgraph."""
        cache = self._boundsCache[ax]
        if cache is not None and cache[0] == (frac, orthoRange):
            return cache[1]
        data = self.xData if ax == 0 else self.yData
        shadow = self.opts["shadowPen"]
        if (frac != 1.0 or orthoRange is not None or data is None or len(data) == 0
                or self.opts["fillLevel"] is not None or self.opts.get("stepMode")
                or not (self.opts["pen"] is None or self.opts["pen"].isCosmetic())
                or (shadow is not None and not shadow.isCosmetic())):
            return super().dataBounds(ax, frac, orthoRange)
        low, high = float(np.fmin.reduce(data)), float(np.fmax.reduce(data))
        if not (math.isfinite(low) and math.isfinite(high)):
            return super().dataBounds(ax, frac, orthoRange)
        self._boundsCache[ax] = [(frac, orthoRange), (low, high)]
        return low, high

    def paint(self, p: QPainter, opt, widget) -> None:
        if self.xData is None or len(self.xData) == 0:
            return
        if len(self.xData) == 1:      # a line through one point draws nothing: max_len 1, one token
            self._paint_dot(p)
            return
        pen = self.opts["pen"]
        plain = (self.opts["fillLevel"] is None and self.opts["shadowPen"] is None
                 and self._exportOpts is False and self.opts["compositionMode"] is None
                 and p.paintEngine().type() == QPaintEngine.Type.Raster)   # not into an SVG
        width = pass_width(pen, bool(self.opts["antialias"]), p.device().devicePixelRatioF()) \
            if plain else 0
        if not width:
            super().paint(p, opt, widget)
            return
        thin = QPen(pen)
        thin.setWidth(0)                      # cosmetic 1 px: the rasterizer's fast path
        p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        p.setPen(thin)
        # the 1 px copies as one path: Qt's cosmetic stroker walks a polyline ~2x faster than the
        # same points as separate segments (each segment's set-up, shared end pixels drawn twice)
        path = self.getPath()
        base = p.worldTransform()
        for dx, dy in offsets(width):
            p.setWorldTransform(base * QTransform.fromTranslate(dx, dy))
            p.drawPath(path)
        p.setWorldTransform(base)


    def _paint_dot(self, p: QPainter) -> None:
        """The one point as a round dot five pen widths across, in the pen's colour."""
        x, y = float(self.xData[0]), float(self.yData[0])
        pen = self.opts["pen"]
        if not (math.isfinite(x) and math.isfinite(y)) or pen is None or pen.style() == Qt.PenStyle.NoPen:
            return
        at = p.worldTransform().map(QPointF(x, y))
        radius = 2.5 * max(2.0, pen.widthF())
        p.save()
        p.resetTransform()
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(pen.color())
        p.drawEllipse(at, radius, radius)
        p.restore()


class Curve(pg.PlotDataItem):
    """pg.PlotDataItem drawn by a ThickCurve; add it with `plot.addItem(Curve(x, y, name=...))`
    (what plot.plot(x, y, ...) does with a PlotDataItem, legend entry included)."""

    def __init__(self, *args, **kwargs):
        super().__init__()
        old = self.curve
        old.sigClicked.disconnect(self.sigClicked)
        old.setParentItem(None)
        self.curve = ThickCurve()
        self.curve.setParentItem(self)
        self.curve.sigClicked.connect(self.sigClicked)
        if args or kwargs:
            self.setData(*args, **kwargs)


def add_curve(plot: pg.PlotItem, *args, **kwargs) -> Curve:
    """plot.plot(*args, **kwargs), drawn by a ThickCurve: for plots with log axes or symbols (a
    PlotDataItem's log, FFT, downsampling and symbol layers); plain lines take add_line."""
    item = Curve(*args, **kwargs)
    plot.addItem(item)
    return item


DEFAULT_PEN = (200, 200, 200)     # a PlotDataItem's, until the view sets its own


def add_line(plot: pg.PlotItem, name: str | None = None, pen=None) -> ThickCurve:
    """A bare ThickCurve in `plot` (a legend entry when named): its setData costs ~25 us, a
    PlotDataItem's ~250 us (each frame sets every curve's data). PlotItem's setLogMode does not
    reach it: on a log axis, give it log10 of the values (ALiBi's slopes)."""
    item = ThickCurve(pen=pg.mkPen(DEFAULT_PEN) if pen is None else pen, name=name)
    plot.addItem(item)
    return item


def list_in_legend(legend, entries) -> None:
    """The legend lists exactly these (curve, name) entries in this order; rebuilt only when they change."""
    if [(sample.item, label.text) for sample, label in legend.items] == list(entries):
        return
    legend.clear()
    for curve, name in entries:
        legend.addItem(curve, name)
