"""A T5 GGUF's Unigram vocabulary (`tokenizer.ggml.model == "t5"`, in a `t5` / `t5encoder` file) -> Tokenizer.

llama.cpp's conversion/t5.py (`T5Model.set_vocab`) writes the SentencePiece Unigram model's pieces in id order
(tokenizer.ggml.tokens, [PAD{i}] UNUSED for ids past the model's), their log-probability scores
(tokenizer.ggml.scores), token types (NORMAL, UNKNOWN, CONTROL, UNUSED, BYTE; USER_DEFINED from added_tokens.json),
add_space_prefix (add_dummy_prefix), remove_extra_whitespaces and the normalizer's precompiled_charsmap;
src/llama-vocab.cpp's "t5" case defaults eos 1, unk 2, pad 0 and no BOS. Built as transformers 5.25 builds a
T5 tokenizer from such a file (integrations/gguf/gguf_tokenizer_mapping.py, unigram_tokenizer ->
models/t5/tokenization_t5.py, T5Tokenizer): tokenizers' Unigram over the (piece, score) pairs without byte
fallback, pre-tokenizers WhitespaceSplit then Metaspace("▁", prepend_scheme "always", split) (runs of whitespace
collapse, each word gets one ▁), the Metaspace decoder, and "$A </s>" after the text (T5Tokenizer's
TemplateProcessing; none where the file says add_eos_token false). The unknown id is the file's (else llama.cpp's 2,
T5Tokenizer's unk_id). The file's precompiled_charsmap (SentencePiece's NFKC-style normalizer, which llama.cpp's
UGM tokenizer applies) is left out, as transformers' GGUF reading leaves it out: text it would change (full-width
forms, ligatures, unusual spaces) can split otherwise than in llama.cpp or a T5 folder's tokenizer.json. (tokenizers'
Precompiled normalizer cannot be checked here without a real SentencePiece model, and a malformed map makes it
panic mid-text.) Control and unknown pieces, and the eos / unk / pad tokens, are special added tokens, user-defined
ones plain added tokens. A file whose add_space_prefix or remove_extra_whitespaces is false (T5's spiece models
set both) is refused: these pre-tokenizers would not split it as llama.cpp does.
"""

from __future__ import annotations

from explorer.backend.models.gguf_spm import (
    _checked,
    _flag,
    _special_id,
    add_file_tokens,
    edge_template,
    vocabulary_error,
)
from explorer.errors import InputError, require

SPACE = "\u2581"
T5_IDS = {"eos_token_id": 1, "unknown_token_id": 2, "padding_token_id": 0}     # llama-vocab.cpp's "t5" defaults


def ugm_tokenizer(fields: dict, where: str):
    """The `tokenizers.Tokenizer` of a T5 GGUF's Unigram vocabulary; InputError in one line if malformed."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    tokens, scores, types = _checked(fields, where)
    n = len(tokens)
    for key in ("tokenizer.ggml.add_space_prefix", "tokenizer.ggml.remove_extra_whitespaces"):
        require(_flag(fields, key, True, where), "%1: metadata %2 is false; PE Explorer reads T5's Unigram "
                "vocabulary with both it and %3 true, as T5's SentencePiece models have them", where, key,
                "add_space_prefix" if key.endswith("whitespaces") else "remove_extra_whitespaces")
    ids = {}
    for key, default in T5_IDS.items():
        given = _special_id(fields, key, n, where)
        ids[key] = given if given is not None else (default if default < n else None)
    require(ids["unknown_token_id"] is not None, "%1: metadata tokenizer.ggml.unknown_token_id is missing and "
            "the vocabulary has no token 2 (llama.cpp's T5 default)", where)
    add_eos = _flag(fields, "tokenizer.ggml.add_eos_token", True, where)
    try:
        tok = Tokenizer(models.Unigram([(t, float(s)) for t, s in zip(tokens, scores.tolist())],
                                       unk_id=ids["unknown_token_id"], byte_fallback=False))
        tok.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.WhitespaceSplit(),
            pre_tokenizers.Metaspace(replacement=SPACE, prepend_scheme="always", split=True)])
        tok.decoder = decoders.Metaspace(replacement=SPACE, prepend_scheme="always", split=True)
        add_file_tokens(tok, tokens, types, ids)
        post = edge_template(tokens, None, ids["eos_token_id"] if add_eos else None, where)
        if post is not None:
            tok.post_processor = post
    except InputError:
        raise
    except Exception as exc:   # the Rust side reports malformed input with its own exception types
        raise vocabulary_error(exc, where) from exc
    return tok
