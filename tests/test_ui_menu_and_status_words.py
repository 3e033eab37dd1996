"""Words a helper's review of dialogs and lesson mode found (stop 52): the Lesson menu's items read what they do, in
English and Chinese, also in F11 (a dock's setWindowTitle renames its toggle action, and the caption bar's item had
read "Lesson" / "课程"); a status message too long for the bar can be read whole."""

import pytest


@pytest.mark.parametrize("lang, want", [
    ("en", ["Show caption bar", "Show animation controls", "Formula and code panel", "R / Enter: reveal"]),
    ("zh_CN", ["显示字幕栏", "显示动画控件", "公式与代码面板", "R / Enter：揭示"]),
])
def test_the_lesson_menu_names_its_docks_by_what_they_show(qtbot, settings, lang, want):
    from tests.conftest import window_in

    with window_in(lang, settings) as win:
        for scale in (1.0, 1.5):
            win.presenter.set_scale(scale)
            lec = win.lecture
            texts = [lec.caption_action.text(), lec.anim_bar_action.text(), lec.formula_action.text(),
                     lec.hide_action.text().split("\t")[-1]]
            assert texts == want, (scale, texts)


def test_a_status_message_too_long_for_the_bar_is_whole_in_its_tooltip(qtbot, settings):
    """Stop 52's review: in F11 at 1280 px a refusal naming a model folder ended "...and model.safeter", with no
    way to read the rest before it went."""
    from tests.conftest import window_in

    with window_in("en", settings) as win:
        text = "a refusal " + "that names a very long path " * 20
        win.controller.message.emit(text)
        assert win.statusBar().currentMessage() == text and win.statusBar().toolTip() == text
        win.statusBar().clearMessage()
        assert win.statusBar().toolTip() == ""
