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


def test_a_check_panel_with_a_long_title_keeps_its_image_inside_it(qtbot, settings, monkeypatch, tmp_path):
    """F11 at 1280 px with the formula panel open: "difference: yours − reference" needed a wider panel than the
    200 px its explicit preferred width capped its minimum at, so its view box ran under the next colour bar."""
    import numpy as np

    from tests.conftest import window_in
    from tests.test_ui_check import open_through_action

    path = tmp_path / "table.npy"
    np.save(path, np.random.default_rng(0).normal(0, 0.5, (64, 32)).astype(np.float32))
    with window_in("en", settings) as win:
        win.presenter.set_scale(1.5)
        win.lecture.formula_action.trigger()
        open_through_action(win, monkeypatch, path)
        win.tabs.setCurrentIndex(list(win.views).index("check"))
        view = win.views["check"]
        qtbot.waitUntil(lambda: view.diff.plot.titleLabel.text.startswith("difference"))
        qtbot.wait(50)
        for panel in (view.mine, view.ref, view.diff):
            plot, box, bar = panel.plot.sceneBoundingRect(), panel.plot.getViewBox().sceneBoundingRect(), \
                panel.bar.sceneBoundingRect()
            assert box.right() <= plot.right() + 1 and box.right() <= bar.left() + 1, (panel.plot.titleLabel.text,
                                                                                        box, plot, bar)
