"""Fuzz: sentences through every available tokenizer -> tokens or InputError, never a crash.

Random Unicode including lone surrogates, C0/C1 controls, zero-width and bidi marks, RTL scripts,
emoji ZWJ sequences; texts at and over the 100,000-character limit; 1 MB of text.
Profile: PE_FUZZ_PROFILE=ci (default) or long (>= 10,000 examples per tokenizer).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from explorer.backend import tokens as tok
from explorer.errors import InputError

settings.register_profile("ci", max_examples=80, deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=10_000, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(settings.get_profile(os.environ.get("PE_FUZZ_PROFILE", "ci")))

AVAILABLE = [name for name, why in tok.available_tokenizers().items() if why is None]
SPECIAL = ("\ud800", "\udbff", "\udc00", "\udfff", "\x00", "\x1b", "\x7f", "\x85", "\u200b", "\u200c",
           "\u200d", "\u2060", "\ufeff", "\u202e", "\u202d", "\u2066", "\u2069", "\u061c", "\r\n", "\t",
           "\u0301", "\u20dd", "\U000e0001", "\U0010ffff", "\ufffd", "\ufffe", "שלום", "مرحبا",
           "👨‍👩‍👧‍👦", "🏳️‍🌈", "🇨🇳", "位置编码", "ｆｕｌｌ", "<|endoftext|>", "[CLS]", "[SEP]", "##ing")
TEXTS = st.one_of(
    st.text(st.characters(exclude_categories=()), max_size=60),         # every code point incl. Cs
    st.lists(st.sampled_from(SPECIAL) | st.text(max_size=4), max_size=25).map("".join),
    st.text(st.characters(categories=["Cc", "Cf", "Cs", "Mn", "Zs", "Zl", "Zp", "Co", "Cn"]), max_size=40),
)


def check_tokens(text: str, result: tok.TokenizedText, name: str) -> None:
    """Spans inside the text and ordered; ids inside the vocabulary; the text fully covered."""
    n = len(text)
    prev_end = 0
    for t in result.tokens:
        assert 0 <= t.start <= t.end <= n, (t, n)
        assert 0 <= t.id < result.vocab_size
        assert t.special or t.start >= prev_end - 1 or t.partial   # overlaps only inside a character
        prev_end = max(prev_end, t.end)
        assert isinstance(t.text, str)
        t.text.encode("utf-8")                                       # displayable: no lone surrogates
    if name == "char":
        assert [t.id for t in result.tokens] == [ord(c) for c in text]
    if name == "cl100k":
        enc = tok.get_tokenizer("cl100k")
        pieces = b"".join(enc.decode_single_token_bytes(t.id) for t in result.tokens)
        assert pieces == tok._clean(text).encode("utf-8")            # nothing lost, nothing added
    if name == "wordpiece":
        assert result.tokens[0].special and result.tokens[-1].special   # [CLS] ... [SEP]


@pytest.mark.parametrize("name", AVAILABLE)
@FUZZ
@given(text=TEXTS)
def test_tokenize_random_unicode(name, text):
    try:
        result = tok.tokenize(text, name)
    except InputError as exc:
        event("InputError")
        assert str(exc) and "\n" not in str(exc)
        return
    event("tokens")
    check_tokens(text, result, name)


@pytest.mark.parametrize("name", AVAILABLE)
def test_one_megabyte_is_refused_at_once(name):
    with pytest.raises(InputError, match="100,000"):
        tok.tokenize("位" * 1_000_000, name)
    with pytest.raises(InputError, match="100,000"):
        tok.tokenize("x" * (tok.MAX_CHARS + 1), name)


@pytest.mark.parametrize("name", AVAILABLE)
def test_limit_sized_mixed_text(name):
    unit = "Attention 注意力 \u200b🐟\ud800 مرحبا\n"
    text = (unit * (tok.MAX_CHARS // len(unit) + 1))[:tok.MAX_CHARS]
    check_tokens(text, tok.tokenize(text, name), name)


@pytest.mark.parametrize("bad", [None, b"bytes", 12, ["a"]])
def test_not_text_is_refused(bad):
    with pytest.raises(InputError):
        tok.tokenize(bad, "char")


def test_all_three_tokenizers_available_offline():
    assert AVAILABLE == ["cl100k", "wordpiece", "char", "qwen"], tok.available_tokenizers()
