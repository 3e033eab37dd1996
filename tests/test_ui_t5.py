"""An opened T5 in the real window: the Tokens view says nothing is added for position (its encoder's X is E), the
Learned view says it has no table, and the Real RoPE view shows the encoder's layer-0 logits with and without its
relative position bias, not scaled, nothing masked (then RoPE's words again for a RoPE model)."""

from __future__ import annotations

import pytest

from explorer.ui.views.panel_view import PALETTE
from tests import models_helpers as mh
from tests.test_models_t5 import build_t5
from tests.test_ui_models import open_and_wait, show

pytest.importorskip("transformers")
pytest.importorskip("torch")


def test_t5_in_the_window(window, tmp_path):
    build_t5(tmp_path / "t5", encoder_only=True)
    mh.build("llama", tmp_path / "llama", seed=5)
    window.controller.update(text=mh.TEXT)
    open_and_wait(window, tmp_path / "t5")
    status = window.statusBar().currentMessage()
    assert "encoder; relative position bias" in status and "(8 buckets)" in status
    view = show(window, "tokens")
    assert "adds nothing for position at the input (X is E itself" in view.model_note.text()
    assert view.sum.plots[1].titleLabel.text == "nothing added (T5: a relative bias in attention)"
    assert view.pages.tabText(1) == "X = E (T5's relative bias adds nothing here)"
    assert "T5 adds a relative bias" in show(window, "learned").note.text()
    view = show(window, "qk")
    assert "relative bias: not rotated" in view.q_img.plot.titleLabel.text
    assert view.rot_img.plot.titleLabel.text == "logits q(m)·k(n) (not scaled) + relative bias"
    assert "without the relative bias" in view.plain_img.plot.titleLabel.text
    assert "relative position bias" in view.explain.text() and "does not divide by √head_dim" in view.explain.text()
    assert [label.text for _, label in view.dist.legend.items] == ["with the relative bias",
                                                                   "without the relative bias"]
    assert "encoder layer 0, 4 heads, head_dim 12, relative position bias in 8 buckets (max distance 20)" in (
        view.readout.text())
    assert not view.causal_box.isEnabled() and not view.result.masked       # an encoder: nothing masked
    view = show(window, "alibi")               # its heads: each one's bias against j − i, no slopes
    assert view.result.family == "t5" and "4 heads with a learned relative position bias (T5), no slopes" in (
        view.readout.text())
    assert view.slope_plot.titleLabel.text.startswith("each drawn head's bias b_h(bucket(j − i)) against j − i")
    assert not view.slope_plot.ctrl.logYCheck.isChecked() and not view.heads_box.isEnabled()
    drawn = [c.xData is not None and len(c.xData) for c in view.t5_curves]
    assert drawn == [81, 81, 81, 81] and view.panels[0].plot.titleLabel.text == "head 0: bias b_h"
    assert "An opened T5 adds no position vectors and has no slopes" in view.explain.text()     # not ALiBi's words
    assert view.panels[1].plot.titleLabel.opts["color"] == PALETTE[1]          # head 1's title in its curve's colour
    bloom = tmp_path / "bloom"
    from tests.test_models_bloom import _build as build_bloom

    build_bloom(bloom, heads=6)
    open_and_wait(window, bloom)                 # an ALiBi model after it: slopes on a log axis again
    view = show(window, "alibi")
    assert view.slope_plot.titleLabel.text == "slopes" and view.slope_plot.ctrl.logYCheck.isChecked()
    assert all(c.xData is None or len(c.xData) == 0 for c in view.t5_curves) and "6 heads, slopes" in (
        view.readout.text())
    assert view.explain.text().startswith("ALiBi adds no position vectors")
    open_and_wait(window, tmp_path / "llama")
    view = show(window, "qk")
    assert "relative" not in view.explain.text() + view.rot_img.plot.titleLabel.text + view.readout.text()
    assert [label.text for _, label in view.dist.legend.items] == ["with RoPE", "without rotation"]
