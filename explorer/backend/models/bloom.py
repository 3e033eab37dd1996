"""BLOOM (bigscience/bloom-560m … bloom): ALiBi, as transformers' modeling_bloom runs it. No Qt.

BloomModel: X = word_embeddings_layernorm(word_embeddings[ids]), nothing added for position. Layer 0 reads
h.0.input_layernorm(X) through one fused self_attention.query_key_value (bias always) whose rows are head by head
q, k, v (BloomAttention._reshape: view(n, H, 3, hd), GPT-NeoX's layout); its scores q·k / sqrt(head_dim) get
slope_h · n added (build_alibi_tensor), softmax-equal to slope_h · (n − m) for the keys n <= m it reads.
"""

from __future__ import annotations

import math

import numpy as np

from explorer.backend.models.config_flags import aliased_int
from explorer.backend.models.rope_float32 import loaded_torch
from explorer.errors import require

# BLOOM was trained on 2,048-token sequences (every size, 560m to 176B: SEQ_LEN 2048); BloomConfig has no field
TRAINED_LENGTH = 2048
MAX_HEADS = 1 << 16            # slopes are made before the weights are read: a head count of 10^9 is refused


def bloom_fields(cfg: dict) -> dict:
    """ModelConfig's width, layers, heads and norm fields of a BloomConfig config.json (its attribute_map:
    num_attention_heads and num_hidden_layers win over n_head and n_layer; a 4.x n_embed over hidden_size)."""
    d = aliased_int(cfg, "n_embed", "hidden_size", default=64)
    heads = aliased_int(cfg, "num_attention_heads", "n_head", default=8)
    require(heads <= MAX_HEADS, "config.json: n_head is %1; at most %2 heads are read", heads, f"{MAX_HEADS:,}")
    return {"d_model": d, "n_layers": aliased_int(cfg, "num_hidden_layers", "n_layer", default=2),
            "n_heads": heads, "n_kv_heads": heads, "max_positions": TRAINED_LENGTH,
            "norm_eps": cfg.get("layer_norm_epsilon", 1e-5), "qk_bias": True, "pre_norm": True,
            "word_embed_proj_dim": d}


def alibi_slopes(heads: int) -> np.ndarray:
    """Each head's ALiBi slope as transformers' _get_alibi_slopes makes it, in float32: base 2^(-8/p) to the
    powers 1 .. p, p the largest power of 2 <= heads, then (heads not a power of 2) the odd powers 1, 3, ... of
    2^(-4/p) for the heads - p others; (heads,) float32. With torch loaded, its own pow (bit for bit; its
    vectorised powf is 1 ulp off the rounded power for some, e.g. 16 heads' 13th), else numpy's."""
    p = 2 ** math.floor(math.log2(heads))
    parts = [(2 ** (-(2 ** -(math.log2(p) - 3))), np.arange(1, 1 + p))]                 # (base, powers)
    if p != heads:
        parts.append((2 ** (-(2 ** -(math.log2(2 * p) - 3))), np.arange(1, 1 + 2 * min(p, heads - p), 2)))
    torch = loaded_torch()
    if torch is not None:
        try:
            return np.concatenate([torch.pow(torch.full((), base, dtype=torch.float32),
                                             torch.as_tensor(powers, dtype=torch.int32)).numpy()
                                   for base, powers in parts]).astype(np.float32)
        except Exception:  # noqa: BLE001 - a torch that misbehaves: numpy's float32, the last bit apart
            pass
    return np.concatenate([np.power(np.float32(base), powers.astype(np.float32)) for base, powers in parts]
                          ).astype(np.float32)                                           # (heads,)


def alibi_bias(slopes: np.ndarray, n: int) -> np.ndarray:
    """slope_h · (n − m) for query m, key n (0 on the diagonal, negative for earlier keys; the causal model reads
    n <= m only); (H, n, n) float32. Row m differs from BLOOM's slope_h · n by slope_h · m, which the softmax
    cancels."""
    return alibi_bias_at(slopes, np.arange(n, dtype=np.float32))


def alibi_bias_at(slopes: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """alibi_bias between the given positions (rows: queries, columns: keys); (H, len(pos), len(pos)) float32."""
    pos = np.asarray(pos, dtype=np.float32)                                              # (r,)
    return (slopes.astype(np.float32)[:, None, None] * (pos[None, :] - pos[:, None])[None]).astype(np.float32)
