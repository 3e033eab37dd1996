"""Falcon, with ALiBi (tiiuae/falcon-rw-1b, falcon-rw-7b) or RoPE (alibi false: falcon-7b, falcon-40b), as
transformers' modeling_falcon runs it. No Qt.

FalconModel: X = word_embeddings[ids], nothing added for position. Layer 0 reads h.0.input_layernorm(X) (ln_attn
where new_decoder_architecture keeps two norms) through one fused self_attention.query_key_value (bias when `bias`)
whose rows come in KV groups, each its H / KV q heads, then its k and its v: KV = H without multi_query (head by
head q, k, v, as BLOOM), 1 with it, num_kv_heads with new_decoder_architecture. Scores: q·k / sqrt(head_dim) plus
build_alibi_tensor's slope_h · n, made in bfloat16 (the slope, the position past 256 and the product each rounded
to bfloat16) and then divided by sqrt(head_dim): the bias is B_h(n) / sqrt(head_dim), B_h(n) = bf16(bf16(slope_h) ·
bf16(n)). PE Explorer shows (B_h(n) − B_h(m)) / sqrt(head_dim), the same softmax, 0 on the diagonal; its slopes are
bf16(slope_h) / sqrt(head_dim), those on the logits: the bias is slope · (n − m) exactly only for slopes that are
powers of 2 (up to 8 heads) and up to 256 tokens; falcon-rw-1b's 32 heads (2^-0.25 ...) round. transformers builds
ln_attn only with parallel_attn, whatever new_decoder_architecture says.

With alibi false (FalconConfig's default) the position is RoPE: FalconRotaryEmbedding is Llama's (rope_theta or
rope_parameters, default 10,000; any rope type of rope_parameters / a 4.x rope_scaling, dynamic against
max_position_embeddings) over the whole head, head_dim = hidden_size / num_attention_heads, and q and k turn
rotate-half (pair (j, j + head_dim/2)) before q·k / sqrt(head_dim); nothing is added at the input either.
"""

from __future__ import annotations

import math

import numpy as np

from explorer.backend.models.bloom import MAX_HEADS, alibi_slopes
from explorer.backend.models.config_flags import aliased_int, flag, positive_int
from explorer.errors import require


def falcon_position(cfg: dict) -> str:
    """A Falcon config.json's position: "alibi" where alibi is true, else "rope" (FalconConfig.rotary)."""
    return "alibi" if flag(cfg, "alibi", False) else "rope"


def falcon_fields(cfg: dict) -> dict:
    """ModelConfig's fields of a FalconConfig config.json (a 4.x n_embed wins over hidden_size); its RoPE settings,
    with alibi false, are read as Llama's (config_rope.rope_scaling_of)."""
    d = aliased_int(cfg, "n_embed", "hidden_size", default=4544)
    heads = positive_int(cfg, "num_attention_heads", default=71)
    require(heads <= MAX_HEADS, "config.json: num_attention_heads is %1; at most %2 heads are read", heads,
            f"{MAX_HEADS:,}")
    if flag(cfg, "new_decoder_architecture", False):
        kv = positive_int(cfg, "num_kv_heads", default=heads)
        require(heads % kv == 0, "config.json: num_attention_heads %1 is not a multiple of num_kv_heads %2",
                heads, kv)
    else:                        # (FalconAttention's repeat_kv reads num_kv_heads, which must then be the heads)
        kv = 1 if flag(cfg, "multi_query", True) else heads
        require(kv == 1 or cfg.get("num_kv_heads") in (None, heads), "config.json: num_kv_heads %1 is not "
                "num_attention_heads %2, which Falcon's attention without multi_query needs", cfg.get("num_kv_heads"),
                heads)
    return {"d_model": d, "n_layers": positive_int(cfg, "num_hidden_layers", default=32), "n_heads": heads,
            "n_kv_heads": kv, "max_positions": positive_int(cfg, "max_position_embeddings", default=2048),
            "norm_eps": cfg.get("layer_norm_epsilon", 1e-5), "qk_bias": flag(cfg, "bias", False), "pre_norm": True,
            "word_embed_proj_dim": d}


def bf16(x: np.ndarray) -> np.ndarray:
    """float32 x rounded to bfloat16 (to nearest, ties to even, as torch's .bfloat16()), as float32."""
    bits = np.ascontiguousarray(x, np.float32).view(np.uint32)
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))) & np.uint32(0xFFFF0000)
    return np.where(np.isfinite(x), rounded.view(np.float32), x).astype(np.float32)


def falcon_slopes(heads: int, head_dim: int) -> np.ndarray:
    """Each head's slope on the logits: bf16(BLOOM's slope) / sqrt(head_dim); (heads,) float32."""
    return (bf16(alibi_slopes(heads)) / np.float32(math.sqrt(head_dim))).astype(np.float32)


def falcon_bias(heads: int, head_dim: int, n: int) -> np.ndarray:
    """(B_h(n) − B_h(m)) / sqrt(head_dim) for query m, key n, B_h(j) = bf16(bf16(slope_h) · bf16(j)) (torch makes
    the position j a bfloat16 too: 257 is 256); (H, n, n) float32.
    Row m differs from transformers' B_h(n) / sqrt(head_dim) by B_h(m) / sqrt(head_dim), which the softmax cancels."""
    return falcon_bias_at(heads, head_dim, np.arange(n, dtype=np.float32))


def falcon_bias_at(heads: int, head_dim: int, pos: np.ndarray) -> np.ndarray:
    """falcon_bias between the given positions (rows: queries, columns: keys); (H, len(pos), len(pos)) float32."""
    pos = np.asarray(pos, dtype=np.float32)
    b = bf16(bf16(alibi_slopes(heads))[:, None] * bf16(pos)[None, :])                           # (H, r)
    b = b / np.float32(math.sqrt(head_dim))
    return (b[:, None, :] - b[:, :, None]).astype(np.float32)                                   # (H, r, r)
