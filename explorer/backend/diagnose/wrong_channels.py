"""A PE table that is a known convention except in a few channels: which channels, and what they hold.

A hand-edited or mis-indexed table (two channels swapped, one filled from another frequency, one left at
zero) misses every fit by far in those channels only, and the least-squares scale it pulls off 1 makes every
other channel miss a little. So the channels whose error stands out (over OUTLIER x the median channel's)
are set aside, the fit is made again on the rest, and the channels that still miss it are named; where one
holds another channel's values (to the tolerance), that channel is named too.
"""

from __future__ import annotations

import numpy as np

MAX_SHARE = 0.25      # more channels than this share of d missing: not "a few" (a wrong base, noise, ...)
OUTLIER = 4.0         # a channel missing by this many times the median channel's error stands out
SHOWN = 8             # channels named at most, then "…"
MIN_ROWS = 0.25       # a wrong channel misses in this share of its rows at least (one wild entry does not
#                       make its channel wrong: that stays "matches nothing, nearest ...")


def column_errors(x: np.ndarray, t: np.ndarray, scale: float, checked: np.ndarray | None) -> np.ndarray:
    """max |x - scale t| of each column (L, d) -> (d,), over the checked entries (None: all)."""
    diff = np.abs(x - scale * t)
    if checked is not None:
        diff[~checked] = 0.0
    return diff.max(axis=0) if len(x) else np.zeros(x.shape[1])


def standing_out(errors: np.ndarray, tol: float) -> np.ndarray:
    """Columns whose error passes the tolerance and OUTLIER x the median column's; (k,) int."""
    return np.flatnonzero(errors > max(tol, OUTLIER * float(np.median(errors))))


def few(columns: np.ndarray, d: int) -> bool:
    return 0 < columns.size <= MAX_SHARE * d


def mostly_missing(x: np.ndarray, t: np.ndarray, scale: float, columns, tol: float) -> bool:
    """Whether each of `columns` misses scale * t by more than tol in MIN_ROWS of its rows or more."""
    misses = np.abs(x[:, columns] - scale * t[:, columns]) > tol                    # (L, k)
    return bool(np.all(misses.mean(axis=0) >= MIN_ROWS))


def held_channels(x: np.ndarray, t: np.ndarray, scale: float, columns, tol: float) -> dict[int, tuple | None]:
    """For each wrong column c: None when it is all zeros, else (j, sign) when it holds sign x scale x t[:, j]
    to tol (another column's values, or its own or another's negated; the first such j); columns that
    hold none of these are left out."""
    out = {}
    for c in columns:
        if not np.any(x[:, c]):
            out[int(c)] = None
            continue
        for sign in (1.0, -1.0):
            errors = np.abs(x[:, c:c + 1] - sign * scale * t).max(axis=0)                # (d,)
            if sign > 0:
                errors[c] = np.inf                     # (its own values: it would not be wrong)
            j = int(np.argmin(errors))
            if errors[j] <= tol:
                out[int(c)] = (j, sign)
                break
    return out


def listed(columns, lang: str) -> str:
    """"channel 9", "channels 3, 10" (at most 8 numbers, then "… (12 in all)") in `lang`."""
    columns = [int(c) for c in columns]
    text = ", ".join(map(str, columns[:SHOWN]))
    if lang == "zh_CN":
        return f"通道 {text}" + (f"，…（共 {len(columns)} 个）" if len(columns) > SHOWN else " ")
    more = f", … ({len(columns)} in all)" if len(columns) > SHOWN else ""
    return f"channel{'s' if len(columns) > 1 else ''} {text}{more}"


def _holding(c: int, held: tuple | None, lang: str) -> str:
    if held is None:
        return f"通道 {c} 全为 0" if lang == "zh_CN" else f"channel {c} is all zeros"
    j, sign = held
    if lang == "zh_CN":
        what = "它自己的值" if j == c else f"通道 {j} 的值"
        return f"通道 {c} 里是{what}" + ("取负" if sign < 0 else "")
    what = "its own values" if j == c else f"channel {j}'s values"
    return f"channel {c} holds {what}" + (" negated" if sign < 0 else "")


def holdings(held: dict[int, tuple | None], lang: str) -> str:
    """": channel 3 holds channel 10's values, channel 7 is all zeros" in `lang` (at most SHOWN, then
    "…"); "" for none."""
    if not held:
        return ""
    parts = [_holding(c, h, lang) for c, h in list(held.items())[:SHOWN]] + (["…"] if len(held) > SHOWN else [])
    return ("：" + "，".join(parts)) if lang == "zh_CN" else (": " + ", ".join(parts))
