"""Found by a visual review with a T5 open: the Tokens view's gauge drew an empty 0-90° angle plot (nothing is added,
every angle is 0) under the tab "Scale gauge: why √d_model" (BLOOM's too); the ALiBi view spelled one quantity three
ways (query i / key j and b_h(bucket(j − i)) on the images, bucket(n − m) in the formula, m − n on the curve's axis);
its causal box stayed enabled over an encoder that masks nothing; its bias images showed a single x tick at
1280 x 800. Each checked in the real window against transformers' own T5Attention.compute_bias."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtGui import QImage, QPainter

from explorer.ui.views.span_ticks import span_values
from tests import models_helpers as mh
from tests.conftest import window_in
from tests.test_models_t5 import build_t5
from tests.test_ui_models import gpt2, open_and_wait, show  # noqa: F401 (gpt2: a fixture)

pytest.importorskip("transformers")
torch = pytest.importorskip("torch")


def gauge(window):
    """The Tokens view on its gauge page, drawn."""
    window.controller.update_view("tokens", page="gauge")
    view = show(window, "tokens")
    window.controller.wait_idle()
    return view


def test_the_gauge_of_a_model_that_adds_nothing_says_so_on_its_angle_plot(window, tmp_path):
    from tests.test_models_bloom import _build as build_bloom

    build_t5(tmp_path / "t5", encoder_only=True)
    build_bloom(tmp_path / "bloom", heads=4)
    window.controller.update(text=mh.TEXT)
    view = gauge(window)                                  # the untrained table: the paper's question, its angles
    assert view.pages.tabText(2) == "Scale gauge: why √d_model"
    assert not view.gauge.angle_note.text.isVisible() and view.gauge.angles.getAxis("left").isVisible()
    open_and_wait(window, tmp_path / "t5")
    view = gauge(window)
    r, note = view.result, view.gauge.angle_note
    assert r.position == "relative" and np.nanmax(r.angle_scaled) < 1e-3     # nothing added: every angle 0
    assert "√d_model" not in view.pages.tabText(2) and view.pages.tabText(2) == "Scale gauge: no position added to X"
    words = note.text.textItem.toPlainText()
    assert note.text.isVisible() and words.startswith("T5 adds no position to X:")
    assert "the angle is 0 for every token" in words and "as a bias\non the attention logits" in words
    assert not view.gauge.angles.getAxis("left").isVisible()                 # no empty 0-90° grid
    assert not view.gauge.angles.getAxis("bottom").isVisible()
    open_and_wait(window, tmp_path / "bloom")                    # BLOOM adds nothing either (X = LayerNorm(E))
    view = gauge(window)
    assert view.result.position == "alibi" and view.pages.tabText(2) == "Scale gauge: no position added to X"
    assert "An ALiBi model adds no position to X" in view.gauge.angle_note.text.textItem.toPlainText()
    mh.build("llama", tmp_path / "llama", seed=5)                # RoPE: nothing added at the input either
    open_and_wait(window, tmp_path / "llama")
    view = gauge(window)
    assert view.result.position == "rope" and view.pages.tabText(2) == "Scale gauge: no position added to X"
    assert "A RoPE model adds no position to X" in view.gauge.angle_note.text.textItem.toPlainText()
    window.model_actions.no_model()                              # the untrained table again: its angles back
    window.controller.wait_idle()
    view = gauge(window)
    assert view.result.source == "untrained" and view.pages.tabText(2) == "Scale gauge: why √d_model"
    assert not view.gauge.angle_note.text.isVisible() and view.gauge.angles.getAxis("left").isVisible()


def test_a_gpt2s_gauge_keeps_its_angles_and_drops_the_sqrt_d_title(window, gpt2):
    open_and_wait(window, gpt2[0])
    view = gauge(window)
    assert view.result.source == "model" and view.result.position == "learned"
    assert np.nanmax(view.result.angle_scaled) > 0 and not view.gauge.angle_note.text.isVisible()
    assert view.pages.tabText(2) == "Scale gauge: E and position, not scaled"


def test_the_alibi_views_t5_curve_reads_j_minus_i_as_transformers_compute_bias_does(window, tmp_path):
    """One spelling (query i, key j) in the view and its formula; the curve at j − i = ±k is compute_bias[h, i, i ± k]
    and the image's value right of its diagonal (j > i), for a head whose bias differs for +k and −k."""
    torch_model = build_t5(tmp_path / "t5", encoder_only=True, seed=5)
    window.controller.update(max_len=64)                          # images at every position (no stride)
    open_and_wait(window, tmp_path / "t5")
    view = show(window, "alibi")
    r = view.result
    with torch.no_grad():
        want = torch_model.encoder.block[0].layer[0].SelfAttention.compute_bias(64, 64)[0].numpy()  # [h, i, j]
    i, k = 30, 3
    slot, h = next((s, h) for s, h in enumerate(r.shown) if want[h, i, i + k] != want[h, i, i - k])
    x, y = view.t5_curves[slot].getData()
    assert y[list(x).index(k)] == want[h, i, i + k] and y[list(x).index(-k)] == want[h, i, i - k]
    assert r.bias[slot, i, i + k] == want[h, i, i + k]                 # right of the diagonal: the curve's +k
    assert view.slope_plot.getAxis("bottom").labelText == "j − i (key minus query)"
    assert view.panels[0].plot.getAxis("bottom").labelText == "key j"
    words = view.slope_plot.titleLabel.text + view.explain.text() + view.readout.text()
    assert "b_h(bucket(j − i))" in words and "m − n" not in words and "n − m" not in words
    from explorer.compute import formulas

    html = formulas.formula_html("alibi", r.params, 0, "en", state=r.state)
    assert "bucket(j − i)" in html and "n − m" not in html and "(m, n)" not in html


def test_the_causal_box_is_greyed_for_t5s_encoder_and_comes_back(window, tmp_path):
    build_t5(tmp_path / "t5", encoder_only=True)
    window.controller.update(max_len=64)
    window.controller.update_view("alibi", causal=True)
    view = show(window, "alibi")
    box = view.causal_box
    assert box.isEnabled() and box.isChecked() and np.isnan(view.result.bias).any()      # ALiBi: masked
    open_and_wait(window, tmp_path / "t5")
    view = show(window, "alibi")
    assert view.result.family == "t5" and not box.isEnabled() and not box.isChecked()
    assert "bidirectional" in box.toolTip() and not np.isnan(view.result.bias).any()    # every key read
    assert window.controller.state.views["alibi"].causal                               # the user's choice kept
    window.controller.update_view("alibi", model_slopes=False)       # the formula's heads: ALiBi, masked again
    view = show(window, "alibi")
    assert box.isEnabled() and box.isChecked() and box.toolTip() == "" and np.isnan(view.result.bias).any()
    window.controller.update_view("alibi", model_slopes=True)
    view = show(window, "alibi")
    assert not box.isEnabled() and not box.isChecked()
    show(window, "tokens")                                           # another tab, then the model closed
    window.model_actions.no_model()
    window.controller.wait_idle()
    view = show(window, "alibi")
    assert view.result.family == "" and box.isEnabled() and box.isChecked() and box.toolTip() == ""


def drawn_labels(axis) -> list:
    """The (rect, text) of each tick label `axis` draws (pyqtgraph's own choice, labels past its ends dropped)."""
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [(rect, text) for rect, _, text in specs[2]] if specs else []


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_bias_images_label_two_ticks_at_1280x800_and_in_f11(qtbot, settings, tmp_path, lang):
    build_t5(tmp_path / "t5", encoder_only=True)
    with window_in(lang, settings) as win:
        for spec, scale in ((None, 1.0), (tmp_path / "t5", 1.0), (tmp_path / "t5", 1.5)):
            if spec is not None:
                open_and_wait(win, spec)
            win.presenter.set_scale(scale)
            win.dock.setVisible(scale == 1.0)                   # F11: no control panel, text 1.5x
            for max_len in (100, 1024, 2048):
                win.controller.update(max_len=max_len)
                view = show(win, "alibi")
                qtbot.wait(20)
                win.controller.wait_idle()
                for panel in view.panels[:len(view.result.shown)]:
                    labels = drawn_labels(panel.plot.getAxis("bottom"))
                    assert len(labels) >= 2, (spec, scale, max_len, labels)
                    rects = [rect for rect, _ in labels]
                    assert all(a.right() < b.left() for a, b in zip(rects, rects[1:])), labels     # no overlap
        if lang == "zh_CN":                                      # the causal box's reason, in the window's language
            assert "双向" in show(win, "alibi").causal_box.toolTip()
            view = gauge(win)
            assert "T5 不给 X 加位置" in view.gauge.angle_note.text.textItem.toPlainText()
            assert view.pages.tabText(2) == "量级对比：X 上没有加位置"


def test_span_values_keep_two_labels_apart_and_inside_the_axis():
    advance = lambda text: 7.0 * len(text)                       # noqa: E731 (7 px a digit)
    assert span_values(1024, 105, advance, 7) == [0, 500]        # pyqtgraph labelled "500" alone
    assert span_values(256, 287, advance, 7) == [0, 50, 100, 150, 200, 250]
    assert span_values(100, 105, advance, 7) == [0, 50]
    assert span_values(64, 0, advance, 7) == []                  # not laid out yet
    assert span_values(1, 50, advance, 7) == [0]                 # one position: one label
    # max_len at its slider's end: steps too short for two labels are skipped (step 1 walked 10**7 cells for minutes)
    assert span_values(10_000_000, 105, advance, 7) == [0, 5_000_000]
    assert span_values(10_000_000, 600, advance, 7) == [0, 2_000_000, 4_000_000, 6_000_000, 8_000_000]
