"""The ALiBi view's data: per-head slopes and bias images. No Qt.

The formula's slopes for the view's own head count, or, when the opened model (Params.model) uses ALiBi and
`model_slopes` is on, that model's heads and slopes as its transformers class puts them on the logits (BLOOM's and
MPT's in float32, Falcon's made in bfloat16 and divided by sqrt(head_dim): models.alibi_family); an opened T5's
heads: each one's learned bias against j − i, in the steps of its buckets (compute.alibi_t5).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from explorer.backend import alibi
from explorer.compute.screen import frozen
from explorer.errors import InputError, message_of, msg
from explorer.params import Params
from explorer.viewstate import ViewState


ALIBI_SHOWN = 4    # bias matrices drawn for this many heads (evenly spread)
IMAGE_ROWS = 128   # the bias images' rows and columns at most (positions strided)


@dataclass(frozen=True)
class AlibiState(ViewState):
    RANGES = {"heads": (1, 64)}

    heads: int = 8
    causal: bool = False
    model_slopes: bool = True   # the opened model's heads and slopes, when it uses ALiBi


@dataclass(frozen=True)
class AlibiResult:
    slopes: np.ndarray        # (H,) m_h
    shown: tuple              # head indices whose bias is drawn
    positions: np.ndarray     # (rows,) positions of the bias image rows / columns
    bias: np.ndarray          # (len(shown), rows, rows) -m_h |i - j| (NaN where causal masks)
    params: Params
    state: AlibiState
    model_name: str = ""      # whose slopes these are ("" : the formula's, for state.heads)
    family: str = ""          # bloom | mpt | falcon | t5 when model_name is set
    note_kind: str = ""       # "" | "rope" / "learned" (the opened model has no ALiBi) | "failed" (cannot be read)
    reason: str = ""          # why the opened model's slopes are not shown (a Message), else ""
    distance: np.ndarray = field(default_factory=lambda: np.zeros(0))   # T5: j − i, -reach .. reach; no slopes
    head_bias: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))   # T5: (H, 2 reach + 1)


def shown_heads(heads: int) -> tuple[int, ...]:
    """The heads (counted from 0, as the view's titles) whose bias is drawn: up to ALIBI_SHOWN, evenly spread."""
    return tuple(dict.fromkeys(int(round(x)) for x in np.linspace(0, heads - 1, min(ALIBI_SHOWN, heads))))


def _shown_bias(signed: np.ndarray, causal: bool) -> np.ndarray:
    """The drawn images from key-minus-query biases (S, r, r): -|b| both ways, or b for keys up to the query
    and NaN (drawn transparent) after it; float32."""
    rows = signed.shape[-1]
    if not causal:
        return (0.0 - np.abs(signed)).astype(np.float32)
    out = signed.astype(np.float32)
    out[:, np.triu(np.ones((rows, rows), bool), 1)] = np.nan
    return out


def model_alibi(spec: str):
    """(model, "", "") for the opened model `spec` when it uses ALiBi or T5's relative bias, else (None, note_kind,
    why not: a Message)."""
    from explorer.compute import models

    try:
        model = models.open_cached(spec)
    except InputError as exc:
        return None, "failed", message_of(exc)
    position = model.config.position
    if position not in ("alibi", "relative"):
        kind = ("RoPE" if position == "rope" else msg("sinusoidal positions computed from config")
                if model.config.computed_positions else msg("learned positions"))        # (XGLM's, M2M100's)
        return None, position, msg("%1 uses %2, not ALiBi: the formula's slopes for the heads chosen", model.name, kind)
    return model, "", ""


def _model_view(model, state: AlibiState, params: Params) -> AlibiResult:
    """The opened ALiBi model's slopes and its bias at up to IMAGE_ROWS strided positions."""
    from explorer.backend.models.alibi_family import bias_at

    m = np.asarray(model.alibi_slopes(), np.float32)                              # (H,)
    shown = shown_heads(len(m))
    pos = np.arange(0, params.max_len, -(-params.max_len // IMAGE_ROWS))           # (rows,)
    signed = bias_at(model.config, m, pos)[list(shown)]                            # (S, rows, rows) n - m
    b = _shown_bias(signed, state.causal)
    frozen(m, pos, b)
    return AlibiResult(m, shown, pos, b, params, state, model.name, model.config.family)


def alibi_view(params: Params, state: AlibiState = AlibiState()) -> AlibiResult:
    """Per-head slopes and the bias images of up to ALIBI_SHOWN evenly spread heads: the opened ALiBi model's
    (state.model_slopes) or the formula's for state.heads."""
    if not (state.model_slopes and params.model):
        return _alibi_view(params, state, "", ())
    from explorer.compute import models

    spec = models.normal_spec(params.model)
    return _alibi_view(params, state, spec, models.stamp(spec))


@lru_cache(maxsize=4)
def _alibi_view(params: Params, state: AlibiState, spec: str, stamp: tuple) -> AlibiResult:
    """alibi_view for the model `spec` ("": none) whose files have `stamp` (a changed file: computed again)."""
    kind, reason = "", ""
    if spec:
        model, kind, reason = model_alibi(spec)
        if model is not None:
            try:
                from explorer.compute.alibi_t5 import t5_view        # (it builds this module's AlibiResult)

                return (t5_view if model.config.position == "relative" else _model_view)(model, state, params)
            except InputError as exc:
                kind, reason = "failed", message_of(exc)
    m = alibi.slopes(state.heads)
    shown = shown_heads(state.heads)
    pos, full = alibi.bias_strided(state.heads, params.max_len, IMAGE_ROWS, state.causal)
    b = full[list(shown)].astype(np.float32)                                   # (S, rows, rows)
    b[np.isinf(b)] = np.nan   # masked (causal) cells: drawn transparent
    frozen(m, pos, b)
    return AlibiResult(m, shown, pos, b, params, state, note_kind=kind, reason=reason)
