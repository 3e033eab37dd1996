"""MPT (mosaicml/mpt-7b, mpt-30b): ALiBi, as transformers' modeling_mpt runs it. No Qt.

MptModel: X = wte[ids], nothing added for position (transformers' MPT has no learned table: it always uses ALiBi,
whatever attn_config.alibi says, so a config with alibi false is refused). Layer 0 reads blocks.0.norm_1(X), a
LayerNorm without bias, through one fused attn.Wqkv without bias whose output splits into whole q, k, v blocks
(chunk(3): rows q (H hd), then k, then v; not head by head as BLOOM's), clamped to +-clip_qkv when set. Scores:
q·k x softmax_scale (default 1 / sqrt(head_dim)), plus build_mpt_alibi_tensor's slope_h · (n − (L − 1)) for
L = max_seq_len, sliced to the text's keys: softmax-equal to slope_h · (n − m). transformers cannot run a text longer
than max_seq_len (its bias has that many columns), so neither does PE Explorer.

Slopes: 1 / 2^(h · alibi_bias_max / P), h = 1 .. P, P the power of 2 >= heads; for a head count that is not a power of
2, slopes[1::2] then slopes[::2], the first `heads` of them. MptModel calls it without attn_config.alibi_bias_max
(always 8), so a config with another is refused for layer 0, as are qk_ln, a multiquery attn_type and no_bias false,
which transformers' MPT ignores too. BLOOM (and Falcon) take p the power of 2 <= heads and add
the odd powers of 2^(-4/p) after: with alibi_bias_max 8 (mpt-7b's, the default) that is the same list of slopes for
every head count (MPT's [1::2] are BLOOM's first p), but made another way in float32: from 12 heads on some differ in
their last bits (16 heads: a few ulps).
"""

from __future__ import annotations

import math

import numpy as np

from explorer.backend.models.bloom import MAX_HEADS
from explorer.backend.models.config_flags import aliased_int, clip_qkv, flag, positive_int
from explorer.backend.models.rope_float32 import loaded_torch
from explorer.errors import InputError, msg, require, shown


def mpt_fields(cfg: dict) -> dict:
    """ModelConfig's fields of an MptConfig config.json (attribute_map: hidden_size, num_attention_heads and
    num_hidden_layers win over d_model, n_heads and n_layers); "own": the ModelConfig fields past the common ones."""
    d = aliased_int(cfg, "hidden_size", "d_model", default=2048)
    heads = aliased_int(cfg, "num_attention_heads", "n_heads", default=16)
    require(heads <= MAX_HEADS, "config.json: n_heads is %1; at most %2 heads are read", heads, f"{MAX_HEADS:,}")
    attn = cfg.get("attn_config") or {}
    require(isinstance(attn, dict), "config.json: attn_config must be an object, not %1", shown(attn))
    if not flag(attn, "alibi", True):
        raise InputError(msg("config.json: attn_config.alibi is false; transformers' MPT always uses ALiBi and has "
                             "no learned position table, so this model cannot be shown"))
    bias_max = attn.get("alibi_bias_max", 8)
    require(_positive(bias_max), "config.json: attn_config.alibi_bias_max must be a positive number, not %1",
            shown(bias_max))
    scale = attn.get("softmax_scale")
    require(scale is None or _positive(scale), "config.json: attn_config.softmax_scale must be a positive number "
            "or null, not %1", shown(scale))
    own = {"qkv_clip": clip_qkv(attn), "score_scalar": 0.0 if scale is None else float(scale) ** -2}
    refusal = _refusal(cfg, attn) or (None if bias_max == 8 else msg(
        "attn_config.alibi_bias_max is %1: transformers' MPT makes its slopes with 8 whatever the config says, so "
        "its layer 0 is not this model's", shown(bias_max)))
    if refusal is not None:
        own["attention_refusal"] = refusal
    return {"d_model": d, "n_layers": aliased_int(cfg, "num_hidden_layers", "n_layers", default=24),
            "n_heads": heads, "n_kv_heads": heads, "norm_eps": cfg.get("layer_norm_epsilon", 1e-5),
            "max_positions": positive_int(cfg, "max_seq_len", default=2048), "qk_bias": False,
            "pre_norm": True, "word_embed_proj_dim": d, "own": own}


def _positive(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < 1e30


def _refusal(cfg: dict, attn: dict) -> str | None:
    """Why layer 0 is not shown: what transformers' MptAttention does not do (it would run another model)."""
    if flag(attn, "qk_ln", False):
        return msg("attn_config.qk_ln is true: transformers' MPT applies no LayerNorm to q and k, and PE Explorer "
                   "does not either")
    kind = attn.get("attn_type", "multihead_attention")
    if kind != "multihead_attention":
        return msg("attn_config.attn_type is %1: transformers' MPT reads multihead_attention only", shown(kind))
    if not flag(cfg, "no_bias", True):
        return msg("no_bias is false: transformers' MPT reads no biases, so its layer 0 is not this model's")
    return None


def mpt_alibi_slopes(heads: int, bias_max: float = 8.0) -> np.ndarray:
    """Each head's slope as transformers' build_mpt_alibi_tensor makes it, in float32; (heads,). With torch loaded its
    own arithmetic (bit for bit), else numpy's float32 (within an ulp)."""
    p = 2 ** math.ceil(math.log2(heads))
    torch = loaded_torch()
    slopes = None
    if torch is not None:
        try:
            base = torch.arange(1, p + 1, dtype=torch.int64).float() * (bias_max / p)
            slopes = (1.0 / torch.pow(2, base)).numpy()                               # (P,)
        except Exception:  # noqa: BLE001 - a torch that misbehaves: numpy's float32
            slopes = None
    if slopes is None:
        base = np.arange(1, p + 1, dtype=np.float32) * np.float32(bias_max / p)
        slopes = np.float32(1.0) / np.power(np.float32(2.0), base)                    # (P,)
    if p != heads:
        slopes = np.concatenate([slopes[1::2], slopes[::2]])[:heads]
    return np.asarray(slopes, np.float32)                                             # (heads,)
