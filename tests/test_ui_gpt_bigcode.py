"""An opened GPT-BigCode (StarCoder) `starcoder` GGUF file in the real window: the Tokens view shows its real tokens,
wte rows + wpe = X as transformers' first block receives it, the Learned view its own position table, and the Real
RoPE view its own layer 0: the attention weights of X with the position rows and without them (wpe zeroed) equal
transformers'."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from tests import models_helpers as mh
from tests.test_gguf_starcoder import _write
from tests.test_ui_models import open_and_wait, show

pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
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
    view = show(window, "qk")                 # its own layer 0, from X with and without the position rows
    qk = view.result
    assert qk.learned and not qk.note and not qk.error and qk.tokens == tuple(t.text for t in r.tokens)
    assert "learned positions" in view.readout.text() and not view.note.isVisible()
    with torch.no_grad():
        ids_t = torch.as_tensor([ids])
        with_rows = torch_model(input_ids=ids_t, output_attentions=True).attentions[0][0].numpy()
        torch_model.transformer.wpe.weight.zero_()
        without = torch_model(input_ids=ids_t, output_attentions=True).attentions[0][0].numpy()
    for logits, ref in ((qk.logits, with_rows), (qk.logits_plain, without)):
        got = mh.attention_of(SimpleNamespace(logits=logits, window=None, chunk=None, sinks=None))
        np.testing.assert_allclose(got, ref, atol=1e-5)
    assert not np.allclose(with_rows, without, atol=1e-3)          # (the position rows change the weights)
