"""GGUF files of Apertus (llama.cpp's `apertus`) in Hugging Face terms. No Qt.

Sources (ggml-org/llama.cpp):
- conversion/apertus.py: `ApertusModel(LlamaModel)`, registered for ApertusForCausalLM, MODEL_ARCH.APERTUS, with
  `undo_permute = False`: q_proj / k_proj rows are stored as Hugging Face has them (no LlamaModel.permute); each
  layer's xIELU act_fn.alpha_n / alpha_p / beta / eps go into the keys xielu.alpha_n ... (one value a layer), not
  tensors. LlamaModel.set_gguf_parameters adds rope.dimension_count (head_dim); LlamaModel.generate_extra_tensors
  writes a llama3 rope type as `rope_freqs.weight` (gguf_rope_freqs.py), no rope scaling keys.
- gguf-py's tensor_mapping.py: the layer's attention_layernorm is blk.N.attn_norm, feedforward_layernorm
  blk.N.ffn_norm, q_norm / k_norm attn_q_norm / attn_k_norm.
- src/models/apertus.cpp: load_arch_hparams requires the rms eps and the four xielu keys; load_arch_tensors
  creates token_embd, output_norm, output (required: no tied head), per layer attn_norm, rope_freqs (optional),
  attn_q / attn_k / attn_v (create_tensor_qkv: biases optional), attn_output (its bias optional), ffn_norm,
  ffn_up, ffn_down, attn_q_norm / attn_k_norm of head_dim entries (their biases optional, never applied: the
  graph's build_norm passes NULL). The graph: RMSNorm, q/k/v, each head's RMSNorm of q and of k, THEN
  ggml_rope_ext with the rope factors (ApertusAttention's order); GGML_ASSERT(n_embd_head == n_rot).
- src/llama-model.cpp, llama_model_rope_type: LLM_ARCH_APERTUS is NEOX (rotate-half), transformers' own pairing.
A file without rope_freqs turns plain RoPE in llama.cpp, not ApertusConfig's default Llama 3 scaling.
"""

from __future__ import annotations

from explorer.backend.models.gguf_layer0 import check_every_qkv, check_qk_biases, refuse_unloaded
from explorer.errors import require

NAMES = {"apertus": {"attn_norm": "attention_layernorm", "ffn_norm": "feedforward_layernorm"}}
XIELU_KEYS = ("xielu.alpha_n", "xielu.alpha_p", "xielu.beta", "xielu.eps")
TOP = ("token_embd.weight", "output_norm.weight", "output.weight", "rope_freqs.weight")
LAYER = tuple(f"{p}.weight" for p in ("attn_norm", "attn_q", "attn_k", "attn_v", "attn_output", "attn_q_norm",
                                      "attn_k_norm", "ffn_norm", "ffn_up", "ffn_down")) + tuple(
    f"{p}.bias" for p in ("attn_q", "attn_k", "attn_v", "attn_output", "attn_q_norm", "attn_k_norm"))


def apertus_config(fields: dict, config: dict, tensors: dict, where: str) -> None:
    """Apertus keys of config (in place): plain RoPE unless rope_freqs (or a linear scaling) says otherwise; the
    keys and every layer's tensors llama.cpp's apertus loader requires checked, and no tensor it does not load."""
    for key in XIELU_KEYS:
        require(key in fields, "%1: metadata %2 is missing; llama.cpp's apertus requires it", where, key)
    require("output.weight" in tensors, "%1: tensor %2 is missing", where, "output.weight")
    check_every_qkv(config, tensors, where)
    check_qk_biases(config, tensors, where)
    d, hd, n_layers = config["hidden_size"], config["head_dim"], config["num_hidden_layers"]
    for il in range(n_layers):
        for part, ne in (("attn_norm", (d,)), ("attn_q_norm", (hd,)), ("attn_k_norm", (hd,))):
            name = f"blk.{il}.{part}.weight"
            require(name in tensors, "%1: tensor %2 is missing", where, name)
            require(tuple(tensors[name].ne) == ne, "%1: tensor %2 has shape %3, expected %4", where, name,
                    list(tensors[name].ne), list(ne))
    refuse_unloaded(tensors, TOP, LAYER, n_layers, "apertus", where)
    config["rope_parameters"] = {"rope_type": "default", "rope_theta": config["rope_theta"]}
