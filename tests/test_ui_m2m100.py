"""An M2M100 / NLLB folder in the real window: its ENCODER, with fairseq's sinusoidal positions from row
pad_token_id + 1, in the status line and the Tokens, Learned and Real RoPE views.

A tiny random M2M100ForConditionalGeneration written with transformers' own class (tests/models_helpers); the
references are its shared embeddings and its encoder's embed_positions buffer (the table the checkpoint does not
store). The test tokenizer's "the" is id 1, the pad id: it reads row 1 (zero) and moves nothing on.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests import models_helpers as mh
from tests.test_ui_models import open_and_wait, show

pytest.importorskip("transformers")
pytest.importorskip("torch")


def test_an_m2m100_folder_shows_its_encoder_and_its_computed_sinusoidal_rows(window, tmp_path):
    torch_model = mh.build("m2m_100", tmp_path / "nllb", seed=6)
    table = torch_model.model.encoder.embed_positions.weights.numpy()              # (42, 32): rows 0, 1 unread
    window.controller.update(text=mh.TEXT)
    open_and_wait(window, tmp_path / "nllb")
    status = window.statusBar().currentMessage()
    assert "encoder; sinusoidal positions computed from config (40, from row 2 = pad_token_id + 1)" in status
    view = show(window, "tokens")
    r = view.result
    assert r.family == "m2m_100" and not r.error
    ids = np.array([t.id for t in r.tokens])
    np.testing.assert_array_equal(r.pe_rows, table[r.position_ids])
    assert r.position_ids[0] == 1 and r.position_ids[1] == 2 and not r.pe_rows[ids == 1].any()   # "the": a pad
    note = view.model_note.text()
    assert "encoder is shown (the decoder is not read)" in note and "a padding token row 1 (all zeros)" in note
    assert view.sum.plots[0].titleLabel.text.startswith("E[ids] × √d = 5.657")
    assert view.sum.plots[1].titleLabel.text.startswith("sinusoidal PE from row 2 (t2t, from config)")
    assert view.pages.tabText(1) == "X = E·√d + sinusoidal PE"
    learned = show(window, "learned")
    assert learned.result.computed and learned.result.first_row == 2
    np.testing.assert_array_equal(learned.result.learned, table[2:])
    assert "sinusoidal positions computed from config" in learned.tables[0].plot.titleLabel.text
    assert "not stored in the checkpoint" in learned.note.text()
    qk = show(window, "qk")
    assert qk.result.encoder and qk.result.sinusoidal and not qk.result.masked and not qk.result.error
    assert not qk.causal_box.isEnabled()                                         # an encoder: nothing masked
    assert "sinusoidal positions in x: not rotated" in qk.q_img.plot.titleLabel.text
    assert "sinusoidal row of its position id" in qk.explain.text() and "PE[m + 2]" not in qk.explain.text()
    assert ("encoder layer 0, 4 heads, head_dim 8, sinusoidal positions computed from config, from row 2 "
            "(pad_token_id + 1); nothing masked") in qk.readout.text()

