"""GGUF files of rotary Falcon (llama.cpp's `falcon` architecture), read as the Hugging Face folder is (falcon.py).

Sources (ggml-org/llama.cpp):
- conversion/falcon.py (formerly convert_hf_to_gguf.py), `FalconModel(TextModel)`, MODEL_ARCH.FALCON, registered
  for FalconForCausalLM and RWForCausalLM: `set_gguf_parameters` writes falcon.context_length 2048 ("not in
  config.json"), tensor_data_layout "jploski", embedding_length (hidden_size), feed_forward_length (4 hidden_size),
  block_count, attention.head_count (num_attention_heads, else n_head), head_count_kv (num_kv_heads, else n_head_kv,
  else 1) and attention.layer_norm_epsilon; no rope key (llama.cpp's base 10,000, n_rot = head_dim).
  `modify_tensors` REORDERS each query_key_value weight from Falcon's KV groups (view(n_head_kv, n_head / n_head_kv
  + 2, head_dim, hidden): each group's q heads, then its k, then its v) into all q rows, then all k, then all v; the
  reader puts the rows back (gguf_bloom.qkv_rows with the kv head count).
- gguf-py/gguf/tensor_mapping.py: transformer.word_embeddings -> token_embd, h.N.input_layernorm (falcon-7b) and
  h.N.ln_mlp (falcon-40b) -> blk.N.attn_norm, h.N.ln_attn (falcon-40b) -> attn_norm_2, self_attention.query_key_value
  -> attn_qkv, self_attention.dense -> attn_output, mlp.dense_h_to_4h / dense_4h_to_h -> ffn_up / ffn_down, ln_f ->
  output_norm, lm_head -> output. Vocabulary: `_set_vocab_gpt2`, tokenizer.ggml.pre "falcon" (gguf_vocab.py).
- src/models/falcon.cpp: loads token_embd, output_norm and its bias, output (else token_embd), per layer attn_norm
  with bias, attn_norm_2 with bias (optional), attn_qkv {n_embd, n_embd + 2 n_embd_gqa} (no bias), attn_output,
  ffn_up, ffn_down: nothing else. Its graph: attention reads attn_norm_2 where the layer has it (Falcon-40B:
  ln_attn), else attn_norm; `build_qkv` splits attn_qkv's rows as q, k, v; RoPE over n_rot (asserted == head_dim)
  channels, q·k x 1 / sqrt(head_dim); the MLP reads attn_norm, in parallel (parallel_attn). src/llama-model.cpp,
  `llama_model_rope_type`: falcon is LLAMA_ROPE_TYPE_NEOX (pairs offset by n_rot / 2: transformers' rotate-half).
Falcon-RW (alibi true) cannot be converted (the reshape with n_head_kv 1 fails for its per-head layout) and
falcon.cpp has no ALiBi: a `falcon` file is rotary. Read back as FalconConfig: kv = head_count_kv; two norms a layer
(attn_norm_2) or 1 < kv < heads -> new_decoder_architecture (num_ln_in_parallel_attn 2 or 1), else multi_query for kv
1 and one k and v a head for kv = heads; parallel_attn, no bias. Names are Hugging Face's without `transformer.`.
"""

from __future__ import annotations

from explorer.backend.models.bloom import MAX_HEADS
from explorer.backend.models.gguf_archs import meta_float, meta_int, require_tensor_shapes
from explorer.backend.models.gguf_bloom import refuse_unloaded
from explorer.backend.models.gguf_gptneox import NEOX_ARCHS, refuse_rope_scaling
from explorer.backend.models.gguf_header import Header
from explorer.backend.models.gguf_learned import BLOCK_RE, mapped_name
from explorer.backend.models.gguf_mpt import ALIBI_ARCHS
from explorer.backend.models.gguf_t5 import T5_ARCHS
from explorer.errors import require

_TOP = {"token_embd.weight": "word_embeddings.weight", "output_norm.weight": "ln_f.weight",
        "output_norm.bias": "ln_f.bias", "output.weight": "lm_head.weight"}
_BLOCK = {"attn_norm": "input_layernorm", "attn_norm_2": "ln_attn", "attn_qkv": "self_attention.query_key_value",
          "attn_output": "self_attention.dense", "ffn_up": "mlp.dense_h_to_4h", "ffn_down": "mlp.dense_4h_to_h"}
NORMS = ("attn_norm", "attn_norm_2")          # the only layer tensors falcon.cpp loads with a bias


def falcon_hf_name(gguf_name: str, tensors=()) -> str | None:
    """The Hugging Face name of a `falcon` GGUF tensor (without `transformer.`), or None (a bias falcon.cpp does not
    load among them). attn_norm is ln_mlp in a layer that also holds attn_norm_2 (ln_attn), else input_layernorm."""
    name = mapped_name(gguf_name, _TOP, "h", _BLOCK)
    m = BLOCK_RE.fullmatch(gguf_name)
    if name is None or m is None:
        return name
    if m.group(3) == "bias" and m.group(2) not in NORMS:
        return None
    if m.group(2) == "attn_norm" and f"blk.{m.group(1)}.attn_norm_2.weight" in tensors:
        return name.replace(".input_layernorm.", ".ln_mlp.")
    return name


def _check_rope_keys(f: dict, head_dim: int, where: str) -> float:
    """RoPE's base (falcon.rope.freq_base, else 10,000); a rotated width other than the head (falcon.cpp aborts) or
    RoPE scaling (the converter writes none; PE Explorer reads a falcon file without) refused."""
    base = meta_float(f, "falcon.rope.freq_base", where, default=10000.0)
    require(base > 1, "%1: metadata %2 is %3; RoPE's base must be > 1", where, "falcon.rope.freq_base", repr(base))
    rot = meta_int(f, "falcon.rope.dimension_count", where, default=head_dim)
    require(rot == head_dim, "%1: metadata %2.rope.dimension_count is %3; llama.cpp's %2 turns the whole head "
                             "(%4 channels)", where, "falcon", rot, head_dim)
    refuse_rope_scaling(f, "falcon", where)
    return base


def falcon_config(header: Header, where: str) -> dict:
    """A FalconConfig-style config.json dict for a `falcon` GGUF (its layer tensors checked: check_falcon_layers)."""
    f, tensors = header.fields, header.tensors
    d = meta_int(f, "falcon.embedding_length", where)
    heads = meta_int(f, "falcon.attention.head_count", where)
    require(heads <= MAX_HEADS, "%1: metadata %2 is %3; at most %4 heads are read", where,
            "falcon.attention.head_count", heads, f"{MAX_HEADS:,}")
    require(d % heads == 0, "%1: the width %2 is not a multiple of the %3 attention heads", where, d, heads)
    kv = meta_int(f, "falcon.attention.head_count_kv", where, default=heads)    # (llama.cpp's default)
    require(heads % kv == 0, "%1: %2 attention heads cannot share %3 key/value heads", where, heads, kv)
    hd = d // heads
    for key in ("falcon.attention.key_length", "falcon.attention.value_length"):
        size = meta_int(f, key, where, default=hd)
        require(size == hd, "%1: metadata %2 is %3; a %5 head has embedding_length / head_count (%4) channels",
                where, key, size, hd, "Falcon")
    require(hd % 2 == 0, "%1: head dimension %2 must be even for RoPE", where, hd)
    embed = tensors.get("token_embd.weight")
    require(embed is not None and len(embed.ne) == 2 and embed.ne[0] == d and embed.ne[1] >= 1,
            "%1: tensor %2 is missing or not (rows, %3)", where, "token_embd.weight", d)
    two_norms = "blk.0.attn_norm_2.weight" in tensors
    new = two_norms or 1 < kv < heads                       # (falcon-40b; Falcon2-11B's one norm, 8 kv heads)
    layers = meta_int(f, "falcon.block_count", where)
    config = {"model_type": "falcon", "architectures": ["FalconForCausalLM"], "hidden_size": d,
              "num_attention_heads": heads, "num_kv_heads": kv, "num_hidden_layers": layers,
              "ffn_hidden_size": meta_int(f, "falcon.feed_forward_length", where, default=4 * d),
              "layer_norm_epsilon": meta_float(f, "falcon.attention.layer_norm_epsilon", where),
              "vocab_size": int(embed.ne[1]), "alibi": False, "bias": False, "parallel_attn": True,
              "new_decoder_architecture": new, "multi_query": kv == 1,
              "max_position_embeddings": meta_int(f, "falcon.context_length", where, default=2048),
              "rope_theta": _check_rope_keys(f, hd, where), "tie_word_embeddings": "output.weight" not in tensors}
    if new:
        config["num_ln_in_parallel_attn"] = 2 if two_norms else 1
    for key, name in (("bos_token_id", "bos"), ("eos_token_id", "eos")):
        if isinstance(f.get(f"tokenizer.ggml.{name}_token_id"), int):
            config[key] = int(f[f"tokenizer.ggml.{name}_token_id"])
    return config


def check_falcon_layers(header: Header, config: dict, where: str) -> None:
    """Every tensor falcon.cpp requires, with the shapes the config implies (GGUF ne = (in, out)), layer by layer (a
    block_count of 2^31 stops at the first missing one); attn_norm_2 in every layer or in none; a tensor falcon.cpp
    does not load (a bias on attn_qkv, ...) or of a layer past block_count refused, as its loader refuses it."""
    d, heads, kv = config["hidden_size"], config["num_attention_heads"], config["num_kv_heads"]
    ff, hd, two_norms = config["ffn_hidden_size"], d // heads, config.get("num_ln_in_parallel_attn") == 2
    require_tensor_shapes(header, {"output_norm.weight": (d,), "output_norm.bias": (d,)}, where)
    if "output.weight" in header.tensors:
        require_tensor_shapes(header, {"output.weight": (d, config["vocab_size"])}, where)
    for layer in range(config["num_hidden_layers"]):
        b = f"blk.{layer}."
        norms = ("attn_norm", "attn_norm_2") if two_norms else ("attn_norm",)
        want = {f"{b}{n}.{kind}": (d,) for n in norms for kind in ("weight", "bias")}
        want.update({f"{b}attn_qkv.weight": (d, (heads + 2 * kv) * hd), f"{b}attn_output.weight": (d, d),
                     f"{b}ffn_up.weight": (d, ff), f"{b}ffn_down.weight": (ff, d)})
        require_tensor_shapes(header, want, where)
        for name in (f"{b}attn_norm_2.weight", f"{b}attn_norm_2.bias"):
            require(two_norms or name not in header.tensors, "%1: tensor %2 is in layer %3 but not in layer 0; PE "
                    "Explorer reads one norm layout for every layer", where, name, layer)
    refuse_unloaded(header, config, "falcon", falcon_hf_name, where)


# the architectures read by their own module, each one fused attn_qkv (gptneox: gguf_gptneox.py), and T5's
# (gguf_t5.py: separate q, k): (GGUF name -> Hugging Face name, config.json dict, layer check)
FUSED_ARCHS = {**ALIBI_ARCHS, "falcon": (falcon_hf_name, falcon_config, check_falcon_layers), **NEOX_ARCHS,
               **T5_ARCHS}
