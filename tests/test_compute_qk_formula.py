"""The Real RoPE view's formula lines follow the opened model (explorer.compute.qk_formula): OLMo 2 has no
input norm and normalises W_q x; Qwen3 normalises q per head after its input norm; Granite multiplies q·k by
attention_multiplier; Gemma 2 divides by √query_pre_attn_scalar and soft-caps; a model that is not open yet
gets the textbook Llama lines (the panel never opens a checkpoint itself)."""

from __future__ import annotations

import pytest

from explorer.compute import models
from explorer.compute.formulas import formula_html
from explorer.compute.qk_formula import GENERIC, qk_lines
from explorer.params import Params
from tests import models_helpers as mh

pytest.importorskip("transformers")
pytest.importorskip("torch")


@pytest.mark.parametrize("family, q_path, logit", [
    ("olmo2", "q_norm(W<sub>q</sub> x<sub>m</sub>)", "/ √head_dim (√8)"),
    ("qwen3", "q_norm(W<sub>q</sub> norm(x<sub>m</sub>))", "/ √head_dim (√12)"),
    ("stablelm", "q_norm(W<sub>q</sub> norm(x<sub>m</sub>))", "/ √head_dim (√8)"),    # (LayerNorms, per head)
    ("llama", "R(mθ) W<sub>q</sub> norm(x<sub>m</sub>)", "/ √head_dim (√8)"),
    ("granite", "R(mθ) W<sub>q</sub> norm(x<sub>m</sub>)", "× attention_multiplier (0.07)"),
    ("gemma2", "R(mθ) W<sub>q</sub> norm(x<sub>m</sub>)",
     "/ √query_pre_attn_scalar (√24), then cap · tanh(logit / cap), cap = 5")])
def test_the_lines_follow_the_open_model(tmp_path, family, q_path, logit):
    mh.build(family, tmp_path)
    params = Params(model=str(tmp_path))
    assert qk_lines(params) == list(GENERIC)                 # not open yet: the textbook lines
    models.open_cached(str(tmp_path))
    try:
        first, second = qk_lines(params)
        assert q_path in first and "k<sub>n</sub> = R(nθ)" in first
        assert second.endswith(logit)
        assert logit in formula_html("qk", params)
    finally:
        models.forget(str(tmp_path))
