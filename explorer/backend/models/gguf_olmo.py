"""GGUF files of OLMo 1 (llama.cpp's `olmo`) in Hugging Face terms. No Qt.

Sources (ggml-org/llama.cpp):
- conversion/olmo.py: `OlmoModel(TextModel)`, registered for OlmoForCausalLM and OLMoForCausalLM, MODEL_ARCH.OLMO:
  TextModel's keys, `attention.layer_norm_epsilon` 1e-5 whatever the config says, `attention.clamp_kqv` only when
  clip_qkv is set; modify_tensors permutes q_proj / k_proj weight rows with LlamaModel.permute (n_head for q, the kv
  head count for k), undone by the reader.
- gguf-py's constants.py, MODEL_TENSORS[OLMO]: token_embd, output, attn_q / k / v, attn_output, ffn_gate / down /
  up: no norm tensor at all (OlmoLayerNorm has no weight or bias).
- src/llama-model.cpp: load_hparams' LLM_ARCH_OLMO reads layer_norm_epsilon (required) and clamp_kqv (optional,
  0 when missing); load_tensors creates exactly the tensors above, `output` optional (tied: token_embd), wq of
  (n_embd, n_embd); llama_model_rope_type: NORM (neighbouring rows, which the permutation made of Hugging Face's
  rotate-half pairs).
- src/models/olmo.cpp: build_norm(inpL, NULL, NULL, LLM_NORM) (a LayerNorm without weight or bias, at the file's
  eps) before attention; q, k and v each clamped to +-f_clamp_kqv when it is > 0, then RoPE on q and k;
  GGML_ASSERT(n_embd_head == n_rot); kq_scale 1 / sqrt(head_dim).
PE Explorer's OLMo normalises at OlmoLayerNorm's eps 1e-5 (what the converter writes); a file with another eps is
refused. clamp_kqv > 0 is the folder's clip_qkv, 0 or missing no clamp, a negative or non-number refused.
"""

from __future__ import annotations

import math

import numpy as np

from explorer.backend.models.gguf_archs import meta_float
from explorer.backend.models.gguf_layer0 import check_every_qkv, refuse_unloaded
from explorer.errors import require, shown

EPS_KEY, CLAMP_KEY = "olmo.attention.layer_norm_epsilon", "olmo.attention.clamp_kqv"
OLMO_EPS = 1e-5            # OlmoLayerNorm's (F.layer_norm(..., eps=1e-5)), and OlmoModel.set_gguf_parameters'
TOP = ("token_embd.weight", "output.weight")
LAYER = tuple(f"{p}.weight" for p in ("attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_down", "ffn_up"))


def olmo_config(fields: dict, config: dict, tensors: dict, where: str) -> None:
    """OLMo keys of config (in place): clip_qkv from clamp_kqv; the eps and every layer's tensors checked as
    llama.cpp's olmo loader checks them (its head size: gguf_config, as stablelm's and olmo2's)."""
    eps = meta_float(fields, EPS_KEY, where)                              # (a GGUF float32: 1e-5 as stored)
    require(np.float32(eps) == np.float32(OLMO_EPS), "%1: metadata %2 is %3; llama.cpp's olmo normalises with it, "
            "PE Explorer's OLMo with OlmoLayerNorm's %4", where, EPS_KEY, repr(eps), OLMO_EPS)
    clamp = fields.get(CLAMP_KEY, 0.0)
    number = isinstance(clamp, (int, float)) and not isinstance(clamp, bool) and math.isfinite(clamp)
    require(number and clamp >= 0, "%1: metadata %2 is %3; it must be a number >= 0 (0: no clamp)", where, CLAMP_KEY,
            shown(clamp))
    check_every_qkv(config, tensors, where)
    refuse_unloaded(tensors, TOP, LAYER, config["num_hidden_layers"], "olmo", where)
    config["clip_qkv"] = float(clamp) if clamp > 0 else None
