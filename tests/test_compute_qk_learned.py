"""The Real RoPE view with a learned-position model (explorer.compute.qk): GPT-2, GPT-Neo, OPT and BERT are shown
themselves, not SmolLM2. Their logits come from X with its position rows and the plain ones from the same weights on X
without them; both equal transformers' own attention weights, run once as saved and once with the position table
zeroed. BERT, an encoder, reads every key: nothing is masked, whatever the causal box says."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.compute import models, qk
from explorer.compute.qk_formula import qk_lines
from explorer.params import Params
from tests import models_helpers as mh

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
TEXT = "the cat sat on the mat and the dog sat on the cat"
# the position table of each family's transformers model (its attribute path), zeroed for the reference "without"
TABLES = {"gpt2": lambda m: m.transformer.wpe.weight, "gpt_neo": lambda m: m.transformer.wpe.weight,
          "opt": lambda m: m.model.decoder.embed_positions.weight,
          "bert": lambda m: m.embeddings.position_embeddings.weight}


def _softmax(logits: np.ndarray, causal: bool) -> np.ndarray:
    """Softmax over the keys (H, n, n); causal: keys n <= m only."""
    n = logits.shape[-1]
    keep = np.tril(np.ones((n, n), bool)) if causal else np.ones((n, n), bool)
    z = np.where(keep, logits.astype(np.float64), -np.inf)
    z = np.exp(z - z.max(axis=-1, keepdims=True))
    return z / z.sum(axis=-1, keepdims=True)


def _attention(torch_model, ids) -> np.ndarray:
    with torch.no_grad():
        out = torch_model(input_ids=torch.as_tensor(np.asarray(ids)[None, :]), output_attentions=True)
    return out.attentions[0][0].numpy()                                                  # (H, n, n)


@pytest.mark.parametrize("family", sorted(TABLES))
def test_a_learned_position_models_own_layer_0_with_and_without_its_position_rows(family, tmp_path):
    torch_model = mh.build(family, tmp_path, seed=7)
    params = Params(model=str(tmp_path), text=TEXT)
    try:
        r = qk.qk_view(params, qk.QkState(causal=True))
        model = models.open_cached(str(tmp_path))
        ids = model.tokenize(TEXT).ids
        assert not r.error and not r.note and r.learned and r.n_shown == len(ids)
        assert r.encoder == (family == "bert")
        with_rows = _attention(torch_model, ids)
        with torch.no_grad():
            TABLES[family](torch_model).zero_()
        without = _attention(torch_model, ids)
        causal = family != "bert"
        np.testing.assert_allclose(_softmax(r.logits, causal), with_rows, rtol=0, atol=1e-5)
        np.testing.assert_allclose(_softmax(r.logits_plain, causal), without, rtol=0, atol=1e-5)
        assert not np.allclose(with_rows, without, atol=1e-3)           # (the rows change what each query reads)
        masked = np.isnan(r.shown)
        assert masked.any() == causal and r.masked == causal            # BERT: every key, causal box or not
        np.testing.assert_array_equal(np.isnan(r.shown_plain), masked)
        lines = qk_lines(params)
        assert "P[m" in lines[1] and "R(mθ)" not in lines[0]            # the row is in x; nothing turns
        assert "learned row P[m]" in qk_lines(params, closing="each pair turns")[-1]
    finally:
        models.forget(str(tmp_path))


def test_gpt_neos_logits_are_not_scaled_and_say_so(tmp_path):
    """GPT-Neo divides q·k by nothing (GPTNeoSelfAttention._attn): the formula line and the panel's score say so."""
    mh.build("gpt_neo", tmp_path, seed=2)
    params = Params(model=str(tmp_path), text=TEXT)
    try:
        r = qk.qk_view(params)
        model = models.open_cached(str(tmp_path))
        want = model.layer0_qk(model.tokenize(TEXT).ids)
        np.testing.assert_array_equal(r.logits, want.logits)
        q, k = want.q_rot, want.k_rot[want.kv_head]
        np.testing.assert_allclose(r.logits, np.einsum("hmd,hnd->hmn", q, k), rtol=1e-5, atol=1e-6)
        assert r.score_scalar == 1.0
        assert qk_lines(params)[2].endswith("(GPT-Neo: not scaled)")
    finally:
        models.forget(str(tmp_path))
