"""Colour bars as tall as their images' view boxes, not as the layout cell they share with the plots.

A ColorBarItem beside a PlotItem in one layout row takes the row's whole height: it reached up
beside the plot's title and down beside its x-axis labels, so its ends (the scale's limits) stood
level with no pixel of the picture. `span_bar(bar, plot)` keeps the bar's top and bottom margins equal
to the plot's title and bottom-axis heights: the bar's coloured part starts and ends where the
plot's view box does. It follows every resize of either (F11, a font scale, a new title), once the
layout pass that resized them has ended (a zero timer: within a pass, one view box may have its new
size and the other still its old); a margin is set only when it moves by a pixel or more, and the
bar's own layout is applied at once (a grab right after the timer, as an export or a screenshot
makes, showed the new margins with the old geometry). `settle()` runs every pending follow now,
after Qt's pending layout requests: for pictures made without an event loop turning.
"""

from __future__ import annotations

import weakref

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QEvent, QTimer
from shiboken6 import isValid

_PENDING: "weakref.WeakSet[BarSpan]" = weakref.WeakSet()    # spans whose follow() is still queued


class BarSpan:
    """Keeps `bar`'s view box level with `plot`'s view box, top and bottom."""

    def __init__(self, bar: pg.ColorBarItem, plot: pg.PlotItem):
        self.bar, self.plot = bar, plot
        for item in (plot, bar):
            item.getViewBox().sigResized.connect(self.later)
        plot.getViewBox().sigRangeChanged.connect(self._range_changed)     # (an aspect-locked picture's height)

    def _range_changed(self, *_) -> None:
        if self.plot.getViewBox().state["aspectLocked"]:
            self.later()

    def later(self, *_) -> None:
        """follow() after the current layout pass (once, however many view boxes were resized)."""
        if self not in _PENDING:
            _PENDING.add(self)
            QTimer.singleShot(0, self.bar, self.follow)      # dropped if the bar is deleted first

    def follow(self) -> None:
        """Move the bar's margins by the offsets between its view box and the plot's (scene px)."""
        _PENDING.discard(self)
        if not (isValid(self.bar) and isValid(self.plot)):
            return                                     # the window is being deleted
        bar_vb, plot_vb = self.bar.getViewBox(), self.plot.getViewBox()
        if not (isValid(bar_vb) and isValid(plot_vb)):
            return
        have, want = bar_vb.sceneBoundingRect(), _picture_rect(plot_vb)
        if have.height() <= 0 or want.height() <= 0:
            return                                     # not laid out yet
        left, top, right, bottom = self.bar.layout.getContentsMargins()
        new_top = max(0.0, top + want.top() - have.top())
        new_bottom = max(0.0, bottom + have.bottom() - want.bottom())
        if abs(new_top - top) >= 1.0 or abs(new_bottom - bottom) >= 1.0:
            self.bar.layout.setContentsMargins(left, round(new_top), right, round(new_bottom))
            self.bar.layout.activate()                 # the bar's view box moves now, not next pass


def _picture_rect(vb: pg.ViewBox):
    """The scene rect the bar spans: the view box's, or where its aspect is locked (Real RoPE's square logits at
    1280 px: the bar ran 15-18 px past the picture, top and bottom) the part its image fills."""
    rect = vb.sceneBoundingRect()
    if not vb.state["aspectLocked"]:
        return rect
    images = [item for item in vb.addedItems if isinstance(item, pg.ImageItem) and item.image is not None]
    if not images:                                   # (the PCA row's scatters: the bar spans the view box)
        return rect
    drawn = images[0].mapRectToScene(images[0].boundingRect())
    return drawn.intersected(rect) if drawn.intersects(rect) else rect


def settle() -> None:
    """Apply Qt's pending layout requests, then every bar's queued follow(), now."""
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    for span in list(_PENDING):
        span.follow()


def span_bar(bar: pg.ColorBarItem, plot: pg.PlotItem) -> None:
    """Make `bar` span `plot`'s view box from top to bottom, for as long as the bar lives."""
    bar.span = BarSpan(bar, plot)
