"""Counted words in the views' text: one pair, one head, one token read in the singular ("1 pairs" did not)."""

import math

import pytest

from tests.test_ui_review_mends import show_tab


@pytest.mark.parametrize("d, max_len, pairs, longer", [
    (2, 4, "1 pair;", "1 pair has a wavelength longer than max_len = 4"),
    (128, 512, "64 pairs;", "pairs have wavelengths longer than max_len = 512"),
])
def test_the_frequencies_readout_counts_its_pairs(window, qtbot, d, max_len, pairs, longer):
    window.controller.update(d_model=d, max_len=max_len)
    view = show_tab(window, qtbot, "frequencies")
    r = view.result
    text = view.readout.text()
    assert text.startswith(pairs) and "pairs;" not in text[:len(pairs) - 1], text
    assert "1 pairs" not in text and longer in text, text
    if d == 128:
        assert f"; {r.beyond} pairs have" in text and r.beyond > 1
        assert "longest 54,410 positions (pair 63)" in text and "e+" not in text   # 2π·10000^(126/128)
        assert r.longest == pytest.approx(2 * math.pi * 10000 ** (126 / 128))


def test_one_alibi_head_reads_in_the_singular(window, qtbot):
    window.controller.update_view("alibi", heads=1)
    view = show_tab(window, qtbot, "alibi")
    assert view.readout.text() == "1 head, slope: 1/256", view.readout.text()
    window.controller.update_view("alibi", heads=2)
    view = show_tab(window, qtbot, "alibi")
    assert view.readout.text() == "2 heads, slopes: 1/16, 1/256", view.readout.text()


@pytest.mark.parametrize("max_len, shown", [(1, "Shown: the first token only."),
                                            (3, "Shown: the first 3 tokens only.")])
def test_a_text_cut_at_max_len_names_what_is_shown(window, qtbot, max_len, shown):
    window.controller.update(text="abcdef", tokenizer="char", max_len=max_len)
    view = show_tab(window, qtbot, "tokens")
    text = view.notice.text()
    assert text.endswith(shown) and f"stops at max_len = {max_len}." in text, text
    assert view.chips.count() == max_len


def test_the_singular_texts_are_chinese_in_chinese(qtbot, settings):
    from tests.conftest import window_in

    with window_in("zh_CN", settings) as win:
        win.controller.update(text="abcdef", tokenizer="char", max_len=1, d_model=2)
        tokens = show_tab(win, qtbot, "tokens").notice.text()
        freq = show_tab(win, qtbot, "frequencies").readout.text()
        assert tokens.endswith("。当前只显示第一个词元。") and "文本有 6 个词元" in tokens, tokens   # no space
        assert freq.startswith("1 个频率对；最短波长") and "有 1 对的波长超过 max_len = 1" in freq, freq
