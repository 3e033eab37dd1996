"""explorer.formulas: formula text with the current numbers, and generated PyTorch code that, when
executed, reproduces the arrays the views show (independent float64 / backend oracles)."""

import math
import re

import numpy as np
import pytest

from explorer.compute import formulas
from tests import compute_ns as compute
from tests import compute_ns as compute_extra
from tests import compute_ns as compute_tokens
from explorer.backend.encodings import sinusoidal_pe
from explorer.backend.similarity import similarity_matrix
from explorer.params import Params

pytest.importorskip("torch")

CASES = [(d, lay) for d in (1, 2, 7, 24) for lay in ("interleaved", "concat", "t2t")]


def f32_tol(max_len: int) -> float:
    """float32 sin of an angle up to max_len: a few ulps of the angle (torch and numpy libm differ)."""
    return 8 * max_len * float(np.finfo(np.float32).eps)


def oracle_pe64(n: int, d: int, base: float, layout: str) -> np.ndarray:
    """Float64 PE written out per channel from the layout's definition (not the backend's code)."""
    out = np.zeros((n, d))
    if layout == "t2t":
        h = d // 2
        for i in range(h):
            w = math.exp(-i * math.log(base) / max(h - 1, 1))
            out[:, i] = np.sin(np.arange(n) * w)
            out[:, h + i] = np.cos(np.arange(n) * w)
        return out
    n_sin = (d + 1) // 2
    for i in range(n_sin):
        w = base ** (-2 * i / d)
        s_col, c_col = (2 * i, 2 * i + 1) if layout == "interleaved" else (i, n_sin + i)
        out[:, s_col] = np.sin(np.arange(n) * w)
        if c_col < d and (layout == "interleaved" or i < d // 2):
            out[:, c_col] = np.cos(np.arange(n) * w)
    return out


@pytest.mark.parametrize("d,layout", CASES)
def test_heatmap_code_equals_pe(d, layout):
    for dtype in ("float32", "float64"):
        p = Params(d_model=d, max_len=60, base=500.0, layout=layout, dtype=dtype)
        out = formulas.run_code(formulas.code_for("heatmap", p))
        assert out.shape == (60, d) and out.dtype == np.dtype(dtype)
        tol = f32_tol(60) if dtype == "float32" else 1e-12
        np.testing.assert_allclose(out, sinusoidal_pe(60, d, 500.0, layout, dtype), atol=tol, rtol=0)
        np.testing.assert_allclose(out, oracle_pe64(60, d, 500.0, layout), atol=tol, rtol=0)


@pytest.mark.parametrize("d,layout", CASES)
def test_similarity_code_equals_closed_form(d, layout):
    for metric in ("dot", "cosine"):
        p = Params(d_model=d, max_len=50, layout=layout, metric=metric)
        out = formulas.run_code(formulas.code_for("similarity", p))
        np.testing.assert_allclose(out, similarity_matrix(50, d, 10000.0, layout, metric),
                                   atol=1e-10, rtol=0)


@pytest.mark.parametrize("d,layout", CASES)
def test_curves_code_equals_curves_view_data(d, layout):
    p = Params(d_model=d, max_len=80, layout=layout, curve_pairs=(0, 1, 3, 9))
    out = formulas.run_code(formulas.code_for("curves", p))
    lines = compute.curves(p, compute.Window.full(p, 600, 1000)).lines
    assert out.shape == (len(lines), 80)
    for row, line in zip(out, lines):
        np.testing.assert_allclose(row, line.y, atol=1e-12)


@pytest.mark.parametrize("scale", [True, False])
@pytest.mark.parametrize("d,layout", [(64, "interleaved"), (7, "concat"), (9, "t2t")])
def test_tokens_code_equals_x(d, layout, scale):
    p = Params(d_model=d, layout=layout, scale_embedding=scale, text="位置编码 is fun, isn't it?")
    code = formulas.code_for("tokens", p)
    r = compute_tokens.tokens(p)
    assert str(r.tokens[0].id) in code
    out = formulas.run_code(code)
    assert out.shape == r.x.shape == (r.n_shown, d)
    np.testing.assert_allclose(out, r.x, rtol=1e-6, atol=1e-5)
    if scale:   # the sqrt(d) factor is really in the code: without it the output would differ
        assert np.abs(out - (r.token_rows + r.pe_rows)).max() > 1.0


def test_offset_rope_frequency_code_match_their_views():
    p = Params(max_len=64, d_model=32)
    off = compute_extra.offset(p, compute_extra.OffsetState(offset=5, position=7))
    out = formulas.run_code(formulas.code_for("offset", p, off.state))
    np.testing.assert_allclose(out[0], off.shifted, atol=1e-6)
    np.testing.assert_allclose(out[1], off.rotated, atol=1e-6)
    rope = compute_extra.rope_view(p, compute_extra.RopeState(head_dim=16))
    np.testing.assert_allclose(formulas.run_code(formulas.code_for("rope", p, rope.state)),
                               rope.score_ones, atol=1e-9)
    freq = compute_extra.frequency_table(p)
    np.testing.assert_allclose(formulas.run_code(formulas.code_for("frequencies", p)),
                               np.stack([freq.w, freq.wavelength]), rtol=1e-12)


@pytest.mark.parametrize("heads", [8, 6, 12])
def test_alibi_code_slopes(heads):
    from explorer.backend import alibi

    out = formulas.run_code(formulas.code_for("alibi", Params(max_len=16),
                                              compute_extra.AlibiState(heads=heads)))
    np.testing.assert_allclose(out, alibi.bias(heads, 16), atol=1e-12)


def test_heatmap_formula_substitutes_the_numbers():
    p = Params(d_model=128, base=10000.0)
    html = formulas.formula_html("heatmap", p, cursor=10, channel=8)
    value, w, _ = compute.pe_value(p, 10, 8)
    assert "d = 128" in html and "base = 10000" in html and "2i/128" in html
    assert formulas.num(value, 4) in html and formulas.num(w, 4) in html
    assert "<sub>" in html and "<sup>" in html
    html64 = formulas.formula_html("heatmap", p.with_(d_model=64), cursor=10, channel=8)
    assert "d = 64" in html64 and "2i/64" in html64 and "d = 128" not in html64
    cos = formulas.formula_html("heatmap", p, cursor=3, channel=9)
    assert "cos(" in cos and formulas.num(compute.pe_value(p, 3, 9)[0], 4) in cos


def test_formulas_in_chinese_and_for_every_view():
    p = Params()
    for view in ("heatmap", "curves", "similarity", "tokens", "learned", "conventions", "offset",
                 "frequencies", "rope", "alibi", "distance", "precision"):
        en = formulas.formula_html(view, p, 5, "en")
        zh = formulas.formula_html(view, p, 5, "zh_CN")
        assert en.startswith("<div>") and len(en) > 60
        assert any("\u4e00" <= ch <= "\u9fff" for ch in zh), view
    sim = formulas.formula_html("similarity", p.with_(metric="dot"), 4, "en")
    assert f"S(4, 5) = <b>{formulas.num(compute.similarity_value(p.with_(metric='dot'), 4, 5), 5)}" in sim


def test_num_uses_true_minus_and_integers():
    assert formulas.num(10000.0) == "10000"
    assert formulas.num(-0.61288, 4) == "−0.6129"


def test_one_translation_table_serves_qt_and_headless_text():
    """The formula panel's Chinese comes from resources/i18n/zh_CN.json, the file the .qm is built from."""
    import json

    from explorer.paths import resource
    from explorer.translations import fill, translate

    table = json.loads(resource("i18n", "zh_CN.json").read_text(encoding="utf-8"))
    for english, chinese in table["Formulas"].items():
        assert translate("Formulas", english, "zh_CN") == chinese
        assert translate("Formulas", english, "en") == english
    assert translate("Formulas", "not in the table", "zh_CN") == "not in the table"
    zh = formulas.formula_html("similarity", Params(), 5, "zh_CN")
    assert table["Formulas"]["depends only on the offset k = q − p"] in zh
    assert fill("%1 of %2, not %10", "a", "%2") == "a of %2, not %10"


@pytest.mark.parametrize("layout,chinese", [("interleaved", "通道排列: 交错"), ("concat", "通道排列: 拼接"),
                                            ("t2t", "通道排列: t2t")])
def test_settings_line_names_the_layout_in_the_panels_language(layout, chinese):
    """The settings line wrote 'layout: interleaved' with the value in English in the Chinese panel."""
    p = Params(layout=layout)
    assert f"layout: {layout}" in formulas.formula_html("heatmap", p, 5, "en")
    assert chinese in formulas.formula_html("heatmap", p, 5, "zh_CN")


@pytest.mark.parametrize("metric,chinese", [("cosine", "相似度度量: 余弦相似度"), ("dot", "相似度度量: 点积")])
def test_similarity_settings_name_the_metric_in_the_panels_language(metric, chinese):
    """The Chinese similarity formula ended '通道排列: 交错, metric: cosine' and opened its normalisation
    line with 'cosine:'; the metric is named as the control panel's Similarity box names it."""
    p = Params(metric=metric)
    en = formulas.formula_html("similarity", p, 5, "en")
    zh = formulas.formula_html("similarity", p, 5, "zh_CN")
    assert f"metric: {metric}" in en and chinese in zh
    assert not re.search(r"metric|cosine|\bdot\b", zh), zh
    assert ("余弦相似度: S(p, q) / (|PE(p)| |PE(q)|)" in zh) == (metric == "cosine")


@pytest.mark.parametrize("heads", [1, 3, 6, 8, 12, 40, 64])
def test_alibi_formula_states_the_slope_rule_the_view_uses(heads):
    """The ALiBi lines give the slopes' rule for any head count (the authors': a power of 2 L, then every
    other slope of 2L heads) and its first and last slopes: both equal backend.alibi.slopes. The line had
    read m_h = 2^(−8h/H) for every H, with only a note that other counts follow another rule."""
    from explorer.backend.alibi import slopes
    from explorer.compute.alibi import AlibiState

    html = formulas.formula_html("alibi", Params(), 0, "en", state=AlibiState(heads=heads))
    low = int(re.search(r"2<sup>−8h/(\d+)</sup>, h = 1 … (\d+)", html).group(1))
    extra = re.search(r"2<sup>−4\(2j−1\)/(\d+)</sup>, j = 1 … (\d+)", html)
    rule = [2.0 ** (-8 * h / low) for h in range(1, low + 1)]
    if extra is not None:
        assert int(extra.group(1)) == low
        rule += [2.0 ** (-4 * (2 * j - 1) / low) for j in range(1, int(extra.group(2)) + 1)]
    np.testing.assert_allclose(rule, slopes(heads), rtol=1e-12)
    shown = re.search(r"m = ([^<]*)</p>", html).group(1).replace("…", ",").split(",")
    values = [float(v.strip().replace("−", "-")) for v in shown if v.strip()]
    np.testing.assert_allclose(values[:-1] if heads > 4 else values, slopes(heads)[:min(4, heads)], rtol=1e-3)
    np.testing.assert_allclose(values[-1], slopes(heads)[-1], rtol=1e-3)
