"""Write a tiny transformers model of any RoPE family as llama.cpp's convert_hf_to_gguf.py would.

llama: q/k rows (and their biases) permuted with LlamaModel.permute; smollm3: the same (SmolLM3Model(LlamaModel));
granite: the same (GraniteModel(LlamaModel)) and its multipliers as granite.embedding_scale / attention.scale /
residual_scale / logit_scale, each written only when non-zero (GraniteModel.set_gguf_parameters); qwen2 / qwen3:
stored as Hugging Face has them (Qwen2Model(TextModel) has no permutation), q/k/v biases, Qwen3's attn_q_norm /
attn_k_norm; seed_oss: unpermuted (SeedOssModel(TextModel)), q/k/v biases, post_attention_layernorm as
post_attention_norm; mistral3: permuted, with Ministral3Model's YaRN and temperature keys (add_mistral3_keys);
gemma: every *norm.weight + 1 (GemmaModel.modify_tensors), no output.weight; key_length = head_dim; ernie4_5 /
ernie4_5-moe: as Hugging Face has them (Ernie4_5Model(TextModel)), the MoE keys and its router, experts (stacked)
and shared experts under their GGUF names (add_ernie_moe); hunyuan-dense / hunyuan-moe: as stored, query_layernorm /
key_layernorm as attn_q_norm / attn_k_norm, a "dynamic" RoPE's alpha folded into freq_base (add_hunyuan_rope), the
MoE's experts and router left out; apertus: unpermuted (ApertusModel.undo_permute False), rope.dimension_count,
attention_layernorm / feedforward_layernorm as attn_norm / ffn_norm, each layer's xIELU parameters as the xielu.*
keys, a llama3 RoPE as rope_freqs.weight (add_apertus_extras); olmo: OlmoModel(TextModel) permutes q/k rows as
LlamaModel does (weights only: OLMo has no biases), writes attention.layer_norm_epsilon 1e-5 and, with a clip_qkv,
attention.clamp_kqv; no rope.dimension_count.
2-D tensors F16 or Q8_0 (a tensor whose width is not a multiple of 32 falls back to F16, as llama.cpp's
quantizer does), norms and biases F32. The vocabulary is tests/gguf_fixtures.py's byte-level one.
"""

from __future__ import annotations

import re

import numpy as np

from tests import gguf_fixtures as fx

# LlamaModel and its subclasses (GraniteModel, SmolLM3Model, Ministral3Model): rope.dimension_count, q/k rows permuted
LLAMA_LIKE = ("llama", "granite", "granitemoe", "smollm3", "mistral3")
PERMUTED = LLAMA_LIKE + ("olmo",)        # OlmoModel.modify_tensors: LlamaModel.permute, copied
BLOCK = dict(fx.BLOCK, **{"self_attn.q_norm": "attn_q_norm", "self_attn.k_norm": "attn_k_norm",
                          "self_attn.query_layernorm": "attn_q_norm", "self_attn.key_layernorm": "attn_k_norm"})
HUNYUAN = ("hunyuan-dense", "hunyuan-moe")
# by architecture, where gguf-py's tensor_mapping.py names a part otherwise (MODEL_TENSORS[SEED_OSS] has
# ATTN_POST_NORM, no FFN_NORM: the layer's post_attention_layernorm is blk.N.post_attention_norm)
ARCH_BLOCK = {"seed_oss": dict(BLOCK, post_attention_layernorm="post_attention_norm"),
              "apertus": dict(BLOCK, attention_layernorm="attn_norm", feedforward_layernorm="ffn_norm")}


def gguf_name(hf: str, arch: str = "llama") -> str:
    if hf in fx.GGUF_NAMES:
        return fx.GGUF_NAMES[hf]
    _, layer, rest = hf.split(".", 2)
    base, kind = rest.rsplit(".", 1)
    return f"blk.{layer}.{ARCH_BLOCK.get(arch, BLOCK)[base]}.{kind}"


def write_family_gguf(path, model, arch: str, qtype: str = "F16", rope_freqs=None,
                      vocabulary=None, hparams: dict | None = None, edit=None) -> dict[str, np.ndarray]:
    """Write `model` (a transformers *ForCausalLM) as a GGUF of `arch`; the stored float32 arrays by GGUF name.

    vocabulary(writer), if given, writes the tokenizer metadata instead of the byte-level default; hparams
    (granite), if given, stands for the config.json the converter read (a key it lacks is not written); edit(writer,
    stored), if given, damages the file before it is written (gguf_fixtures.finish_file)."""
    import gguf

    cfg = model.config
    head_dim = getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads
    w = gguf.GGUFWriter(str(path), arch)
    fx.add_shape_metadata(w, cfg)
    if arch in HUNYUAN:
        add_hunyuan_rope(w, cfg, arch)
    elif arch != "gemma":                     # GemmaModel writes no freq base (llama.cpp's default 10000)
        w.add_rope_freq_base(cfg.rope_parameters["rope_theta"])
    if arch in LLAMA_LIKE or arch == "apertus":     # LlamaModel.set_gguf_parameters
        w.add_rope_dimension_count(head_dim)
    if arch in ("granite", "granitemoe"):
        read = cfg.to_dict() if hparams is None else hparams
        for key, add in (("attention_multiplier", w.add_attention_scale), ("embedding_multiplier", w.add_embedding_scale),
                         ("residual_multiplier", w.add_residual_scale), ("logits_scaling", w.add_logit_scale)):
            if read.get(key):
                add(read[key])
    if arch == "olmo":                        # OlmoModel.set_gguf_parameters
        w.add_layer_norm_eps(1e-5)
        if cfg.clip_qkv is not None:
            w.add_clamp_kqv(cfg.clip_qkv)
    if arch == "mistral3":
        add_mistral3_keys(w, cfg.rope_parameters)
    if arch == "ernie4_5-moe":
        add_ernie_moe_keys(w, cfg)
    if getattr(cfg, "head_dim", None):        # TextModel.set_gguf_parameters: key/value length = head_dim
        w.add_key_length(head_dim)
        w.add_value_length(head_dim)
    if vocabulary is not None:
        vocabulary(w)
    else:
        fx.add_byte_vocabulary(w)
    stored = {}
    tied = getattr(cfg, "tie_word_embeddings", False)
    for hf, arr in fx.hf_weights(model).items():
        if hf == "lm_head.weight" and (tied or arch == "gemma"):
            continue
        if ".block_sparse_moe." in hf or ".shared_mlp." in hf:     # (Granite MoE's experts: never read)
            continue
        if hf == "lm_head.bias" or arch == "ernie4_5-moe" and ERNIE_MOE_MLP.search(hf):   # (ERNIE's MLP: below)
            continue
        if ".mlp.experts." in hf or ".mlp.gate." in hf:           # (Hunyuan-A13B's experts and router: never read)
            continue
        if ".mlp.act_fn." in hf:                                   # (Apertus's xIELU: keys, add_apertus_extras)
            continue
        name = gguf_name(hf, arch)
        if arch in PERMUTED and ".self_attn.q_proj." in hf:
            arr = fx.permute(arr, cfg.num_attention_heads, cfg.num_attention_heads)
        elif arch in PERMUTED and ".self_attn.k_proj." in hf:
            arr = fx.permute(arr, cfg.num_attention_heads, cfg.num_key_value_heads)
        if arch == "gemma" and hf.endswith("norm.weight"):
            arr = (arr + 1).astype(np.float32)
        stored[name] = fx.add_weight(w, name, arr, qtype)
    if arch == "ernie4_5-moe":
        stored.update(add_ernie_moe_tensors(w, model))
    if arch == "apertus":
        add_apertus_extras(w, model, head_dim)
    if rope_freqs is not None:
        w.add_tensor("rope_freqs.weight", np.asarray(rope_freqs, dtype=np.float32))
    return fx.finish_file(w, stored, edit)


def add_apertus_extras(w, model, head_dim: int) -> None:
    """ApertusModel.modify_tensors: each layer's act_fn.alpha_n / alpha_p / beta / eps as one float a layer in the
    xielu.* keys; LlamaModel.generate_extra_tensors: a llama3 RoPE as rope_freqs.weight (its L0 the top-level
    original_max_position_embeddings, default 8192, as the converter reads it)."""
    weights = fx.hf_weights(model)
    for part, add in (("alpha_n", w.add_xielu_alpha_n), ("alpha_p", w.add_xielu_alpha_p),
                      ("beta", w.add_xielu_beta), ("eps", w.add_xielu_eps)):
        add([float(weights[f"layers.{il}.mlp.act_fn.{part}"].reshape(-1)[0])
             for il in range(model.config.num_hidden_layers)])
    params = model.config.rope_parameters
    if params.get("rope_type") == "llama3":
        from explorer.backend.models.gguf_rope_freqs import llama_cpp_factors

        original = getattr(model.config, "original_max_position_embeddings", None) or 8192
        w.add_tensor("rope_freqs.weight", llama_cpp_factors(
            params["rope_theta"], head_dim, params.get("factor", 8.0), params.get("low_freq_factor", 1.0),
            params.get("high_freq_factor", 4.0), original))


def add_hunyuan_rope(w, cfg, arch: str) -> None:
    """HunYuanModel / HunYuanMoEModel.set_gguf_parameters: a "dynamic" RoPE's alpha folded into freq_base,
    base x alpha ^ (dim / (dim - 2)) with dim head_dim (dense) or hidden / heads (MoE), scaling type none, factor 1,
    original context 262,144 (the 262,144 context_length it also writes is left out: the shape keys have one);
    any other RoPE: TextModel's freq base alone."""
    import gguf

    rope = cfg.rope_parameters
    if rope.get("rope_type") != "dynamic":
        w.add_rope_freq_base(rope["rope_theta"])
        return
    alpha = rope.get("alpha", 50 if arch == "hunyuan-dense" else 1000)
    dim = cfg.head_dim if arch == "hunyuan-dense" else cfg.hidden_size // cfg.num_attention_heads
    w.add_rope_freq_base(rope["rope_theta"] * (alpha ** (dim / (dim - 2))))
    w.add_rope_scaling_type(gguf.RopeScalingType.NONE)
    w.add_rope_scaling_factor(1)
    w.add_rope_scaling_orig_ctx_len(256 * 1024)


def add_mistral3_keys(w, rope: dict) -> None:
    """TextModel.set_gguf_parameters' YaRN keys (betas when set) and Ministral3Model's yarn_log_multiplier
    (mscale_all_dim) and attention.temperature_scale (llama_4_scaling_beta)."""
    import gguf

    if rope.get("rope_type") == "yarn":
        w.add_rope_scaling_type(gguf.RopeScalingType.YARN)
        w.add_rope_scaling_factor(rope["factor"])
        w.add_rope_scaling_orig_ctx_len(rope["original_max_position_embeddings"])
        for key, add in (("beta_fast", w.add_rope_scaling_yarn_beta_fast),
                         ("beta_slow", w.add_rope_scaling_yarn_beta_slow)):
            if rope.get(key) is not None:
                add(rope[key])
        w.add_rope_scaling_yarn_log_mul(rope["mscale_all_dim"])
        w.add_attn_temperature_scale(rope["llama_4_scaling_beta"])


def add_ernie_moe_keys(w, cfg) -> None:
    """Ernie4_5MoeModel.set_gguf_parameters' expert keys (moe_layer_start_index: leading dense blocks)."""
    w.add_expert_count(cfg.moe_num_experts)
    w.add_expert_used_count(cfg.moe_k)
    w.add_interleave_moe_layer_step(cfg.moe_layer_interval)
    w.add_leading_dense_block_count(cfg.moe_layer_start_index)
    w.add_expert_feed_forward_length(cfg.moe_intermediate_size)
    w.add_expert_shared_count(cfg.moe_num_shared_experts)


def add_ernie_moe_tensors(w, model) -> dict[str, np.ndarray]:
    """An ERNIE 4.5 MoE's MLP tensors, F32, as the converter names them (ffn_gate_inp, exp_probs_b, the experts
    stacked as ffn_gate_exps / ffn_up_exps / ffn_down_exps, the shared experts as *_shexp); by GGUF name."""
    out = {}
    for hf, arr in fx.hf_weights(model).items():
        found = ERNIE_MOE_MLP.search(hf)
        if not found:
            continue
        layer, part = hf.split(".")[1], found.group(0)
        if part == ".mlp.experts.gate_up_proj":               # (experts, 2 x moe_intermediate, hidden)
            half = arr.shape[1] // 2
            pieces = {"ffn_gate_exps.weight": arr[:, :half], "ffn_up_exps.weight": arr[:, half:]}
        else:
            pieces = {ERNIE_MOE_NAMES[part]: arr}
        for name, piece in pieces.items():
            out[f"blk.{layer}.{name}"] = np.ascontiguousarray(piece, dtype=np.float32)
            w.add_tensor(f"blk.{layer}.{name}", out[f"blk.{layer}.{name}"])
    return out


ERNIE_MOE_NAMES = {".mlp.gate.weight": "ffn_gate_inp.weight",
                   ".mlp.gate.moe_statics.e_score_correction_bias": "exp_probs_b.bias",
                   ".mlp.experts.down_proj": "ffn_down_exps.weight",
                   **{f".mlp.shared_experts.{p}_proj.{k}": f"ffn_{p}_shexp.{k}" for p in ("gate", "up", "down")
                      for k in ("weight", "bias")}}
ERNIE_MOE_MLP = re.compile("|".join(re.escape(k) for k in [*ERNIE_MOE_NAMES, ".mlp.experts.gate_up_proj"]) + "$")


def write_saved(folder, family: str, arch: str, qtype: str, seed: int, settings: dict):
    """A random float16-exact `family` model saved into folder/hf (save_pretrained) and written as folder/m.gguf
    of `arch`; the torch model."""
    torch_model = fp16_random_model(family, folder / "hf", seed, settings)
    torch_model.save_pretrained(folder / "hf")       # (the folder holds the float16-rounded weights too)
    write_family_gguf(folder / "m.gguf", torch_model, arch, qtype)
    return torch_model


def written_fixture(tag: str, write, arch: str = "llama"):
    """A module-scoped pytest fixture over F16 and Q8_0: write(folder, qtype) writes folder/hf and folder/m.gguf
    and returns the torch model; the fixture yields (torch model holding what the file holds, opened GGUF, the
    folder's torch model, folder)."""
    import pytest

    from explorer.backend.models.hf_folder import open_model

    @pytest.fixture(scope="module", params=["F16", "Q8_0"])
    def written(request, tmp_path_factory):
        folder = tmp_path_factory.mktemp(f"{tag}-{request.param}")
        torch_model = write(folder, request.param)
        with open_model(str(folder / "m.gguf")) as model:
            yield held_as_stored(torch_model, folder / "m.gguf", model.tensors.names(), request.param, arch), model, \
                torch_model, folder

    return written


def held_as_stored(torch_model, path, names, qtype: str, arch: str = "llama"):
    """The torch model holding what a llama-like file (or one of `arch`, stored unpermuted: seed_oss) at path holds:
    itself for F16 (held exactly), else a copy holding gguf's own dequantization of the stored blocks, LlamaModel's
    permutation undone."""
    if qtype == "F16":
        return torch_model
    import copy

    import torch

    from tests.test_gguf_archs import gguf_side_weights

    held = copy.deepcopy(torch_model)
    weights = gguf_side_weights(str(path), arch, held.config, names)
    held.load_state_dict({k: torch.from_numpy(weights[k.removeprefix("model.")]) for k in held.state_dict()
                          if k.removeprefix("model.") in weights}, strict=False)
    return held


def fp16_random_model(family: str, folder, seed: int, settings: dict):
    """A random `family` model (tests/models_helpers.py) of config `settings`, eager attention, saved into
    folder and rounded to float16 in place (an F16 file then holds it exactly); the torch model."""
    import torch

    from tests import models_helpers as mh

    config_class, model_class = mh.classes(family)
    torch.manual_seed(seed)
    config = config_class(**settings)
    config._attn_implementation = "eager"
    model = mh.save_random(model_class(config).eval(), folder)
    fp16_exact(model)
    return model


def fp16_exact(model) -> None:
    """Round the model's 2-D weights to float16 in place, so an F16 file holds them exactly."""
    import torch

    with torch.no_grad():
        for p in model.parameters():
            if p.ndim == 2:
                p.copy_(p.half().float())
