"""Axes space their labelled ticks by the label size (explorer.ui.views.tick_room)."""

import math

import pyqtgraph as pg
import pytest
from PySide6.QtGui import QFont

from explorer.ui.views.tick_room import ROOM, label_height, label_width, roomy_spacing


def test_a_short_axis_takes_a_coarser_nice_step():
    # -4 .. 4 on 65 px at 20 px a label: pyqtgraph's step 2 puts labels 16 px apart
    assert roomy_spacing([(2.0, 0.0), (1.0, 0.0)], 8.0, 65.0, 20.0) == [(5.0, 0.0), (1.0, 0.0)]
    assert roomy_spacing([(5.0, 0.0), (1.0, 0.0)], 8.0, 40.0, 20.0) == [(10.0, 0.0), (1.0, 0.0)]
    assert roomy_spacing([(0.05, 0.0)], 0.3, 30.0, 20.0) == [(0.5, 0.0)]     # through a decade


def test_an_axis_with_room_is_unchanged():
    levels = [(100.0, 0.0), (50.0, 0.0), (10.0, 0.0)]
    assert roomy_spacing(levels, 500.0, 400.0, 14.0) == levels
    assert roomy_spacing([], 1.0, 10.0, 14.0) == []
    assert roomy_spacing(levels, 0.0, 400.0, 14.0) == levels
    for odd in (float("inf"), float("nan")):                 # ranges pyqtgraph may pass on
        assert roomy_spacing(levels, odd, 40.0, 14.0) == levels
        assert roomy_spacing([(odd, 0.0)], 8.0, 40.0, 14.0) == [(odd, 0.0)]


def font_axis(qtbot, orientation: str, point_size: float) -> tuple[pg.PlotWidget, pg.AxisItem]:
    """(a plot, its `orientation` axis) with the axis's tick labels at `point_size` points (the
    caller holds the plot: the axis goes with it)."""
    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    axis = widget.getPlotItem().getAxis(orientation)
    font = QFont(widget.font())
    font.setPointSizeF(point_size)
    axis.setStyle(tickFont=font)
    return widget, axis


@pytest.mark.parametrize("point_size, height", [(9.0, 300), (13.5, 65), (27.0, 120), (13.5, 30)])
def test_labelled_ticks_of_a_left_axis_are_a_label_apart(qtbot, point_size, height):
    """The axis as pyqtgraph draws it: the labelled (major) ticks lie ROOM label heights apart,
    or there is at most one of them."""
    widget, axis = font_axis(qtbot, "left", point_size)
    widget.setYRange(-4.2, 4.3, padding=0)
    text = label_height(axis)
    step, _offset = axis.tickSpacing(-4.2, 4.3, height)[0]
    majors = [v for v in axis.tickValues(-4.2, 4.3, height)[0][1] if -4.2 <= v <= 4.3]
    assert len(majors) <= 1 or height * step / 8.5 >= ROOM * text


def test_a_step_set_by_hand_is_left_alone_and_a_bottom_axis_with_room_is_unchanged(qtbot):
    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    left, bottom = (widget.getPlotItem().getAxis(n) for n in ("left", "bottom"))
    left.setTickSpacing(1, 1)
    assert left.tickSpacing(-4, 4, 30) == [(1, 0), (1, 0)]
    want = pg.AxisItem.tickSpacing.pyqtgraph_spacing(bottom, -4, 4, 600)
    assert bottom.tickSpacing(-4, 4, 600) == want


@pytest.mark.parametrize("point_size, width, lo, hi", [(9.0, 300, -4.2, 4.3), (13.5, 170, -0.5, 19.5),
                                                       (13.5, 90, 0, 1000), (27.0, 200, 0, 32768),
                                                       (13.5, 60, -0.003, 0.004)])
def test_labelled_ticks_of_a_bottom_axis_are_a_label_apart(qtbot, point_size, width, lo, hi):
    """A horizontal axis: neighbouring labels (as the axis writes them) do not touch - the Real RoPE
    view's key axis drew "8101214" for 8, 10, 12, 14 in presentation mode at 1280 x 800."""
    from PySide6.QtGui import QFontMetricsF

    _widget, axis = font_axis(qtbot, "bottom", point_size)
    levels = axis.tickValues(lo, hi, width)
    step, values = levels[0]
    majors = [v for v in values if lo <= v <= hi]
    strings = axis.tickStrings(majors, axis.autoSIPrefixScale * axis.scale, step)
    widths = [QFontMetricsF(axis.style["tickFont"]).horizontalAdvance(t) for t in strings]
    gaps = [width * step / (hi - lo) - (a + b) / 2 for a, b in zip(widths, widths[1:])]
    assert len(majors) <= 1 or min(gaps) > 0


@pytest.mark.parametrize("orientation, size, lo, hi", [("bottom", 170, -0.5, 19.5), ("left", 170, -0.5, 19.5),
                                                       ("bottom", 900, -0.5, 4.5), ("left", 40, -0.5, 2.5),
                                                       ("bottom", 1000, -0.5, 1999.5)])
def test_whole_ticks_label_whole_positions_only_as_many_as_fit(qtbot, orientation, size, lo, hi):
    """whole_ticks: positions 0 .. n - 1 drawn as cells from -0.5: whole 1-2-5 steps, no minor
    ticks, none outside the cells, spaced like any other axis of that orientation."""
    from explorer.ui.views.tick_room import whole_ticks

    _widget, axis = font_axis(qtbot, orientation, 13.5)
    whole_ticks(axis)
    levels = axis.tickValues(lo, hi, size)
    assert len(levels) == 1                                                 # no minor level
    step, values = levels[0]
    assert float(step).is_integer() and step / 10 ** math.floor(math.log10(step)) in (1, 2, 5)
    if orientation == "left":
        need = ROOM * label_height(axis)
    else:
        need = label_width(axis, lo, hi, step)
    mantissa = round(step / 10 ** math.floor(math.log10(step)))
    finer = {1: step / 2, 2: step / 2, 5: step * 2 / 5}[mantissa]          # the next finer nice step
    assert size * step / (hi - lo) >= need                                  # the labels fit,
    assert step == 1 or size * finer / (hi - lo) < need                     # at the finest such step
    assert all(float(v).is_integer() and 0 <= v <= hi - 0.5 for v in values) and values[0] == 0
    count = round(hi + 0.5)                  # an aspect-locked plot shows a margin beyond the cells
    whole_ticks(axis, count)
    step, values = axis.tickValues(lo - 3 * step, hi + 3 * step, size * 1.5)[0]
    assert len(values) and all(0 <= v <= count - 1 for v in values) and values[0] == 0


@pytest.mark.parametrize("width, cells", [(295, 12), (240, 12), (400, 24), (180, 16)])
def test_drawn_labels_of_a_finer_level_keep_a_digit_apart(qtbot, width, cells):
    """pyqtgraph labels a finer tick level while its labels fill under 60-80 % of the axis: the Real
    RoPE view's channel axis at head_dim 12 in presentation mode at 1280 x 800 (295 px, 13.5 pt)
    drew 0 .. 11 with "10" touching "11". Every label drawn keeps at least half a digit from the
    next; the finer level keeps its ticks."""
    from PySide6.QtGui import QFontMetricsF, QImage, QPainter

    from explorer.ui.views.tick_room import cell_centres

    widget, axis = font_axis(qtbot, "bottom", 13.5)
    cell_centres(axis, True)
    widget.resize(width + 80, 200)
    widget.setXRange(0, cells, padding=0)
    widget.show()
    qtbot.waitUntil(lambda: abs(axis.width() - width) < 90)
    image = QImage(widget.size(), QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        painter.setFont(axis.style["tickFont"])
        _axis_spec, tick_specs, text_specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    rects = sorted((rect for rect, _flags, _text in text_specs), key=lambda r: r.left())
    digit = QFontMetricsF(axis.style["tickFont"]).horizontalAdvance("0")
    assert len(rects) >= 2
    assert all(b.left() - a.right() >= digit / 2 for a, b in zip(rects, rects[1:]))
    assert len(tick_specs) > len(rects)                 # the unlabelled ticks are still drawn
