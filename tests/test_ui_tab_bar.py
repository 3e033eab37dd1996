"""Squeezed tabs stay readable: at 1.5x with the panel shown, Chinese tabs read "R…" and "A…"."""

import pytest
from PySide6.QtCore import Qt

from explorer.ui.tab_bar import squeezed_text


@pytest.mark.parametrize("name, squeezed", [("RoPE", "RoPE"), ("ALiBi", "ALiBi"), ("Tokens", "Tokens"),
                                            ("Similarity", "Simi…"), ("真实 RoPE", "真实 R…"),
                                            ("Real RoPE", "Real…"), ("热力图", "热力图")])
def test_a_tab_shrinks_no_further_than_its_first_characters(name, squeezed):
    assert squeezed_text(name) == squeezed


@pytest.mark.parametrize("scale", [1.25, 1.5, 2.0])
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_at_1_5x_with_the_panel_shown_every_tab_keeps_a_readable_name(qtbot, settings, lang, scale):
    from tests.conftest import window_in

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
