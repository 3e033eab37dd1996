"""Only the plots whose range is the State's zoom (heatmap, curves, similarity) can be panned or zoomed with the
mouse; every other plot's range is the view's own drawing of its result, which a scene reproduces (the CLI/window
and architecture reviews of stop 53: a wheel zoom on ALiBi's slopes or Distance's chart was kept by the view
alone, so its saved scene opened unzoomed)."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QGraphicsView

from explorer import catalogue
from explorer.ui.views.ranges import fixed_ranges

ZOOMABLE = {"heatmap", "curves", "similarity"}


def boxes(view) -> list:
    return [item for canvas in view.findChildren(QGraphicsView) if canvas.scene() is not None
            for item in canvas.scene().items() if isinstance(item, pg.ViewBox)]


def test_every_view_s_plots_take_no_mouse_zoom_but_the_state_s_zoom(window):
    for name in catalogue.VIEWS:
        window.tabs.setCurrentIndex(list(window.views).index(name))
        window.controller.wait_idle()
        view = window.views[name]
        found = boxes(view)
        assert found, name
        zoomable = [b for b in found if any(b.state["mouseEnabled"])]
        assert zoomable == list(view.zoomable_boxes()), name
        assert len(zoomable) == (1 if name in ZOOMABLE else 0), name
        assert not any(b.menuEnabled() for b in found if b not in zoomable), name


def test_a_wheel_over_the_distance_chart_leaves_its_range(window, qtbot):
    window.tabs.setCurrentIndex(list(window.views).index("distance"))
    window.controller.wait_idle()
    view = window.views["distance"]
    box = next(b for b in boxes(view) if b.addedItems)
    before = box.viewRange()
    canvas = box.scene().views()[0]
    centre = canvas.mapFromScene(box.sceneBoundingRect().center())
    wheel = QWheelEvent(QPointF(centre), QPointF(canvas.mapToGlobal(centre)), QPoint(0, 0), QPoint(0, 240),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    from PySide6.QtWidgets import QApplication

    QApplication.sendEvent(canvas.viewport(), wheel)
    assert box.viewRange() == before


def test_fixed_ranges_leaves_the_zoomable_box_alone():
    class Two(pg.GraphicsLayoutWidget):
        def __init__(self):
            super().__init__()
            self.a, self.b = self.addPlot(), self.addPlot()

        def zoomable_boxes(self):
            return (self.a.getViewBox(),)

    two = Two()
    fixed_ranges(two)
    assert two.a.getViewBox().state["mouseEnabled"] == [True, True]
    assert two.b.getViewBox().state["mouseEnabled"] == [False, False] and not two.b.getViewBox().menuEnabled()


def test_fixed_plots_have_no_auto_range_button(window):
    """pyqtgraph's "A" button, shown on hover, set an auto range the view alone kept (ALiBi head 7: x -21.6 ..
    277.6 through later steps). From the review of stop 53's changes."""
    for name in catalogue.VIEWS:
        window.tabs.setCurrentIndex(list(window.views).index(name))
        window.controller.wait_idle()
        view = window.views[name]
        keep = set(map(id, view.zoomable_boxes()))
        plots = [item for canvas in view.findChildren(QGraphicsView) if canvas.scene() is not None
                 for item in canvas.scene().items() if isinstance(item, pg.PlotItem)]
        for plot in plots:
            if id(plot.getViewBox()) not in keep:
                assert plot.buttonsHidden, name
