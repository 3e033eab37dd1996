"""Write a tiny transformers DeepSeek-V2 / V3 as llama.cpp's convert_hf_to_gguf.py writes it (`deepseek2`).

As `DeepseekV2Model` (ggml-org/llama.cpp conversion/deepseek.py) does: TextModel's keys (lengths, counts, the
RMSNorm eps, the freq base, YaRN's type / factor / original context length) with head_count_kv 1; the leading
dense block count, vocab size, q_lora_rank (when set), kv_lora_rank, key_length = kv_lora_rank + rope and
value_length = kv_lora_rank (the compressed MQA head), key_length_mla = nope + rope, value_length_mla = v,
expert keys, rope.dimension_count = qk_rope_head_dim, and yarn_log_multiplier = 0.1 x mscale_all_dim when the
config has one. kv_b_proj is split per head into k_b_proj (its k rows, transposed: (heads, kv_lora, nope)) and
v_b_proj. No q/k permutation. `legacy=True` writes a file of llama.cpp before its MLA rework: head_count_kv =
heads, key_length / value_length a head's q/k and v widths, no _mla keys, attn_kv_b whole.
"""

from __future__ import annotations

import numpy as np

from tests import gguf_fixtures as fx


def write_deepseek(path, model, qtype: str = "F16", legacy: bool = False, edit=None,
                   pre: str = "smollm") -> dict[str, np.ndarray]:
    """Write `model` as a deepseek2 GGUF; the stored float32 arrays by GGUF name. edit(writer, stored) runs after
    the tensors are added."""
    import gguf

    cfg = model.config
    heads, nope, rope, v = cfg.num_attention_heads, cfg.qk_nope_head_dim, cfg.qk_rope_head_dim, cfg.v_head_dim
    w = gguf.GGUFWriter(str(path), "deepseek2")
    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.DEEPSEEK2, cfg.num_hidden_layers)
    fx.add_shape_metadata(w, cfg)
    for kv in w.kv_data:                                  # (the converter's num_key_value_heads = 1 for MLA)
        if "deepseek2.attention.head_count_kv" in kv and not legacy:
            kv["deepseek2.attention.head_count_kv"].value = 1
    params = cfg.rope_parameters
    w.add_rope_freq_base(params["rope_theta"])
    if params.get("rope_type", "default") == "yarn":
        w.add_rope_scaling_type(gguf.RopeScalingType.YARN)
        w.add_rope_scaling_factor(params["factor"])
        w.add_rope_scaling_orig_ctx_len(params["original_max_position_embeddings"])
    w.add_leading_dense_block_count(cfg.first_k_dense_replace)
    w.add_vocab_size(cfg.vocab_size)
    if cfg.q_lora_rank is not None:
        w.add_q_lora_rank(cfg.q_lora_rank)
    w.add_kv_lora_rank(cfg.kv_lora_rank)
    if legacy:
        w.add_key_length(nope + rope)
        w.add_value_length(v)
    else:
        w.add_key_length(cfg.kv_lora_rank + rope)
        w.add_value_length(cfg.kv_lora_rank)
        w.add_key_length_mla(nope + rope)
        w.add_value_length_mla(v)
    w.add_expert_feed_forward_length(cfg.moe_intermediate_size)
    w.add_expert_count(cfg.n_routed_experts)
    w.add_expert_shared_count(cfg.n_shared_experts)
    w.add_rope_dimension_count(rope)
    if params.get("mscale_all_dim") is not None:
        w.add_rope_scaling_yarn_log_mul(0.1 * params["mscale_all_dim"])
    fx.add_byte_vocabulary(w, pre=pre)
    stored = {}
    for hf, arr in fx.hf_weights(model).items():
        if ".mlp." in hf and "layers.0." not in hf:           # (the MoE layers' experts: never read)
            continue
        if hf.endswith("kv_b_proj.weight") and not legacy:   # k_b (heads, kv_lora, nope) and v_b (heads, v, kv_lora)
            kv_b = arr.reshape(heads, nope + v, arr.shape[-1])
            layer = hf.split(".")[1]
            for part, tensor in (("k_b", kv_b[:, :nope].transpose(0, 2, 1)), ("v_b", kv_b[:, nope:])):
                name = f"blk.{layer}.attn_{part}.weight"
                stored[name] = fx.add_weight(w, name, np.ascontiguousarray(tensor), qtype)
            continue
        name = names.get_name(hf if hf.startswith("lm_head.") else "model." + hf, try_suffixes=(".weight", ".bias"))
        assert name is not None, hf
        stored[name] = fx.add_weight(w, name, arr, qtype, float32=name.endswith("_norm.weight"))
    return fx.finish_file(w, stored, edit)
