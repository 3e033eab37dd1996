"""The Real RoPE view and the Tokens view with a T5 (explorer.compute.qk, model_tokens): the model itself is shown, not
SmolLM2; its logits with and without the relative bias give transformers' own encoder attention, run once as saved
and once with the bias table zeroed; nothing is masked (an encoder); the formula says q·k is not scaled and names the
bucket rule; a text longer than max_distance and than 300 tokens is shown, not cut for a table."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.compute import model_tokens, models, qk
from explorer.compute.qk_formula import qk_lines
from explorer.params import Params
from tests import models_helpers as mh
from tests.test_models_t5 import build_t5, softmax

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
TEXT = "the cat sat on the mat and the dog sat on the cat " * 3


def _attention(torch_model, ids) -> np.ndarray:
    with torch.no_grad():
        out = torch_model.encoder(input_ids=torch.as_tensor(np.asarray(ids)[None, :]), output_attentions=True)
    return out.attentions[0][0].numpy()                                                  # (H, n, n)


def test_t5s_layer_0_with_and_without_its_relative_bias(tmp_path):
    torch_model = build_t5(tmp_path, seed=3)
    params = Params(model=str(tmp_path), text=TEXT)
    try:
        r = qk.qk_view(params, qk.QkState(causal=True))
        ids = models.open_cached(str(tmp_path)).tokenize(TEXT).ids
        assert not r.error and not r.note and r.relative and not r.alibi and not r.learned
        assert r.n_shown == len(ids) > 20 and r.relative_buckets == (8, 20) and r.score_scalar == 1.0
        with_bias = _attention(torch_model, ids)
        with torch.no_grad():
            torch_model.encoder.block[0].layer[0].SelfAttention.relative_attention_bias.weight.zero_()
        without = _attention(torch_model, ids)
        np.testing.assert_allclose(softmax(r.logits), with_bias, rtol=0, atol=1e-5)
        np.testing.assert_allclose(softmax(r.logits_plain), without, rtol=0, atol=1e-5)
        assert not np.allclose(with_bias, without, atol=1e-3)
        assert r.encoder and not r.masked and not np.isnan(r.shown).any()             # the causal box ignored
        # the mean-logit curves differ by the head's bias at each distance (every pair of one m − n has one bucket)
        model = models.open_cached(str(tmp_path))
        from explorer.backend.models.t5_bias import bias_by_distance

        delta, bias = bias_by_distance(model.config, model.tensors, r.n_shown - 1)
        np.testing.assert_array_equal(delta, r.distance)
        np.testing.assert_allclose(r.by_distance - r.by_distance_plain, bias, atol=1e-4)
        lines = qk_lines(params)
        assert lines[1] == ("logit(m, n) = q<sub>m</sub> · k<sub>n</sub> (T5: not scaled) + "
                            "b<sub>h</sub>(bucket(n − m))") and "R(mθ)" not in lines[0]
        closing = qk_lines(params, closing="each pair turns")[-1]
        assert "8 buckets" in closing and "2 distances each way" in closing and "up to 20" in closing
        assert "桶" in qk_lines(params, "zh_CN", closing="x")[-1]                          # in the lecture's language
        assert "(T5：不缩放)" in qk_lines(params, "zh_CN")[1]             # (it read "T5: not scaled" in Chinese)
    finally:
        models.forget(str(tmp_path))


def test_t5s_tokens_view_adds_nothing_and_cuts_no_long_text(tmp_path):
    torch_model = build_t5(tmp_path, encoder_only=True, seed=4)
    text = " ".join([mh.TEXT] * 24)                                  # over 300 tokens
    params = Params(model=str(tmp_path), text=text, embedding_source="model")
    try:
        r = model_tokens.for_model(params)
        assert not r.error and r.position == "relative" and r.n_shown == r.n_total > 300
        ids = np.asarray([t.id for t in r.tokens])
        with torch.no_grad():
            want = torch_model.encoder.embed_tokens(torch.as_tensor(ids)).numpy()
        np.testing.assert_array_equal(r.x, want)                         # X = shared[ids], nothing scaled
        assert not np.any(r.pe_rows) and r.scale == 1.0                  # no position rows
    finally:
        models.forget(str(tmp_path))


def test_the_alibi_views_model_heads_are_t5s_bias_against_distance(tmp_path):
    """With a T5 open and "the opened model's heads" ticked, the ALiBi view shows each head's learned bias against
    j − i, key minus query, in the view's own i, j (transformers' compute_bias read along one query's row) and its
    bias images at strided positions, every key read (the causal box is not applied: the encoder masks none); its
    code panel makes the same bias, its formula names the model and the bucket rule (in Chinese too), in i, j."""
    from explorer.compute import formulas
    from explorer.compute.alibi import AlibiState, alibi_view

    torch_model = build_t5(tmp_path, seed=5)
    p, state = Params(model=str(tmp_path), max_len=150), AlibiState(heads=3)
    try:
        r = alibi_view(p, state)
        assert r.family == "t5" and r.model_name and r.slopes.size == 0 and r.shown == (0, 1, 2, 3)
        reach = 2 * 20                                                           # twice max_distance
        np.testing.assert_array_equal(r.distance, np.arange(-reach, reach + 1))
        att = torch_model.encoder.block[0].layer[0].SelfAttention
        with torch.no_grad():
            want = att.compute_bias(150, 150)[0].numpy()                         # (H, 150, 150) [m, n]
        i = reach                                                                # the query at i: key i + (j − i)
        np.testing.assert_array_equal(r.head_bias, want[:, i, i + r.distance])
        np.testing.assert_array_equal(r.bias, want[list(r.shown)][:, r.positions][:, :, r.positions])
        steps = np.count_nonzero(np.diff(r.head_bias[0]))                        # bucketed: a few steps only
        assert 4 <= steps < 8                                                    # (8 buckets)
        causal = alibi_view(p, AlibiState(heads=3, causal=True)).bias              # an encoder: nothing masked
        np.testing.assert_array_equal(causal, r.bias)
        assert not np.isnan(causal).any()
        full = formulas.run_code(formulas.code_for("alibi", p, state))
        np.testing.assert_array_equal(full, want)
        html = formulas.formula_html("alibi", p, 0, "en", state=state)
        assert "score<sub>h</sub>(i, j) = q<sub>i</sub> · k<sub>j</sub> + b<sub>h</sub>(bucket(j − i))" in html
        assert "4 heads each add a learned bias per bucket of j − i" in html and "n − m" not in html
        assert "half for keys after the query (j > i)" in html
        assert "8 buckets" in html and "桶" in formulas.formula_html("alibi", p, 0, "zh_CN", state=state)
    finally:
        models.forget(str(tmp_path))
