"""XGLM (facebook/xglm-564M, 1.7B, 2.9B, 4.5B, 7.5B), as transformers 5.25's models/xglm runs it. No Qt.

A decoder whose positions are the sinusoidal table itself, fairseq's (tensor2tensor's) convention: the app's "t2t"
layout (explorer.backend.encodings). modeling_xglm.py, XGLMSinusoidalPositionalEmbedding.get_embedding:
half_dim = d_model // 2, emb = log(10000) / (half_dim - 1) (the paper divides by d_model), the table
[sin(p ω_i) | cos(p ω_i)] (concat halves, not interleaved pairs), ω_i = exp(-i emb) computed in float32, a zero column
for an odd d_model, and row padding_idx (config.pad_token_id) zeroed. Its __init__ makes max_position_embeddings + 2
rows (offset 2), and forward reads row p + 2 for position p (XGLMModel.forward: position_ids = arange(n), no padding
rule). The table is a non-persistent buffer (nn.Buffer(..., persistent=False)): it is NOT in model.safetensors, so it
is computed here from config.json, with torch's own float32 steps where torch is loaded (sin of p ω at p = 2,000
differs from numpy's float32 in the last bits), else with encodings.sinusoidal_pe's "t2t" table.

XGLMModel.__init__: X = embed_tokens[ids] x sqrt(d_model) when scale_embedding (XGLMScaledWordEmbedding, default
true) + the position rows. XGLMDecoderLayer: self_attn_layer_norm (nn.LayerNorm, eps 1e-5 fixed) before attention;
XGLMAttention: q_proj, k_proj with bias, q x head_dim^-0.5 before q·k, head_dim = d_model / attention_heads (a
ValueError where it does not divide), a causal mask. XGLMConfig (configuration_xglm.py) has a default for every key:
d_model 1024, num_layers 24, attention_heads 16, max_position_embeddings 2048, vocab_size 256008, pad_token_id 1,
scale_embedding true; its attribute_map makes hidden_size, num_hidden_layers and num_attention_heads other names of
d_model, num_layers and attention_heads. llama.cpp has no XGLM architecture (gguf-py/gguf/constants.py's MODEL_ARCH
has no XGLM, and convert_hf_to_gguf.py registers no XGLMForCausalLM): no GGUF file of it is read.
"""

from __future__ import annotations

import math

import numpy as np

from explorer.backend.encodings import check_table_budget, sinusoidal_pe
from explorer.backend.models.bloom import MAX_HEADS
from explorer.backend.models.config_flags import aliased_int, flag
from explorer.backend.models.rope_float32 import loaded_torch
from explorer.errors import require, shown

OFFSET = 2                  # XGLMSinusoidalPositionalEmbedding.offset: position p reads row p + 2
BASE = 10000.0              # get_embedding's math.log(10000)
DEFAULT_VOCAB = 256008      # XGLMConfig.vocab_size
DEFAULT_PAD = 1             # XGLMConfig.pad_token_id


def xglm_fields(cfg: dict) -> dict:
    """ModelConfig's fields of an XGLMConfig config.json (attribute_map: hidden_size, num_hidden_layers and
    num_attention_heads win over d_model, num_layers and attention_heads); "own": the embedding scale and the
    zeroed row of the computed table."""
    d = aliased_int(cfg, "hidden_size", "d_model", default=1024)
    heads = aliased_int(cfg, "num_attention_heads", "attention_heads", default=16)
    layers = aliased_int(cfg, "num_hidden_layers", "num_layers", default=24)
    require(heads <= MAX_HEADS, "config.json: attention_heads is %1; at most %2 heads are read", heads,
            f"{MAX_HEADS:,}")
    require(d % heads == 0, "config.json: d_model %1 is not divisible by attention_heads %2", d, heads)
    require(d // 2 != 1, "config.json: d_model %1 gives XGLM's sinusoidal table one frequency, which it "
            "cannot make (log(10000) / (d_model / 2 - 1) divides by zero)", d)
    positions = aliased_int(cfg, None, "max_position_embeddings", default=2048)
    pad = cfg.get("pad_token_id", DEFAULT_PAD)
    require(pad is None or (type(pad) is int and 0 <= pad < positions + OFFSET),
            "config.json: pad_token_id must be null or a whole number from 0 to %1 (a row of XGLM's position table "
            "of max_position_embeddings + 2 rows, which it zeroes), not %2", positions + OFFSET - 1, shown(pad))
    scale = math.sqrt(d) if flag(cfg, "scale_embedding", True) else 1.0      # XGLMModel.__init__'s embed_scale
    return {"d_model": d, "n_layers": layers, "n_heads": heads, "n_kv_heads": heads, "max_positions": positions,
            "norm_eps": 1e-5, "qk_bias": True, "pre_norm": True, "word_embed_proj_dim": d,
            "own": {"embed_scale": scale, "sinusoid_pad": pad}}


def position_table(d_model: int, rows: np.ndarray, pad: int | None) -> np.ndarray:
    """Rows `rows` (the table's own rows: position p is row p + 2) of get_embedding(max(rows) + 1, d_model, pad);
    (len(rows), d_model) float32."""
    rows = np.asarray(rows, np.int64).reshape(-1)
    count = int(rows.max()) + 1 if rows.size else 0
    check_table_budget(max(count, 1), d_model, "float32")
    torch = loaded_torch()
    table = _torch_table(torch, count, d_model) if torch is not None else None
    if table is None:                          # numpy's float32 t2t table (sin, cos the last bits apart)
        table = sinusoidal_pe(max(count, 1), d_model, BASE, "t2t", "float32")[:count]
    if pad is not None and pad < count:
        table[pad] = 0.0
    return np.ascontiguousarray(table[rows])


def _torch_table(torch, count: int, d_model: int) -> np.ndarray | None:
    """get_embedding's float32 steps (without its padding row), as numpy; None where torch misbehaves."""
    try:
        half = d_model // 2
        emb = math.log(BASE) / (half - 1) if half > 1 else 0.0       # (half 1 is refused; half 0: no columns)
        freq = torch.exp(torch.arange(half, dtype=torch.int64).float() * -emb)
        angle = torch.arange(count, dtype=torch.int64).float().unsqueeze(1) * freq.unsqueeze(0)
        table = torch.cat([torch.sin(angle), torch.cos(angle)], dim=1).view(count, -1)
        if d_model % 2 == 1:
            table = torch.cat([table, torch.zeros(count, 1)], dim=1)
        return table.to(torch.float32).numpy().copy()
    except Exception:  # noqa: BLE001 - a torch that misbehaves: numpy's float32, the last bits apart
        return None
