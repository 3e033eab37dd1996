"""The beyond-the-paper views: fed by a real controller, driven through their own controls."""

import dataclasses
import re
import threading

import numpy as np
import pytest
from PySide6.QtCore import Qt

from explorer import catalogue
from explorer.params import Params
from explorer.state import State
from explorer.ui.controller import Controller
from explorer.ui.views.registry import VIEW_CLASSES, tab_title
from tests import compute_ns as ce

EXTRA = ["conventions", "offset", "frequencies", "rope", "alibi", "distance", "precision"]


def make(qtbot, name, params=None):
    """The view `name` with a controller of its own: its controls write the State, the worker
    computes, the view draws (the main window's wiring, for one view)."""
    view = VIEW_CLASSES[name]()
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    c = Controller({name: view}, State(params=params or Params()))
    view.state_edited.connect(lambda changes: c.update_view(name, **changes))
    c.state_changed.connect(lambda old, new: view.show_state(new.views[name], new.params))
    view.controller = c
    c.set_visible([name])
    assert c.wait_idle()
    return view


def step(view, action=None):
    """Do `action` (a control change), then wait until the worker's result is drawn."""
    if action is not None:
        action()
    assert view.controller.wait_idle()


def painted(view) -> np.ndarray:
    img = view.canvas.grab().toImage()
    ptr = img.constBits()
    return np.array(ptr, dtype=np.uint8).reshape(img.height(), img.bytesPerLine())


def test_every_view_draws_and_explains(qtbot):
    assert list(catalogue.NAMES)[5:5 + len(EXTRA)] == EXTRA     # later views are appended after
    for name in EXTRA:
        view = make(qtbot, name)
        assert view.explain.text() and view.readout.text().strip()
        assert view.result is not None and view.result.params == Params()
        pix = painted(view)
        assert pix.std() > 10, name                      # not a blank canvas
        assert tab_title(name)
        view.set_colormap("CET-D2")
        view.set_line_scale(1.5)


def test_conventions_check_line_follows_params(qtbot):
    view = make(qtbot, "conventions")
    text = view.readout.text()
    concat_diff = float(re.search(r"max \|diff\| = (\S+) ", text).group(1))    # from the tables
    assert 0 <= concat_diff < 1e-12 and "table check 0)" in text and "t2t" in text
    before = view.diff.image.image.copy()
    step(view, lambda: view.controller.update(d_model=16))
    assert view.readout.text() != text
    assert view.diff.image.image.shape == before.shape and not np.allclose(view.diff.image.image, before)
    assert view.perm.image.image.shape == (16, 16)
    assert "each pixel is a mean" not in view.readout.text()         # 16 x 256: every cell drawn
    step(view, lambda: view.controller.update(d_model=1024, max_len=8192))
    r = view.result
    assert r.ch_step > 1 and r.comparison.step > 1
    assert (f"PE over {r.ch_step} channels × {r.pos_step} positions, S over {r.comparison.step} × "
            f"{r.comparison.step} positions") in view.readout.text()


def test_offset_controls_change_picture(qtbot):
    view = make(qtbot, "offset")
    rot0 = view.rot.image.image.copy()
    step(view, lambda: view.k_box.setValue(3))
    assert view.result.state.offset == 3 and view.controller.state.views["offset"].offset == 3
    assert not np.allclose(view.rot.image.image, rot0)
    assert "k = 3" in view.rot.plot.titleLabel.text
    x, y = view.shifted.getData()
    assert np.allclose(y, ce.offset(Params(), ce.OffsetState(3, 10)).shifted)
    step(view, lambda: view.p_box.setValue(50))
    assert view.result.state.position == 50 and 50 in view.result.ps
    # a shorter table pulls p and k back into range
    step(view, lambda: view.controller.update(max_len=20))
    assert view.p_box.maximum() == 19 and view.result.state.position == 19


def test_offset_rotation_cells_sit_on_their_ticks(qtbot):
    """R(k)'s cell (i, j) is centred on channel ticks i and j, as in the value plot beside it: the
    picture spans -0.5 .. c - 0.5 and so does the view (the rows had sat half a cell off)."""
    view = make(qtbot, "offset")
    c = view.result.rotation.shape[0]
    rect = view.rot.image.mapRectToParent(view.rot.image.boundingRect())
    assert (rect.left(), rect.top(), rect.width(), rect.height()) == (-0.5, -0.5, c, c)
    (x0, x1), (y0, y1) = view.rot.plot.viewRange()
    assert (x0, x1) == pytest.approx((-0.5, c - 0.5)) and (y0, y1) == pytest.approx((-0.5, c - 0.5))


def test_frequencies_live_with_base(qtbot):
    view = make(qtbot, "frequencies")
    text = view.readout.text()
    step(view, lambda: view.controller.update(base=100.0))
    assert view.readout.text() != text
    x, y = view.l_curve.getData()                     # log10 of the values: the chart's y axis is logarithmic
    assert np.allclose(10 ** y, 2 * np.pi * 100.0 ** (np.arange(0, 128, 2) / 128))


def test_rope_controls(qtbot):
    view = make(qtbot, "rope")
    q0 = view.q_img.image.image.copy()
    step(view, lambda: view.pair_box.setCurrentIndex(view.pair_box.findData("half")))
    assert view.result.state.pairing == "half"
    assert not np.allclose(view.q_img.image.image, q0)
    step(view, lambda: view.head_box.setValue(17))     # odd: RoPE needs pairs
    assert view.result.state.head_dim == 18 and view.head_box.value() == 18
    assert view.perm.image.image.shape == (18, 18)
    x0, _ = view.variant_items["interpolation"].getData()
    step(view, lambda: view.scale_box.setValue(8.0))
    x1, _ = view.variant_items["interpolation"].getData()
    n = view.result.params.max_len
    assert view.result.state.scale == 8.0 and len(x1)
    assert x0[-1] < 4 * n <= x0[-1] + (x0[1] - x0[0]) and x1[-1] < 8 * n <= x1[-1] + (x1[1] - x1[0])
    assert view.variant_items["ntk"].isVisible()


def test_alibi_heads_and_causal(qtbot):
    view = make(qtbot, "alibi")
    assert "1/2, 1/4" in view.readout.text() and "1/256" in view.readout.text()
    step(view, lambda: view.heads_box.setValue(2))
    x, y = view.slope_curve.getData()                     # log10(m_h) on the log axis
    assert len(x) == 2 and np.allclose(10 ** y, [2 ** -4, 2 ** -8])
    dx, dy = view.slope_dots.getData()
    np.testing.assert_array_equal(dx, x)
    np.testing.assert_array_equal(dy, y)
    assert view.panels[0].plot.isVisible() and not view.panels[2].plot.isVisible()
    assert not np.isnan(view.panels[0].image.image).any()
    # the bar reaches a nice end past -m (n - 1) and names it (it stopped at -100 for -127.5)
    n, m = view.result.params.max_len, 2 ** -4
    lo, hi = view.panels[0].image.levels
    assert hi == 0 and lo <= -m * (n - 1) < 0.75 * lo
    assert view.panels[0].bar.axis._tickLevels[0][0][0] == pytest.approx(lo)
    step(view, lambda: qtbot.mouseClick(view.controls.itemAt(2).widget(), Qt.MouseButton.LeftButton))
    assert view.result.state.causal and np.isnan(view.panels[0].image.image).any()


def test_alibi_slope_axis_rounds_the_head_count_up(qtbot):
    view = make(qtbot, "alibi")
    axis = view.slope_plot.getAxis("bottom")
    step(view, lambda: view.heads_box.setValue(12))
    x, _ = view.slope_dots.getData()
    lo, hi = view.slope_plot.viewRange()[0]
    assert len(x) == 12 and lo < -0.4 and 11.4 < hi < 12    # 12 heads fill it: heads 0 .. 11
    assert [v for v, _ in axis._tickLevels[0]] == list(range(12))
    step(view, lambda: view.heads_box.setValue(13))          # 13 .. 16 share an axis of 16 heads
    view.grab()                                              # the axis is drawn: its picture kept
    drawn = axis.picture
    assert drawn is not None and 15.4 < view.slope_plot.viewRange()[0][1] < 16
    for heads in (14, 16, 15):
        step(view, lambda h=heads: view.heads_box.setValue(h))
        view.grab()
        assert axis.picture is drawn, heads
        assert len(view.slope_dots.getData()[0]) == heads
        # a line only through slopes that fall head by head: 16 (a power of 2) do; 14 and 15 interleave two series
        assert len(view.slope_curve.getData()[0]) == (16 if heads == 16 else 0)
    step(view, lambda: view.heads_box.setValue(17))          # past 16: multiples of 8
    view.grab()
    assert axis.picture is not drawn and 23.4 < view.slope_plot.viewRange()[0][1] < 24.5
    assert [v for v, _ in axis._tickLevels[0]] == list(range(0, 24, 2))
    step(view, lambda: view.heads_box.setValue(3))           # up to 4 heads: exact
    assert 2.4 < view.slope_plot.viewRange()[0][1] < 3


def test_distance_controls(qtbot):
    view = make(qtbot, "distance")
    _, a0 = view.items["alibi"].getData()
    step(view, lambda: view.heads_box.setValue(2))
    assert view.alibi_box.maximum() == 1
    step(view, lambda: view.alibi_box.setValue(1))
    _, a1 = view.items["alibi"].getData()
    assert view.result.state.alibi_head == 1 and not np.allclose(a0, a1)
    step(view, lambda: view.base_box.setValue(500.0))
    assert view.result.state.rope_base == 500.0
    learned = view.items["learned"]
    if isinstance(ce.learned_curve(), str):
        assert not learned.isVisible() and "pip install" in view.readout.text()
    else:
        assert learned.isVisible()
    box = [view.controls.itemAt(i).widget() for i in range(view.controls.count())
           if view.controls.itemAt(i).widget() is not None][-1]
    step(view, lambda: box.setChecked(False))
    assert not view.items["learned"].isVisible() and not view.result.state.learned


def test_precision_span_and_grey_region(qtbot):
    view = make(qtbot, "precision")
    assert view.result.span == 4096 and "bfloat16: 256" in view.readout.text()   # shown by default
    step(view, lambda: view.span_box.setCurrentIndex(view.span_box.findData(0)))
    assert view.result.span == 256 and not view.region.isVisible()   # max_len 256 < train max_len 512
    step(view, lambda: view.span_box.setCurrentIndex(view.span_box.findData(4096)))
    assert view.result.span == 4096 and view.region.isVisible()
    assert view.region.getRegion() == (512, 4096)
    assert "bfloat16: 256" in view.readout.text()
    step(view, lambda: view.train_box.setValue(1000))
    assert view.region.getRegion() == (1000, 4096)


def test_stale_worker_result_is_dropped(qtbot):
    view = make(qtbot, "offset")
    old = ce.offset(Params(base=500.0), ce.OffsetState(offset=16, position=10))
    step(view, lambda: view.k_box.setValue(5))
    c = view.controller
    c._signals.done.emit(view.generation - 1, {"offset": old})   # computed before k moved
    assert view.result.state.offset == 5 and view.result.params.base == 10000.0


def test_own_controls_compute_on_the_worker_not_the_gui_thread(qtbot, monkeypatch):
    view = make(qtbot, "rope")
    threads = []
    entry = catalogue.VIEWS["rope"]
    real = entry.compute

    def spy(*args):
        threads.append(threading.current_thread())
        return getattr(real, "__wrapped__", real)(*args)     # rope_view: its caches are inside

    monkeypatch.setitem(catalogue.VIEWS, "rope", dataclasses.replace(entry, compute=spy))
    for i in range(3):
        step(view, lambda i=i: view.base_box.setValue(2000.0 + 100 * i))
    assert view.result.state.base == 2200.0
    assert len(threads) == 3 and threading.main_thread() not in threads


def test_offset_markers_sit_on_the_first_curve_and_stay_in_range(qtbot):
    view = make(qtbot, "offset", Params(max_len=1000, d_model=64))
    r = view.result
    line_x, line_y = view.dot_items[0].getData()
    np.testing.assert_array_equal(line_y, r.dots[0])
    (y0, y1) = view.dots.getViewBox().viewRange()[1]
    for item, dots in zip(view.dot_items[1:], r.dots[1:]):
        x, y = item.getData()
        assert 10 <= len(x) <= 48 and item.isVisible()
        np.testing.assert_allclose(y, np.interp(x, line_x, line_y), atol=1e-9)  # on the line
        assert y0 <= y.min() and y.max() <= y1
    odd = make(qtbot, "offset", Params(max_len=1000, d_model=7))     # unpaired sine: p matters
    x, y = odd.dot_items[1].getData()
    lx, ly = odd.dot_items[0].getData()
    assert np.max(np.abs(y - np.interp(x, lx, ly))) > 1e-3


def _drawn_rgb(widget) -> np.ndarray:
    """The widget as painted, (h, w, 3) RGB ints."""
    from PySide6.QtGui import QImage

    image = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    raw = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine() // 4, 4)
    return raw[:, :image.width(), 2::-1].astype(int)                  # BGRA bytes -> RGB


def _pixels_of(rgb: np.ndarray, colour: str, tol: int = 40) -> int:
    want = np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)])
    return int((np.abs(rgb - want).max(axis=2) < tol).sum())


def test_both_of_the_offset_markers_and_precisions_exact_line_are_seen(qtbot):
    """Where two series agree (the lesson of both views) the one drawn first was hidden: Offset's
    filled PE(p + k) dots lay under R(k)·PE(p)'s crosses (~4 blue pixels a marker), Precision's
    exact line under float32's (a band 0.5 px wider). Now a ring with the cross inside it, and grey
    dots float32's line runs through."""
    from explorer.ui.views.panel_view import PALETTE

    view = make(qtbot, "offset")
    step(view, lambda: view.k_box.setValue(16))
    r = view.vec.sceneBoundingRect()
    panel = _drawn_rgb(view.canvas)[int(r.top()):int(r.bottom()), int(r.left()):int(r.right())]
    markers = len(view.shifted.getData()[0])
    assert markers == 128
    assert _pixels_of(panel, PALETTE[0]) >= 20 * markers                # the rings
    assert _pixels_of(panel, PALETTE[1]) >= 2 * markers                 # the crosses inside them
    from explorer.ui.views.precision import EXACT_GREY

    precision = make(qtbot, "precision")
    rgb = _drawn_rgb(precision.canvas)
    marks = len(precision.exact.getData()[0])
    assert marks >= 30 and _pixels_of(rgb, EXACT_GREY, 12) >= 25 * marks    # the dots float32 runs through


def test_heatmap_colour_bar_names_what_it_colours(qtbot):
    """The Heatmap has no title: its colour bar says the colours are PE values (visual review)."""
    view = VIEW_CLASSES["heatmap"]()
    qtbot.addWidget(view)
    view.show()
    axis = view.panel.bar.axis
    assert axis.labelText == "PE value" and axis.label.isVisible()
