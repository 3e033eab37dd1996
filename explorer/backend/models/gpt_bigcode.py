"""GPT-BigCode (StarCoder, StarCoderBase, SantaCoder, tiny_starcoder_py, WizardCoder; model_type "gpt_bigcode"), as
transformers 5.25's models/gpt_bigcode runs it. No Qt.

GPTBigCodeModel.forward: X = wte[ids] + wpe[0 .. n-1] (no scale; GPT-2's X, read through family "gpt2"). Layer 0
(GPTBigCodeBlock) reads ln_1(X), a LayerNorm with weight and bias (eps layer_norm_epsilon), through one fused
c_attn, an nn.Linear with bias (weight (embed_dim + 2 kv_dim, embed_dim), not GPT-2's Conv1D (d, 3d)), kv_dim =
kv_heads x head_dim, kv_heads 1 with multi_query (its default) else n_head (GPTBigCodeAttention.__init__).
GPTBigCodeAttention.forward: with multi_query the output splits into whole blocks, q (embed_dim), then k and v
(kv_dim each): one k head every q head reads; without, it is viewed (n, heads, 3 head_dim), head by head its q, k,
v rows (GPT-NeoX's layout). Logits q·k x scaling, scaling = head_dim^-0.5 when scale_attn_weights (default true),
else 1.0; the causal mask. transformers 4.x's _attn also divided the scores by layer_idx + 1 before a float32
softmax and multiplied them back inside it (scale_attention_softmax_in_fp32, the unscale): the same logits; 5.25
keeps the flag and never reads it.

GPTBigCodeConfig's attribute_map: hidden_size, num_hidden_layers, num_attention_heads and max_position_embeddings
are other names of n_embd, n_layer, n_head and n_positions, and win where config.json has both; defaults 768, 12,
12, 1024, multi_query true, layer_norm_epsilon 1e-5 (configuration_gpt_bigcode.py). Its __post_init__ sets
num_key_value_heads from multi_query, whatever config.json says.
"""

from __future__ import annotations

from explorer.backend.models.config_flags import aliased_int, flag


def bigcode_fields(cfg: dict) -> dict:
    """ModelConfig's common fields of a GPTBigCodeConfig config.json; "own": its score scalar (1: q·k unscaled
    where scale_attn_weights is false; 0: 1 / sqrt(head_dim))."""
    d = aliased_int(cfg, "hidden_size", "n_embd", default=768)
    heads = aliased_int(cfg, "num_attention_heads", "n_head", default=12)
    scaled = flag(cfg, "scale_attn_weights", True)
    return {"d_model": d, "n_layers": aliased_int(cfg, "num_hidden_layers", "n_layer", default=12),
            "n_heads": heads, "n_kv_heads": 1 if flag(cfg, "multi_query", True) else heads,
            "max_positions": aliased_int(cfg, "max_position_embeddings", "n_positions", default=1024),
            "norm_eps": cfg.get("layer_norm_epsilon", 1e-5), "qk_bias": True, "pre_norm": True,
            "word_embed_proj_dim": d, "own": {"score_scalar": 0.0 if scaled else 1.0}}


def bigcode_qk_names(multi_query: bool, layer: int) -> dict[str, str]:
    """layer's c_attn as families.qk_names gives it: rows q, k, v in whole blocks (multi_query: attention's
    qkv_rows path) or head by head (qkv_heads, one k and v a q head)."""
    pre = f"h.{layer}.attn.c_attn."
    if multi_query:
        return {"qkv_rows": pre + "weight", "qkv_fused_bias": pre + "bias"}
    return {"qkv_heads": pre + "weight", "qkv_heads_bias": pre + "bias"}
