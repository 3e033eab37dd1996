"""Axes that keep the pictures of the last few scales they drew.

An axis is redrawn (pyqtgraph's generateDrawSpecs: ~1 ms of Python) whenever its range or levels
change. Controls that flip between a few scales - the Real RoPE view's head, ALiBi's head count, a
slider dragged back and forth over held spans - made the same axes draw the same scales again and
again. An axis given keep_pictures keeps the QPicture of each of its last KEPT scales under
everything the drawing depends on (range, ticks, geometry, the linked view's place, fonts, pens,
style, SI scale), and plays a kept one instead of drawing it anew.
"""

from __future__ import annotations

from collections import OrderedDict

import pyqtgraph as pg
from PySide6.QtWidgets import QApplication

KEPT = 16      # pictures per axis (a few kB each)
_DRAW = getattr(pg.AxisItem.paint, "pyqtgraph_paint", pg.AxisItem.paint)   # pyqtgraph's own,
#                                                                            also on a reload


def _paint(axis, p, opt, widget) -> None:
    """pg.AxisItem.paint for every axis; an axis given keep_pictures plays a kept picture when it
    has drawn this state before. (Installed on the class: swapping one item's Python class breaks
    shiboken's wrapper.)"""
    kept = getattr(axis, "_kept_pictures", None)
    if kept is None or axis.picture is not None:
        _DRAW(axis, p, opt, widget)
        return
    key = picture_key(axis)
    if key in kept:
        kept.move_to_end(key)
        axis.picture = kept[key]                     # pyqtgraph plays it instead of drawing
    _DRAW(axis, p, opt, widget)
    if key not in kept:
        kept[key] = axis.picture
        if len(kept) > KEPT:
            kept.popitem(last=False)


_paint.pyqtgraph_paint = _DRAW
pg.AxisItem.paint = _paint


def keep_pictures(axis: pg.AxisItem) -> None:
    """Let `axis` keep its last KEPT pictures: pyqtgraph's own AxisItem only (a subclass may draw
    what the key does not see, e.g. the token axes' labels)."""
    if type(axis) is pg.AxisItem and getattr(axis, "_kept_pictures", None) is None:
        axis._kept_pictures = OrderedDict()


def picture_key(axis: pg.AxisItem) -> tuple:
    """Everything an axis picture depends on: range, ticks (set, or whole_ticks' span, whole_steps,
    cell_centres), geometry, the linked view's rectangle in the axis's coordinates, fonts, pens and
    style."""
    view = axis.linkedView()
    view_rect = axis.mapRectFromScene(view.sceneBoundingRect()).getRect() if view is not None else None
    style = tuple(sorted((name, value.toString() if hasattr(value, "toString") else repr(value))
                         for name, value in axis.style.items()))
    ticks = None if axis._tickLevels is None else tuple(tuple(level) for level in axis._tickLevels)
    return (tuple(axis.range), ticks, axis.geometry().getRect(), axis.boundingRect().getRect(),
            view_rect, QApplication.font().toString(), style, axis.orientation, axis.logMode,
            axis.scale, axis.autoSIPrefixScale, axis.grid, axis.pen().color().rgba(),
            axis.pen().widthF(), axis.textPen().color().rgba(), repr(axis._tickSpacing),
            axis._tickDensity, getattr(axis, "_whole_ticks", None), getattr(axis, "_whole_steps", False),
            getattr(axis, "_cell_centres", False))
