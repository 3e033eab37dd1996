"""Text -> tokens -> rows of E -> X = E[ids] (x sqrt(d)) + PE, for the tokens view. No Qt here.

Two cached entry points, one per embedding source (Params has no field for it):
  tokens(params)         untrained seeded rows at params.d_model ("untrained, seed N"), sinusoidal PE
  tokens_minilm(params)  trained all-MiniLM-L6-v2: WordPiece ids, word + learned position + token type
                         (d = 384, no sqrt(d) scaling in BERT, LayerNorm follows the sum)
and `learned(params)`: MiniLM's learned positions beside sinusoidal PE at d = 384, with cosine similarities.

A sequence longer than the position table is never cut silently: the result says how many tokens there
are, where the table stops, and that the seeds' choice is to extend the table or stop the sequence."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from explorer.backend import pretrained
from explorer.backend.embeddings import input_rows, one_hot_window, scale_gauge, untrained_rows
from explorer.backend.encodings import sinusoidal_pe
from explorer.backend.tokens import Token, tokenize
from explorer.errors import InputError, message_of
from explorer.params import Params
from explorer.viewstate import ViewState


SHOW_LIMIT = 512          # tokens drawn at most (chips, heatmaps): more is unreadable on a screen
ONE_HOT_NEIGHBOURS = 24   # up to this many distinct ids, the one-hot picture adds one unused id either side
MINILM_D = 384
MINILM_LEN = 512
SOURCES = ("untrained", "minilm")
PAGES = ("lookup", "sum", "gauge")   # the sub-tabs: one-hot x E, X = E sqrt(d) + PE, the scale gauge


@dataclass(frozen=True)
class TokensState(ViewState):
    """The tokens view's own setting: which sub-tab is open."""

    CHOICES = {"page": PAGES}

    page: str = "sum"


def _empty(rows: int = 0, cols: int = 0) -> np.ndarray:
    return np.zeros((rows, cols), dtype=np.float32)


@dataclass(frozen=True)
class TokensResult:
    """Everything the tokens view draws; arrays cover the first n_shown tokens."""

    params: Params
    source: str                          # "untrained" or "minilm"
    tokenizer: str                       # the tokenizer actually used
    tokens: tuple[Token, ...] = ()       # the shown tokens, in order
    n_total: int = 0                     # tokens in the whole text
    limit: int = 0                       # where it stops: the position table (max_len / 512) or SHOW_LIMIT
    limit_kind: str = ""                 # "" (all shown), "max_len", "learned", "view"
    vocab_size: int = 0
    d_model: int = 0
    scale: float = 1.0                   # factor applied to E[ids]: sqrt(d) or 1
    columns: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # (k,) vocab ids
    column_used: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))  # (k,) an id, not a neighbour
    one_hot: np.ndarray = field(default_factory=_empty)      # (n, k) one 1 per row
    table_rows: np.ndarray = field(default_factory=_empty)   # (k, d) E[columns]
    token_rows: np.ndarray = field(default_factory=_empty)   # (n, d) E[ids], unscaled
    pe_rows: np.ndarray = field(default_factory=_empty)      # (n, d) PE[:n] (MiniLM: position + type)
    x: np.ndarray = field(default_factory=_empty)            # (n, d) E[ids] * scale + PE rows
    token_norm: np.ndarray = field(default_factory=lambda: np.zeros(0))        # (n,) |E[id]|
    scaled_norm: np.ndarray = field(default_factory=lambda: np.zeros(0))       # (n,) |E[id]| sqrt(d)
    pe_norm: np.ndarray = field(default_factory=lambda: np.zeros(0))           # (n,) |PE[pos]|
    angle_scaled: np.ndarray = field(default_factory=lambda: np.zeros(0))      # (n,) deg(E√d + PE, E)
    angle_unscaled: np.ndarray = field(default_factory=lambda: np.zeros(0))    # (n,) deg(E + PE, E)
    error: str = ""                      # why nothing could be computed (tokenizer/weights missing)
    model_name: str = ""                 # source "model": the opened model's name
    family: str = ""                     # source "model": gpt2 | bert | opt | llama | ... (how X is made)
    position: str = "sinusoidal"         # what the middle summand is: sinusoidal | learned | rope (none)
    position_ids: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))   # (n,) source "model",
    #                                      learned: the position table's row each token reads (OPT from 2)
    padding_idx: int | None = None       # a RoBERTa-style model's: rows from padding_idx + 1, its pad token's this
    warning: object = ""                 # source "model": a Message naming the rows that hold NaN or
    #                                      ±inf (explorer.backend.models.finite), "" when all are finite

    @property
    def n_shown(self) -> int:
        return len(self.tokens)

    @property
    def scaled_rows(self) -> np.ndarray:
        """E[ids] x scale, the left summand of X; (n, d)."""
        return self.token_rows * np.float32(self.scale)

    @property
    def by_multiplier(self) -> bool:
        """The model scales E by a multiplier of its config (Granite's embedding_multiplier), not by √d."""
        return self.family == "granite" and self.scale != 1.0

    @property
    def angle(self) -> np.ndarray:
        """Angle between the X actually built and E[id]; (n,) degrees."""
        return self.angle_scaled if self.scale != 1.0 else self.angle_unscaled

    @property
    def medians(self) -> dict[str, float]:
        """The scale gauge's summary over the shown tokens, NaN rows left out: "token", "scaled", "position"
        (|E|, |E|·scale, |PE|) and "angle", "angle_unscaled" (degrees); NaN where there is no token."""
        import warnings

        with warnings.catch_warnings():                     # no token, or all NaN: NaN, not a warning
            warnings.simplefilter("ignore", RuntimeWarning)
            return {key: float(np.nanmedian(values)) if values.size else math.nan
                    for key, values in (("token", self.token_norm), ("scaled", self.scaled_norm),
                                        ("position", self.pe_norm), ("angle", self.angle_scaled),
                                        ("angle_unscaled", self.angle_unscaled))}

    @property
    def message(self) -> str:
        """English summary of a cut or an error, for the CLI and logs ("" when all is shown)."""
        if self.error:
            return self.error
        if self.limit_kind == "max_len":
            return (f"the text has {self.n_total} tokens but the position table stops at max_len "
                    f"{self.limit}: extend the table (raise max_len) or stop the sequence (shorten the "
                    f"text); showing the first {self.n_shown} tokens only")
        if self.limit_kind == "learned":
            return (f"the text has {self.n_total} tokens but MiniLM learned only {self.limit} positions: "
                    "a learned table cannot be extended without training, so the sequence must stop; "
                    f"showing the first {self.n_shown} tokens only")
        if self.limit_kind == "view":
            return f"the text has {self.n_total} tokens; the view shows the first {self.n_shown}"
        return ""


def _cut(n_total: int, table_len: int, table_kind: str) -> tuple[int, int, str]:
    """(tokens shown, limit, kind): past the position table's end the table is named, else the view's."""
    shown = min(n_total, table_len, SHOW_LIMIT)
    if n_total > table_len:
        return shown, table_len, table_kind
    if n_total > SHOW_LIMIT:
        return shown, SHOW_LIMIT, "view"
    return shown, table_len, ""


def _assemble(params, source, tokenized, n, limit, kind, d, scale, table_rows_fn, pe_rows) -> TokensResult:
    toks = tokenized.tokens[:n]
    ids = tokenized.ids[:n]                                                   # (n,)
    neighbours = 1 if np.unique(ids).size <= ONE_HOT_NEIGHBOURS else 0
    win = one_hot_window(ids, tokenized.vocab_size, neighbours)
    table_rows = table_rows_fn(win.columns)                                   # (k, d)
    token_rows = table_rows[np.searchsorted(win.columns, ids)]                # (n, d)
    x = input_rows(token_rows, pe_rows, scale != 1.0)                         # (n, d)
    gauge = scale_gauge(token_rows, pe_rows, d)
    frozen = [table_rows, token_rows, pe_rows, x, win.matrix, win.used]
    for a in frozen:
        a.setflags(write=False)
    return TokensResult(
        params=params, source=source, tokenizer=tokenized.name, tokens=toks,
        n_total=len(tokenized), limit=limit, limit_kind=kind, vocab_size=tokenized.vocab_size,
        d_model=d, scale=scale, columns=win.columns, column_used=win.used, one_hot=win.matrix,
        table_rows=table_rows,
        token_rows=token_rows, pe_rows=pe_rows, x=x, token_norm=gauge["token_norm"],
        scaled_norm=gauge["scaled_norm"], pe_norm=gauge["pe_norm"], angle_scaled=gauge["angle_deg"],
        angle_unscaled=gauge["angle_unscaled_deg"])


@lru_cache(maxsize=4)
def tokens(params: Params) -> TokensResult:
    """Untrained seeded rows at params.d_model + sinusoidal PE (params.base, layout), x sqrt(d) if on."""
    try:
        tokenized = tokenize(params.text, params.tokenizer)
    except InputError as exc:
        return TokensResult(params=params, source="untrained", tokenizer=params.tokenizer, error=message_of(exc))
    d = params.d_model
    n, limit, kind = _cut(len(tokenized), params.max_len, "max_len")
    pe = sinusoidal_pe(max(n, 1), d, params.base, params.layout, "float32")[:n]      # (n, d)
    scale = math.sqrt(d) if params.scale_embedding else 1.0
    return _assemble(params, "untrained", tokenized, n, limit, kind, d, scale,
                     lambda cols: untrained_rows(cols, d, params.seed), pe)


@lru_cache(maxsize=4)
def tokens_minilm(params: Params) -> TokensResult:
    """Trained MiniLM rows: WordPiece ids (whatever params.tokenizer says), d = 384, no scaling.

    The "PE rows" are learned position[:n] + token_type[0]; X is BERT's input before its LayerNorm.
    """
    try:
        tables = pretrained.minilm_tables()
        tokenized = tokenize(params.text, "wordpiece")
    except InputError as exc:
        return TokensResult(params=params, source="minilm", tokenizer="wordpiece", error=message_of(exc))
    n, limit, kind = _cut(len(tokenized), tables.max_len, "learned")
    pe = tables.position[:n] + tables.token_type[0][None, :]                          # (n, 384)
    return replace(_assemble(params, "minilm", tokenized, n, limit, kind, tables.d_model, 1.0,
                             lambda cols: tables.word[cols], pe), position="learned")


COMPUTE = {"untrained": tokens, "minilm": tokens_minilm}


def for_params(params: Params) -> TokensResult:
    """The token pipeline for params.embedding_source ("model": explorer.compute.model_tokens)."""
    if params.embedding_source == "model":
        from explorer.compute.model_tokens import for_model

        return for_model(params)
    return COMPUTE[params.embedding_source](params)
