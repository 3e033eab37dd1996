"""GGUF files of GPT-NeoX / Pythia (llama.cpp's `gptneox` architecture), read as the Hugging Face folder is.

Sources (ggml-org/llama.cpp):
- conversion/gptneox.py (formerly convert_hf_to_gguf.py), `GPTNeoXModel(TextModel)`, MODEL_ARCH.GPTNEOX, registered
  for GPTNeoXForCausalLM: `set_gguf_parameters` writes gptneox.context_length (max_position_embeddings),
  embedding_length (hidden_size), block_count, feed_forward_length (intermediate_size), rope.dimension_count =
  int(rotary_pct x (hidden_size // num_attention_heads)), attention.head_count, use_parallel_residual (default true)
  and attention.layer_norm_epsilon: no head_count_kv, no rope.freq_base (llama.cpp's 10,000 whatever
  rotary_emb_base was). `modify_tensors` REORDERS each attention.query_key_value weight and bias from GPT-NeoX's
  rows head by head (q, k, v of head 0, then of head 1, ...: reshape (n_head, 3, head_dim, n_embed)) into all q
  rows, then all k, then all v ("Map bloom-style qkv_linear to gpt-style"), BLOOM's reorder; the reader puts the
  rows back (gguf_bloom.qkv_rows, one k and v a head).
- gguf-py/gguf/tensor_mapping.py: gpt_neox.embed_in -> token_embd, layers.N.input_layernorm -> blk.N.attn_norm,
  attention.query_key_value -> attn_qkv, attention.dense -> attn_output, post_attention_layernorm -> ffn_norm,
  mlp.dense_h_to_4h / dense_4h_to_h -> ffn_up / ffn_down, final_layer_norm -> output_norm, embed_out -> output.
- src/llama-model.cpp, LLM_ARCH_GPTNEOX: `load_hparams` reads attention.layer_norm_epsilon and
  use_parallel_residual, both required (get_key without a default: a file without either is refused); the
  common keys give n_rot = rope.dimension_count, else the head size, and freq_base 10,000 when the file has none.
  `load_tensors`: token_embd, output_norm with bias, output (no fallback to token_embd), and every layer's
  attn_norm, attn_qkv {n_embd, n_embd + 2 n_embd_gqa}, attn_output, ffn_norm, ffn_up, ffn_down, each with its
  bias: nothing else. `llama_model_rope_type`: GPTNEOX is LLAMA_ROPE_TYPE_NEOX (pairs offset by n_rot / 2).
- src/models/gptneox.cpp, `llm_build_gptneox`: LayerNorm by attn_norm; attn_qkv + its bias, viewed as q (the first
  n_embd rows), k (the next n_embd_gqa), v; ggml_rope_ext over the first n_rot channels of each head (the rest
  pass through), as GPTNeoXAttention's rotate_half over rotary_ndims = int(head_dim x rotary_pct); q·k x
  1 / sqrt(head_dim); the MLP reads ffn_norm of the layer's input (use_par_res) or of x + attention.
Read back as GPTNeoXConfig's 4.x keys (rotary_emb_base, rotary_pct): rope.dimension_count / head_dim (a fraction
whose int(head_dim x it) gives the count back), one k and v a head (a head_count_kv other than head_count is
refused: llama.cpp would share them, GPTNeoXAttention cannot), key / value length embedding_length / head_count.
Names are the Hugging Face ones without `gpt_neox.` (families.py reads those); embed_out has no prefix.
"""

from __future__ import annotations

from explorer.backend.models.bloom import MAX_HEADS
from explorer.backend.models.config_rope import rotary_fraction
from explorer.backend.models.gguf_archs import meta_float, meta_int, require_tensor_shapes
from explorer.backend.models.gguf_bloom import refuse_unloaded
from explorer.backend.models.gguf_header import Header
from explorer.backend.models.gguf_learned import mapped_name
from explorer.errors import require, shown

_TOP = {"token_embd.weight": "embed_in.weight", "output_norm.weight": "final_layer_norm.weight",
        "output_norm.bias": "final_layer_norm.bias", "output.weight": "embed_out.weight"}
_BLOCK = {"attn_norm": "input_layernorm", "attn_qkv": "attention.query_key_value", "attn_output": "attention.dense",
          "ffn_norm": "post_attention_layernorm", "ffn_up": "mlp.dense_h_to_4h", "ffn_down": "mlp.dense_4h_to_h"}
ARCH = "gptneox"


def gptneox_hf_name(gguf_name: str, tensors=()) -> str | None:
    """The Hugging Face name of a `gptneox` GGUF tensor (without `gpt_neox.`), or None
    (tensors: unread; falcon_hf_name, in the same table, needs them)."""
    return mapped_name(gguf_name, _TOP, "layers", _BLOCK)


def refuse_rope_scaling(f: dict, arch: str, where: str) -> None:
    """A rope.scaling.* or rope.scale_linear key that would change llama.cpp's rotation (any but a type "none" or
    "linear", a factor of 0 or 1, other values of 1) is refused: the converter writes none."""
    for key in sorted(k for k in f if k.startswith((f"{arch}.rope.scaling.", f"{arch}.rope.scale_linear"))):
        value, neutral = f[key], (0, 1) if key.endswith((".factor", "scale_linear")) else (1,)   # (0: no factor)
        plain = (value == "none" if isinstance(value, str) else isinstance(value, (int, float))
                 and not isinstance(value, bool) and value in neutral)
        require(plain or key.endswith(".type") and value == "linear", "%1: metadata %2 is %3; PE Explorer reads "
                "a %4 file without RoPE scaling (llama.cpp's converter writes none)", where, key, shown(value), arch)


def gptneox_config(header: Header, where: str) -> dict:
    """A GPTNeoXConfig-style config.json dict for a `gptneox` GGUF (its tensors checked: check_gptneox_layers)."""
    f, tensors = header.fields, header.tensors
    d = meta_int(f, f"{ARCH}.embedding_length", where)
    heads = meta_int(f, f"{ARCH}.attention.head_count", where)
    require(heads <= MAX_HEADS, "%1: metadata %2 is %3; at most %4 heads are read", where,
            f"{ARCH}.attention.head_count", heads, f"{MAX_HEADS:,}")
    require(d % heads == 0, "%1: the width %2 is not a multiple of the %3 attention heads", where, d, heads)
    hd = d // heads
    kv = meta_int(f, f"{ARCH}.attention.head_count_kv", where, default=heads)     # (llama.cpp's default)
    require(kv == heads, "%1: metadata %2 is %3; %5 has one key/value head per head (%4)", where,
            f"{ARCH}.attention.head_count_kv", kv, heads, "GPT-NeoX")
    for key in (f"{ARCH}.attention.key_length", f"{ARCH}.attention.value_length"):
        size = meta_int(f, key, where, default=hd)
        require(size == hd, "%1: metadata %2 is %3; a %5 head has embedding_length / head_count (%4) channels",
                where, key, size, hd, "GPT-NeoX")
    rot = meta_int(f, f"{ARCH}.rope.dimension_count", where, default=hd)
    require(rot <= hd and rot % 2 == 0, "%1: RoPE dimension %2 must be even and <= %3", where, rot, hd)
    base = meta_float(f, f"{ARCH}.rope.freq_base", where, default=10000.0)
    require(base > 1, "%1: metadata %2 is %3; RoPE's base must be > 1", where, f"{ARCH}.rope.freq_base", repr(base))
    refuse_rope_scaling(f, ARCH, where)
    parallel = f.get(f"{ARCH}.use_parallel_residual")
    require(parallel is not None, "%1: metadata %2 is missing", where, f"{ARCH}.use_parallel_residual")
    require(isinstance(parallel, bool), "%1: metadata %2 must be a boolean, not %3", where,
            f"{ARCH}.use_parallel_residual", shown(parallel))
    embed = tensors.get("token_embd.weight")
    require(embed is not None and len(embed.ne) == 2 and embed.ne[0] == d and embed.ne[1] >= 1,
            "%1: tensor %2 is missing or not (rows, %3)", where, "token_embd.weight", d)
    config = {"model_type": "gpt_neox", "architectures": ["GPTNeoXForCausalLM"], "hidden_size": d,
              "num_attention_heads": heads, "num_hidden_layers": meta_int(f, f"{ARCH}.block_count", where),
              "intermediate_size": meta_int(f, f"{ARCH}.feed_forward_length", where, default=4 * d),
              "layer_norm_eps": meta_float(f, f"{ARCH}.attention.layer_norm_epsilon", where),
              "vocab_size": int(embed.ne[1]), "hidden_act": "gelu", "attention_bias": True,
              "max_position_embeddings": meta_int(f, f"{ARCH}.context_length", where, default=2048),
              "rotary_emb_base": base, "rotary_pct": rotary_fraction(rot, hd), "rope_scaling": None,
              "use_parallel_residual": parallel, "tie_word_embeddings": False}
    for key, name in (("bos_token_id", "bos"), ("eos_token_id", "eos")):
        if isinstance(f.get(f"tokenizer.ggml.{name}_token_id"), int):
            config[key] = int(f[f"tokenizer.ggml.{name}_token_id"])
    return config


def check_gptneox_layers(header: Header, config: dict, where: str) -> None:
    """Every tensor llama.cpp's gptneox loads, with the shapes the config implies (GGUF ne = (in, out)), layer by
    layer (a block_count of 2^31 stops at the first missing one); a tensor it does not load (or of a layer past
    block_count) refused, as its loader refuses it."""
    d, ff, vocab = config["hidden_size"], config["intermediate_size"], config["vocab_size"]
    require_tensor_shapes(header, {"output_norm.weight": (d,), "output_norm.bias": (d,),
                                   "output.weight": (d, vocab)}, where)
    for layer in range(config["num_hidden_layers"]):
        b = f"blk.{layer}."
        want = {f"{b}{n}.{kind}": (d,) for n in ("attn_norm", "ffn_norm") for kind in ("weight", "bias")}
        want.update({f"{b}attn_qkv.weight": (d, 3 * d), f"{b}attn_qkv.bias": (3 * d,),
                     f"{b}attn_output.weight": (d, d), f"{b}attn_output.bias": (d,),
                     f"{b}ffn_up.weight": (d, ff), f"{b}ffn_up.bias": (ff,),
                     f"{b}ffn_down.weight": (ff, d), f"{b}ffn_down.bias": (d,)})
        require_tensor_shapes(header, want, where)
    refuse_unloaded(header, config, ARCH, gptneox_hf_name, where)


NEOX_ARCHS = {ARCH: (gptneox_hf_name, gptneox_config, check_gptneox_layers)}
