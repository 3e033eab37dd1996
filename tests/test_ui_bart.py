"""A BART / mBART folder in the real window: its ENCODER, with its learned table read from row 2, in the status line
and the Tokens, Learned and Real RoPE views.

Tiny random BartForConditionalGeneration / MBartForConditionalGeneration written with transformers' own classes
(tests/test_models_bart._built); the references are the encoder's own embed_positions weight and the output of its
layernorm_embedding.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests import models_helpers as mh
from tests.test_ui_models import open_and_wait, show

pytest.importorskip("transformers")
pytest.importorskip("torch")


@pytest.mark.parametrize("kind, edit", [("bart", {}), ("mbart", {"scale_embedding": True})])
def test_a_bart_folder_shows_its_encoder_and_its_table_from_row_2(kind, edit, window, tmp_path):
    from tests.test_models_bart import _built, _encoder, _run

    torch_model = _built(kind, tmp_path / kind, seed=6, **edit)
    table = _encoder(torch_model).embed_positions.weight.detach().numpy()            # (42, 32): rows 0, 1 unread
    window.controller.update(text=mh.TEXT)
    open_and_wait(window, tmp_path / kind)
    assert "encoder; learned positions (40, from row 2)" in window.statusBar().currentMessage()
    view = show(window, "tokens")
    r = view.result
    assert r.family == "bart" and not r.error
    ids = [t.id for t in r.tokens]
    np.testing.assert_array_equal(r.position_ids, np.arange(2, len(ids) + 2))
    np.testing.assert_array_equal(r.pe_rows, table[2:len(ids) + 2])
    np.testing.assert_allclose(r.x, _run(torch_model, ids)[0], rtol=0, atol=1e-5)
    note = view.model_note.text()
    assert "encoder is shown (the decoder is not read)" in note and "position p reads row p + 2" in note
    assert view.sum.plots[1].titleLabel.text.startswith(f"positions[2 … {len(ids) + 1}] (offset 2)")
    assert view.sum.plots[2].titleLabel.text.startswith("X = LayerNorm(sum)")
    if edit:
        assert view.sum.plots[0].titleLabel.text.startswith("E[ids] × √d = 5.657")
        assert view.pages.tabText(1) == "X = LayerNorm(E·√d + positions)" and "X = LayerNorm(E·5.657" in note
    else:
        assert view.sum.plots[0].titleLabel.text.startswith("E[ids] (not scaled)")
        assert view.pages.tabText(1) == "X = LayerNorm(E + positions)" and "X = LayerNorm(E + P[p + 2])" in note
    learned = show(window, "learned")
    assert not learned.result.computed and learned.result.first_row == 2
    np.testing.assert_array_equal(learned.result.learned, table[2:])
    assert "learned positions" in learned.tables[0].plot.titleLabel.text
    assert "position p reads row p + 2" in learned.note.text()
    qk = show(window, "qk")
    assert qk.result.encoder and qk.result.learned and not qk.result.masked and not qk.result.error
    assert not qk.causal_box.isEnabled()                                         # an encoder: nothing masked
    assert not np.allclose(qk.result.logits, qk.result.logits_plain)
    assert ("encoder layer 0, 4 heads, head_dim 8, learned positions from row 2; nothing masked"
            in qk.readout.text())
