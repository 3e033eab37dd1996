"""A filled band between two curves over the same x: how the curves view draws a dense curve's
per-pixel min/max envelope.

The envelope was one vertical bar per pixel column (a 1 px line from min to max): Qt draws each
line pixel by pixel, ~1 ms for 1024 full-height bars, eight of them a frame. The same pixels as one
polygon (up along the maxima, back along the minima) are filled by Qt's scanline filler in ~0.06 ms.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtGui import QBrush, QColor, QPainter


class Band(pg.GraphicsObject):
    """The region lo(x) <= y <= hi(x), filled with one colour, no outline."""

    def __init__(self):
        super().__init__()
        self._path = None
        self._rect = QRectF()
        self._brush = QBrush(QColor("black"))
        self.x = self.lo = self.hi = np.zeros(0)

    def setData(self, x: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> None:  # noqa: N802 (Qt style)
        """x ascending (m,), the band's lower and upper edges lo, hi (m,)."""
        self.prepareGeometryChange()
        self.x, self.lo, self.hi = (np.asarray(a, dtype=np.float64) for a in (x, lo, hi))
        if len(self.x):
            outline_x = np.concatenate([self.x, self.x[::-1]])                 # (2m,)
            outline_y = np.concatenate([self.hi, self.lo[::-1]])
            self._path = pg.arrayToQPath(outline_x, outline_y, connect="all")
            self._path.closeSubpath()
            self._rect = QRectF(float(self.x[0]), float(self.lo.min()),
                                float(self.x[-1] - self.x[0]), float(self.hi.max() - self.lo.min()))
        else:
            self._path, self._rect = None, QRectF()
        self.update()

    def setColour(self, colour) -> None:  # noqa: N802
        colour = pg.mkColor(colour)
        if self._brush.color() != colour:
            self._brush = QBrush(colour)
            self.update()

    def brush(self) -> QBrush:
        return self._brush

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def paint(self, p: QPainter, *args) -> None:
        if self._path is not None:
            p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            p.fillPath(self._path, self._brush)
