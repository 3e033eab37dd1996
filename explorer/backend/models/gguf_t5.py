"""GGUF files of T5 (llama.cpp's `t5` and `t5encoder` architectures), read as a Hugging Face T5 folder is (t5.py).

Sources (ggml-org/llama.cpp):
- conversion/t5.py (formerly convert_hf_to_gguf.py): `T5Model(TextModel)`, MODEL_ARCH.T5, registered for
  T5WithLMHeadModel, T5ForConditionalGeneration, MT5ForConditionalGeneration, UMT5ForConditionalGeneration and
  UMT5Model; `T5EncoderModel(TextModel)`, MODEL_ARCH.T5ENCODER, for T5EncoderModel. `set_gguf_parameters`:
  context_length (n_positions, else 512), embedding_length (d_model), feed_forward_length (d_ff), block_count,
  head_count (num_heads), key_length and value_length (d_kv), attention.layer_norm_epsilon and layer_norm_rms_epsilon
  (both layer_norm_epsilon), attention.relative_buckets_count (relative_attention_num_buckets); no max distance is
  written. `modify_tensors` keeps the first of shared / encoder.embed_tokens / decoder.embed_tokens as shared.weight;
  the rest renamed by gguf-py's TensorNameMap (tensor_mapping.py), not transposed: shared -> token_embd,
  encoder.block.N.layer.0.layer_norm -> enc.blk.N.attn_norm, layer.0.SelfAttention.q / k / v / o -> enc.blk.N.attn_q /
  attn_k / attn_v / attn_o, SelfAttention.relative_attention_bias -> enc.blk.N.attn_rel_b (gguf's constants.py:
  MODEL_TENSOR.ENC_ATTN_REL_B), layer.1.layer_norm -> enc.blk.N.ffn_norm, encoder.final_layer_norm -> enc.output_norm,
  lm_head -> output; the decoder's under dec.blk.N (not read here).
- src/models/t5.cpp (load_arch_hparams / load_arch_tensors; t5encoder's: LLM_ARCH_T5ENCODER in src/llama-model.cpp,
  src/models/t5encoder.cpp in later trees): both keys layer_norm_rms_epsilon and relative_buckets_count required;
  enc.blk.N.attn_rel_b {n_head, n_rel_attn_bkts} NOT required in any layer, attn_q / attn_k {n_embd, n_embd_k_gqa}
  (n_embd_head_k: key_length, else n_embd / n_head). src/models/t5-enc.cpp: RMS norm (attn_norm_enc), q and k reshaped
  by n_embd_head and n_head_kv, and a layer's bias is its own attn_rel_b where it has one, else layer 0's
  (`model.layers[il].attn_rel_b_enc ? ... : model.layers[0].attn_rel_b_enc`), added to q·k with kq_scale 1.0f (not
  scaled). A T5 / mT5 file has layer 0's only (read as `t5`: every layer adds it); a UMT5 file has one in every layer
  (read as `umt5`: each layer its own, t5.bias_name); one with some layers' is refused.
- src/llama-graph.cpp, llama_relative_position_bucket: `const int64_t max_distance = 128;` ("TODO move to hparams if a
  T5 variant appears that uses a different value"): the relative_attention_max_distance read here. Its float steps
  give transformers' buckets for 8 to 128 buckets at max distance 128 (tests/test_gguf_t5.py).
"""

from __future__ import annotations

import re

from explorer.backend.models.bloom import MAX_HEADS
from explorer.backend.models.gguf_archs import meta_float, meta_int, require_tensor_shapes
from explorer.backend.models.gguf_header import Header
from explorer.backend.models.gguf_learned import mapped_name
from explorer.errors import require

LLAMA_MAX_DISTANCE = 128           # llama_relative_position_bucket's fixed max_distance (src/llama-graph.cpp)
HF_CLASS = {"t5": "T5ForConditionalGeneration", "t5encoder": "T5EncoderModel"}
_TOP = {"token_embd.weight": "shared.weight", "enc.output_norm.weight": "encoder.final_layer_norm.weight",
        "output.weight": "lm_head.weight"}
_ENC_BLOCK = {"attn_norm": "layer.0.layer_norm", "attn_q": "layer.0.SelfAttention.q",
              "attn_k": "layer.0.SelfAttention.k", "attn_v": "layer.0.SelfAttention.v",
              "attn_o": "layer.0.SelfAttention.o", "attn_rel_b": "layer.0.SelfAttention.relative_attention_bias",
              "ffn_norm": "layer.1.layer_norm"}
# (ASCII digits without leading zeros, as gguf_learned.BLOCK_RE)
ENC_RE = re.compile(r"enc\.blk\.(0|[1-9][0-9]*)\.([a-z_]+)\.(weight)")
REL_B = "enc.blk.{layer}.attn_rel_b.weight"


def t5_hf_name(gguf_name: str, tensors=()) -> str | None:
    """The Hugging Face name of a `t5` / `t5encoder` GGUF tensor (the encoder's and the shared table), or None."""
    return mapped_name(gguf_name, _TOP, "encoder.block", _ENC_BLOCK, ENC_RE)


def t5_config(header: Header, where: str) -> dict:
    """A T5Config-style config.json dict (model_type "t5", or "umt5" for a table in every layer) for a `t5` /
    `t5encoder` GGUF; InputError in one line for metadata llama.cpp would refuse or run otherwise."""
    f = header.fields
    arch = f["general.architecture"]
    d = meta_int(f, f"{arch}.embedding_length", where)
    heads = meta_int(f, f"{arch}.attention.head_count", where)
    require(heads <= MAX_HEADS, "%1: metadata %2 is %3; at most %4 heads are read", where,
            f"{arch}.attention.head_count", heads, f"{MAX_HEADS:,}")
    kv = meta_int(f, f"{arch}.attention.head_count_kv", where, default=heads)
    require(kv == heads, "%1: metadata %2.attention.head_count_kv is %3; a T5 has one key head a query head (%4)",
            where, arch, kv, heads)
    require(d % heads == 0 or f"{arch}.attention.key_length" in f, "%1: the width %2 is not a multiple of the %3 "
            "attention heads", where, d, heads)
    head_dim = meta_int(f, f"{arch}.attention.key_length", where, default=d // heads)
    layers = meta_int(f, f"{arch}.block_count", where)
    buckets = meta_int(f, f"{arch}.attention.relative_buckets_count", where)
    require(4 <= buckets and buckets // 4 < LLAMA_MAX_DISTANCE, "%1: metadata %2 is %3; the encoder's bucket rule "
            "needs 4 to 515 buckets at llama.cpp's max distance of 128", where,
            f"{arch}.attention.relative_buckets_count", buckets)
    embed = header.tensors.get("token_embd.weight")
    require(embed is not None and len(embed.ne) == 2 and embed.ne[0] == d,
            "%1: tensor token_embd.weight is missing or not (vocab, %2)", where, d)
    tables = [il for il in range(1, layers) if REL_B.format(layer=il) in header.tensors]
    require(not tables or len(tables) == layers - 1, "%1: tensor %2 is in %3 of the %4 later layers; PE Explorer "
            "reads layer 0's table for every layer (T5) or one in every layer (UMT5)", where,
            "enc.blk.N.attn_rel_b.weight", len(tables), layers - 1)
    return {"model_type": "umt5" if tables else "t5", "architectures": [HF_CLASS[arch]], "d_model": d,
            "d_kv": head_dim, "num_heads": heads, "num_layers": layers,
            "d_ff": meta_int(f, f"{arch}.feed_forward_length", where, default=4 * d),
            "relative_attention_num_buckets": buckets, "relative_attention_max_distance": LLAMA_MAX_DISTANCE,
            "layer_norm_epsilon": meta_float(f, f"{arch}.attention.layer_norm_rms_epsilon", where),
            "vocab_size": int(embed.ne[1]), "is_encoder_decoder": arch == "t5"}


def check_t5_layers(header: Header, config: dict, where: str) -> None:
    """Layer 0's norm, q, k and relative bias (and every layer's bias in a UMT5 file) are in the file with the shapes
    the metadata implies (GGUF ne = (in, out); attn_rel_b {n_head, n_rel_attn_bkts} as llama.cpp loads it)."""
    d, heads, inner = config["d_model"], config["num_heads"], config["num_heads"] * config["d_kv"]
    table = (heads, config["relative_attention_num_buckets"])
    want = {"enc.blk.0.attn_norm.weight": (d,), "enc.blk.0.attn_q.weight": (d, inner),
            "enc.blk.0.attn_k.weight": (d, inner), REL_B.format(layer=0): table}
    if config["model_type"] == "umt5":
        want.update({REL_B.format(layer=il): table for il in range(1, config["num_layers"])})
    require_tensor_shapes(header, want, where)


T5_ARCHS = {arch: (t5_hf_name, t5_config, check_t5_layers) for arch in HF_CLASS}