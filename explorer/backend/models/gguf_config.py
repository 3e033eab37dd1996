"""A GGUF file's metadata as a transformers-style config.json dict, architecture by architecture (what
gguf_archs.py and gguf_gemma_phi3.py say each means); the header only, no tensor data. No Qt."""

from __future__ import annotations

from explorer.backend.models.config_rope import PARTIAL_DEFAULTS, rotary_fraction
from explorer.backend.models.family_tables import FAMILIES, LAYER_NORM_EPS
from explorer.backend.models.gguf_archs import (
    SUPPORTED_ARCHITECTURES,
    arch_of,
    check_whole_head,
    granite_scales,
)
from explorer.backend.models.gguf_apertus import apertus_config
from explorer.backend.models.gguf_archs import meta_float as _float
from explorer.backend.models.gguf_archs import meta_int as _int
from explorer.backend.models.gguf_chatglm import chatglm_config
from explorer.backend.models.gguf_cohere import cohere_config
from explorer.backend.models.gguf_deepseek import deepseek_config
from explorer.backend.models.gguf_falcon import FUSED_ARCHS
from explorer.backend.models.gguf_gemma_phi3 import PHI3_FACTORS, gemma_config, layer_count
from explorer.backend.models.gguf_glm import GLM_ARCHS, glm_config
from explorer.backend.models.gguf_gpt_oss import gpt_oss_config
from explorer.backend.models.gguf_header import Header
from explorer.backend.models.gguf_hunyuan import HUNYUAN_ARCHS, hunyuan_config
from explorer.backend.models.gguf_learned import learned_config
from explorer.backend.models.gguf_llama4 import llama4_config
from explorer.backend.models.gguf_mistral3 import mistral3_config
from explorer.backend.models.gguf_nemotron import nemotron_config
from explorer.backend.models.gguf_olmo import olmo_config
from explorer.backend.models.gguf_olmo3 import is_olmo3, olmo3_config
from explorer.backend.models.gguf_qwen_vl import VL_ARCHS, qwen_vl_config
from explorer.backend.models.gguf_rope_freqs import ROPE_FREQS
from explorer.backend.models.gguf_seed_oss import seed_oss_config
from explorer.backend.models.gguf_exaone4 import exaone4_config
from explorer.backend.models.gguf_smollm3 import smollm3_config
from explorer.errors import require, shown


# YaRN metadata whose effect on llama.cpp's rotation PE Explorer does not model: a file with any is refused
# (rope.scaling.attn_factor multiplies cos and sin in every architecture). The converter's yarn_beta_fast /
# _slow, yarn_ext_factor and yarn_attn_factor are read only by other architectures' loaders (Grok, Mistral 3, ...;
# "beta_fast/slow are not [read by the common loader]"), and llama_context sets the YaRN attention factor itself
# (get_mscale(factor), cancelled against the kernel's 1 + 0.1 ln factor): in the architectures read here they
# change nothing, and are not read. yarn_log_multiplier too, except in deepseek2 (gguf_deepseek.py)
YARN_UNREAD = ("attn_factor",)


def config_from_metadata(header: Header, where: str) -> dict:
    """A transformers-style config.json dict for a GGUF of one of SUPPORTED_ARCHITECTURES (llama, qwen2, qwen3,
    their MoE, the Gemmas, phi3, phi2, granite, olmo2 (and OLMo 3), stablelm, gpt-oss, starcoder2, smollm3,
    olmoe, command-r, cohere2, deepseek2, granitemoe, llama4, mistral3, ernie4_5, ernie4_5-moe, hunyuan-dense,
    hunyuan-moe, seed_oss, apertus, olmo, exaone4, glm4, glm4moe, qwen2vl, qwen3vl, qwen3vlmoe, gpt2, bert, starcoder,
    bloom, mpt, falcon, gptneox; chatglm; nemotron; t5, t5encoder); InputError for others."""
    f = header.fields
    arch = f.get("general.architecture")
    require(isinstance(arch, str), "%1: metadata general.architecture is missing", where)
    require(arch in SUPPORTED_ARCHITECTURES, "%1: architecture %2 is not supported; supported: %3", where, repr(arch),
                                             ", ".join(SUPPORTED_ARCHITECTURES))
    spec = arch_of(f, where)
    if spec.learned:
        return learned_config(header, arch, where)
    # their own keys (gguf_bloom.py, gguf_mpt.py: ALiBi; gguf_falcon.py, gguf_gptneox.py: RoPE)
    if arch in FUSED_ARCHS:
        return FUSED_ARCHS[arch][1](header, where)
    d = _int(f, f"{arch}.embedding_length", where)
    heads = _int(f, f"{arch}.attention.head_count", where)
    kv = _int(f, f"{arch}.attention.head_count_kv", where, default=heads)
    head_dim = _int(f, f"{arch}.attention.key_length", where, default=d // heads)
    require(heads % kv == 0, "%1: %2 attention heads cannot share %3 key/value heads", where, heads, kv)
    mla = arch == "deepseek2"              # (its key_length may be the compressed MQA head's: gguf_deepseek.py)
    require(mla or head_dim % 2 == 0, "%1: head dimension %2 must be even for RoPE", where, head_dim)
    # llama.cpp's stablelm, olmo, olmo2 and qwen2vl size their heads (qwen2vl: its q) embedding_length / head_count,
    # whatever key_length says
    require(arch not in ("stablelm", "olmo", "olmo2", "qwen2vl") or (d % heads == 0 and head_dim == d // heads),
            "%1: metadata %2.attention.key_length is %3; llama.cpp's %2 takes embedding_length / head_count "
            "(%4 / %5) channels a head", where, arch, head_dim, d, heads)
    embed = header.tensors.get("token_embd.weight")
    require(embed is not None and len(embed.ne) == 2 and embed.ne[0] == d,
            "%1: tensor token_embd.weight is missing or not (vocab, %2)", where, d)
    config = {
        "model_type": spec.model_type, "architectures": [spec.hf_class],
        "hidden_size": d, "num_hidden_layers": layer_count(f, arch, where),
        "num_attention_heads": heads, "num_key_value_heads": kv, "head_dim": head_dim,
        "intermediate_size": _int(f, f"{arch}.feed_forward_length", where, default=4 * d),
        "vocab_size": int(embed.ne[1]),
        "max_position_embeddings": _int(f, f"{arch}.context_length", where, default=2048),
        "rope_theta": _float(f, f"{arch}.rope.freq_base", where, default=10000.0),
        "tie_word_embeddings": "output.weight" not in header.tensors,
        spec.hidden_act[0]: spec.hidden_act[1], "attention_bias": "blk.0.attn_q.bias" in header.tensors,
    }
    family = FAMILIES[spec.model_type]
    if family in LAYER_NORM_EPS:           # LayerNorms (their epsilon a config key of its own)
        config[LAYER_NORM_EPS[family]] = _float(f, f"{arch}.attention.layer_norm_epsilon", where)
    elif arch != "olmo":                   # (OLMo 1's LayerNorm without weight: gguf_olmo.py reads its eps)
        config["rms_norm_eps"] = _float(f, f"{arch}.attention.layer_norm_rms_epsilon", where)
    require(config["rope_theta"] > 1, "%1: metadata %2 is %3; RoPE's base must be > 1", where,
            f"{arch}.rope.freq_base", repr(config["rope_theta"]))
    rot = _int(f, f"{arch}.rope.dimension_count", where, default=head_dim)
    require(mla or (rot <= head_dim and rot % 2 == 0), "%1: RoPE dimension %2 must be even and <= %3", where, rot,
            head_dim)
    if not mla and (rot != head_dim or spec.model_type in PARTIAL_DEFAULTS):   # (defaults below 1: Phi's 0.5, ...)
        config["partial_rotary_factor"] = rotary_fraction(rot, head_dim)
    # llama.cpp's common loader: the type defaults to "linear", the factor is rope.scaling.factor or the older
    # rope.scale_linear, and a type "none" never scales (llama_context)
    factor_key = next((k for k in (f"{arch}.rope.scaling.factor", f"{arch}.rope.scale_linear") if k in f),
                      f"{arch}.rope.scaling.factor")
    kind = f.get(f"{arch}.rope.scaling.type", "linear")
    require(isinstance(kind, str), "%1: metadata %2 must be a string, not %3", where, f"{arch}.rope.scaling.type",
            shown(kind))
    given = f.get(factor_key, 0)
    if kind == "linear" and isinstance(given, (int, float)) and not isinstance(given, bool) and given == 0:
        kind = "none"                      # (no factor, or 0: freq_scale 1, no scaling)
    kinds = ("none", "linear", "yarn") + (("longrope",) if arch == "phi3" else ())   # Phi-3's: its factor tensors
    require(kind in kinds, "%1: rope scaling %2 is not supported (%3)", where, repr(kind), ", ".join(kinds))
    if kind not in ("none", "longrope"):
        scaling = {"rope_type": kind, "factor": _float(f, factor_key, where)}
        if kind == "yarn":
            scaling["original_max_position_embeddings"] = _int(
                f, f"{arch}.rope.scaling.original_context_length", where)
            # (the betas stay llama.cpp's 32 and 1, transformers' defaults; see YARN_UNREAD)
            for key in (f"{arch}.rope.scaling.{k}" for k in YARN_UNREAD):
                require(key not in f, "%1: metadata %2 is not read: llama.cpp's YaRN with it may rotate q and "
                                      "k otherwise than PE Explorer would", where, key)
        config["rope_scaling"] = scaling
    _check_attn_factor(header, arch, kind, where)
    if ROPE_FREQS in header.tensors:
        # (llama.cpp reads it in other architectures too, granite's among them; PE Explorer models it for llama)
        require(arch in ("llama", "llama4", "exaone4", "apertus") and kind == "none", "%1: tensor %2 is only read "
                "in a 'llama', 'llama4', 'exaone4' or 'apertus' file without rope scaling metadata", where, ROPE_FREQS)
    if arch in ("gemma2", "gemma3"):
        gemma_config(f, arch, config, where)
    if arch == "gpt-oss":
        gpt_oss_config(f, config, kind, where)
    if arch in ("command-r", "cohere2"):
        cohere_config(f, arch, config, header.tensors, where)
    if arch == "deepseek2":                # MLA: a head's widths, the latent's, YaRN's logit scale
        deepseek_config(f, config, kind, where)
    if arch == "llama4":                   # NoPE layers, chunks, temperature, q/k norm: fixed by llama.cpp
        llama4_config(f, config, where)
    if arch in GLM_ARCHS:                  # NextN layers, GLM-4.5's q/k norms; GLM-4V refused
        glm_config(f, arch, config, header.tensors, where)
    if arch == "chatglm":                  # GLM-4 of 2024: its rotated fraction; fused or separate q/k/v, every layer
        chatglm_config(header, config, where)
    check_whole_head(arch, rot, head_dim, where)
    if arch in VL_ARCHS:                   # M-RoPE: plain RoPE for text unless a pair takes the 4th position
        qwen_vl_config(f, arch, config, where)
    if arch in ("granite", "granitemoe"):  # their two multipliers, as llama.cpp's granite graph reads them
        granite_scales(f, config, where, arch)
    if arch == "smollm3":                  # llama.cpp's every-4th-layer NoPE; every layer's q/k/v
        smollm3_config(config, header.tensors, where)
    if arch == "seed_oss":                 # every layer's q/k/v and q/k biases; only the tensors llama.cpp loads
        seed_oss_config(config, header.tensors, where)
    if arch == "apertus":                  # plain RoPE without rope_freqs; every layer's tensors, the xIELU keys
        apertus_config(f, config, header.tensors, where)
    if arch == "olmo":                     # OLMo 1: the eps and clamp_kqv; every layer's tensors, no norm tensors
        olmo_config(f, config, header.tensors, where)
    if arch == "nemotron":                 # every tensor its loader requires (output too), and no other
        nemotron_config(config, header.tensors, where)
    if arch == "mistral3":                 # Ministral 3: its YaRN as llama.cpp turns it, q's temperature scale
        mistral3_config(f, config, kind, where)
    if arch in HUNYUAN_ARCHS:              # no attention biases (the alpha is in freq_base already)
        hunyuan_config(arch, config, header.tensors, where)
    if arch == "exaone4":                  # a window only in a 64-layer file, as llama.cpp's loader decides
        exaone4_config(f, config, where)
    if arch == "olmo2" and is_olmo3(f, where):
        olmo3_config(f, config, where)
    if arch in ("starcoder2", "ernie4_5", "ernie4_5-moe"):    # their configs read use_bias, not attention_bias
        config["use_bias"] = config["attention_bias"]
    if arch == "qwen2moe":                 # Qwen2MoeConfig reads qkv_bias (default true), not attention_bias
        config["qkv_bias"] = config["attention_bias"]
    if arch == "stablelm":                 # StableLmConfig's keys for its q/k/v biases and per-head q/k norms
        # (the model has both or neither of each pair: a file with one is refused by check_rope_layer0)
        config["use_qkv_bias"] = any(f"blk.0.attn_{x}.bias" in header.tensors for x in "qk")
        config["qk_layernorm"] = any(f"blk.0.attn_{x}_norm.weight" in header.tensors for x in "qk")
    for key, name in (("bos_token_id", "bos"), ("eos_token_id", "eos")):
        if isinstance(f.get(f"tokenizer.ggml.{name}_token_id"), int):
            config[key] = int(f[f"tokenizer.ggml.{name}_token_id"])
    return config


def _check_attn_factor(header: Header, arch: str, kind: str, where: str) -> None:
    """llama.cpp scales cos and sin by rope.scaling.attn_factor in every architecture (llama_context:
    yarn_attn_factor *= rope_attn_factor); PE Explorer reads it with Phi-3's LongRoPE factors only (YaRN
    files refuse it above): elsewhere a factor other than 1 is refused."""
    key = f"{arch}.rope.scaling.attn_factor"
    if key not in header.fields or kind == "yarn" or (arch == "phi3" and PHI3_FACTORS[0] in header.tensors):
        return
    value = header.fields[key]                           # (an array's == would be an array, not a bool)
    require(isinstance(value, (int, float)) and not isinstance(value, bool) and value == 1,
            "%1: metadata %2 is %3: llama.cpp scales cos and sin by it, which PE Explorer reads only with "
            "Phi-3's LongRoPE factors", where, key, repr(value))
