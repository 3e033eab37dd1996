"""Plot titles whose text moves with each step (explorer.ui.views.titles.set_title): a new text that needs no
more room is set in place, without re-laying out the canvas; one that needs more room still gets it."""

import pyqtgraph as pg

from explorer.ui.views.titles import set_title


def canvas_with_plots(qtbot):
    """A shown canvas of two plots side by side, its layout settled."""
    canvas = pg.GraphicsLayoutWidget()
    qtbot.addWidget(canvas)
    canvas.resize(900, 400)
    plots = (canvas.addPlot(row=0, col=0), canvas.addPlot(row=0, col=1))
    canvas.show()
    qtbot.waitExposed(canvas)
    return canvas, plots


def settled(canvas, plots, qtbot) -> None:
    """Wait for the canvas's layout and each plot's own (title row, axes, view box)."""
    qtbot.wait(20)
    for layout in (canvas.ci.layout, *(plot.layout for plot in plots)):
        layout.activate()
        assert layout.isActivated()


def test_a_moving_number_is_set_without_a_new_layout(qtbot):
    canvas, (plot, _) = canvas_with_plots(qtbot)
    set_title(plot, "sinusoidal PE, d = 384, base 10000, interleaved")
    settled(canvas, (plot,), qtbot)
    width = plot.titleLabel.minimumWidth()
    set_title(plot, "sinusoidal PE, d = 384, base 9862, interleaved")       # narrower: in place
    assert plot.titleLabel.text == "sinusoidal PE, d = 384, base 9862, interleaved"
    assert "base 9862" in plot.titleLabel.item.toPlainText()
    assert plot.layout.isActivated() and canvas.ci.layout.isActivated()   # nothing asked for a new layout
    assert plot.titleLabel.minimumWidth() == width
    label = plot.titleLabel                                                # still centred over its plot
    centre = label.mapRectToScene(label.itemRect()).center().x()
    assert abs(centre - label.sceneBoundingRect().center().x()) < 1.0


def test_a_title_that_needs_more_room_gets_it(qtbot):
    canvas, (plot, _) = canvas_with_plots(qtbot)
    set_title(plot, "base 9862")
    settled(canvas, (plot,), qtbot)
    width = plot.titleLabel.minimumWidth()
    set_title(plot, "sinusoidal PE, d = 384, base 9862, interleaved")      # wider: the layout is asked
    assert not plot.layout.isActivated()
    assert plot.titleLabel.minimumWidth() > width
    assert plot.titleLabel.minimumWidth() >= plot.titleLabel.itemRect().width()
    settled(canvas, (plot,), qtbot)
    assert plot.titleLabel.geometry().width() >= plot.titleLabel.itemRect().width()


def test_a_new_size_or_style_is_set_in_full(qtbot):
    canvas, (plot, _) = canvas_with_plots(qtbot)
    set_title(plot, "base 10000")
    settled(canvas, (plot,), qtbot)
    set_title(plot, "base 10000", size=14)
    assert "14pt" in plot.titleLabel.item.toHtml() or "font-size:14pt" in plot.titleLabel.item.toHtml()
    set_title(plot, "base 9999", size=14, color="#a33")
    assert plot.titleLabel.opts["color"] == "#a33"
    set_title(plot, "")                                                    # no title: hidden, no band
    assert not plot.titleLabel.isVisible()
