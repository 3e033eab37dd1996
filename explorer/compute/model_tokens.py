"""The tokens view with an opened model (Params.embedding_source "model"): its tokenizer, its rows, and X
exactly as its first layer receives it. No Qt here.

The three panels of the sum page are E[ids] (x the model's own scale: Gemma sqrt(hidden), else 1),
what the model adds for position (GPT-2 wpe[0..n-1], BERT position + token type[0], OPT positions[2..],
RoBERTa's positions[padding_idx + 1..] + token type[0], nothing for RoPE models: position enters inside
attention), and X = `Model.input_x(ids)` (BERT: the LayerNorm of the sum). Only the rows of the sentence's
tokens are read.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from explorer.backend.embeddings import one_hot_window
from explorer.backend.models import encoders, families
from explorer.backend.models.finite import damaged_note, input_parts
from explorer.compute import models
from explorer.compute.tokens import ONE_HOT_NEIGHBOURS, TokensResult, _cut
from explorer.errors import InputError, message_of
from explorer.params import Params

NO_TABLE = 10_000_000      # RoPE models: no position table to run out of (the view still stops at 512)


def _gauge(t: np.ndarray, pe: np.ndarray, scale: float) -> dict:
    """|E|, |PE| and the angles between s E + PE and s E, for s = scale and s = 1, from three row-wise
    dot products (E.E, PE.PE, E.PE, accumulated in float64) instead of a norm per vector; each (n,).
    NaN where a vector is zero."""
    tt = np.einsum("ij,ij->i", t, t, dtype=np.float64)                        # (n,) |E|^2
    pp = np.einsum("ij,ij->i", pe, pe, dtype=np.float64)                      # (n,) |PE|^2
    tp = np.einsum("ij,ij->i", t, pe, dtype=np.float64)                       # (n,) E.PE
    out = {"token_norm": np.sqrt(tt), "pe_norm": np.sqrt(pp)}
    for key, s in (("angle_scaled", scale), ("angle_unscaled", 1.0)):
        dot = s * s * tt + s * tp                                             # (sE + PE).(sE)
        den = np.sqrt(np.clip(s * s * tt + 2 * s * tp + pp, 0.0, None)) * (abs(s) * out["token_norm"])
        with np.errstate(invalid="ignore", divide="ignore"):
            cos = np.where(den > 0, dot / np.where(den > 0, den, 1.0), np.nan)
        out[key] = np.degrees(np.arccos(np.clip(cos, -1.0, 1.0)))
    return out


def position_summand(model, ids: np.ndarray) -> np.ndarray:
    """What the model adds to E[ids] for position before layer 0 (RoBERTa: from row padding_idx + 1, a pad token
    row padding_idx); (n, d) float32 (zeros: RoPE)."""
    cfg = model.config
    pos = model.positions_of(ids)
    if pos is None:
        return np.zeros((len(ids), cfg.d_model), np.float32)
    if cfg.family == "bert":
        with model._lock:
            name = families.need(model.tensors, "embeddings.token_type_embeddings.weight")
            pos = pos + model.tensors.rows(name, [0])                          # (n, d) + (1, d)
    return np.asarray(pos, np.float32)


# what the result reads with a model: its own tokenizer, table and positions (d_model, base, layout and the
# sqrt(d) box do not apply), so a slider move keeps the cached result of a long sentence
MODEL_READS = ("model", "embedding_source", "text")


@lru_cache(maxsize=4)
def tokens_model(params: Params, stamp: tuple) -> TokensResult:
    """The tokens view's result for params.model (stamp: the files' state, so a changed file reopens)."""
    source = "model"
    try:
        model = models.open_cached(params.model)
        cfg = model.config
        tokenized = model.tokenize(params.text)
        table = cfg.max_positions if cfg.position == "learned" else NO_TABLE
        n, limit, kind = _cut(len(tokenized), table, "learned")
        ids = np.asarray(tokenized.ids[:n], np.int64)                          # (n,)
        rows = model.vocab_rows
        neighbours = 1 if np.unique(ids).size <= ONE_HOT_NEIGHBOURS else 0
        win = one_hot_window(ids, rows, neighbours)
        table_rows = model.rows(win.columns)                                   # (k, d')
        token_rows = table_rows[np.searchsorted(win.columns, ids)]             # (n, d')
        x = model.input_x(ids)                                                 # (n, d)
        pe = position_summand(model, ids)                                      # (n, d)
        pos_ids = (encoders.position_ids(cfg.position_offset, cfg.padding_idx, ids) if cfg.position == "learned"
                   else np.zeros(0, np.int64))                                 # (n,) rows read, or none
    except InputError as exc:
        return TokensResult(params=params, source=source, tokenizer=models.display_name(params.model),
                            error=message_of(exc), model_name=models.display_name(params.model))
    scale = float(cfg.embed_scale)
    warning = damaged_note(input_parts([t.text for t in tokenized.tokens[:n]], ids, token_rows,
                                       pe if cfg.position == "learned" else None, x))
    if token_rows.shape[1] != cfg.d_model:      # OPT with project_in: show E after the projection
        token_rows = (x - pe) / np.float32(scale)
        table_rows = np.zeros((win.columns.size, cfg.d_model), np.float32)
        table_rows[np.searchsorted(win.columns, ids)] = token_rows
    gauge = _gauge(token_rows, pe, scale)
    for a in (table_rows, token_rows, pe, x, win.matrix, win.used, pos_ids):
        a.setflags(write=False)
    return TokensResult(
        params=params, source=source, tokenizer=tokenized.name, tokens=tokenized.tokens[:n],
        n_total=len(tokenized), limit=limit, limit_kind=kind, vocab_size=rows, d_model=cfg.d_model,
        scale=scale, columns=win.columns, column_used=win.used, one_hot=win.matrix,
        table_rows=table_rows,
        token_rows=token_rows, pe_rows=pe, x=x, scaled_norm=gauge["token_norm"] * scale, **gauge,
        model_name=model.name, family=cfg.family, position=cfg.position, warning=warning, position_ids=pos_ids,
        padding_idx=cfg.padding_idx)


def for_model(params: Params) -> TokensResult:
    """tokens_model for the model's current files."""
    try:
        stamp = models.stamp(params.model)
    except InputError as exc:
        return TokensResult(params=params, source="model", tokenizer="", error=message_of(exc))
    return tokens_model(params.project(MODEL_READS), stamp)
