"""Scatter plots that are cheap to move and to repaint: `Dots` and `move_points`. Draws only."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg


class Dots(pg.ScatterPlotItem):
    """pg.ScatterPlotItem whose bounding rectangle is worked out once per change, not per call.

    Qt asks an item for it several times a repaint (exposure, the cached pixmap, clipping): ~18
    calls a frame in the Learned view at ~70 µs each (data bounds, then the symbol's padding in pixels
    through the device transform). Everything it depends on is dropped by pyqtgraph itself when it
    changes: new data, sizes or a new view transform replace `self.bounds` (the data-bounds cache)
    or call prepareGeometryChange first (move_points does both), so the rectangle is kept while
    `self.bounds` is the same list and no geometry change was announced."""

    _rect_for = None     # the `bounds` list the kept rectangle was worked out with
    _rect = None

    def boundingRect(self):
        if self._rect_for is not None and self._rect_for is self.bounds:
            return self._rect
        rect = super().boundingRect()
        self._rect_for, self._rect = self.bounds, rect
        return rect

    def prepareGeometryChange(self) -> None:
        self._rect_for = None
        super().prepareGeometryChange()


def move_points(dots: pg.ScatterPlotItem, x: np.ndarray, y: np.ndarray, brushes: list | None = None) -> None:
    """Put the scatter's points at (x, y) (n,), coloured by `brushes` (one per point; None: the
    item's own brush, size and symbol).

    When the point count and brushes are those already shown, only the coordinates are written into
    the item's record array (`ScatterPlotItem.data`, read by its paint in pixel mode) and its bounds
    are dropped: setData would rebuild every point's style (~1 ms per 100 points)."""
    data = dots.data
    if len(data) != len(x) or getattr(dots, "_pe_brushes", None) is not brushes:
        if brushes is None:
            dots.setData(x, y)
        else:
            dots.setData(x, y, brush=brushes)
        dots._pe_brushes = brushes
        return
    data["x"], data["y"] = x, y
    dots.prepareGeometryChange()
    dots.informViewBoundsChanged()
    dots.bounds = [None, None]
    dots.invalidate()
    dots.sigPlotChanged.emit(dots)
