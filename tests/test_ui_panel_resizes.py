"""A view computed at its panel's pixels is computed again when the panel gets another size inside a view
of the same size: its titles or notes take their room after the first result (helper's review, stop 53)."""

from __future__ import annotations

from dataclasses import replace

from explorer import catalogue
from explorer.state import State


def drawn_for_panel(window, name: str):
    """(the rows and columns drawn, those the view's panel would get computed now)."""
    c = window.controller
    *_, rows, cols = window.views[name].visible_region()
    fresh = catalogue.VIEWS[name].run(c.params, c.state.views[name], catalogue.zoom_window(
        c.params, c.state.views[name], rows, cols))
    return window.views[name].result, fresh


def test_learned_is_drawn_at_the_pixels_its_panel_has_once_titled(window, qtbot):
    """Its first result was computed before the titles were set (170 rows for a 154 px panel at 1200 x 800)
    and kept until something else refreshed it."""
    window.controller.set_state(replace(State(), view="learned"))

    def settled() -> bool:
        window.controller.wait_idle()
        shown, fresh = drawn_for_panel(window, "learned")
        return shown is not None and shown.shown_sinusoidal.data.shape == fresh.shown_sinusoidal.data.shape

    qtbot.waitUntil(settled, timeout=10_000)
    shown, fresh = drawn_for_panel(window, "learned")
    assert shown.shown_learned.data.shape == fresh.shown_learned.data.shape
    assert shown.shown_sinusoidal.data.shape[0] <= window.views["learned"].visible_region()[4]


def test_a_panel_that_shrinks_inside_its_view_asks_for_a_recompute(window, qtbot):
    view = window.views["heatmap"]
    window.controller.update(max_len=8192)
    window.controller.wait_idle()
    asked = []
    view.resized.connect(lambda: asked.append(view.visible_region()[4:]))
    size = view.size()
    view.readout.setText("a readout long enough to take lines under the plot\n" * 6)   # the panel loses height
    qtbot.waitUntil(lambda: bool(asked), timeout=5_000)
    assert view.size() == size and asked[-1][0] < 800
    qtbot.waitUntil(lambda: window.controller.wait_idle() and drawn_for_panel(window, "heatmap")[0].image.shape
                    == drawn_for_panel(window, "heatmap")[1].image.shape, timeout=5_000)
