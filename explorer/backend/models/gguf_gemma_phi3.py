"""GGUF files of Gemma 2, Gemma 3 and Phi-3 (llama.cpp's `gemma2`, `gemma3`, `phi3`) in Hugging Face terms.

Sources (ggml-org/llama.cpp): convert_hf_to_gguf.py (`Gemma2Model`, `Gemma3Model`, `Phi3MiniModel`), gguf-py
0.19 (constants.MODEL_TENSORS, tensor_mapping.TensorNameMap), src/llama-model.cpp (`load_hparams`,
`llama_model_rope_type`: all three NEOX, so q/k rows are stored as Hugging Face has them), llama-hparams.cpp.
- Names: Gemma's `post_attention_layernorm` is `post_attention_norm`, `pre_feedforward_layernorm` is
  `ffn_norm`, `post_feedforward_layernorm` is `post_ffw_norm`; every *norm.weight (q/k norms too) carries
  the converter's + 1. Phi-3's fused `qkv_proj` is `attn_qkv`, its fused `gate_up_proj` is `ffn_up`. Phi-2
  (`phi2`, gguf_archs.py) has Phi's `dense`, `fc1`, `fc2` as attn_output, ffn_up, ffn_down, and the first
  Phi-2 files' single `attn_qkv` (rows q, k, v) reads as a `qkv_proj`.
- Score scale: neither converter writes query_pre_attn_scalar; llama.cpp scales q by 1/sqrt(n_embd / n_head)
  for the 27B models (46 layers for Gemma 2, 62 for Gemma 3) and 1/sqrt(head_dim) otherwise (the
  published configs' query_pre_attn_scalar: 144 and 168 for the 27Bs, head_dim 256 for the others).
- Gemma 2: no rope.freq_base written (llama.cpp's default 10000, as Gemma2Config's); the soft cap is
  `gemma2.attn_logit_softcapping` (llama.cpp's default 50); layers alternate sliding / full, the sliding
  ones reading `attention.sliding_window` tokens (llama.cpp's default 4096; is_masked_swa: p1 - p0 >= n_swa).
- Gemma 3: `rope.freq_base` is the full layers' base, `rope.freq_base_swa` the sliding layers' (llama.cpp's
  default 10000) and the rope scaling (linear x8 on 4B and up) applies to the full layers only
  (get_rope_freq_base / _scale: is_swa(il) takes the _swa values, scale 1). Sliding layers: il % 6 < 5
  (set_swa_pattern(6)), or `attention.sliding_window_pattern` (a number, or one bool per layer, true =
  sliding; 0: all), `attention.sliding_window` tokens wide; without a sliding window (key missing or 0)
  every layer is a full one. No soft cap.
- Phi-3: `rope.dimension_count` channels rotate; LongRoPE is `rope_factors_long` / `rope_factors_short`
  (rot / 2 float32 each), `rope.scaling.attn_factor` (llama.cpp's default 1) and
  `rope.scaling.original_context_length` (default: the context length). llama.cpp takes the long factors
  when its context setting (n_ctx per sequence) exceeds that length; PE Explorer, when the text does, as
  transformers' Phi3 does. Its `attention.sliding_window` (2047 in Phi-3-mini-4k) is read by llama.cpp and
  then turned off ("Phi SWA is currently disabled", llama.cpp#13676: swa_type NONE): no window here either.
"""

from __future__ import annotations

import os

import numpy as np

from explorer.backend.models.gemma_config import SANE
from explorer.backend.models.gguf_archs import meta_float, meta_int, one_rope_base, swa_pattern
from explorer.backend.models.gguf_header import Header
from explorer.errors import require

GEMMA_NAMES = {"post_attention_norm": "post_attention_layernorm", "ffn_norm": "pre_feedforward_layernorm",
               "post_ffw_norm": "post_feedforward_layernorm"}
BLOCK_NAMES = {"gemma2": GEMMA_NAMES, "gemma3": GEMMA_NAMES,
               # StableLM: its per-head q/k LayerNorm weights, stacked (heads, head_dim) by the converter
               "stablelm": {"attn_q_norm": "self_attn.q_layernorm", "attn_k_norm": "self_attn.k_layernorm"},
               # OLMo 2: its norms after attention and MLP (it has none before)
               "olmo2": {"post_attention_norm": "post_attention_layernorm",
                         "post_ffw_norm": "post_feedforward_layernorm"},
               "exaone4": {"post_attention_norm": "post_attention_layernorm",
                           "post_ffw_norm": "post_feedforward_layernorm"},
               "phi3": {"attn_qkv": "self_attn.qkv_proj", "ffn_up": "mlp.gate_up_proj"},
               "phi2": {"attn_qkv": "self_attn.qkv_proj", "attn_output": "self_attn.dense", "ffn_up": "mlp.fc1",
                        "ffn_down": "mlp.fc2"}}
LAYERS_27B = {"gemma2": 46, "gemma3": 62}      # llama.cpp's LLM_TYPE_27B (load_hparams' n_layer switch)
SWA_PATTERN = {"gemma2": 2, "gemma3": 6}       # set_swa_pattern(...): layer il slides if il % n < n - 1
PHI3_FACTORS = ("rope_factors_long.weight", "rope_factors_short.weight")
GEMMA2_WINDOW = 4096      # llama.cpp's n_swa for a gemma2 file without attention.sliding_window (gemma2.cpp)
MAX_LAYERS = 512                               # llama.cpp's LLAMA_MAX_LAYERS (src/llama-hparams.h)


def layer_count(fields: dict, arch: str, where: str) -> int:
    """{arch}.block_count, at most llama.cpp's 512 layers (Gemma lists a type per layer)."""
    n = meta_int(fields, f"{arch}.block_count", where)
    require(n <= MAX_LAYERS, "%1: metadata %2 is %3; llama.cpp reads at most %4 layers", where,
            f"{arch}.block_count", n, MAX_LAYERS)
    return n


def layer_types(fields: dict, arch: str, n_layers: int, window: int, where: str) -> list[str]:
    """Each layer's attention type as llama.cpp's is_swa(il) has it (window: attention.sliding_window)."""
    if arch == "gemma3" and not window:
        return ["full_attention"] * n_layers              # no sliding window: swa_type NONE
    key = f"{arch}.attention.sliding_window_pattern"
    pattern = fields.get(key, SWA_PATTERN[arch])
    if isinstance(pattern, np.ndarray):                  # one bool per layer, true = sliding (gguf_writer)
        require(pattern.shape == (n_layers,) and pattern.dtype.kind in "uib" and bool(np.all((pattern == 0) |
                                                                                            (pattern == 1))),
                "%1: metadata %2 must hold one bool per layer (%3)", where, key, n_layers)
        return ["sliding_attention" if b else "full_attention" for b in pattern]
    return swa_pattern(meta_int(fields, key, where, default=SWA_PATTERN[arch], low=0), n_layers)


def gemma_config(fields: dict, arch: str, config: dict, where: str) -> None:
    """Gemma 2 / 3 keys of config (in place): score scale, soft cap, layer types and sliding window, Gemma 3's
    local base."""
    n_layers = config["num_hidden_layers"]
    big = n_layers == LAYERS_27B[arch]
    config["query_pre_attn_scalar"] = (config["hidden_size"] // config["num_attention_heads"] if big
                                       else config["head_dim"])
    key = f"{arch}.attention.sliding_window"
    window = meta_int(fields, key, where, default=GEMMA2_WINDOW if arch == "gemma2" else 0, low=0)
    require(window or arch != "gemma2", "%1: metadata %2 is 0; a Gemma 2 file's sliding layers need a window "
                                        "(llama.cpp would mask every key)", where, key)
    config["layer_types"] = layer_types(fields, arch, n_layers, window, where)
    config["sliding_window"] = window or None
    if arch == "gemma2":
        cap = meta_float(fields, f"{arch}.attn_logit_softcapping", where, default=50.0)
        require(cap >= SANE[0], "%1: metadata %2 is %3; it must be a number from %4 to %5", where,
                f"{arch}.attn_logit_softcapping", repr(cap), *SANE)
        config["attn_logit_softcapping"] = cap
        one_rope_base(fields, arch, config["rope_theta"], "Gemma 2", where)   # (newer llama.cpp reads _swa)
    else:
        config["rope_local_base_freq"] = meta_float(fields, f"{arch}.rope.freq_base_swa", where, default=10000.0)
        require(config["rope_local_base_freq"] > 1, "%1: metadata %2 is %3; RoPE's base must be > 1", where,
                f"{arch}.rope.freq_base_swa", repr(config["rope_local_base_freq"]))


def phi3_longrope(fd: int, header: Header, config: dict, where: str) -> None:
    """Phi-3's LongRoPE factor tensors and metadata -> config's rope_scaling (transformers' longrope: inv_freq
    = 1 / (factor_i x base^(2i/rot)), cos and sin x attention_factor), with its L0; nothing without them."""
    f = header.fields
    config["original_max_position_embeddings"] = meta_int(
        f, "phi3.rope.scaling.original_context_length", where, default=config["max_position_embeddings"])
    infos = [header.tensors.get(name) for name in PHI3_FACTORS]
    if infos == [None, None]:
        return
    require(None not in infos, "%1: tensors %2 and %3 come together (Phi-3's LongRoPE); one is missing", where,
            *PHI3_FACTORS)
    require("rope_scaling" not in config, "%1: rope scaling %2 beside Phi-3's LongRoPE factors is not supported "
                                          "(llama.cpp would apply both)", where,
            repr(config.get("rope_scaling", {}).get("rope_type")))
    rot = round(config["head_dim"] * config.get("partial_rotary_factor", 1.0))
    factors = {}
    for name, info in zip(PHI3_FACTORS, infos):
        require(info.ggml_type == 0 and info.ne == (rot // 2,), "%1: tensor %2 must be %3 F32 factors (one per "
                                                                "rotated pair)", where, name, rot // 2)
        raw = os.pread(fd, info.n_bytes, info.start)
        require(len(raw) == info.n_bytes, "%1: the file ended early (was it changed or removed while open?)",
                where)
        values = np.frombuffer(raw, dtype="<f4").astype(np.float64)                # (rot/2,)
        require(bool(np.all(np.isfinite(values)) and np.all(values > 0)),
                "%1: tensor %2 must hold finite factors > 0", where, name)
        factors[name] = [float(v) for v in values]
    config["rope_scaling"] = {
        "rope_type": "longrope", "long_factor": factors[PHI3_FACTORS[0]], "short_factor": factors[PHI3_FACTORS[1]],
        "attention_factor": meta_float(f, "phi3.rope.scaling.attn_factor", where, default=1.0)}
