"""An XGLM folder in the real window: the Tokens, Learned and Real RoPE views show its sinusoidal positions.

A tiny random XGLMForCausalLM written with transformers' own class (tests/models_helpers); the references are its
embed_tokens weights and its embed_positions buffer (the table the checkpoint does not store).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests import models_helpers as mh
from tests.test_ui_models import open_and_wait, show

pytest.importorskip("transformers")
pytest.importorskip("torch")


def test_an_xglm_folder_shows_its_scaled_rows_and_its_computed_sinusoidal_table(window, tmp_path):
    torch_model = mh.build("xglm", tmp_path / "xglm", seed=6)
    table = torch_model.model.embed_positions.weights.numpy()                       # (42, 32): rows 0, 1 unread
    window.controller.update(text=mh.TEXT)
    open_and_wait(window, tmp_path / "xglm")
    view = show(window, "tokens")
    r = view.result
    assert r.family == "xglm" and not r.error
    n = r.n_shown
    np.testing.assert_array_equal(r.pe_rows, table[2:2 + n])
    assert "sinusoidal table itself" in view.model_note.text() and "√d_model" in view.model_note.text()
    assert view.sum.plots[0].titleLabel.text.startswith("E[ids] × √d = 5.657")
    assert f"sinusoidal PE[2 … {n + 1}] (t2t, from config)" in view.sum.plots[1].titleLabel.text
    assert view.pages.tabText(1) == "X = E·√d + sinusoidal PE"
    learned = show(window, "learned")
    assert learned.result.computed
    np.testing.assert_array_equal(learned.result.learned, table[2:])
    assert "sinusoidal positions computed from config" in learned.tables[0].plot.titleLabel.text
    assert "not stored in the checkpoint" in learned.note.text()
    qk = show(window, "qk")
    assert qk.result.learned and not qk.result.error and not qk.result.encoder
    assert "sinusoidal positions in x: not rotated" in qk.q_img.plot.titleLabel.text
    assert "sinusoidal positions in x: not rotated" in qk.k_img.plot.titleLabel.text      # (it said "learned")
    assert "sinusoidal row PE[m + 2]" in qk.explain.text() and "learned position row" not in qk.explain.text()
    assert "sinusoidal positions computed from config" in qk.readout.text()


def test_an_xglm_folder_is_named_as_sinusoidal_not_learned(window, tmp_path):
    """Found on looking at the window: the status line said "learned positions (40, from row 2)", the Learned view
    said "a few channels reach 1 and would wash the picture out" of a ±1 table and titled the model's side
    "learned", and its X line left out XGLM's √d_model."""
    from explorer.compute.formulas_views import learned_lines

    mh.build("xglm", tmp_path / "xglm", seed=6)
    open_and_wait(window, tmp_path / "xglm")
    status = window.statusBar().currentMessage()
    assert "sinusoidal positions computed from config (40, from row 2)" in status and "learned" not in status
    learned = show(window, "learned")
    name = learned.result.source
    assert "99.5th percentile" not in learned.note.text() and "not stored in the checkpoint" in learned.note.text()
    assert learned.sims[0].plot.titleLabel.text == f"cosine similarity, {name}'s table"
    assert learned.pca.plots[0].titleLabel.text.startswith(f"{name}: PC1 × PC2")
    x_line = learned_lines(window.controller.params, 0, "en")[0]
    assert x_line.startswith("X<sub>pos</sub> = E[id<sub>pos</sub>]·5.6569 + P[pos]"), x_line


def test_xglms_sinusoidal_rows_are_not_called_learned_elsewhere(window, tmp_path):
    """Found by a second visual review: the ALiBi view said "xglm uses learned positions, not ALiBi", the gauge's
    legend "|learned position|" over its sinusoidal rows, and the Chinese Learned formula ended "xglm's row pos + 2"."""
    from explorer.compute.formulas_views import learned_lines
    from explorer.errors import localized

    mh.build("xglm", tmp_path / "xglm", seed=6)
    window.controller.update(text=mh.TEXT)
    open_and_wait(window, tmp_path / "xglm")
    alibi = show(window, "alibi")
    assert "uses sinusoidal positions computed from config, not ALiBi" in localized(alibi.result.reason, "en")
    tokens = show(window, "tokens")
    tokens.pages.setCurrentIndex(2)
    window.controller.wait_idle()
    assert "|sinusoidal position|" in tokens.gauge.norms.titleLabel.text
    assert "learned" not in tokens.gauge.norms.titleLabel.text
    assert tokens.pages.tabText(2) == "Scale gauge: why √d_model"            # X = E·√d + PE: the paper's question
    assert not tokens.gauge.angle_note.text.isVisible() and np.nanmax(tokens.result.angle_scaled) > 0
    chinese = learned_lines(window.controller.params, 0, "zh_CN")[0]
    assert "的第 pos + 2 行" in chinese and "'s row" not in chinese, chinese
