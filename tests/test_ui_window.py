"""The window both ways: widgets -> Params -> pictures, and Params -> widgets without loops."""

import numpy as np
import pytest
from PySide6.QtCore import Qt

from tests import compute_ns as compute
from explorer.params import Params
from explorer.ui.main_window import MainWindow


def settle(window):
    window.controller.wait_idle()


def test_first_frame_shows_the_default_heatmap(window):
    view = window.views["heatmap"]
    assert view.result is not None
    want = compute.heatmap(window.controller.params, compute.Window.full(window.controller.params))
    assert view.result.image.shape[1] == window.controller.params.d_model
    np.testing.assert_allclose(view.result.image[:5], want.image[:5], atol=1e-6)
    assert view.panel.image.image is not None


def test_d_model_slider_changes_params_and_picture(window, qtbot):
    row = window.controls.d_model
    row.slider.setValue(row.slider.value() - 100)
    settle(window)
    d = window.controller.params.d_model
    assert d == int(row.value()) and d != 128
    assert window.views["heatmap"].result.params.d_model == d
    assert window.views["heatmap"].panel.image.image.shape == window.views["heatmap"].result.image.shape


def test_typed_value_refused_with_message_not_clamped(window, qtbot):
    row = window.controls.d_model
    before = window.controller.params.d_model
    row.entry.setText("9000")
    row.entry.editingFinished.emit()
    assert window.controller.params.d_model == before
    assert row.message.isVisibleTo(window) and "9000" in row.message.text()
    row.entry.setText("abc")
    row.entry.editingFinished.emit()
    assert "abc" in row.message.text()
    row.entry.setText("7")
    row.entry.editingFinished.emit()
    settle(window)
    assert window.controller.params.d_model == 7 and not row.message.isVisibleTo(window)


def test_typed_max_len_beyond_slider_is_accepted(window):
    row = window.controls.max_len
    row.entry.setText("100000")
    row.entry.editingFinished.emit()
    settle(window)
    assert window.controller.params.max_len == 100000
    res = window.views["heatmap"].result
    assert res.pos_step > 1 and res.image.shape[0] <= 2000


def test_set_params_updates_widgets_without_loop(window, qtbot):
    emitted = []
    window.controls.changed.connect(emitted.append)
    window.controller.set_params(Params(d_model=33, max_len=77, base=500.0, layout="t2t"))
    settle(window)
    assert window.controls.d_model.entry.text() == "33"
    assert window.controls.max_len.entry.text() == "77"
    assert window.controls.base.entry.text() == "500"
    assert window.controls.layout_box.currentData() == "t2t"
    assert emitted == []


def test_base_below_range_refused(window):
    row = window.controls.base
    row.entry.setText("1")
    row.entry.editingFinished.emit()
    assert window.controller.params.base == 10000.0 and row.message.text()


def test_hover_readout_names_value_frequency_wavelength(window):
    view = window.views["heatmap"]
    view.hovered.emit(10, 3)
    value, w, lam = compute.pe_value(window.controller.params, 10, 3)
    text = view.readout.text()
    assert f"{value:+.6f}" in text and f"{lam:.4g}" in text and "channel 3" in text


def test_linked_cursor_marks_every_view(window):
    window.views["curves"].cursor_moved.emit(12)
    assert window.views["heatmap"].cursor_line.value() == pytest.approx(12.5)
    assert window.views["curves"].cursor_line.value() == pytest.approx(12)
    assert window.views["similarity"].row_line.value() == pytest.approx(12.5)
    assert window.views["similarity"].col_line.value() == pytest.approx(12.5)


def test_curve_pair_picker(window):
    window.tabs.setCurrentIndex(1)
    settle(window)
    view = window.views["curves"]
    view.mode.setCurrentIndex(view.mode.findData("fastest"))
    settle(window)
    assert window.controller.params.curve_pairs == (0, 1, 2, 3)
    assert [line.pair for line in view.result.lines][::2] == [0, 1, 2, 3]
    view.entry.setText("2, 9999")
    view.entry.editingFinished.emit()
    assert "9999" in view.readout.text() and window.controller.params.curve_pairs == (0, 1, 2, 3)


def test_curve_pairs_follow_a_new_d_model_and_the_box_names_how_they_were_picked(window, qtbot):
    """Evenly spread pairs picked at d 128 are picked anew at d 16 (filtered to those below 8, only
    pair 0 was left); the box names how the pairs were picked: typed ones are "manual"."""
    window.tabs.setCurrentIndex(1)
    settle(window)
    view = window.views["curves"]
    assert view.mode.currentData() == "manual"                  # the default 0, 4, 16, 32
    view.mode.setCurrentIndex(view.mode.findData("spread"))
    settle(window)
    assert window.controller.params.curve_pairs == (0, 21, 42, 63)
    entry = window.controls.d_model.entry                       # the shared d_model box, typed in
    entry.clear()
    qtbot.keyClicks(entry, "16")
    entry.editingFinished.emit()
    settle(window)
    assert window.controller.params.d_model == 16
    assert window.controller.params.curve_pairs == (0, 2, 5, 7)
    assert [line.pair for line in view.result.lines][::2] == [0, 2, 5, 7]
    assert view.mode.currentData() == "spread" and view.entry.text() == "0, 2, 5, 7"
    view.entry.setText("1, 6")
    view.entry.editingFinished.emit()
    settle(window)
    assert window.controller.params.curve_pairs == (1, 6) and view.mode.currentData() == "manual"
    # at d 8 every mode gives pairs 0 ... 3: the box keeps the one picked, and so does the State
    entry.clear()
    qtbot.keyClicks(entry, "8")
    entry.editingFinished.emit()
    view.mode.setCurrentIndex(view.mode.findData("slowest"))
    settle(window)
    view.mode.setCurrentIndex(view.mode.findData("fastest"))
    settle(window)
    assert view.mode.currentData() == "fastest" and window.controller.params.curve_mode == "fastest"
    assert window.controller.params.curve_pairs == (0, 1, 2, 3)


def test_similarity_metric_toggle(window):
    window.tabs.setCurrentIndex(2)
    settle(window)
    view = window.views["similarity"]
    assert view.result.params.metric == "cosine"
    assert float(view.result.image.max()) == pytest.approx(1.0, abs=1e-6)
    box = window.controls.metric_box
    box.setCurrentIndex(box.findData("dot"))
    settle(window)
    assert view.result.params.metric == "dot"
    assert float(view.result.image.max()) == pytest.approx(64.0, rel=1e-6)   # d/2 on the diagonal


def test_zoom_recomputes_visible_region_in_detail(window):
    window.controller.update(max_len=20000)
    settle(window)
    view = window.views["heatmap"]
    assert view.result.pos_step > 1
    view.panel.plot.setRange(yRange=(1000, 1100), xRange=(0, 128), padding=0)
    view.window_changed.emit()
    window._window_timer.timeout.emit()
    settle(window)
    assert view.result.pos_step == 1 and 990 <= view.result.pos0 <= 1001


def test_settings_remembered_and_reset(qtbot, settings):
    first = MainWindow(settings=settings)
    qtbot.addWidget(first)
    first.controller.update(d_model=48, base=777.0)
    first.close()
    second = MainWindow(settings=settings)
    qtbot.addWidget(second)
    assert second.controller.params.d_model == 48 and second.controller.params.base == 777.0
    second.reset()
    assert second.controller.params == Params()
    second.controller.wait_idle()


def test_corrupt_saved_settings_fall_back_to_defaults(qtbot, settings):
    settings.setValue("params", "{not json")
    win = MainWindow(settings=settings)
    qtbot.addWidget(win)
    assert win.controller.params == Params()
    win.controller.wait_idle()


@pytest.mark.parametrize("platform_keys", ["this platform's", "none (Windows)"])
def test_ctrl_q_quits_where_the_platform_has_no_quit_keys(qtbot, settings, monkeypatch, platform_keys):
    """QKeySequence.Quit is Ctrl+Q on Linux, Cmd+Q on macOS and nothing on Windows, where the
    README's Ctrl+Q did nothing."""
    from PySide6.QtGui import QKeySequence

    if platform_keys.startswith("none"):
        monkeypatch.setattr(QKeySequence, "keyBindings", staticmethod(lambda key: []))
    win = MainWindow(settings=settings)
    qtbot.addWidget(win)
    quit_action = next(a for a in win.findChildren(type(win.menuBar().actions()[0]))
                       if a.text().replace("&", "") == "Quit")
    assert QKeySequence("Ctrl+Q") in quit_action.shortcuts()
    win.controller.wait_idle()


def test_keyboard_shortcut_switches_tab(window, qtbot):
    qtbot.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentIndex() == 2


def test_presentation_mode_and_scale(window, qtbot):
    p = window.presenter
    size = window.views["heatmap"].readout.font().pointSizeF()
    qtbot.keyClick(window, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert p.scale == 1.25 and window.views["heatmap"].readout.font().pointSizeF() > size
    p.toggle_presentation()
    assert window.isFullScreen() and not window.dock.isVisible() and p.scale >= 1.5
    p.toggle_presentation()
    assert not window.isFullScreen() and window.dock.isVisible()
    for _ in range(10):
        p.step_scale(+1)
    assert p.scale == 3.0
    # the dock title follows the scale (Qt would paint it in the theme's small title font)
    from PySide6.QtWidgets import QApplication
    # ... and so do the lesson caption's and the formula dock's (the caption's read "Lesson" at 1x)
    for dock in (window.dock, window.lecture.caption_dock, window.lecture.formula_dock):
        assert dock.font().pointSizeF() == window.font().pointSizeF() > size * 2
        assert dock.font() != QApplication.font("QDockWidget")
    p.toggle_contrast()
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QLabel

    label = window.controls.findChild(QLabel)
    assert label.palette().color(QPalette.ColorRole.WindowText).name() == "#000000"
    assert label.palette().color(QPalette.ColorRole.Window).name() == "#ffffff"
    assert label.font().bold() and label.font().pointSizeF() == window.font().pointSizeF()
    p.set_scale(1.0)
    assert label.font().pointSizeF() == p.base_point_size and label.font().bold()
    p.toggle_contrast()
    assert not label.font().bold()


def test_device_label_says_what_is_in_use(window, qtbot):
    from explorer.backend.device import choose_device

    window.device_probe.probe("cpu")
    want = choose_device("cpu")
    # the window's own first probe ("auto") may have answered already: its "In use: CPU. No CUDA or
    # Apple GPU was found." is not this probe's answer (a full run once read it and failed)
    qtbot.waitUntil(lambda: "Chosen in the Device box" in window.controls.device_label.text(), timeout=10000)
    text = window.controls.device_label.text()
    assert want.name == "cpu" and text.startswith("In use: CPU.")


def test_hover_on_a_stale_picture_is_ignored(window):
    window.controller.update(max_len=50, d_model=8)
    window.views["heatmap"].hovered.emit(200, 30)       # outside the new table: no readout, no error
    window.views["similarity"].hovered.emit(200, 3)
    assert "position 200" not in window.views["heatmap"].readout.text()


def test_a_view_that_cannot_be_built_says_so_in_its_tab_and_the_others_go_on(qtbot, settings, monkeypatch):
    """Views are made on their tab's first showing. One whose constructor raised (a bug of ours)
    left its tab blank, with the error on stderr only; now the tab says why in one line, nothing
    is computed for it, and the other tabs and the sliders go on working."""
    from explorer.ui.views import registry

    class Broken:
        def __init__(self, *args, **kwargs):
            raise RuntimeError("a title probe was deleted")

    monkeypatch.setitem(registry.VIEW_CLASSES, "offset", Broken)
    win = MainWindow(settings=settings)
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    win.tabs.setCurrentIndex(list(win.views).index("offset"))
    assert win.controller.wait_idle()
    stand_in = win.views["offset"]
    text = stand_in.explain.text()
    assert stand_in.isVisible() and "\n" not in text
    assert "internal error" in text and "a title probe was deleted" in text
    assert win.controller.update(base=777.0) and win.controller.wait_idle()
    assert stand_in.result is None                                   # nothing computed for it
    win.tabs.setCurrentIndex(list(win.views).index("heatmap"))
    assert win.controller.wait_idle()
    assert win.views["heatmap"].result.params.base == 777.0
    win.controller.wait_idle()


def test_ctrl_c_in_the_terminal_closes_the_window(window, qtbot, qapp):
    """SIGINT closes the window (its settings saved) instead of waiting for an event and breaking
    out of the Python code that event runs (fuzz helper: nothing for 10 s, then a traceback)."""
    import os
    import signal

    from PySide6.QtCore import QEventLoop, QTimer

    from explorer.ui.app import quit_on_interrupt

    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    timer = quit_on_interrupt(qapp, lambda: window)
    try:
        window.controller.update(base=777.0)
        os.kill(os.getpid(), signal.SIGINT)
        loop = QEventLoop()                 # Qt's own loop, idle: no Python runs but the timer's
        QTimer.singleShot(1000, loop.quit)
        loop.exec()
        assert not window.isVisible()
        assert '"base": 777.0' in str(window.settings.value("state"))
    finally:
        timer.stop()
        signal.signal(signal.SIGINT, before[0])
        signal.signal(signal.SIGTERM, before[1])


def test_a_hidden_view_shows_the_state_when_its_tab_opens(window):
    """Only the open view's own controls follow each step; a hidden one catches up on opening, with
    what changed meanwhile: its own settings and the ranges the shared ones give it."""
    tabs = list(window.views)
    window.tabs.setCurrentIndex(tabs.index("offset"))            # built, then hidden
    window.tabs.setCurrentIndex(tabs.index("heatmap"))
    window.controller.update_view("offset", offset=5, position=7)
    window.controller.update(max_len=64)
    window.controller.wait_idle()
    window.tabs.setCurrentIndex(tabs.index("offset"))
    view = window.views["offset"]
    assert (view.k_box.value(), view.p_box.value()) == (5, 7)
    assert view.k_box.maximum() == 63 and view.state == window.controller.state.views["offset"]
