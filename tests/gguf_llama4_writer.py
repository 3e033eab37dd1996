"""Write a tiny transformers Llama 4 as llama.cpp's converter writes it (`llama4`).

As `Llama4Model(LlamaModel)` (ggml-org/llama.cpp conversion/llama.py) does: TextModel's keys (lengths with
feed_forward_length = intermediate_size_mlp, counts, the RMSNorm eps, the freq base, key / value length = head_dim,
expert count and used count), LlamaModel's vocab size and rope.dimension_count = head_dim, then
interleave_moe_layer_step, expert_feed_forward_length = intermediate_size, and attention.sliding_window 0 when
every layer is full_attention. A llama3 scaling is written as rope_freqs.weight only (LlamaModel.
generate_extra_tensors: one divisor per pair, taken here from transformers' own ROPE_INIT_FUNCTIONS["llama3"]). No
q/k permutation (undo_permute False). The experts' fused gate_up_proj (E, d, 2 ff) is transposed and split into
ffn_gate_exps / ffn_up_exps, down_proj transposed into ffn_down_exps. Nothing is written for no_rope_layers,
use_qk_norm, attention_chunk_size or the temperature: llama.cpp fixes them (gguf_llama4.py).
"""

from __future__ import annotations

import numpy as np

from tests import gguf_fixtures as fx


def llama3_divisors(cfg) -> np.ndarray:
    """rope_freqs.weight: default inv_freq / llama3 inv_freq per pair, from transformers' own functions; (hd/2,)."""
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    scaled, _ = ROPE_INIT_FUNCTIONS["llama3"](cfg, "cpu")
    base = cfg.rope_parameters["rope_theta"]
    hd = cfg.head_dim
    plain = 1.0 / (base ** (np.arange(0, hd, 2, dtype=np.float64) / hd))
    return (plain / scaled.double().numpy()).astype(np.float32)


def write_llama4(path, model, qtype: str = "F16", edit=None, pre: str = "llama4") -> dict[str, np.ndarray]:
    """Write `model` (a Llama4ForCausalLM) as a llama4 GGUF; the stored float32 arrays by GGUF name. edit(writer,
    stored) runs after the tensors are added."""
    import gguf

    cfg = model.config
    w = gguf.GGUFWriter(str(path), "llama4")
    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.LLAMA4, cfg.num_hidden_layers)
    fx.add_shape_metadata(w, cfg)
    fx.drop_keys(w, "llama4.feed_forward_length")              # (Llama4Model: the dense MLP's, intermediate_size_mlp)
    w.add_feed_forward_length(cfg.intermediate_size_mlp)
    params = cfg.rope_parameters
    w.add_rope_freq_base(params["rope_theta"])
    for add, value in ((w.add_key_length, cfg.head_dim), (w.add_value_length, cfg.head_dim),
                       (w.add_expert_count, cfg.num_local_experts), (w.add_expert_used_count, cfg.num_experts_per_tok),
                       (w.add_vocab_size, cfg.vocab_size), (w.add_rope_dimension_count, cfg.head_dim),
                       (w.add_interleave_moe_layer_step, cfg.interleave_moe_layer_step),
                       (w.add_expert_feed_forward_length, cfg.intermediate_size)):
        add(value)
    if all(t == "full_attention" for t in cfg.layer_types):
        w.add_sliding_window(0)
    fx.add_byte_vocabulary(w, pre=pre)
    stored = {}
    if params.get("rope_type", "default") == "llama3":
        stored["rope_freqs.weight"] = fx.add_weight(w, "rope_freqs.weight", llama3_divisors(cfg), "F32", float32=True)
    for hf, arr in fx.hf_weights(model).items():
        layer = hf.split(".")[1] if hf.startswith("layers.") else None
        if hf.endswith("feed_forward.experts.gate_up_proj"):              # (E, d, 2 ff) -> gate, up (E, ff, d)
            for part, half in zip(("gate", "up"), np.split(arr.transpose(0, 2, 1), 2, axis=1)):
                name = f"blk.{layer}.ffn_{part}_exps.weight"
                stored[name] = fx.add_weight(w, name, np.ascontiguousarray(half), qtype)
            continue
        if hf.endswith("feed_forward.experts.down_proj"):                 # (E, ff, d) -> (E, d, ff)
            name = f"blk.{layer}.ffn_down_exps.weight"
            stored[name] = fx.add_weight(w, name, np.ascontiguousarray(arr.transpose(0, 2, 1)), qtype)
            continue
        name = names.get_name(hf if hf.startswith("lm_head.") else "model." + hf, try_suffixes=(".weight", ".bias"))
        assert name is not None, hf
        stored[name] = fx.add_weight(w, name, arr, qtype, float32=name.endswith("_norm.weight"))
    return fx.finish_file(w, stored, edit)
