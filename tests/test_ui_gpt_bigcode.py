"""An opened GPT-BigCode (StarCoder) `starcoder` GGUF file in the real window: the Tokens view shows its real tokens,
wte rows + wpe = X as transformers' first block receives it, the Learned view its own position table, and the Real
RoPE view says it has learned positions (as for GPT-2)."""

from __future__ import annotations

import numpy as np
import pytest

from tests import models_helpers as mh
from tests.test_gguf_starcoder import _write
from tests.test_ui_models import open_and_wait, show

pytest.importorskip("gguf")
pytest.importorskip("transformers")
pytest.importorskip("torch")
TEXT = "the cat sat on the mat, 12 dogs"        # (fewer tokens than the file's 48 positions)


def test_a_starcoder_file_in_the_window(window, tmp_path):
    torch_model, tokenizer, _ = _write(tmp_path)
    window.controller.update(text=TEXT)
    open_and_wait(window, tmp_path / "m.gguf")
    assert "Opened model" in window.statusBar().currentMessage()
    r = show(window, "tokens").result
    assert r.source == "model" and r.family == "gpt2" and r.position == "learned" and not r.error
    ids = tokenizer(TEXT)["input_ids"]
    assert [t.id for t in r.tokens] == ids and r.n_total == len(ids)
    sd = torch_model.state_dict()                           # (the file holds the folder's float16-exact weights)
    wte, wpe = sd["transformer.wte.weight"].numpy(), sd["transformer.wpe.weight"].numpy()
    np.testing.assert_allclose(r.token_rows, wte[ids], atol=1e-6)
    np.testing.assert_allclose(r.pe_rows, wpe[:len(ids)], atol=1e-6)
    np.testing.assert_allclose(r.x, mh.capture(torch_model, "gpt_bigcode", ids)["x"], atol=1e-5)
    learned = show(window, "learned").result
    np.testing.assert_allclose(learned.learned, wpe, atol=1e-6)                # (48, 64): its own table
    qk = show(window, "qk").result
    assert "learned positions" in (qk.note or qk.error)
