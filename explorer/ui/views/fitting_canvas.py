"""A panel canvas that draws its scene scaled down when the panels need more width than it has.

A pyqtgraph layout does not pass its minimum width to the QWidget around it: a canvas narrower than
its panels need (their axes, titles and colour bars at the presentation scale) showed the left part
and cut the rest. In F11 with the control panel shown on a 1280 px screen, six views lost their
right-hand panels (Learned needs ~1,240 px at 1.5x and had ~820). Here the layout gets the width it
needs and the view scales the whole scene to the widget, text included, so every panel shows, a
little smaller. Where the canvas is wide enough (every view at the default scale) nothing changes:
one scene pixel per screen pixel.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt

FIT_SLACK = 1.0      # px the panels may need beyond the canvas before the scene is scaled


def scales_with_canvas(legend: pg.LegendItem) -> None:
    """A legend laid out among the panels shrinks with them: pyqtgraph draws a legend at screen
    size (ItemIgnoresTransformations, for legends floating over a zoomable plot), so in a scaled
    scene it would stay 1.5x and run out of the band the layout gave it."""
    legend.setFlag(legend.GraphicsItemFlag.ItemIgnoresTransformations, False)


class FittingCanvas(pg.GraphicsLayoutWidget):
    """pg.GraphicsLayoutWidget that scales its scene down to fit where its layout needs more width."""

    _shrink = 1.0            # scene pixels per screen pixel (1: not scaled)

    def wanted_shrink(self) -> float:
        """Scene pixels per screen pixel that fit the layout's minimum width into the widget."""
        width = max(1, self.size().width())
        layout = getattr(self, "ci", None)       # None while pyqtgraph's __init__ runs
        need = layout.effectiveSizeHint(Qt.SizeHint.MinimumSize).width() if layout is not None else 0
        return need / width if need > width + FIT_SLACK else 1.0

    def fit(self) -> None:
        """Set the scene range for the wanted shrink (pyqtgraph's own pixel range when it is 1)."""
        if self.closed:
            return
        shrink = self.wanted_shrink()
        self._shrink = shrink
        width, height = self.size().width(), self.size().height()
        if shrink == 1.0:
            self.autoPixelRange = True
            self.range = QRectF(0, 0, width, height)
            pg.GraphicsView.setRange(self, self.range, padding=0, disableAutoPixel=False)
        else:                                  # one scale for x and y: text keeps its shape
            self.aspectLocked = True
            pg.GraphicsView.setRange(self, QRectF(0, 0, width * shrink, height * shrink), padding=0)
        self.updateMatrix()

    def resizeEvent(self, ev) -> None:  # noqa: N802 (Qt name)
        self.fit()

    def paintEvent(self, ev) -> None:  # noqa: N802 (Qt name)
        """Shrink further first when the panels need more room than the scene has (a longer title, a
        larger scale). A repaint never relaxes a shrink, a resize refits exactly: the need can
        depend on the scene's own height (an axis label wraps where its axis is short,
        label_room.fit_label), and at 3x the PCA row and the Layouts canvas flipped between two
        shrinks on every repaint."""
        if not self.closed and self.wanted_shrink() > self._shrink + 1e-3:
            self.fit()
        super().paintEvent(ev)
