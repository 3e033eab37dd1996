"""GGUF files of MPT (llama.cpp's `mpt` architecture): ALiBi, read as the Hugging Face folder is (mpt.py).

Sources (ggml-org/llama.cpp):
- conversion/mpt.py (formerly convert_hf_to_gguf.py), `MPTModel(TextModel)`, MODEL_ARCH.MPT: `set_gguf_parameters`
  writes mpt.context_length (max_seq_len), mpt.embedding_length (d_model), mpt.block_count (n_layers),
  mpt.feed_forward_length (4 d_model), mpt.attention.head_count (n_heads), head_count_kv only when
  attn_config.kv_n_heads is set, mpt.attention.layer_norm_epsilon = 1e-5 whatever the config says (the file's is
  what llama.cpp runs, so it is read), mpt.attention.clamp_kqv only when attn_config.clip_qkv is set, and
  mpt.attention.max_alibi_bias = attn_config.alibi_bias_max (0.0 when alibi is false). softmax_scale is not
  written. `modify_tensors` only renames (no reorder: Wqkv's rows stay q, then k, then v, whole blocks); gguf-py's
  TensorNameMap: wte -> token_embd, wpe -> position_embd, blocks.N.norm_1 -> attn_norm, attn.Wqkv -> attn_qkv,
  attn.q_ln / k_ln -> attn_q_norm / attn_k_norm, attn.out_proj -> attn_output, norm_2 -> ffn_norm, ffn.up_proj /
  down_proj -> ffn_up / ffn_down, norm_f -> output_norm, lm_head -> output. Vocabulary: `_set_vocab_gpt2`,
  tokenizer.ggml.pre "mpt" (GPT-2's regex, gguf_vocab.py).
- src/models/mpt.cpp: `llama_model_mpt::load_arch_hparams` reads layer_norm_epsilon, clamp_kqv (optional) and
  max_alibi_bias (optional in the newest, default 0); `load_arch_tensors`: attn_qkv {n_embd, n_embd + 2 n_embd_gqa},
  optional biases, position_embd, attn_q_norm / attn_k_norm and ffn_act.scales. The graph: X = token_embd[ids]
  (+ position_embd rows when the file has them), LayerNorm by attn_norm (bias when present), `build_qkv`
  (src/llama-graph.cpp): attn_qkv (+ its bias), clamped to +-clamp_kqv only when clamp_kqv > 0, q the first
  n_embd rows, k the next; LayerNorms of the whole q and k when attn_q_norm is present; q·k x 1 / sqrt(head_dim).
- src/llama-model.cpp, `load_hparams`: use_alibi only when f_max_alibi_bias > 0; then the KQ mask holds
  -|p0 - p1| (src/llama-kv-cache.cpp, `set_input_kq_mask`) and ggml_soft_max_ext (ggml/src/ggml-cpu/ops.cpp,
  `ggml_compute_forward_soft_max_f32`) scales it by ggml's slopes for max_bias (see gguf_bloom.py). With max_bias 8
  they are BLOOM's slopes, hence MPT's (mpt.py): tests/test_gguf_mpt.py checks 1 .. 64 heads.
Decisions: a max_alibi_bias other than 8 is refused (llama.cpp would use it; transformers' MPT always makes its
slopes with 8, and the views show MPT's); 0, negative, NaN or missing means no ALiBi at all in llama.cpp: refused.
clamp_kqv > 0 is the folder's clip_qkv, 0 no clamp (as llama.cpp), negative or NaN refused. What llama.cpp runs
and transformers' MPT does not (attn_q_norm, biases on attn_norm or attn_qkv, position_embd, key/value heads
shared) is refused at open, each in one line. context_length is max_seq_len: a longer text is refused as for the
folder (llama.cpp would run it). Names here are the Hugging Face ones without `transformer.`.
"""

from __future__ import annotations

import math
import re

from explorer.backend.models.gguf_archs import meta_int, require_tensor_shapes
from explorer.backend.models.gguf_bloom import (
    alibi_config,
    bloom_config,
    bloom_hf_name,
    check_bloom_layers,
    check_qkv_layers,
    refuse_unloaded,
)
from explorer.backend.models.gguf_header import Header
from explorer.backend.models.gguf_learned import BLOCK_RE, mapped_name
from explorer.errors import require, shown

_TOP = {"token_embd.weight": "wte.weight", "output_norm.weight": "norm_f.weight", "output_norm.bias": "norm_f.bias",
        "output.weight": "lm_head.weight", "position_embd.weight": "wpe.weight"}
_BLOCK = {"attn_norm": "norm_1", "attn_qkv": "attn.Wqkv", "attn_output": "attn.out_proj", "ffn_norm": "norm_2",
          "ffn_up": "ffn.up_proj", "ffn_down": "ffn.down_proj", "attn_q_norm": "attn.q_ln", "attn_k_norm": "attn.k_ln"}
FFN_ACT = re.compile(r"blk\.(0|[1-9][0-9]*)\.ffn_act\.scales")     # (AWQ's: loaded by llama.cpp, not read here)
MAX_BIAS, CLAMP = "mpt.attention.max_alibi_bias", "mpt.attention.clamp_kqv"


def mpt_hf_name(gguf_name: str, tensors=()) -> str | None:
    """The Hugging Face name of an `mpt` GGUF tensor (without `transformer.`), or None
    (tensors: unread; falcon_hf_name, in the same table, needs them)."""
    return mapped_name(gguf_name, _TOP, "blocks", _BLOCK)


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def mpt_config(header: Header, where: str) -> dict:
    """An MptConfig-style config.json dict for an `mpt` GGUF (its layer tensors checked: check_mpt_layers)."""
    f = header.fields
    common = alibi_config(header, "mpt", "MPT", where)
    bias = f.get(MAX_BIAS, 0.0)
    require(_number(bias) and bias > 0, "%1: metadata %2 is %3 (0 when missing); llama.cpp's mpt adds its ALiBi bias "
            "only for a positive one, and without it nothing tells positions apart: not shown", where, MAX_BIAS,
            shown(bias))
    require(bias == 8, "%1: metadata %2 is %3; PE Explorer shows MPT's ALiBi slopes for 8 only (transformers' MPT "
            "makes them with 8, llama.cpp with the file's)", where, MAX_BIAS, shown(bias))
    clamp = f.get(CLAMP, 0.0)
    require(_number(clamp) and clamp >= 0, "%1: metadata %2 is %3; it must be a number >= 0 (0: no clamp)", where,
            CLAMP, shown(clamp))
    return {"model_type": "mpt", "architectures": ["MPTForCausalLM"], **common, "no_bias": True,
            "max_seq_len": meta_int(f, "mpt.context_length", where),          # (llama.cpp's n_ctx_train)
            "attn_config": {"alibi": True, "alibi_bias_max": 8, "clip_qkv": float(clamp) if clamp > 0 else None}}


def check_mpt_layers(header: Header, config: dict, where: str) -> None:
    """The tensors X and layer 0 read and every layer's attn_qkv, with the shapes the config implies (GGUF ne =
    (in, out)); what llama.cpp's mpt runs and PE Explorer's MPT does not, and what it does not load, refused."""
    d = config["hidden_size"]
    require_tensor_shapes(header, {"output_norm.weight": (d,), "blk.0.attn_norm.weight": (d,)}, where)
    check_qkv_layers(header, config, where, bias=False)
    require("position_embd.weight" not in header.tensors, "%1: tensor %2 is a learned position table, which "
            "llama.cpp's mpt adds to X; PE Explorer reads MPT with ALiBi alone", where, "position_embd.weight")
    for name in header.tensors:
        m = BLOCK_RE.fullmatch(name)
        kind = (m.group(2), m.group(3)) if m else (None, None)
        require(kind[0] not in ("attn_q_norm", "attn_k_norm"), "%1: tensor %2 is a LayerNorm llama.cpp's mpt applies "
                "to q and k (qk_ln), which PE Explorer does not", where, name)
        require(kind not in (("attn_norm", "bias"), ("attn_qkv", "bias")), "%1: tensor %2 is a bias llama.cpp's mpt "
                "adds before q and k, which PE Explorer's MPT (as transformers') does not read", where, name)
    refuse_unloaded(header, config, "mpt", mpt_hf_name, where, unread=FFN_ACT)


# the ALiBi architectures: (GGUF name -> Hugging Face name, config.json dict, layer check)
ALIBI_ARCHS = {"bloom": (bloom_hf_name, bloom_config, check_bloom_layers),
               "mpt": (mpt_hf_name, mpt_config, check_mpt_layers)}
