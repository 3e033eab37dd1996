"""Implementations to check, written the way people write them (the seeds' PositionalEncoding and its
slips). Each RIGHT entry: name -> (builder, what the check must report); each WRONG entry:
name -> (builder, the mistake id the check must name, keyword arguments of the check)."""

from __future__ import annotations

import math

import torch
from torch import nn

L, D = 60, 32          # positions, d_model of the PE tables
HD = 16                # head_dim of the RoPE caches


class PositionalEncoding(nn.Module):
    """The seeds' module (dropout as in the third seed), verbatim but for the sizes."""

    def __init__(self, d_model, max_len=5000, dropout=0.1):
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


class SequenceFirstPositionalEncoding(nn.Module):
    """PyTorch's transformer tutorial (pytorch.org/tutorials/beginner/transformer_tutorial.html):
    pe is (max_len, 1, d_model) and x is (seq_len, batch, d_model); verbatim but for the sizes."""

    def __init__(self, d_model, dropout=0.1, max_len=5000):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        x = x + self.pe[:x.size(0)]
        return self.dropout(x)


def _pos(n=L, first=0):
    return torch.arange(first, first + n).unsqueeze(1).float()


def _div(d=D, base=10000.0):
    return torch.exp(torch.arange(0, d, 2).float() * (-math.log(base) / d))


def seeds_table(d=D, base=10000.0, n=L):
    pe = torch.zeros(n, d)
    pe[:, 0::2] = torch.sin(_pos(n) * _div(d, base))
    pe[:, 1::2] = torch.cos(_pos(n) * _div(d, base)[: d // 2])
    return pe


# ---- right ones ------------------------------------------------------------------------------

def tf_tutorial_concat():
    """TensorFlow tutorial: angle_rads = pos / 10000^(2(i//2)/d); [sin | cos]."""
    i = torch.arange(D)
    angle = _pos() / torch.pow(10000.0, (2 * (i // 2)) / D)
    return torch.cat([torch.sin(angle[:, 0::2]), torch.cos(angle[:, 1::2])], dim=-1)


def tensor2tensor():
    """t2t get_timing_signal_1d: log_timescale_increment = log(1e4) / (h - 1)."""
    h = D // 2
    inv = torch.exp(torch.arange(h).float() * -(math.log(10000.0) / (h - 1)))
    scaled = _pos() * inv[None, :]
    return torch.cat([torch.sin(scaled), torch.cos(scaled)], dim=1)


def hf_cos_cache(theta=10000.0, scaling=None):
    """cos cache of transformers' LlamaRotaryEmbedding (independent reference)."""
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    params = {"rope_type": "default", "rope_theta": theta, **(scaling or {})}
    cfg = LlamaConfig(hidden_size=HD * 4, num_attention_heads=4, max_position_embeddings=4096,
                      rope_parameters=params)
    rot = LlamaRotaryEmbedding(cfg)
    cos, sin = rot(torch.zeros(1, L, HD), torch.arange(L)[None])
    return cos[0], sin[0], rot.inv_freq


def gptj_sin_cache():
    """GPT-J style: sin of freqs repeated per pair (repeat_interleave)."""
    inv = 1.0 / (10000 ** (torch.arange(0, HD, 2).float() / HD))
    freqs = torch.arange(L).float()[:, None] * inv
    return torch.sin(freqs).repeat_interleave(2, dim=-1)


RIGHT = {
    "seeds_module": (lambda: PositionalEncoding(D, max_len=L), {"layout": "interleaved", "base": 10000}),
    "tf_tutorial_concat": (tf_tutorial_concat, {"layout": "concat", "base": 10000}),
    "tensor2tensor": (tensor2tensor, {"layout": "t2t", "base": 10000}),
    "odd_d_model": (lambda: seeds_table(d=33), {"layout": "interleaved", "d_model": 33}),
    "base_500": (lambda: seeds_table(base=500.0), {"base": 500}),
    "float16_storage": (lambda: seeds_table().half(), {"dtype": "float16"}),
    "bfloat16_storage": (lambda: seeds_table(n=200).bfloat16(), {"dtype": "bfloat16"}),
    "transposed": (lambda: seeds_table().T.contiguous(), {"orientation": "(d, L): transposed"}),
    "batch_of_one": (lambda: seeds_table()[None], {"base": 10000}),
    "times_sqrt_d": (lambda: seeds_table() * math.sqrt(D), {"scale_is_sqrt_d": True}),
    "hf_llama_cos": (lambda: hf_cos_cache()[0], {"pairing": "half", "function": "cos", "head_dim": HD}),
    "hf_llama3_theta": (lambda: hf_cos_cache(500000.0)[1], {"function": "sin", "base": 500000}),
    "hf_linear_scaling": (lambda: hf_cos_cache(10000.0, {"rope_type": "linear", "factor": 4.0})[0],
                          {"rope_type": "linear", "rope_params": {"factor": 4.0}}),
    "gptj_interleaved_sin": (gptj_sin_cache, {"pairing": "interleaved", "function": "sin"}),
    "hf_inv_freq": (lambda: hf_cos_cache()[2], {"head_dim": HD, "base": 10000, "rope_type": "default"}),
}

# ---- wrong ones ------------------------------------------------------------------------------


def _table(sin_part, cos_part, d=D):
    pe = torch.zeros(sin_part.shape[0], d)
    pe[:, 0::2] = sin_part
    pe[:, 1::2] = cos_part
    return pe


def exponent_i():
    div = torch.exp(torch.arange(0, D // 2).float() * (-math.log(10000.0) / D))   # i, not 2i
    return _table(torch.sin(_pos() * div), torch.cos(_pos() * div))


def exponent_per_channel():
    angle = _pos() / 10000 ** (torch.arange(D).float() / D)                      # channel j, not 2i
    return _table(torch.sin(angle[:, 0::2]), torch.cos(angle[:, 1::2]))


def exponent_doubled():
    i = torch.arange(0, D, 2).float()
    div = 1 / 10000 ** (2 * i / D)                                               # 2 * (2i)
    return _table(torch.sin(_pos() * div), torch.cos(_pos() * div))


def dropout_saved(p=0.1):
    torch.manual_seed(0)
    module = PositionalEncoding(D, max_len=L, dropout=p)                         # train mode
    return module(torch.zeros(1, L, D))


def rope_cache(theta=10000.0, layout="half", fn=torch.cos, first=0, exponent=None):
    idx = torch.arange(0, HD, 2).float() if exponent is None else exponent
    inv = 1.0 / (theta ** (idx / HD))
    freqs = torch.arange(first, first + L).float()[:, None] * inv
    emb = torch.cat((freqs, freqs), -1) if layout == "half" else freqs.repeat_interleave(2, -1)
    return fn(emb)


def missing_minus():
    div = torch.exp(torch.arange(0, D, 2).float() * (math.log(10000.0) / D))     # exp(+...)
    return _table(torch.sin(_pos() * div), torch.cos(_pos() * div))


def only_sin_scaled():
    return _table(torch.sin(_pos() * _div()) * math.sqrt(D), torch.cos(_pos() * _div()))


WRONG = {
    "i_instead_of_2i": (exponent_i, "exponent_i", {}),
    "i_per_channel": (exponent_per_channel, "exponent_i", {}),
    "2i_twice": (exponent_doubled, "exponent_doubled", {}),
    "sin_cos_swapped": (lambda: _table(torch.cos(_pos() * _div()), torch.sin(_pos() * _div())),
                        "sin_cos_swapped", {}),
    "concat_swapped": (lambda: torch.cat([torch.cos(_pos() * _div()), torch.sin(_pos() * _div())], 1),
                       "sin_cos_swapped", {}),
    "positions_from_1": (lambda: _table(torch.sin(_pos(first=1) * _div()), torch.cos(_pos(first=1) * _div())),
                         "positions_from_1", {}),
    "missing_minus": (missing_minus, "wrong_sign", {}),
    "cos_line_missing": (lambda: _table(torch.sin(_pos() * _div()), torch.zeros(L, D // 2)), "only_sin", {}),
    "sin_written_twice": (lambda: _table(torch.sin(_pos() * _div()), torch.sin(_pos() * _div())),
                          "only_sin", {"kind": "pe"}),
    "dropout_on": (dropout_saved, "dropout_on", {}),
    "dropout_0.3_on": (lambda: dropout_saved(0.3), "dropout_on", {}),
    "only_sines_scaled": (only_sin_scaled, "unknown", {}),
    "noise": (lambda: torch.randn(L, D, generator=torch.Generator().manual_seed(1)), "unknown", {}),
    "cat_where_interleaved_meant": (rope_cache, "wrong_pairing", {"pairing": "interleaved"}),
    "interleave_where_half_meant": (lambda: rope_cache(layout="interleaved"), "wrong_pairing",
                                    {"pairing": "half"}),
    "rope_base_10000_for_llama3": (rope_cache, "wrong_base", {"base": 500000.0}),
    "rope_cache_from_1": (lambda: rope_cache(first=1), "positions_from_1", {}),
    "rope_cache_i_for_2i": (lambda: rope_cache(exponent=torch.arange(HD // 2).float()), "exponent_i", {}),
    "inv_freq_no_reciprocal": (lambda: 10000 ** (torch.arange(0, HD, 2).float() / HD), "wrong_sign", {}),
    "inv_freq_i_for_2i": (lambda: 1.0 / 10000 ** (torch.arange(HD // 2).float() / HD), "exponent_i", {}),
    # integer division: every exponent 0, every inv_freq 1 (was diagnosed "OK, base 1")
    "inv_freq_integer_division": (lambda: 1.0 / (10000 ** (torch.arange(0, HD, 2) // HD)), "constant_freq", {}),
    # pe = torch.zeros(max_len, d_model) saved before the sin / cos lines ran (was "no match, nearest:
    # every value is 0, max error 0 > 0")
    "buffer_never_filled": (lambda: torch.zeros(L, D), "all_zero", {}),
}
