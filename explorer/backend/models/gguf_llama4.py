"""GGUF files of Llama 4 (llama.cpp's `llama4`) in Hugging Face terms. No Qt.

Sources (ggml-org/llama.cpp):
- conversion/llama.py, `Llama4Model(LlamaModel)`: undo_permute False (q/k stored as Hugging Face has them, which
  llama.cpp's NORM RoPE turns in neighbouring pairs, Llama 4's own); TextModel's keys, interleave_moe_layer_step,
  expert_feed_forward_length, and attention.sliding_window 0 only when every layer is full_attention; a llama3
  scaling as rope_freqs.weight (LlamaModel.generate_extra_tensors). No key carries no_rope_layers, use_qk_norm,
  attention_chunk_size or the temperature: llama.cpp fixes them.
- src/models/llama4.cpp, load_arch_hparams: without a sliding window of 0, chunked attention of 8,192 tokens on
  the layers set_swa_pattern(4) chunks (il % 4 < 3; or the sliding_window_pattern key's number), the NoPE queries'
  temperature (floor 8192, scale 0.1, offset 1: 0.1 ln(floor((m + 1) / 8192) + 1) + 1, as transformers'), and
  rope.freq_base_swa for the chunked layers; with a window of 0, no chunks and only the last layer without RoPE;
  use_kq_norm unless the file has 128 experts (LLM_TYPE_17B_128E, Maverick). The graph: layers with
  (il + 1) % 4 == 0 turn nothing; RoPE, then the weightless RMS norm of q and k (eps rms_norm_eps); kq_scale
  1/sqrt(head_dim).
"""

from __future__ import annotations

from explorer.backend.models.gguf_archs import meta_int, one_rope_base, swa_types

PERIOD = 4                 # set_swa_pattern(4): three chunked layers, then a full one; n_no_rope_layer_step 4
CHUNK = 8192               # n_swa of LLAMA_SWA_TYPE_CHUNKED, whatever the file's sliding_window says
FLOOR_SCALE, ATTN_SCALE = 8192, 0.1     # n_attn_temp_floor_scale, f_attn_temp_scale
MAVERICK_EXPERTS = 128     # LLM_TYPE_17B_128E: no q/k norm


def llama4_config(fields: dict, config: dict, where: str) -> None:
    """Llama 4's keys of config (in place), as llama.cpp's loader fixes them: NoPE layers, chunks, the temperature,
    the q/k norm."""
    n = config["num_hidden_layers"]
    key = "llama4.attention.sliding_window"
    if key in fields and meta_int(fields, key, where, low=0) == 0:       # every layer full (MobileLLM's files)
        config.update(no_rope_layers=[int(i != n - 1) for i in range(n)], attention_chunk_size=None,
                      layer_types=["full_attention"] * n, attn_temperature_tuning=False)
    else:
        one_rope_base(fields, "llama4", config["rope_theta"], "Llama 4", where)     # (the chunked layers' base)
        types = swa_types(fields, "llama4", n, PERIOD, where)
        config.update(no_rope_layers=[int((i + 1) % PERIOD != 0) for i in range(n)], attention_chunk_size=CHUNK,
                      layer_types=["chunked_attention" if t == "sliding_attention" else t for t in types],
                      attn_temperature_tuning=True, floor_scale=FLOOR_SCALE, attn_scale=ATTN_SCALE)
    # (llama.cpp's load_arch_tensors: "model cannot have zero experts"; its model type 17B_128E has no q/k norm)
    config["use_qk_norm"] = meta_int(fields, "llama4.expert_count", where) != MAVERICK_EXPERTS
