"""NaN and infinite numbers in what a model gives: found, counted and named in one line. No Qt.

A checkpoint saved after a diverged run, or damaged on disk, holds NaN or ±inf weights. They pass
through every sum they enter, so a table or a score matrix computed from them is silently blank
(pyqtgraph draws NaN transparent) or saturated. The views and the CLI still show what the model
gives, and say in one line which tokens, positions or tensors hold such values.
"""

from __future__ import annotations

import numpy as np

from explorer.errors import Message, msg

SHOWN = 3          # rows or names listed at most in a note (then "…, (+N)")


def count_non_finite(a) -> int:
    """How many entries of the float array `a` are NaN or ±inf (0 for an integer array).

    A finite array costs one sum (no boolean temporary): the sum of finite numbers is finite unless
    it overflows, and only then (or when it is not finite) are the entries counted one by one."""
    a = np.asarray(a)
    if a.dtype.kind not in "fc" or a.size == 0:
        return 0
    with np.errstate(over="ignore", invalid="ignore"):
        if np.isfinite(a.sum()):
            return 0
    return int(a.size - np.count_nonzero(np.isfinite(a)))


def bad_rows(a) -> np.ndarray:
    """Indices of the rows of `a` (n, ...) that hold a NaN or ±inf; (k,) int64, empty when all are finite."""
    a = np.asarray(a)
    if count_non_finite(a) == 0:
        return np.zeros(0, np.int64)
    return np.flatnonzero(~np.isfinite(a.reshape(a.shape[0], -1)).all(axis=1))


def listed(items, shown: int = SHOWN) -> str:
    """The first `shown` items joined with ", ", and "…, (+N)" for the N more."""
    items = [str(i) for i in items]
    head = ", ".join(items[:shown])
    return head if len(items) <= shown else f"{head}, … (+{len(items) - shown})"


def token_labels(rows: np.ndarray, tokens, ids) -> list[str]:
    """"'text' (id N)" for each distinct token whose row in `rows` (n, d) holds a NaN or ±inf."""
    seen = {}
    for i in bad_rows(rows):
        seen.setdefault(int(ids[i]), tokens[i])
    return [f"'{text}' (id {tid})" for tid, text in seen.items()]


def damaged_note(parts) -> Message | str:
    """One line naming where a model's numbers are NaN or ±inf, from `parts` (Messages such as
    "the token rows of 'cat' (id 2)"); "" when there are none."""
    parts = [p for p in parts if p]
    if not parts:
        return ""
    where = parts[0]
    for part in parts[1:]:
        where = msg("%1; %2", where, part)
    return msg("NaN or infinite values in %1: the checkpoint is damaged, or was saved after its "
               "training diverged", where)


def input_parts(tokens, ids, token_rows, position_rows, x) -> list:
    """The parts of damaged_note for a model's input: its token rows, its position rows, and X
    where neither explains it (a norm weight or the scale)."""
    parts = []
    labels = token_labels(token_rows, tokens, ids)
    if labels:
        parts.append(msg("the token rows of %1", listed(labels)))
    bad_pos = bad_rows(position_rows) if position_rows is not None else np.zeros(0, np.int64)
    if bad_pos.size:
        parts.append(msg("the position rows %1", listed(bad_pos)))
    if not parts and x is not None and bad_rows(x).size:
        parts.append(msg("X at positions %1", listed(bad_rows(x))))
    return parts


def qk_parts(qk, tokens, ids, token_rows, x) -> list:
    """The parts of damaged_note for a layer's q, k and logits (explorer.backend.models.attention
    LayerQK): the input's rows, the layer's tensors, or else an overflow in a norm or of the logits."""
    if qk.finite:
        return []
    parts = input_parts(tokens, ids, token_rows, None, x) if qk.bad_input else []
    if qk.bad_tensors:
        parts.append(msg("the weights %1", listed(qk.bad_tensors)))
    if parts:
        return parts
    if not (np.isfinite(qk.q).all() and np.isfinite(qk.k).all()):    # finite weights and input
        return [msg("q and k: a norm or projection of the layer overflows float32")]
    return [msg("the logits: q·k overflows float32")]


def qk_note(model, qk, tokens, ids) -> Message | str:
    """damaged_note of `model`'s layer q, k and logits `qk` for the tokens' ids ("" when they are
    finite: only then are the input's rows read again). Finite weights and input whose q·k is
    finite unrotated but overflows rotated, under a RoPE attention factor over 1, name that setting,
    not the checkpoint (an attention factor of 1e30 in config.json)."""
    if qk.finite:
        return ""
    if (not qk.bad_input and not qk.bad_tensors and model.config.position == "rope"
            and bool(np.isfinite(qk.logits_plain).all())):       # finite without the rotation
        factor = model.rope_inv_freq(len(ids))[1]
        if abs(factor) > 1.0:
            return msg("q·k overflows float32: the RoPE attention factor %1 in %2's settings scales q and k "
                       "(its weights and input are finite)", f"{factor:.3g}", model.name)
    return damaged_note(qk_parts(qk, tokens, ids, model.rows(ids), model.input_x(ids)))
