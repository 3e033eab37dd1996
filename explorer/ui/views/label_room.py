"""A vertical axis's label ("position p", "slope m_h") keeps clear of its tick labels at every
presentation scale.

pyqtgraph gives the label 0.8 of its text height and draws it 5 px outside the axis
(AxisItem._updateWidth and resizeEvent): the label's last 0.2 x height - 5 px, where its descenders
are, lies over the widest tick label. At 1x that is nothing; in presentation mode it is not: ALiBi's
"slope m_h" touched its "10⁻¹" at 1.5x, and a "p", "q" or "_" reaches further at 2x-3x. Here a
vertical axis with a label is as wide as it takes for the whole label to clear the tick labels by
GAP px. Installed on the class, like kept_axis and tick_room; horizontal axes, unlabelled and
fixed-width ones stay as pyqtgraph makes them.

A vertical label longer than its axis wraps onto a second line (fit_label): in F11 the RoPE
scaling page's plots are ~110 px high and "θᵢ (radians per position, log)" ran past their top. It
never breaks inside a word: a word longer than the axis is drawn smaller instead (in a 1280 x 520
window at 1.5x Learned's "position" had read "posi" over "tion").
"""

from __future__ import annotations

import re

import pyqtgraph as pg
import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextOption

NUDGE = 5      # px pyqtgraph draws a vertical axis's label outside the axis
GAP = 3        # px between the label's descenders and the widest tick label
_UPDATE_WIDTH = getattr(pg.AxisItem._updateWidth, "pyqtgraph_update_width", pg.AxisItem._updateWidth)
_RESIZE = getattr(pg.AxisItem.resizeEvent, "pyqtgraph_resize", pg.AxisItem.resizeEvent)


def label_room(height: float) -> float:
    """The px a vertical axis keeps for a label `height` px high (its rotated width): pyqtgraph's
    0.8 x height, or what clears the tick labels by GAP, whichever is more."""
    return max(0.8 * height, height - NUDGE + GAP)


MIN_LINE = 2   # a vertical label wraps only onto lines this many line heights long (~2 CJK characters)
MIN_SCALE = 0.5  # a label whose longest word is longer than its axis is drawn down to this size, not smaller


def _update_width(axis: pg.AxisItem) -> None:
    if not shiboken6.isValid(axis.label):
        return                  # the window's teardown: pyqtgraph's own width would read a dead label
    if fit_label(axis):         # the label's lines first (a new text, a new length): its width counts them
        _RESIZE(axis)           # and its place on the axis (drawn smaller: _place_scaled)
        _place_scaled(axis)
    _UPDATE_WIDTH(axis)
    if (axis.orientation in ("left", "right") and axis.fixedWidth is None and axis.isVisible()
            and axis.label.isVisible()):
        height = axis.label.boundingRect().height()     # (pyqtgraph counted 0.8 of it, at the label's own size)
        width = axis.maximumWidth() + label_room(height * axis.label.scale()) - 0.8 * height
        axis.setMaximumWidth(width)
        axis.setMinimumWidth(width)


_update_width.pyqtgraph_update_width = _UPDATE_WIDTH
pg.AxisItem._updateWidth = _update_width


def fit_label(axis: pg.AxisItem) -> bool:
    """Wrap a vertical axis's label to the axis's length where it is longer, lines centred, when the
    axis is at least MIN_LINE line heights long or the label has spaces (else it stays on one line: a
    Chinese label would break between any two characters): at word boundaries and a
    formula's own break points only, never inside a word. Where its longest line is still longer than
    the axis, the label is drawn smaller to fit (MIN_SCALE at least); unwrapped and at its own size
    where it fits again. True when its drawn height (its number of lines, its size) changed."""
    label, room = axis.label, axis.size().height()
    if (label is None or not shiboken6.isValid(label) or axis.orientation not in ("left", "right")
            or room <= 0):
        return False            # (the window's teardown resizes axes whose label is already gone)
    key = (room, axis.labelString(), label.font().key())
    if getattr(axis, "_label_fitted", None) == key:      # decided for this length, text and font
        return False
    axis._label_fitted = key
    drawn_height = label.boundingRect().height() * label.scale()
    if label.textWidth() > 0:
        label.setTextWidth(-1)
    one_line = label.boundingRect().height()
    scale = 1.0
    if label.boundingRect().width() > room:
        if room >= MIN_LINE * one_line or " " in axis.labelString():     # (between words: never one letter a line)
            label.setHtml(formula_breaks(axis.labelString()))
            option = label.document().defaultTextOption()
            option.setAlignment(Qt.AlignmentFlag.AlignHCenter)
            option.setWrapMode(QTextOption.WrapMode.WordWrap)      # (a longer word overflows, unbroken)
            label.document().setDefaultTextOption(option)
            label.setTextWidth(room)
        longest = label.boundingRect().width()
        if longest > room:                                          # a word (or the whole label) is longer
            if label.textWidth() > 0:
                label.setTextWidth(longest)
            scale = max(room / longest, MIN_SCALE)
        elif label.textWidth() > 0:
            _balance(label, room)
    label.setScale(scale)
    return abs(label.boundingRect().height() * scale - drawn_height) > 1e-6


def formula_breaks(html: str) -> str:
    """A label's html with a formula's own line breaks: one may come after a "·" between two factors
    (a zero-width space), none inside "p + k" or "m − n" (no-break spaces). Without them "PE(p)·PE(p + k)"
    wrapped as "PE(p)·PE(p +" over "k)", and "q(m)·k(n)" as "q(m)·k" over "(n)"."""
    html = re.sub(r"(?<=\S)·(?=\S)", "·\u200b", html)
    return re.sub(r"(?<=\S) ([+−]) (?=\S)", "\u00a0\\1\u00a0", html)


def _balance(label, room: float) -> None:
    """The narrowest text width that keeps the wrapped label's number of lines: lines of like length
    ("交错式" over "通道", not "交错式通" over "道"), each still no wider than `room`."""
    height = label.boundingRect().height()
    low, high = room / 4, room
    for _ in range(7):
        middle = (low + high) / 2
        label.setTextWidth(middle)
        if label.boundingRect().height() > height or label.boundingRect().width() > room:
            low = middle
        else:
            high = middle
    label.setTextWidth(high)


def _resize_event(axis: pg.AxisItem, ev=None) -> None:
    if not shiboken6.isValid(axis.label):
        return                  # the window's teardown: pyqtgraph's own resize would read a dead label
    if fit_label(axis):         # another number of lines: the axis's width anew
        axis._updateWidth()
    _RESIZE(axis, ev)
    _place_scaled(axis)
    axis.label.update()         # moved by pyqtgraph: its cached pixmap (cache_axes) anew
    on_resized = getattr(axis, "on_resized", None)
    if on_resized is not None:  # a colour bar: as many ticks as its new height has room for
        on_resized()


def _place_scaled(axis: pg.AxisItem) -> None:
    """A label drawn smaller (fit_label) centred on its axis as pyqtgraph centres one at its own size
    (AxisItem.resizeEvent reads the unscaled bounding rect), its edge as far outside the axis."""
    scale = axis.label.scale()
    if scale == 1.0 or axis.orientation not in ("left", "right"):
        return
    rect = axis.label.boundingRect()
    y = int(axis.size().height() / 2 + scale * rect.width() / 2)
    x = -NUDGE if axis.orientation == "left" else int(axis.size().width() - scale * rect.height() + NUDGE)
    axis.label.setPos(x, y)


_resize_event.pyqtgraph_resize = _RESIZE
pg.AxisItem.resizeEvent = _resize_event
