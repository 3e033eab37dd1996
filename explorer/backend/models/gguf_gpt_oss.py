"""GGUF files of GPT-OSS (llama.cpp's `gpt-oss`, LLM_ARCH_OPENAI_MOE) in Hugging Face terms. No Qt.

Sources (ggml-org/llama.cpp):
- conversion/gpt_oss.py, `GptOssModel(TextModel)`: TextModel's keys (freq base, rms eps, key / value length from
  head_dim; YaRN as rope.scaling.type / factor / original_context_length, with the betas as yarn_beta_fast /
  _slow, conversion/base.py), plus `attention.sliding_window`; q/k stored as Hugging Face has them (no
  LlamaModel.permute); each layer's `self_attn.sinks` as `blk.N.attn_sinks.weight`; the experts in MXFP4
  (`ffn_*_exps`, never read here). transformers' YaRN `truncate` has no key.
- src/llama-model.cpp, load_hparams' LLM_ARCH_OPENAI_MOE: reads the rms eps, the expert feed-forward length
  and `attention.sliding_window` (all three required; PE Explorer needs the first and the window, not the
  experts' length); q/k/v/o biases and sinks required; swa_type STANDARD and set_swa_pattern(2): layer il
  slides when il % 2 < 1 (llama-hparams.cpp), layer 0 among them. Newer loaders (src/models/openai-moe.cpp)
  take the period from an `attention.sliding_window_pattern` number and the sliding layers' base from
  `rope.freq_base_swa` (one that differs from freq_base is refused here). llama_model_rope_type: NEOX.
- src/models/openai-moe-iswa.cpp: q and k are reshaped to n_rot channels a head, so rope.dimension_count must
  be the head size; q·k is scaled by 1 / sqrt(n_rot); the sinks go to build_attn, one softmax slot per head.
- ggml.c, ggml_rope_yarn_corr_dims: YaRN's ramp ends are always floored and ceiled (transformers' truncate
  true). The published gpt-oss config says truncate false, so a GGUF of it turns the ramp's middle pairs a
  little otherwise than transformers does (gpt-oss-20b: ends 8.09 and 17.40 become 8 and 18); PE Explorer
  reads a GGUF as llama.cpp runs it.
- A file without rope scaling metadata runs plain RoPE in llama.cpp, not GptOssConfig's default YaRN.
"""

from __future__ import annotations

from explorer.backend.models.gguf_archs import meta_int, one_rope_base, swa_types
from explorer.errors import require

# GGUF block tensor -> Hugging Face name (gguf_file.hf_name); the sinks are a bare parameter, no ".weight"
NAMES = {"attn_sinks": "self_attn.sinks", "post_attention_norm": "post_attention_layernorm"}
BARE = ("self_attn.sinks",)
SWA_PATTERN = 2            # set_swa_pattern(2): layer il slides when il % 2 < 1 (or the pattern key's number)


def gpt_oss_config(fields: dict, config: dict, scaling_kind: str, where: str) -> None:
    """GPT-OSS keys of config (in place): the sliding window and which layers use it, and plain RoPE for a
    file without rope scaling (the family's own default is YaRN)."""
    key = "gpt-oss.attention.sliding_window"
    require(key in fields, "%1: metadata %2 is missing; llama.cpp's gpt-oss requires it", where, key)
    # (0 would mask every key of a sliding layer: is_masked_swa, p1 - p0 >= n_swa)
    config["sliding_window"] = meta_int(fields, key, where)
    config["layer_types"] = swa_types(fields, "gpt-oss", config["num_hidden_layers"], SWA_PATTERN, where)
    one_rope_base(fields, "gpt-oss", config["rope_theta"], "gpt-oss", where)   # (newer loaders read _swa)
    if scaling_kind == "none":
        config["rope_parameters"] = {"rope_type": "default", "rope_theta": config["rope_theta"]}

