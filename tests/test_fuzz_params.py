"""Fuzz: Params over their whole domain and beyond, the compute functions, scene files.

Every case ends in a result or an InputError with a message; never another exception.
Profile: PE_FUZZ_PROFILE=ci (default, quick, derandomized) or long (>= 10,000 examples per target,
run by `python tools/fuzz_long.py`).
"""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import fields

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests import compute_ns as compute
from explorer.errors import InputError
from explorer.params import BASE_RANGE, D_MODEL_RANGE, DEVICES, MAX_LEN_RANGE, Params
from explorer.backend.encodings import DTYPES, LAYOUTS
from explorer.backend.similarity import METRICS

settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=10_000, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(settings.get_profile(os.environ.get("PE_FUZZ_PROFILE", "ci")))

# ---- values for any field: the domain, its edges, and things that are not numbers at all ----------
ODD_FLOATS = st.sampled_from([0.0, -0.0, -1.0, 1.0, 1.0001, 1.00000001, 1e9, 1e9 + 1, 1e308,
                              math.inf, -math.inf, math.nan, 5e-324, 2.5])
ODD_INTS = st.sampled_from([0, -1, 1, 2, 8192, 8193, 10_000_000, 10_000_001, 2**31 - 1, 2**31,
                            2**63, -(2**63), 10**400, -(10**400)])
LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")      # what str.splitlines splits on
ANY_TEXT = st.text(max_size=12)   # line breaks included: messages must still be one line
JUNK = st.one_of(
    st.none(), st.booleans(), ANY_TEXT, st.sampled_from(["10000", "1e4", "nan", "", " 5 ",
                                                                       "１２", "inf", "0x10"]),
    st.lists(st.integers(), max_size=3), st.dictionaries(ANY_TEXT, st.integers(), max_size=2),
    st.binary(max_size=4), st.complex_numbers(allow_nan=True), st.just(object()),
)
ANY_NUMBER = st.one_of(st.integers(), st.floats(), ODD_FLOATS, ODD_INTS)
ANY_VALUE = st.one_of(ANY_NUMBER, JUNK)
FIELD_NAMES = [f.name for f in fields(Params)]


def _field_value(name: str):
    """Mostly-valid values for one field, with a fair share of invalid ones."""
    good = {
        "d_model": st.integers(*D_MODEL_RANGE), "max_len": st.integers(*MAX_LEN_RANGE),
        "base": st.floats(*BASE_RANGE), "layout": st.sampled_from(LAYOUTS),
        "dtype": st.sampled_from(DTYPES), "device": st.sampled_from(DEVICES),
        "metric": st.sampled_from(METRICS), "scale_embedding": st.booleans(),
        "seed": st.integers(0, 2**31 - 1), "text": st.text(max_size=50),
        "tokenizer": st.sampled_from(["char", "cl100k", "wordpiece"]),
        "embedding_source": st.sampled_from(["untrained", "minilm"]),
        "curve_pairs": st.lists(st.integers(0, 4096), max_size=16).map(tuple),
        "curve_mode": st.sampled_from(["spread", "fastest", "slowest", "manual"]),
        "model": st.sampled_from(["", "smollm2", "minilm", "/no/such/model"]),
    }[name]
    return st.one_of(good, good, ANY_VALUE)


KWARGS = st.fixed_dictionaries({}, optional={n: _field_value(n) for n in FIELD_NAMES})


def _message_ok(exc: InputError, echoed: str = "") -> None:
    event("InputError")
    check_message(exc)


def check_message(exc: InputError) -> None:
    """A message for a person: one line, bounded, no traceback."""
    text = str(exc)
    assert text and not LINE_BREAKS & set(text) and "Traceback" not in text, repr(text)
    assert len(text) <= 600, f"a {len(text)}-character message: {text[:200]}"


@FUZZ
@given(KWARGS)
def test_params_constructor_result_or_input_error(kwargs):
    try:
        p = Params(**kwargs)
    except InputError as exc:
        _message_ok(exc)
        return
    assert 1 <= p.d_model <= 8192 and 1 <= p.max_len <= 10_000_000
    assert math.isfinite(p.base) and 1 < p.base <= 1e9
    assert Params.from_dict(json.loads(json.dumps(p.to_dict()))) == p   # a valid Params round-trips


DICTS = st.one_of(
    KWARGS.map(lambda d: {k: (list(v) if isinstance(v, tuple) else v) for k, v in d.items()}),
    st.dictionaries(st.one_of(st.sampled_from(FIELD_NAMES), ANY_TEXT),  # JSON keys are str
                    ANY_VALUE, max_size=6),
    ANY_VALUE,
)


@FUZZ
@given(DICTS)
def test_params_from_dict_result_or_input_error(data):
    try:
        p = Params.from_dict(data)
    except InputError as exc:
        _message_ok(exc)
        return
    assert isinstance(p, Params)


@FUZZ
@given(st.sampled_from(FIELD_NAMES), ANY_VALUE)
def test_with_keeps_old_params_on_refusal(name, value):
    base = Params()
    try:
        new = base.with_(**{name: value})
    except InputError as exc:
        _message_ok(exc)
        assert base == Params()            # frozen: the refused change touched nothing
        return
    assert getattr(new, name) == value or (isinstance(value, float) and math.isnan(value))


# ---- compute: random valid Params x random (incl. degenerate) Windows ----------------------------
VALID = st.builds(
    Params,
    d_model=st.one_of(st.integers(1, 64), st.integers(1, 8192), st.sampled_from([1, 2, 3, 8191, 8192])),
    max_len=st.one_of(st.integers(1, 300), st.integers(1, 10_000_000), st.sampled_from([1, 2, 10_000_000])),
    base=st.one_of(st.floats(1.0001, 1e9), st.sampled_from([1.0001, 2.0, 10000.0, 1e9])),
    layout=st.sampled_from(LAYOUTS), dtype=st.sampled_from(DTYPES), metric=st.sampled_from(METRICS),
    curve_pairs=st.lists(st.integers(0, 8192), max_size=16).map(tuple),
)
COORD = st.one_of(st.integers(-5, 400), st.integers(-(10**12), 10**12), st.sampled_from([0, 1, -1]))
PIXELS = st.one_of(st.integers(-3, 900), st.sampled_from([0, 1, 2, 1080, 1600]))
WINDOWS = st.builds(compute.Window, COORD, COORD, COORD, COORD, PIXELS, PIXELS)


def _check_window(p: Params, w: compute.Window) -> compute.Window:
    win = w.clipped(p)
    assert 0 <= win.pos0 < win.pos1 <= p.max_len and 0 <= win.ch0 < win.ch1 <= p.d_model
    return win


@FUZZ
@given(VALID, WINDOWS)
def test_heatmap_finite_screen_sized(p, w):
    win = _check_window(p, w)
    r = compute.heatmap(p, w)
    rows, cols = r.image.shape
    assert rows == math.ceil((win.pos1 - win.pos0) / r.pos_step) <= max(1, win.rows_px)
    assert cols == (win.ch1 - win.ch0) // r.ch_step and 1 <= cols <= max(1, win.cols_px)
    assert np.isfinite(r.image).all() and np.abs(r.image).max() <= 1.0 + 1e-5


@FUZZ
@given(VALID, WINDOWS)
def test_curves_finite_screen_sized(p, w):
    win = _check_window(p, w)
    r = compute.curves(p, w)
    n_pairs = len({i for i in p.curve_pairs if i < len(compute.frequencies(p.d_model, p.base, p.layout))})
    assert n_pairs <= len(r.lines) <= 2 * n_pairs
    for line in r.lines:
        assert line.x.shape == line.y.shape and line.x.ndim == 1
        assert len(line.x) <= 2 * max(1, win.cols_px) + 2
        assert np.isfinite(line.x).all() and np.isfinite(line.y).all() and np.abs(line.y).max() <= 1
        assert win.pos0 <= line.x.min() and line.x.max() <= win.pos1 - 1
        assert line.wavelength > 0


@FUZZ
@given(VALID, WINDOWS)
def test_similarity_finite_screen_sized(p, w):
    win = _check_window(p, w)
    r = compute.similarity(p, w)
    rows, cols = r.image.shape
    assert rows == cols <= max(1, min(win.rows_px, win.cols_px))
    # f(0) itself beside the block means (their first one hides its peak)
    assert r.profile_k.shape == r.profile_f.shape and len(r.profile_k) <= max(2, win.cols_px)
    assert r.profile_k[0] == 0 and r.profile_f[0] == pytest.approx(
        1.0 if p.metric == "cosine" else p.d_model // 2, rel=1e-9) or p.d_model < 2
    for a in (r.image, r.profile_k, r.profile_f):
        assert np.isfinite(a).all()
    limit = 1 + 1e-5 if p.metric == "cosine" else p.d_model / 2 + 1 + 1e-3
    assert np.abs(r.image).max() <= limit


# ---- scene files: random bytes, truncated/mutated JSON ------------------------------------------
from explorer import scenes  # noqa: E402


def _as_text(data: bytes) -> str:
    """The file's text plus its JSON escapes (\\n, \\r, \\f, \\uXXXX) resolved: what a message may echo."""
    text = data.decode("utf-8", "replace")
    simple = text.replace("\\n", "\n").replace("\\r", "\r").replace("\\f", "\f")
    return text + re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), simple)


def _good_scene_text() -> str:
    """A good scene naming every parameter (version 2 would leave the defaults out), so that each
    parameter can be mutated."""
    return json.dumps(scenes.make_scene(Params(), "heatmap", 3).to_dict() | {"params": Params().to_dict()})


def _mutate(doc: dict, key, value) -> dict:
    out = dict(doc)
    if value is _DELETE:
        out.pop(key, None)
    else:
        out[key] = value
    return out


_DELETE = object()
HUGE_INT = "1" + "0" * 400


def _with_number(key: str, literal: str) -> bytes:
    """The good scene with the value of `key` replaced by a raw JSON literal."""
    return re.sub(f'("{key}": )[^,}}]+', lambda m: m.group(1) + literal, _good_scene_text(), count=1).encode()

SCENE_BYTES = st.one_of(
    st.binary(max_size=300),
    st.integers(0, 2000).map(lambda n: _good_scene_text()[:n].encode()),
    st.text(max_size=200).map(lambda s: s.encode("utf-8", "surrogatepass")),
    st.builds(lambda k, v: json.dumps(_mutate(json.loads(_good_scene_text()), k, v), default=str).encode(),
              st.sampled_from(["version", "params", "view", "cursor", "title", "explain", "question", "x"]),
              st.one_of(ANY_NUMBER.filter(lambda v: not (isinstance(v, int) and abs(v) > 10**300)),
                        st.none(), st.booleans(), st.text(max_size=20), st.just(_DELETE),
                        st.dictionaries(st.text(max_size=5), st.integers(), max_size=3))),
    st.builds(_with_number, st.sampled_from(["d_model", "max_len", "base", "seed", "cursor", "version"]),
              st.sampled_from(["1e999", "NaN", "-Infinity", "9" * 5000, "1" + "0" * 400, "-0", "[]",
                               "{}", '"x"', "true", "1.5", "null", "-1", "0"])
              ),
)


@FUZZ
@given(SCENE_BYTES)
def test_load_scene_result_or_input_error(tmp_path_factory, data):
    path = tmp_path_factory.getbasetemp() / "fuzz_scene.json"
    path.write_bytes(data)
    for load in (scenes.load_scene, scenes.load_deck):     # a bare scene is a one-scene deck
        try:
            got = load(path)
        except InputError as exc:
            _message_ok(exc, echoed=_as_text(data))
            continue
        event(f"{load.__name__} ok")
        for scene in got if isinstance(got, list) else [got]:
            assert isinstance(scene.params, Params)


# ---- found by this fuzzing, fixed in params.py (8246716): keep them fixed --------------------------
@pytest.mark.parametrize("make", [
    lambda: Params(base=10**400),
    lambda: Params.from_dict(json.loads('{"base": 1' + "0" * 400 + "}")),   # reachable from a file
    lambda: Params.from_dict({0: 1}),
])
def test_found_params_bugs_stay_fixed(make):
    with pytest.raises(InputError):
        make()


def test_scene_with_huge_int_base_is_refused(tmp_path):
    path = tmp_path / "s.json"
    path.write_bytes(_with_number("base", HUGE_INT))
    with pytest.raises(InputError):
        scenes.load_scene(path)


# ---- found by the long profile, fixed: the user's value is echoed as a short repr --------------
@pytest.mark.parametrize("make", [
    lambda: Params(base="\n"),
    lambda: Params.from_dict({"\n": 1}),
    lambda: Params(layout="x" * 10_000),
    lambda: Params(d_model="x" * 10_000),
    lambda: Params.from_dict({"\u2028": 1}),
])
def test_messages_are_one_short_line(make):
    with pytest.raises(InputError) as info:
        make()
    check_message(info.value)


def test_curve_envelopes_are_the_exact_range_of_each_columns_positions():
    """Dense curves: pairs (x, min), (x, max) per pixel column, equal to the range of the continuous
    sin/cos over the column's positions and the one before it (so the drawn bars join), sampled finely."""
    p = Params(max_len=20_000, d_model=64, base=10000.0, curve_pairs=(0, 9, 31))
    r = compute.curves(p, compute.Window.full(p, 300, 700))
    assert r.pos_step > 1
    w = compute.frequencies(p.d_model, p.base, p.layout)
    for line in r.lines:
        phase = np.pi / 2 if line.kind == "cos" else 0.0
        x, y = line.x.reshape(-1, 2), line.y.reshape(-1, 2)                  # (columns, 2)
        assert np.all(x[:, 0] == x[:, 1])
        for j in range(0, len(x), 37):
            s = j * r.pos_step
            e = min(s + r.pos_step - 1, p.max_len - 1)
            values = np.sin(np.linspace(max(s - 1, 0), e, 20_001) * w[line.pair] + phase)
            np.testing.assert_allclose(y[j], [values.min(), values.max()], atol=1e-6)


@given(st.text(max_size=40), st.integers(1, 4096))
def test_pair_entry_is_indices_or_one_line_refusal(text, d_model):
    """The Curves view's typed frequency indices: any text gives indices in range or an InputError
    ("²" and "①" pass str.isdigit and made int() raise ValueError in the GUI thread)."""
    from explorer.params import parse_pairs

    try:
        pairs = parse_pairs(text, d_model)
    except InputError as exc:
        assert "\n" not in str(exc)
        return
    assert 1 <= len(pairs) <= 16 and all(0 <= i < (d_model + 1) // 2 for i in pairs)


@pytest.mark.parametrize("text, want", [("0, 4, 16", (0, 4, 16)), ("０，４，１６", (0, 4, 16)),
                                        ("1；2、3", (1, 2, 3)), ("2 3\t4 2", (2, 3, 4))])
def test_pair_entry_takes_full_width_digits_and_separators(text, want):
    from explorer.params import parse_pairs

    assert parse_pairs(text, 64) == want


@pytest.mark.parametrize("text", ["²", "①", "1.5", "-1", "3²"])
def test_pair_entry_refuses_what_is_not_a_whole_number(text):
    from explorer.params import parse_pairs

    with pytest.raises(InputError, match="is not a frequency index"):
        parse_pairs(text, 64)


def test_an_odd_count_of_channels_in_one_pixel_is_one_column():
    """d_model 3 in a 1-px-wide window: the even step (4) left no column and the heatmap refused
    ("cols must be >= 1, not 0"); found by this file's fuzz in a full run."""
    p = Params(d_model=3, max_len=2, base=2.0)
    r = compute.heatmap(p, compute.Window(0, 2, 0, 3, 1, 1))
    assert r.image.shape == (1, 1) and r.ch_step == 3
    w = 2.0 ** (-np.array([0, 0, 2]) / 3)                        # interleaved: sin w0, cos w0, sin w1
    pe = np.array([[np.sin(q * w[0]), np.cos(q * w[1]), np.sin(q * w[2])] for q in (0, 1)])
    np.testing.assert_allclose(r.image[0, 0], pe.mean(), rtol=1e-6)
