"""Token-embedding rows and the first layer's input X = E[ids] (x sqrt(d_model)) + PE[:n], in numpy.

The seeds build E as `nn.Embedding(vocab_size, d_model)`, whose untrained weights are N(0, 1). A whole
table is never built here (cl100k's 100,277 x 8192 float32 would be 3 GB): `untrained_rows` draws only
the rows a sentence uses, each from its own seeded stream, so a row depends on (seed, id, d_model) only,
not on the vocabulary size or on the other tokens. It is a stand-in with the same distribution as
nn.Embedding's init, not torch's bit stream (that would need the whole table).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from explorer.backend.budget import check_budget
from explorer.errors import msg, require


def _ids(ids) -> np.ndarray:
    arr = np.asarray(ids)
    require(arr.ndim <= 1, "token ids must be a flat list, not an array of shape %1", arr.shape)
    require(arr.size == 0 or np.issubdtype(arr.dtype, np.integer), "token ids must be whole numbers")
    arr = arr.astype(np.int64, copy=False).reshape(-1)                       # (n,)
    require(arr.size == 0 or arr.min() >= 0, "token ids must be >= 0, not %1", int(arr.min()) if arr.size else 0)
    return arr


def untrained_rows(ids, d_model: int, seed: int) -> np.ndarray:
    """Rows E[ids] of a seeded, untrained N(0, 1) embedding table; (n, d_model) float32.

    Row of id t = numpy.random.default_rng([seed, t]).standard_normal(d_model, float32): deterministic per
    (seed, id), independent of the vocabulary size; repeated ids give identical rows.
    """
    ids = _ids(ids)
    require(isinstance(d_model, (int, np.integer)) and d_model >= 1,
            "d_model must be a whole number >= 1, not %1", repr(d_model))
    require(isinstance(seed, (int, np.integer)) and seed >= 0, "seed must be a whole number >= 0, not %1", repr(seed))
    check_budget(ids.size * d_model, 4, "token rows (%1 x %2)", ids.size, d_model,
                 advice=msg("use a shorter text or a smaller d_model"))     # one row per token
    uniq, inverse = np.unique(ids, return_inverse=True)                     # (u,), (n,)
    table = np.empty((uniq.size, d_model), dtype=np.float32)                # (u, d)
    for k, tid in enumerate(uniq.tolist()):
        table[k] = np.random.default_rng([int(seed), tid]).standard_normal(d_model, dtype=np.float32)
    return table[inverse.reshape(-1)]                                       # (n, d)


def _check_pair(token_rows: np.ndarray, pe_rows: np.ndarray) -> tuple[int, int]:
    require(token_rows.ndim == 2 and pe_rows.ndim == 2,
            "token rows and PE rows must be 2-D, not %1 and %2", token_rows.shape, pe_rows.shape)
    n, d = token_rows.shape
    require(pe_rows.shape[1] == d, "PE has d_model %1 but the token rows have %2", pe_rows.shape[1], d)
    require(n <= pe_rows.shape[0],
            "the sequence has %1 tokens but the position table stops at max_len %2: extend the table (raise max_len) "
            "or stop the sequence (shorten the text)", n, pe_rows.shape[0])
    return n, d


def input_rows(token_rows: np.ndarray, pe_rows: np.ndarray, scale: bool) -> np.ndarray:
    """X = E[ids] * sqrt(d) (if scale) + PE[:n]; (n, d), dtype of token_rows.

    pe_rows may be longer than the sequence (a (max_len, d) table); fewer rows than tokens is an
    InputError (extend the table or stop). Dropout after the sum, as in the seeds' PositionalEncoding,
    is the identity in eval mode, which is what is shown here.
    """
    token_rows = np.asarray(token_rows)
    pe_rows = np.asarray(pe_rows)
    n, d = _check_pair(token_rows, pe_rows)
    e = token_rows * token_rows.dtype.type(math.sqrt(d)) if scale else token_rows   # (n, d)
    return e + pe_rows[:n].astype(token_rows.dtype, copy=False)                       # (n, d)


def scale_gauge(token_rows: np.ndarray, pe_rows: np.ndarray, d_model: int) -> dict[str, np.ndarray]:
    """Per token, why sqrt(d_model): each value has shape (n,), float64.

    token_norm   |E[id]|            scaled_norm  |E[id] * sqrt(d)|      pe_norm  |PE[pos]|
    angle_deg    angle between X = E*sqrt(d) + PE and E*sqrt(d), degrees (how far PE turns the token)
    angle_unscaled_deg  the same without the scaling: between E + PE and E
    Angles are NaN for a zero token row (no direction to turn).
    """
    token_rows = np.asarray(token_rows, dtype=np.float64)
    pe_rows = np.asarray(pe_rows, dtype=np.float64)
    n, d = _check_pair(token_rows, pe_rows)
    require(d == d_model, "the token rows have d_model %1, not %2", d, d_model)
    pe = pe_rows[:n]                                                           # (n, d)
    root = math.sqrt(d)
    token_norm = np.linalg.norm(token_rows, axis=1)                            # (n,)
    return {
        "token_norm": token_norm,
        "scaled_norm": token_norm * root,
        "pe_norm": np.linalg.norm(pe, axis=1),
        "angle_deg": _angle(token_rows * root + pe, token_rows),
        "angle_unscaled_deg": _angle(token_rows + pe, token_rows),
    }


def _angle(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise angle in degrees between a and b; (n,). NaN where either row is zero."""
    den = np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)               # (n,)
    dot = np.einsum("ij,ij->i", a, b)                                          # (n,)
    with np.errstate(invalid="ignore", divide="ignore"):
        cos = np.where(den > 0, dot / np.where(den > 0, den, 1.0), np.nan)
    return np.degrees(np.arccos(np.clip(cos, -1.0, 1.0)))


@dataclass(frozen=True)
class OneHotWindow:
    """The sentence's one-hot matrix restricted to a few vocabulary columns.

    matrix @ E[columns] == E[ids]: lookup is multiplication (seed 001, figures 7.12-7.13).
    """

    columns: np.ndarray   # (k,) vocabulary ids shown, ascending
    matrix: np.ndarray    # (n, k) float32, one 1 per row
    vocab_size: int
    used: np.ndarray      # (k,) bool: the column is one of the sentence's ids (else a neighbour)


def one_hot_window(ids, vocab_size: int, neighbours: int = 1) -> OneHotWindow:
    """One-hot rows of `ids` over the columns the sentence uses plus `neighbours` ids either side of each.

    The full one-hot matrix (n x vocab_size) is never built: for cl100k it has 100,277 columns.
    """
    ids = _ids(ids)
    require(isinstance(vocab_size, (int, np.integer)) and vocab_size >= 1,
            "vocab_size must be a whole number >= 1, not %1", repr(vocab_size))
    require(ids.size == 0 or ids.max() < vocab_size,
            "token id %1 is outside the vocabulary 0..%2", int(ids.max()) if ids.size else 0, vocab_size - 1)
    require(isinstance(neighbours, (int, np.integer)) and 0 <= neighbours <= 16,
            "neighbours must be a whole number in 0..16, not %1", repr(neighbours))
    offsets = np.arange(-neighbours, neighbours + 1)                           # (2k+1,)
    cand = (np.unique(ids)[:, None] + offsets[None, :]).reshape(-1)            # (u*(2k+1),)
    columns = np.unique(cand[(cand >= 0) & (cand < vocab_size)])               # (k,)
    matrix = np.zeros((ids.size, columns.size), dtype=np.float32)              # (n, k)
    matrix[np.arange(ids.size), np.searchsorted(columns, ids)] = 1.0
    return OneHotWindow(columns, matrix, int(vocab_size), np.isin(columns, ids))
