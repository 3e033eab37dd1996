"""A GGUF file's vocabulary and merges (`tokenizer.ggml.*`) -> a `tokenizers` byte-level BPE Tokenizer.

SentencePiece ('llama') vocabularies are built by gguf_spm.py, WordPiece ('bert') ones by gguf_wpm.py.

The pre-tokenizer regexes per `tokenizer.ggml.pre` are llama.cpp's, from `llama_vocab::impl::load`
(src/llama-vocab.cpp, ggml-org/llama.cpp): the regexes are applied one after another, each splitting the
pieces the previous one made, and text no regex matches stays a piece of its own ("isolated" in `tokenizers`).
Bytes then map to printable characters as GPT-2 does (ByteLevel) and the merges apply in rank order.
"""

from __future__ import annotations

import numpy as np

from explorer.errors import InputError, msg, require, shown

GPT2_RE = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)"
LLAMA3_RE = (r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
             r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
QWEN2_RE = (r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}"
            r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
# GPT-4o's o200k pre-tokenizer (gpt-oss, Llama 4), as llama.cpp rewrote tokenizer.json's pattern for its own
# regex engine: a cased word is non-lowercase letters then non-uppercase ones (or the reverse), with an
# optional 's / 't / ... ending. It splits ASCII, CJK and emoji text as tiktoken's pattern does; non-ASCII case
# changes and combining marks otherwise (as llama.cpp does)
GPT4O_RE = (r"[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+"
            r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?"
            r"|[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))+((?=[\p{L}])([^A-Z]))*"
            r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?"
            r"|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+")
# DeepSeek-V3's (and R1's) last pre-tokenizer regex: ASCII punctuation may lead a Latin word, letters keep their
# combining marks, runs of punctuation and symbols stand alone; before it, digits go in threes and runs of CJK
# ideographs, hiragana and katakana stand apart (llama.cpp's LLAMA_VOCAB_PRE_TYPE_DEEPSEEK3_LLM)
DEEPSEEK3_RE = (r"""[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+"""
                r"| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
# tokenizer.ggml.pre -> regexes, applied in order (llama.cpp src/llama-vocab.cpp)
PRE_REGEXES = {
    "default": (GPT2_RE,), "gpt2": (GPT2_RE,), "gpt-2": (GPT2_RE,), "phi-2": (GPT2_RE,), "mpt": (GPT2_RE,),
    "olmo": (GPT2_RE,),
    "smollm": (r"\p{N}", GPT2_RE), "starcoder": (r"\p{N}", GPT2_RE), "refact": (r"\p{N}", GPT2_RE),
    "command-r": (r"\p{N}", GPT2_RE),
    "llama-bpe": (LLAMA3_RE,), "llama3": (LLAMA3_RE,),
    "qwen2": (QWEN2_RE,), "stablelm2": (QWEN2_RE,), "gpt-4o": (GPT4O_RE,),
    "deepseek-v3": (r"\p{N}{1,3}", "[\u4e00-\u9fa5\u3040-\u309f\u30a0-\u30ff]+", DEEPSEEK3_RE),
}
CONTROL, USER_DEFINED = 3, 4     # tokenizer.ggml.token_type values (llama.cpp's llama_token_type)


def _field(fields: dict, key: str, where: str, kind, what: str):
    value = fields.get(key)
    require(value is not None, "%1: metadata %2 is missing (%3); the file has no usable tokenizer", where, key, what)
    require(isinstance(value, kind), "%1: metadata %2 is a %3, not %4", where, key, type(value).__name__, what)
    return value


def _optional_id(fields: dict, key: str, n_vocab: int, where: str) -> int | None:
    value = fields.get(key)
    if value is None:
        return None
    require(isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n_vocab,
            "%1: metadata %2 is %3; it must be a token id below %4", where, key, repr(value), f"{n_vocab:,}")
    return int(value)


def tokenizer_from_metadata(fields: dict, where: str):
    """The `tokenizers.Tokenizer` the metadata describes; InputError if missing, malformed or unsupported."""
    from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, pre_tokenizers

    from explorer.backend.models.gguf_spm import edge_template

    model = _field(fields, "tokenizer.ggml.model", where, str, "the tokenizer type")
    if model == "llama":
        from explorer.backend.models.gguf_spm import spm_tokenizer

        return spm_tokenizer(fields, where)
    if model == "bert":
        from explorer.backend.models.gguf_wpm import wpm_tokenizer

        return wpm_tokenizer(fields, where)
    require(model == "gpt2", "%1: tokenizer.ggml.model is %2; only byte-level BPE ('gpt2'), SentencePiece "
                             "('llama') and WordPiece ('bert') vocabularies can be read", where, repr(model))
    pre = fields.get("tokenizer.ggml.pre", "default")
    require(isinstance(pre, str), "%1: metadata tokenizer.ggml.pre must be a string, not %2", where, shown(pre))
    require(pre in PRE_REGEXES, "%1: tokenizer.ggml.pre is %2; supported pre-tokenizers are %3", where, repr(pre),
            ", ".join(sorted(PRE_REGEXES)))
    tokens = _field(fields, "tokenizer.ggml.tokens", where, list, msg("a list of token strings"))
    merges = _field(fields, "tokenizer.ggml.merges", where, list, msg("a list of merges"))
    require(len(tokens) > 0 and all(isinstance(t, str) for t in tokens),
            "%1: tokenizer.ggml.tokens must be a non-empty list of strings", where)
    require(all(isinstance(m, str) for m in merges), "%1: tokenizer.ggml.merges must be strings", where)
    n = len(tokens)
    types = fields.get("tokenizer.ggml.token_type")
    if types is not None:
        require(isinstance(types, np.ndarray) and types.shape == (n,),
                "%1: tokenizer.ggml.token_type must hold one integer per token (%2)", where, f"{n:,}")
    vocab: dict[str, int] = {}
    for i, t in enumerate(tokens):
        vocab.setdefault(t, i)           # a repeated string keeps its first id, as llama.cpp's token_to_id
    pairs = []
    for m in merges:
        a, sep, b = m.partition(" ")
        require(sep == " " and a and b and " " not in b,
                "%1: merge %2 is not two tokens separated by one space", where, repr(m[:40]))
        require(a in vocab and b in vocab and a + b in vocab,
                "%1: merge %2 names tokens that are not in the vocabulary", where, repr(m[:40]))
        pairs.append((a, b))
    try:
        tok = Tokenizer(models.BPE(vocab=vocab, merges=pairs, fuse_unk=False))
        splits = [pre_tokenizers.Split(Regex(rx), behavior="isolated") for rx in PRE_REGEXES[pre]]
        tok.pre_tokenizer = pre_tokenizers.Sequence(
            splits + [pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
        tok.decoder = decoders.ByteLevel()
        if types is not None:
            special = [AddedToken(tokens[i], special=True, normalized=False) for i in np.flatnonzero(types == CONTROL)
                       if vocab[tokens[i]] == i]
            user = [AddedToken(tokens[i], special=False, normalized=False)
                    for i in np.flatnonzero(types == USER_DEFINED) if vocab[tokens[i]] == i]
            tok.add_special_tokens(special)
            tok.add_tokens(user)
        bos = _optional_id(fields, "tokenizer.ggml.bos_token_id", n, where)
        _optional_id(fields, "tokenizer.ggml.eos_token_id", n, where)
        if fields.get("tokenizer.ggml.add_bos_token") is True and bos is not None:
            tok.post_processor = edge_template(tokens, bos, None, where)
    except InputError:
        raise
    except Exception as exc:   # the Rust side reports malformed input with its own exception types
        raise InputError(msg("%1: its vocabulary cannot be made into a tokenizer: %2", where, exc)) from exc
    return tok
