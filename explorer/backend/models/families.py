"""Per family: the tensor names, X as the first layer receives it, and the learned position table.

Checked against transformers' own classes (tests/test_models_families.py): GPT2Model (wte + wpe),
BertEmbeddings (LayerNorm(word + position + token type 0)), OPTDecoder (embed, project_in, positions
offset by 2), RobertaModel / XLMRobertaModel / CamembertModel (BERT's, positions from padding_idx + 1), DistilBertModel
(LayerNorm(word + position), q_lin / k_lin),
LlamaModel / MistralModel / Qwen2Model / Qwen3Model (embed_tokens only: RoPE acts inside
attention), GemmaModel (embed_tokens x sqrt(hidden) in the model dtype), Phi3Model (embed_tokens only;
its attention's q, k and v come from one fused qkv_proj), PhiModel (embed_tokens; LayerNorm, q/k biases,
per-head q/k LayerNorms when qk_layernorm), GPTNeoXModel (embed_in; LayerNorm, one fused query_key_value,
q, k and v rows head by head), GPTJModel (wte; ln_1, q/k without biases), StableLmModel (embed_tokens;
LayerNorm, q/k biases when use_qkv_bias, a q/k LayerNorm of each head's own when qk_layernorm), Olmo2Model
(embed_tokens; no norm before attention, RMSNorms over the whole q and k projections), GraniteModel
(embed_tokens x embedding_multiplier), OlmoModel (embed_tokens; a LayerNorm without weight or bias),
GptOssModel (embed_tokens; RMSNorm, q/k biases, one sink logit per head), OlmoeModel (embed_tokens;
RMSNorm, RMSNorms over the whole q and k projections, then clip_qkv when set), Starcoder2Model (embed_tokens;
LayerNorm, q/k biases when use_bias) and CohereModel (embed_tokens; a LayerNorm without bias, a LayerNorm of
each head's own on q and k when use_qk_norm, pairs (2i, 2i + 1) turned); BloomModel (word_embeddings, then
word_embeddings_layernorm, nothing added for position: ALiBi; LayerNorm, GPT-NeoX's per-head fused qkv with bias),
MptModel (wte, ALiBi; norm_1 without bias, Wqkv's whole q, k, v blocks) and FalconModel with alibi (word_embeddings;
LayerNorm, query_key_value in KV groups of q heads, k, v); GPTNeoModel (wte + wpe as GPT-2; ln_1, q/k/v without
biases under attn.attention.); XGLMModel (embed_tokens x sqrt(d_model) + its sinusoidal table, computed from
config.json, rows offset by 2; self_attn_layer_norm, q/k with biases); M2M100Encoder (XGLM's, rows from
pad_token_id + 1 as RoBERTa's, a pad token row pad_token_id; encoder.layers.*: models.m2m100);
BartEncoder and MBartEncoder (models.bart).
"""

from __future__ import annotations

import numpy as np

from explorer.backend.models import bart, encoders, family_tables, m2m100, xglm
from explorer.backend.models.config import ModelConfig
from explorer.backend.models.gpt_bigcode import bigcode_qk_names
from explorer.backend.models.t5 import check_t5_tables, t5_norm_name, t5_qk_names
from explorer.backend.models.tensors import TensorReader
from explorer.errors import InputError, msg, require

EMBED = {"gpt2": "wte.weight", "bert": "embeddings.word_embeddings.weight",
         "distilbert": "embeddings.word_embeddings.weight",
         "opt": "decoder.embed_tokens.weight", "gpt_neox": "embed_in.weight", "gptj": "wte.weight",
         "gpt_neo": "wte.weight",
         "bloom": "word_embeddings.weight", "mpt": "wte.weight", "falcon": "word_embeddings.weight",
         "t5": "shared.weight"}
# the LayerNorm that makes X: its weight's and bias's names (the first one present), each of width d
BERT_NORM = (("embeddings.LayerNorm.weight", "embeddings.LayerNorm.gamma"),
             ("embeddings.LayerNorm.bias", "embeddings.LayerNorm.beta"))
INPUT_NORM = {"bloom": (("word_embeddings_layernorm.weight",), ("word_embeddings_layernorm.bias",)),   # BloomModel's
              "bert": BERT_NORM, "distilbert": BERT_NORM, "bart": bart.INPUT_NORM}
POSITIONS = {"gpt2": "wpe.weight", "gpt_neo": "wpe.weight", "bert": "embeddings.position_embeddings.weight",
             "distilbert": "embeddings.position_embeddings.weight", "opt": "decoder.embed_positions.weight",
             "bart": bart.POSITIONS}


def embed_names(cfg: ModelConfig) -> tuple[str, ...]:
    """The token table's names, the first the checkpoint has read (M2M100: its encoder's, else shared)."""
    return cfg.embed_names or (EMBED.get(cfg.family, "embed_tokens.weight"),)


def first(reader: TensorReader, *names: str) -> str | None:
    """The first of names the checkpoint has, or None."""
    have = set(reader.names())
    return next((n for n in names if n in have), None)


def unread_quantization(reader: TensorReader) -> str:
    """config.json's quant_method where the checkpoint is quantized in a way PE Explorer does not read (GPTQ, AWQ,
    bitsandbytes, 4-bit compressed-tensors: projections stored as qweight, weight_packed, packed bytes), else ""."""
    quant = getattr(reader, "quant", None)
    return "" if quant is None or quant.scales else quant.method


def need(reader: TensorReader, *names: str) -> str:
    name = first(reader, *names)
    if name is None:
        method = unread_quantization(reader)
        require(not method, "the checkpoint has no tensor %1: its weights are quantized (%2), which PE Explorer "
                "does not read; a BF16, FP16, FP32 or FP8 copy opens", repr(names[0]), method)
        raise InputError(msg("the checkpoint has no tensor %1; is it the model it claims to be?", repr(names[0])))
    return name


def check_tables(cfg: ModelConfig, reader: TensorReader) -> None:
    """InputError now (at open) if the embedding or position table, or the LayerNorm making X, is missing or
    has the wrong width."""
    e = reader.shape(need(reader, *embed_names(cfg)))
    require(len(e) == 2 and e[1] == cfg.word_embed_proj_dim,
            "the token table has shape %1; config.json says width %2", e, cfg.word_embed_proj_dim)
    for names in INPUT_NORM.get(cfg.family, ()):   # X is a LayerNorm: its weight and bias, of width d (a shorter
        name = need(reader, *names)                # one had raised numpy's broadcast ValueError at input_x)
        shape = tuple(reader.shape(name))
        require(shape == (cfg.d_model,), "%1 has shape %2; config.json says width %3", name, shape, cfg.d_model)
    if cfg.family == "t5":                            # layer 0's relative_attention_bias (models.t5)
        check_t5_tables(cfg, reader)
    if cfg.position == "learned" and not cfg.computed_positions:      # (XGLM's is computed from config.json)
        p = reader.shape(need(reader, POSITIONS[cfg.family]))
        require(len(p) == 2 and p[1] == cfg.d_model and p[0] > cfg.position_offset,
                "the position table has shape %1; config.json says width %2", p, cfg.d_model)
        if cfg.family == "bart":                                   # max_position_embeddings + 2 rows
            bart.check_bart_table(cfg, p[0])


def layer_norm(x: np.ndarray, w: np.ndarray | None, b: np.ndarray | None, eps: float) -> np.ndarray:
    """torch.nn.LayerNorm over the last axis (biased variance). A row whose float32 variance overflows is
    NaN, flagged as not finite (x / inf gave 0s that looked like numbers; torch's float32 gives 0 or NaN)."""
    mean = x.mean(axis=-1, keepdims=True)
    with np.errstate(over="ignore"):
        var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    y = _overflowed(var, (x - mean) / np.sqrt(var + np.float32(eps)))
    if w is not None:
        y = y * w
    if b is not None:
        y = y + b
    return y.astype(np.float32, copy=False)


def rms_norm(x: np.ndarray, w: np.ndarray, eps: float, gemma: bool = False) -> np.ndarray:
    """LlamaRMSNorm (w * x / rms) or GemmaRMSNorm ((1 + w) * x / rms) over the last axis; NaN rows where the
    float32 mean square overflows (as layer_norm)."""
    with np.errstate(over="ignore"):
        square = (x * x).mean(axis=-1, keepdims=True)
    y = _overflowed(square, x / np.sqrt(square + np.float32(eps)))
    return (y * ((1.0 + w) if gemma else w)).astype(np.float32, copy=False)


def _overflowed(moment: np.ndarray, y: np.ndarray) -> np.ndarray:
    """y with NaN rows where the norm's second moment (rows, 1) is not finite."""
    return y if np.isfinite(moment).all() else np.where(np.isfinite(moment), y, np.float32(np.nan))


def position_rows(cfg: ModelConfig, reader: TensorReader, n: int | None = None) -> np.ndarray | None:
    """The learned position rows for positions 0..n-1 (all when n is None); None for RoPE models.

    OPT's table has 2 extra rows in front (position p is row p + 2); they are skipped here."""
    if cfg.position != "learned":
        return None
    if cfg.computed_positions:     # XGLM, M2M100: rows p + offset of its sinusoidal table, made from config.json
        n = cfg.max_positions if n is None else n
        _fits(n, cfg.max_positions)
        return xglm.position_table(cfg.d_model, np.arange(cfg.position_offset, cfg.position_offset + n),
                                   cfg.sinusoid_pad)
    name, rows = _position_table(cfg, reader, n)
    n = rows if n is None else n
    return reader.rows(name, np.arange(cfg.position_offset, cfg.position_offset + n))   # (n, d)


def positions_of(cfg: ModelConfig, reader: TensorReader, ids) -> np.ndarray | None:
    """The learned position rows these tokens read, (n, d); None for RoPE models. As position_rows(n), but a
    RoBERTa-style model's padding tokens read row padding_idx and do not advance the others (encoders)."""
    if cfg.padding_idx is None:
        return position_rows(cfg, reader, np.asarray(ids).reshape(-1).shape[0])
    rows = encoders.position_ids(cfg.position_offset, cfg.padding_idx, np.asarray(ids, np.int64).reshape(-1))
    if cfg.computed_positions:                    # M2M100's sinusoidal table (models.m2m100), made from config.json
        _fits(int(np.count_nonzero(rows != cfg.padding_idx)), cfg.max_positions)
        return xglm.position_table(cfg.d_model, rows, cfg.sinusoid_pad)
    name, _ = _position_table(cfg, reader, int(np.count_nonzero(rows != cfg.padding_idx)))
    return reader.rows(name, rows)                                            # (n, d)


def _position_table(cfg: ModelConfig, reader: TensorReader, n: int | None) -> tuple[str, int]:
    """(the learned table's name, its rows from the row of position 0); InputError when n positions (None: no
    check) do not fit in them."""
    name = need(reader, POSITIONS[cfg.family])
    rows = reader.shape(name)[0] - cfg.position_offset
    if n is not None:
        _fits(n, rows)
    return name, rows


def _fits(n: int, rows: int) -> None:
    """InputError when n positions do not fit in a table of `rows` from the row of position 0."""
    require(0 <= n <= rows, "%1 tokens is longer than the model's %2 learned positions; "
            "shorten the text (a learned table cannot be extended without training)", n, rows)


def token_rows(cfg: ModelConfig, reader: TensorReader, ids) -> np.ndarray:
    """E[ids] as stored (OPT: before project_in); (n, word_embed_proj_dim)."""
    return reader.rows(need(reader, *embed_names(cfg)), ids)


def input_x(cfg: ModelConfig, reader: TensorReader, ids, positions: bool = True) -> np.ndarray:
    """X exactly as the family's first layer receives it; (n, d_model) float32. positions False: the same
    without the learned position rows (what the Real RoPE view compares with; nothing changes for the families
    that add none at the input)."""
    ids = np.asarray(ids, dtype=np.int64).reshape(-1)                         # (n,)
    e = token_rows(cfg, reader, ids)                                          # (n, d')
    n = ids.shape[0]
    if cfg.family in ("gpt2", "gpt_neo"):                 # GPTNeoModel.forward: inputs_embeds + position_embeds
        return e + position_rows(cfg, reader, n) if positions else e
    if cfg.computed_positions:   # XGLMModel, M2M100Encoder: embed_tokens(ids) (x embed_scale) + the rows
        e = e * np.float32(cfg.embed_scale) if cfg.embed_scale != 1.0 else e
        return e + positions_of(cfg, reader, ids) if positions else e
    if cfg.family in family_tables.LAYER_NORM_SUMS:   # (BartEncoder: layernorm_embedding(E x embed_scale + P[p + 2]))
        e = e * np.float32(cfg.embed_scale) if cfg.embed_scale != 1.0 else e
        pos = positions_of(cfg, reader, ids) if positions else np.float32(0.0)   # (n, d)
        tt = (reader.rows(need(reader, "embeddings.token_type_embeddings.weight"), [0]) if cfg.family == "bert"
              else np.float32(0.0))                                           # (1, d); DistilBERT, BART: none
        w, b = (need(reader, *names) for names in INPUT_NORM[cfg.family])
        return layer_norm(e + pos + tt, reader.read(w), reader.read(b), cfg.norm_eps)
    if cfg.family == "opt":
        e = e * np.float32(cfg.embed_scale) if cfg.embed_scale != 1.0 else e
        proj = first(reader, "decoder.project_in.weight")
        if proj is not None:
            e = e @ reader.read(proj).T                                       # (n, d)
        return (e + position_rows(cfg, reader, n) if positions else e).astype(np.float32, copy=False)
    if cfg.family == "bloom":                      # word_embeddings_layernorm; ALiBi adds nothing here
        w, b = (reader.read(need(reader, *names)) for names in INPUT_NORM["bloom"])
        return layer_norm(e, w, b, cfg.norm_eps)
    if cfg.embed_scale != 1.0:
        return e * np.float32(cfg.embed_scale)
    return e


def input_norm_names(cfg: ModelConfig, layer: int) -> tuple[str | None, str | None]:
    """(weight, bias) names of the norm applied before layer's attention projections; (None, None) if none."""
    if not cfg.pre_norm or cfg.family == "olmo":           # (OLMo's LayerNorm has no weight or bias)
        return None, None
    if cfg.family in ("gpt2", "gptj", "gpt_neo"):
        return f"h.{layer}.ln_1.weight", f"h.{layer}.ln_1.bias"
    if cfg.family in ("bloom", "falcon"):         # (Falcon's ln_attn, new_decoder_architecture's: attention)
        return f"h.{layer}.input_layernorm.weight", f"h.{layer}.input_layernorm.bias"
    if cfg.family == "mpt":                                                        # a LayerNorm without bias
        return f"blocks.{layer}.norm_1.weight", None
    if cfg.family == "cohere":                                                     # a LayerNorm without bias
        return f"layers.{layer}.input_layernorm.weight", None
    if cfg.family == "xglm":
        return f"layers.{layer}.self_attn_layer_norm.weight", f"layers.{layer}.self_attn_layer_norm.bias"
    if cfg.family in ("m2m_100", "bart"):     # its encoder's layer (BART's: post-norm, mBART's: these, models.bart)
        return m2m100.m2m100_norm_names(layer)
    if cfg.family == "opt":
        return (f"decoder.layers.{layer}.self_attn_layer_norm.weight",
                f"decoder.layers.{layer}.self_attn_layer_norm.bias")
    if cfg.family == "t5":                                                         # T5LayerNorm: weight only
        return t5_norm_name(layer), None
    if cfg.family == "apertus":                                                    # ApertusDecoderLayer's name
        return f"layers.{layer}.attention_layernorm.weight", None
    if cfg.family in ("gpt_neox", "phi", "stablelm", "starcoder2", "nemotron"):   # a LayerNorm (Nemotron's: 1P)
        return f"layers.{layer}.input_layernorm.weight", f"layers.{layer}.input_layernorm.bias"
    return f"layers.{layer}.input_layernorm.weight", None


def qk_names(cfg: ModelConfig, layer: int) -> dict[str, str]:
    """Names of layer's q/k projection weights and biases (GPT-2: its fused c_attn; Phi-3: its fused
    qkv_proj, rows q (H x hd), then k (KV x hd), then v; GPT-NeoX: its fused query_key_value, per head
    its q, k and v rows, as BLOOM's self_attention.query_key_value; Phi: its q/k LayerNorms over each head,
    weight and bias; StableLM: a q/k LayerNorm of each head's own, its weight's name a pattern with {head};
    OLMo 2: q/k RMSNorms over all heads; GPT-OSS: the sink logits)."""
    if cfg.model_type == "gpt_bigcode":        # an nn.Linear: whole q, k, v blocks (multi_query), else per head
        return bigcode_qk_names(cfg.n_kv_heads < cfg.n_heads, layer)
    if cfg.family == "gpt2":
        return {"qkv": f"h.{layer}.attn.c_attn.weight", "qkv_bias": f"h.{layer}.attn.c_attn.bias"}
    if cfg.family == "t5":                     # its encoder's T5Attention q, k (no biases)
        return t5_qk_names(layer)
    if cfg.family in ("m2m_100", "bart"):      # its encoder's M2M100Attention / BartAttention q_proj, k_proj (with
        return m2m100.m2m100_qk_names(layer)   # biases): the same names
    if cfg.family == "bert":
        pre = f"encoder.layer.{layer}.attention.self."
        return {"q": pre + "query.weight", "q_bias": pre + "query.bias",
                "k": pre + "key.weight", "k_bias": pre + "key.bias"}
    if cfg.family == "distilbert":
        pre = f"layer.{layer}.attention."
        return {"q": pre + "q_lin.weight", "q_bias": pre + "q_lin.bias", "k": pre + "k_lin.weight",
                "k_bias": pre + "k_lin.bias"}
    if cfg.family == "phi3":
        return {"qkv_rows": f"layers.{layer}.self_attn.qkv_proj.weight"}
    if cfg.family == "mpt":                        # chunk(3): whole q, k and v blocks, no bias
        return {"qkv_rows": f"blocks.{layer}.attn.Wqkv.weight"}
    if cfg.family in ("gptj", "gpt_neo"):                      # (bias=False: the biases are never read)
        return _projections(f"h.{layer}.attn." + ("attention." if cfg.family == "gpt_neo" else ""))
    if cfg.family in ("gpt_neox", "bloom", "falcon"):   # (BloomAttention._reshape: the same per-head rows; Falcon's:
        #                                                 KV groups of its q heads, k, v; per head without multi_query)
        pre = (f"h.{layer}.self_attention.query_key_value." if cfg.family in ("bloom", "falcon")
               else f"layers.{layer}.attention.query_key_value.")
        return {"qkv_heads": pre + "weight", "qkv_heads_bias": pre + "bias"}
    pre = f"decoder.layers.{layer}.self_attn." if cfg.family == "opt" else f"layers.{layer}.self_attn."
    if cfg.family in ("olmo2", "olmoe"):   # RMSNorms over the whole q (H hd) and k (KV hd) projections
        return {**_projections(pre), "q_norm_all": pre + "q_norm.weight", "k_norm_all": pre + "k_norm.weight"}
    if cfg.family == "stablelm":      # its per-head LayerNorms: one weight (no bias) a q head and a kv head
        return {**_projections(pre), "q_norm_heads": pre + "q_layernorm.norms.{head}.weight",
                "k_norm_heads": pre + "k_layernorm.norms.{head}.weight",
                # a llama.cpp file's: the heads' weights stacked into one (heads, head_dim) tensor
                "q_norm_stacked": pre + "q_layernorm.weight", "k_norm_stacked": pre + "k_layernorm.weight"}
    if cfg.family == "cohere":        # use_qk_norm: a LayerNorm of each head's own (weights (heads, head_dim))
        return {**_projections(pre), "q_norm_stacked": pre + "q_norm.weight", "k_norm_stacked": pre + "k_norm.weight"}
    if cfg.family == "gpt_oss":       # its softmax's sink logit, one per head
        return {**_projections(pre), "sinks": pre + "sinks"}
    if cfg.family == "phi":           # (qkv_fused: a Phi-2 GGUF's attn_qkv, rows q, k, v, when it has one)
        return {**_projections(pre), "q_norm": pre + "q_layernorm.weight", "q_norm_bias": pre + "q_layernorm.bias",
                "k_norm": pre + "k_layernorm.weight", "k_norm_bias": pre + "k_layernorm.bias",
                "qkv_fused": pre + "qkv_proj.weight", "qkv_fused_bias": pre + "qkv_proj.bias"}
    # (qkv_fused: a llama.cpp chatglm file's attn_qkv, rows q, k, v, from a ChatGLM / THUDM GLM-4 checkpoint)
    fused = ({"qkv_fused": pre + "qkv_proj.weight", "qkv_fused_bias": pre + "qkv_proj.bias"} if cfg.family == "glm4"
             else {})
    return {**_projections(pre), "q_norm": pre + "q_norm.weight", "k_norm": pre + "k_norm.weight", **fused}


def _projections(pre: str) -> dict[str, str]:
    """The q_proj / k_proj weights and biases under `pre`."""
    return {"q": pre + "q_proj.weight", "q_bias": pre + "q_proj.bias", "k": pre + "k_proj.weight",
            "k_bias": pre + "k_proj.bias"}
