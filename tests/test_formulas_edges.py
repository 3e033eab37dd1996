"""The formula panel's lines at the edges of what the views accept: each writes what the view computes there,
in English and Chinese (d_model = 1, a clamped YaRN band, a table that fits nothing, ALiBi's head numbers, a
model that did not open)."""

from __future__ import annotations

import re

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
