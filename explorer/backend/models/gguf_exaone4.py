"""GGUF files of EXAONE 4.0 (llama.cpp's `exaone4`) in Hugging Face terms. No Qt.

Sources (ggml-org/llama.cpp):
- convert_hf_to_gguf.py's `Exaone4Model(TextModel)` (MODEL_ARCH.EXAONE4, registered for Exaone4ForCausalLM):
  TextModel's keys; no permutation (llama_model_rope_type: NEOX, Hugging Face's rotate-half); with a
  sliding_window, `attention.sliding_window` and `attention.sliding_window_pattern` as one bool per layer (from
  layer_types, or from an "LLLG" string or a number); a llama3 rope type as `rope_freqs.weight`
  (generate_extra_tensors, L0 read from the top-level original_max_position_embeddings, default 8192).
- src/models/exaone4.cpp, load_arch_hparams: only a 64-layer file (the 32B) gets swa_type STANDARD, n_swa 4096,
  set_swa_pattern(period) with period 4 or the pattern key when it is a number (get_key_or_arr's scalar form passes
  over the converter's bool array: gguf_archs.swa_types), and rope.freq_base_swa (default freq_base); then
  `attention.sliding_window` overrides n_swa. Any other layer count (the 1.2B's 30) has no window at all, whatever
  the file's keys. Its graph: no norm before attention, attn_q_norm / attn_k_norm over each head (n_embd_head_k
  wide), then RoPE only where `hparams.is_swa(il) || hparams.swa_type == LLAMA_SWA_TYPE_NONE`; attn_post_norm and
  ffn_post_norm after attention and MLP; GGML_ASSERT(n_embd_head == n_rot).
In transformers' terms: a 64-layer file is sliding_window n_swa with the set_swa_pattern layer types (the full
ones NoPE, as Exaone4Attention's rule gives them), any other a null window with every layer full and turning.
"""

from __future__ import annotations

from explorer.backend.models.gguf_archs import meta_int, one_rope_base, swa_types

SWA_LAYERS = 64            # load_arch_hparams: `if (hparams.n_layer() == 64) {    // 32B`
WINDOW = 4096              # its n_swa before attention.sliding_window is read
PERIOD = 4                 # its default swa period


def exaone4_config(fields: dict, config: dict, where: str) -> None:
    """EXAONE 4.0 keys of config (in place): the window and layer types llama.cpp's loader makes of the file."""
    n_layers = config["num_hidden_layers"]
    if n_layers != SWA_LAYERS:                          # swa_type stays NONE: no window, every layer turns
        config.update(sliding_window=None, layer_types=["full_attention"] * n_layers)
        return
    window = meta_int(fields, "exaone4.attention.sliding_window", where, default=WINDOW)
    one_rope_base(fields, "exaone4", config["rope_theta"], "EXAONE 4.0", where)
    config.update(sliding_window=window, layer_types=swa_types(fields, "exaone4", n_layers, PERIOD, where))
