"""The formula panel's lines at the edges of what the views accept: each writes what the view computes there,
in English and Chinese (d_model = 1, a clamped YaRN band, a table that fits nothing, ALiBi's head numbers, a
model that did not open)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from explorer.compute import formulas
from explorer.compute.distance import DistanceState, factors_at
from explorer.params import Params


def html(view, params, cursor=5, lang="en", state=None) -> str:
    return formulas.formula_html(view, params, cursor, lang, 8, state)


def plain(text: str) -> str:
    return re.sub(r"<[^>]+>", "", text).replace("&lt;", "<").replace("&gt;", ">")


def test_distance_at_d_model_1_writes_an_empty_sum_not_one_over_zero():
    """d_model = 1 has one sine and no sine–cosine pair: the line read (1/0) Σ_{i=0}^{-1} cos(k ω_i)."""
    p = Params(d_model=1)
    state = DistanceState(learned=False)
    assert factors_at(p, state, 5)["sinusoidal"] == 0
    en, zh = html("distance", p, state=state), html("distance", p, lang="zh_CN", state=state)
    for text in (en, zh):
        assert "(1/0)" not in text and "<sup>-1</sup>" not in text
        assert "f<sub>sin</sub>(k) = 0: " in text and "f<sub>sin</sub> = <b>0</b>" in text
    assert "d = 1 has no sine–cosine pair: the sum is empty" in en
    assert "d = 1 时没有正弦–余弦对" in zh
    two = html("distance", Params(d_model=2), state=state)
    assert "(1/1) Σ<sub>i=0</sub><sup>0</sup> cos(k ω<sub>i</sub>)" in two


def _yarn(lang="en", **fields) -> str:
    from explorer.compute.rope import RopeState

    return plain(html("rope", Params(), lang=lang, state=RopeState(page="scaling", rope_type="yarn", **fields)))


def test_yarn_line_writes_the_clamps_the_backend_applies():
    """A short original context floors low below 0 and the backend clamps it (max(low, 0), as transformers'
    find_correction_range): the line read low = ⌊…⌋ = 0 beside a floor of −2. A base near 1 ceils high above
    dim − 1, clamped by min(high, dim − 1) the same way."""
    import math

    from explorer.backend.rope_types import yarn_ramp
    from explorer.compute.rope import RopeState

    state = RopeState(page="scaling", rope_type="yarn", factor=4.0, original_max_len=128)
    assert math.floor(64 * math.log(128 / (2 * math.pi * 32)) / (2 * math.log(10000))) == -2
    assert yarn_ramp(state.scaling(), 64, 10000.0)[1] == 0
    for lang in ("en", "zh_CN"):
        text = _yarn(lang, factor=4.0, original_max_len=128)
        assert "low = max(⌊64 ln(128 / (2π·32)) / (2 ln 10000)⌋, 0) = max(−2, 0) = 0, high = ⌈" in text
        assert "min(" not in text
    loose = _yarn(factor=4.0, original_max_len=128, truncate=False)
    assert "low = max(64 ln(128 / (2π·32)) / (2 ln 10000), 0) = max(−1.569, 0) = 0" in loose
    state = RopeState(page="scaling", rope_type="yarn", factor=4.0, original_max_len=4096, base=2.0, head_dim=16)
    assert math.ceil(16 * math.log(4096 / (2 * math.pi)) / (2 * math.log(2))) == 75
    assert yarn_ramp(state.scaling(), 16, 2.0)[2] == 15
    text = _yarn(factor=4.0, original_max_len=4096, base=2.0, head_dim=16)
    assert "high = min(⌈… (2π·1) …⌉, 15) = min(75, 15) = 15" in text and "max(" not in text
    unclamped = _yarn(factor=8.0, original_max_len=4096, head_dim=128, base=500000.0)
    assert "low = ⌊128 ln(4096 / (2π·32)) / (2 ln 500000)⌋ = 14, high = ⌈… (2π·1) …⌉ = 32" in unclamped


@pytest.mark.parametrize("fields, end", [(dict(original_max_len=6), 0),                      # high ceils to 0
                                         (dict(original_max_len=760, base=2.0, head_dim=16), 15)])  # low: dim − 1
def test_yarn_ramp_writes_the_0_001_the_backend_adds_when_low_equals_high(fields, end):
    """low = high (both clamped to 0, or to dim − 1): the backend, as transformers' linear_ramp_factor, divides
    by high + 0.001 − low; the line wrote (i − 0) / (0 − 0), a division by 0."""
    from explorer.backend.rope_types import yarn_ramp
    from explorer.compute.rope import RopeState

    state = RopeState(page="scaling", rope_type="yarn", factor=4.0, **fields)
    ramp, low, high = yarn_ramp(state.scaling(), state.head_dim, state.base)
    assert low == high == end and np.array_equal(ramp, np.clip((np.arange(len(ramp)) - low) / 0.001, 0, 1))
    en, zh = _yarn(factor=4.0, **fields), _yarn("zh_CN", factor=4.0, **fields)
    for text in (en, zh):
        assert f"γi = clip((i − {end}) / ({end} + 0.001 − {end}), 0, 1), s = 4; low = high" in text
        assert f"/ ({end} − {end})" not in text
    assert "low = high: transformers adds 0.001 to high (no division by 0)" in en
    assert "low = high：transformers 给 high 加 0.001（避免除以 0）" in zh
    assert "0.001" not in _yarn(factor=4.0, original_max_len=4096)          # low < high: no guard written


def test_check_line_without_any_fit_says_so_instead_of_off_by_inf(tmp_path):
    """An inv_freq holding a negative number, or a random table read as a RoPE cache, is fitted by nothing
    (max_error inf, no reference): the line read "the nearest fit is off by inf"."""
    import numpy as np

    from explorer import catalogue
    from explorer.compute.check import CheckState

    np.save(tmp_path / "negative.npy", np.array([1.0, -0.5, 0.25, 0.1]))
    np.save(tmp_path / "noise.npy", np.random.default_rng(0).standard_normal((50, 16)))
    for name, kind in (("negative", ""), ("noise", "rope_cache")):
        state = CheckState(source=str(tmp_path / f"{name}.npy"), kind=kind)
        r = catalogue.VIEWS["check"].run(Params(), state)
        assert r.reference is None and r.max_error == float("inf"), name
        en, zh = html("check", Params(), state=state), html("check", Params(), lang="zh_CN", state=state)
        assert "inf" not in plain(en) and "off by" not in en and "inf" not in plain(zh)
        assert "no reference fits, and there is no nearest fit to measure against" in en
        assert "没有相符的参考表，也没有可用来比较的最接近拟合" in zh


def test_alibi_line_names_the_head_as_the_box_counts_and_as_the_slope_formula_counts():
    """The ALiBi head box and the ALiBi view count heads from 0, the slope 2^(−8h/n) counts h from 1: the
    line read "head 3 of 8" beside m = 2^(−8·4/8), the 4th head's slope."""
    from explorer.backend.alibi import slopes

    state = DistanceState(heads=8, alibi_head=3, learned=False)
    assert slopes(8)[3] == 2.0 ** (-8 * 4 / 8)
    en = html("distance", Params(), state=state)
    assert "m = 2<sup>−8·4/8</sup> = 0.0625; ALiBi head 3 (from 0) is h = 4 of 8 (from 1)" in en
    assert "ALiBi 头 3（从 0 数）即 8 个头中的 h = 4（从 1 数）" in html("distance", Params(), lang="zh_CN",
                                                                   state=state)
    rule = html("distance", Params(), state=DistanceState(heads=6, alibi_head=0, learned=False))
    assert "2<sup>−8·1/4</sup>" in rule and "ALiBi head 0 (from 0) is h = 1 of 6 (from 1; the authors' rule" in rule


def test_learned_line_says_a_model_that_did_not_open_did_not_open(tmp_path, monkeypatch):
    """A model that could not be opened (no such folder, a broken config.json) was said to have "no learned
    position table", as a RoPE model is: the line gives why it is not shown, as the view's note does."""
    from dataclasses import replace

    from explorer.compute import learned as learned_data

    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "config.json").write_text("{", encoding="utf-8")
    for folder, en_why, zh_why in ((tmp_path / "nothere", "nothere does not exist", "nothere 不存在"),
                                   (broken, "config.json is not a valid config.json", "不是有效的 config.json")):
        p = Params(model=str(folder))
        assert learned_data.shown_table(p).note_kind == "failed"
        en, zh = plain(html("learned", p)), plain(html("learned", p, lang="zh_CN"))
        assert "no learned position table" not in en and "没有可学习的位置表" not in zh
        assert en_why in en and "MiniLM's is shown instead" in en
        assert zh_why in zh and "改为显示 MiniLM 的" in zh
    rope = replace(learned_data.shown_table(Params()), note_kind="rope", requested="Qwen3")
    monkeypatch.setattr(learned_data, "shown_table", lambda params: rope)
    assert "Qwen3 has no learned position table: MiniLM's is shown" in html("learned", Params())


def test_alibi_view_lines_name_its_drawn_heads_as_its_titles_count_and_as_the_slope_formula_counts():
    """The ALiBi view's titles ("head 5: m = 1/64") and slope axis count heads from 0, its m_h = 2^(−8h/n)
    counts h = 1 … n: the lines never said that the view's head 5 is h = 6."""
    from explorer.backend.alibi import slopes
    from explorer.compute.alibi import AlibiState, alibi_view

    state = AlibiState(heads=8)
    assert alibi_view(Params(), state).shown == (0, 2, 5, 7) and slopes(8)[5] == 2.0 ** (-8 * 6 / 8)
    en, zh = plain(html("alibi", Params(), state=state)), plain(html("alibi", Params(), lang="zh_CN", state=state))
    assert "ALiBi heads 0, 2, 5, 7 (from 0) are h = 1, 3, 6, 8 of 8 (from 1)" in en
    assert "ALiBi 头 0, 2, 5, 7（从 0 数）即 8 个头中的 h = 1, 3, 6, 8（从 1 数）" in zh
    six = AlibiState(heads=6)                        # the authors' rule: the view's head 5 is m_{4+2} = m_6
    assert alibi_view(Params(), six).shown == (0, 2, 3, 5) and slopes(6)[5] == 2.0 ** (-4 * 3 / 4)
    assert "ALiBi heads 0, 2, 3, 5 (from 0) are h = 1, 3, 4, 6 of 6 (from 1)" in plain(html("alibi", Params(),
                                                                                             state=six))
    one = plain(html("alibi", Params(), state=AlibiState(heads=1)))
    assert "ALiBi head 0 (from 0) is h = 1 of 1 (from 1)" in one
