"""GGUF files of Nemotron (llama.cpp's `nemotron`: Minitron, Nemotron-Mini-4B) in Hugging Face terms. No Qt.

Sources (ggml-org/llama.cpp):
- conversion/nemotron.py: `NemotronModel`, registered for NemotronForCausalLM, MODEL_ARCH.NEMOTRON:
  `attention.layer_norm_epsilon` (norm_eps), rope.dimension_count = int(partial_rotary_factor x hidden_size) //
  num_attention_heads (hidden / heads, not head_dim: 48 heads of 128 in a 4,096-wide model, which nemotron.cpp
  names, give 42 channels where transformers turns 64; llama.cpp runs the file's count, and so does PE Explorer),
  rope scaling type none (linear only with a top-level `factor`); modify_tensors adds 1 to every *norm.weight
  (NemotronLayerNorm1P's weight + 1 baked in; the reader subtracts it again, gguf_archs' norm_shift) and permutes
  nothing.
- src/models/nemotron.cpp: load_arch_hparams reads layer_norm_epsilon (required); load_arch_tensors creates
  token_embd, output_norm with its bias, `output` (required: no tied fallback), and per layer attn_norm and
  ffn_norm each with a bias, q/k/v (create_tensor_qkv, biases optional, q of head_dim x head_count rows),
  attn_output, ffn_up, ffn_down (their biases optional); the graph: build_norm(LLM_NORM) with weight and bias, then
  ggml_rope_ext over n_rot channels, kq_scale 1 / sqrt(head_dim).
- src/llama-model.cpp, llama_model_rope_type: LLM_ARCH_NEMOTRON is NEOX (rotate-half, channel i with i + n_rot / 2
  of the first n_rot), apply_rotary_pos_emb's own pairing: nothing to undo.
"""

from __future__ import annotations

from explorer.backend.models.gguf_layer0 import check_every_qkv, check_qk_biases, refuse_unloaded
from explorer.errors import require

TOP = ("token_embd.weight", "output_norm.weight", "output_norm.bias", "output.weight")
LAYER = tuple(f"{p}.weight" for p in ("attn_norm", "attn_q", "attn_k", "attn_v", "attn_output", "ffn_norm",
                                      "ffn_up", "ffn_down")) + tuple(
    f"{p}.bias" for p in ("attn_norm", "ffn_norm", "attn_q", "attn_k", "attn_v", "attn_output", "ffn_up", "ffn_down"))
# what the loader requires beside q/k/v (created without TENSOR_NOT_REQUIRED): all of TOP, and of each layer
REQUIRED_LAYER = ("attn_norm.weight", "attn_norm.bias", "attn_output.weight", "ffn_norm.weight", "ffn_norm.bias",
                  "ffn_up.weight", "ffn_down.weight")


def nemotron_config(config: dict, tensors: dict, where: str) -> None:
    """Every tensor llama.cpp's nemotron loader requires is in the file (every layer's q/k/v with the config's
    shapes, q/k biases in every layer or none), and no other: as its loader checks them; config is left as the
    common keys made it."""
    n_layers = config["num_hidden_layers"]
    for name in TOP + tuple(f"blk.{il}.{part}" for il in range(n_layers) for part in REQUIRED_LAYER):
        require(name in tensors, "%1: tensor %2 is missing", where, name)
    check_every_qkv(config, tensors, where)
    check_qk_biases(config, tensors, where)
    refuse_unloaded(tensors, TOP, LAYER, n_layers, "nemotron", where)
