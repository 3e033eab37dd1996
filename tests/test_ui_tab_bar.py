"""Squeezed tabs stay readable: at 1.5x with the panel shown, Chinese tabs read "R…" and "A…"."""

import pytest
from PySide6.QtCore import Qt

from explorer.ui.tab_bar import squeezed_text
from tests.conftest import window_in


@pytest.mark.parametrize("name, squeezed", [("RoPE", "RoPE"), ("ALiBi", "ALiBi"), ("Tokens", "Tokens"),
                                            ("Similarity", "Simi…"), ("真实 RoPE", "真实 R…"),
                                            ("Real RoPE", "Real…"), ("热力图", "热力图")])
def test_a_tab_shrinks_no_further_than_its_first_characters(name, squeezed):
    assert squeezed_text(name) == squeezed


@pytest.mark.parametrize("scale", [1.25, 1.5, 2.0])
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_at_1_5x_with_the_panel_shown_every_tab_keeps_a_readable_name(qtbot, settings, lang, scale):

    with window_in(lang, settings) as win:
        win.presenter.set_scale(scale)
        win.dock.show()
        win.resize(1280, 800)
        qtbot.wait(20)
        bar = win.tabs.tabBar()
        metrics = bar.fontMetrics()
        assert win.width() <= 1280
        for i in range(bar.count()):
            text = bar.tabText(i)
            assert bar.tabRect(i).width() >= bar.minimumTabSizeHint(i).width(), (i, text)
            room = bar.minimumTabSizeHint(i).width() - (bar.tabSizeHint(i).width() - metrics.horizontalAdvance(text))
            assert metrics.elidedText(text, Qt.TextElideMode.ElideRight, room + 1) == squeezed_text(text) \
                or len(text) > 6, (i, text)
            if bar.tabRect(i).width() < bar.tabSizeHint(i).width():      # squeezed: what Qt draws
                room = bar.tabRect(i).width() - (bar.tabSizeHint(i).width() - metrics.horizontalAdvance(text))
                drawn = metrics.elidedText(text, Qt.TextElideMode.ElideRight, room)
                assert drawn == squeezed_text(text) or len(drawn.rstrip("…")) >= 4, (text, drawn)
        names = [bar.tabText(i) for i in range(bar.count())]
        assert "RoPE" in names and "ALiBi" in names
        # the bar scrolls now: the current tab is always whole on screen
        win.tabs.setCurrentIndex(bar.count() - 1)
        qtbot.wait(10)
        r = bar.tabRect(bar.count() - 1)
        assert r.left() >= 0 and r.right() <= bar.width(), (r, bar.width())


def full_names_shown(win) -> bool:
    """Every tab as wide as its whole name needs (Qt elides a tab's text only in a narrower rect), and
    all of them on the bar at once (no scrolling)."""
    bar = win.tabs.tabBar()
    return (all(bar.tabRect(i).width() >= bar.tabSizeHint(i).width() for i in range(bar.count()))
            and bar.tabRect(0).left() >= 0 and bar.tabRect(bar.count() - 1).right() < bar.width())


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_at_1280_with_the_formula_panel_open_every_tab_shows_its_whole_name(qtbot, settings, lang):
    """On a 1280 x 800 projector the control panel, the formula panel beside the view and the tabs'
    whole names need ~1530 px in English: the tabs read "Heat…", "Simi…", "Lear…" and the last three
    scrolled. The panel goes under the view where the names need the width; 1920 keeps it beside."""
    from PySide6.QtCore import Qt as QtCore

    with window_in(lang, settings) as win:
        dock = win.lecture.formula_dock
        win.lecture.formula_action.trigger()
        qtbot.waitUntil(lambda: dock.isVisible() and full_names_shown(win), timeout=3000)
        assert win.width() <= 1280 and win.dock.isVisible()
        assert dock.width() >= 250 and dock.height() >= 150           # a readable panel, wherever it is
        if lang == "en":     # under the view, leaving the view most of the height
            assert win.dockWidgetArea(dock) == QtCore.DockWidgetArea.BottomDockWidgetArea
            assert dock.height() <= win.height() * 0.3 and win.tabs.height() >= win.height() * 0.6
        else:       # the Chinese names are short enough beside it
            assert win.dockWidgetArea(dock) == QtCore.DockWidgetArea.RightDockWidgetArea
        win.resize(1920, 1080)                                          # a wide window: beside the view
        qtbot.waitUntil(lambda: win.dockWidgetArea(dock) == QtCore.DockWidgetArea.RightDockWidgetArea,
                        timeout=3000)
        qtbot.waitUntil(lambda: full_names_shown(win), timeout=3000)
        win.resize(1280, 800)
        qtbot.waitUntil(lambda: full_names_shown(win), timeout=3000)


def test_a_formula_panel_docked_by_hand_stays_where_it_was_put(qtbot, settings):
    from PySide6.QtCore import Qt as QtCore

    with window_in("en", settings, size=(1920, 1080)) as win:
        dock = win.lecture.formula_dock
        win.lecture.formula_action.trigger()
        win.addDockWidget(QtCore.DockWidgetArea.LeftDockWidgetArea, dock)    # as a drag would
        win.resize(1280, 800)
        qtbot.wait(50)
        assert win.dockWidgetArea(dock) == QtCore.DockWidgetArea.LeftDockWidgetArea


@pytest.mark.parametrize("old_lang, new_lang", [("zh_CN", "en"), ("en", "zh_CN")])
def test_the_formula_panel_stays_open_over_a_language_switch(qtbot, settings, old_lang, new_lang):
    """Settings -> Language rebuilds the window: the formula panel had closed (Ctrl+F again after each
    switch). It stays open, placed for the new language at 1280 x 800: under the view for English's
    names, beside it for Chinese."""
    from PySide6.QtCore import Qt as QtCore
    from PySide6.QtWidgets import QApplication

    from explorer.ui.app import carry_presentation
    from explorer.ui.i18n import install_translator
    from explorer.ui.main_window import MainWindow
    from tests.conftest import close_and_delete

    with window_in(old_lang, settings) as old:
        old.lecture.formula_action.trigger()
        qtbot.waitUntil(lambda: full_names_shown(old), timeout=3000)
        old.save_settings()
        install_translator(QApplication.instance(), new_lang)      # as run_app's switch_language does
        new = MainWindow(settings=settings)
        try:
            new.resize(1280, 800)
            new.show()
            carry_presentation(old, new)
            dock = new.lecture.formula_dock
            assert dock.isVisible() and new.lecture.formula_action.isChecked()
            wanted = (QtCore.DockWidgetArea.BottomDockWidgetArea if new_lang == "en"
                      else QtCore.DockWidgetArea.RightDockWidgetArea)
            qtbot.waitUntil(lambda: new.dockWidgetArea(dock) == wanted and full_names_shown(new), timeout=3000)
        finally:
            new.controller.wait_idle()
            close_and_delete(new)


def test_a_lesson_started_beside_the_panel_under_the_view_leaves_it_its_lines(qtbot, settings):
    """At 1280 x 800 in English the panel sits under the view; a lesson started then put its caption
    beside it and squeezed the panel from 176 to 144 px: 4 formula lines and the 5th cut through. When
    the lesson ended, the panel took the caption's room as well, not the view."""
    with window_in("en", settings) as win:
        dock = win.lecture.formula_dock
        win.lecture.formula_action.trigger()
        qtbot.waitUntil(lambda: dock.isVisible() and full_names_shown(win), timeout=3000)
        wanted = dock.placer.bottom_height()
        assert wanted <= dock.height() <= wanted + 4
        win.lecture.start_builtin()
        qtbot.waitUntil(lambda: win.lecture.caption_dock.isVisible(), timeout=3000)
        qtbot.waitUntil(lambda: dock.height() >= wanted, timeout=3000)
        assert win.lecture.caption_dock.height() >= win.lecture.caption_dock.sizeHint().height() - 4
        assert win.tabs.height() >= win.height() * 0.5 and full_names_shown(win)
        win.lecture.end()           # the caption's room goes back to the view, not to the panel
        qtbot.waitUntil(lambda: not win.lecture.caption_dock.isVisible(), timeout=3000)
        qtbot.wait(50)
        qtbot.waitUntil(lambda: dock.height() <= wanted + 4, timeout=3000)


def test_under_the_view_the_panel_follows_the_scale_there_and_back(qtbot, settings):
    """F11 at 1280 x 1024 (the control panel hidden, 1.5x): the panel under the view kept its 1x
    height, 4 of its larger lines shown; after F11 it kept whatever height it had there."""
    with window_in("en", settings, size=(1280, 1024)) as win:
        dock = win.lecture.formula_dock
        win.lecture.formula_action.trigger()
        qtbot.waitUntil(lambda: dock.isVisible() and full_names_shown(win), timeout=3000)
        at_1x = dock.height()
        win.dock.hide()                          # what F11 does, in a window as wide as the projector
        win.presenter.set_scale(1.5)
        qtbot.waitUntil(lambda: dock.height() >= dock.placer.bottom_height() > at_1x, timeout=3000)
        assert win.dockWidgetArea(dock) == Qt.DockWidgetArea.BottomDockWidgetArea and full_names_shown(win)
        at_1_5x = dock.height()
        win.lecture.start_builtin()               # a lesson there: when it ends, the caption's room
        qtbot.waitUntil(lambda: win.lecture.caption_dock.isVisible(), timeout=3000)    # is the view's
        for _ in range(2):
            win.lecture.step(+1)
            win.controller.wait_idle()
            qtbot.wait(20)
        win.lecture.end()
        qtbot.waitUntil(lambda: not win.lecture.caption_dock.isVisible(), timeout=3000)
        qtbot.wait(50)                            # (the layout settles: it had grown to 345 px)
        qtbot.waitUntil(lambda: dock.height() <= at_1_5x + 4, timeout=3000)
        win.presenter.set_scale(1.0)
        win.dock.show()
        qtbot.waitUntil(lambda: abs(dock.height() - at_1x) <= 4 and full_names_shown(win), timeout=3000)


def test_in_f11_at_1280_x_800_the_panel_leaves_the_view_its_height(qtbot, settings):
    """F11 at 1280 x 800 in English: under the view, the 1.5x panel left the views ~450 px, and the Learned,
    RoPE, Offset and Real RoPE plots were squeezed to a few pixels; it goes beside the view there (some tab
    names cut instead, the bar scrolls), and under it again at 1x, every name whole."""
    from explorer.ui.formula_place import VIEW_ROOM

    with window_in("en", settings) as win:
        dock = win.lecture.formula_dock
        win.lecture.formula_action.trigger()
        qtbot.waitUntil(lambda: dock.isVisible() and full_names_shown(win), timeout=3000)
        assert win.dockWidgetArea(dock) == Qt.DockWidgetArea.BottomDockWidgetArea
        assert win.height() - dock.placer.bottom_height() >= VIEW_ROOM
        win.dock.hide()                          # what F11 does
        win.presenter.set_scale(1.5)
        qtbot.waitUntil(lambda: win.dockWidgetArea(dock) == Qt.DockWidgetArea.RightDockWidgetArea, timeout=3000)
        view = win.views["learned"]
        win.tabs.setCurrentIndex(list(win.views).index("learned"))
        win.controller.wait_idle()
        qtbot.waitUntil(lambda: view.height() > 0.8 * win.height(), timeout=3000)   # (under it: ~0.6)
        win.presenter.set_scale(1.0)
        win.dock.show()
        qtbot.waitUntil(lambda: win.dockWidgetArea(dock) == Qt.DockWidgetArea.BottomDockWidgetArea
                        and full_names_shown(win), timeout=3000)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_beside_the_view_the_panel_widens_with_the_scale_as_far_as_the_tabs_allow(qtbot, settings, lang):
    """F11 at 1920 x 1080 (the control panel hidden, 1.5x): the panel beside the view kept its 1x width
    (328 px), so its 1.5x lines wrapped every few words; it takes 1.5x its width there, while every tab
    keeps its whole name, and its own width again at 1x."""
    with window_in(lang, settings, size=(1920, 1080)) as win:
        dock = win.lecture.formula_dock
        win.lecture.formula_action.trigger()
        qtbot.waitUntil(lambda: dock.isVisible() and full_names_shown(win), timeout=3000)
        own = dock.sizeHint().width()
        assert win.dockWidgetArea(dock) == Qt.DockWidgetArea.RightDockWidgetArea
        assert abs(dock.width() - own) <= 4
        win.dock.hide()                          # what F11 does
        win.presenter.set_scale(1.5)
        qtbot.waitUntil(lambda: dock.width() >= 1.4 * own, timeout=3000)
        assert win.dockWidgetArea(dock) == Qt.DockWidgetArea.RightDockWidgetArea and full_names_shown(win)
        win.presenter.set_scale(1.0)
        win.dock.show()
        qtbot.waitUntil(lambda: abs(dock.width() - own) <= 4 and full_names_shown(win), timeout=3000)


def test_beside_the_view_a_panel_widened_by_hand_keeps_its_width_when_another_dock_hides(qtbot, settings):
    """A lecturer drags the panel beside the view to 650 px; hiding the control panel (or a lesson's caption
    showing) sized it back to its own 328 px: only under the view does another dock's room change its size."""
    with window_in("en", settings, size=(1920, 1080)) as win:
        dock = win.lecture.formula_dock
        win.lecture.formula_action.trigger()
        qtbot.waitUntil(lambda: dock.isVisible() and full_names_shown(win), timeout=3000)
        qtbot.wait(100)                                                    # placed and sized on opening
        win.resizeDocks([dock], [650], Qt.Orientation.Horizontal)          # as dragging the separator does
        qtbot.waitUntil(lambda: dock.width() >= 640, timeout=3000)
        win.dock.hide()
        qtbot.wait(100)
        assert dock.width() >= 640 and win.dockWidgetArea(dock) == Qt.DockWidgetArea.RightDockWidgetArea
        win.dock.show()
        qtbot.wait(100)
        assert dock.width() >= 640


@pytest.mark.qt_log_ignore("This plugin does not support raise")     # the offscreen plugin, of a floated dock
@pytest.mark.parametrize("place", ["floated", "left", "tabbed"])
def test_a_formula_panel_put_by_hand_stays_there_over_a_language_switch(qtbot, settings, place):
    """A panel the user floated, docked left of the view or tabbed with the control panel came back beside
    the view in the window a language switch rebuilds: it stays floated where it was, or where it was docked."""
    from PySide6.QtCore import QRect
    from PySide6.QtCore import Qt as QtCore
    from PySide6.QtWidgets import QApplication

    from explorer.ui.app import carry_presentation
    from explorer.ui.i18n import install_translator
    from explorer.ui.main_window import MainWindow
    from tests.conftest import close_and_delete

    left = QtCore.DockWidgetArea.LeftDockWidgetArea
    with window_in("en", settings, size=(1920, 1080)) as old:
        was = old.lecture.formula_dock
        old.lecture.formula_action.trigger()
        qtbot.waitUntil(was.isVisible, timeout=3000)
        if place == "floated":
            was.setFloating(True)
            was.setGeometry(QRect(300, 200, 500, 400))
        elif place == "left":
            old.addDockWidget(left, was)                               # as a drag would
        else:
            old.tabifyDockWidget(old.dock, was)
            was.raise_()
        qtbot.waitUntil(lambda: was.isFloating() or (old.dockWidgetArea(was) == left
                                                     and not was.visibleRegion().isEmpty()), timeout=3000)
        old.save_settings()
        install_translator(QApplication.instance(), "zh_CN")          # as run_app's switch_language does
        new = MainWindow(settings=settings)
        try:
            new.resize(1920, 1080)
            new.show()
            carry_presentation(old, new)
            dock = new.lecture.formula_dock
            qtbot.wait(50)                                             # the placer's turn
            assert dock.isVisible() and new.lecture.formula_action.isChecked()
            if place == "floated":
                assert dock.isFloating() and dock.geometry() == QRect(300, 200, 500, 400)
            else:
                assert not dock.isFloating() and new.dockWidgetArea(dock) == left
                assert (new.tabifiedDockWidgets(dock) == [new.dock]) == (place == "tabbed")
                assert not dock.visibleRegion().isEmpty()              # the panel shown, not behind a tab
        finally:
            new.controller.wait_idle()
            close_and_delete(new)
