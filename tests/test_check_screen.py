"""The quick screen before a table's second reading is fitted (diagnose/sinusoid_screen.py): it never
turns away a table the PE check would accept, nor a noisy sine table whose nearest convention is
worth naming; it turns away random tables and embeddings, whose second reading is no longer fitted
(RELIABILITY row 48: 34-88 s before)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import explorer
import explorer.backend.diagnose as diag
import explorer.backend.diagnose.pe_fit as pe_fit
import explorer.backend.diagnose.pe_table as pe_table
from explorer.backend.diagnose import diagnose
from explorer.backend.diagnose.pe_models import Spec, all_specs, template
from explorer.backend.diagnose.sinusoid_screen import NEAR_SHARE, cannot_be_sinusoidal, recurrence_misses
from explorer.backend.encodings import sinusoidal_pe
from tests.check_implementations import RIGHT, WRONG


def _stored(x: np.ndarray, dtype: str) -> np.ndarray:
    """x rounded to dtype and back to float64 (bfloat16 through torch)."""
    return torch.from_numpy(x).to(getattr(torch, dtype)).double().numpy()


ACCEPTED_TABLES = sorted([n for n in RIGHT if "inv_freq" not in n] +
                         [n for n, (_, found, _) in WRONG.items()
                          if "inv_freq" not in n and found not in ("unknown", "all_zero")])


@pytest.mark.parametrize("name", ACCEPTED_TABLES)
def test_every_table_the_check_names_passes_the_screen(name):
    """Every table the check matches or names a slip of (tests/check_implementations), read the
    way the check read it (Diagnosis.table), is not turned away."""
    build, kwargs = (RIGHT[name][0], {}) if name in RIGHT else (WRONG[name][0], WRONG[name][2])
    r = explorer.check(build(), **kwargs)
    assert r.table.ndim == 2 and not any(m.id == "unknown" for m in r.mistakes)
    assert not cannot_be_sinusoidal(r.table, r.convention["dtype"])


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_tables_within_tolerance_of_every_spec_pass_the_screen(dtype):
    """Each spec the check fits (slips included), both starts, three bases, stored in dtype, with
    alternating noise of 0.9 of the check's own tolerance on every entry (the worst case for the
    recurrence): the screen lets every one through. At 32,769 positions the tolerance is the
    largest the check uses (angles up to ANGLE_CAP), and low-frequency columns make the miss
    3.6 tol."""
    d = 64
    cases = [(n, spec) for n in (16, 300) for spec in all_specs(d)]
    cases += [(32769, Spec(layout)) for layout in ("interleaved", "concat", "t2t")]
    for length, spec in cases:
        pos = np.arange(length)
        sign = np.where(pos % 2 == 0, 1.0, -1.0)[:, None]
        for start in (0, 1):
            for base in (100.0, 10000.0, 5e5):
                for scale in (1.0, 8.0):
                    x = _stored(scale * template(spec, d, base, pos + start), dtype)
                    tol = pe_fit._tol(spec, base, start, x.shape, scale, dtype)
                    noisy = x + 0.9 * tol * sign
                    assert not cannot_be_sinusoidal(noisy, dtype), (spec, start, base, scale, length)


def test_the_noise_of_the_worst_case_still_matches():
    """The noise above is what a match may carry: the check accepts it (so the screen's bound is
    tested where it matters), and a random table of the same size is turned away."""
    x = sinusoidal_pe(300, 64, 10000.0, "interleaved", "float64")
    r = diagnose(x)
    noisy = x + 0.9 * r.tolerance * np.where(np.arange(300) % 2 == 0, 1.0, -1.0)[:, None]
    assert diagnose(noisy).match
    assert not cannot_be_sinusoidal(noisy, "float64")
    assert cannot_be_sinusoidal(np.random.default_rng(0).standard_normal((300, 64)), "float64")
    # the peak a caller passes is the one it would take itself
    random = np.random.default_rng(0).standard_normal((300, 64))
    assert cannot_be_sinusoidal(random, "float64", float(np.abs(random).max()))
    assert not cannot_be_sinusoidal(random, "float64", 100 * float(np.abs(random).max()))


@pytest.mark.parametrize("shape", [(30522, 64), (64, 30522), (2048, 512), (512, 2048), (40, 300)])
def test_random_tables_and_embeddings_are_turned_away(shape):
    """A trained embedding's numbers (normal, std 0.02, float32) keep the recurrence in few columns."""
    x = _stored(np.random.default_rng(1).standard_normal(shape) * 0.02, "float32")
    assert cannot_be_sinusoidal(x, "float32")
    kept = np.mean(recurrence_misses(x[:16]) <= NEAR_SHARE * np.abs(x).max())
    assert kept < 0.2                                        # a quarter turns away


def test_a_random_tables_second_reading_is_not_fitted(monkeypatch):
    """The slow part of row 48: a table matching nothing was fitted a second time, transposed, with
    its positions as up to 32,768 channels. Now one fit, and the same answer: matches nothing."""
    calls = []
    real = pe_table.check_pe
    monkeypatch.setattr(pe_table, "check_pe", lambda t, *a: calls.append(t.shape) or real(t, *a))
    x = np.random.default_rng(2).standard_normal((3000, 48)).astype(np.float32)
    r = diagnose(x)
    assert calls == [(3000, 48)]
    assert not r.match and [m.id for m in r.mistakes] == ["unknown"]
    assert r.convention["orientation"] == "(L, d)"


@pytest.mark.parametrize("case", ["plain", "start_1", "swapped", "float16", "dropout", "rising"])
def test_a_table_found_on_its_second_reading_is_found_as_before(monkeypatch, case):
    """Tables stored (L, d) with fewer positions than channels are read transposed first; their
    second reading passes the screen, and the diagnosis is the one without the screen."""
    length, d = 40, 256
    x = sinusoidal_pe(length, d, 10000.0, "interleaved", "float32", start=int(case == "start_1"))
    if case == "swapped":
        x = x.reshape(length, d // 2, 2)[..., ::-1].reshape(length, d).copy()
    if case == "float16":
        x = x.astype(np.float16)
    if case == "dropout":
        keep = np.random.default_rng(3).random(x.shape) > 0.1
        x = (x * keep / 0.9).astype(np.float32)
    if case == "rising":
        x = template(Spec(sign=1), d, 10000.0, np.arange(length)).astype(np.float32)
    screened = diagnose(x).to_json()
    monkeypatch.setattr("explorer.backend.diagnose.sinusoid_screen.cannot_be_sinusoidal",
                        lambda t, dtype, peak=None: False)
    assert screened == diagnose(x).to_json()
    assert not any(m["id"] == "unknown" for m in screened["mistakes"])
    assert "(L, d)" in screened["convention"]["orientation"]


def test_the_screen_itself_is_asked_only_for_a_second_reading(monkeypatch):
    """The likelier reading is always fitted (its nearest convention is what an unmatched table
    reports); only the other one is screened."""
    asked = []
    monkeypatch.setattr("explorer.backend.diagnose.sinusoid_screen.cannot_be_sinusoidal",
                        lambda t, dtype, peak=None: asked.append(t.shape) or True)
    r = diag.diagnose(np.random.default_rng(4).standard_normal((500, 24)))
    assert asked == [(24, 500)] and r.convention["orientation"] == "(L, d)"


def _without_screen(x, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr("explorer.backend.diagnose.sinusoid_screen.cannot_be_sinusoidal", lambda t, dtype, peak=None: False)
        return diagnose(x).to_json()


@pytest.mark.parametrize("shape, noise", [((40, 256), 0.03), ((64, 128), 0.03), ((100, 512), 0.03),
                                          ((200, 1024), 0.09)])
def test_a_noisy_table_keeps_its_nearest_convention(monkeypatch, shape, noise):
    """A sinusoidal table with Gaussian noise matches nothing, but its nearest convention is worth
    naming: stored (L, d) with L < d, its second reading is still fitted. Two reviews found it
    turned away: at 3% by the first screen (4 tol), at 9% by one that took each column's largest
    miss over 64 rows (it grows with the rows; the 90th percentile does not)."""
    x = sinusoidal_pe(*shape, 10000.0, "interleaved", "float32")
    x = x + noise * np.random.default_rng(5).standard_normal(shape).astype(np.float32)
    r = diagnose(x).to_json()
    assert r == _without_screen(x, monkeypatch)
    assert r["convention"]["orientation"] == "(L, d)" and r["convention"]["layout"] == "interleaved"
    assert r["convention"]["base"] == pytest.approx(10000, rel=1e-3)


def test_a_table_whose_unchecked_entries_are_zero_is_not_turned_away(monkeypatch):
    """A review's constructed case: a rising law past ANGLE_CAP, its unchecked entries random in
    the first 64 rows and zero below (60% zeros). The check accepts it on its nonzero entries;
    a table with more than 2% zeros is never screened, so it is still found."""
    d, base = 512, 1e12
    spec = Spec(sign=1)
    p = np.arange(256)[:, None]
    ok = p * pe_table.column_plan(spec, d, base)[0][None] <= pe_fit.ANGLE_CAP
    x = np.where(ok, template(spec, d, base, np.arange(256)), 0.0)
    noisy = ~ok & (p < 64)
    x[noisy] = np.random.default_rng(0).uniform(-1, 1, int(noisy.sum()))
    r = diagnose(x).to_json()
    assert r == _without_screen(x, monkeypatch)
    assert [m["id"] for m in r["mistakes"]] == ["wrong_sign", "dropout_on"]


def test_a_random_tables_nearest_convention_has_a_finite_error():
    """Rising laws fit noise best but cannot be checked past ANGLE_CAP (error inf): when every
    candidate is one, a falling law is named instead ("max error inf > 5e-06" said nothing)."""
    x = (np.random.default_rng(1).standard_normal((512, 768)) * 0.02).astype(np.float32)
    r = diagnose(x)
    assert not r.match and np.isfinite(r.max_error) and "max error inf" not in r.summary
