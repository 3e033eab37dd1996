"""The control panel with a preset chosen: its bold labels fit, and elided boxes say "…" once."""

import pytest


@pytest.mark.parametrize("scale", [1.0, 1.5])
def test_a_presets_bold_labels_keep_the_panel_inside_its_scroll_area(qtbot, settings, scale):
    """The bold "multiply token embedding by √d_model" of a preset made the panel's contents wider
    than the scroll area (no horizontal bar): every box lost its right edge."""
    from tests.conftest import window_in

    with window_in("en", settings) as win:
        win.presenter.set_scale(scale)
        win.dock.show()
        win.choose_preset("llama-3.1-8b")
        win.controller.update(d_model=1024)
        qtbot.wait(20)
        assert win.controls.scale_box.font().bold() and win.controls.d_model.label.font().italic()
        viewport = win.controls_scroll.viewport().width()
        assert win.controls.minimumSizeHint().width() <= viewport
        assert win.controls.width() <= viewport


def test_an_elided_text_that_has_its_own_ellipsis_ends_with_one(qapp):
    from PySide6.QtGui import QFontMetrics

    from explorer.ui.eliding_combo import elided

    metrics = QFontMetrics(qapp.font())
    text = "interleaved: sin, cos, sin, cos … (RoFormer, the seeds)"
    width = metrics.horizontalAdvance("interleaved: sin, cos, sin, cos … (") - 2
    shown = elided(metrics, text, width)
    assert shown == "interleaved: sin, cos, sin, cos …", shown
    assert elided(metrics, "abc", 500) == "abc"
    assert elided(metrics, "a long text without one", metrics.horizontalAdvance("a long te")).endswith("…")
