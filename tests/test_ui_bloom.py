"""An opened BLOOM (ALiBi) in the real window: the Tokens view says nothing is added for position, the Learned
view names ALiBi, and the Real RoPE view shows its logits with and without the ALiBi bias (then RoPE's words again
for a RoPE model)."""

from __future__ import annotations

import pytest

from tests import models_helpers as mh
from tests.test_models_bloom import _build
from tests.test_ui_models import open_and_wait, show

pytest.importorskip("transformers")
pytest.importorskip("torch")


def test_bloom_in_the_window(window, tmp_path):
    _build(tmp_path / "bloom", heads=6)
    mh.build("llama", tmp_path / "llama", seed=5)
    window.controller.update(text=mh.TEXT)
    open_and_wait(window, tmp_path / "bloom")
    assert "ALiBi: nothing added at the input" in window.statusBar().currentMessage()
    view = show(window, "tokens")
    assert "ALiBi adds a penalty" in view.model_note.text()
    assert view.sum.plots[1].titleLabel.text == "nothing added (ALiBi)"
    assert view.pages.tabText(1) == "X = LayerNorm(E) (ALiBi adds nothing here)"
    assert "has no learned position table (ALiBi" in show(window, "learned").note.text()
    view = show(window, "qk")
    assert "ALiBi: not rotated" in view.q_img.plot.titleLabel.text
    assert "+ ALiBi bias" in view.rot_img.plot.titleLabel.text
    assert "without the ALiBi bias" in view.plain_img.plot.titleLabel.text
    assert "ALiBi slope 0.25" in view.head_info.text() and "This model uses ALiBi" in view.explain.text()
    assert [label.text for _, label in view.dist.legend.items] == ["with the ALiBi bias", "without the ALiBi bias"]
    assert "ALiBi slopes 0.5 … 0.003906" in view.readout.text() and not view.note.isVisible()
    open_and_wait(window, tmp_path / "llama")
    view = show(window, "qk")
    assert "ALiBi" not in view.explain.text() + view.rot_img.plot.titleLabel.text + view.head_info.text()
    assert [label.text for _, label in view.dist.legend.items] == ["with RoPE", "without rotation"]
