"""GGUF files of SmolLM3 (llama.cpp's `smollm3`) in Hugging Face terms. No Qt.

Sources (ggml-org/llama.cpp):
- conversion/smollm.py (convert_hf_to_gguf.py's `SmolLM3Model(LlamaModel)`, registered for SmolLM3ForCausalLM,
  MODEL_ARCH.SMOLLM3): LlamaModel's keys and tensors (undo_permute = True: q/k rows and biases permuted with
  `LlamaModel.permute`); nothing of no_rope_layers or no_rope_layer_interval is written.
- src/llama-model.cpp, load_hparams for LLM_ARCH_SMOLLM3: the rms eps, and `hparams.n_no_rope_layer_step = 4`,
  fixed (no GGUF key is read, so no file can set a step, 0 or other). llama_model_rope_type: NORM (pairs of
  neighbouring rows, which the permutation made of Hugging Face's rotate-half pairs).
- src/models/smollm3.cpp: Llama's graph (RMSNorm, q/k/v with optional biases, kq_scale 1 / sqrt(head_dim), as
  f_attention_scale is not loaded), `use_rope = (il + 1) % n_no_rope_layer_step != 0` (layers 3, 7, ... have no
  RoPE; layer 0 turns), GGML_ASSERT(n_embd_head == n_rot).

transformers' SmolLM3 turns layer il when no_rope_layers[il] is 1, by default `int((il + 1) %
no_rope_layer_interval != 0)` with interval 4: the same layers. A checkpoint with another interval or list
converts to a file llama.cpp runs with every 4th layer NoPE, which the file cannot tell: it is read so.
"""

from __future__ import annotations

from explorer.backend.models.gguf_layer0 import check_every_qkv, refuse_unloaded

STEP = 4                  # llama.cpp's n_no_rope_layer_step for smollm3 (no GGUF key)
# what llama.cpp's smollm3 loader creates (tok_embd, output_norm, output if present; per layer Llama's nine
# weights), and the q/k/v/o and MLP biases its graph adds when a layer has them (let through). Any other tensor
# fails llama.cpp's load ("wrong number of tensors")
TOP = ("token_embd.weight", "output_norm.weight", "output.weight")
LAYER = tuple(f"{p}.weight" for p in ("attn_norm", "attn_q", "attn_k", "attn_v", "attn_output", "ffn_norm",
                                      "ffn_gate", "ffn_up", "ffn_down")) + tuple(
    f"{p}.bias" for p in ("attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down"))


def smollm3_config(config: dict, tensors: dict, where: str) -> None:
    """SmolLM3 keys of config (in place): llama.cpp's NoPE layers as transformers' no_rope_layers (1: RoPE);
    every layer's q/k/v checked, and every tensor named, as llama.cpp's loader checks them."""
    n_layers = config["num_hidden_layers"]
    config["no_rope_layer_interval"] = STEP
    config["no_rope_layers"] = [int((il + 1) % STEP != 0) for il in range(n_layers)]
    config["use_sliding_window"] = False            # (llama.cpp's smollm3 has no window)
    check_every_qkv(config, tensors, where)
    refuse_unloaded(tensors, TOP, LAYER, n_layers, "smollm3", where)         # (n_layers: each found)
