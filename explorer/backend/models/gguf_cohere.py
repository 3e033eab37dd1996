"""GGUF files of Cohere's Command-R (llama.cpp's `command-r`) and Cohere 2 (`cohere2`) in Hugging Face terms.
No Qt.

Sources (ggml-org/llama.cpp): conversion/command_r.py (`CommandR2Model`, `Cohere2Model`: TextModel's keys, the
logit scale, rope scaling type none; Cohere 2 also its sliding window and rope.dimension_count = rotary_pct x
head_dim, its all-zero biases dropped); src/llama-model.cpp (load_hparams: the LayerNorm eps and logit scale, and
for cohere2 the required attention.sliding_window with swa_type STANDARD and set_swa_pattern(4);
llama_model_rope_type: NORM for both, pairs of consecutive channels, which is Cohere's own interleaved RoPE, so
q/k are stored as Hugging Face has them); src/models/command-r.cpp (a LayerNorm without bias, attn_q_norm /
attn_k_norm LayerNorms of each head's own when the file has them, before RoPE) and cohere2-iswa.cpp (RoPE on
the sliding layers only).
"""

from __future__ import annotations

from explorer.backend.models.gguf_archs import meta_int, swa_types

PERIOD = 4                 # cohere2: set_swa_pattern(4), layer il slides when il % 4 < 3 (or the key's number)


def cohere_config(fields: dict, arch: str, config: dict, tensors: dict, where: str) -> None:
    """Command-R / Cohere 2 keys of config (in place): q/k norms when the file has them; Cohere 2's window and
    sliding layers (the full ones turn no q or k)."""
    if arch == "command-r":                # (either norm makes both required: check_rope_layer0)
        config["use_qk_norm"] = any(f"blk.0.attn_{x}_norm.weight" in tensors for x in "qk")
    else:                                  # (llama.cpp's cohere2 has no q/k norms, as Cohere2ForCausalLM)
        config["sliding_window"] = meta_int(fields, "cohere2.attention.sliding_window", where)
        config["layer_types"] = swa_types(fields, "cohere2", config["num_hidden_layers"], PERIOD, where)
