"""Vertical axes space their major ticks so that the labels fit at the axis's font size.

pyqtgraph picks the major tick step from the axis length alone (at least 2.25 intervals), so a short
axis at a large font overlapped its own labels: the Learned view's PCA plots in presentation mode at
1280 x 800 drew "4, 2, 0, -2, -4" in 65 px at 20 px a label. Installed on the class, like kept_axis:
an axis whose step was set by hand (setTickSpacing) is left alone, and one with room is unchanged.
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtGui import QFont, QFontMetricsF

ROOM = 1.6          # label heights of axis between two labelled ticks
_SPACING = getattr(pg.AxisItem.tickSpacing, "pyqtgraph_spacing", pg.AxisItem.tickSpacing)


def label_height(axis: pg.AxisItem) -> float:
    """The height of one tick label in the axis's tick font (its own font when none is set)."""
    font = axis.style.get("tickFont")
    return QFontMetricsF(font if isinstance(font, QFont) else axis.font()).height()


def roomy_spacing(levels: list, dif: float, size: float, text: float) -> list:
    """levels (pyqtgraph's [(step, offset), ...], coarsest first) with the major step raised through
    1, 2, 5 x 10^k until its ticks lie ROOM label heights apart on `size` pixels showing `dif`;
    finer levels that are not finer than the new step are dropped."""
    if not levels or not (0 < dif < math.inf and 0 < size < math.inf and 0 < text < math.inf):
        return levels
    step, offset = levels[0]
    if not 0 < step < math.inf or size * step / dif >= ROOM * text:
        return levels
    decade = 10.0 ** math.floor(math.log10(step))
    mantissas = (1.0, 2.0, 5.0, 10.0)
    while size * step / dif < ROOM * text:
        bigger = [m * decade for m in mantissas if m * decade > step * (1 + 1e-9)]
        if bigger:
            step = bigger[0]
        else:
            decade *= 10.0
            step = decade
    return [(step, offset)] + [(s, o) for s, o in levels[1:] if s < step]


def _tick_spacing(axis, minVal, maxVal, size):  # noqa: N803 (pyqtgraph's names)
    levels = _SPACING(axis, minVal, maxVal, size)
    if axis._tickSpacing is not None or axis.orientation not in ("left", "right"):
        return levels
    return roomy_spacing(levels, abs(maxVal - minVal), size, label_height(axis))


_tick_spacing.pyqtgraph_spacing = _SPACING
pg.AxisItem.tickSpacing = _tick_spacing
