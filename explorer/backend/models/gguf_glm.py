"""GGUF files of GLM-4 (llama.cpp's `glm4`) and GLM-4.5 / 4.6 (`glm4moe`) in Hugging Face terms. No Qt.

Sources (ggml-org/llama.cpp):
- conversion/glm.py, `Glm4Model(TextModel)` (MODEL_ARCH.GLM4, Glm4ForCausalLM and Glm4vForConditionalGeneration):
  TextModel's keys and rope.dimension_count = int(head_dim x partial_rotary_factor) (0.5 by default); q/k stored
  as Hugging Face has them, except for a config with an mrope_section (GLM-4V), whose q/k rows the converter
  reorders (`normal_to_neox`) for llama.cpp's M-RoPE kernel. `Glm4MoeModel(TextModel)` (MODEL_ARCH.GLM4_MOE):
  the same rope.dimension_count, no reordering ("GLM4V_MOE uses Neox ordering already"), expert keys, and
  block_count = num_hidden_layers + num_nextn_predict_layers, the NextN (MTP) layers written after the others.
- src/llama-model.cpp, llama_model_rope_type: GLM4 NORM (pairs of neighbouring channels: GLM-4's interleaved
  (2i, 2i + 1)), GLM4_MOE NEOX (rotate-half), each MROPE when the file's rope.dimension_sections make
  hparams.use_mrope(); src/models/glm4.cpp and glm4-moe.cpp: the forward pass runs n_layer - nextn_predict_layers
  layers; q, k, v with their biases (when the file has them), then, in glm4moe, the optional attn_q_norm /
  attn_k_norm RMSNorms of each head's own (GLM-4.5's use_qk_norm), then RoPE over the first n_rot channels.
- Names: GLM-4's post_self_attn_layernorm is post_attention_norm, post_attention_layernorm ffn_norm,
  post_mlp_layernorm post_ffw_norm and the fused gate_up_proj ffn_up; GLM-4.5's post_attention_layernorm is
  post_attention_norm (gguf-py's TensorNameMap).
"""

from __future__ import annotations

from explorer.backend.models.gguf_archs import meta_int
from explorer.errors import require

GLM_ARCHS = ("glm4", "glm4moe")
NAMES = {"glm4": {"post_attention_norm": "post_self_attn_layernorm", "ffn_norm": "post_attention_layernorm",
                  "post_ffw_norm": "post_mlp_layernorm", "ffn_up": "mlp.gate_up_proj"},
         "glm4moe": {"post_attention_norm": "post_attention_layernorm"}}


def glm_config(fields: dict, arch: str, config: dict, tensors: dict, where: str) -> None:
    """GLM-4 / GLM-4.5 keys of config (in place): the layers the forward pass runs (the NextN layers left out),
    GLM-4.5's q/k norms; a GLM-4V file (M-RoPE, q/k reordered) is refused."""
    sections = f"{arch}.rope.dimension_sections"
    require(sections not in fields, "%1: metadata %2 marks a GLM-4V file (M-RoPE, q and k reordered by the "
                                    "converter), which PE Explorer does not read", where, sections)
    key = f"{arch}.nextn_predict_layers"
    nextn = meta_int(fields, key, where, default=0, low=0)
    require(nextn < config["num_hidden_layers"], "%1: metadata %2 is %3; the file has %4 layers in all", where,
            key, nextn, config["num_hidden_layers"])
    config["num_hidden_layers"] -= nextn
    if arch == "glm4moe":                  # (either norm makes both required: check_glm_layer0)
        config["use_qk_norm"] = any(f"blk.0.attn_{x}_norm.weight" in tensors for x in "qk")


def glm_layer0(config: dict) -> dict:
    """GLM-4.5's per-head q/k norms (GGUF ne) where the file has either: both are then required."""
    hd = config["head_dim"]
    return {"blk.0.attn_q_norm.weight": (hd,), "blk.0.attn_k_norm.weight": (hd,)} if config.get("use_qk_norm") else {}
