"""The Real RoPE view's formula lines follow the opened model (explorer.compute.qk_formula): OLMo 2 has no
input norm and normalises W_q x; Qwen3 normalises q per head after its input norm; Granite multiplies q·k by
attention_multiplier; OLMo and OLMoE clamp q and k to ±clip_qkv; Gemma 2 divides by √query_pre_attn_scalar and
soft-caps; a model that is not open yet gets the textbook Llama lines (the panel never opens a checkpoint itself)."""

from __future__ import annotations

import html
import re

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
    ("olmo", "R(mθ) clamp(W<sub>q</sub> norm(x<sub>m</sub>), ±1.5)", "/ √head_dim (√8)"),    # (clip_qkv 1.5)
    ("olmoe", "R(mθ) clamp(q_norm(W<sub>q</sub> norm(x<sub>m</sub>)), ±0.9)", "/ √head_dim (√8)"),
    ("granite", "R(mθ) W<sub>q</sub> norm(x<sub>m</sub>)", "× attention_multiplier (0.07)"),
    ("gemma2", "R(mθ) W<sub>q</sub> norm(x<sub>m</sub>)",
     "/ √query_pre_attn_scalar (√24), then cap · tanh(logit / cap), cap = 5")])
def test_the_lines_follow_the_open_model(tmp_path, family, q_path, logit):
    mh.build(family, tmp_path)
    params = Params(model=str(tmp_path))
    assert qk_lines(params) == list(GENERIC)                 # not open yet: the textbook lines
    models.open_cached(str(tmp_path))
    try:
        first, second = qk_lines(params)[:2]           # (Gemma 2: a third, its sliding window)
        assert q_path in first and "k<sub>n</sub> = R(nθ)" in first
        assert second.endswith(logit)
        assert logit in formula_html("qk", params)
    finally:
        models.forget(str(tmp_path))


@pytest.mark.parametrize("family, weights", [
    ("gpt_oss", "weights(m, ·) = softmax of the logits over keys m − 6 &lt; n ≤ m (a sliding window of 6) and the "
                "head's sink logit s<sub>h</sub>"),
    ("mistral", None)])                       # (its 4096-token window: MistralConfig's default)
def test_a_sliding_window_and_sinks_get_their_softmax_line(tmp_path, family, weights):
    mh.build(family, tmp_path)
    params = Params(model=str(tmp_path))
    models.open_cached(str(tmp_path))
    try:
        lines = qk_lines(params)
        want = weights or ("weights(m, ·) = softmax of the logits over keys m − 4096 &lt; n ≤ m (a sliding "
                           "window of 4096)")
        assert lines[2] == want and len(lines) == 3
        assert want in formula_html("qk", params)
        shown = html.unescape(re.sub(r"<[^>]*>", "", want))      # as rich text shows it (a bare "<" would
        assert f"m − {6 if weights else 4096} < n ≤ m (a sliding window" in shown   # open a tag and eat the rest)
        chinese = qk_lines(params, "zh_CN")[2]                   # the line in the lecture's language
        assert f"m − {6 if weights else 4096} &lt; n ≤ m（滑动窗口 {6 if weights else 4096}）" in chinese
        assert ("注意力汇" in chinese) == (family == "gpt_oss") and chinese.endswith("的 logit 取 softmax")
    finally:
        models.forget(str(tmp_path))


@pytest.mark.parametrize("family, q_line, closing", [
    ("deepseek_v3", "= W<sub>q_b</sub> RMSNorm(W<sub>q_a</sub> norm(x<sub>m</sub>))",
     "only the rope part's channel pairs turn (each head's last 8 channels; the nope part carries no position)"),
    ("deepseek_v2", "= W<sub>q</sub> norm(x<sub>m</sub>)", "only the rope part's channel pairs turn"),
    ("llama", "R(mθ) W<sub>q</sub> norm(x<sub>m</sub>)", "each channel pair is rotated by its position")])
def test_deepseeks_lines_show_the_latent_path_and_that_only_the_rope_part_turns(tmp_path, family, q_line, closing):
    """DeepSeek's MLA (open): q through its low-rank pair (V3) or W_q (V2-Lite), k's two parts, and the closing
    line says only the rope part turns; Llama keeps the textbook closing line."""
    mh.build(family, tmp_path)
    params = Params(model=str(tmp_path))
    models.open_cached(str(tmp_path))
    try:
        text = formula_html("qk", params)
        assert q_line in qk_lines(params)[0] and closing in text
        assert ("k<sub>n</sub> = [W<sub>kv_b</sub> RMSNorm(c<sub>n</sub>)" in text) == family.startswith("deepseek")
    finally:
        models.forget(str(tmp_path))


def test_llama4s_lines_normalise_after_rope_and_read_keys_in_chunks(tmp_path):
    """Llama 4 (open): q and k are RMS-normalised after RoPE (qk_norm around R(mθ) W_q norm(x)), and layer 0's
    softmax reads only the keys of the query's own chunk (5 tokens here), in English and Chinese."""
    mh.build("llama4", tmp_path)
    params = Params(model=str(tmp_path))
    models.open_cached(str(tmp_path))
    try:
        lines = qk_lines(params)
        assert lines[0] == ("q<sub>m</sub> = qk_norm(R(mθ) W<sub>q</sub> norm(x<sub>m</sub>)), "
                            "k<sub>n</sub> = qk_norm(R(nθ) W<sub>k</sub> norm(x<sub>n</sub>))")
        assert lines[2] == ("weights(m, ·) = softmax of the logits over keys n ≤ m of m's own chunk of 5 "
                            "(⌊n / 5⌋ = ⌊m / 5⌋)")
        assert "块" in qk_lines(params, "zh_CN")[2] and lines[2] in formula_html("qk", params)
    finally:
        models.forget(str(tmp_path))


def test_hunyuans_lines_normalise_each_head_after_rope(tmp_path):
    """Hunyuan (open): HunYuanDenseV1Attention turns q and k, then query_layernorm / key_layernorm: the q line wraps
    R(mθ) W_q norm(x) in q_norm (a plain Llama's does not), and the readout's rope type is the folded NTK-alpha base."""
    import torch

    from tests.test_models_hunyuan import TINY

    config_class, model_class = mh.classes("hunyuan_v1_dense")
    torch.manual_seed(0)
    mh.save_random(model_class(config_class(**TINY)).eval(), tmp_path)
    params = Params(model=str(tmp_path))
    cfg = models.open_cached(str(tmp_path)).config
    try:
        assert qk_lines(params)[0] == ("q<sub>m</sub> = q_norm(R(mθ) W<sub>q</sub> norm(x<sub>m</sub>)), "
                                       "k<sub>n</sub> = k_norm(R(nθ) W<sub>k</sub> norm(x<sub>n</sub>))")
        assert cfg.rope_type_label == "NTK-alpha 1000 = 500 × 1000^(12/10)"
    finally:
        models.forget(str(tmp_path))
