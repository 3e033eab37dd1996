"""A GGUF file's vocabulary and merges (`tokenizer.ggml.*`) -> a `tokenizers` byte-level BPE Tokenizer.

SentencePiece ('llama') vocabularies are built by gguf_spm.py, WordPiece ('bert') ones by gguf_wpm.py, a T5 file's
Unigram ('t5') one by gguf_ugm.py.

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
# DeepSeek-LLM's and DeepSeek-V2's letters (llama.cpp's LLAMA_VOCAB_PRE_TYPE_DEEPSEEK_LLM, the tokenizer.json's
# class): cased letters of many scripts, as escapes (U+1F7D, U+1FD3, U+1FDB, U+1FBE, U+2126 and U+212A have
# look-alikes that Unicode normalisation would swap in)
DEEPSEEK_LETTERS = ("A-Za-z\u00b5\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u01ba\u01bc-\u01bf\u01c4-\u0293\u0295-\u02af\u0370"
                    "-\u0373\u0376\u0377\u037b-\u037d\u037f\u0386\u0388-\u038a\u038c\u038e-\u03a1\u03a3-\u03f5\u03f7-"
                    "\u0481\u048a-\u052f\u0531-\u0556\u10a0-\u10c5\u13a0-\u13f5\u13f8-\u13fd\u1c90-\u1cba\u1cbd-"
                    "\u1cbf\u1d00-\u1d2b\u1d6b-\u1d77\u1d79-\u1d9a\u1e00-\u1f15\u1f18-\u1f1d\u1f20-\u1f45\u1f48-"
                    "\u1f4d\u1f50-\u1f57\u1f59\u1f5b\u1f5d\u1f5f-\u1f7d\u1f80-\u1fb4\u1fb6-\u1fbc\u1fbe\u1fc2-\u1fc4"
                    "\u1fc6-\u1fcc\u1fd0-\u1fd3\u1fd6-\u1fdb\u1fe0-\u1fec\u1ff2-\u1ff4\u1ff6-\u1ffc\u2102\u2107\u210a"
                    "-\u2113\u2115\u2119-\u211d\u2124\u2126\u2128\u212a-\u212d\u212f-\u2134\u2139\u213c-\u213f\u2145-"
                    "\u2149\u214e\u2183\u2184\u2c00-\u2c7b\u2c7e-\u2ce4\u2ceb-\u2cee\u2cf2\u2cf3\ua640-\ua66d\ua680-"
                    "\ua69b\ua722-\ua76f\ua771-\ua787\ua78b-\ua78e\uab70-\uabbf\ufb00-\ufb06\ufb13-\ufb17\uff21-"
                    "\uff3a\uff41-\uff5a\U00010400-\U0001044f\U000104b0-\U000104d3\U000104d8-\U000104fb\U00010c80-"
                    "\U00010cb2\U00010cc0-\U00010cf2\U000118a0-\U000118df\U0001e900-\U0001e943")
DEEPSEEK_LLM = ("[\r\n]", r"\s?[" + DEEPSEEK_LETTERS + "]+",
                r"\s?[!-/:-~" + "\uff01-\uff0f\uff1a-\uff5e\u2018-\u201f\u3000-\u3002]+", r"\s+$",
                "[\u4e00-\u9fa5\u0800-\u4e00\uac00-\ud7ff]+", r"\p{N}+")
# tokenizer.ggml.pre -> regexes, applied in order (llama.cpp src/llama-vocab.cpp)
PRE_REGEXES = {
    "default": (GPT2_RE,), "gpt2": (GPT2_RE,), "gpt-2": (GPT2_RE,), "phi-2": (GPT2_RE,), "mpt": (GPT2_RE,),
    "olmo": (GPT2_RE,), "bloom": (r" ?[^(\s|.,!?…。，、।۔،)]+",),   # (BLOOM's: words, each with its space)
    "smollm": (r"\p{N}", GPT2_RE), "starcoder": (r"\p{N}", GPT2_RE), "refact": (r"\p{N}", GPT2_RE),
    "command-r": (r"\p{N}", GPT2_RE),
    "falcon": (r"[\p{P}\$\+<=>\^~\|`]+", GPT2_RE, "[0-9][0-9][0-9]"),   # (runs of punctuation, then GPT-2's)
    "llama-bpe": (LLAMA3_RE,), "llama3": (LLAMA3_RE,),
    "chatglm-bpe": (LLAMA3_RE,), "glm4": (LLAMA3_RE,),   # (GLM-4's LLAMA_VOCAB_PRE_TYPE_CHATGLM4: Llama 3's regex)
    "qwen2": (QWEN2_RE,), "stablelm2": (QWEN2_RE,), "gpt-4o": (GPT4O_RE,), "llama4": (GPT4O_RE,),
    "deepseek-llm": DEEPSEEK_LLM,
    "deepseek-v3": (r"\p{N}{1,3}", "[\u4e00-\u9fa5\u3040-\u309f\u30a0-\u30ff]+", DEEPSEEK3_RE),
}
CONTROL, USER_DEFINED = 3, 4     # tokenizer.ggml.token_type values (llama.cpp's llama_token_type)


def _field(fields: dict, key: str, where: str, kind, what: str):
    value = fields.get(key)
    require(value is not None, "%1: metadata %2 is missing (%3); the file has no usable tokenizer", where, key, what)
    require(isinstance(value, kind), "%1: metadata %2 is %3, not %4", where, key, _kind_of(value), what)
    return value


def _kind_of(value):
    """What a metadata value is, in words (not Python's type name: "ndarray")."""
    if isinstance(value, str):
        return msg("text")
    if isinstance(value, (bool, np.bool_)):
        return msg("true or false")
    if isinstance(value, (int, float, np.number)):
        return msg("a number")
    if isinstance(value, (list, tuple, np.ndarray)):
        return msg("a list")
    return msg("a value of another kind")


def _optional_id(fields: dict, key: str, n_vocab: int, where: str) -> int | None:
    value = fields.get(key)
    if value is None:
        return None
    require(isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n_vocab,
            "%1: metadata %2 is %3; it must be a token id below %4", where, key, repr(value), f"{n_vocab:,}")
    return int(value)


# pre-tokenizers whose vocabulary llama.cpp loads with special_bos_id = LLAMA_TOKEN_NULL (llama-vocab.cpp, load: GLM-4's
# CHATGLM4): no BOS is put before the text, whatever tokenizer.ggml.add_bos_token says
NO_BOS_PRE = ("glm4", "chatglm-bpe")


def tokenizer_from_metadata(fields: dict, where: str):
    """The `tokenizers.Tokenizer` the metadata describes; InputError if missing, malformed or unsupported."""
    from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, pre_tokenizers

    from explorer.backend.models.gguf_spm import edge_template

    model = _field(fields, "tokenizer.ggml.model", where, str, msg("the tokenizer type"))
    if model == "llama":
        from explorer.backend.models.gguf_spm import spm_tokenizer

        return spm_tokenizer(fields, where)
    if model == "bert":
        from explorer.backend.models.gguf_wpm import wpm_tokenizer

        return wpm_tokenizer(fields, where)
    if model == "t5" and fields.get("general.architecture") in ("t5", "t5encoder"):
        from explorer.backend.models.gguf_ugm import ugm_tokenizer        # (T5's Unigram; XLM-R's "t5" is not read)

        return ugm_tokenizer(fields, where)
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
        if fields.get("tokenizer.ggml.add_bos_token") is True and bos is not None and pre not in NO_BOS_PRE:
            tok.post_processor = edge_template(tokens, bos, None, where)
    except InputError:
        raise
    except Exception as exc:   # the Rust side reports malformed input with its own exception types
        raise InputError(msg("%1: its vocabulary cannot be made into a tokenizer: %2", where, exc)) from exc
    return tok
