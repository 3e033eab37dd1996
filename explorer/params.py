"""The frozen snapshot every view is computed from, and its validation. No Qt here."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, fields, replace

from explorer.backend.encodings import DTYPES, LAYOUTS
from explorer.backend.similarity import METRICS
from explorer.errors import InputError, grouped, msg, require, shown

D_MODEL_RANGE = (1, 8192)
MAX_LEN_RANGE = (1, 10_000_000)
BASE_RANGE = (1.0001, 1e9)
DEVICES = ("auto", "cpu", "cuda", "mps")
TEXT_LIMIT = 100_000  # characters
TOKENIZER_NAMES = ("cl100k", "wordpiece", "char", "qwen")
EMBEDDING_SOURCES = ("untrained", "minilm", "model")
MODEL_SPEC_LIMIT = 4096  # characters of a model spec (a path)
PAIR_MODES = ("spread", "fastest", "slowest")   # how curve pairs are picked (else "manual": typed)
_PAIR_INDEX = msg("a curve pair index")     # the name a bad curve pair is refused by


def is_path_text(text: str) -> bool:
    """Text a file name can be: one line, no NUL byte (the system refuses it: ValueError) and no lone
    surrogate (it cannot be encoded for the system: UnicodeEncodeError)."""
    if "\n" in text or "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class Params:
    """Everything the maths needs; replaced, never mutated (use `params.with_(...)`)."""

    d_model: int = 128
    max_len: int = 256
    base: float = 10000.0
    layout: str = "interleaved"
    dtype: str = "float32"
    device: str = "auto"
    metric: str = "cosine"
    scale_embedding: bool = True     # multiply E[id] by sqrt(d_model), as the paper does
    seed: int = 0                    # the untrained embedding table's seed
    text: str = "Thanks for all the fish"
    tokenizer: str = "cl100k"
    embedding_source: str = "untrained"   # "untrained" seeded table, trained "minilm" (d = 384), or "model"
    curve_pairs: tuple[int, ...] = (0, 4, 16, 32)   # frequency indices drawn as sin/cos curves
    curve_mode: str = "manual"       # how curve_pairs were picked: spread | fastest | slowest | manual
    #                                  (typed); a new d_model picks anew by it (State.with_params)
    model: str = ""                  # the opened model: "", "smollm2", "minilm", a folder or a .gguf path

    def __post_init__(self) -> None:
        validate(self)

    def with_(self, **changes) -> "Params":
        """A new Params with `changes` applied and validated."""
        return replace(self, **changes)

    def project(self, names) -> "Params":
        """These fields of self, every other field at its default: a narrow cache key for a view
        that reads only `names` (a keystroke in the sentence box then leaves the heatmap's key alone)."""
        kept = {n: getattr(self, n) for n in names}
        return self if all(getattr(_DEFAULT, f.name) == getattr(self, f.name) or f.name in kept
                           for f in fields(self)) else replace(_DEFAULT, **kept)

    def changed(self) -> dict:
        """Only the fields that differ from the defaults, JSON-able (a scene names just those)."""
        full, default = self.to_dict(), _DEFAULT.to_dict()
        return {k: v for k, v in full.items() if v != default[k]}

    def to_dict(self) -> dict:
        """Plain JSON-able dict."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["curve_pairs"] = list(self.curve_pairs)
        return out

    @classmethod
    def from_dict(cls, data: dict) -> "Params":
        """Inverse of to_dict; unknown keys are refused by name."""
        require(isinstance(data, dict), "parameters must be a JSON object")
        known = {f.name for f in fields(cls)}
        extra = sorted(shown(k) for k in data if k not in known)
        require(not extra, "unknown parameter(s): %1", ", ".join(extra))
        data = dict(data)
        if "curve_pairs" in data:
            require(isinstance(data["curve_pairs"], list), "curve_pairs must be a list of numbers")
            data["curve_pairs"] = tuple(data["curve_pairs"])
        return cls(**data)


def _whole(name: str, value, lo: int, hi: int) -> None:
    require(isinstance(value, int) and not isinstance(value, bool),
            "%1 must be a whole number between %2 and %3, not %4", name, lo, f"{hi:,}", shown(value))
    require(lo <= value <= hi, "%1 must be between %2 and %3; got %4", name, lo, f"{hi:,}", grouped(value))


def _choice(name: str, value, allowed) -> None:
    require(value in allowed, "%1 must be one of %2; got %3", name, ", ".join(allowed), shown(value))


def validate(p: Params) -> None:
    """Raise InputError naming the first bad value and its allowed range."""
    _whole("d_model", p.d_model, *D_MODEL_RANGE)
    _whole("max_len", p.max_len, *MAX_LEN_RANGE)
    ok = isinstance(p.base, (int, float)) and not isinstance(p.base, bool)
    require(ok and p.base > 1 and (isinstance(p.base, int) or math.isfinite(p.base)),
            "base must be a finite number greater than 1, not %1", shown(p.base))
    require(p.base <= BASE_RANGE[1],
            "base must be at most %1; got %2", f"{BASE_RANGE[1]:g}", shown(p.base))
    _choice("layout", p.layout, LAYOUTS)
    _choice("dtype", p.dtype, DTYPES)
    _choice("device", p.device, DEVICES)
    _choice("metric", p.metric, METRICS)
    require(isinstance(p.scale_embedding, bool), "scale_embedding must be true or false")
    _whole("seed", p.seed, 0, 2**31 - 1)
    require(isinstance(p.text, str), "text must be a string")
    require(len(p.text) <= TEXT_LIMIT,
            "the text has %1 characters; at most %2 are shown", f"{len(p.text):,}", f"{TEXT_LIMIT:,}")
    _choice("tokenizer", p.tokenizer, TOKENIZER_NAMES)
    _choice("embedding_source", p.embedding_source, EMBEDDING_SOURCES)
    require(isinstance(p.model, str) and len(p.model) <= MODEL_SPEC_LIMIT and is_path_text(p.model),
            "model must be a folder, a .gguf file, smollm2 or minilm (one line), not %1", shown(p.model))
    require(p.embedding_source != "model" or p.model.strip() != "",
            "embedding_source model needs a model: open one (File → Open model…) or give --model")
    _choice("curve_mode", p.curve_mode, PAIR_MODES + ("manual",))
    require(isinstance(p.curve_pairs, tuple) and len(p.curve_pairs) <= 16,
            "curve_pairs must list at most 16 frequency indices")
    for i in p.curve_pairs:
        _whole(_PAIR_INDEX, i, 0, D_MODEL_RANGE[1])


_DEFAULT = Params()

__all__ = ["Params", "InputError", "validate"]


def pick_pairs(mode: str, d_model: int, count: int = 4) -> tuple[int, ...]:
    """Frequency indices to draw: the fastest, the slowest, or evenly spread over all ceil(d/2)."""
    n = (d_model + 1) // 2
    count = max(1, min(count, n))
    if mode == "fastest":
        return tuple(range(count))
    if mode == "slowest":
        return tuple(range(n - count, n))
    if count == 1:
        return (0,)
    return tuple(dict.fromkeys(round(i * (n - 1) / (count - 1)) for i in range(count)))


def pairs_for_width(pairs: tuple[int, ...], mode: str, d_model: int) -> tuple[int, ...]:
    """The pairs to draw at d_model: picked anew by their mode (the evenly spread pairs of d 512 are
    not those of d 16), or for "manual" the typed ones that exist at that width (else pair 0)."""
    if mode in PAIR_MODES:
        return pick_pairs(mode, d_model)
    return tuple(i for i in pairs if i < (d_model + 1) // 2) or (0,)


def parse_pairs(text: str, d_model: int) -> tuple[int, ...]:
    """'0, 4, 16' -> (0, 4, 16); InputError naming the bad entry or the allowed range."""
    n = (d_model + 1) // 2
    out = []
    for part in re.split(r"[,;\s，；、]+", text):     # full-width separators too (a Chinese IME)
        if not part:
            continue
        # isdecimal: "0".."9", full-width "３" and other decimal digits, which int() reads; not
        # "²" or "①", which str.isdigit passes and int() refuses
        require(part.isdecimal(), "“%1” is not a frequency index (a whole number 0 .. %2)", part, n - 1)
        i = int(part)
        require(i < n, "frequency index %1 does not exist: d_model %2 has 0 .. %3", i, d_model, n - 1)
        out.append(i)
    require(0 < len(out) <= 16, "give between 1 and 16 frequency indices, e.g. 0, 4, 16")
    return tuple(dict.fromkeys(out))
