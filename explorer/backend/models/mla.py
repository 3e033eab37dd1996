"""DeepSeek's multi-head latent attention (MLA): a layer's q and k per head, before RoPE. No Qt.

As DeepseekV2Attention / DeepseekV3Attention (transformers 5.25) compute them from the normed input x (n, d):
- q = q_proj(x), or q_b_proj(RMSNorm(q_a_proj(x))) with q_lora_rank; (n, H (nope + rope));
- kv_a_proj_with_mqa(x) = [latent (kv_lora_rank) | k_rope (rope)]; k_nope = kv_b_proj(RMSNorm(latent)), per head
  its nope rows then its v rows;
- k of head h = [k_nope of h | k_rope], the rope part the same for every head.
A llama.cpp file may hold kv_b_proj's k rows as k_b_proj instead, (heads, kv_lora_rank, nope) (gguf_deepseek.py).
The two low-rank RMSNorms use eps 1e-6 (their classes' default, not rms_norm_eps); q_a_proj and
kv_a_proj_with_mqa carry biases when attention_bias is set (q_proj and the b projections never do).
"""

from __future__ import annotations

import numpy as np

from explorer.backend.models.families import first, need, rms_norm
from explorer.backend.models.layer_weights import bias, vector
from explorer.backend.models.tensors import TensorReader
from explorer.errors import require

LOW_RANK_EPS = 1e-6     # DeepseekV2RMSNorm / DeepseekV3RMSNorm(width): their default eps


def _low_rank(reader: TensorReader, pre: str, x: np.ndarray, layer: int, width: int, with_bias: bool,
              what: str) -> np.ndarray:
    """x @ W.T (+ b) of the projection `pre`, whose weight must be (width, x's channels); (n, width). The shape
    is checked before the weight is read (one of millions of rows would have been read, then made an (n, millions)
    array)."""
    name = pre + ".weight"
    shape = tuple(reader.shape(need(reader, name)))                  # (checked before the weight is read)
    require(shape == (width, x.shape[1]), "layer %1's %2 has shape %3; config.json says (%4, %5) (%6)", layer,
            name, shape, width, x.shape[1], what)
    y = x @ reader.read(name).T
    return y + bias(reader, pre + ".bias", layer, width) if with_bias else y


def _k_nope(reader: TensorReader, pre: str, latent: np.ndarray, layer: int, dims, heads: int) -> np.ndarray:
    """Each head's k nope part from the normed latent (n, kv_lora): kv_b_proj's nope rows, or (a llama.cpp file
    without kv_b) k_b_proj, those rows per head transposed (heads, kv_lora, nope); (n, H, nope)."""
    if first(reader, pre + "kv_b_proj.weight") or not first(reader, pre + "k_b_proj.weight"):
        kv = _low_rank(reader, pre + "kv_b_proj", latent, layer, heads * (dims.nope + dims.v), False,
                       "heads x (qk_nope_head_dim + v_head_dim), kv_lora_rank")          # (n, H (nope + v))
        return kv.reshape(len(latent), heads, dims.nope + dims.v)[:, :, :dims.nope]
    name = pre + "k_b_proj.weight"
    shape = tuple(reader.shape(name))
    require(shape == (heads, dims.kv_lora_rank, dims.nope), "layer %1's %2 has shape %3; config.json says "
            "(%4, %5, %6) (heads, kv_lora_rank, qk_nope_head_dim)", layer, name, shape, heads,
            dims.kv_lora_rank, dims.nope)
    return np.einsum("nl,hlc->nhc", latent, reader.read(name))                                         # (n, H, nope)


def mla_qk(cfg, reader: TensorReader, x: np.ndarray, layer: int) -> tuple[np.ndarray, np.ndarray]:
    """(q, k) of `layer` from its normed input x (n, d): each (n, H (nope + rope)), head by head, before RoPE."""
    dims, heads, n = cfg.mla, cfg.n_heads, len(x)
    head = dims.nope + dims.rope
    pre = f"layers.{layer}.self_attn."
    if dims.q_lora_rank is None:
        q = _low_rank(reader, pre + "q_proj", x, layer, heads * head, False, "heads x (nope + rope), hidden")
    else:
        q_latent = _low_rank(reader, pre + "q_a_proj", x, layer, dims.q_lora_rank, cfg.qk_bias, "q_lora_rank, hidden")
        q_latent = rms_norm(q_latent, vector(reader, pre + "q_a_layernorm.weight", layer, dims.q_lora_rank),
                            LOW_RANK_EPS)
        q = _low_rank(reader, pre + "q_b_proj", q_latent, layer, heads * head, False,
                      "heads x (nope + rope), q_lora_rank")
    kv_a = _low_rank(reader, pre + "kv_a_proj_with_mqa", x, layer, dims.kv_lora_rank + dims.rope, cfg.qk_bias,
                     "kv_lora_rank + qk_rope_head_dim, hidden")                                  # (n, kv_lora + rope)
    latent = rms_norm(kv_a[:, :dims.kv_lora_rank], vector(reader, pre + "kv_a_layernorm.weight", layer,
                                                          dims.kv_lora_rank), LOW_RANK_EPS)   # (n, kv_lora)
    k = np.empty((n, heads, head), np.float32)                                           # (n, H, nope + rope)
    k[:, :, :dims.nope] = _k_nope(reader, pre, latent, layer, dims, heads)
    k[:, :, dims.nope:] = kv_a[:, None, dims.kv_lora_rank:]                              # shared by every head
    return q.astype(np.float32, copy=False), k.reshape(n, heads * head)
