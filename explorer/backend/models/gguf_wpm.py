"""A WordPiece GGUF vocabulary (`tokenizer.ggml.model == "bert"`, llama.cpp's BertModel) -> a Tokenizer.

llama.cpp's converter (ggml-org/llama.cpp conversion/bert.py, `BertModel.set_vocab`) writes the Hugging Face
WordPiece vocabulary in id order in a "phantom space" spelling: a control token (type 3: [CLS], [SEP], [UNK],
[PAD], [MASK]) unchanged, a continuation piece "##ing" as "ing", any other piece "word" as "▁word"; llama.cpp's
WPM tokenizer then puts a "▁" before each word. Read back here: control tokens unchanged, "▁word" -> "word",
any other "x" -> "##x", which is the original vocabulary again.

The ids then come from a `tokenizers` WordPiece built as transformers' BertTokenizerFast builds it (BertNormalizer
with clean_text and Chinese characters split off, BertPreTokenizer, greedy longest match with "##"
continuations, [UNK] for a word of more than 100 characters or one no pieces spell, "[CLS] $A [SEP]"), so they
equal the original Hugging Face tokenizer's. The file does not record `do_lower_case`; llama.cpp's own WPM
always lower-cases. Here the vocabulary decides: a vocabulary with no upper-case letter in any normal piece
(bert-base-uncased, MiniLM) is lower-cased and accent-stripped (BertNormalizer's lowercase, with strip_accents
following it as transformers' default), any other (bert-base-cased) is left as written.
The special tokens are the control ones; [CLS] / [SEP] are tokenizer.ggml.bos_token_id (the converter's
SpecialVocab takes cls_token as bos) and seperator_token_id (else eos_token_id), added as
tokenizer.ggml.add_bos_token and add_eos_token / add_sep_token say (default: both, as BERT does).
"""

from __future__ import annotations

import re

import numpy as np

from explorer.backend.models.gguf_spm import (
    CONTROL,
    NORMAL,
    SPACE,
    _flag,
    _special_id,
    edge_template,
    vocabulary_error,
)
from explorer.errors import InputError, msg, require

CONTINUATION = "##"
MAX_WORD_CHARS = 100                 # transformers' WordPiece max_input_chars_per_word
PADDING_PIECE = re.compile(r"\[PAD\d+\]")   # get_vocab_base's filler for ids the tokenizer lacks


def original_pieces(tokens: list[str], types: np.ndarray) -> list[str]:
    """The Hugging Face WordPiece vocabulary (id order) from the converter's phantom-space spelling."""
    out = []
    for token, kind in zip(tokens, types.tolist()):
        if kind == CONTROL:
            out.append(token)
        elif token.startswith(SPACE):
            out.append(token[len(SPACE):])                 # a word-initial piece
        else:
            out.append(CONTINUATION + token)               # the converter took its "##" off
    return out


def is_uncased(pieces: list[str], types: np.ndarray) -> bool:
    """Whether no normal piece holds a letter that lower-casing changes (an uncased vocabulary)."""
    for piece, kind in zip(pieces, types.tolist()):
        if kind == NORMAL and not PADDING_PIECE.fullmatch(piece) and piece != piece.lower():
            return False
    return True


def _checked(fields: dict, where: str) -> tuple[list[str], np.ndarray]:
    tokens = fields.get("tokenizer.ggml.tokens")
    require(isinstance(tokens, list) and len(tokens) > 0 and all(isinstance(t, str) for t in tokens),
            "%1: metadata tokenizer.ggml.tokens must be a non-empty list of strings", where)
    types = fields.get("tokenizer.ggml.token_type")
    require(types is not None, "%1: metadata %2 is missing (%3); the file has no usable tokenizer", where,
            "tokenizer.ggml.token_type", msg("one token type per token, which tells the special tokens"))
    require(isinstance(types, np.ndarray) and types.shape == (len(tokens),) and types.dtype.kind in "iu",
            "%1: metadata tokenizer.ggml.token_type must hold one integer per token (%2)", where, f"{len(tokens):,}")
    return tokens, types


def wpm_tokenizer(fields: dict, where: str):
    """The `tokenizers.Tokenizer` of a WordPiece ('bert') GGUF vocabulary; InputError if malformed."""
    from tokenizers import (
        AddedToken,
        Tokenizer,
        decoders,
        models,
        normalizers,
        pre_tokenizers,
    )

    tokens, types = _checked(fields, where)
    n = len(tokens)
    pieces = original_pieces(tokens, types)
    vocab: dict[str, int] = {}
    for i, piece in enumerate(pieces):
        vocab.setdefault(piece, i)                         # a repeated piece keeps its first id
    unk = _special_id(fields, "unknown_token_id", n, where)
    if unk is None:
        unk = vocab.get("[UNK]")
    require(unk is not None, "%1: the WordPiece vocabulary names no unknown token (metadata "
                             "tokenizer.ggml.unknown_token_id, or a token [UNK])", where)
    cls = _special_id(fields, "bos_token_id", n, where)
    sep = _special_id(fields, "seperator_token_id", n, where)
    sep = sep if sep is not None else _special_id(fields, "eos_token_id", n, where)
    add_cls = _flag(fields, "tokenizer.ggml.add_bos_token", True, where)
    add_sep = (_flag(fields, "tokenizer.ggml.add_eos_token", True, where)
               or _flag(fields, "tokenizer.ggml.add_sep_token", False, where))
    lower = is_uncased(pieces, types)
    try:
        tok = Tokenizer(models.WordPiece(vocab=vocab, unk_token=pieces[unk], continuing_subword_prefix=CONTINUATION,
                                         max_input_chars_per_word=MAX_WORD_CHARS))
        tok.normalizer = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True, strip_accents=lower,
                                                    lowercase=lower)
        tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        tok.decoder = decoders.WordPiece(prefix=CONTINUATION)
        special = set(np.flatnonzero(types == CONTROL).tolist()) | {unk}
        special |= {i for i in (cls, sep) if i is not None}
        tok.add_special_tokens([AddedToken(pieces[i], special=True, normalized=False) for i in sorted(special)])
        post = edge_template(pieces, cls if add_cls else None, sep if add_sep else None, where)
        if post is not None:
            tok.post_processor = post
    except InputError:
        raise
    except Exception as exc:   # the Rust side reports malformed input with its own exception types
        raise vocabulary_error(exc, where) from exc
    return tok
