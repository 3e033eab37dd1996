"""Model: one opened checkpoint behind one protocol, whatever its format (HF folder or GGUF file).

Built from (config_dict, TensorReader, tokenizers.Tokenizer, name, path): the config and the table
shapes are checked when it is built, so a model that opens is one whose input X can be computed.
Nothing is read until asked for: rows(ids) reads only those rows.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

import numpy as np

from explorer.backend.budget import check_budget
from explorer.backend.models import alibi_family, families
from explorer.backend.models.attention import LayerQK, default_inv_freq, layer_qk
from explorer.backend.models.config import ModelConfig, model_config
from explorer.backend.models.rope_float32 import transformers_inv_freq
from explorer.backend.models.t5_bias import bias_table
from explorer.backend.models.tensors import TensorReader
from explorer.backend.rope_scaling import inv_frequencies
from explorer.backend.tokens import MAX_CHARS, Token, TokenizedText, _clean, _visible, run_tokenizer
from explorer.errors import InputError, grouped, msg, require, shown


def _byte_of_char() -> dict[str, int]:
    """GPT-2's byte-level alphabet inverted: the printable stand-in character -> the byte it stands for."""
    bs = [*range(ord("!"), ord("~") + 1), *range(ord("\xa1"), ord("\xac") + 1), *range(ord("\xae"), 256)]
    cs, n = bs[:], 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(bs, cs)}


BYTE_OF_CHAR = _byte_of_char()
BYTE_FALLBACK = re.compile(r"<0x[0-9A-Fa-f]{2}>")


def display_piece(piece: str, decoded: str) -> tuple[str, bool]:
    """(display text, partial) of one token: its decoded text, or its hex bytes when it is only part of
    a UTF-8 character (byte-level BPE pieces like 'ä' for 0xE4; SentencePiece byte fallback '<0xE4>')."""
    if "\ufffd" in decoded and "\ufffd" not in piece:
        if BYTE_FALLBACK.fullmatch(piece):
            return "<" + piece[3:5].lower() + ">", True
        if piece and all(c in BYTE_OF_CHAR for c in piece):
            return "<" + " ".join(f"{BYTE_OF_CHAR[c]:02x}" for c in piece) + ">", True
    return _visible(decoded if decoded else piece), False


def _array(ids_or_x) -> np.ndarray:
    """np.asarray of token ids or a hidden state; ragged lists ([[1, 2], [3]]) are one line, not numpy's
    ValueError."""
    try:
        return np.asarray(ids_or_x)
    except ValueError:
        raise InputError(msg("token ids must be one sequence of whole numbers, not lists of "
                             "different lengths")) from None


def _token_ids(arr: np.ndarray, d_model: int, layer: int) -> bool:
    """Whether layer0_qk reads `arr` as token ids, else as a hidden state (n, d_model) of floats: a vector
    or integers; for layer 0 also what no hidden state holds (bool, text) and a float (1, n) that cannot be
    one row of X (n != d_model). Read as a hidden state, a bool or float (1, n) of ids had been refused as
    "the layer input must have shape (n, 576)"; the ids' own refusal says what is wrong with them."""
    if arr.ndim <= 1 or np.issubdtype(arr.dtype, np.integer):
        return True
    one_row = arr.ndim == 2 and arr.shape[0] == 1 and arr.shape[1] != d_model
    return layer == 0 and (arr.dtype.kind not in "fc" or one_row)


class Model:
    """An opened model: config, its own tokenizer, and reads of its tables and layer-0 q/k."""

    def __init__(self, config_dict: dict, tensors: TensorReader, tokenizer, name: str, path,
                 runtime: str = "transformers"):
        try:
            self.config: ModelConfig = model_config(config_dict, name, runtime)
            families.check_tables(self.config, tensors)
            run_tokenizer(tokenizer.encode, "a")      # a tokenizer that panics says so when opened
        except BaseException:
            tensors.close()
            raise
        self.tensors = tensors
        self.tokenizer = tokenizer
        self.name = name
        self.path = Path(path) if path is not None else None
        self._lock = threading.Lock()      # one reader, many threads: positioned reads, but keep it simple
        self._shown: dict[int, tuple[str, bool]] = {}   # token id -> (display text, partial), once each
        tokenizer.no_padding()
        tokenizer.no_truncation()

    @property
    def vocab_rows(self) -> int:
        """Rows of the token table (may exceed the tokenizer's vocabulary: Qwen pads its table)."""
        return self.tensors.shape(families.need(self.tensors, *families.embed_names(self.config)))[0]

    def tokenize(self, text: str) -> TokenizedText:
        """The model's own tokenizer.json: tokens with ids and character spans; special tokens marked."""
        require(isinstance(text, str), "text must be a string, not %1", type(text).__name__)
        require(len(text) <= MAX_CHARS, "text has %1 characters; at most %2 can be tokenized", f"{len(text):,}",
                                        f"{MAX_CHARS:,}")
        enc = run_tokenizer(self.tokenizer.encode, _clean(text))
        shown = self._display_pieces(enc.ids, enc.tokens, enc.special_tokens_mask)
        n, tokens = len(text), []
        for tid, (s, e), sp in zip(enc.ids, enc.offsets, enc.special_tokens_mask):
            if sp and s == e:
                s = e = 0 if not tokens else n
            text_shown, partial = shown[tid]
            tokens.append(Token(tid, min(s, n), min(e, n), text_shown, partial=partial, special=bool(sp)))
        return TokenizedText(tuple(tokens), self.name, self.tokenizer.get_vocab_size(with_added_tokens=True))

    def _display_pieces(self, ids, pieces, special) -> dict[int, tuple[str, bool]]:
        """id -> (display text, partial) for these tokens; each id is decoded once per model (a text
        edit re-tokenizes mostly the same tokens), the new ones in one batch."""
        cache = self._shown
        new = {tid: (piece, sp) for tid, piece, sp in zip(ids, pieces, special) if tid not in cache}
        if new:
            decoded = run_tokenizer(self.tokenizer.decode_batch, [[tid] for tid in new],
                                    skip_special_tokens=False)
            for (tid, (piece, sp)), text in zip(new.items(), decoded):
                cache[tid] = (_visible(piece), False) if sp else display_piece(piece, text)
        return cache

    def _ids(self, ids) -> np.ndarray:
        """One sequence of token ids, (n,) int64: from (n,) or a batch of one (1, n), as tokenizers give it."""
        ids = _array(ids)
        require(ids.ndim <= 1 or (ids.ndim == 2 and ids.shape[0] == 1),
                "token ids must be one sequence, shape (n,) or (1, n), not %1: PE Explorer reads one text at "
                "a time (a batch would be read as one long text, with positions running on)", tuple(ids.shape))
        ids = ids.reshape(-1)
        require(ids.size == 0 or np.issubdtype(ids.dtype, np.integer),
                "token ids must be whole numbers, not %1 values", ids.dtype.name)
        ids = ids.astype(np.int64)
        rows = self.vocab_rows
        require(ids.size == 0 or (ids.min() >= 0 and ids.max() < rows),
                "token ids must lie in 0..%1 (the rows of %2's token table)", rows - 1, self.name)
        return ids

    def rows(self, ids) -> np.ndarray:
        """E[ids] as stored in the checkpoint (OPT: before project_in); (n, d) float32."""
        ids = self._ids(ids)
        self._check_rows_budget(ids.size, msg("token rows"))
        with self._lock:
            return families.token_rows(self.config, self.tensors, ids)

    def positions(self, n: int | None = None) -> np.ndarray | None:
        """The learned position rows 0..n-1 ((n, d); all when n is None), or None for a RoPE model; OPT's and
        RoBERTa's from their offset (rows 2, 3, ...), as a text without padding tokens reads them."""
        require(n is None or (isinstance(n, (int, np.integer)) and not isinstance(n, bool) and n >= 0),
                "n must be a whole number >= 0 (positions 0 .. n-1), not %1", shown(n))
        with self._lock:
            return families.position_rows(self.config, self.tensors, n)

    def positions_of(self, ids) -> np.ndarray | None:
        """The learned position rows these tokens read, (n, d), or None for a RoPE model: positions(n), but a
        RoBERTa-style model's padding token reads row padding_idx and does not advance the tokens after it."""
        ids = self._ids(ids)
        with self._lock:
            return families.positions_of(self.config, self.tensors, ids)

    def input_x(self, ids, positions: bool = True) -> np.ndarray:
        """X exactly as the model's first layer receives it; (n, d_model) float32. positions False: without the
        learned position rows (GPT-2, BERT, OPT, ...: the same X for a model that adds none at the input)."""
        ids = self._ids(ids)
        self._check_rows_budget(ids.size, msg("the input X"))
        with self._lock:
            return families.input_x(self.config, self.tensors, ids, positions)

    def _check_rows_budget(self, n: int, what) -> None:
        """Refuse n rows whose float32 arrays (the token rows, the positions, X: three of the wider width)
        would not fit the memory budget: 10 million ids had taken 22.8 GB."""
        cfg = self.config
        check_budget(3 * n * max(cfg.d_model, cfg.word_embed_proj_dim), 4, "%1 of %2 tokens", what,
                     grouped(n), advice=msg("use a shorter text"))

    def rope_inv_freq(self, seq_len: int | None = None, layer: int = 0) -> tuple[np.ndarray, float]:
        """(inv_freq (rope_dim/2,) float32, attention factor) of the model's own RoPE settings for
        `layer` (Gemma 3: its layer type's; the others: one RoPE for every layer). 0 for the pairs a text
        token leaves unturned (config.still_pairs: llama.cpp's Qwen3-VL).

        Checked, and the attention factor made, by explorer.backend.rope_scaling; inv_freq itself by
        transformers' own float32 steps (models.rope_float32), or without torch numpy's float32."""
        cfg = self.config
        require(cfg.position != "alibi", "%1 (%2) uses ALiBi, a bias on the attention scores, not RoPE", self.name,
                cfg.model_type)
        require(cfg.position != "relative", "%1 (%2) uses a relative position bias on the attention scores, not RoPE",
                self.name, cfg.model_type)                                        # (T5)
        require(cfg.position == "rope", "%1 (%2) has learned positions, not RoPE", self.name, cfg.model_type)
        base, scaling, refusal = cfg.rope_of(layer)
        if refusal is not None:
            raise InputError(msg("%1: its RoPE settings cannot be used: %2", self.name, refusal))
        dim = cfg.rope_dim_of(scaling)
        freqs = inv_frequencies(cfg.rope_head_dim, base, scaling, seq_len, cfg.max_positions)
        with np.errstate(over="ignore"):
            inv_freq = transformers_inv_freq(dim, base, scaling, seq_len, cfg.max_positions)
            if inv_freq is None:
                inv_freq = (default_inv_freq(base, dim) if scaling.rope_type == "default"
                            else np.asarray(freqs.inv_freq, dtype=np.float32))
            factor = np.float32(freqs.attention_factor)
        if cfg.still_pairs:                 # llama.cpp's Qwen3-VL: pairs turned by position 0 for text
            inv_freq = np.array(inv_freq, np.float32)
            inv_freq[list(cfg.still_pairs)] = 0.0
        # finite in float64 but not in float32 (a factor of 1e-300): NaN q and k, blamed on the weights
        require(bool(np.isfinite(inv_freq).all()) and bool(np.isfinite(factor)),
                "rope type %1 with these settings gives frequencies that are not finite numbers "
                "(a factor too small or too large?)", scaling.rope_type)
        return inv_freq, float(factor)

    def alibi_slopes(self) -> np.ndarray:
        """Each head's ALiBi slope on the logits as transformers' BLOOM, MPT or Falcon makes it; (H,) float32.
        InputError without ALiBi."""
        require(self.config.position == "alibi", "%1 (%2) has no ALiBi", self.name, self.config.model_type)
        return alibi_family.slopes_of(self.config)

    def relative_bias_table(self) -> np.ndarray:
        """T5: layer 0's relative_attention_bias, (num_buckets, num_heads) float32 (models.t5_bias); InputError for
        a model without one."""
        require(self.config.position == "relative", "%1 (%2) has no relative position bias", self.name,
                self.config.model_type)
        with self._lock:
            return bias_table(self.config, self.tensors)

    def layer0_qk(self, ids_or_x, layer: int = 0, inv_freq=None, attention_scaling: float = 1.0) -> LayerQK:
        """q, k (per head, rotated with the model's own RoPE, or with inv_freq if given) and logits.

        Give token ids ((n,) or (1, n), integers) for layer 0; a later layer needs its real input, a float
        hidden state (n, d), since PE Explorer does not run the layers before it."""
        arr = _array(ids_or_x)
        # layer_qk checks the range too, but after the ids check, which called -1 "a later layer"
        whole = isinstance(layer, (int, np.integer)) and not isinstance(layer, bool)     # ("3", 3.0, True: named)
        require(whole and 0 <= layer < self.config.n_layers, "layer must be in 0..%1, not %2",
                self.config.n_layers - 1, int(layer) if whole else shown(layer))
        if _token_ids(arr, self.config.d_model, layer):     # token ids: (n,) or (1, n)
            require(layer == 0, "layer %1 reads the output of the layers before it, which PE Explorer "
                                "does not compute; only layer 0 can be computed from the text", layer)
            arr = self.input_x(arr)
        require(np.issubdtype(arr.dtype, np.floating), "the layer input must hold real numbers, not %1 values",
                arr.dtype.name)        # complex: its imaginary part had been dropped with a warning
        if self.config.attention_refusal is not None:
            raise InputError(msg("%1: its attention cannot be shown: %2", self.name, self.config.attention_refusal))
        require(arr.shape[0] > 0, "no tokens: give at least one token id (or one row of the hidden state)")
        _check_qk_budget(self.config, arr.shape[0], layer)
        if inv_freq is None and self.config.position == "rope" and layer not in self.config.nope_layers:
            inv_freq, attention_scaling = self.rope_inv_freq(arr.shape[0], layer)
        with self._lock:
            try:
                return layer_qk(self.config, self.tensors, arr, layer, inv_freq, attention_scaling)
            except InputError:
                raise
            except ValueError as exc:     # a norm or bias that does not broadcast: a damaged file
                raise InputError(msg("%1: layer %2's weights do not fit its config: %3", self.name, layer,
                                     str(exc).splitlines()[0])) from None

    def norms(self, ids) -> dict[str, np.ndarray | None]:
        """Row norms for the scale gauge: token (|E[id]|, scaled as the model scales it), position, input."""
        ids = self._ids(ids)
        e = self.rows(ids)
        x = self.input_x(ids)
        pos = self.positions_of(ids)
        return {"token_norm": np.linalg.norm(e, axis=1),                                 # (n,)
                "scaled_norm": np.linalg.norm(e, axis=1) * np.float32(self.config.embed_scale),
                "pe_norm": None if pos is None else np.linalg.norm(pos, axis=1),
                "input_norm": np.linalg.norm(x, axis=1)}

    def close(self) -> None:
        self.tensors.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def build_model(config_dict: dict, tensors: TensorReader, tokenizer, name: str, path,
                runtime: str = "transformers") -> Model:
    """Model(...), with any non-InputError from a damaged source turned into one line; runtime: whose
    semantics the config's RoPE keys have (models.config.model_config)."""
    try:
        return Model(config_dict, tensors, tokenizer, name, path, runtime)
    except InputError:
        raise
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(msg("%1: cannot open the model: %2", name, exc)) from None


def _check_qk_budget(cfg: ModelConfig, n: int, layer: int) -> None:
    """Refuse q, k and logits that would not fit the memory budget (float32: the logits with and
    without RoPE, heads x n x n each, and q, k rotated and plain): they grow as tokens², and a long
    text on the command line asked for gigabytes (the window shows at most 512 tokens)."""
    check_budget(cfg.n_heads * n * (2 * n + 4 * cfg.head_dim), 4,
                 "layer %1's q, k and logits for %2 tokens and %3 heads", layer, n, cfg.n_heads,
                 advice=msg("use a shorter text"))
