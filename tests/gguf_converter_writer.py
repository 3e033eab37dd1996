"""Write a tiny transformers Gemma 2, Gemma 3, Phi-3, Phi-2, StableLM, OLMo 2, Qwen2-MoE or Qwen3-MoE as llama.cpp's
convert_hf_to_gguf.py writes it.

Names come from gguf-py's own TensorNameMap (what the converter uses), not from the reader's table. Per
class (ggml-org/llama.cpp convert_hf_to_gguf.py):
- Gemma2Model.set_gguf_parameters: no rope freq base, key / value length = head_dim, attn and final logit
  soft caps, sliding window; modify_tensors: every *norm.weight + 1, lm_head dropped.
- Gemma3Model: TextModel's keys (rope scaling type / factor of the full layers, rope.freq_base_swa = the
  sliding layers' base), rope.freq_base = the full layers' base, sliding window; every *norm.weight + 1 (q/k
  norms too).
- Phi3MiniModel: rope.dimension_count = int(partial_rotary_factor x n_embd) // n_head, original context
  length, freq base; with a rope_scaling: rope_factors_long / rope_factors_short (F32) and
  rope.scaling.attn_factor = sqrt(1 + ln(s) / ln(L0)), s = max_position_embeddings / L0 (1 when s <= 1).
- Phi2Model: context, embedding and feed-forward (4 x n_embd) lengths, head counts (kv = heads), the
  LayerNorm epsilon, rope.dimension_count = int(partial_rotary_factor x n_embd) // n_head; no freq base.
- StableLMModel: context, embedding and feed-forward lengths, block and head counts, parallel residual, the
  LayerNorm epsilon, rope.dimension_count = int(partial_rotary_factor x head_dim); no freq base (llama.cpp's
  10,000); per-head q/k norm weights stacked (heads, head_dim) as attn_q_norm / attn_k_norm.
- Olmo2Model: TextModel's keys (freq base, rms eps); tensors as Hugging Face has them (no permutation), no
  attn_norm, attn_q_norm / attn_k_norm over all heads, post_attention_norm, post_ffw_norm. For OLMo 3
  (conversion/olmo.py, the same class): the sliding window and a sliding_window_pattern of one bool per layer
  (true = sliding) from layer_types; the full layers' rope_scaling as TextModel writes a 4.x config's.
- Qwen2MoeModel / Qwen3MoeModel: TextModel's keys (freq base, key length from head_dim), expert counts; the
  experts stacked as blk.N.ffn_gate_exps / ffn_up_exps / ffn_down_exps (n_expert, rows, cols), the router
  ffn_gate_inp, Qwen2-MoE's shared expert *_shexp.
- CommandR2Model / Cohere2Model (conversion/command_r.py): TextModel's keys with the LayerNorm eps, the logit
  scale, rope scaling type none; Cohere 2 its sliding window and rope.dimension_count; q_norm / k_norm (Command-R+)
  as attn_q_norm / attn_k_norm, (heads, head_dim) each.
- StarCoder2Model: TextModel's keys with the LayerNorm eps (norm_epsilon as attention.layer_norm_epsilon);
  c_fc / c_proj as ffn_up / ffn_down; tied embeddings (no output.weight) by default.
- GptOssModel (conversion/gpt_oss.py, conversion/base.py): TextModel's keys (freq base, key / value length from
  head_dim, expert counts; YaRN as rope.scaling.type / factor / original_context_length and the betas as
  yarn_beta_fast / _slow; no key for `truncate`), the sliding window and the expert feed-forward length;
  `self_attn.sinks` as blk.N.attn_sinks.weight; the experts' interleaved gate / up columns split (rows ::2
  gate, 1::2 up, after a transpose) into ffn_gate_exps / ffn_up_exps, down_proj transposed, each expert
  tensor in MXFP4 (the published checkpoints' format) or F16.
"""

from __future__ import annotations

import math

import numpy as np

from tests import gguf_fixtures as fx

ARCHS = {"gemma2": "GEMMA2", "gemma3": "GEMMA3", "phi3": "PHI3", "qwen2moe": "QWEN2MOE", "qwen3moe": "QWEN3MOE",
         "phi2": "PHI2", "olmo2": "OLMO2", "stablelm": "STABLELM", "gpt-oss": "GPT_OSS", "starcoder2": "STARCODER2",
         "command-r": "COMMAND_R", "cohere2": "COHERE2", "olmoe": "OLMOE", "exaone4": "EXAONE4"}


def _rope(cfg, layer_type: str | None = None) -> dict:
    params = cfg.rope_parameters
    return params.get(layer_type, params) if layer_type else params


def replace_tensor(w, stored: dict, name: str, arr: np.ndarray | None = None, float32: bool = False) -> None:
    """In an `edit` of write_converted: drop tensor `name` from the writer and `stored`, and write `arr` (F16, or
    F32) in its place when given (a damaged or hand-made file)."""
    stored.pop(name, None)
    for tensors in w.tensors:
        tensors.pop(name, None)
    if arr is not None:
        stored[name] = fx.add_weight(w, name, arr, "F16", float32=float32)


def _stacked_qk_norms(weights: dict) -> dict:
    """StableLMModel._stack_qk_norm: each layer's q_layernorm.norms.{h}.weight (and k's) as one
    q_layernorm.weight of (heads, head_dim), in head order."""
    out, norms = {}, {}
    for name, arr in weights.items():
        if "_layernorm.norms." in name:
            stem, head = name.split(".norms.")
            norms.setdefault(stem, {})[int(head.split(".")[0])] = arr
        else:
            out[name] = arr
    for stem, heads in norms.items():
        out[stem + ".weight"] = np.stack([heads[h] for h in range(len(heads))])
    return out


def write_converted(path, model, arch: str, qtype: str = "F16", edit=None,
                    expert_qtype: str = "MXFP4") -> dict[str, np.ndarray]:
    """Write `model` as a GGUF of `arch`; the stored float32 arrays by GGUF name. edit(writer, stored), if
    given, runs after the tensors are added (more keys or tensors; `stored` may be changed). expert_qtype:
    GPT-OSS's expert weights, "MXFP4" or "F16"."""
    import gguf

    cfg = model.config
    w = gguf.GGUFWriter(str(path), arch)
    names = gguf.get_tensor_name_map(getattr(gguf.MODEL_ARCH, ARCHS[arch]), cfg.num_hidden_layers)
    if arch == "starcoder2":   # StarCoder2Model: TextModel's keys, the LayerNorm eps (norm_epsilon)
        fx.add_shape_metadata(w, cfg)
        w.add_rope_freq_base(_rope(cfg)["rope_theta"])
        w.add_layer_norm_eps(cfg.norm_epsilon)
    elif arch in ("command-r", "cohere2"):   # CommandR2Model / Cohere2Model: TextModel's keys, logit scale, no scaling
        import gguf

        fx.add_shape_metadata(w, cfg)
        w.add_rope_freq_base(_rope(cfg)["rope_theta"])
        w.add_layer_norm_eps(cfg.layer_norm_eps)
        w.add_logit_scale(cfg.logit_scale)
        if arch == "cohere2":
            w.add_sliding_window(cfg.sliding_window)
            w.add_rope_dimension_count(cfg.hidden_size // cfg.num_attention_heads)    # (rotary_pct 1)
        w.add_rope_scaling_type(gguf.RopeScalingType.NONE)
    elif arch == "stablelm":   # StableLMModel.set_gguf_parameters: no freq base, rope dims from the fraction, LN eps
        w.add_context_length(cfg.max_position_embeddings)
        w.add_embedding_length(cfg.hidden_size)
        w.add_block_count(cfg.num_hidden_layers)
        w.add_feed_forward_length(cfg.intermediate_size)
        w.add_rope_dimension_count(int(_rope(cfg)["partial_rotary_factor"]
                                       * (cfg.hidden_size // cfg.num_attention_heads)))
        w.add_head_count(cfg.num_attention_heads)
        w.add_head_count_kv(cfg.num_key_value_heads)
        w.add_parallel_residual(cfg.use_parallel_residual)
        w.add_layer_norm_eps(cfg.layer_norm_eps)
    elif arch == "phi2":     # Phi2Model.set_gguf_parameters: no freq base, LayerNorm eps, kv heads = heads
        w.add_context_length(cfg.max_position_embeddings)
        w.add_embedding_length(cfg.hidden_size)
        w.add_feed_forward_length(4 * cfg.hidden_size)
        w.add_block_count(cfg.num_hidden_layers)
        w.add_head_count(cfg.num_attention_heads)
        w.add_head_count_kv(cfg.num_attention_heads)
        w.add_layer_norm_eps(cfg.layer_norm_eps)
        w.add_rope_dimension_count(int(_rope(cfg)["partial_rotary_factor"] * cfg.hidden_size)
                                   // cfg.num_attention_heads)
    else:
        fx.add_shape_metadata(w, cfg)
    if arch in ("gemma2", "gemma3"):
        w.add_key_length(cfg.head_dim)
        w.add_value_length(cfg.head_dim)
        if arch == "gemma2" or getattr(cfg, "sliding_window_pattern", None) != 1:   # (Gemma3Model's test)
            w.add_sliding_window(cfg.sliding_window)
    if arch == "gemma2":
        w.add_attn_logit_softcapping(cfg.attn_logit_softcapping)
        w.add_final_logit_softcapping(cfg.final_logit_softcapping)
    elif arch == "gemma3":
        full = _rope(cfg, "full_attention")
        if full.get("rope_type") == "linear":
            w.add_rope_scaling_type(gguf.RopeScalingType.LINEAR)
            w.add_rope_scaling_factor(full["factor"])
        w.add_rope_freq_base_swa(_rope(cfg, "sliding_attention")["rope_theta"])
        w.add_rope_freq_base(full["rope_theta"])
    elif arch == "olmo2" and cfg.model_type == "olmo3":
        _olmo3_keys(w, cfg)
    elif arch == "exaone4":
        _exaone4_keys(w, cfg)
    elif arch == "olmo2":                  # TextModel's keys; Olmo2Model adds none for OLMo 2
        w.add_rope_freq_base(_rope(cfg)["rope_theta"])
    elif arch in ("qwen2moe", "qwen3moe", "olmoe"):
        w.add_rope_freq_base(_rope(cfg)["rope_theta"])
        w.add_expert_count(cfg.num_experts)
        w.add_expert_used_count(cfg.num_experts_per_tok)
        w.add_expert_feed_forward_length(getattr(cfg, "moe_intermediate_size", cfg.intermediate_size))
        if getattr(cfg, "head_dim", None):
            w.add_key_length(cfg.head_dim)
            w.add_value_length(cfg.head_dim)
    elif arch == "phi3":
        params = _rope(cfg)
        rot = int(params.get("partial_rotary_factor", 1.0) * cfg.hidden_size) // cfg.num_attention_heads
        original = cfg.original_max_position_embeddings
        w.add_rope_scaling_orig_ctx_len(original)
        w.add_rope_dimension_count(rot)
        w.add_rope_freq_base(params["rope_theta"])
        w.add_sliding_window(cfg.sliding_window or 0)
        if params.get("rope_type", "default") != "default":
            scale = cfg.max_position_embeddings / original
            w.add_rope_scaling_attn_factors(math.sqrt(1 + math.log(scale) / math.log(original)) if scale > 1
                                            else 1.0)
            w.add_tensor("rope_factors_long.weight", np.asarray(params["long_factor"], np.float32))
            w.add_tensor("rope_factors_short.weight", np.asarray(params["short_factor"], np.float32))
    elif arch == "gpt-oss":
        _gpt_oss_keys(w, cfg)
    fx.add_byte_vocabulary(w, pre={"gpt-oss": "gpt-4o", "starcoder2": "starcoder"}.get(arch, "smollm"))
    stored = {}
    weights = fx.hf_weights(model)
    if arch == "stablelm":
        weights = _stacked_qk_norms(weights)
    for hf, arr in weights.items():
        if hf == "lm_head.weight" and (arch in ("gemma2", "gemma3") or cfg.tie_word_embeddings):
            continue
        if hf.endswith("mlp.experts.gate_up_proj"):           # transformers 5's fused experts: gate, then up
            layer = hf.split(".")[1]
            for part, half in zip(("gate", "up"), np.split(arr, 2, axis=1)):
                stored[f"blk.{layer}.ffn_{part}_exps.weight"] = fx.add_weight(
                    w, f"blk.{layer}.ffn_{part}_exps.weight", np.ascontiguousarray(half), "F16")
            continue
        if arch == "gpt-oss" and ".mlp.experts." in hf:
            stored.update(_gpt_oss_experts(w, hf, arr, expert_qtype))
            continue
        name = names.get_name(hf if hf.startswith("lm_head.") else "model." + hf, try_suffixes=(".weight", ".bias"))
        assert name is not None, hf
        name += "" if name.endswith((".weight", ".bias")) else ".weight"        # ffn_down_exps (no suffix)
        if arch in ("gemma2", "gemma3") and hf.endswith("norm.weight"):
            arr = (arr + 1).astype(np.float32)
        # (ModelBase.prepare_tensors: 1-D tensors and every *_norm.weight, StableLM's stacked 2-D ones too, F32)
        stored[name] = fx.add_weight(w, name, arr, qtype, float32=name.endswith("_norm.weight"))
    return fx.finish_file(w, stored, edit)


def _exaone4_keys(w, cfg) -> None:
    """Exaone4Model.set_gguf_parameters (TextModel's keys: base, head_dim as key/value length; with a window, the
    window and one bool per layer from layer_types) and generate_extra_tensors (llama3: rope_freqs, its L0 the
    top-level original_max_position_embeddings, default 8192, as the converter reads it)."""
    params = _rope(cfg)
    w.add_rope_freq_base(params["rope_theta"])
    if getattr(cfg, "head_dim", None):
        w.add_key_length(cfg.head_dim)
        w.add_value_length(cfg.head_dim)
    if cfg.sliding_window is not None:
        w.add_sliding_window(cfg.sliding_window)
        w.add_sliding_window_pattern([t == "sliding_attention" for t in cfg.layer_types])
    if params.get("rope_type") == "llama3":
        from explorer.backend.models.gguf_rope_freqs import llama_cpp_factors

        head_dim = getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads
        w.add_tensor("rope_freqs.weight", llama_cpp_factors(
            params["rope_theta"], head_dim, params.get("factor", 16.0), params.get("low_freq_factor", 1.0),
            params.get("high_freq_factor", 4.0), getattr(cfg, "original_max_position_embeddings", None) or 8192))


def _gpt_oss_keys(w, cfg) -> None:
    """GptOssModel.set_gguf_parameters (TextModel's keys, then its own)."""
    import gguf

    params = _rope(cfg)
    w.add_rope_freq_base(params["rope_theta"])
    w.add_key_length(cfg.head_dim)
    w.add_value_length(cfg.head_dim)
    w.add_expert_count(cfg.num_local_experts)
    w.add_expert_used_count(cfg.num_experts_per_tok)
    if params.get("rope_type") == "yarn":
        w.add_rope_scaling_type(gguf.RopeScalingType.YARN)
        w.add_rope_scaling_factor(params["factor"])
        w.add_rope_scaling_orig_ctx_len(params["original_max_position_embeddings"])
        for beta in ("beta_fast", "beta_slow"):
            if params.get(beta) is not None:
                getattr(w, f"add_rope_scaling_yarn_{beta}")(params[beta])
    w.add_sliding_window(cfg.sliding_window)
    w.add_expert_feed_forward_length(cfg.intermediate_size)


def _gpt_oss_experts(w, hf: str, arr: np.ndarray, qtype: str) -> dict[str, np.ndarray]:
    """One GPT-OSS expert tensor as GptOssModel.modify_tensors writes it; the stored arrays by GGUF name."""
    import gguf

    layer = hf.split(".")[1]

    def put(part: str, kind: str, a: np.ndarray) -> tuple[str, np.ndarray]:
        name = f"blk.{layer}.ffn_{part}_exps.{kind}"
        a = np.ascontiguousarray(a, dtype=np.float32)
        if kind == "bias" or qtype == "F16":
            return name, fx.add_weight(w, name, a, "F16", float32=kind == "bias")
        q = gguf.quants.quantize(a, gguf.GGMLQuantizationType.MXFP4)
        w.add_tensor(name, q, raw_dtype=gguf.GGMLQuantizationType.MXFP4)
        return name, gguf.quants.dequantize(q, gguf.GGMLQuantizationType.MXFP4)

    if hf.endswith("gate_up_proj"):                  # (E, d, 2 ff), gate and up interleaved in the last axis
        rows = np.swapaxes(arr, -1, -2)              # (E, 2 ff, d)
        return dict([put("gate", "weight", rows[:, ::2]), put("up", "weight", rows[:, 1::2])])
    if hf.endswith("gate_up_proj_bias"):             # (E, 2 ff)
        return dict([put("gate", "bias", arr[..., ::2]), put("up", "bias", arr[..., 1::2])])
    if hf.endswith("down_proj"):                     # (E, ff, d)
        return dict([put("down", "weight", np.swapaxes(arr, -1, -2))])
    assert hf.endswith("down_proj_bias"), hf
    return dict([put("down", "bias", arr)])


def _olmo3_keys(w, cfg) -> None:
    """Olmo2Model.set_gguf_parameters for an Olmo3ForCausalLM (its full layers' YaRN or linear scaling as
    TextModel writes a 4.x rope_scaling)."""
    import gguf

    full = _rope(cfg, "full_attention")
    w.add_rope_freq_base(full["rope_theta"])
    kind = full.get("rope_type", "default")
    if kind in ("yarn", "linear"):
        w.add_rope_scaling_type(gguf.RopeScalingType.YARN if kind == "yarn" else gguf.RopeScalingType.LINEAR)
        w.add_rope_scaling_factor(full["factor"])
        if kind == "yarn":                 # (conversion/base.py: the betas, attention_factor when given)
            w.add_rope_scaling_orig_ctx_len(full["original_max_position_embeddings"])
            for key, add in (("beta_fast", w.add_rope_scaling_yarn_beta_fast),
                             ("beta_slow", w.add_rope_scaling_yarn_beta_slow),
                             ("attention_factor", w.add_rope_scaling_yarn_attn_factor)):
                if full.get(key) is not None:
                    add(full[key])
    w.add_sliding_window(cfg.sliding_window)
    w.add_sliding_window_pattern([t == "sliding_attention" for t in cfg.layer_types])
