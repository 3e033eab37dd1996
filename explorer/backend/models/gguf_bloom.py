"""GGUF files of BLOOM (llama.cpp's `bloom` architecture): ALiBi, read as the Hugging Face folder is (bloom.py).

Sources (ggml-org/llama.cpp):
- conversion/bloom.py (formerly convert_hf_to_gguf.py), `BloomModel(TextModel)`, MODEL_ARCH.BLOOM:
  `set_gguf_parameters` writes bloom.context_length (seq_length, else n_embed: not a trained length, so not
  read; the folder's 2,048 stands, bloom.TRAINED_LENGTH), bloom.embedding_length (hidden_size / n_embed),
  bloom.feed_forward_length (4 n_embed), bloom.block_count (n_layer), bloom.attention.head_count and
  head_count_kv (both n_head) and bloom.attention.layer_norm_epsilon. `modify_tensors` strips `transformer.` and
  REORDERS each h.N.self_attention.query_key_value weight and bias from BLOOM's rows head by head (q, k, v of
  head 0, then of head 1, ...: reshape (n_head, 3, head_dim, n_embed)) into all q rows, then all k, then all v
  ("Map bloom-style qkv_linear to gpt-style"). The reader puts the rows back (`qkv_rows`).
- gguf-py's TensorNameMap: word_embeddings -> token_embd, word_embeddings_layernorm -> token_embd_norm,
  h.N.input_layernorm -> blk.N.attn_norm, self_attention.query_key_value -> attn_qkv, self_attention.dense ->
  attn_output, post_attention_layernorm -> ffn_norm, mlp.dense_h_to_4h -> ffn_up, mlp.dense_4h_to_h -> ffn_down,
  ln_f -> output_norm, lm_head -> output. Its vocabulary: TextModel's `_set_vocab_gpt2`, tokenizer.ggml.pre
  "bloom" (gguf_vocab.py).
- src/models/bloom.cpp, `llama_model_bloom::load_arch_tensors`: every tensor above with its bias, attn_qkv
  {n_embd, n_embd + 2 n_embd_gqa}; the graph: LayerNorm(token_embd) by token_embd_norm, then per layer
  LayerNorm by attn_norm and `build_qkv` splitting attn_qkv's rows as q, k, v; q·k / sqrt(head_dim).
  `load_arch_hparams` sets f_max_alibi_bias = 8 whatever the file says ("TODO: become GGUF KV parameter").
- ggml/src/ggml-cpu/ops.cpp, `ggml_compute_forward_soft_max_f32`, adds slope x mask, the mask holding -|p0 - p1|
  for the keys read (src/llama-kv-cache.cpp, `set_input_kq_mask`, when hparams.use_alibi):
  n_head_log2 = 2^floor(log2(n_head)), m0 = 2^(-max_bias / n_head_log2), m1 = 2^(-max_bias / 2 / n_head_log2),
  slope of head h = m0^(h + 1) for h < n_head_log2, else m1^(2 (h - n_head_log2) + 1). With max_bias 8 these
  are transformers' build_alibi_tensor slopes for every head count (tests/test_gguf_bloom.py checks 1 .. 112),
  so the views use bloom.alibi_slopes for a .gguf BLOOM as for its folder.
Names here are the Hugging Face ones without the `transformer.` prefix (families.py reads those).
"""

from __future__ import annotations

import numpy as np

from explorer.backend.models.bloom import MAX_HEADS
from explorer.backend.models.gguf_archs import meta_float, meta_int, require_tensor_shapes
from explorer.backend.models.gguf_header import Header
from explorer.backend.models.gguf_learned import BLOCK_RE, mapped_name
from explorer.errors import require

_TOP = {"token_embd.weight": "word_embeddings.weight", "token_embd_norm.weight": "word_embeddings_layernorm.weight",
        "token_embd_norm.bias": "word_embeddings_layernorm.bias", "output_norm.weight": "ln_f.weight",
        "output_norm.bias": "ln_f.bias", "output.weight": "lm_head.weight"}
_BLOCK = {"attn_norm": "input_layernorm", "attn_qkv": "self_attention.query_key_value",
          "attn_output": "self_attention.dense", "ffn_norm": "post_attention_layernorm",
          "ffn_up": "mlp.dense_h_to_4h", "ffn_down": "mlp.dense_4h_to_h"}
QKV = "attention.query_key_value."      # (BLOOM's and Falcon's self_attention., GPT-NeoX's attention.)


def bloom_hf_name(gguf_name: str, tensors=()) -> str | None:
    """The Hugging Face name of a `bloom` GGUF tensor (without `transformer.`), or None
    (tensors: unread; falcon_hf_name, in the same table, needs them)."""
    return mapped_name(gguf_name, _TOP, "h", _BLOCK)


def qkv_rows(name: str, n_rows: int, heads: int, kv: int | None = None) -> np.ndarray | None:
    """Index g with hf[r] = gguf[g[r]] for a query_key_value weight / bias of (H + 2 KV) hd rows (the converter's all
    q; all k; all v back into KV groups of H / KV q heads, k, v: BLOOM's and GPT-NeoX's per head q, k, v where
    KV = H, the default; Falcon's, gguf_falcon.py); None for other tensors."""
    if QKV not in name:
        return None
    kv = heads if kv is None else kv
    rows = np.arange(n_rows).reshape(heads + 2 * kv, n_rows // (heads + 2 * kv))     # (H + 2 KV, hd): stored rows
    q = rows[:heads].reshape(kv, heads // kv, -1)                                     # (KV, H / KV, hd)
    k, v = rows[heads:heads + kv, None], rows[heads + kv:, None]                      # (KV, 1, hd) each
    return np.concatenate([q, k, v], axis=1).reshape(-1)                              # ((H + 2 KV) hd,)


def bloom_config(header: Header, where: str) -> dict:
    """A BloomConfig-style config.json dict for a `bloom` GGUF (its layer tensors checked: check_bloom_layers)."""
    common = alibi_config(header, "bloom", "BLOOM", where)
    return {"model_type": "bloom", "architectures": ["BloomForCausalLM"], **common}


def alibi_config(header: Header, arch: str, family: str, where: str) -> dict:
    """The config.json keys BloomConfig and MptConfig (its attribute_map) share, from a `bloom` or `mpt` GGUF: the
    width, head_count heads (at most MAX_HEADS, dividing it, one key/value head each, of width / heads channels),
    block_count, the LayerNorms' epsilon, the token table's rows, bos / eos."""
    f = header.fields
    d = meta_int(f, f"{arch}.embedding_length", where)
    heads = meta_int(f, f"{arch}.attention.head_count", where)
    require(heads <= MAX_HEADS, "%1: metadata %2 is %3; at most %4 heads are read", where,
            f"{arch}.attention.head_count", heads, f"{MAX_HEADS:,}")
    require(d % heads == 0, "%1: the width %2 is not a multiple of the %3 attention heads", where, d, heads)
    kv = meta_int(f, f"{arch}.attention.head_count_kv", where, default=heads)
    require(kv == heads, "%1: metadata %2 is %3; %5 has one key/value head per head (%4)", where,
            f"{arch}.attention.head_count_kv", kv, heads, family)
    for key in (f"{arch}.attention.key_length", f"{arch}.attention.value_length"):
        size = meta_int(f, key, where, default=d // heads)
        require(size == d // heads, "%1: metadata %2 is %3; a %5 head has embedding_length / head_count (%4) "
                                    "channels", where, key, size, d // heads, family)
    embed = header.tensors.get("token_embd.weight")
    require(embed is not None and len(embed.ne) == 2 and embed.ne[0] == d and embed.ne[1] >= 1,
            "%1: tensor %2 is missing or not (rows, %3)", where, "token_embd.weight", d)
    layers = meta_int(f, f"{arch}.block_count", where)
    config = {"hidden_size": d, "num_attention_heads": heads, "num_hidden_layers": layers,
              "layer_norm_epsilon": meta_float(f, f"{arch}.attention.layer_norm_epsilon", where),
              "vocab_size": int(embed.ne[1]), "tie_word_embeddings": "output.weight" not in header.tensors}
    for key, name in (("bos_token_id", "bos"), ("eos_token_id", "eos")):
        if isinstance(f.get(f"tokenizer.ggml.{name}_token_id"), int):
            config[key] = int(f[f"tokenizer.ggml.{name}_token_id"])
    return config


def check_bloom_layers(header: Header, config: dict, where: str) -> None:
    """The tensors X and layer 0 read, and every layer's attn_qkv (the reader reorders its rows), with the shapes
    the config implies (GGUF ne = (in, out)); a tensor llama.cpp's bloom does not load is refused, as its loader
    refuses it."""
    d = config["hidden_size"]
    want = {"token_embd_norm.weight": (d,), "token_embd_norm.bias": (d,), "output_norm.weight": (d,),
            "blk.0.attn_norm.weight": (d,), "blk.0.attn_norm.bias": (d,)}
    require_tensor_shapes(header, want, where)
    check_qkv_layers(header, config, where, bias=True)
    refuse_unloaded(header, config, "bloom", bloom_hf_name, where)


def check_qkv_layers(header: Header, config: dict, where: str, bias: bool) -> None:
    """Every layer's attn_qkv weight (and bias) of 3 d rows, checked layer by layer (a block_count of 2^31 stops at
    the first missing one)."""
    d = config["hidden_size"]
    for layer in range(config["num_hidden_layers"]):
        want = {f"blk.{layer}.attn_qkv.weight": (d, 3 * d)}
        require_tensor_shapes(header, {**want, f"blk.{layer}.attn_qkv.bias": (3 * d,)} if bias else want, where)


def refuse_unloaded(header: Header, config: dict, arch: str, hf_name, where: str, unread=None) -> None:
    """InputError for a tensor llama.cpp's `arch` does not load (hf_name gives None and unread, a pattern of names
    it loads that PE Explorer does not read, does not match it), or one of a layer past block_count: llama.cpp's
    loader refuses such a file."""
    layers = config["num_hidden_layers"]
    for name in header.tensors:
        m = BLOCK_RE.fullmatch(name)
        known = hf_name(name) is not None or (unread is not None and unread.fullmatch(name) is not None)
        require(known and (m is None or int(m.group(1)) < layers), "%1: tensor %2 is not one llama.cpp's %3 "
                "loads (its loader refuses the file)", where, name, arch)
