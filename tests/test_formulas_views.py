"""The formula panel's lines for Layouts, Distance, Precision, Check, Learned and the RoPE scaling page: each
names what the view computes with its current numbers (the compute / backend functions' values), in English
and Chinese; no view falls back to the generic "variants of the sinusoidal PE below" line any more."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from explorer import catalogue
from explorer.backend import layouts
from explorer.backend.alibi import slopes
from explorer.backend.encodings import frequencies, sinusoidal_pe
from explorer.backend.rope_scaling import inv_frequencies, rope_frequencies
from explorer.backend.rope_types import yarn_ramp
from explorer.compute import formulas
from explorer.compute import learned as learned_data
from explorer.compute.check import CheckState
from explorer.compute.conventions import ConventionsState, conventions
from explorer.compute.distance import DistanceState, distance_view
from explorer.compute.precision import PrecisionState, precision_view
from explorer.compute.rope import RopeState
from explorer.params import Params

num = formulas.num
OTHER = formulas.TEXT["other"]


def html(view, params, cursor=5, lang="en", state=None, channel=8) -> str:
    return formulas.formula_html(view, params, cursor, lang, channel, state)


def plain(text: str, tag: str = "") -> str:
    return re.sub(r"<[^>]+>", tag, text).replace("&lt;", "<").replace("&gt;", ">")


def test_no_view_falls_back_to_the_generic_line():
    p = Params()
    for name in catalogue.NAMES:
        for lang in ("en", "zh_CN"):
            text = html(name, p, 5, lang)
            assert OTHER not in text and formulas.translate("Formulas", OTHER, lang) not in text, name
    rotation = html("rope", p, state=RopeState())
    scaling = html("rope", p, state=RopeState(page="scaling", rope_type="linear", factor=4.0))
    assert rotation != scaling and "θ′<sub>i</sub> = θ<sub>i</sub> / s, s = 4" in scaling


def test_layouts_lines_name_p_and_the_similarity_checks():
    p = Params(d_model=64, base=500.0, max_len=300, metric="dot")
    state = ConventionsState(rows=64)
    text = html("conventions", p, state=state, channel=9)
    r = conventions(p.project(catalogue.VIEWS["conventions"].reads), state)
    assert "P[2i+1, 32 + i] = 1 (64 × 64)" in text
    assert f"<b>{num(r.comparison.diff_t2t, 4)}</b>" in text and num(r.comparison.diff_concat, 3) in text
    concat = int(np.flatnonzero(layouts.concat_order(64) == 9)[0])
    assert concat == 36 and "interleaved channel 9 (cos, i = 4) is concat channel 36" in text
    assert num(frequencies(64, 500.0, "t2t")[1], 4) in text and "500<sup>−i/31</sup>" in text
    assert "metric: dot" in text


def test_distance_factors_are_the_closed_forms_at_the_cursor():
    p = Params(d_model=64, base=1000.0, max_len=512)
    state = DistanceState(head_dim=32, rope_base=500.0, heads=6, alibi_head=5, learned=False)
    k = 40
    text = html("distance", p, k, state=state)
    w = 1000.0 ** (-np.arange(0, 64, 2) / 64)
    theta = 500.0 ** (-np.arange(0, 32, 2) / 32)
    m = slopes(6)[5]
    assert m == 2.0 ** (-8 * 3 / 8)                      # the authors' rule: 6 heads -> 4 + every other of 8
    assert f"f<sub>sin</sub> = <b>{num(np.cos(k * w).mean(), 4)}</b>" in text
    assert f"f<sub>RoPE</sub> = <b>{num(np.cos(k * theta).mean(), 4)}</b>" in text
    assert f"f<sub>ALiBi</sub> = <b>{num(math.exp(-m * k), 4)}</b>" in text
    assert f"2<sup>−8·3/8</sup> = {num(m, 5)}" in text and "ALiBi head 5 (from 0) is h = 6 of 6" in text
    assert "learned" not in text                         # the learned curve is off


def test_distance_factors_at_match_the_drawn_curves_for_a_scaled_rope():
    from explorer.compute.distance import factors_at

    p = Params(d_model=48, max_len=3000)
    state = DistanceState(rope_type="yarn", factor=4.0, original_max_len=256, learned=False)
    r = distance_view(p.project(catalogue.VIEWS["distance"].reads), state)
    ks, ys = r.curves["rope"]
    for j in (0, 7, len(ks) - 1):
        at = factors_at(p, state, int(ks[j]))
        assert at["rope"] == pytest.approx(ys[j], abs=1e-12)
        assert at["rope_unscaled"] == pytest.approx(r.curves["rope_unscaled"][1][j], abs=1e-12)
        assert at["sinusoidal"] == pytest.approx(r.curves["sinusoidal"][1][j], abs=1e-12)
    a = inv_frequencies(64, 10000.0, state.scaling()).attention_factor
    assert a == pytest.approx(0.1 * math.log(4) + 1)
    assert f"a = {num(a, 5)}" in html("distance", p, 100, state=state)


@pytest.mark.parametrize("mode", ["compute", "store"])
def test_precision_gap_at_the_cursor_is_the_views(mode):
    p = Params(d_model=64, base=500.0, max_len=4096)
    state = PrecisionState(train_max_len=100, span=3000, mode=mode)
    text = html("precision", p, 2048, state=state)
    r = precision_view(p.project(catalogue.VIEWS["precision"].reads), state)
    at = int(np.flatnonzero(r.curves["float16"].positions == 2048)[0])
    for dt, c in r.curves.items():
        assert f"{dt} <b>{num(c.neighbour[at], 4)}</b>" in text
    exact = r.curves["float32"].exact_neighbour[at]
    assert f"(float64) {num(exact, 4)}" in text
    assert num(exact ** 2, 5) in text and "3,000 positions shown, train_max_len = 100" in text
    if mode == "compute":
        assert "float16 <b>0</b>" in text and "float16 2<sup>11</sup> = 2,048" in text
    else:
        assert "never collides" in text and "float16 <b>0</b>" not in text


def test_check_lines_show_the_difference_the_view_draws(tmp_path):
    pe = sinusoidal_pe(40, 16, 100.0, "interleaved", "float64")
    swapped = pe.copy()
    swapped[:, 0::2], swapped[:, 1::2] = pe[:, 1::2], pe[:, 0::2]
    path = tmp_path / "swapped.npy"
    np.save(path, swapped)
    state = CheckState(source=str(path), base=100.0)
    text = html("check", Params(), state=state)
    r = catalogue.VIEWS["check"].run(Params(), state)
    assert "R(pos, 2i) = sin(pos · ω<sub>i</sub>)" in text and "1 / 100<sup>2i/16</sup>" in text
    assert f"max |D| = <b>{num(r.max_difference, 4)}</b>" in text and r.max_difference > 1
    assert np.abs(swapped - pe).max() == pytest.approx(r.max_difference)
    i, j = np.unravel_index(np.argmax(np.abs(r.difference)), r.difference.shape)
    assert f"D[{r.rows[i]}, {r.cols[j]}] = {num(swapped[r.rows[i], r.cols[j]] - pe[r.rows[i], r.cols[j]], 4)}" in text
    assert "swapped.npy, 40 × 16, kind = pe; you expect: base = 100" in text
    empty = html("check", Params(), state=CheckState())
    assert "D = T − R" in empty and "Check my table" in empty


def test_learned_line_names_the_shown_tables_source_and_shape(monkeypatch):
    table = np.random.default_rng(3).standard_normal((40, 24)).astype(np.float32)
    p = Params(base=300.0)
    shown = learned_data.beside_table(table, p, 40, 24)
    monkeypatch.setattr(learned_data, "shown_table", lambda params: shown)
    text = html("learned", p, 7)
    assert "P is a trained table (table: 40 × 24)" in text and "MiniLM" not in text
    assert "300<sup>2i/24</sup>" in text
    a, b = table[7].astype(np.float64), table[8].astype(np.float64)
    assert num(a @ b / np.linalg.norm(a) / np.linalg.norm(b), 4) in text


def scaling(**fields) -> RopeState:
    return RopeState(page="scaling", **fields)


def test_rope_scaling_yarn_factor_ramp_and_attention_factor():
    state = scaling(rope_type="yarn", factor=8.0, original_max_len=4096, head_dim=128, base=500000.0)
    text = html("rope", Params(), state=state)
    got = rope_frequencies(128, 500000.0, "yarn", factor=8.0, original_max_position_embeddings=4096)
    _, low, high = yarn_ramp(state.scaling(), 128, 500000.0)
    assert got.attention_factor == pytest.approx(0.1 * math.log(8) + 1)
    assert f"0.1 ln 8 + 1 = {num(got.attention_factor, 6)}" in text
    assert f"clip((i − {num(low)}) / ({num(high)} − {num(low)}), 0, 1)" in text
    assert low == math.floor(128 * math.log(4096 / (2 * math.pi * 32)) / (2 * math.log(500000)))
    assert f"a<sup>2</sup> = {num(got.attention_factor ** 2, 5)}" in text
    i = int(re.search(r"i = (\d+): θ", text).group(1))
    assert f"θ′<sub>{i}</sub> = <b>{num(got.inv_freq[i], 4)}</b>" in text


def test_rope_scaling_llama3_band_dynamic_base_longrope_and_proportional():
    llama = html("rope", Params(), state=scaling(rope_type="llama3", factor=8.0, original_max_len=8192,
                                                  low_freq_factor=1.0, high_freq_factor=4.0, head_dim=128,
                                                  base=500000.0))
    assert "L<sub>0</sub>/4 = 2048" in llama and "L<sub>0</sub>/1 = 8192" in llama
    dyn_state = scaling(rope_type="dynamic", factor=4.0, original_max_len=256, seq_len=2048)
    dyn = plain(html("rope", Params(), state=dyn_state))
    new_base = float(re.search(r"b′ = 10000 · \S+ = ([\d.]+)", dyn).group(1))
    inv = inv_frequencies(64, 10000.0, dyn_state.scaling(), 2048).inv_freq
    assert inv[1] == pytest.approx(new_base ** (-2 / 64), rel=1e-6)
    assert "(4·2048/256 − 3)" not in dyn and "29<sup>" in html("rope", Params(), state=dyn_state)
    long_state = scaling(rope_type="longrope", factor=4.0, original_max_len=256, seq_len=1000,
                         short_factor=(1.0,) * 32, long_factor=tuple(float(x) for x in range(1, 33)))
    long = plain(html("rope", Params(), state=long_state))
    a = math.sqrt(1 + math.log(4) / math.log(256))
    assert a == pytest.approx(inv_frequencies(64, 10000.0, long_state.scaling(), 1000).attention_factor)
    assert f"ln 4 / ln 256) = {num(a, 6)}" in long and "long_factor (seq_len 1000 > L0)" in long
    prop = plain(html("rope", Params(), state=scaling(rope_type="proportional", partial_rotary_factor=0.25,
                                                      factor=8.0)))
    assert "(i < 8 = ⌊0.25 · 64 / 2⌋)" in prop and "not rotated 24" in prop


ENGLISH_ALLOWED = {  # identifiers, dtype and rope type names, functions: written so on the board in either language
    "PE", "sin", "cos", "ln", "clip", "max", "mean", "base", "max_len", "head_dim", "rotary_dim", "dim", "seq_len",
    "train_max_len", "pos", "t2t", "RoPE", "ALiBi", "MiniLM", "float", "bfloat", "kind", "pe", "rope_cache", "inv_freq",
    "pairing", "low", "high", "rope", "long_factor", "short_factor", "default", "linear", "dynamic", "yarn",
    "llama", "longrope", "proportional", "npy", "swapped", "Ctrl", "id", "mod", "exp", "attention_factor", "diag",
}


def _states(tmp_path):
    path = tmp_path / "pe.npy"
    np.save(path, sinusoidal_pe(20, 8, 10000.0, "concat", "float64"))
    yield "conventions", None
    yield "distance", DistanceState(heads=6, alibi_head=5)
    yield "distance", DistanceState(rope_type="yarn", factor=4.0, original_max_len=256)
    yield "precision", PrecisionState(mode="store")
    yield "check", CheckState()
    yield "check", CheckState(source=str(path), pairing="half")
    yield "learned", None
    for kind, extra in (("default", {}), ("linear", {"factor": 2.0}), ("proportional", {}),
                        ("dynamic", {"factor": 2.0, "original_max_len": 128, "seq_len": 1024}),
                        ("yarn", {"factor": 4.0, "original_max_len": 128, "truncate": False}),
                        ("llama3", {"factor": 8.0, "original_max_len": 64, "low_freq_factor": 1.0,
                                    "high_freq_factor": 4.0}),
                        ("longrope", {"factor": 4.0, "original_max_len": 256, "short_factor": (1.0,) * 32,
                                      "long_factor": (2.0,) * 32})):
        yield "rope", scaling(rope_type=kind, **extra)


def test_english_and_chinese_lines_have_no_untranslated_words(tmp_path):
    from explorer.compute import formulas_rope, formulas_views

    english = set(formulas_views.TEXT.values()) | set(formulas_rope.TEXT.values())
    for view, state in _states(tmp_path):
        en, zh = html(view, Params(), 5, "en", state), html(view, Params(), 5, "zh_CN", state)
        assert 2 <= en.count("<p ") <= 6 and zh.count("<p ") == en.count("<p ")
        assert any("\u4e00" <= ch <= "\u9fff" for ch in zh), (view, state)
        for text in english:
            stem = re.split(r"%\d|<", text)[0].strip()
            assert not re.search(r"[a-z]{4,}", stem) or not re.search(rf"(?<!\w){re.escape(stem)}(?!\w)", zh), stem
        words = set(re.findall(r"[A-Za-z_]+", plain(zh, " ")))
        letters = {"P", "S", "T", "R", "D", "E", "X", "L", "a", "b", "d", "f", "h", "i", "j", "k", "m", "n", "p", "q",
                   "s", "e", "t", "I", "K"}
        assert words <= ENGLISH_ALLOWED | letters, (view, words - ENGLISH_ALLOWED)


def test_check_lines_say_why_a_table_cannot_be_read_in_the_panels_language(tmp_path):
    """The check view says why a table cannot be read in Chinese (localized); the formula panel had shown
    the English Message as it was: "the array holds 1 NaN or infinite values; a PE table has none"."""
    from explorer.errors import localized

    pe = sinusoidal_pe(20, 8, 10000.0, "interleaved", "float64")
    pe[3, 3] = np.nan
    path = tmp_path / "nan.npy"
    np.save(path, pe)
    for lang in ("en", "zh_CN"):
        state = CheckState(source=str(path), lang=lang)
        r = catalogue.VIEWS["check"].run(Params(), state)
        assert r.error and not r.kind
        text = html("check", Params(), lang=lang, state=state)
        assert localized(r.error, lang) in text
        if lang == "zh_CN":
            assert str(r.error) not in text and "NaN" in text


def test_check_reference_line_names_a_scaled_ropes_parameters(tmp_path):
    """A linear inv_freq (θ / 4) matched its reference, whose line read R[i] = θ<sub>i</sub> = 10000^(−2i/64)
    while R[1] beside it is θ<sub>1</sub> / 4: the line names θ′ and the rope type's factor."""
    theta = 10000.0 ** (-np.arange(0, 64, 2) / 64)
    np.save(tmp_path / "linear.npy", theta / 4)
    state = CheckState(source=str(tmp_path / "linear.npy"))
    r = catalogue.VIEWS["check"].run(Params(), state)
    assert r.match and r.convention["rope_type"] == "linear" and r.reference[1] == pytest.approx(theta[1] / 4)
    text = html("check", Params(), state=state)
    assert "R[i] = θ′<sub>i</sub>" in text and "rope_type = linear, factor = 4" in text
    m = np.arange(100)[:, None] * np.where(np.arange(32) < 8, theta, 0.0)[None]
    np.save(tmp_path / "p_rope.npy", np.cos(np.concatenate([m, m], 1)))
    state = CheckState(source=str(tmp_path / "p_rope.npy"))
    text = html("check", Params(), state=state)
    assert "cos(m θ′<sub>j mod 32</sub>)" in text and "partial_rotary_factor = 0.25" in text
    np.save(tmp_path / "plain.npy", theta)
    plain_text = html("check", Params(), state=CheckState(source=str(tmp_path / "plain.npy")))
    assert "R[i] = θ<sub>i</sub> = 10000<sup>−2i/64</sup>" in plain_text and "rope_type" not in plain_text


def test_without_minilm_the_lines_say_so_and_draw_no_learned_formula(monkeypatch):
    """MiniLM's table unavailable (not downloaded): the Learned view and the Distance chart say why and draw
    no learned curve, while the panel still read "P is a trained table (MiniLM: 512 × 384)" and f_learned(k)."""
    from explorer.backend import pretrained
    from explorer.compute import distance as distance_data
    from explorer.errors import InputError

    def missing():
        raise InputError("MiniLM's weights are not on this machine")

    monkeypatch.setattr(pretrained, "minilm_tables", missing)
    monkeypatch.setattr(distance_data, "learned_curve", lambda: "MiniLM's weights are not on this machine")
    learned_data._learned.cache_clear()
    learned_data._learned_params.cache_clear()
    try:
        text = html("learned", Params(base=321.0), 7)
        assert "not on this machine" in text and "P is a trained table" not in text
        text = html("distance", Params(base=321.0), 7, state=DistanceState())
        assert "f<sub>learned</sub>" not in text and "f<sub>sin</sub> = " in text
    finally:
        learned_data._learned.cache_clear()
        learned_data._learned_params.cache_clear()


def test_check_lines_escape_a_file_name_that_looks_like_markup(tmp_path):
    """A file named "<b>pe&.npy" is shown as its name, not read as rich text (it bolded the rest of the
    line and dropped the name), in the T line and in a refusal's line."""
    pe = sinusoidal_pe(20, 8, 10000.0, "interleaved", "float64")
    path = tmp_path / "<b>pe&.npy"
    np.save(path, pe)
    text = html("check", Params(), state=CheckState(source=str(path)))
    assert "T: &lt;b&gt;pe&amp;.npy, 20 × 8" in text and "<b>pe" not in text
    bad = tmp_path / "<i>bad.npy"
    bad.write_bytes(path.read_bytes()[:70])               # cut short: the refusal names the file
    text = html("check", Params(), state=CheckState(source=str(bad)))
    assert "&lt;i&gt;bad.npy" in text and "<i>" not in text
