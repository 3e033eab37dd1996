"""Leaving a lesson gives the window back as it was; a scene without a cursor shows none."""

from PySide6.QtCore import Qt

from explorer import scenes
from explorer.params import Params
from tests.test_ui_lecture import press, two_scene_deck


def test_end_lesson_restores_the_state_from_before_it_and_stops_the_keys(qtbot, window):
    """Hiding the caption left the deck stepping unseen under the arrow keys, and nothing gave the
    lecturer's own setup back (the last scene's State was even saved as theirs)."""
    c, lec = window.controller, window.lecture
    c.update(d_model=200, max_len=300)
    c.set_cursor(12)
    c.wait_idle()
    before = c.state
    lec.set_deck(two_scene_deck())
    press(qtbot, window.tabs.currentWidget(), Qt.Key.Key_PageDown)
    assert lec.index == 1 and c.params.d_model == 48
    window.save_settings()                                   # saved mid-lesson: the user's own State
    from explorer.ui.settings_store import load_state

    assert load_state(window.settings) == before
    lec.end_action.trigger()
    c.wait_idle()
    assert lec.deck == [] and not lec.caption_dock.isVisible() and not lec.card.covering
    assert c.state == before
    press(qtbot, window.tabs.currentWidget(), Qt.Key.Key_PageDown)    # no deck: nothing steps
    assert c.state == before


def test_escape_or_closing_the_caption_bar_ends_the_lesson(qtbot, window):
    c, lec = window.controller, window.lecture
    before = c.state
    for leave in ("escape", "close", "menu"):
        lec.set_deck(two_scene_deck())
        c.wait_idle()
        assert c.params.d_model == 32 and lec.caption_dock.isVisible()
        if leave == "escape":
            press(qtbot, window.tabs.currentWidget(), Qt.Key.Key_Escape)
        elif leave == "close":
            lec.caption_dock.close()                          # its title bar's close button
        else:
            lec.caption_action.trigger()                      # Lesson → Show caption bar, unticked
        c.wait_idle()
        assert lec.deck == [] and c.state == before, leave


def test_a_scene_without_a_cursor_clears_the_last_ones(qtbot, window):
    """Stepping from a scene with a cursor to one without left its line drawn (Tokens' fish row,
    a stray line on the heatmap)."""
    c, lec = window.controller, window.lecture
    deck = [scenes.make_scene(Params(d_model=32, max_len=40), "heatmap", 10),
            scenes.make_scene(Params(d_model=32, max_len=60), "heatmap", None)]
    lec.set_deck(deck)
    c.wait_idle()
    heatmap = window.views["heatmap"]
    assert heatmap.cursor_line.isVisible() and heatmap.cursor_line.value() == 10.5
    lec.step(+1)
    c.wait_idle()
    assert c.cursor is None and not heatmap.cursor_line.isVisible()
    lec.step(-1)
    c.wait_idle()
    assert heatmap.cursor_line.isVisible()
    lec.end()


def test_a_language_switch_keeps_the_lesson_and_what_to_go_back_to(qtbot, window):
    from PySide6.QtWidgets import QApplication

    from explorer.ui.api_window import switch_language
    from explorer.ui.i18n import install_translator
    from tests.conftest import close_and_delete

    before = window.controller.state
    window.lecture.set_deck(two_scene_deck())
    window.lecture.step(+1)
    window.controller.wait_idle()
    new = switch_language(window, "zh_CN")
    try:
        new.controller.wait_idle()
        assert len(new.lecture.deck) == 2 and new.lecture.index == 1
        assert new.lecture.caption.title.text() == "第二" and new.controller.params.d_model == 48
        new.lecture.end()
        new.controller.wait_idle()
        got = new.controller.state          # (the Check view's state follows the language: zh_CN now)
        assert (got.params, got.view, got.cursor) == (before.params, before.view, before.cursor)
        assert all(got.views[n] == before.views[n] for n in before.views if n != "check")
        assert new.lecture.deck == [] and got.views["check"].lang == "zh_CN"
    finally:
        install_translator(QApplication.instance(), "en")
        new.controller.wait_idle()
        close_and_delete(new)


def test_a_colour_map_picked_mid_lesson_stays_after_it_and_over_a_language_switch(qtbot, window):
    """A lecturer's viridis for the projector is theirs, not the lesson's: ending the lesson gave back
    the map from before it, and so did a language switch (the new window starts from that State)."""
    from PySide6.QtWidgets import QApplication

    from explorer.ui.api_window import switch_language
    from explorer.ui.i18n import install_translator
    from tests.conftest import close_and_delete

    assert window.colormap != "viridis"
    box = window.controls.cmap_box
    window.lecture.set_deck(two_scene_deck())
    box.setCurrentIndex(box.findData("viridis"))                  # as the user picks it
    window.lecture.step(+1)
    window.controller.wait_idle()
    assert window.colormap == "viridis"
    new = switch_language(window, "zh_CN")
    try:
        new.controller.wait_idle()
        assert new.colormap == "viridis" and new.lecture.index == 1
        new.lecture.end()
        new.controller.wait_idle()
        assert new.colormap == "viridis" and new.controls.cmap_box.currentData() == "viridis"
    finally:
        install_translator(QApplication.instance(), "en")
        new.controller.wait_idle()
        close_and_delete(new)


def test_the_caption_holds_its_explanation_back_until_the_question_is_revealed(qtbot, window):
    """Scene 8 asked "is 4 closer to 5 or to 17?" above a caption that said "position 4 is closer to
    position 5": the explanation waits for the reveal, in a bar already as tall as it needs."""
    lec = window.lecture
    lec.set_deck(two_scene_deck())
    window.controller.wait_idle()
    assert lec.caption.text.text() == "one"                 # no question: shown at once
    lec.step(+1)
    window.controller.wait_idle()
    assert lec.card.covering and "follows the reveal" in lec.caption.text.text()
    height = lec.caption.height()
    press(qtbot, window.tabs.currentWidget(), Qt.Key.Key_R)
    assert not lec.card.covering and lec.caption.text.text() == "two"
    assert lec.caption.height() == height
    lec.end()


def test_the_card_covers_the_whole_page_when_the_caption_changes_height(qtbot, window):
    """A shorter caption made the tab area taller, and the card kept the page's old height: a strip
    of the plot (an axis title) showed under it."""
    long_text = {"en": "A long explanation that wraps. " * 12, "zh_CN": "很长的讲解。" * 30}
    ask = {"en": "Which?", "zh_CN": "哪个？"}
    deck = [scenes.make_scene(Params(d_model=32, max_len=40), "heatmap", None, title=ask, explain=long_text,
                              question=ask),
            scenes.make_scene(Params(d_model=32, max_len=40), "curves", None, title=ask,
                              explain={"en": "Short.", "zh_CN": "短。"}, question=ask)]
    lec = window.lecture
    lec.set_deck(deck)
    qtbot.wait(20)
    tall = lec.caption.height()
    lec.step(+1)
    qtbot.wait(20)
    assert lec.caption.height() < tall and lec.card.covering
    card, tabs = lec.card.geometry(), window.tabs
    assert card.bottom() + 1 == tabs.height() and card.top() == tabs.tabBar().geometry().bottom() + 1
    lec.end()


def test_during_a_lesson_the_views_own_introductions_give_their_room_to_the_plots(qtbot, window):
    lec, views = window.lecture, window.views
    heatmap = views["heatmap"]
    assert heatmap.explain.isVisible()
    lec.set_deck(two_scene_deck())
    window.controller.wait_idle()
    assert heatmap.explain.isHidden() and heatmap.explain.text()
    lec.step(+1)                                          # similarity: built now, during the lesson
    window.controller.wait_idle()
    assert views["similarity"].explain.isHidden()
    lec.end()
    window.controller.wait_idle()
    assert not views["similarity"].explain.isHidden() and not heatmap.explain.isHidden()


def test_f11_and_its_menu_item_enter_and_leave_presentation_mode(qtbot, window):
    """Qt ticks the checkable action before its slot runs: the slot read the tick as "already in
    F11" and left at once, so the key and the menu item did nothing (tests called the method)."""
    p = window.presenter
    window.show()
    p.full_action.trigger()
    assert p.in_presentation() and p.scale == 1.5 and window.dock.isHidden() and p.full_action.isChecked()
    p.full_action.trigger()
    assert not p.in_presentation() and p.scale == 1.0 and not window.dock.isHidden()
    qtbot.keyClick(window, Qt.Key.Key_F11)
    assert p.in_presentation() and p.full_action.isChecked()
    qtbot.keyClick(window, Qt.Key.Key_F11)
    assert not p.in_presentation() and not p.full_action.isChecked() and p.scale == 1.0


def test_reset_or_a_scene_opened_mid_lesson_ends_it_and_stays(qtbot, window, monkeypatch, tmp_path):
    """Reset to defaults mid-lesson was undone at the lesson's end (and the old State saved); a scene
    opened mid-lesson ran under the old caption and was thrown away at the end."""
    from PySide6.QtWidgets import QFileDialog

    from explorer.ui.settings_store import load_state

    c, lec = window.controller, window.lecture
    c.update(d_model=200)
    lec.set_deck(two_scene_deck())
    window.reset()
    c.wait_idle()
    assert lec.deck == [] and c.params.d_model != 200
    window.save_settings()
    assert load_state(window.settings).params.d_model == c.params.d_model
    path = scenes.save_scene(tmp_path / "one.json", scenes.make_scene(Params(d_model=64, max_len=70), "curves", None))
    lec.set_deck(two_scene_deck())
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.file_actions.open_scene()
    c.wait_idle()
    assert lec.deck == [] and c.params.d_model == 64 and c.state.view == "curves"


def test_after_the_lesson_the_caption_says_none_is_loaded_and_esc_leaves_past_a_slider(qtbot, window):
    lec = window.lecture
    lec.set_deck(two_scene_deck())
    lec.step(+1)
    lec.end()
    lec.caption_action.trigger()                      # shown again by hand
    assert lec.caption.title.text() == "No lesson loaded" and not lec.caption.prev_button.isEnabled()
    lec.caption_action.trigger()
    lec.set_deck(two_scene_deck())
    slider = window.controls.d_model.slider
    slider.setFocus()
    press(qtbot, slider, Qt.Key.Key_Escape)           # a slider does not use Esc: the lesson ends
    assert lec.deck == []


def test_a_cursor_past_the_rows_shown_leaves_no_old_mark(qtbot, window):
    c = window.controller
    c.update(text="the cat sat", tokenizer="char", max_len=64)
    tokens = window.views["tokens"]
    window.tabs.setCurrentIndex(list(window.views).index("tokens"))
    c.wait_idle()
    c.set_cursor(1)
    assert tokens.sum.lines[0].isVisible()
    c.set_cursor(40)                                   # past the 11 characters shown
    assert not tokens.sum.lines[0].isVisible() and tokens.chips.currentRow() == -1


def test_the_placeholder_is_never_cut_and_a_revealed_card_stays_revealed_over_a_language_switch(
        qtbot, window):
    from PySide6.QtWidgets import QApplication

    from explorer.ui.api_window import switch_language
    from explorer.ui.i18n import install_translator
    from tests.conftest import close_and_delete

    ask = {"en": "Which?", "zh_CN": "哪个？"}
    deck = [scenes.make_scene(Params(d_model=32, max_len=40), "heatmap", None, title=ask,
                              explain={"en": "Four.", "zh_CN": "四。"}, question=ask)]
    lec = window.lecture
    window.presenter.set_scale(3.0)
    window.resize(950, 800)
    try:
        lec.set_deck(deck)
        qtbot.wait(20)
        label = lec.caption.text
        assert "follows the reveal" in label.text() and label.height() >= label.heightForWidth(label.width())
        lec.card.reveal()
        new = switch_language(window, "zh_CN")
        try:
            assert new.lecture.deck and not new.lecture.card.covering
            assert new.lecture.caption.text.text() == "四。"
        finally:
            install_translator(QApplication.instance(), "en")
            new.presenter.set_scale(1.0)
            new.controller.wait_idle()
            close_and_delete(new)
    finally:
        window.presenter.set_scale(1.0)
