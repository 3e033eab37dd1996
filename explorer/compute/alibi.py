"""The ALiBi view's data: per-head slopes and bias images. No Qt here."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from explorer.backend import alibi
from explorer.compute.screen import frozen
from explorer.params import Params
from explorer.viewstate import ViewState


ALIBI_SHOWN = 4    # bias matrices drawn for this many heads (evenly spread)


@dataclass(frozen=True)
class AlibiState(ViewState):
    RANGES = {"heads": (1, 64)}

    heads: int = 8
    causal: bool = False


@dataclass(frozen=True)
class AlibiResult:
    slopes: np.ndarray        # (H,) m_h
    shown: tuple              # head indices whose bias is drawn
    positions: np.ndarray     # (rows,) positions of the bias image rows / columns
    bias: np.ndarray          # (len(shown), rows, rows) -m_h |i - j| (NaN where causal masks)
    params: Params
    state: AlibiState


def shown_heads(heads: int) -> tuple[int, ...]:
    """The heads (counted from 0, as the view's titles) whose bias is drawn: up to ALIBI_SHOWN, evenly spread."""
    return tuple(dict.fromkeys(int(round(x)) for x in np.linspace(0, heads - 1, min(ALIBI_SHOWN, heads))))


@lru_cache(maxsize=4)
def alibi_view(params: Params, state: AlibiState = AlibiState()) -> AlibiResult:
    """Per-head slopes and the bias images of up to ALIBI_SHOWN evenly spread heads."""
    m = alibi.slopes(state.heads)
    shown = shown_heads(state.heads)
    pos, full = alibi.bias_strided(state.heads, params.max_len, 128, state.causal)
    b = full[list(shown)].astype(np.float32)                                   # (S, rows, rows)
    b[np.isinf(b)] = np.nan   # masked (causal) cells: drawn transparent
    frozen(m, pos, b)
    return AlibiResult(m, shown, pos, b, params, state)
