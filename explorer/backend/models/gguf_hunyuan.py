"""GGUF files of Hunyuan (llama.cpp's `hunyuan-dense` and `hunyuan-moe`) in Hugging Face terms. No Qt.

Sources (ggml-org/llama.cpp):
- conversion/hunyuan.py: `HunYuanModel(TextModel)` (HunYuanDenseV1ForCausalLM, MODEL_ARCH.HUNYUAN_DENSE) and
  `HunYuanMoEModel(TextModel)` (HunYuanMoEV1ForCausalLM, HUNYUAN_MOE). TextModel's keys and tensors: no q/k
  permutation (only a tied lm_head is dropped), query_layernorm / key_layernorm as attn_q_norm / attn_k_norm.
  set_gguf_parameters FOLDS a "dynamic" RoPE's alpha into the base: rope.freq_base = rope_theta x alpha ^
  (dim / (dim - 2)), dim being head_dim (dense) or hidden_size / num_attention_heads (MoE; 128 = head_dim in
  Hunyuan-A13B), with rope.scaling.type "none" and factor 1 (and context_length 262,144). The file's freq_base is
  then the fixed base transformers' ntk_alpha turns at (explorer.backend.models.hunyuan): plain RoPE; the alpha
  itself is not in the file.
- src/llama-model.cpp, llama_model_rope_type: LLAMA_ROPE_TYPE_NEOX for both (Hugging Face's rotate-half pairs, the
  rows as stored).
- src/models/hunyuan-dense.cpp, hunyuan-moe.cpp: GGML_ASSERT(n_embd_head == n_rot); an RMSNorm before attention;
  q and k turned by ggml_rope_ext, THEN build_norm(Kcur, attn_k_norm, LLM_NORM_RMS) and the same for Qcur (each
  head's RMSNorm with its weight, after RoPE, as transformers); kq_scale 1 / sqrt(head_dim). hunyuan-moe.cpp's
  loader requires attn_q_norm / attn_k_norm of head_dim entries; the MoE's experts, router and shared expert are
  MLP tensors PE Explorer does not read.
"""

from __future__ import annotations

from explorer.errors import require

HUNYUAN_ARCHS = ("hunyuan-dense", "hunyuan-moe")
NAMES = {arch: {"attn_q_norm": "self_attn.query_layernorm", "attn_k_norm": "self_attn.key_layernorm"}
         for arch in HUNYUAN_ARCHS}


def hunyuan_config(arch: str, config: dict, tensors: dict, where: str) -> None:
    """A hunyuan file's config keys (in place): no attention biases (no Hunyuan checkpoint has them, and
    PE Explorer does not read a file with them)."""
    require(not config["attention_bias"] and "blk.0.attn_k.bias" not in tensors, "%1: tensor %2 is not read: "
            "PE Explorer reads %3 files without attention biases (no Hunyuan checkpoint has them)", where,
            "blk.0.attn_q.bias" if config["attention_bias"] else "blk.0.attn_k.bias", arch)


def hunyuan_layer0(config: dict) -> dict:
    """Layer 0's per-head q / k norm weights (GGUF ne), which llama.cpp's loader requires."""
    hd = config["head_dim"]
    return {"blk.0.attn_q_norm.weight": (hd,), "blk.0.attn_k_norm.weight": (hd,)}
