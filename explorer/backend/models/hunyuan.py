"""Tencent's Hunyuan (Hunyuan-0.5B / 1.8B / 4B / 7B, model_type hunyuan_v1_dense; Hunyuan-A13B, hunyuan_v1_moe):
its RoPE base and its q/k norms after RoPE. No Qt.

As transformers 5.25's modeling_hunyuan_v1_dense.py / modeling_hunyuan_v1_moe.py run them (HunYuanDenseV1Attention
and HunYuanMoEV1Attention are the same attention; the MoE's experts are in the MLP, never read here). Llama's
attention (q_proj / k_proj, biases when attention_bias, default false; GQA; rotate-half RoPE), with:
- HunYuan*RotaryEmbedding.__init__'s "DynamicNTKAlphaRotary": rope settings of type "dynamic" with an alpha (the
  published configs: rope_scaling {"type": "dynamic", "alpha": 1000.0, "factor": 1.0, ...}) become its own type
  "ntk_alpha", and compute_ntk_alpha_rope_parameters turns every pair at
  base = rope_theta x alpha ** (head_dim / (head_dim - 2)): a FIXED base, whatever the text's length (no dynamic
  rescaling; factor is not read). PE Explorer folds it into rope_base as plain RoPE. A "dynamic" without alpha
  is transformers' dynamic NTK; an alpha beside another type is not read;
- after RoPE, q and k go through query_layernorm / key_layernorm: an RMSNorm over each head's head_dim channels,
  with a weight, eps rms_norm_eps (HunYuanDenseV1Attention.forward: apply_rotary_pos_emb, then the norms), whatever
  config.json's use_qk_norm says (the 5.25 classes do not read it, nor use_cla, which layer 0 never shares);
- head_dim is read as config.head_dim (HunYuanDenseV1Attention.__init__'s getattr finds the field, default None):
  without one transformers' attention cannot run.
"""

from __future__ import annotations

import math

import numpy as np

from explorer.backend.encodings import finite_number
from explorer.backend.models.config_rope import rope_parameters
from explorer.errors import msg, require, shown

HUNYUAN = ("hunyuan_v1_dense", "hunyuan_v1_moe")
ALPHA = "_hunyuan_alpha"          # the config key that carries (alpha, rope_theta) from with_alpha_base to ModelConfig


def _head_dim(cfg: dict) -> int | None:
    """The head_dim compute_ntk_alpha_rope_parameters reads (hidden / heads where config.json has none, as the
    checkpoints' own code had it); None where the widths are not whole numbers (config.py refuses them)."""
    hd = cfg.get("head_dim")
    if type(hd) is int:
        return hd
    d, heads = cfg.get("hidden_size"), cfg.get("num_attention_heads")
    return d // heads if type(d) is int and type(heads) is int and heads > 0 else None


def with_alpha_base(cfg: dict) -> dict:
    """A Hunyuan config whose RoPE is "dynamic" with an alpha, as plain RoPE at its fixed base
    rope_theta x alpha^(hd / (hd - 2)) (ALPHA keeps alpha and rope_theta for the label); any other as it is."""
    if cfg.get("model_type") not in HUNYUAN:
        return cfg
    params = rope_parameters(cfg, "llama")                  # 4.x rope_scaling or 5.x rope_parameters, theta checked
    alpha = params.get("alpha")
    if params["rope_type"] != "dynamic" or alpha is None:
        return cfg
    require(isinstance(alpha, (int, float)) and not isinstance(alpha, bool) and finite_number(alpha) and alpha > 0,
            "config.json: rope_scaling's alpha (Hunyuan's NTK-alpha RoPE) must be a positive number, not %1",
            shown(alpha))
    hd = _head_dim(cfg)
    if hd is None:
        return cfg
    require(hd > 2, "config.json: Hunyuan's NTK-alpha RoPE needs head_dim > 2 (alpha ^ (head_dim / (head_dim - 2))), "
                    "not %1", hd)
    theta = params["rope_theta"]
    try:                                                    # (compute_ntk_alpha_rope_parameters, in Python floats)
        base = theta * alpha ** (hd / (hd - 2))
    except OverflowError:
        base = math.inf
    require(finite_number(base) and base > 1, "config.json: rope_theta %1 x alpha %2 ^ (%3 / %4) is not a usable "
            "RoPE base (a finite number > 1)", f"{theta:g}", f"{alpha:g}", hd, hd - 2)
    return {**cfg, "rope_scaling": None, "rope_parameters": {"rope_type": "default", "rope_theta": base},
            ALPHA: (float(alpha), theta)}


def hunyuan_fields(cfg: dict) -> dict:
    """ModelConfig's rope_alpha (alpha, rope_theta) where the base was folded; an attention_refusal without
    head_dim."""
    out = {"rope_alpha": cfg.get(ALPHA)}
    if type(cfg.get("head_dim")) is not int:
        out["attention_refusal"] = msg("config.json has no head_dim: transformers' Hunyuan attention reads "
                                       "config.head_dim (%1) and cannot run without it", shown(cfg.get("head_dim")))
    return out


def alpha_label(alpha: tuple[float, float], head_dim: int) -> str:
    """The readout of a folded base: "NTK-alpha 1000 = 10000 × 1000^(128/126)" (symbols only: the readout
    beside it is in the UI's language)."""
    a, theta = alpha
    return f"NTK-alpha {a:g} = {theta:g} × {a:g}^({head_dim}/{head_dim - 2})"


def hunyuan_qk(cfg, reader, layer: int, q, k, q_rot, k_rot):
    """(q, k, q_rot, k_rot), each (heads, n, hd), through query_layernorm / key_layernorm after RoPE: each head's
    RMSNorm with its weight. The unrotated q and k shown beside them go through the same norms (q·k without
    RoPE is then the model's own scores had it no positions)."""
    from explorer.backend.models.families import rms_norm      # (families imports config, which imports this)
    from explorer.backend.models.layer_weights import vector

    pre = f"layers.{layer}.self_attn."
    wq = vector(reader, pre + "query_layernorm.weight", layer, cfg.head_dim)
    wk = vector(reader, pre + "key_layernorm.weight", layer, cfg.head_dim)
    eps = cfg.norm_eps
    return (rms_norm(q, wq, eps), rms_norm(k, wk, eps), rms_norm(q_rot, wq, eps), rms_norm(k_rot, wk, eps))

