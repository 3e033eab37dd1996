"""ModelConfig: the few fields of a Hugging Face config.json that the input layer and layer 0 need.

Reads configs as transformers 4.x writes them (`rope_theta`, `rope_scaling` with `type` or `rope_type`)
and as 5.x does (`rope_parameters`); the RoPE settings are kept as the RopeScaling that transformers'
model classes would use (explorer.backend.rope_config), plus rope_base.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from explorer.backend.models import gemma_config, qwen_vl
from explorer.backend.models.config_classes import CLASS_VOCAB, FIRST_ROW, OWN_FIELDS
from explorer.backend.models.falcon import falcon_position
from explorer.backend.models.config_flags import aliased_int as _aliased, positive_int as _int, qk_bias, qk_norm
from explorer.backend.models.config_own import own_fields
from explorer.backend.models.config_rope import _float, gptj_rope, odd_rotation, rope_type_label
from explorer.backend.models.family_tables import (ALIBI_FAMILIES, DEFAULT_HEAD_DIM, DEFAULT_KV_HEADS,
                                                   DEFAULT_MAX_POSITIONS, DEFAULT_RMS_EPS, DEFAULT_THETA, DTYPES,
                                                   FAMILIES, GEMMA_FAMILIES, HEADS_SPLIT, LAYER_NORM_EPS,
                                                   NO_DEFAULT_KV_HEADS, NO_INPUT_NORM, NO_NULL_HEAD_DIM,
                                                   NO_NULL_KV_HEADS, NORM_1P, RELATIVE_FAMILIES, ROPE_FAMILIES,
                                                   SINUSOID_FAMILIES, SUPPORTED)
from explorer.backend.models.encoders import bert_positions, distilbert_common
from explorer.backend.models.hunyuan import alpha_label, with_alpha_base
from explorer.backend.models.ministral3 import with_class_rope
from explorer.backend.models.mla_config import MlaDims, mla_fields
from explorer.backend.rope_scaling import MAX_HEAD_DIM, RopeScaling
from explorer.errors import InputError, msg, require, shown


@dataclass(frozen=True)
class ModelConfig:
    """What the views need of a model's architecture; built by `model_config(config_dict, name)`."""

    family: str                     # family_tables.FAMILIES' values: gpt2 | bert (RoBERTa's too) | opt | llama |
    #                                 mistral | qwen2 | qwen3 | gemma | phi3 | gemma2 | gemma3 | ... | glm4_moe | bloom
    model_type: str
    name: str
    d_model: int
    n_layers: int
    n_heads: int
    n_kv_heads: int
    head_dim: int
    vocab_size: int
    max_positions: int              # learned table rows usable (without position_offset's); RoPE: trained length
    position: str                   # "learned" | "rope" | "alibi" (BLOOM, MPT, Falcon-rw: a bias on the scores;
    #                                 Falcon's by its config's alibi flag) | "relative" (T5: a bias per n − m bucket)
    rope_base: float | None
    rope_scaling: RopeScaling | None  # the RoPE settings as transformers standardizes them; None for learned
    norm_eps: float
    embed_scale: float              # Gemma sqrt(hidden) rounded to the model dtype; Granite's
    #                                 embedding_multiplier; OPT/others 1.0
    position_offset: int            # the first row a text reads: OPT 2, RoBERTa's pad_token_id + 1, else 0
    dtype: str                      # the checkpoint's declared dtype (torch_dtype / dtype)
    qk_bias: bool                   # q/k projections carry biases
    qk_norm: bool                   # Qwen3's and Gemma 3's per-head q_norm / k_norm (OLMo 2's over all heads,
    #                                 Phi's and StableLM's qk_layernorm)
    pre_norm: bool                  # an input norm before the attention projections (BERT: no; OPT: config)
    word_embed_proj_dim: int        # OPT: the embedding width before project_in (= d_model elsewhere)
    rope_pairs_across_head: bool = False   # llama.cpp's llama arch: rotated pair j is (j, j + head_dim/2)
    rope_interleaved: bool = False  # GPT-J, Cohere, GLM-4: rotated pair j is (2j, 2j + 1) (else (j, j + rot/2))
    rope_refusal: str | None = field(default=None, compare=False)   # why these RoPE settings cannot be
    #                                 used (the model still opens: tokens and X need no RoPE)
    score_scalar: float = 0.0       # q·k is scaled by score_scalar^-1/2: Gemma 2/3's query_pre_attn_scalar;
    #                                 DeepSeek's head_dim / mscale^4 (YaRN's mscale_all_dim);
    #                                 Granite's attention_multiplier^-2; 0: head_dim
    attn_softcap: float | None = None   # Gemma 2: logits = cap * tanh(logits / cap)
    layer_types: tuple[str, ...] = ()   # Gemma 2/3, GPT-OSS: each layer's "sliding_attention" | "full_attention"
    #                                     (Llama 4: "chunked_attention" | "full_attention")
    sliding_window: int | None = None   # tokens a sliding layer's query reads (its own included); None: no window
    attention_refusal: str | None = field(default=None, compare=False)   # why layer q/k are not shown: the
    #                                 model masks its attention otherwise (layer_attention); tokens and X still are
    nope_layers: tuple[int, ...] = ()   # SmolLM3: the layers whose attention has no RoPE (NoPE)
    qkv_clip: float | None = None   # OLMo: q, k and v clamped to [-clip_qkv, clip_qkv] after the projections
    type_ropes: tuple = ()          # Gemma 3, OLMo 3: ((layer type, base, RopeScaling | None,
    #                                 refusal), ...); the rope_* fields above are layer 0's
    mla: MlaDims | None = None      # DeepSeek's MLA widths: head_dim = nope + rope, and the rope part (last) turns
    attention_chunk: int | None = None   # Llama 4: a "chunked_attention" layer's query reads its own chunk's keys
    qk_norm_after_rope: bool = False     # Llama 4: q, k RMS-normalised (no weight) after RoPE on its RoPE layers
    attn_temperature: tuple[float, float] | None = None   # Llama 4's NoPE layers: (floor_scale, attn_scale)
    rope_alpha: tuple[float, float] | None = None   # Hunyuan: (alpha, rope_theta) folded into rope_base (hunyuan)
    q_scale: tuple[int, float] | None = None   # Ministral 3: q x 1 + beta ln(1 + floor(m / L0)) after RoPE: (L0, beta)
    mrope: bool = False             # a Qwen VL text model's M-RoPE: plain RoPE for text tokens (qwen_vl)
    still_pairs: tuple[int, ...] = ()   # llama.cpp's Qwen3-VL: the pairs a text token leaves unturned (gguf_qwen_vl)
    padding_idx: int | None = None  # RoBERTa's: its pad token reads this row and does not advance the others'
    relative_buckets: tuple[int, int] = (0, 0)   # T5: (relative_attention_num_buckets, _max_distance) (models.t5)
    sinusoid_pad: int | None = None  # XGLM, M2M100: the row of its computed sinusoidal table zeroed (pad_token_id)
    embed_names: tuple[str, ...] = ()   # the token table's names, the first present read (M2M100's: models.m2m100)

    @property
    def computed_positions(self) -> bool:
        """Its position table is computed from config.json, not stored (XGLM's, M2M100's sinusoidal one: models.xglm,
        models.m2m100)."""
        return self.family in SINUSOID_FAMILIES

    def rope_of(self, layer: int) -> tuple[float | None, RopeScaling | None, str | None]:
        """(base, scaling, refusal) of layer's RoPE: its layer type's (Gemma 3, OLMo 3), else the model's."""
        if self.type_ropes and 0 <= layer < len(self.layer_types):
            for kind, base, scaling, refusal in self.type_ropes:
                if kind == self.layer_types[layer]:
                    return base, scaling, refusal
        return self.rope_base, self.rope_scaling, self.rope_refusal

    def window_of(self, layer: int) -> int | None:
        """The sliding window of layer's attention (explorer.backend.models.layer_attention), or None."""
        if self.layer_types:
            return self.sliding_window if self.layer_types[layer:layer + 1] == ("sliding_attention",) else None
        return self.sliding_window

    def chunk_of(self, layer: int) -> int | None:
        """The chunk of layer's attention (Llama 4's chunked layers: keys n with n // chunk == m // chunk), or None."""
        return self.attention_chunk if self.layer_types[layer:layer + 1] == ("chunked_attention",) else None

    @property
    def attention_sinks(self) -> bool:
        """Each head's softmax also weighs a learned sink logit (GPT-OSS's self_attn.sinks)."""
        return self.family == "gpt_oss"

    @property
    def gemma_norms(self) -> bool:
        """Gemma's RMSNorm, x / rms x (1 + w), for the input norm and Gemma 3's q_norm / k_norm."""
        return self.family in GEMMA_FAMILIES

    @property
    def rope_parameters(self) -> dict:
        """5.x-style {"rope_type", "rope_theta", ...}; {} for learned positions or refused settings."""
        return {} if self.rope_scaling is None else {**self.rope_scaling.to_dict(), "rope_theta": self.rope_base}

    @property
    def rope_type_label(self) -> str:
        """The rope type unless plain RoPE: "yarn ×4 (64 → 256)", else "" (the UI adds the rotary fraction)."""
        return (alpha_label(self.rope_alpha, self.head_dim) if self.rope_alpha       # Hunyuan's fixed base
                else rope_type_label(self.rope_scaling, self.max_positions))

    @property
    def yarn_unrounded(self) -> bool:
        """YaRN with unrounded ramp ends (truncate false: GPT-OSS's checkpoints; never a GGUF, llama.cpp rounds)."""
        s = self.rope_scaling
        return s is not None and s.rope_type == "yarn" and s.truncate is False

    @property
    def partial_rotary_factor(self) -> float:
        """The fraction of each head that rotates (1 for learned positions or refused settings)."""
        return self.rope_scaling.partial_rotary_factor if self.rope_scaling is not None else 1.0

    @property
    def layer_norms(self) -> bool:
        """Its norms are LayerNorms (weight and bias), not RMSNorms."""
        return self.family in LAYER_NORM_EPS

    @property
    def norm_1p(self) -> bool:
        """Its LayerNorms scale by weight + 1 (Nemotron's NemotronLayerNorm1P)."""
        return self.family in NORM_1P

    @property
    def rope_dim(self) -> int:
        """Layer 0's rope_dim_of."""
        return self.rope_dim_of(self.rope_scaling)

    @property
    def rope_head_dim(self) -> int:
        """The head width RoPE's frequencies are made for: head_dim, or MLA's rope part (qk_rope_head_dim)."""
        return self.mla.rope if self.mla is not None else self.head_dim

    @property
    def rope_offset(self) -> int:
        """The first channel of a head that turns: 0, or MLA's nope width (its rope part comes last)."""
        return self.mla.nope if self.mla is not None else 0

    @property
    def decoupled_rope(self) -> tuple[int, ...]:
        """(first, last) channel of a head that turns where RoPE does not start at channel 0 (MLA); else ()."""
        return (self.rope_offset, self.head_dim - 1) if self.rope_offset else ()

    def rope_dim_of(self, scaling: RopeScaling | None) -> int:
        """Channels of each head the rotation spans (even; twice len(inv_freq)): the whole head (MLA: its rope
        part) for proportional RoPE, whose low-frequency pairs have frequency 0."""
        if scaling is not None and scaling.rope_type == "proportional":
            return self.rope_head_dim
        partial = scaling.partial_rotary_factor if scaling is not None else 1.0
        return int(self.rope_head_dim * partial) // 2 * 2


def model_config(cfg: dict, name: str = "", runtime: str = "transformers") -> ModelConfig:
    """ModelConfig from a config.json dict; InputError for an unsupported model_type or a bad field.

    runtime: whose semantics the RoPE keys have. "transformers" (a Hugging Face folder): its Llama,
    Mistral, Qwen2/3 and Gemma classes rotate the whole head whatever partial_rotary_factor says.
    "llama.cpp" (a GGUF file, translated by gguf_file): rope.dimension_count channels rotate."""
    require(isinstance(cfg, dict), "config.json must hold a JSON object")
    # a multimodal model's text model; a Ministral 3 without rope settings: its class's; Hunyuan's alpha: its base
    cfg = with_alpha_base(with_class_rope(qwen_vl.text_model_config(gemma_config.text_model_config(cfg))))
    model_type = cfg.get("model_type")
    if not isinstance(model_type, str) or model_type not in FAMILIES:   # a list or object: unhashable
        raise InputError(msg("model_type %1 is not supported; supported: %2", shown(model_type),
                             ", ".join(SUPPORTED)))
    family = FAMILIES[model_type]
    position = ("rope" if family in ROPE_FAMILIES else falcon_position(cfg) if family == "falcon"   # (alibi or not)
                else "alibi" if family in ALIBI_FAMILIES else "relative" if family in RELATIVE_FAMILIES  # (T5)
                else "learned")
    if family == "gemma3":                 # what transformers' Gemma3TextConfig fills in (a multimodal
        cfg = {**gemma_config.GEMMA3_TEXT_DEFAULTS, **cfg}     # checkpoint's text_config lists few keys)
    if model_type in DEFAULT_THETA and "rope_theta" not in cfg:
        cfg = {**cfg, "rope_theta": DEFAULT_THETA[model_type]}     # (a rope dict without one reads it too)
    dtype = cfg.get("dtype") or cfg.get("torch_dtype") or "float32"
    dtype = dtype if dtype in DTYPES else "float32"
    offset, padding_idx = 0, None
    if model_type in OWN_FIELDS:                   # their classes' names and defaults (models.bloom, mpt, ...)
        common = OWN_FIELDS[model_type](cfg)
        d, heads, offset = common["d_model"], common["n_heads"], common.pop("first_row", 0)   # (M2M100's pad + 1)
    elif family in ("gpt2", "gptj"):
        # GPT2Config's and GPTJConfig's attribute_map: hidden_size, num_hidden_layers, num_attention_heads and
        # max_position_embeddings are other names of these, set after them (they win)
        alias = ("hidden_size", "num_hidden_layers", "num_attention_heads", "max_position_embeddings")
        d, layers, heads = (_aliased(cfg, alias[0], "n_embd"), _aliased(cfg, alias[1], "n_layer"),
                            _aliased(cfg, alias[2], "n_head"))
        common = {"d_model": d, "n_layers": layers, "n_heads": heads, "n_kv_heads": heads,
                  "max_positions": _aliased(cfg, alias[3], "n_positions", 2048 if family == "gptj" else None),
                  "norm_eps": cfg.get("layer_norm_epsilon", 1e-5), "qk_bias": family == "gpt2", "pre_norm": True,
                  "word_embed_proj_dim": d}
        if family == "gptj":
            cfg = {**cfg, "rope_parameters": gptj_rope(cfg, d, heads)}
    elif family == "distilbert":                       # dim, n_layers, n_heads; LayerNorm eps 1e-12, fixed
        d, heads, common = distilbert_common(cfg)
    elif family in ("bert", "opt"):
        d, layers, heads = (_int(cfg, "hidden_size"), _int(cfg, "num_hidden_layers"), _int(cfg, "num_attention_heads"))
        offset, padding_idx = bert_positions(cfg, model_type, _int(cfg, "max_position_embeddings")) if (
            family == "bert") else (0, None)          # RoBERTa's: rows from pad_token_id + 1 (models.encoders)
        proj = _int(cfg, "word_embed_proj_dim", default=d) if family == "opt" else d
        common = {"d_model": d, "n_layers": layers, "n_heads": heads, "n_kv_heads": heads,
                  "max_positions": _int(cfg, "max_position_embeddings") - offset,
                  "norm_eps": cfg.get("layer_norm_eps", 1e-12) if family == "bert" else 1e-5,
                  "qk_bias": family == "bert" or bool(cfg.get("enable_bias", True)),
                  "pre_norm": family == "opt" and bool(cfg.get("do_layer_norm_before", True)),
                  "word_embed_proj_dim": proj}
    else:
        d, layers, heads = (_int(cfg, "hidden_size"), _int(cfg, "num_hidden_layers"), _int(cfg, "num_attention_heads"))
        # (GPTNeoXConfig has no num_key_value_heads: every head its own k and v)
        null_kv = "num_key_value_heads" in cfg and cfg["num_key_value_heads"] is None     # one per head, where
        require(not null_kv or model_type not in NO_NULL_KV_HEADS,                       # the class allows it
                "config.json: num_key_value_heads must be a positive integer, not null")
        require("num_key_value_heads" in cfg or model_type not in NO_DEFAULT_KV_HEADS, "config.json: "
                "num_key_value_heads is missing; transformers' %1 has no default for it and cannot run without one",
                model_type)                                                     # (NemotronConfig's None)
        kv = heads if family == "gpt_neox" or null_kv else _int(cfg, "num_key_value_heads",
                                                                 default=DEFAULT_KV_HEADS.get(model_type, heads))
        require(heads % kv == 0, "config.json: num_attention_heads %1 is not a multiple of "
                                 "num_key_value_heads %2", heads, kv)
        bias = qk_bias(cfg, model_type, family)
        eps = (cfg.get(LAYER_NORM_EPS[family], 1e-5) if family in LAYER_NORM_EPS
               else 1e-5 if family == "olmo"                   # OlmoLayerNorm's, whatever config.json says
               else cfg.get("rms_norm_eps", DEFAULT_RMS_EPS.get(model_type, 1e-6)))
        common = {"d_model": d, "n_layers": layers, "n_heads": heads, "n_kv_heads": kv,
                  "max_positions": _int(cfg, "max_position_embeddings", default=DEFAULT_MAX_POSITIONS[model_type]),
                  "norm_eps": eps, "qk_bias": bias, "pre_norm": family not in NO_INPUT_NORM, "word_embed_proj_dim": d}
    # GPTNeoXAttention, StableLmAttention and GPTJAttention split hidden / heads channels a head; GPT-NeoX's
    # and StableLM's RoPE would size itself by a head_dim of config.json's (GPT-J's reads none)
    head_dim = (cfg.get("head_dim", DEFAULT_HEAD_DIM.get(model_type)) if family in ROPE_FAMILIES
                and family not in (*HEADS_SPLIT, "gptj") else None)
    require(cfg.get("head_dim", 0) is not None or model_type not in NO_NULL_HEAD_DIM,   # (GLM-4's classes)
            "config.json: head_dim must be a whole number from 1 to %1, not %2", f"{MAX_HEAD_DIM:,}", "null")
    if family in HEADS_SPLIT and cfg.get("head_dim") is not None:
        require(cfg["head_dim"] == d // heads and d % heads == 0,
                "config.json: head_dim %1 is not hidden_size / num_attention_heads (%2 / %3), the heads %4's "
                "attention splits", shown(cfg["head_dim"]), d, heads, HEADS_SPLIT[family])
    # DeepSeek's MLA (mla_config): a q / k head is its nope part and its rope part; its score scale and pairing
    mla = mla_fields(cfg, model_type, d, common["n_heads"], common["n_kv_heads"]) if family == "deepseek" else {}
    head_dim = mla.pop("head_dim", common.pop("head_dim", head_dim))          # (T5's d_kv: its own module's)
    if head_dim is None:
        require(d % heads == 0, "config.json: the hidden size %1 is not a multiple of the %2 heads", d, heads)
        head_dim = d // heads
    # an inv_freq of head_dim / 2 is made before the weights' shapes are read: 10^9 took 5.9 GB
    require(type(head_dim) is int and 0 < head_dim <= MAX_HEAD_DIM, "config.json: head_dim must be a whole number "
            "from 1 to %1, not %2", f"{MAX_HEAD_DIM:,}", shown(head_dim))
    # the family's own fields and layer 0's RoPE (config_own); MLA's widths
    own, (base, scaling, refusal), scale = own_fields(cfg, model_type, family, position, common, dtype, runtime)
    own.update(mla)
    config = ModelConfig(
        family=family, model_type=model_type, name=name or str(cfg.get("_name_or_path") or model_type),
        head_dim=head_dim, vocab_size=_int(cfg, "vocab_size", default=CLASS_VOCAB.get(family)),
        position=position, rope_base=base, rope_scaling=scaling, embed_scale=scale,
        position_offset=FIRST_ROW.get(family, offset), rope_refusal=refusal,
        padding_idx=own.pop("padding_idx", padding_idx),          # (M2M100's own: models.m2m100; before **own)
        # ggml rotates neighbouring rows of llama files, which hold channels j and j + head_dim/2 of
        # Hugging Face's order (convert_hf_to_gguf's permute); qwen2/qwen3/gemma: NEOX, rotate-half
        rope_pairs_across_head=runtime == "llama.cpp" and model_type == "llama",
        dtype=dtype, **own,
        qk_norm=qk_norm(cfg, model_type, family),
        mrope=model_type in qwen_vl.MROPE_TEXT,
        still_pairs=tuple(cfg.get(qwen_vl.STILL_PAIRS, ())) if runtime == "llama.cpp" else (),
        **{**common, "norm_eps": _float(common["norm_eps"], LAYER_NORM_EPS.get(family, "rms_norm_eps"))})
    odd = None if config.rope_refusal else odd_rotation(config.rope_head_dim, config.rope_scaling)
    return replace(config, rope_scaling=None, rope_refusal=odd) if odd else config     # as rope_scaling_of's

