"""A SentencePiece GGUF vocabulary (`tokenizer.ggml.model == "llama"`: Llama 2, Mistral v0.1, Gemma) -> Tokenizer.

Built as Hugging Face transformers builds it from the same file (transformers 5.x,
`integrations/gguf/gguf_tokenizer_mapping.py`: `sentencepiece_tokenizer` -> `LlamaTokenizer`,
`gemma_tokenizer` -> `GemmaTokenizer`, then `add_gguf_special_tokens`), with the `tokenizers` library only:
- a BPE over the file's tokens with byte fallback (`<0xNN>` byte tokens) and merges recovered from the
  vocabulary as `tokenization_utils_base.generate_merges` does: every split of a token into two tokens, best
  score of the merged token first (ties: longer left piece, then longer right piece, then file order). That
  is llama.cpp's SPM rule (`llm_tokenizer_spm`: merge the adjacent pair whose union scores highest).
- Llama-style: spaces -> ▁ and, when `tokenizer.ggml.add_space_prefix` is true (the default), one ▁ in front
  of every stretch of text between special tokens: llama.cpp's rule (`llama_vocab::impl::tokenize`, case
  LLAMA_VOCAB_TYPE_SPM: `if (add_space_prefix && is_prev_special) text = ' '`, is_prev_special true at the
  start and after each special token). transformers uses Metaspace(prepend_scheme "first") instead, which
  adds no ▁ to text after a special token nor to text that already starts with a space; those are the only
  places where its ids differ (tests/test_gguf_spm.py pins both). Built as normalizers Prepend("▁") +
  Replace(" ", "▁"), which `tokenizers` applies to each stretch between added tokens (as transformers'
  phi3_tokenizer does). Decoder: ▁ -> space, byte fallback, fuse, strip the one leading space.
- Gemma-style (general.architecture gemma*): tokens of only spaces are respelled with ▁, merges follow the file
  order instead of the scores, normalizer " " -> "▁" (GemmaTokenizer); llama.cpp's converter writes
  add_space_prefix false for Gemma, so no prefix and no strip.
- control (type 3) and unknown (type 2) tokens and the bos / eos / unk / pad tokens are special added tokens,
  user-defined ones (type 4) plain added tokens; BOS / EOS added as `tokenizer.ggml.add_bos_token` (default true,
  as llama.cpp and transformers for SentencePiece files) / `add_eos_token` (default false) say.
"""

from __future__ import annotations

import re

import numpy as np

from explorer.errors import InputError, msg, require

NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6   # llama.cpp's llama_token_type
BYTE_TOKEN = re.compile(r"<0x[0-9A-F]{2}>")
SPACE = "\u2581"
SPECIAL_IDS = ("bos_token_id", "eos_token_id", "unknown_token_id", "padding_token_id")


def _flag(fields: dict, key: str, default: bool, where: str) -> bool:
    value = fields.get(key, default)
    require(isinstance(value, (bool, np.bool_)), "%1: metadata %2 is %3; it must be true or false", where, key,
                                                 repr(value))
    return bool(value)


def _special_id(fields: dict, key: str, n: int, where: str) -> int | None:
    value = fields.get(f"tokenizer.ggml.{key}")
    if value is None:
        return None
    require(isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n,
            "%1: metadata tokenizer.ggml.%2 is %3; it must be a token id below %4", where, key, repr(value), f"{n:,}")
    return int(value)


MAX_SPLIT_CHARS = 4096      # the longest token split into merges


def recovered_merges(tokens: list[str], order: dict[str, float], vocab: dict[str, int]) -> list[tuple[str, str]]:
    """transformers' generate_merges(vocab, vocab_scores=order): (left, right) pairs, best merged score first.

    Only splits whose two halves have lengths some token has are tried (the same pairs: each half must
    be a token): a 300,000-character token took 20 s trying every split. A token longer than
    MAX_SPLIT_CHARS is kept whole: no merge makes it."""
    lengths = sorted({len(t) for t in vocab})
    merges = []
    for merged, score in order.items():
        local = []
        size = len(merged)
        if size > MAX_SPLIT_CHARS:
            continue
        for i in lengths:
            if i >= size:
                break
            left, right = merged[:i], merged[i:]
            if left in vocab and right in vocab:
                local.append((left, right, score))
        local.sort(key=lambda m: (vocab[m[0]], vocab[m[1]]))
        merges.extend(local)
    merges = sorted(merges, key=lambda m: (m[2], len(m[0]), len(m[1])), reverse=True)
    return [(left, right) for left, right, _ in merges]


def _checked(fields: dict, where: str) -> tuple[list[str], np.ndarray, np.ndarray]:
    tokens = fields.get("tokenizer.ggml.tokens")
    require(isinstance(tokens, list) and len(tokens) > 0 and all(isinstance(t, str) for t in tokens),
            "%1: metadata tokenizer.ggml.tokens must be a non-empty list of strings", where)
    n = len(tokens)
    scores = fields.get("tokenizer.ggml.scores")
    require(scores is not None, "%1: metadata tokenizer.ggml.scores is missing; a SentencePiece vocabulary needs one "
                                "score per token", where)
    require(isinstance(scores, np.ndarray) and scores.shape == (n,) and scores.dtype.kind == "f",
            "%1: metadata tokenizer.ggml.scores must hold one number per token (%2)", where, f"{n:,}")
    require(bool(np.all(np.isfinite(scores))), "%1: metadata tokenizer.ggml.scores must be finite numbers", where)
    types = fields.get("tokenizer.ggml.token_type")
    if types is None:
        types = np.full(n, NORMAL, dtype=np.int32)
    require(isinstance(types, np.ndarray) and types.shape == (n,) and types.dtype.kind in "iu",
            "%1: metadata tokenizer.ggml.token_type must hold one integer per token (%2)", where, f"{n:,}")
    bad = [i for i in np.flatnonzero(types == BYTE) if not BYTE_TOKEN.fullmatch(tokens[i])]
    require(not bad, "%1: token %2 (%3) is marked as a byte token but is not written <0xNN> (two upper-case hex "
                     "digits)", where, bad[0] if bad else 0, repr(tokens[bad[0]] if bad else ""))
    return tokens, scores, types


def spm_tokenizer(fields: dict, where: str):
    """The `tokenizers.Tokenizer` of a SentencePiece ('llama') GGUF vocabulary; InputError if malformed."""
    from tokenizers import (
        Tokenizer,
        decoders,
        models,
        normalizers,
    )

    tokens, scores, types = _checked(fields, where)
    n = len(tokens)
    gemma = str(fields.get("general.architecture", "")).startswith("gemma")
    prefix = _flag(fields, "tokenizer.ggml.add_space_prefix", True, where)     # llama.cpp's Gemma files: false
    add_bos = _flag(fields, "tokenizer.ggml.add_bos_token", True, where)
    add_eos = _flag(fields, "tokenizer.ggml.add_eos_token", False, where)
    ids = {key: _special_id(fields, key, n, where) for key in SPECIAL_IDS}
    spelled = [SPACE * len(t) if gemma and " " in t and not t.strip() else t for t in tokens]
    vocab = {t: i for i, t in enumerate(spelled)}          # a repeated string: its last id, as transformers
    order = {t: -float(i) for i, t in enumerate(spelled)} if gemma else dict(zip(spelled, scores.tolist()))
    merges = recovered_merges(spelled, order, vocab)
    unk = ids["unknown_token_id"]
    try:
        tok = Tokenizer(models.BPE(vocab=vocab, merges=merges, fuse_unk=True, byte_fallback=True,
                                   unk_token=spelled[unk] if unk is not None else None))
        steps = [decoders.Replace(SPACE, " "), decoders.ByteFallback(), decoders.Fuse()]
        spaces = normalizers.Replace(" ", SPACE)
        tok.normalizer = normalizers.Sequence([normalizers.Prepend(SPACE), spaces]) if prefix else spaces
        if prefix:
            steps.append(decoders.Strip(content=" ", left=1, right=0))
        tok.decoder = decoders.Sequence(steps)
        add_file_tokens(tok, tokens, types, ids, known=vocab)
        post = edge_template(tokens, ids["bos_token_id"] if add_bos else None,
                             ids["eos_token_id"] if add_eos else None, where)
        if post is not None:
            tok.post_processor = post
    except InputError:
        raise
    except Exception as exc:   # the Rust side reports malformed input with its own exception types
        raise vocabulary_error(exc, where) from exc
    return tok


def add_file_tokens(tok, tokens: list[str], types: np.ndarray, ids: dict, known=None) -> None:
    """Add to `tok` a SentencePiece file's control and unknown pieces and its special ids (the values of `ids`:
    bos / eos / unk / pad, None where the file has none) as special added tokens, and its user-defined pieces as
    plain added ones (only those in `known` where given: the BPE vocabulary's); for gguf_spm and gguf_ugm."""
    from tokenizers import AddedToken

    special = set(np.flatnonzero((types == CONTROL) | (types == UNKNOWN)).tolist())
    special |= {i for i in ids.values() if i is not None}
    tok.add_special_tokens([AddedToken(tokens[i], special=True, normalized=False) for i in sorted(special)])
    tok.add_tokens([AddedToken(tokens[i], special=False, normalized=False)
                    for i in np.flatnonzero(types == USER_DEFINED).tolist() if known is None or tokens[i] in known])


def edge_template(pieces, first: int | None, last: int | None, where: str = "the file"):
    """A post-processor that puts token `first` before the text and `last` after it (ids, or None for
    neither), or None when there is nothing to add. The template is a list of pieces, so a token with
    a space is read whole; one that starts with "$" would be read as a sequence (a Rust panic on every
    text) and one with a ":" as a name and a type id: both refused."""
    from tokenizers import processors

    single, ends = ["$A"], {}
    for index, at_start in ((first, True), (last, False)):
        if index is None:
            continue
        piece = pieces[index]
        require(not piece.startswith("$") and ":" not in piece, "%1: the special token %2 starts with '$' or "
                "holds ':', which the tokenizers library reads as a sequence or a type id in a template: this "
                "vocabulary cannot be used", where, repr(piece[:40]))
        single = [piece, *single] if at_start else [*single, piece]
        ends[piece] = index
    return processors.TemplateProcessing(single=single, special_tokens=list(ends.items())) if ends else None


def vocabulary_error(exc: Exception, where: str) -> InputError:
    """The one-line refusal for a vocabulary `tokenizers` would not build (the first line of its reason)."""
    why = (str(exc).splitlines() or [type(exc).__name__])[0][:160]
    return InputError(msg("%1: its vocabulary cannot be made into a tokenizer: %2", where, why))
