"""The check view's data: a user's table (a file, or an array handed to explorer.show) diagnosed, with
screen-size samples of the table, the reference it matches or should match, and the difference. No Qt.

The view state names the data (`source`: a file path or "memory:N", `key` for a file of several
arrays) and what it should be (`kind`, `base`, `pairing`); `lang` is the language of the words. The
diagnosis is cached on the file's path, modification time and size plus those options, so the window,
a scene and `export view --view check` see the same numbers, and re-opening a changed file re-reads it.
"""

from __future__ import annotations

import itertools
import math
import os
import threading
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from explorer.errors import InputError, message_of, msg, os_reason, require, shown
from explorer.params import MODEL_SPEC_LIMIT, Params, is_path_text
from explorer.viewstate import ViewState

MEMORY_PREFIX = "memory:"
SCREEN_ROWS = 1024     # at most this many positions and channels are drawn (evenly spaced, exact values)
SCREEN_COLS = 1024
CURVE_POINTS = 4096    # an inv_freq vector longer than this is sampled too
OUTLIERS = 4.0         # a table whose 99.5th percentile of |value| is under 1/4 of its peak is coloured
#                        to that percentile (a learned table's few large channels washed it out)


@dataclass(frozen=True)
class CheckState(ViewState):
    """Which data the check view diagnoses, and what the user says it should be."""

    RANGES = {"base": (1.000001, 1e15)}
    CHOICES = {"kind": ("", "pe", "rope_cache", "inv_freq"), "pairing": ("", "half", "interleaved"),
               "lang": ("en", "zh_CN")}

    source: str = ""          # a file path, or "memory:N" (an array given to explorer.show)
    key: str = ""             # the array's name in a file holding several ("" = the only one)
    kind: str = ""            # "" = guess, else pe | rope_cache | inv_freq
    base: float | None = None  # the base it should have (None = any)
    pairing: str = ""         # the RoPE pairing it should have ("" = any)
    lang: str = "en"          # the language of the diagnosis

    def __post_init__(self) -> None:
        super().__post_init__()
        for name, what in (("source", msg("a file path")), ("key", msg("an array's name"))):
            value = getattr(self, name)
            require(len(value) <= MODEL_SPEC_LIMIT and is_path_text(value),
                    "%1 must be %2 (one line, at most %3 characters), not %4", name, what,
                    f"{MODEL_SPEC_LIMIT:,}", shown(value))


@dataclass(frozen=True)
class CheckResult:
    """What the check view draws. table/reference/difference: (rows, cols) samples of the Diagnosis
    arrays at positions `rows` and channels `cols` (for inv_freq: (n,) samples at indices `rows`)."""

    params: Params
    state: CheckState
    kind: str = ""                      # "" when there is no data
    match: bool = False
    shape: tuple = (0, 0)               # the analysed (L, d) or (h,) before sampling
    rows: np.ndarray | None = None      # (n_rows,) positions drawn (inv_freq: indices i)
    cols: np.ndarray | None = None      # (n_cols,) channels drawn
    table: np.ndarray | None = None     # (n_rows, n_cols) the user's data
    reference: np.ndarray | None = None  # (n_rows, n_cols) the right table, or None
    difference: np.ndarray | None = None  # (n_rows, n_cols) table - reference
    max_error: float = math.nan         # max |data - the model found| (of the mistake when one is named)
    tolerance: float = 0.0
    max_difference: float = math.nan    # max |data - the right reference| over the whole table
    summary: str = ""                   # the diagnosis line
    mistakes: tuple = ()                # Mistake(id, message, fix), ...
    fix: str = ""                       # the one-line PyTorch fix ("" when it matches)
    convention: dict = field(default_factory=dict)
    name: str = ""                      # the file's name (and array key), or "explorer.show(x)"
    error: str = ""                     # why the data could not be read ("" when it was)
    table_limit: float = 1.0            # colours of the table span ±this (see colour_limits)
    reference_limit: float = 1.0        # and of the reference (the table's, unless 4x apart)
    clipped_peak: float = 0.0           # the table's largest |value| when table_limit is below it
    difference_limit: float = 0.0       # the difference's colours span ±this (at least the tolerance)
    difference_clipped: float = 0.0     # its largest |value| when difference_limit is below it
    zeros: int = 0                      # inv_freq: values equal to 0 (no place on the log axis)
    negatives: int = 0                  # inv_freq: values below 0 (no place on it either)


def all_zero(mistakes) -> bool:
    """Whether a check's mistakes (a CheckResult's or a Diagnosis's) say every value is 0: any reference times
    0 equals it, and the check chooses none (no reference)."""
    return any(m.id == "all_zero" for m in mistakes)


def one_frequency(mistakes) -> bool:
    """Whether they say every pair of an inv_freq turns at one frequency: the slip explains it exactly, but
    there is no base to draw a reference from (no reference; it had read "the nearest fit is off by 0")."""
    return any(m.id == "constant_freq" for m in mistakes)


# arrays handed to explorer.show(): token -> (float64 array, storage dtype, label) --------------
_MEMORY: dict[str, tuple[np.ndarray, str, str]] = {}
_COUNTER = itertools.count(1)
_LOCK = threading.Lock()


def remember_array(x, label: str = "explorer.show(x)") -> str:
    """Keep x (numpy array, torch tensor, nested list) for the check view; its source token "memory:N".
    InputError for data that cannot be checked (empty, NaN, complex ...)."""
    from explorer.backend.diagnose.loading import as_array

    array, dtype = as_array(x)
    if isinstance(x, np.ndarray) and np.may_share_memory(array, x):
        array = array.copy()             # kept read-only: the caller's own array stays writeable
    array.setflags(write=False)
    with _LOCK:
        token = f"{MEMORY_PREFIX}{next(_COUNTER)}"
        _MEMORY[token] = (array, dtype, label)
    return token


def forget_array(token: str) -> None:
    with _LOCK:
        _MEMORY.pop(token, None)


def check_view(params: Params, state: CheckState = CheckState()) -> CheckResult:
    """The check view's result for its state (worker thread): the data loaded and diagnosed."""
    if not state.source:
        return CheckResult(params, state)
    try:
        if state.source.startswith(MEMORY_PREFIX):
            with _LOCK:
                held = _MEMORY.get(state.source)
            require(held is not None, "the array given to explorer.show() (%1) is no longer in memory: "
                                      "open a file with File → Check my table…", state.source)
            return _diagnosed_memory(params, state)
        stat = os.stat(state.source)
        return _diagnosed_file(params, state, stat.st_mtime_ns, stat.st_size)
    except FileNotFoundError:
        return CheckResult(params, state, error=msg("cannot read %1: no such file", state.source))
    except OSError as exc:
        return CheckResult(params, state, error=msg("cannot read %1: %2", state.source, os_reason(exc)))
    except InputError as exc:
        return CheckResult(params, state, error=message_of(exc))


def array_names(path: str) -> list[str]:
    """The names of the arrays (more than one number each) a file holds, sorted: which to ask about."""
    from pathlib import Path

    from explorer.backend.diagnose import loading

    p = Path(path)
    try:
        load = loading.load_array(p)
    except InputError as exc:
        if "choose one with --key" not in str(exc):
            raise
    else:
        return [load[2]]
    arrays = loading._read(p, p.suffix.lower())
    return sorted(k for k, v in arrays.items() if getattr(v, "ndim", 0) >= 1 and loading._size(v) > 1)


@lru_cache(maxsize=4)
def _diagnosed_file(params: Params, state: CheckState, mtime_ns: int, size: int) -> CheckResult:
    """Cached on the path, the file's mtime and size, and the options (all in the arguments)."""
    from pathlib import Path

    from explorer.backend.diagnose import load_array

    array, dtype, name = load_array(state.source, state.key or None)
    label = Path(state.source).name + (f" [{name}]" if name else "")
    return _result(params, state, array, dtype, label)


@lru_cache(maxsize=4)
def _diagnosed_memory(params: Params, state: CheckState) -> CheckResult:
    with _LOCK:
        array, dtype, label = _MEMORY[state.source]
    return _result(params, state, array, dtype, label)


def _result(params: Params, state: CheckState, array: np.ndarray, dtype: str, label: str) -> CheckResult:
    from explorer.backend.diagnose import diagnose
    from explorer.backend.diagnose.fitting import peak_abs

    d = diagnose(array, kind=state.kind or None, base=state.base, pairing=state.pairing or None,
                 lang=state.lang, dtype=dtype)
    table = d.table if d.table is not None else _analysed(array)
    rows, cols, pick = screen_samples(table.shape)
    ref, diff = d.reference, d.difference
    shown_table, shown_ref = frozen(pick(table)), None if ref is None else frozen(pick(ref))
    shown_diff = None if diff is None else frozen(pick(diff))
    max_difference = math.nan if diff is None else peak_abs(diff)
    table_limit, reference_limit, clipped_peak = colour_limits(shown_table, shown_ref,
                                                               peak_abs(table) if table.size else 0.0)
    difference_limit, difference_clipped = (0.0, 0.0) if diff is None else robust_limit(shown_diff, max_difference)
    return CheckResult(
        params, state, d.kind, bool(d.match), tuple(int(n) for n in table.shape), rows, cols,
        shown_table, shown_ref, shown_diff, float(d.max_error), float(d.tolerance), max_difference,
        d.summary, tuple(d.mistakes), d.fix, _plain(d.convention), label, table_limit=table_limit,
        reference_limit=reference_limit, clipped_peak=clipped_peak, difference_limit=difference_limit,
        difference_clipped=difference_clipped, **_off_the_log_axis(table))


def _off_the_log_axis(table: np.ndarray) -> dict:
    """{"zeros": n, "negatives": n} of an inv_freq vector (h,), which the view draws on a log axis; {} for a table."""
    if table.ndim != 1:
        return {}
    return {"zeros": int(np.count_nonzero(table == 0)), "negatives": int(np.count_nonzero(table < 0))}


def robust_limit(values: np.ndarray, peak: float | None = None) -> tuple[float, float]:
    """(colour limit, the peak when the limit is below it, else 0) for drawn samples; peak: the
    largest |value| of the whole array, when the samples are part of it. The limit is the peak, or
    the 99.5th percentile of |value| when that is under 1/OUTLIERS of it: a few large channels (a
    learned table's) would leave the rest one pale colour."""
    magnitude = np.abs(values).ravel()
    if peak is None:
        peak = float(magnitude.max()) if magnitude.size else 1.0
    robust = float(np.percentile(magnitude, 99.5)) if magnitude.size else peak
    return (robust, peak) if 0 < robust * OUTLIERS < peak else (peak, 0.0)


def colour_limits(table: np.ndarray, reference: np.ndarray | None,
                  peak: float | None = None) -> tuple[float, float, float]:
    """(the table's colour limit, the reference's, the table's peak when its limit is below it,
    else 0): robust_limit of the table; the reference shares it, so the two compare colour for
    colour, unless its own peak is OUTLIERS times away from it."""
    limit, clipped = robust_limit(table, peak)
    ref_limit = limit
    if reference is not None and reference.size:
        ref_peak = float(np.abs(reference).max())
        if not limit / OUTLIERS <= ref_peak <= limit * OUTLIERS:
            ref_limit = ref_peak
    return limit, ref_limit, clipped


def _analysed(array: np.ndarray) -> np.ndarray:
    """The data as drawn when the diagnosis kept no table (all zeros): (L, d), or a vector."""
    squeezed = array.squeeze()
    if squeezed.ndim == 3:
        squeezed = squeezed[0]
    return squeezed.reshape(-1) if squeezed.ndim <= 1 else squeezed


def screen_samples(shape: tuple):
    """(rows, cols, pick): evenly spaced indices (every one when it fits the screen) and a function
    taking those samples of an array of `shape` (a vector: rows only, cols None)."""
    if len(shape) == 1:
        rows = _spaced(shape[0], CURVE_POINTS)
        return rows, None, (lambda a: np.asarray(a, dtype=np.float64)[rows])
    rows, cols = _spaced(shape[0], SCREEN_ROWS), _spaced(shape[1], SCREEN_COLS)
    return rows, cols, (lambda a: np.asarray(a, dtype=np.float64)[np.ix_(rows, cols)])


def _spaced(n: int, most: int) -> np.ndarray:
    if n <= most:
        return np.arange(n)
    return np.unique(np.linspace(0, n - 1, most).round().astype(np.int64))


def frozen(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a


def _plain(conv: dict) -> dict:
    """The convention with numpy scalars as Python numbers (JSON-able, exported by result_arrays)."""
    out = {}
    for k, v in conv.items():
        if isinstance(v, dict):
            v = _plain(v)
        elif isinstance(v, np.generic):
            v = v.item()
        out[k] = v
    return out
