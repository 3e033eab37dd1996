"""What the 2026-12-05 screenshot review found in the views' text, checked in the window."""

import pyqtgraph as pg
import pytest
from PySide6.QtWidgets import QApplication


def show_tab(window, qtbot, name):
    window.tabs.setCurrentIndex(list(window.views).index(name))
    window.controller.wait_idle()
    qtbot.wait(5)
    return window.views[name]


def log_axes(view):
    for gv in view.findChildren(pg.GraphicsView):
        for item in gv.scene().items():
            if isinstance(item, pg.PlotItem) and item.getAxis("left").logMode and item.isVisible():
                yield item.getAxis("left")


def test_log_axes_carry_no_si_prefix_and_decade_labels(window, qtbot):
    """At base 10⁹ the Frequencies axis read "value (log scale) (x1e+09)": pyqtgraph's SI prefix
    took the log axis's exponents for values. The RoPE θ charts mixed "0.0001" with 10⁻⁶."""
    window.controller.update(base=1e9, d_model=8192, max_len=10_000_000)
    window.controller.update_view("frequencies", rope=True)
    window.controller.update_view("rope", page="scaling")
    checked = 0
    for name in ("frequencies", "rope", "alibi", "check"):
        view = show_tab(window, qtbot, name)
        for axis in log_axes(view):
            assert "x1e" not in axis.labelString() and "×1e" not in axis.labelString(), (name, axis.labelString())
            strings = axis.tickStrings([-4.0, 0.0, 5.0], 1.0, 1.0)
            assert strings == ["10⁻⁴", "1", "10⁵"], (name, strings)
            checked += 1
    assert checked >= 4


def test_rope_scaling_line_labels_and_the_gauge_summary_follow_the_presentation_scale(window, qtbot):
    """In F11 the L₀ / extended labels of the RoPE scaling page stayed at 1x, and the Tokens gauge's
    bold summary too (its style sheet pinned its font)."""
    window.controller.update_view("rope", page="scaling", rope_type="yarn", scale=4.0)
    window.presenter.set_scale(1.5)
    try:
        rope = show_tab(window, qtbot, "rope")
        panels = rope.panels
        labels = [line.label for line in (panels.l0_line, panels.ext_line, panels.s_l0, panels.s_ext)
                  if line.isVisible()]
        assert labels
        for label in labels:
            assert label.textItem.font().pointSizeF() == pytest.approx(QApplication.font().pointSizeF())
        tokens = show_tab(window, qtbot, "tokens")
        tokens.pages.setCurrentIndex(2)                   # the scale gauge
        window.controller.wait_idle()
        qtbot.wait(5)
        summary = tokens.gauge.summary
        assert summary.font().pointSizeF() == pytest.approx(QApplication.font().pointSizeF())
        assert summary.text().startswith("<b>") and "d_model" in summary.text()
    finally:
        window.presenter.set_scale(1.0)


def test_chinese_titles_built_from_parts_use_chinese_punctuation(qtbot, settings):
    """"每列像素含 4 个通道, 每行像素含 9 个位置" and "余弦相似度: …" joined Chinese with ASCII ", "
    and ": "; Precision's readout too ("float16: 2048; bfloat16: 256")."""
    from tests.conftest import window_in

    with window_in("zh_CN", settings) as win:
        win.controller.update(d_model=4096, max_len=8192)
        heat = show_tab(win, qtbot, "heatmap").panel.plot.titleLabel.text
        sim = show_tab(win, qtbot, "similarity").panel.plot.titleLabel.text
        precision = show_tab(win, qtbot, "precision").readout.text()
        assert "个通道，每行" in heat and ", " not in heat, heat
        assert sim.startswith("余弦相似度：") and ", " not in sim, sim
        assert "float16：" in precision and "；" in precision and "; " not in precision, precision


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_vertical_axis_label_longer_than_its_axis_wraps_inside_it(qtbot, settings, lang):
    """In F11 at 1280 x 800 the RoPE scaling page's plots are ~110 px high: "θᵢ (radians per
    position, log)" and "wavelength 2π/θᵢ (positions, log)" ran past their tops (label_room.fit_label)."""
    from tests.conftest import window_in

    with window_in(lang, settings) as win:
        win.dock.hide()
        win.presenter.set_scale(1.5)
        win.controller.update_view("rope", page="scaling", rope_type="llama3")
        wrapped = 0
        for name in win.views:
            view = show_tab(win, qtbot, name)
            for gv in view.findChildren(pg.GraphicsView):
                for axis in [i for i in gv.scene().items() if isinstance(i, pg.AxisItem)]:
                    if (axis.orientation in ("left", "right") and axis.isVisible() and axis.label.isVisible()
                            and axis.labelText):
                        along = axis.label.boundingRect().width()      # the rotated label's length
                        # (a word is never broken: "position" is 79 px on Learned's 77 px axis)
                        assert along <= 1.05 * axis.size().height() + 1, (lang, name, axis.labelText, along)
                        wrapped += axis.label.textWidth() > 0
        assert wrapped >= 2                     # the two RoPE scaling labels at least


def test_an_axis_whose_label_is_already_deleted_keeps_its_width(qtbot):
    """The window's teardown can lay out an axis after its label item is gone: the width update
    leaves it alone (pyqtgraph's own would raise RuntimeError on the dead label)."""
    import shiboken6

    import explorer.ui.views.label_room  # noqa: F401  (installs the width update)

    axis = pg.AxisItem("left")
    axis.setLabel("position p")
    axis._updateWidth()
    width = axis.maximumWidth()
    shiboken6.delete(axis.label)
    axis._updateWidth()
    axis.resizeEvent(None)                      # pyqtgraph's own resize places the label too
    assert axis.maximumWidth() == width


def test_an_axis_label_moved_by_a_resize_is_drawn_anew(qtbot, settings):
    """F11 at 1280 x 800, Offset at d_model 1, max_len 1: the bottom plot's "PE(p)·PE(p + k)" was
    blank, its cached pixmap (cache_axes) made before pyqtgraph moved it. The picture with the cache
    equals the one without."""
    from PySide6.QtWidgets import QGraphicsItem

    from tests.conftest import window_in

    with window_in("en", settings) as win:
        win.presenter.set_scale(1.5)
        win.dock.hide()
        win.controller.update(d_model=1, max_len=1)
        view = show_tab(win, qtbot, "offset")

        def settled():
            """The canvas's picture once two grabs 50 ms apart agree (the layout settles)."""
            last = None
            for _ in range(40):
                now = view.canvas.grab().toImage()
                if now == last:
                    return now
                last = now
                qtbot.wait(50)
            raise AssertionError("the canvas kept changing")

        cached = settled()
        view.dots.getAxis("left").label.setCacheMode(QGraphicsItem.CacheMode.NoCache)
        assert settled() == cached


@pytest.mark.parametrize("d, named", [(3, True), (4, False)])
def test_offsets_readout_names_the_unpaired_sine_of_an_odd_d_model(window, qtbot, d, named):
    """d 3, p = k = 4: "max error 0.00862 (float32)" was the unpaired sine, not rounding."""
    window.controller.update(d_model=d, max_len=64)
    window.controller.update_view("offset", offset=4, position=4)
    view = show_tab(window, qtbot, "offset")
    text = view.readout.text()
    assert ("odd d_model" in text) is named, text
    assert f"= {view.result.max_error:.3g} in float32" in text and view.result.max_error < 1e-6
    if named:
        assert f"off by {view.result.unpaired_gap:.3g}" in text and view.result.unpaired_gap > 1e-3
    title = view.vec.titleLabel.text
    assert ("(float32, the paired channels)" in title) is named, title


def test_the_untrained_tables_name_gives_its_width_before_its_seed(window, qtbot):
    """A narrow box elides the end: "untrained, seed 0 (d = 8…" hid d_model 8192."""
    window.controller.update(d_model=8192)
    view = show_tab(window, qtbot, "tokens")
    assert view.source_box.itemText(0) == "untrained, d = 8192, seed 0"


def test_the_one_hot_axis_names_only_the_sentences_ids(window, qtbot):
    """The one-hot picture adds each id's unused neighbours as context columns; its thinned axis
    named every 3rd-4th column from the first, so most labels were neighbours (369, 683 for 368, 682)
    and none of the five ones was labelled in Chinese. The title said "15 used ids" of 5 used."""
    window.controller.update_view("tokens", page="lookup")
    view = show_tab(window, qtbot, "tokens")
    r = view.result
    sentence = {str(int(i)) for i in r.columns[r.one_hot.any(axis=0)]}
    for axis in (view.lookup.plots[0].getAxis("bottom"), view.lookup.plots[1].getAxis("left")):
        length = axis.size().width() if axis.orientation == "bottom" else axis.size().height()
        lo, hi = sorted(axis.range)
        named = {s for step, values in axis.tickValues(lo, hi, length)
                 for s in axis.tickStrings(values, 1.0, step)}
        assert named and named <= sentence, (named, sentence)
    title = view.lookup.plots[0].titleLabel.text
    assert f"{len(r.columns)} ids:<br>the sentence's {len(sentence)} and their neighbours" in title, title


def test_token_labels_below_the_baseline_are_not_cut_at_1_5x(qtbot, settings):
    """The lesson's √d_model gauge at 1.5x: "␣for" read "..for", the open box's bottom stroke below
    the axis (pyqtgraph's height estimate is the text's height without the box's depth) and so
    below the canvas. Every label's lowest pixel lies inside its axis."""
    from PySide6.QtGui import QFontMetricsF

    from tests.conftest import window_in

    with window_in("en", settings) as win:
        win.controller.update_view("tokens", page="gauge")
        view = show_tab(win, qtbot, "tokens")
        win.presenter.set_scale(1.5)
        win.dock.hide()
        win.controller.wait_idle()
        qtbot.wait(50)
        for plot in (view.gauge.norms, view.gauge.angles):
            axis = plot.getAxis("bottom")
            assert any("␣" in t for t in axis.labels)
            metrics = QFontMetricsF(axis.style["tickFont"])
            lowest = (max(0, axis.style["tickLength"]) + axis.style["tickTextOffset"][1] + metrics.ascent()
                      + max(metrics.boundingRect(t).bottom() for t in axis.labels))
            assert lowest <= axis.height(), (lowest, axis.height())


def test_a_short_colour_bar_labels_as_many_ticks_as_fit_and_keeps_its_ends(qtbot):
    """A 40 px bar (the lesson's Learned tables at 1.5x in 1280 x 800) stacked "0.5", "0" and
    "-0.5" on top of each other. A bar labels as many ticks as fit ROOM label heights apart, at
    least its two (rounded) ends, and again when it is resized."""
    from explorer.ui.views.ranges import set_bar_levels
    from explorer.ui.views.tick_room import ROOM, label_height

    canvas = pg.GraphicsLayoutWidget()
    qtbot.addWidget(canvas)
    bar = pg.ColorBarItem(values=(-1, 1), colorMap=pg.colormap.get("CET-D1"), interactive=False)
    canvas.addItem(bar)
    canvas.resize(200, 600)
    canvas.show()
    set_bar_levels(bar, (-1.0, 1.0))

    def labels():
        return [text for _, text in bar.axis._tickLevels[0]]

    qtbot.waitUntil(lambda: len(labels()) == 5)                  # -1 ... 1 by 0.5: room for all
    for height in (60, 120):
        canvas.resize(200, height)
        qtbot.wait(50)
        room = bar.axis.size().height() / (ROOM * label_height(bar.axis))
        assert 2 <= len(labels()) <= max(2, int(room) + 1), (height, labels())
    canvas.resize(200, 60)
    qtbot.waitUntil(lambda: labels() == ["-1", "1"])
