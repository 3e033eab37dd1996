"""Check my implementation: what a PE table, a RoPE cos/sin cache or an inv_freq vector is.

`diagnose(x)` -> Diagnosis: the convention it matches (layout or pairing, base, scale, orientation,
first position, storage dtype) with the max error against that reference, or the known mistakes it
shows with their evidence and the one-line PyTorch fix. `load_array(path)` reads a user's file.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from explorer.backend.diagnose.fitting import peak_abs
from explorer.backend.diagnose.loading import as_array, load_array
from explorer.backend.diagnose.messages import LANGS, told_in
from explorer.backend.diagnose.result import KINDS, Diagnosis, Mistake, tolerance
from explorer.backend.encodings import finite_number
from explorer.errors import require, shown

__all__ = ["KINDS", "Diagnosis", "Mistake", "diagnose", "load_array"]


MAX_CHANNELS = 32768   # d_model of a table the check fits (twice the widest model known; its fit holds
#                       (bases, rows, d) grids, 4 GB for a (2, 8388608) array read as 8M channels)


def diagnose(x, kind: str | None = None, base: float | None = None, pairing: str | None = None,
             lang: str = "en", dtype: str | None = None) -> Diagnosis:
    """Diagnose x (numpy array, torch tensor, nested list). kind: None (guess), 'pe', 'rope_cache'
    or 'inv_freq'; base / pairing: what the data should have (a difference is a mistake);
    dtype: the storage dtype when x was already converted (e.g. read from a float16 file)."""
    from explorer.backend.diagnose.rope_cache import PAIRINGS, check_inv_freq

    require(kind is None or kind in KINDS, "kind must be one of %1, not %2", ", ".join(KINDS), shown(kind))
    require(pairing is None or pairing in PAIRINGS,
            "pairing must be one of %1, not %2", ", ".join(PAIRINGS), shown(pairing))
    require(lang in LANGS, "lang must be one of %1, not %2", ", ".join(LANGS), shown(lang))
    require(base is None or (finite_number(base) and base > 1),     # numpy scalars too; not 10**400
            "base must be a finite number > 1, not %1", shown(base))
    base = None if base is None else float(base)
    arr, stored = as_array(x)
    dtype = dtype or stored
    expect = {"base": base, "pairing": pairing}
    if not np.any(arr):
        return replace(_all_zero(arr, kind, dtype, lang), lang=lang)
    tables, label = _tables(arr)
    if tables is None:
        require(arr.size > 1, "one number is no table or vector to check")   # not "a vector of 1 numbers"
        require(kind in (None, "inv_freq"), "a vector of %1 numbers is an inv_freq vector, not a %2 table",
                                            arr.size, kind)
        return replace(check_inv_freq(arr.reshape(-1), dtype, expect, lang), lang=lang)
    require(kind != "inv_freq", "an inv_freq vector has one dimension, not shape %1", arr.shape)
    # extreme data is fitted at peak 1: no overflow for 1e300, and no tolerance below the 1e-12 that
    # every tolerance keeps (at 1e-20 all columns were "equal": a RoPE cache)
    peak = peak_abs(tables[0][0])
    peak = peak if not 1e-3 < peak < 1e100 else 1.0
    # the data is not divided by 1 (a copy: ~2 s of page faults for 128 MB on our machines) when
    # it is already a copy of its own; the caller's array or tensor memory is not kept by the result
    owned = arr is not x and arr.flags.owndata
    results = []
    for t, orient in tables:            # the likelier orientation first; the other only if needed
        scaled = t if peak == 1.0 and owned else t / peak
        with told_in(peak):     # the words' magnitudes in the data's own units
            found = _check_table(scaled, dtype, orient, kind, expect, lang, screen=bool(results))
        if found is None:               # the other reading is nothing like a sinusoidal table
            break
        results.append(_rescale(found, peak))
        if results[-1].match or not any(m.id == "unknown" for m in results[-1].mistakes):
            break
    if label:
        results = [_relabel(r, label) for r in results]
    return replace(min(results, key=_badness), lang=lang)


def _all_zero(arr: np.ndarray, kind, dtype: str, lang: str) -> Diagnosis:
    """Zeros fit every table at scale 0: that is no match."""
    from explorer.backend.diagnose.messages import FILL_FIXES, mistake

    guess = kind or ("inv_freq" if arr.squeeze().ndim <= 1 else "pe")
    found = (replace(mistake("all_zero", lang), fix=FILL_FIXES[guess]),)   # the fill of what it should hold
    return Diagnosis(guess, False, {"dtype": dtype, "scale": 0.0}, found, 0.0, 0.0)


def _tables(arr: np.ndarray):
    """([(table (L, d), orientation words), ...], label of a squeezed shape) or (None, '') for a vector."""
    shape = arr.shape
    if arr.ndim >= 3:
        sq = arr.squeeze()
        if sq.ndim == 3:                       # (B, L, d), B equal copies (checked on loading)
            sq = sq[0]
        arr = sq
    if arr.ndim <= 1 or min(arr.shape) == 1:
        return None, ""
    label = "x".join(str(s) for s in shape) if len(shape) >= 3 else ""
    out = [(arr, "(L, d)")]
    if arr.shape[0] != arr.shape[1] or not np.array_equal(arr, arr.T):
        out.append((arr.T, "(d, L): transposed"))
    if arr.shape[0] < arr.shape[1]:     # tables usually have more positions than channels
        out.reverse()
    out = [(t, orient) for t, orient in out if t.shape[1] <= MAX_CHANNELS]
    require(out, "shape %1 has more than %2 columns either way round; a PE table has at most %2 "
                 "channels (d_model)", shape, f"{MAX_CHANNELS:,}")
    return out, label


def _rescale(r: Diagnosis, peak: float) -> Diagnosis:
    """The diagnosis of data / peak, told for the data itself."""
    if peak == 1.0:
        return r
    conv = dict(r.convention)
    if "scale" in conv:
        conv["scale"] = conv["scale"] * peak
        conv["scale_is_sqrt_d"] = bool(conv.get("d_model") and
                                       abs(abs(conv["scale"]) / np.sqrt(conv["d_model"]) - 1) < 1e-3)
    for key in ("rms_error", "rms"):
        if key in conv:
            conv[key] = conv[key] * peak
    times = (lambda a: None if a is None else a * peak)
    return replace(r, convention=conv, max_error=r.max_error * peak, tolerance=r.tolerance * peak,
                   table=times(r.table), reference=times(r.reference))


def _relabel(r: Diagnosis, label: str) -> Diagnosis:
    conv = dict(r.convention)
    inner = conv.get("orientation", "(L, d)")
    conv["orientation"] = f"{label} squeezed to {inner}"
    return replace(r, convention=conv)


def _check_table(t: np.ndarray, dtype: str, orientation: str, kind, expect, lang,
                 screen: bool = False) -> Diagnosis | None:
    """The diagnosis of t read as (L, d); with screen, None when t is nothing like a sinusoidal
    table and cannot match one (sinusoid_screen: a random table's second reading, 32,768 channels
    wide, took up to 88 s)."""
    from explorer.backend.diagnose.pe_table import check_pe
    from explorer.backend.diagnose.rope_cache import check_cache, duplicated_pairing
    from explorer.backend.diagnose.sinusoid_screen import cannot_be_sinusoidal

    peak = None                         # max |t|: one pass for the pairing check and the screen
    if kind in (None, "rope_cache"):
        peak = peak_abs(t)
        tol = tolerance(peak, dtype, 0)
        pairing = duplicated_pairing(t, tol)
        if pairing is not None:
            return check_cache(t, pairing, dtype, orientation, expect, lang)
        if kind == "rope_cache":
            from explorer.backend.diagnose.messages import mistake, spec_word

            found = (mistake("unknown_unfit", lang, why=spec_word("no_shared", lang)),)    # error inf: no fit
            return Diagnosis("rope_cache", False, {"orientation": orientation, "dtype": dtype},
                             found, float("inf"), tol, t, None)
    if screen and cannot_be_sinusoidal(t, dtype, peak):
        return None
    result = check_pe(t, dtype, orientation, lang)
    if result.match and expect.get("base") is not None:
        from explorer.backend.diagnose.rope_cache import _expectations

        found = tuple(_expectations(result.convention, {"base": expect["base"]}, lang))
        result = replace(result, mistakes=found, match=not found)
    return result


def _badness(r: Diagnosis) -> tuple:
    """Order for choosing among orientations: matches first, then named mistakes, then error/scale.
    Readings whose nearest fit is far (RMS error over FAR of the table's RMS) come after near ones,
    in the order of that ratio (their max errors say little)."""
    from explorer.backend.diagnose.pe_table import FAR

    scale = abs(r.convention.get("scale", 1.0)) or 1.0
    unknown = any(m.id == "unknown" for m in r.mistakes)
    ratio = r.convention.get("rms_error", 0.0) / (r.convention.get("rms") or 1.0)
    far = ratio > FAR
    err = r.max_error / scale if np.isfinite(r.max_error) else float("inf")
    return (not r.match, unknown, far, ratio if far else err)
