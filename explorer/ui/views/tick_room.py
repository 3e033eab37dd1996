"""Axes space their major ticks so that the labels fit at the axis's font size.

pyqtgraph picks the major tick step from the axis length alone (at least 2.25 intervals), so a short
axis at a large font overlapped its own labels: the Learned view's PCA plots in presentation mode at
1280 x 800 drew "4, 2, 0, -2, -4" in 65 px at 20 px a label. A vertical axis keeps ROOM label
heights between labelled ticks, a horizontal one the widest label's width and one digit's.
`whole_ticks(axis)` labels an axis of whole positions (token rows) at the finest whole 1, 2, 5 x
10^k step that fits, no minor ticks; `whole_steps(axis)` only drops the fractional steps of an axis of
whole values (positions, channels, offsets: no "position 0.5" at max_len 2); `cell_centres(axis)`
puts tick i on an image cell's centre, i + 1/2. Installed on the class, like kept_axis: an axis whose
step was set by hand (setTickSpacing) is left alone, and one with room is unchanged.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QFont, QFontMetricsF

ROOM = 1.6          # label heights of axis between two labelled ticks
_SPACING = getattr(pg.AxisItem.tickSpacing, "pyqtgraph_spacing", pg.AxisItem.tickSpacing)
_VALUES = getattr(pg.AxisItem.tickValues, "pyqtgraph_values", pg.AxisItem.tickValues)
_STRINGS = getattr(pg.AxisItem.tickStrings, "pyqtgraph_strings", pg.AxisItem.tickStrings)


def tick_metrics(axis: pg.AxisItem) -> QFontMetricsF:
    """The metrics of the axis's tick font (its own font when none is set)."""
    font = axis.style.get("tickFont")
    return QFontMetricsF(font if isinstance(font, QFont) else axis.font())


def label_height(axis: pg.AxisItem) -> float:
    """The height of one tick label in the axis's tick font."""
    return tick_metrics(axis).height()


def label_width(axis: pg.AxisItem, lo: float, hi: float, step: float) -> float:
    """The wider of the labels at the two ends of lo .. hi (the axis's scaled values) at this step,
    as the axis writes them, plus one digit: the room a horizontal axis keeps per labelled tick."""
    metrics = tick_metrics(axis)
    scale = axis.scale or 1.0
    ends = [math.ceil(lo / step) * step / scale, math.floor(hi / step) * step / scale]
    if getattr(axis, "_cell_centres", False):       # tickStrings reads a cell's centre, i + 1/2
        ends = [e + 0.5 for e in ends]
    axis._measuring = True                          # every label, crowded or not (crowded_level)
    try:
        strings = axis.tickStrings(ends, axis.autoSIPrefixScale * axis.scale, step / scale)
    finally:
        axis._measuring = False
    return max(metrics.horizontalAdvance(str(t)) for t in strings) + metrics.horizontalAdvance("0")


def roomy_spacing(levels: list, dif: float, size: float, text: float, room: float = ROOM) -> list:
    """levels (pyqtgraph's [(step, offset), ...], coarsest first) with the major step raised through
    1, 2, 5 x 10^k until its ticks lie `room` x `text` pixels apart on `size` pixels showing `dif`;
    finer levels that are not finer than the new step are dropped."""
    if not levels or not (0 < dif < math.inf and 0 < size < math.inf and 0 < text < math.inf):
        return levels
    step, offset = levels[0]
    if not 0 < step < math.inf or size * step / dif >= room * text:
        return levels
    decade = 10.0 ** math.floor(math.log10(step))
    mantissas = (1.0, 2.0, 5.0, 10.0)
    while size * step / dif < room * text:
        bigger = [m * decade for m in mantissas if m * decade > step * (1 + 1e-9)]
        if bigger:
            step = bigger[0]
        else:
            decade *= 10.0
            step = decade
    return [(step, offset)] + [(s, o) for s, o in levels[1:] if s < step]


def whole_spacing(levels: list) -> list:
    """One level: the finest step of levels raised to a whole 1, 2, 5 x 10^k (at least 1)."""
    steps = [step for step, _ in levels if 0 < step < math.inf]
    if not steps:
        return levels
    finest = max(min(steps), 1.0)
    decade = 10.0 ** math.floor(math.log10(finest))
    whole = next(m * decade for m in (1, 2, 5, 10) if m * decade >= finest * (1 - 1e-9))
    return [(whole, levels[0][1])]


def _retick(axis: pg.AxisItem, flag: str, value, unset) -> bool:
    """Set one of this module's tick flags on `axis` (`unset`: its value when never set); where it
    changes, the axis draws its ticks anew. True when it changed."""
    if getattr(axis, flag, unset) == value:
        return False
    setattr(axis, flag, value)
    axis.picture = None
    axis.update()
    return True


def whole_ticks(axis: pg.AxisItem, count: int | None = None) -> None:
    """Label `axis` at whole values only, as many as fit; with `count`, at 0 .. count - 1 only (the
    cells of an image drawn from -0.5: an aspect-locked plot's margins hold no position)."""
    _retick(axis, "_whole_ticks", (count,), None)


def whole_steps(axis: pg.AxisItem) -> None:
    """Tick `axis` at whole steps only (1, 2, 5 x 10^k; step 1 where pyqtgraph's were all finer):
    where its steps are whole already, as before. No SI prefix: pyqtgraph scales a unitless axis
    whose values stay under 1 ("channel (x0.001)" at d_model 1) or reach 1e9 (no count here does)."""
    if _retick(axis, "_whole_steps", True, False):
        axis.enableAutoSIPrefix(False)


def cell_centres(axis: pg.AxisItem, centred: bool) -> None:
    """centred: the axis runs along an image whose cell i spans [i, i + 1) (drawn from a whole
    coordinate): tick i sits on the cell's centre, i + 1/2, so no tick labels a cell edge and none
    names the position one past the last (at max_len 5 the heatmap read "5" on its bottom edge)."""
    _retick(axis, "_cell_centres", centred, False)


def _tick_values(axis, minVal, maxVal, size):  # noqa: N803 (pyqtgraph's names)
    shift = 0.5 if getattr(axis, "_cell_centres", False) else 0.0
    levels = _VALUES(axis, minVal - shift, maxVal - shift, size)
    whole = getattr(axis, "_whole_ticks", None)
    if whole is not None and whole[0] is not None:
        count = whole[0]
        levels = [(step, v[(v >= 0) & (v <= count - 1)]) for step, v in
                  ((step, np.asarray(values)) for step, values in levels)]
    if shift:
        levels = [(step, [v + shift for v in values]) for step, values in levels]
    return levels


def crowded_level(axis: pg.AxisItem, strings: list, spacing: float) -> bool:
    """A finer level of a horizontal axis whose labels lie closer than the widest of them plus one
    digit: pyqtgraph labels it while the labels fill under 60-80 % of the axis, so at head_dim 12 in
    presentation mode "10" and "11" touched ("1011"). Its ticks stay, unlabelled."""
    major, px_per_value = getattr(axis, "_tick_px", (None, None))
    if (axis.orientation not in ("top", "bottom") or major is None or not strings
            or spacing >= major * (1 - 1e-9) or getattr(axis, "_measuring", False)):
        return False
    metrics = tick_metrics(axis)
    room = max(metrics.horizontalAdvance(str(t)) for t in strings) + metrics.horizontalAdvance("0")
    return spacing * px_per_value < room


def _tick_strings(axis, values, scale, spacing):
    if getattr(axis, "_cell_centres", False):      # the cell's own number, not its centre's
        values = [v - 0.5 for v in values]
    strings = _STRINGS(axis, values, scale, spacing)
    return [] if crowded_level(axis, strings, spacing) else strings


def _tick_spacing(axis, minVal, maxVal, size):  # noqa: N803 (pyqtgraph's names)
    levels = _SPACING(axis, minVal, maxVal, size)
    if axis._tickSpacing is not None or not levels or not 0 < levels[0][0] < math.inf:
        return levels
    if getattr(axis, "_whole_ticks", None) is not None:     # from the finest whole step that fits
        levels = whole_spacing(levels)
    elif getattr(axis, "_whole_steps", False):
        levels = [(step, offset) for step, offset in levels if step >= 1 - 1e-9] or [(1.0, 0.0)]
    dif = abs(maxVal - minVal)
    if axis.orientation in ("left", "right"):
        return roomy_spacing(levels, dif, size, label_height(axis))
    if math.isfinite(minVal) and math.isfinite(maxVal):
        levels = roomy_spacing(levels, dif, size, label_width(axis, minVal, maxVal, levels[0][0]), 1.0)
        if 0 < dif < math.inf:                   # what crowded_level reads
            axis._tick_px = (levels[0][0], size / dif)
    return levels


_tick_spacing.pyqtgraph_spacing = _SPACING
pg.AxisItem.tickSpacing = _tick_spacing
_tick_values.pyqtgraph_values = _VALUES
pg.AxisItem.tickValues = _tick_values
_tick_strings.pyqtgraph_strings = _STRINGS
pg.AxisItem.tickStrings = _tick_strings
