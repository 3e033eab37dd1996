"""What each GGUF architecture means in Hugging Face terms, the metadata readers
(`meta_int`, `meta_float`) and the RoPE families' layer-0 shape check.

Sources (ggml-org/llama.cpp, convert_hf_to_gguf.py):
- `LlamaModel` (general.architecture "llama"; also Hugging Face's MistralForCausalLM, so Mistral 7B files are
  "llama" too, and llama.cpp's `MistralModel` for Mistral-format checkpoints writes MODEL_ARCH.LLAMA):
  `modify_tensors` permutes q_proj / k_proj rows with `LlamaModel.permute` (undone by the reader).
- `Qwen2Model(TextModel)`, MODEL_ARCH.QWEN2: no `modify_tensors` permutation (llama.cpp runs Qwen2 with
  NEOX-style RoPE, Hugging Face's rotate-half), so q/k are stored as Hugging Face has them; q/k/v biases as
  `blk.N.attn_q.bias`. `Qwen3Model(Qwen2Model)`, MODEL_ARCH.QWEN3: the same plus `attn_q_norm` / `attn_k_norm`.
- `Qwen2MoeModel`, `Qwen3MoeModel` (MODEL_ARCH.QWEN2MOE / QWEN3MOE): attention as Qwen2's / Qwen3's; the
  experts (`ffn_*_exps`, 3-D), the router (`ffn_gate_inp`) and Qwen2-MoE's shared expert (`*_shexp`) are
  MLP tensors PE Explorer does not read.
- `GemmaModel(TextModel)`, MODEL_ARCH.GEMMA: `if name.endswith("norm.weight"): data_torch = data_torch + 1`
  (GemmaRMSNorm's (1 + w) baked in); no lm_head; `add_key_length(head_dim)`. The reader subtracts the 1 again.
- `Gemma2Model`, `Gemma3Model`, `Phi3MiniModel`: gguf_gemma_phi3.py (their layer-0 shapes:
  gguf_layer0.check_rope_layer0).
- `Phi2Model` (MODEL_ARCH.PHI2, Hugging Face's PhiForCausalLM): rope.dimension_count = int(partial_rotary_factor
  x n_embd) // n_head, no rope freq base (llama.cpp's 10,000), `attention.layer_norm_epsilon` (LayerNorms with
  biases); q/k/v as attn_q / attn_k / attn_v with biases, or, from the first Phi-2 checkpoints' mixer.Wqkv,
  one attn_qkv whose rows are q, k, v (llama.cpp's build of phi2 reads either).
- `GPT2Model(TextModel)` (MODEL_ARCH.GPT2), `BertModel(TextModel)` (MODEL_ARCH.BERT) and `StarCoderModel(TextModel)`
  (MODEL_ARCH.STARCODER, "starcoder": GPT-BigCode): learned positions, read by gguf_learned.py.
- `GraniteModel(LlamaModel)` (MODEL_ARCH.GRANITE, conversion/granite.py): Llama's tensors, q/k permuted; its
  `embedding_multiplier` and `attention_multiplier` written as `granite.embedding_scale` and
  `granite.attention.scale`, each only when non-zero. llama.cpp's granite graph scales the embeddings only by a
  non-zero scale and takes 1 / sqrt(head_dim) for a missing or zero attention scale (`kq_scale`), and asserts
  n_rot == head_dim.
- `StableLMModel(TextModel)` (MODEL_ARCH.STABLELM): its own keys (no rope freq base: llama.cpp's 10,000;
  rope.dimension_count = int(partial_rotary_factor x head_dim); attention.layer_norm_epsilon); tensors as
  Hugging Face has them (llama.cpp runs stablelm with NEOX RoPE), LayerNorms with biases, q/k/v biases when
  the model has them, and each layer's per-head q/k LayerNorm weights stacked into one (heads, head_dim)
  attn_q_norm / attn_k_norm (`_stack_qk_norm`).
- `Olmo2Model(TextModel)` (MODEL_ARCH.OLMO2): no permutation (llama.cpp runs olmo2 with NEOX RoPE,
  llama_model_rope_type); no attn_norm, attn_q_norm / attn_k_norm over all of q's and k's channels,
  post_attention_norm and post_ffw_norm. The same class writes OLMo 3 (Olmo3ForCausalLM) as `olmo2` with an
  attention.sliding_window, which llama.cpp reads as sliding layers (gguf_olmo3.py).
- `StarCoder2Model(TextModel)` (MODEL_ARCH.STARCODER2): TextModel's keys, `attention.layer_norm_epsilon`
  (LayerNorms with biases); no permutation (NEOX RoPE, starcoder2.cpp asserts n_rot == head_dim); q/k biases
  when the model has them. llama.cpp's starcoder2 graph has no sliding window (build_attn_inp_kv), so a file
  reads every earlier key where the checkpoint's config sets a window of 4,096.
- `OlmoeModel(TextModel)` (MODEL_ARCH.OLMOE): TextModel's keys, rms eps 1e-5, the experts stacked (unread);
  no permutation (NEOX); src/models/olmoe.cpp: an RMSNorm before attention, RMSNorms over all of q's and k's
  channels (k's sized n_embd: one kv head per head), no clamp (a checkpoint's clip_qkv is not carried).
- `CommandR2Model`, `Cohere2Model` (MODEL_ARCH.COMMAND_R "command-r", COHERE2): gguf_cohere.py.
- `GptOssModel(TextModel)` (MODEL_ARCH.GPT_OSS, "gpt-oss"): no permutation (NEOX RoPE), the sinks and sliding layers of
  gguf_gpt_oss.py; rope.dimension_count must be the head size (the graph reshapes q and k by it).
- `Llama4Model(LlamaModel)` (llama4): no permutation (NORM RoPE, Llama 4's pairs): gguf_llama4.py; Llama 3.x's and
  Llama 4's `rope_freqs.weight`: gguf_rope_freqs.py; `Ministral3Model(LlamaModel)` (mistral3): gguf_mistral3.py.
- `Ernie4_5Model(TextModel)` (MODEL_ARCH.ERNIE4_5, "ernie4_5"; conversion/ernie.py) and `Ernie4_5MoeModel`
  (ERNIE4_5_MOE, "ernie4_5-moe"): TextModel's keys and tensors, no permutation (a fused qkv_proj split into q, k,
  v); llama_model_rope_type (src/llama-model.cpp): NORM for both, neighbouring rows (2j, 2j + 1), which are
  ERNIE's own pairs (transformers' apply_rotary_pos_emb repeat_interleaves cos / sin); src/models/ernie4-5.cpp and
  ernie4-5-moe.cpp: RMSNorm, q/k/v biases when the file has them, kq_scale 1 / sqrt(head_dim),
  GGML_ASSERT(n_embd_head == n_rot); the experts, router and shared experts are MLP tensors, not read.
- `HunYuanModel`, `HunYuanMoEModel` (hunyuan-dense, hunyuan-moe: NEOX, no permutation, the alpha folded into
  freq_base): gguf_hunyuan.py.
- `Exaone4Model(TextModel)` (exaone4): gguf_exaone4.py (OLMo 2's post-norms, Qwen3's per-head q/k norms).
- `Glm4Model`, `Glm4MoeModel` (glm4, glm4moe): gguf_glm.py; `Qwen2VLModel`, `Qwen3VLTextModel`,
  `Qwen3VLMoeTextModel` (qwen2vl, qwen3vl, qwen3vlmoe: their text models): gguf_qwen_vl.py.
- `ChatGLMModel(TextModel)` (chatglm: GLM-4 of 2024 and ChatGLM, read as GlmForCausalLM): gguf_chatglm.py.
- `SeedOssModel(TextModel)` (MODEL_ARCH.SEED_OSS, "seed_oss"): no permutation (NEOX RoPE), the whole head turning,
  post_attention_norm for the layer's post_attention_layernorm: gguf_seed_oss.py.
- `GPTNeoXModel(TextModel)` (MODEL_ARCH.GPTNEOX, "gptneox": Pythia, GPT-NeoX-20B): BLOOM's q; k; v reorder of the
  fused query_key_value, NEOX RoPE over rope.dimension_count channels: gguf_gptneox.py.
- `ApertusModel(LlamaModel)` (MODEL_ARCH.APERTUS, "apertus"): undo_permute False (NEOX RoPE), per-head q/k norms
  before RoPE, Llama 3 from rope_freqs, the xIELU keys: gguf_apertus.py.
- `OlmoModel(TextModel)` (MODEL_ARCH.OLMO, "olmo": OLMo 1): q/k permuted as LlamaModel does (NORM RoPE), no norm
  tensors, the LayerNorm eps and clamp_kqv: gguf_olmo.py.
- `NemotronModel` (MODEL_ARCH.NEMOTRON, "nemotron"): no permutation (NEOX RoPE over rope.dimension_count channels),
  every *norm.weight + 1 (LayerNorm1P's), LayerNorms with biases: gguf_nemotron.py.
- `T5Model`, `T5EncoderModel` (MODEL_ARCH.T5 "t5", T5ENCODER "t5encoder": T5, mT5, UMT5): the encoder's names
  (enc.blk.N.*), its relative bias table attn_rel_b, no RoPE: gguf_t5.py; their Unigram vocabulary: gguf_ugm.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from explorer.backend.models.gguf_header import Header
from explorer.errors import require, shown


@dataclass(frozen=True)
class Arch:
    """One GGUF architecture: the Hugging Face model_type it reads as, and how llama.cpp changed its tensors."""

    model_type: str
    hf_class: str
    permuted_qk: bool          # LlamaModel.permute on q_proj / k_proj rows (and their biases)
    norm_shift: float          # added by the converter to every *norm.weight (Gemma: 1)
    hidden_act: tuple[str, str]
    learned: bool = False      # a learned position table (gguf_learned.py), not RoPE


ARCHS = {
    "llama": Arch("llama", "LlamaForCausalLM", True, 0.0, ("hidden_act", "silu")),
    "qwen2": Arch("qwen2", "Qwen2ForCausalLM", False, 0.0, ("hidden_act", "silu")),
    "qwen3": Arch("qwen3", "Qwen3ForCausalLM", False, 0.0, ("hidden_act", "silu")),
    "qwen2moe": Arch("qwen2_moe", "Qwen2MoeForCausalLM", False, 0.0, ("hidden_act", "silu")),
    "qwen3moe": Arch("qwen3_moe", "Qwen3MoeForCausalLM", False, 0.0, ("hidden_act", "silu")),
    "gemma": Arch("gemma", "GemmaForCausalLM", False, 1.0, ("hidden_activation", "gelu_pytorch_tanh")),
    "gemma2": Arch("gemma2", "Gemma2ForCausalLM", False, 1.0, ("hidden_activation", "gelu_pytorch_tanh")),
    "gemma3": Arch("gemma3_text", "Gemma3ForCausalLM", False, 1.0, ("hidden_activation", "gelu_pytorch_tanh")),
    "phi3": Arch("phi3", "Phi3ForCausalLM", False, 0.0, ("hidden_act", "silu")),
    "phi2": Arch("phi", "PhiForCausalLM", False, 0.0, ("hidden_act", "gelu_new")),
    "granite": Arch("granite", "GraniteForCausalLM", True, 0.0, ("hidden_act", "silu")),
    # (GraniteMoeModel writes GraniteMoeForCausalLM and GraniteMoeSharedForCausalLM as granitemoe: the same attention)
    "granitemoe": Arch("granitemoe", "GraniteMoeForCausalLM", True, 0.0, ("hidden_act", "silu")),
    "smollm3": Arch("smollm3", "SmolLM3ForCausalLM", True, 0.0, ("hidden_act", "silu")),   # gguf_smollm3.py
    "mistral3": Arch("ministral3", "Ministral3ForCausalLM", True, 0.0, ("hidden_act", "silu")),   # gguf_mistral3.py
    "hunyuan-dense": Arch("hunyuan_v1_dense", "HunYuanDenseV1ForCausalLM", False, 0.0,     # gguf_hunyuan.py
                          ("hidden_act", "silu")),
    "hunyuan-moe": Arch("hunyuan_v1_moe", "HunYuanMoEV1ForCausalLM", False, 0.0, ("hidden_act", "silu")),
    "seed_oss": Arch("seed_oss", "SeedOssForCausalLM", False, 0.0, ("hidden_act", "silu")),   # gguf_seed_oss.py
    "apertus": Arch("apertus", "ApertusForCausalLM", False, 0.0, ("hidden_act", "xielu")),   # gguf_apertus.py
    "olmo": Arch("olmo", "OlmoForCausalLM", True, 0.0, ("hidden_act", "silu")),   # OLMo 1: gguf_olmo.py
    "olmo2": Arch("olmo2", "Olmo2ForCausalLM", False, 0.0, ("hidden_act", "silu")),
    "exaone4": Arch("exaone4", "Exaone4ForCausalLM", False, 0.0, ("hidden_act", "silu")),   # gguf_exaone4.py
    "stablelm": Arch("stablelm", "StableLmForCausalLM", False, 0.0, ("hidden_act", "silu")),
    "gpt-oss": Arch("gpt_oss", "GptOssForCausalLM", False, 0.0, ("hidden_act", "silu")),
    "starcoder2": Arch("starcoder2", "Starcoder2ForCausalLM", False, 0.0, ("hidden_act", "gelu_pytorch_tanh")),
    "olmoe": Arch("olmoe", "OlmoeForCausalLM", False, 0.0, ("hidden_act", "silu")),
    "command-r": Arch("cohere", "CohereForCausalLM", False, 0.0, ("hidden_act", "silu")),
    "cohere2": Arch("cohere2", "Cohere2ForCausalLM", False, 0.0, ("hidden_act", "silu")),
    "deepseek2": Arch("deepseek_v2", "DeepseekV2ForCausalLM", False, 0.0, ("hidden_act", "silu")),
    "llama4": Arch("llama4_text", "Llama4ForCausalLM", False, 0.0, ("hidden_act", "silu")),
    "ernie4_5": Arch("ernie4_5", "Ernie4_5ForCausalLM", False, 0.0, ("hidden_act", "silu")),
    "ernie4_5-moe": Arch("ernie4_5_moe", "Ernie4_5_MoeForCausalLM", False, 0.0, ("hidden_act", "silu")),
    "glm4": Arch("glm4", "Glm4ForCausalLM", False, 0.0, ("hidden_act", "silu")),
    "glm4moe": Arch("glm4_moe", "Glm4MoeForCausalLM", False, 0.0, ("hidden_act", "silu")),
    "chatglm": Arch("glm", "GlmForCausalLM", False, 0.0, ("hidden_act", "silu")),   # gguf_chatglm.py
    # (Qwen2VLModel writes Qwen2-VL and Qwen2.5-VL alike: the same text model)
    "qwen2vl": Arch("qwen2_vl_text", "Qwen2VLForConditionalGeneration", False, 0.0, ("hidden_act", "silu")),
    "qwen3vl": Arch("qwen3_vl_text", "Qwen3VLForConditionalGeneration", False, 0.0, ("hidden_act", "silu")),
    "qwen3vlmoe": Arch("qwen3_vl_moe_text", "Qwen3VLMoeForConditionalGeneration", False, 0.0, ("hidden_act", "silu")),
    "gpt2": Arch("gpt2", "GPT2LMHeadModel", False, 0.0, ("activation_function", "gelu_new"), learned=True),
    "bert": Arch("bert", "BertModel", False, 0.0, ("hidden_act", "gelu"), learned=True),
    "starcoder": Arch("gpt_bigcode", "GPTBigCodeForCausalLM", False, 0.0, ("activation_function", "gelu_pytorch_tanh"),
                      learned=True),                                                  # GPT-BigCode: gguf_learned.py
    "bloom": Arch("bloom", "BloomForCausalLM", False, 0.0, ("hidden_act", "gelu")),     # ALiBi: gguf_bloom.py
    "mpt": Arch("mpt", "MPTForCausalLM", False, 0.0, ("hidden_act", "gelu")),           # ALiBi: gguf_mpt.py
    "falcon": Arch("falcon", "FalconForCausalLM", False, 0.0, ("activation", "gelu")),  # RoPE: gguf_falcon.py
    "gptneox": Arch("gpt_neox", "GPTNeoXForCausalLM", False, 0.0, ("hidden_act", "gelu")),   # gguf_gptneox.py
    "nemotron": Arch("nemotron", "NemotronForCausalLM", False, 1.0, ("hidden_act", "relu2")),   # gguf_nemotron.py
    # T5's encoder, a relative bias (gguf_t5.py writes their config: hidden_act unused)
    "t5": Arch("t5", "T5ForConditionalGeneration", False, 0.0, ("feed_forward_proj", "relu")),
    "t5encoder": Arch("t5", "T5EncoderModel", False, 0.0, ("feed_forward_proj", "relu")),
}
SUPPORTED_ARCHITECTURES = tuple(ARCHS)
# metadata keys llama.cpp also reads per layer (an array a layer), read here when every layer has the same
PER_LAYER_KEYS = (".attention.head_count", ".attention.head_count_kv", ".feed_forward_length")
# llama.cpp's graph asserts n_rot == head_dim (granite.cpp, olmo2.cpp, starcoder2.cpp, olmoe.cpp, qwen2vl.cpp,
# qwen3vl.cpp, qwen3vl-moe.cpp, smollm3.cpp, mistral3.cpp, ernie4-5.cpp, ernie4-5-moe.cpp, hunyuan-dense.cpp,
# hunyuan-moe.cpp, seed-oss.cpp, exaone4.cpp, apertus.cpp, olmo.cpp) or reshapes q and k by n_rot (openai-moe-iswa.cpp)
WHOLE_HEAD_ROPE = ("granite", "granitemoe", "olmo2", "gpt-oss", "starcoder2", "olmoe", "llama4", "qwen2vl", "qwen3vl",
                   "qwen3vlmoe", "smollm3", "mistral3", "ernie4_5", "ernie4_5-moe", "hunyuan-dense", "hunyuan-moe",
                   "seed_oss", "exaone4", "apertus", "olmo")


def meta_int(fields: dict, key: str, where: str, default=None, low: int = 1) -> int:
    """Integer metadata `key` (low .. 2^31); InputError naming the key if missing or out of range. A key
    llama.cpp also reads per layer (head counts, feed-forward length: a dense Granite 4.0 file lists its kv
    heads per layer) may be an array whose values are all one number."""
    value = fields.get(key, default)
    require(value is not None, "%1: metadata %2 is missing", where, key)
    if key.endswith(PER_LAYER_KEYS) and isinstance(value, (list, np.ndarray)) and len(value) > 0:
        values = {v if isinstance(v, (int, np.integer)) and not isinstance(v, bool) else None for v in value}
        require(len(values) == 1, "%1: metadata %2 differs from layer to layer (%3); PE Explorer reads one "
                                  "value for every layer", where, key, shown(value))
        value = values.pop()
    require(isinstance(value, (int, np.integer)) and not isinstance(value, bool) and low <= value < 1 << 31,
            "%1: metadata %2 is %3; it must be an integer from %4 to 2^31", where, key, shown(value), low)
    return int(value)


def meta_float(fields: dict, key: str, where: str, default=None) -> float:
    """Positive float metadata `key`; InputError naming the key if missing or not a positive number."""
    value = fields.get(key, default)
    require(value is not None, "%1: metadata %2 is missing", where, key)
    require(isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < 1e30,
            "%1: metadata %2 is %3; it must be a positive number", where, key, shown(value))
    return float(value)


def swa_types(fields: dict, arch: str, n_layers: int, period: int, where: str) -> list[str]:
    """Each layer's type as llama.cpp's set_swa_pattern(period) makes it (layer il slides when il % period <
    period - 1; 0: every layer), the period being {arch}.attention.sliding_window_pattern when that is a
    number: newer loaders read it with get_key_or_arr's scalar form, which passes over an array (the
    converters' one bool per layer), as older ones, with a fixed period, pass over the key."""
    key = f"{arch}.attention.sliding_window_pattern"
    given = fields.get(key)
    every = period if given is None or isinstance(given, (list, np.ndarray)) else meta_int(fields, key, where, low=0)
    return swa_pattern(every, n_layers)


def swa_pattern(every: int, n_layers: int) -> list[str]:
    """llama_hparams::set_swa_pattern(every): layer il slides when il % every < every - 1; 0: every layer."""
    return ["sliding_attention" if every == 0 or il % every < every - 1 else "full_attention"
            for il in range(n_layers)]


def one_rope_base(fields: dict, arch: str, base: float, model: str, where: str) -> None:
    """A file whose rope.freq_base_swa (newer llama.cpp reads it) differs from its freq_base, in an architecture
    read with one base (Gemma 2, gpt-oss; OLMo 3, whose olmo2 graph turns the sliding layers at freq_base), is
    refused."""
    swa = f"{arch}.rope.freq_base_swa"
    local = meta_float(fields, swa, where, default=base)                    # (a number, or refused)
    require(local == base, "%1: metadata %2 (%3) differs from %4.rope.freq_base (%5); a %6 file with two RoPE "
            "bases is not supported", where, swa, repr(local), arch, repr(base), model)


def arch_of(fields: dict, where: str) -> Arch:
    """The Arch of general.architecture; InputError naming the supported ones otherwise."""
    arch = fields.get("general.architecture")
    require(isinstance(arch, str), "%1: metadata general.architecture is missing", where)
    require(arch in ARCHS, "%1: architecture %2 is not supported; supported: %3", where, repr(arch),
                           ", ".join(SUPPORTED_ARCHITECTURES))
    return ARCHS[arch]


def granite_scales(fields: dict, config: dict, where: str, arch: str) -> None:
    """config's embedding_multiplier and attention_multiplier as llama.cpp's granite graph (granite and granitemoe
    files) uses the file's scales (see the module docstring): a missing or zero one is 1 (embeddings) or
    1 / sqrt(head_dim) (q·k). A file whose <arch>.rope.scaling.finetuned is false turns no q or k in llama.cpp's
    granite: refused."""
    require(fields.get(f"{arch}.rope.scaling.finetuned", True) is not False, "%1: metadata "
            "%2.rope.scaling.finetuned is false: llama.cpp's granite then turns no q or k", where, arch)
    for key, name, missing in ((f"{arch}.embedding_scale", "embedding_multiplier", 1.0),
                               (f"{arch}.attention.scale", "attention_multiplier",
                                1.0 / math.sqrt(config["head_dim"]))):
        given = fields.get(key, 0)
        zero = isinstance(given, (int, float)) and not isinstance(given, bool) and given == 0
        config[name] = missing if zero else meta_float(fields, key, where)
        require(config[name] >= 1e-30, "%1: metadata %2 is %3; it must be a number from 1e-30 to 1e30", where,
                key, shown(given))


def check_whole_head(arch: str, rot: int, head_dim: int, where: str) -> None:
    """A granite or olmo2 file turns every channel of a head (llama.cpp aborts on fewer)."""
    require(arch not in WHOLE_HEAD_ROPE or rot == head_dim, "%1: metadata %2.rope.dimension_count is %3; "
            "llama.cpp's %2 turns the whole head (%4 channels)", where, arch, rot, head_dim)


def require_tensor_shapes(header: Header, want: dict, where: str) -> None:
    """Each tensor name -> GGUF ne in `want` is in the file with that shape; InputError naming the first
    that is missing or of another shape."""
    for name, ne in want.items():
        info = header.tensors.get(name)
        require(info is not None, "%1: tensor %2 is missing", where, name)
        require(info.ne == ne, "%1: tensor %2 has shape %3, expected %4", where, name, list(info.ne), list(ne))
