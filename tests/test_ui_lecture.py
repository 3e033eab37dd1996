"""Lecture features on the real window: deck stepping by clicker keys, caption, question card,
animation, the formula/code dock (its code executed and compared with the view's data)."""

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLayout, QLineEdit

from explorer import scenes
from explorer.compute import formulas
from tests import compute_ns as compute
from tests import compute_ns as compute_tokens
from explorer.backend.encodings import sinusoidal_pe
from explorer.backend.similarity import similarity_matrix
from explorer.params import Params

pytest.importorskip("torch")


def two_scene_deck():
    a = scenes.make_scene(Params(d_model=32, max_len=40), "heatmap", 3,
                          title={"en": "First", "zh_CN": "第一"}, explain={"en": "one", "zh_CN": "一"})
    b = scenes.make_scene(Params(d_model=48, max_len=50, metric="dot"), "similarity", 7,
                          title={"en": "Second", "zh_CN": "第二"}, explain={"en": "two", "zh_CN": "二"},
                          question={"en": "Where is it largest?", "zh_CN": "哪里最大？"})
    return [a, b]


def current_name(window):
    return list(window.views)[window.tabs.currentIndex()]


def press(qtbot, widget, key):
    qtbot.keyClick(widget, key)
    widget.window().controller.wait_idle()


def test_clicker_keys_step_the_deck_and_show_the_caption(qtbot, window):
    lec = window.lecture
    target = window.tabs.currentWidget()
    press(qtbot, target, Qt.Key.Key_PageDown)            # no deck: nothing happens
    assert lec.deck == []
    lec.set_deck(two_scene_deck())
    window.controller.wait_idle()
    assert window.controller.params.d_model == 32 and current_name(window) == "heatmap"
    assert window.controller.cursor == 3
    assert lec.caption.title.text() == "First" and "1 / 2" in lec.caption.position.text()
    assert lec.caption_dock.isVisible() and not lec.card.covering
    press(qtbot, window.tabs.currentWidget(), Qt.Key.Key_PageDown)
    assert lec.index == 1 and window.controller.params.d_model == 48
    assert current_name(window) == "similarity" and window.controller.cursor == 7
    assert lec.caption.title.text() == "Second" and "follows the reveal" in lec.caption.text.text()   # (its question is up)
    assert "2 / 2" in lec.caption.position.text()
    assert lec.card.covering                               # scene 2 has a question
    press(qtbot, window.tabs.currentWidget(), Qt.Key.Key_PageDown)   # past the end: stays
    assert lec.index == 1
    press(qtbot, window.tabs.currentWidget(), Qt.Key.Key_PageUp)
    assert lec.index == 0 and window.controller.params.d_model == 32 and not lec.card.covering
    press(qtbot, window.tabs.currentWidget(), Qt.Key.Key_Space)
    assert lec.index == 1
    press(qtbot, window.tabs.currentWidget(), Qt.Key.Key_Left)
    assert lec.index == 0
    press(qtbot, window.tabs.currentWidget(), Qt.Key.Key_Right)
    assert lec.index == 1


def test_builtin_lesson_from_the_menu(qtbot, window):
    lec = window.lecture
    lec.start_action.trigger()
    window.controller.wait_idle()
    deck = scenes.builtin_deck()
    assert len(lec.deck) == len(deck) > 3
    assert window.controller.params == deck[0].params and current_name(window) == deck[0].view
    assert f"1 / {len(deck)}" in lec.caption.position.text()
    lec.next_action.trigger()
    window.controller.wait_idle()
    assert window.controller.params == deck[1].params and lec.caption.title.text() == deck[1].text("title", "en")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_caption_bar_is_as_tall_as_its_text(qtbot, settings, lang):
    """At 1.5x in 1280 x 800 the bar kept a word-wrapped label's guessed height: 152-206 px for
    explanations that needed 71-125 (its first scenes showed the heights of the scene before), and
    the views lost a quarter of their height. Each scene's bar is now what its lines need."""
    from tests.conftest import window_in

    with window_in(lang, settings) as win:
        win.presenter.set_scale(1.5)
        win.dock.hide()
        lec = win.lecture
        lec.start_builtin()
        for _ in lec.deck:
            win.controller.wait_idle()
            qtbot.wait(20)
            held = lec.caption.height()
            lec.card.reveal()             # a question's explanation shows on the reveal, in the same height
            qtbot.wait(10)
            assert lec.caption.height() == held
            bar = lec.caption
            for part in bar.findChildren(QLayout) + [bar.layout()]:      # no cached heights
                part.invalidate()
            need = bar.layout().heightForWidth(bar.width())
            assert bar.height() == need, (lec.index, bar.height(), need)
            shown = bar.text.heightForWidth(bar.text.width())
            assert bar.text.height() >= shown, (lec.index, bar.text.height(), shown)   # nothing cut
            lec.step(+1)


def test_arrows_in_a_focused_line_edit_do_not_step(qtbot, window):
    lec = window.lecture
    lec.set_deck(two_scene_deck())
    window.controller.wait_idle()
    edit = window.controls.findChildren(QLineEdit)[0]
    edit.setFocus()
    for key in (Qt.Key.Key_Right, Qt.Key.Key_Left, Qt.Key.Key_Space):
        qtbot.keyClick(edit, key)
        assert lec.index == 0
    qtbot.keyClick(edit, Qt.Key.Key_R)                   # typing, not a reveal or a step
    assert lec.index == 0
    qtbot.keyClick(edit, Qt.Key.Key_PageDown)            # the clicker still works
    assert lec.index == 1


def test_question_card_hides_then_reveals(qtbot, window):
    lec = window.lecture
    lec.set_deck(two_scene_deck(), index=1)
    window.controller.wait_idle()
    card = lec.card
    assert card.isVisible() and card.question.text() == "Where is it largest?"
    page = window.tabs.currentWidget()
    assert card.geometry().contains(page.mapTo(window.tabs, page.rect().center()))
    qtbot.keyClick(window.tabs.currentWidget(), Qt.Key.Key_R)
    assert not card.isVisible() and not lec.hide_action.isChecked()
    lec.hide_action.trigger()                            # the menu toggle, any view
    assert card.isVisible() and lec.hide_action.isChecked()
    qtbot.keyClick(window.tabs.currentWidget(), Qt.Key.Key_Return)
    assert not card.isVisible()
    lec.hide_action.trigger()
    qtbot.mouseClick(card, Qt.MouseButton.LeftButton)
    assert not card.isVisible()
    assert lec.index == 1                                # revealing never stepped


def test_keys_heard_only_during_a_lesson_or_a_card(qtbot, window):
    """The application-wide key filter runs only while it has work: a lesson or a covering card
    (it is a Python call for every event of every widget); R still reveals a card with no lesson."""
    lec = window.lecture
    assert not lec._listening
    lec.hide_action.trigger()                            # a card with no lesson
    assert lec._listening and lec.card.isVisible()
    qtbot.keyClick(window.tabs.currentWidget(), Qt.Key.Key_R)
    assert not lec.card.isVisible() and not lec._listening
    lec.set_deck(two_scene_deck())
    window.controller.wait_idle()
    assert lec._listening
    qtbot.keyClick(window.tabs.currentWidget(), Qt.Key.Key_PageDown)
    assert lec.index == 1
    qtbot.keyClick(window.tabs.currentWidget(), Qt.Key.Key_Escape)     # ends the lesson
    assert not lec.deck and not lec._listening


def test_animation_advances_parameters_and_stops(qtbot, window):
    anim = window.lecture.animator
    window.controller.update(max_len=12)
    window.controller.wait_idle()
    window.controller.set_cursor(2)
    anim.set_parameter("cursor")
    anim.set_speed(30)
    window.lecture.play_action.trigger()
    assert anim.running and window.lecture.animation_bar.isVisible()
    qtbot.waitUntil(lambda: window.controller.cursor >= 5, timeout=3000)
    qtbot.waitUntil(lambda: not anim.running, timeout=3000)   # stops at the end of the range
    assert window.controller.cursor == 11
    anim.play()                                          # at the end: starts over from 0
    qtbot.waitUntil(lambda: window.controller.cursor >= 2 and window.controller.cursor < 11, timeout=3000)
    window.lecture.play_action.trigger()
    assert not anim.running
    held = window.controller.cursor
    qtbot.wait(150)
    assert window.controller.cursor == held
    # d_model, base, offset k: one step per tick, never while a result is still being computed
    anim.set_parameter("d_model")
    window.controller.update(d_model=64, max_len=64)
    window.controller.wait_idle()
    window.controller._busy = True                       # a result is still on its way: skip
    skipped = anim.skipped
    anim.tick()
    assert window.controller.params.d_model == 64 and anim.skipped == skipped + 1
    window.controller._busy = False
    anim.tick()
    assert window.controller.params.d_model == 66 and window.controller._busy
    anim.tick()                                          # its result has not arrived yet
    assert window.controller.params.d_model == 66 and anim.skipped == skipped + 2
    window.controller.wait_idle()
    anim.set_parameter("base")
    anim.tick()
    window.controller.wait_idle()
    assert window.controller.params.base > 10000
    window.controller.wait_idle()
    anim.set_parameter("offset")
    k0 = window.controller.state.views["offset"].offset
    anim.tick()
    assert window.controller.state.views["offset"].offset == k0 + 1
    window.tabs.setCurrentIndex(list(window.views).index("offset"))     # its controls show it
    assert window.views["offset"].k_box.value() == k0 + 1


def test_formula_panel_shows_current_numbers(qtbot, window):
    lec = window.lecture
    window.tabs.setCurrentIndex(list(window.views).index("heatmap"))
    lec.formula_action.trigger()
    assert lec.formula_dock.isVisible()
    window.controller.set_cursor(10)
    lec.formula_dock.refresh()          # the texts are made on the worker thread
    assert window.controller.wait_idle()
    text = lec.formula_dock.formula.toPlainText()
    p = window.controller.params
    assert f"d = {p.d_model}" in text and "base = 10000" in text
    assert formulas.num(compute.pe_value(p, 10, 8)[0], 4) in text
    window.controller.update(d_model=40)
    window.controller.wait_idle()
    qtbot.waitUntil(lambda: "d = 40" in lec.formula_dock.formula.toPlainText(), timeout=2000)
    assert "d_model, max_len, base = 40, " in lec.formula_dock.code.toPlainText()


def show_view(qtbot, window, name, **changes):
    window.controller.update(**changes)
    window.tabs.setCurrentIndex(list(window.views).index(name))
    window.controller.wait_idle()
    qtbot.waitUntil(lambda: window.views[name].result is not None
                    and window.views[name].result.params == window.controller.params, timeout=5000)
    dock = window.lecture.formula_dock
    dock.show()
    dock.refresh()                      # the texts are made on the worker thread
    assert window.controller.wait_idle()
    return formulas.run_code(dock.code.toPlainText()), window.views[name].result


@pytest.mark.parametrize("layout,d", [("interleaved", 24), ("concat", 7), ("t2t", 9)])
def test_code_panel_output_equals_the_views_data(qtbot, window, layout, d):
    common = {"d_model": d, "max_len": 48, "layout": layout, "base": 300.0, "curve_pairs": (0, 2)}
    out, r = show_view(qtbot, window, "heatmap", **common)
    assert np.allclose(out, sinusoidal_pe(48, d, 300.0, layout, "float32"), atol=1e-5, rtol=0)
    assert r.pos_step == 1 and r.ch_step == 1
    rows, cols = r.image.shape
    assert np.allclose(out[r.pos0:r.pos0 + rows, r.ch0:r.ch0 + cols], r.image, atol=1e-5, rtol=0)
    for metric in ("dot", "cosine"):
        out, r = show_view(qtbot, window, "similarity", metric=metric)
        assert np.allclose(out, similarity_matrix(48, d, 300.0, layout, metric), atol=1e-9, rtol=0)
        n = r.image.shape[0]
        assert r.pos_step == 1 and np.allclose(out[r.pos0:r.pos0 + n, r.pos0:r.pos0 + n], r.image, atol=1e-5)
    out, r = show_view(qtbot, window, "curves")
    assert r.pos_step == 1 and out.shape == (len(r.lines), 48)
    assert np.allclose(out, np.stack([line.y for line in r.lines]), atol=1e-12)
    out, r = show_view(qtbot, window, "tokens", text="Predict, then reveal: 位置")
    assert np.allclose(out, compute_tokens.tokens(window.controller.params).x, rtol=1e-6, atol=1e-5)
    assert out.shape == r.x.shape and np.allclose(out, r.x, rtol=1e-6, atol=1e-5)
