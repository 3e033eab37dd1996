"""GGUF files of Ministral 3 (llama.cpp's `mistral3`: Ministral 3 3B / 8B / 14B, Devstral Small 2's text model) in
Hugging Face terms: the `ministral3` model (explorer.backend.models.ministral3) as llama.cpp runs it. No Qt.

Sources (ggml-org/llama.cpp):
- conversion/mistral3.py, `Mistral3Model.Ministral3Model(LlamaModel)` (for Ministral3ForCausalLM and
  Mistral3ForConditionalGeneration's text model, MODEL_ARCH.MISTRAL3): LlamaModel's keys and tensors, q/k rows
  permuted (LlamaModel.permute, undone by the reader; convert_hf_to_gguf.py's `MistralModel` writes Mistral-format
  checkpoints as mistral3 unpermuted, their q/k already in llama.cpp's pair order); TextModel's YaRN keys (type,
  factor, original_context_length), `rope.scaling.yarn_log_multiplier` = mscale_all_dim and
  `attention.temperature_scale` = llama_4_scaling_beta.
- src/llama-model.cpp, load_hparams for LLM_ARCH_MISTRAL3: attention.temperature_scale (default 0: no scale),
  rope.scaling.yarn_beta_fast / yarn_beta_slow (defaults 32 and 1), yarn_log_multiplier; f_attn_temp_offset 0 and
  n_attn_temp_floor_scale = n_ctx_orig_yarn (rope.scaling.original_context_length, else context_length).
  llama_model_rope_type: NORM (neighbouring pairs, which the permutation made of the rotate-half pairs).
- src/llama-graph.cpp, llm_graph_input_attn_temp::set_input: 1 + scale ln(floor((m + offset) / floor_scale) + 1),
  multiplied into q after RoPE (src/models/mistral3.cpp): transformers' get_llama_4_attn_scale with beta =
  temperature_scale and L0 = the original context (beta 0 here where the file has no scale: 1 at every position).
- src/models/mistral3.cpp: Llama's graph (kq_scale 1 / sqrt(head_dim), no sliding window, n_rot == head_dim
  asserted), RoPE given its own attn_factor 1 / (1 + 0.1 ln factor) in place of llama_context's YaRN factor (the
  log multiplier is not used); ggml's rope_yarn (ggml/src/ggml-cpu/ops.cpp) multiplies it by 1 + 0.1 ln factor when
  ext_factor != 0 (YaRN): cos and sin of magnitude 1. transformers' YaRN magnitude get_mscale(f, mscale) /
  get_mscale(f, mscale_all_dim) is 1 for Ministral3's mscale = mscale_all_dim = 1, as here; a checkpoint with two
  different ones would differ, and its file is read as llama.cpp runs it (magnitude 1). Linear scaling (ext_factor
  0) would leave cos and sin shrunk by 1 / (1 + 0.1 ln factor), as no transformers RoPE does: refused.
"""

from __future__ import annotations

from explorer.backend.models.gguf_archs import meta_float, meta_int
from explorer.errors import require, shown

ARCH = "mistral3"


def mistral3_config(fields: dict, config: dict, kind: str, where: str) -> None:
    """config's rope_parameters (in place) as llama.cpp's mistral3 runs the file: its YaRN (betas from the file),
    magnitude 1, and the q scale's beta and L0 (llama_4_scaling_beta, original_max_position_embeddings)."""
    require(kind in ("none", "yarn"), "%1: rope scaling %2 in a mistral3 file: llama.cpp's mistral3 then shrinks "
                                      "cos and sin by 1 / (1 + 0.1 ln factor), as no transformers RoPE does", where,
            repr(kind))
    params = dict(config.pop("rope_scaling", None) or {"rope_type": "default"}, rope_theta=config["rope_theta"])
    key = f"{ARCH}.attention.temperature_scale"
    beta = fields.get(key, 0.0)
    require(isinstance(beta, (int, float)) and not isinstance(beta, bool) and abs(beta) < 1e30 and beta == beta,
            "%1: metadata %2 is %3; it must be a finite number", where, key, shown(beta))
    # n_ctx_orig_yarn: rope.scaling.original_context_length, else context_length (load_hparams' default)
    original = meta_int(fields, f"{ARCH}.rope.scaling.original_context_length", where,
                        default=config["max_position_embeddings"])
    params.update(llama_4_scaling_beta=float(beta), original_max_position_embeddings=original)
    if kind == "yarn":
        params.update(mscale=1.0, mscale_all_dim=1.0,
                      beta_fast=meta_float(fields, f"{ARCH}.rope.scaling.yarn_beta_fast", where, default=32.0),
                      beta_slow=meta_float(fields, f"{ARCH}.rope.scaling.yarn_beta_slow", where, default=1.0))
    config.update(rope_parameters=params, sliding_window=None)
