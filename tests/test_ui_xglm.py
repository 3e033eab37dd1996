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
    assert "sinusoidal positions computed from config" in qk.readout.text()
