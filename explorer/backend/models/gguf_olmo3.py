"""GGUF files of OLMo 3 (llama.cpp's `olmo2` with a sliding window) in Hugging Face terms. No Qt.

Sources (ggml-org/llama.cpp): conversion/olmo.py (`Olmo2Model`, registered for Olmo2ForCausalLM and
Olmo3ForCausalLM: TextModel's keys, and for a config with a sliding_window, `attention.sliding_window` and
`attention.sliding_window_pattern`, one bool per layer from layer_types, true = sliding, or (i + 1) % 4 != 0);
src/models/olmo2.cpp (load_arch_hparams: a window > 0 makes swa_type STANDARD with set_swa_pattern(period):
layer il slides when il % period < period - 1, period 4, or the pattern key when it is a number, read with
get_key_or_arr's scalar form, which passes over an array, so the converter's bool array changes nothing; older
llama.cpp: set_swa_pattern(4) always; the graph turns a sliding layer with plain RoPE at freq_base, "Olmo3 use
regular rope with no yarn rope scaling" (freq_scale 1, ext_factor 0, attn_factor 1), and a full layer with the
file's scaling). A window of 0 or none is OLMo 2.
"""

from __future__ import annotations

from explorer.backend.models.gguf_archs import meta_int, one_rope_base, swa_types

PERIOD = 4                 # set_swa_pattern(4): three layers in four slide


def is_olmo3(fields: dict, where: str) -> bool:
    """An olmo2 file with a sliding window (> 0): OLMo 3."""
    return meta_int(fields, "olmo2.attention.sliding_window", where, default=0, low=0) > 0


def olmo3_config(fields: dict, config: dict, where: str) -> None:
    """OLMo 3 keys of config (in place): model type, sliding window and layer types, and one RoPE per layer
    type (plain on the sliding layers, the file's scaling on the full ones)."""
    window = meta_int(fields, "olmo2.attention.sliding_window", where)
    types = swa_types(fields, "olmo2", config["num_hidden_layers"], PERIOD, where)
    config.update(model_type="olmo3", architectures=["Olmo3ForCausalLM"], sliding_window=window, layer_types=types)
    base = config.pop("rope_theta")
    one_rope_base(fields, "olmo2", base, "OLMo 3", where)   # (newer llama.cpp reads _swa; olmo2.cpp turns at freq_base)
    full = {"rope_type": "default", "rope_theta": base, **config.pop("rope_scaling", {})}
    config["rope_parameters"] = {"sliding_attention": {"rope_type": "default", "rope_theta": base},
                                 "full_attention": full}
