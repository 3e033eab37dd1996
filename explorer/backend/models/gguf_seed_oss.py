"""GGUF files of Seed-OSS (llama.cpp's `seed_oss`) in Hugging Face terms. No Qt.

Sources (ggml-org/llama.cpp):
- conversion/olmo.py: `SeedOssModel(TextModel)`, registered for SeedOssForCausalLM, MODEL_ARCH.SEED_OSS, with no
  modify_tensors of its own: q_proj / k_proj rows and biases are stored as Hugging Face has them (no
  LlamaModel.permute), key_length = head_dim (TextModel.set_gguf_parameters).
- gguf-py/gguf/constants.py, MODEL_TENSORS[SEED_OSS]: token_embd, attn_norm, attn_q / k / v, attn_output,
  attn_post_norm, ffn_gate / down / up, output_norm, output; tensor_mapping.py maps the layer's
  post_attention_layernorm to `blk.N.post_attention_norm` (there is no ffn_norm).
- src/models/seed-oss.cpp: load_arch_hparams reads the rms eps only; load_arch_tensors creates exactly those
  tensors (q/k/v through create_tensor_qkv, whose biases are optional; attn_output without a bias, so a checkpoint
  with attention_out_bias true converts to a file llama.cpp refuses), `output` optional (tied); the graph asserts
  n_embd_head == n_rot (the whole head turns), kq_scale 1 / sqrt(head_dim) (f_attention_scale is never loaded),
  then ggml_rope_ext with the model's rope type.
- src/llama-model.cpp, llama_model_rope_type: LLM_ARCH_SEED_OSS is NEOX (rotate-half, channel i with
  i + head_dim / 2), transformers' own pairing: nothing to undo.
"""

from __future__ import annotations

from explorer.backend.models.gguf_layer0 import check_every_qkv, check_qk_biases, refuse_unloaded

NAMES = {"seed_oss": {"post_attention_norm": "post_attention_layernorm"}}   # GGUF block part -> Hugging Face's
TOP = ("token_embd.weight", "output_norm.weight", "output.weight")
LAYER = tuple(f"{p}.weight" for p in ("attn_norm", "attn_q", "attn_k", "attn_v", "attn_output",
                                      "post_attention_norm", "ffn_gate", "ffn_up", "ffn_down")) + tuple(
    f"attn_{x}.bias" for x in "qkv")


def seed_oss_config(config: dict, tensors: dict, where: str) -> None:
    """Every layer's q/k/v (and q/k biases: both or none, as layer 0's) checked, and every tensor named, as
    llama.cpp's seed_oss loader checks them; config is left as the common keys made it."""
    n_layers = config["num_hidden_layers"]
    check_every_qkv(config, tensors, where)
    check_qk_biases(config, tensors, where)
    refuse_unloaded(tensors, TOP, LAYER, n_layers, "seed_oss", where)
