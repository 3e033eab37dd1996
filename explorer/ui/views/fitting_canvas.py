"""A panel canvas that draws its scene scaled down when the panels need more room than it has.

A pyqtgraph layout does not pass its minimum width to the QWidget around it: a canvas narrower than
its panels need (their axes, titles and colour bars at the presentation scale) showed the left part
and cut the rest. In F11 with the control panel shown on a 1280 px screen, six views lost their
right-hand panels (Learned needs ~1,240 px at 1.5x and had ~820); at 3x RoPE's second row of panels
was cut at the bottom. Here the layout gets the size it needs and the view scales the whole scene to
the widget, text included, so every panel shows, a little smaller. Where the canvas is large enough
(every view at the default scale) nothing changes: one scene pixel per screen pixel.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt

FIT_SLACK = 1.0      # px the panels may need beyond the canvas before the scene is scaled
TELL_VIEW = 0.02     # a shrink that changes by more has the view compute its pictures again
MAX_SHRINK = 2.0     # never smaller than half size: at 3x on an 800 px screen RoPE's two rows of
#                      panels would need 5.8x, text below 1x; past this the bottom is cut as before
MIN_DATA_PX = 60     # every plot's data area at least this high (scene px), else the scene is drawn smaller


def scales_with_canvas(legend: pg.LegendItem) -> None:
    """A legend laid out among the panels shrinks with them: pyqtgraph draws a legend at screen
    size (ItemIgnoresTransformations, for legends floating over a zoomable plot), so in a scaled
    scene it would stay 1.5x and run out of the band the layout gave it."""
    legend.setFlag(legend.GraphicsItemFlag.ItemIgnoresTransformations, False)


def screen_px(box: pg.ViewBox) -> tuple[int, int]:
    """(rows, cols): the whole screen pixels a view box covers: its scene size over its canvas's shrink
    (a FittingCanvas draws its scene 1 / shrink size; a 60 px panel in a scene shrunk 2x is 30 px). For a
    compute that must not give a panel more rows than it has pixels (compute.permutation)."""
    rect = box.sceneBoundingRect()
    view = box.getViewWidget()
    shrink = getattr(view, "_shrink", 1.0)
    return max(1, int(rect.height() / shrink)), max(1, int(rect.width() / shrink))


class FittingCanvas(pg.GraphicsLayoutWidget):
    """pg.GraphicsLayoutWidget that scales its scene down to fit where its layout needs more room."""

    _shrink = 1.0            # scene pixels per screen pixel (1: not scaled)
    min_data_px = MIN_DATA_PX   # a view may ask more of its plots (Real RoPE: 90) before adding them

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.addPlot = self._add_plot        # (pyqtgraph's __init__ binds addPlot to its layout's)

    def _add_plot(self, *args, **kwargs) -> pg.PlotItem:
        """The layout's addPlot, the plot's data area kept MIN_DATA_PX high: in a short window (1280 x 520
        at 1.5x) the layout squeezed the data of the Learned, Offset and RoPE panels to 0-10 px under their
        titles and axes; now the scene is drawn smaller instead, as for a narrow one."""
        plot = self.ci.addPlot(*args, **kwargs)
        plot.vb.setMinimumHeight(self.min_data_px)
        return plot

    def wanted_shrink(self) -> float:
        """Scene pixels per screen pixel that fit the layout's minimum size into the widget (at most
        MAX_SHRINK)."""
        layout = getattr(self, "ci", None)       # None while pyqtgraph's __init__ runs
        if layout is None:
            return 1.0
        need = layout.effectiveSizeHint(Qt.SizeHint.MinimumSize)
        ratios = [n / max(1, have) for n, have in ((need.width(), self.size().width()),
                                                   (need.height(), self.size().height()))
                  if n > have + FIT_SLACK]
        return min(max(ratios, default=1.0), MAX_SHRINK)

    def fit(self, tell_view: bool = False) -> None:
        """Set the scene range for the wanted shrink (pyqtgraph's own pixel range when it is 1);
        tell_view: a shrink changed by over TELL_VIEW has the view compute its pictures again (a
        resize of the canvas comes with one of the view, which does that itself)."""
        if self.closed:
            return
        shrink = self.wanted_shrink()
        changed, self._shrink = abs(shrink / self._shrink - 1) > TELL_VIEW, shrink
        width, height = self.size().width(), self.size().height()
        if shrink == 1.0:
            self.autoPixelRange = True
            self.range = QRectF(0, 0, width, height)
            pg.GraphicsView.setRange(self, self.range, padding=0, disableAutoPixel=False)
        else:                                  # one scale for x and y: text keeps its shape
            self.aspectLocked = True
            pg.GraphicsView.setRange(self, QRectF(0, 0, width * shrink, height * shrink), padding=0)
        self.updateMatrix()
        if changed and tell_view:
            self._tell_view()

    def _tell_view(self) -> None:
        """The panels have another size in scene pixels, which the view computes its pictures at
        (visible_region): its `resized`, as a resize of the view itself sends."""
        parent = self.parentWidget()
        while parent is not None and not hasattr(parent, "visible_region"):
            parent = parent.parentWidget()
        if parent is not None:
            parent.resized.emit()

    def resizeEvent(self, ev) -> None:  # noqa: N802 (Qt name)
        self.fit()

    def paintEvent(self, ev) -> None:  # noqa: N802 (Qt name)
        """Shrink further first when the panels need more room than the scene has (a longer title, a
        larger scale). A repaint never relaxes a shrink, a resize refits exactly: the need can
        depend on the scene's own height (an axis label wraps where its axis is short,
        label_room.fit_label), and at 3x the PCA row and the Layouts canvas flipped between two
        shrinks on every repaint."""
        if not self.closed and self.wanted_shrink() > self._shrink + 1e-3:
            self.fit(tell_view=True)
        super().paintEvent(ev)
