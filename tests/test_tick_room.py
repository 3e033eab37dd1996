"""Vertical axes space their labelled ticks by the label height (explorer.ui.views.tick_room)."""

import pyqtgraph as pg
import pytest
from PySide6.QtGui import QFont

from explorer.ui.views.tick_room import ROOM, label_height, roomy_spacing


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


@pytest.mark.parametrize("point_size, height", [(9.0, 300), (13.5, 65), (27.0, 120), (13.5, 30)])
def test_labelled_ticks_of_a_left_axis_are_a_label_apart(qtbot, point_size, height):
    """The axis as pyqtgraph draws it: the labelled (major) ticks lie ROOM label heights apart,
    or there is at most one of them."""
    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    axis = widget.getPlotItem().getAxis("left")
    font = QFont(widget.font())
    font.setPointSizeF(point_size)
    axis.setStyle(tickFont=font)
    widget.setYRange(-4.2, 4.3, padding=0)
    text = label_height(axis)
    step, _offset = axis.tickSpacing(-4.2, 4.3, height)[0]
    majors = [v for v in axis.tickValues(-4.2, 4.3, height)[0][1] if -4.2 <= v <= 4.3]
    assert len(majors) <= 1 or height * step / 8.5 >= ROOM * text


def test_a_step_set_by_hand_and_a_bottom_axis_are_left_alone(qtbot):
    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    left, bottom = (widget.getPlotItem().getAxis(n) for n in ("left", "bottom"))
    left.setTickSpacing(1, 1)
    assert left.tickSpacing(-4, 4, 30) == [(1, 0), (1, 0)]
    want = pg.AxisItem.tickSpacing.pyqtgraph_spacing(bottom, -4, 4, 30)
    assert bottom.tickSpacing(-4, 4, 30) == want
