"""The check view's reference and difference panels when nothing fits the data: they had been bare 0..1
axes (with a -1..1 colour bar) under "no reference"; each now says in its middle why it holds nothing."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtWidgets import QApplication

from explorer.compute import check as check_data
from tests.conftest import window_in
from tests.test_ui_check import fresh_cache, rope_cos_cache  # noqa: F401 - the fixture


def _show(window, array, kind):
    token = check_data.remember_array(array, "noise")
    window.check_actions.show_source(token, kind)
    assert window.controller.wait_idle()
    QApplication.processEvents()                # the layout of the panels, with their axes hidden or shown
    view = window.views["check"]
    view.grab()              # painted: a TextItem undoes the view's scaling as it paints (its place on screen)
    return view


def _note(plot: pg.PlotItem) -> str:
    """The text a panel shows in its middle ("" when none is shown), after checking that it is in the middle."""
    shown = [item for item in plot.items if isinstance(item, pg.TextItem) and item.isVisible()]
    if not shown:
        return ""
    (item,) = shown
    box, at = plot.vb.sceneBoundingRect(), item.sceneBoundingRect()
    assert box.contains(at), (box, at)                              # all of it inside the panel, not clipped
    assert abs(at.center().x() - box.center().x()) < 2 and abs(at.center().y() - box.center().y()) < 2
    return item.textItem.toPlainText()


def _axes_shown(plot: pg.PlotItem) -> bool:
    return plot.getAxis("left").isVisible() or plot.getAxis("bottom").isVisible()


NOISE = np.random.default_rng(0).normal(size=(60, 32))     # a "cache" no two columns of which share a frequency


def test_panels_without_a_reference_say_so_instead_of_bare_axes(window):
    view = _show(window, NOISE, "rope_cache")
    assert view.result.reference is None and view.result.difference is None
    assert view.stack.currentWidget() is view.canvas
    assert _note(view.ref.plot) == "your data fits\nno known table"
    assert _note(view.diff.plot) == "nothing to compare:\nno reference fits\nyour data"
    for panel in (view.ref, view.diff):
        assert not _axes_shown(panel.plot) and not panel.bar.isVisible()
    assert _note(view.mine.plot) == "" and _axes_shown(view.mine.plot) and view.mine.bar.isVisible()

    view = _show(window, rope_cos_cache(), "")                      # a right cache: the panels draw again
    assert view.result.match
    for panel in (view.ref, view.diff):
        assert _note(panel.plot) == "" and _axes_shown(panel.plot) and panel.bar.isVisible()
        assert panel.plot.vb.viewRange()[0] == pytest.approx([0, 32])    # its own extent, not the note's 0..1

    vector = np.r_[-0.5, np.geomspace(1.0, 1e-4, 31)]             # an inv_freq with a negative value
    view = _show(window, vector, "inv_freq")
    assert view.stack.currentWidget() is view.curves_canvas and view.result.reference is None
    assert _note(view.diff_plot) == "nothing to compare:\nno reference fits\nyour data"
    assert not _axes_shown(view.diff_plot)
    view = _show(window, 1.0 / 10000 ** (np.arange(32) / 32), "inv_freq")
    assert view.result.match and _note(view.diff_plot) == "" and _axes_shown(view.diff_plot)


def test_in_chinese_the_empty_panels_speak_chinese(qtbot, settings):
    with window_in("zh_CN", settings) as win:
        view = _show(win, NOISE, "rope_cache")
        assert _note(view.ref.plot) == "你的数据不符合\n任何已知的表"
        assert _note(view.diff.plot) == "没有可比较的：\n没有与你的数据\n相符的参考表"


@pytest.mark.parametrize("lang, ref_note, diff_note, readout", [
    ("en", "all zeros: equals\nevery table × 0,\nnone is chosen", "nothing to compare:\nno reference is chosen\n"
     "for all zeros", "no reference: your data is all zeros, which equals every table times 0, so none is chosen"),
    ("zh_CN", "全为 0：等于\n任何表乘以 0，\n不选定参考表", "没有可比较的：\n全为 0 时\n不选定参考表",
     "没有参考表：你的数据全为 0，等于任何表乘以 0，因此不选定参考表")])
def test_all_zeros_are_said_to_equal_every_table_times_0_not_to_fit_none(qtbot, settings, lang, ref_note,
                                                                          diff_note, readout):
    """Zeros equal any table times 0 (the check refuses that fit): the panels said "your data fits no known
    table" and "no reference fits your data"."""
    with window_in(lang, settings) as win:
        view = _show(win, np.zeros((60, 32)), "")
        assert [m.id for m in view.result.mistakes] == ["all_zero"]
        assert _note(view.ref.plot) == ref_note and _note(view.diff.plot) == diff_note
        assert view.readout.text().startswith(readout)
        view = _show(win, np.zeros(16), "inv_freq")
        assert view.stack.currentWidget() is view.curves_canvas and _note(view.diff_plot) == diff_note
        assert view.readout.text().startswith(readout)
        view = _show(win, NOISE, "rope_cache")                  # data that fits nothing: as before
        assert _note(view.ref.plot) != ref_note and _note(view.diff.plot) != diff_note


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_one_frequency_for_every_pair_says_there_is_no_base_not_off_by_0(qtbot, settings, lang):
    """inv_freq from integer division (every exponent 0): the slip explains it exactly, but there is no base to
    draw a reference from. The panel said "no reference fits your data", the formula line "no reference fits;
    the nearest fit is off by 0" and the command line "base 1"."""
    from explorer.commands.check import report
    from explorer.compute.formulas_views import check_lines

    want = {"en": ("nothing to compare:\nno base to draw\na reference from", "no reference: every pair turns at the "
                   "same frequency, so there is no base to draw the right inv_freq from", "every pair of T turns at "
                   "one frequency: there is no base to read, so no reference R"),
            "zh_CN": ("没有可比较的：\n没有 base\n可用来画参考", "没有参考：每一对都以相同的频率旋转，因此没有 base "
                      "可用来画出正确的 inv_freq", "T 的每一对都以同一个频率旋转：读不出 base，因此没有参考 R")}[lang]
    with window_in(lang, settings) as win:
        view = _show(win, np.full(16, 0.5), "inv_freq")
        r = view.result
        assert [m.id for m in r.mistakes] == ["constant_freq"] and r.reference is None and r.max_error == 0
        assert _note(view.diff_plot) == want[0] and view.readout.text().startswith(want[1])
        assert _legend(view) == [view.tr("yours")]                   # no empty "reference" entry
        assert check_lines(win.controller.params, lang, win.controller.state.views["check"])[-1] == want[2]
        text = report(r, "w.npy", lang=lang)
        assert "constant_freq" in text and "base  " not in text      # no "base 1" beside "no base to read"
        view = _show(win, 1.0 / 10000 ** (np.arange(16) / 16), "inv_freq")     # a reference again: named first
        assert view.result.match and _legend(view) == [view.tr("reference"), view.tr("yours")]


def _legend(view) -> list[str]:
    return [label.text for _, label in view.freq_plot.legend.items]
