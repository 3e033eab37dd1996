"""Axes of whole things (positions, channels, offsets, heads' keys and queries) carry whole ticks only:
at max_len 2 the heatmap read "position 0.1 ... 1.9" and Distance "distance k 0.2 ... 0.8"."""

import dataclasses

import numpy as np
import pyqtgraph as pg
import pytest

WHOLE_LABELS = {"position", "position p", "position q", "channel", "channel (dimension index)",
                "offset k", "offset k = q − p", "distance k", "key j", "query i", "m − n",
                "concat channel", "interleaved channel", "rotate-half channel", "frequency pair i",
                "RoPE pair i"}


def ticks(axis: pg.AxisItem) -> np.ndarray:
    """The numbers of every tick label the axis draws at its present range and length (labels
    read back: an image's cell axis puts label i on the cell's centre, i + 1/2)."""
    length = axis.size().width() if axis.orientation in ("top", "bottom") else axis.size().height()
    lo, hi = sorted(axis.range)
    out = []
    for spacing, values in axis.tickValues(lo, hi, length):
        out += [float(s.replace("−", "-")) for s in axis.tickStrings(list(values), 1.0, spacing)]
    return np.asarray(out)


@pytest.mark.parametrize("d_model, max_len", [(16, 2), (3, 5), (1, 1)])
def test_axes_of_whole_things_have_whole_ticks_at_small_sizes(window, qtbot, d_model, max_len):
    """max_len 2, 5 and 1 at d_model 16, 3 and 1 (Tokens' channels read 0.2 ... 0.8, Frequencies'
    pairs 0.5 ... 2.5), with no SI prefix ("channel (x0.001)" at d_model 1)."""
    window.controller.set_params(dataclasses.replace(window.controller.state.params, max_len=max_len,
                                                     d_model=d_model))
    seen = set()
    for name in ("heatmap", "curves", "similarity", "tokens", "conventions", "offset", "frequencies",
                 "rope", "alibi", "distance", "precision"):
        window.tabs.setCurrentIndex(list(window.views).index(name))
        window.controller.wait_idle()
        qtbot.wait(5)
        for gv in window.views[name].findChildren(pg.GraphicsView):
            for axis in [i for i in gv.scene().items() if isinstance(i, pg.AxisItem)]:
                if axis.labelText in WHOLE_LABELS and axis.isVisible() and axis.size().width() > 0:
                    assert "(x" not in axis.labelString(), (name, axis.labelString())
                    values = ticks(axis)
                    assert values.size and np.all(values == np.round(values)), (name, axis.labelText, values)
                    seen.add((name, axis.labelText))
    # the axes that showed fractions before
    assert {("heatmap", "position"), ("similarity", "position p"), ("similarity", "offset k = q − p"),
            ("conventions", "position"), ("alibi", "key j"), ("distance", "distance k"),
            ("curves", "position p"), ("offset", "offset k"), ("rope", "position"),
            ("tokens", "channel"), ("frequencies", "frequency pair i")} <= seen


def test_whole_steps_leave_an_axis_of_many_positions_as_it_was(qtbot):
    """Where pyqtgraph's steps are whole already (0 ... 4096), the ticks are the same as before."""
    from explorer.ui.views.tick_room import whole_steps

    plain, whole = pg.PlotWidget(), pg.PlotWidget()
    for w in (plain, whole):
        qtbot.addWidget(w)
        w.resize(600, 400)
        w.setXRange(0, 4096, padding=0)
        w.show()
    whole_steps(whole.getAxis("bottom"))
    qtbot.wait(10)
    a, b = plain.getAxis("bottom"), whole.getAxis("bottom")
    assert a.tickValues(0, 4096, 500) == b.tickValues(0, 4096, 500)
    assert [s for s, _ in b.tickSpacing(0, 2, 500)] == [1.0]          # was 0.5 / 0.1
    assert [s for s, _ in a.tickSpacing(0, 2, 500)][0] < 1


def test_the_similarity_profiles_label_names_the_pairs_of_the_d_model_shown(window, qtbot):
    """"f(k) / 64" stayed after d_model 128 -> 8: the label was renewed only with max_len."""
    window.tabs.setCurrentIndex(list(window.views).index("similarity"))
    for d, pairs in ((8, 4), (2048, 1024), (128, 64)):
        window.controller.update(d_model=d)
        window.controller.wait_idle()
        qtbot.wait(5)
        label = window.views["similarity"].profile.getAxis("left").labelText
        assert label == f"f(k) / {pairs} (1 at k = 0)", (d, label)


def test_an_images_ticks_sit_on_its_cells_centres(window, qtbot):
    """max_len 5, d_model 3: the heatmap's cell p spans [p, p + 1); its ticks read 0 ... 4 at
    p + 1/2 (they read 0 ... 5 on the cells' edges: a "5" on the bottom edge, no position 5)."""
    window.controller.update(d_model=3, max_len=5)
    window.tabs.setCurrentIndex(list(window.views).index("heatmap"))
    window.controller.wait_idle()
    qtbot.wait(5)
    plot = window.views["heatmap"].panel.plot
    for side, count in (("left", 5), ("bottom", 3)):
        axis = plot.getAxis(side)
        lo, hi = sorted(axis.range)
        values = [v for _, vs in axis.tickValues(lo, hi, 400) for v in vs]
        assert sorted(values) == [i + 0.5 for i in range(count)], (side, values)
        assert sorted(ticks(axis)) == list(range(count))
    # the Offset and Real RoPE images are drawn from -1/2: their ticks stay on whole numbers
    window.tabs.setCurrentIndex(list(window.views).index("offset"))
    window.controller.wait_idle()
    qtbot.wait(5)
    axis = window.views["offset"].rot.plot.getAxis("bottom")
    lo, hi = sorted(axis.range)
    assert all(float(v).is_integer() for _, vs in axis.tickValues(lo, hi, 400) for v in vs)


def test_the_tokens_channel_axes_tick_on_their_cells_centres(window, qtbot):
    """Tokens draws its own images from 0: at d_model 4 its channel axes read 0 ... 4, a "4" under
    the right edge (no channel 4)."""
    window.controller.update(d_model=4)
    window.tabs.setCurrentIndex(list(window.views).index("tokens"))
    window.controller.wait_idle()
    qtbot.wait(5)
    channel_axes = [a for gv in window.views["tokens"].findChildren(pg.GraphicsView) if gv.isVisible()
                    for a in gv.scene().items() if isinstance(a, pg.AxisItem)
                    and a.labelText == "channel" and a.isVisible()]
    assert channel_axes
    for axis in channel_axes:
        assert sorted(ticks(axis)) == [0, 1, 2, 3], axis.labelText


def test_a_centred_axis_keeps_the_tick_step_of_its_labels(qtbot):
    """The room per label is measured on the labels drawn ("20000"), not on the centres ("19999.5"):
    Layouts' 190 px "position q" axis at max_len 19999 stepped 10000 where 5000 fits."""
    from explorer.ui.views.tick_room import cell_centres

    plots = [pg.PlotWidget() for _ in range(2)]
    for w in plots:
        qtbot.addWidget(w)
        w.resize(300, 200)
        w.show()
    cell_centres(plots[1].getAxis("bottom"), True)
    qtbot.wait(10)
    plain, centred = (w.getAxis("bottom") for w in plots)
    for hi in (19999, 29999, 99999):
        assert [s for s, _ in centred.tickSpacing(0 - 0.5, hi - 0.5, 190)] == \
            [s for s, _ in plain.tickSpacing(0, hi, 190)], hi
