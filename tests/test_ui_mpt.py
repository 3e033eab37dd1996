"""An opened MPT and an opened Falcon with ALiBi in the real window: the Tokens view says X is E with nothing added,
the Learned view names ALiBi, and the Real RoPE view shows the logits with and without each one's ALiBi bias."""

from __future__ import annotations

import os

import numpy as np
import pytest

from explorer.backend.models.falcon import falcon_slopes
from explorer.backend.models.mpt import mpt_alibi_slopes
from tests import models_helpers as mh
from tests.test_models_falcon import _build as build_falcon
from tests.test_models_mpt import _build as build_mpt
from tests.test_ui_models import open_and_wait, show

pytest.importorskip("transformers")
pytest.importorskip("torch")


def test_mpt_and_falcon_in_the_window(window, tmp_path):
    build_mpt(tmp_path / "mpt", heads=16)
    build_falcon(tmp_path / "falcon", heads=4)
    window.controller.update(text=mh.TEXT)
    open_and_wait(window, tmp_path / "mpt")
    assert "ALiBi: nothing added at the input" in window.statusBar().currentMessage()
    view = show(window, "tokens")
    assert "(X is E itself)" in view.model_note.text() and "LayerNorm" not in view.model_note.text()
    assert view.sum.plots[1].titleLabel.text == "nothing added (ALiBi)"
    assert view.pages.tabText(1) == "X = E (ALiBi adds nothing here)"
    assert "has no learned position table (ALiBi" in show(window, "learned").note.text()
    view = show(window, "qk")
    assert "ALiBi: not rotated" in view.q_img.plot.titleLabel.text
    assert "+ ALiBi bias" in view.rot_img.plot.titleLabel.text
    assert "without the ALiBi bias" in view.plain_img.plot.titleLabel.text
    assert "This model uses ALiBi" in view.explain.text()
    assert [label.text for _, label in view.dist.legend.items] == ["with the ALiBi bias", "without the ALiBi bias"]
    slopes = mpt_alibi_slopes(16)
    assert f"ALiBi slopes {slopes.max():.4g} … {slopes.min():.4g}" in view.readout.text()
    assert np.array_equal(view.result.slopes, slopes)
    shots = os.environ.get("PE_SHOTS")           # PE_SHOTS=folder: keep a screenshot of the view
    if shots:
        window.resize(1400, 900)
        view.grab().save(os.path.join(shots, "real_rope_mpt.png"))
    open_and_wait(window, tmp_path / "falcon")
    view = show(window, "qk")
    assert "+ ALiBi bias" in view.rot_img.plot.titleLabel.text
    assert np.array_equal(view.result.slopes, falcon_slopes(4, 8))
    assert f"ALiBi slope {falcon_slopes(4, 8)[0]:.4g}" in view.head_info.text()
