"""Write a tiny transformers GLM-4, GLM-4.5, Qwen2-VL / Qwen2.5-VL, Qwen3-VL or Qwen3-VL-MoE as llama.cpp's
convert_hf_to_gguf.py writes it (ggml-org/llama.cpp conversion/glm.py and the Qwen VL classes).

Names come from gguf-py's own TensorNameMap. Per class:
- Glm4Model: TextModel's keys (freq base, key / value length from head_dim), rope.dimension_count =
  int(head_dim x partial_rotary_factor); q/k as Hugging Face has them; the fused gate_up_proj as ffn_up.
- Glm4MoeModel: the same keys, expert counts, nextn_predict_layers, block_count = num_hidden_layers + NextN
  layers (a tiny transformers model has no NextN weights: none are written); transformers 5's fused experts split
  into ffn_gate_exps / ffn_up_exps.
- Qwen2VLModel, Qwen3VLTextModel, Qwen3VLMoeTextModel: the text model's TextModel keys, mrope_section padded with
  zeros to four as rope.dimension_sections, Qwen3-VL's n_deepstack_layers; the vision tower left out.
MLP tensors gguf-py names nothing here (GLM-4.5's router bias) are left out: PE Explorer reads no MLP weight.
"""

from __future__ import annotations

import numpy as np

from tests import gguf_fixtures as fx

ARCHS = {"glm4": "GLM4", "glm4moe": "GLM4_MOE", "qwen2vl": "QWEN2VL", "qwen3vl": "QWEN3VL",
         "qwen3vlmoe": "QWEN3VLMOE"}


def text_config(model):
    """The text model's config (a Qwen VL's text_config)."""
    return getattr(model.config, "text_config", model.config)


def write_glm_vl(path, model, arch: str, edit=None, nextn: int = 0) -> dict[str, np.ndarray]:
    """Write `model` as a GGUF of `arch`; the stored float32 arrays by GGUF name. edit(writer, stored), if given,
    runs after the tensors are added; nextn: GLM's NextN layers counted in block_count (none written)."""
    import gguf

    cfg = text_config(model)
    rope = cfg.rope_parameters
    w = gguf.GGUFWriter(str(path), arch)
    names = gguf.get_tensor_name_map(getattr(gguf.MODEL_ARCH, ARCHS[arch]), cfg.num_hidden_layers + nextn)
    fx.add_shape_metadata(w, cfg)
    w.add_rope_freq_base(rope["rope_theta"])
    head_dim = getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads
    if getattr(cfg, "head_dim", None):
        w.add_key_length(head_dim)
        w.add_value_length(head_dim)
    if arch.startswith("glm"):
        w.add_rope_dimension_count(int(head_dim * rope.get("partial_rotary_factor", 0.5)))
    if arch == "glm4moe":
        fx.drop_keys(w, "glm4moe.block_count")
        w.add_block_count(cfg.num_hidden_layers + nextn)
        w.add_expert_count(cfg.n_routed_experts)
        w.add_expert_used_count(cfg.num_experts_per_tok)
        w.add_expert_feed_forward_length(cfg.moe_intermediate_size)
        w.add_expert_shared_count(cfg.n_shared_experts)
        w.add_leading_dense_block_count(cfg.first_k_dense_replace)
        w.add_nextn_predict_layers(nextn)
    if arch.startswith("qwen"):
        w.add_rope_dimension_sections(list(rope["mrope_section"]) + [0] * (4 - len(rope["mrope_section"])))
    if arch in ("qwen3vl", "qwen3vlmoe"):
        w.add_num_deepstack_layers(0)
    if arch == "qwen3vlmoe":
        w.add_expert_count(cfg.num_experts)
        w.add_expert_used_count(cfg.num_experts_per_tok)
        w.add_expert_feed_forward_length(cfg.moe_intermediate_size)
    fx.add_byte_vocabulary(w)
    stored = {}
    for hf, arr in fx.hf_weights(model).items():
        if hf.startswith("visual.") or hf == "lm_head.weight" and getattr(model.config, "tie_word_embeddings", False):
            continue
        hf = hf.removeprefix("language_model.")
        if hf.endswith("mlp.experts.gate_up_proj"):           # transformers 5's fused experts: gate, then up
            layer = hf.split(".")[1]
            for part, half in zip(("gate", "up"), np.split(arr, 2, axis=1)):
                name = f"blk.{layer}.ffn_{part}_exps.weight"
                stored[name] = fx.add_weight(w, name, np.ascontiguousarray(half), "F16")
            continue
        name = names.get_name(hf if hf.startswith("lm_head.") else "model." + hf, try_suffixes=(".weight", ".bias"))
        if name is None and ".mlp." in hf:
            continue
        assert name is not None, hf
        name += "" if name.endswith((".weight", ".bias")) else ".weight"        # ffn_down_exps (no suffix)
        stored[name] = fx.add_weight(w, name, arr, "F16", float32=name.endswith("_norm.weight"))
    return fx.finish_file(w, stored, edit)
