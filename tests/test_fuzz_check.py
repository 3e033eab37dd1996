"""Fuzz explorer.check: random arrays and near-miss tables never crash it (a bad array is an
InputError), and every match it claims is re-verified against the formulas (tests/check_reference).
Profile: PE_FUZZ_PROFILE=ci (default, a few dozen examples) or long (>= 10,000 examples per test).
"""

from __future__ import annotations

import math
import os

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.backend.diagnose import diagnose
from explorer.errors import InputError
from tests.check_reference import cache_formula, claimed_error, pe_formula

PROFILE = os.environ.get("PE_FUZZ_PROFILE", "ci")
FUZZ = settings(max_examples=10_000 if PROFILE == "long" else 30, deadline=None, database=None,
                derandomize=PROFILE != "long", suppress_health_check=[HealthCheck.too_slow])
SLIP_BASES = (100.0, 1e8, math.sqrt(5e5), 2.5e11)   # a right table at these reads as an exponent slip


def verify(result, data) -> None:
    """A claimed match must be in the data; a named mistake must explain the data."""
    assert result.kind in ("pe", "rope_cache", "inv_freq")
    assert all(m.id and m.message for m in result.mistakes)
    if result.match:
        assert result.mistakes == ()
        assert claimed_error(result, data) <= result.tolerance * 1.01 + 1e-12, result.summary
    else:
        assert result.mistakes


@FUZZ
@given(shape=st.lists(st.integers(0, 20), min_size=1, max_size=3),
       fill=st.sampled_from(["normal", "zeros", "ones", "ints", "huge", "tiny", "nan"]), seed=st.integers(0, 2**16))
def test_random_arrays_never_crash(shape, fill, seed):
    rng = np.random.default_rng(seed)
    data = {"normal": lambda: rng.standard_normal(shape), "zeros": lambda: np.zeros(shape),
            "ones": lambda: np.ones(shape), "ints": lambda: rng.integers(-3, 4, shape),
            "huge": lambda: rng.standard_normal(shape) * 1e300,
            "tiny": lambda: rng.standard_normal(shape) * 1e-310,
            "nan": lambda: np.where(rng.random(shape) < 0.5, np.nan, 1.0)}[fill]()
    try:
        result = diagnose(data)
    except InputError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    verify(result, data)


TABLE = st.fixed_dictionaries({
    "kind": st.sampled_from(["pe", "pe", "rope_cache", "inv_freq"]),
    "n": st.integers(6, 40), "d": st.integers(2, 24),
    "base": st.floats(5.0, 1e6).filter(lambda b: all(abs(b / s - 1) > 0.02 for s in SLIP_BASES)),
    "layout": st.sampled_from(["interleaved", "concat", "t2t"]),
    "pairing": st.sampled_from(["half", "interleaved"]), "function": st.sampled_from(["cos", "sin"]),
    "scale": st.sampled_from([1.0, 1.0, 0.5, 3.0, -1.0]), "start": st.sampled_from([0, 0, 1]),
    "transpose": st.booleans(), "float16": st.booleans(),
    "miss": st.sampled_from(["none", "none", "entry", "noise", "column", "swap_rows"]),
    "size": st.floats(1e-7, 1.0), "seed": st.integers(0, 2**16)})


def make_table(t):
    if t["kind"] == "pe":
        x = t["scale"] * pe_formula(t["n"], t["d"], t["base"], t["layout"], t["start"])
    elif t["kind"] == "rope_cache":
        hd = 2 * max(1, t["d"] // 2)
        x = t["scale"] * cache_formula(t["n"], hd, t["base"], t["pairing"], t["function"], 1.0, t["start"])
    else:
        x = 1.0 / t["base"] ** (np.arange(0, 2 * t["d"], 2) / (2 * t["d"]))
    if t["float16"]:
        x = x.astype(np.float16).astype(np.float64)
    rng = np.random.default_rng(t["seed"])
    if t["miss"] == "entry":
        x.flat[rng.integers(x.size)] += t["size"]
    elif t["miss"] == "noise":
        x = x + t["size"] * rng.standard_normal(x.shape)
    elif t["miss"] == "column" and x.ndim == 2:
        x[:, rng.integers(x.shape[1])] *= 1 + t["size"]
    elif t["miss"] == "swap_rows" and len(x) > 2:
        i = rng.integers(len(x) - 1)
        x[[i, i + 1]] = x[[i + 1, i]]
    if t["transpose"] and x.ndim == 2:
        x = x.T
    return x


@FUZZ
@given(t=TABLE)
def test_near_miss_tables(t):
    x = make_table(t)
    result = diagnose(x, dtype="float16" if t["float16"] else "float64")
    verify(result, x)
    if t["miss"] == "none" and t["start"] == 0 and t["kind"] == "pe" and t["d"] >= 2:
        assert result.match, (t, result.summary)


SLIP = st.fixed_dictionaries({
    "slip": st.sampled_from(["sin_cos_swapped", "positions_from_1", "wrong_sign", "only_sin", "dropout_on"]),
    "n": st.integers(16, 48), "d": st.integers(4, 16).map(lambda h: 2 * h),
    "base": st.floats(200.0, 1e5).filter(lambda b: all(abs(b / s - 1) > 0.02 for s in SLIP_BASES)),
    "layout": st.sampled_from(["interleaved", "concat"]), "seed": st.integers(0, 2**16)})


def slipped_table(t):
    """A right table with one slip applied, built from the formulas (not from the package)."""
    n, d, base, layout = t["n"], t["d"], t["base"], t["layout"]
    if t["slip"] == "wrong_sign" and base ** (2 / d) >= 2.5:
        base = 10000.0   # a rising law is read from the pair speeds (< pi) or found at a usual base
    x = pe_formula(n, d, base, layout, 1 if t["slip"] == "positions_from_1" else 0)
    sin_cols = np.arange(0, d, 2) if layout == "interleaved" else np.arange(d // 2)
    cos_cols = sin_cols + 1 if layout == "interleaved" else sin_cols + d // 2
    if t["slip"] == "sin_cos_swapped":
        x[:, np.r_[sin_cols, cos_cols]] = x[:, np.r_[cos_cols, sin_cols]]
    elif t["slip"] == "wrong_sign":
        w = base ** (2 * np.arange(d // 2) / d)
        x[:, sin_cols] = np.sin(np.arange(n)[:, None] * w)
        x[:, cos_cols] = np.cos(np.arange(n)[:, None] * w)
    elif t["slip"] == "only_sin":
        x[:, cos_cols] = 0.0
    elif t["slip"] == "dropout_on":
        keep = np.random.default_rng(t["seed"]).random(x.shape) >= 0.1
        x = np.where(keep, x / 0.9, 0.0)
    return x


@FUZZ
@given(t=SLIP)
def test_each_slip_is_named(t):
    x = slipped_table(t)
    result = diagnose(x)
    verify(result, x)
    assert t["slip"] in [m.id for m in result.mistakes], (t, result.summary)
