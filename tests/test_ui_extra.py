"""The beyond-the-paper views: built directly, fed results, driven through their own controls."""

import numpy as np
from PySide6.QtCore import Qt

from explorer import compute_extra as ce
from explorer.params import Params
from explorer.ui.views.extra import EXTRA_VIEWS, tab_title


def make(qtbot, name, params=None):
    view = EXTRA_VIEWS[name][0]()
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    view.set_result(view.compute_fn(params or Params()))
    return view


def painted(view) -> np.ndarray:
    img = view.canvas.grab().toImage()
    ptr = img.constBits()
    return np.array(ptr, dtype=np.uint8).reshape(img.height(), img.bytesPerLine())


def test_every_view_draws_and_explains(qtbot):
    assert list(EXTRA_VIEWS) == ["conventions", "offset", "frequencies", "rope", "alibi",
                                 "distance", "precision"]
    for name in EXTRA_VIEWS:
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
    assert "max |diff| = 0 " in text and "t2t" in text
    before = view.diff.image.image.copy()
    view.set_result(view.compute_fn(Params(d_model=16)))
    assert view.readout.text() != text
    assert view.diff.image.image.shape == before.shape and not np.allclose(view.diff.image.image, before)
    assert view.perm.image.image.shape == (16, 16)


def test_offset_controls_change_picture(qtbot):
    view = make(qtbot, "offset")
    rot0 = view.rot.image.image.copy()
    view.k_box.setValue(3)
    assert view.result.state.offset == 3 and view.compute_fn.keywords["state"].offset == 3
    assert not np.allclose(view.rot.image.image, rot0)
    assert "k = 3" in view.rot.plot.titleLabel.text
    x, y = view.shifted.getData()
    assert np.allclose(y, ce.offset(Params(), ce.OffsetState(3, 10)).shifted)
    view.p_box.setValue(50)
    assert view.result.state.position == 50 and 50 in view.result.ps
    # a shorter table pulls p and k back into range
    view.set_result(view.compute_fn(Params(max_len=20)))
    assert view.p_box.maximum() == 19 and view.result.state.position == 19


def test_frequencies_live_with_base(qtbot):
    view = make(qtbot, "frequencies")
    text = view.readout.text()
    view.set_result(view.compute_fn(Params(base=100.0)))
    assert view.readout.text() != text
    x, y = view.l_curve.getOriginalDataset()
    assert np.allclose(y, 2 * np.pi * 100.0 ** (np.arange(0, 128, 2) / 128))


def test_rope_controls(qtbot):
    view = make(qtbot, "rope")
    q0 = view.q_img.image.image.copy()
    view.pair_box.setCurrentIndex(view.pair_box.findData("half"))
    assert view.result.state.pairing == "half"
    assert not np.allclose(view.q_img.image.image, q0)
    view.head_box.setValue(17)                         # odd: RoPE needs pairs
    assert view.result.state.head_dim == 18 and view.head_box.value() == 18
    assert view.perm.image.image.shape == (18, 18)
    _, ext0 = view.variant_items["interpolation"].getData()
    view.scale_box.setValue(8.0)
    _, ext1 = view.variant_items["interpolation"].getData()
    assert view.result.state.scale == 8.0 and len(ext1) and not np.array_equal(ext0, ext1)
    assert view.variant_items["ntk"].isVisible()


def test_alibi_heads_and_causal(qtbot):
    view = make(qtbot, "alibi")
    assert "1/2, 1/4" in view.readout.text() and "1/256" in view.readout.text()
    view.heads_box.setValue(2)
    x, y = view.slope_curve.getOriginalDataset()
    assert len(x) == 2 and np.allclose(y, [2 ** -4, 2 ** -8])
    assert view.panels[0].plot.isVisible() and not view.panels[2].plot.isVisible()
    assert not np.isnan(view.panels[0].image.image).any()
    qtbot.mouseClick(view.controls.itemAt(2).widget(), Qt.MouseButton.LeftButton)
    assert view.result.state.causal and np.isnan(view.panels[0].image.image).any()


def test_distance_controls(qtbot):
    view = make(qtbot, "distance")
    _, a0 = view.items["alibi"].getData()
    view.heads_box.setValue(2)
    assert view.alibi_box.maximum() == 1
    view.alibi_box.setValue(1)
    _, a1 = view.items["alibi"].getData()
    assert view.result.state.alibi_head == 1 and not np.allclose(a0, a1)
    view.base_box.setValue(500.0)
    assert view.result.state.rope_base == 500.0
    learned = view.items["learned"]
    if isinstance(ce.learned_curve(), str):
        assert not learned.isVisible() and "pip install" in view.readout.text()
    else:
        assert learned.isVisible()
    box = [view.controls.itemAt(i).widget() for i in range(view.controls.count())
           if view.controls.itemAt(i).widget() is not None][-1]
    box.setChecked(False)
    assert not view.items["learned"].isVisible() and not view.result.state.learned


def test_precision_span_and_grey_region(qtbot):
    view = make(qtbot, "precision")
    assert not view.region.isVisible()                 # max_len 256 < train max_len 512
    view.span_box.setCurrentIndex(view.span_box.findData(4096))
    assert view.result.span == 4096 and view.region.isVisible()
    assert view.region.getRegion() == (512, 4096)
    assert "bfloat16: 256" in view.readout.text()
    view.train_box.setValue(1000)
    assert view.region.getRegion() == (1000, 4096)


def test_stale_worker_result_is_recomputed(qtbot):
    view = make(qtbot, "offset")
    old = ce.offset(Params(base=500.0), ce.OffsetState(offset=16, position=10))
    view.k_box.setValue(5)
    view.set_result(old)                    # computed by the worker before k moved
    assert view.result.state.offset == 5 and view.result.params.base == 500.0


def test_redraw_after_control_change_is_quick(qtbot):
    """A moved control: compute (uncached) + draw, at default size; grab time excluded."""
    import time
    view = make(qtbot, "rope")
    times = []
    for i in range(8):
        t = time.perf_counter()
        view.base_box.setValue(2000.0 + 100 * i)
        times.append(time.perf_counter() - t)
    assert sorted(times)[4] < 0.0167 * 2


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
