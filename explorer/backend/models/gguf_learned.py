"""GGUF files of the learned-position families: llama.cpp's `gpt2`, `bert` and `starcoder` architectures.

Sources (ggml-org/llama.cpp, conversion/gpt2.py and conversion/bert.py, formerly convert_hf_to_gguf.py):
- `GPT2Model(TextModel)`, MODEL_ARCH.GPT2: metadata gpt2.block_count (n_layer), gpt2.context_length (n_ctx),
  gpt2.embedding_length (n_embd), gpt2.feed_forward_length (4 n_embd), gpt2.attention.head_count (n_head),
  gpt2.attention.layer_norm_epsilon (layer_norm_epsilon). `modify_tensors` drops `.attn.bias` /
  `.attn.masked_bias` and transposes the Conv1D weights (`c_attn`, `c_proj`, `c_fc`: Hugging Face keeps them
  (in, out)) into Linear's (out, in); names by gguf's TensorNameMap: wte -> token_embd, wpe -> position_embd,
  ln_f -> output_norm, h.N.ln_1 -> blk.N.attn_norm, attn.c_attn -> attn_qkv (q, k, v fused), attn.c_proj ->
  attn_output, ln_2 -> ffn_norm, mlp.c_fc -> ffn_up, mlp.c_proj -> ffn_down. The reader transposes the
  Conv1D weights back, so they read as Hugging Face has them.
- `BertModel(TextModel)`, MODEL_ARCH.BERT: TextModel's metadata (bert.block_count, bert.context_length =
  max_position_embeddings, bert.embedding_length, bert.feed_forward_length, bert.attention.head_count,
  bert.attention.layer_norm_epsilon = layer_norm_eps), tokenizer.ggml.token_type_count; the `bert.` prefix
  and the pooler / cls heads dropped; tensors untransposed: embeddings.word_embeddings -> token_embd,
  position_embeddings -> position_embd, token_type_embeddings -> token_types, embeddings.LayerNorm ->
  token_embd_norm, encoder.layer.N.attention.self.query / key / value -> blk.N.attn_q / attn_k / attn_v,
  attention.output.dense -> attn_output, attention.output.LayerNorm -> attn_output_norm, intermediate.dense ->
  ffn_up, output.dense -> ffn_down, output.LayerNorm -> layer_output_norm. Its WordPiece vocabulary: gguf_wpm.py.
- `StarCoderModel(TextModel)` (conversion/starcoder.py), MODEL_ARCH.STARCODER, from GPTBigCodeForCausalLM:
  starcoder.context_length (n_positions), embedding_length (n_embd), feed_forward_length (4 n_embd),
  block_count, attention.head_count (n_head), attention.head_count_kv 1 (always: multi_query), and
  attention.layer_norm_epsilon; TextModel's tensors renamed only (nn.Linear weights, not transposed): GPT-2's names,
  attn.c_attn -> attn_qkv with its bias. src/models/starcoder.cpp: position_embd {n_embd, context_length},
  attn_norm and its bias, attn_qkv {n_embd, n_embd + 2 n_embd_gqa} and its bias, all required; X = token_embd[ids]
  + position_embd[pos], a LayerNorm, build_qkv's whole q, k, v blocks, q·k / sqrt(head_dim). A file of more kv
  heads (its q, k, v rows whole blocks in llama.cpp, head by head in transformers' multi_query false) is refused.
Names here are the Hugging Face ones without the `transformer.` / `bert.` prefix (tensors.strip_prefix).
"""

from __future__ import annotations

import re

from explorer.backend.models.gguf_archs import ARCHS, meta_float, meta_int, require_tensor_shapes
from explorer.backend.models.gguf_header import Header
from explorer.errors import require

LEARNED = tuple(name for name, arch in ARCHS.items() if arch.learned)       # ("gpt2", "bert", "starcoder")
_GPT2_TOP = {"token_embd.weight": "wte.weight", "position_embd.weight": "wpe.weight",
             "output_norm.weight": "ln_f.weight", "output_norm.bias": "ln_f.bias", "output.weight": "lm_head.weight"}
_TOP = {
    "gpt2": _GPT2_TOP, "starcoder": _GPT2_TOP,
    "bert": {"token_embd.weight": "embeddings.word_embeddings.weight",
             "position_embd.weight": "embeddings.position_embeddings.weight",
             "token_types.weight": "embeddings.token_type_embeddings.weight",
             "token_embd_norm.weight": "embeddings.LayerNorm.weight",
             "token_embd_norm.bias": "embeddings.LayerNorm.bias"},
}
_GPT2_BLOCK = ("h", {"attn_norm": "ln_1", "attn_qkv": "attn.c_attn", "attn_output": "attn.c_proj", "ffn_norm": "ln_2",
                     "ffn_up": "mlp.c_fc", "ffn_down": "mlp.c_proj"})
_BLOCK = {
    "gpt2": _GPT2_BLOCK, "starcoder": _GPT2_BLOCK,
    "bert": ("encoder.layer", {"attn_q": "attention.self.query", "attn_k": "attention.self.key",
                               "attn_v": "attention.self.value", "attn_output": "attention.output.dense",
                               "attn_output_norm": "attention.output.LayerNorm", "ffn_up": "intermediate.dense",
                               "ffn_down": "output.dense", "layer_output_norm": "output.LayerNorm"}),
}
# (ASCII digits without leading zeros: "blk.00." or another script's digits would alias layer 0, which
# llama.cpp never reads; a kind may end in digits: falcon's attn_norm_2)
BLOCK_RE = re.compile(r"blk\.(0|[1-9][0-9]*)\.([a-z_]+[0-9]*)\.(weight|bias)")
CONV1D = (".attn.c_attn.weight", ".attn.c_proj.weight", ".mlp.c_fc.weight", ".mlp.c_proj.weight")


def learned_hf_name(arch: str, gguf_name: str) -> str | None:
    """The Hugging Face name of a `gpt2` / `bert` / `starcoder` GGUF tensor (without the model prefix), or None."""
    return mapped_name(gguf_name, _TOP[arch], *_BLOCK[arch])


def mapped_name(gguf_name: str, top: dict, stem: str, block: dict, pattern: re.Pattern = BLOCK_RE) -> str | None:
    """A GGUF tensor's Hugging Face name by an architecture's tables: top (whole names), or blk.N.<key>.weight /
    .bias as stem.N.<block[key]>.weight / .bias; None for a name in neither. `pattern`: a block name's regex with
    the groups (N, key, suffix) (T5's enc.blk.N.<key>.weight: gguf_t5.ENC_RE)."""
    if gguf_name in top:
        return top[gguf_name]
    m = pattern.fullmatch(gguf_name)
    if m and m.group(2) in block:
        return f"{stem}.{int(m.group(1))}.{block[m.group(2)]}.{m.group(3)}"
    return None


def transposed(arch: str, hf: str) -> bool:
    """Whether the converter transposed this tensor (GPT-2's Conv1D weights), so the reader turns it back."""
    return arch == "gpt2" and hf.endswith(CONV1D)


def _table(header: Header, name: str, d: int, where: str) -> int:
    """Rows of the 2-D table `name` of width d (GGUF ne = (d, rows)); InputError if missing or another shape."""
    info = header.tensors.get(name)
    require(info is not None and len(info.ne) == 2 and info.ne[0] == d and info.ne[1] >= 1,
            "%1: tensor %2 is missing or not (rows, %3)", where, name, d)
    return int(info.ne[1])


def learned_config(header: Header, arch: str, where: str) -> dict:
    """A transformers-style config.json dict (GPT2Config / BertConfig / GPTBigCodeConfig keys) for a `gpt2` / `bert`
    / `starcoder` GGUF."""
    f = header.fields
    d = meta_int(f, f"{arch}.embedding_length", where)
    heads = meta_int(f, f"{arch}.attention.head_count", where)
    require(d % heads == 0, "%1: the width %2 is not a multiple of the %3 attention heads", where, d, heads)
    layers = meta_int(f, f"{arch}.block_count", where)
    ffn = meta_int(f, f"{arch}.feed_forward_length", where, default=4 * d)
    eps = meta_float(f, f"{arch}.attention.layer_norm_epsilon", where)
    vocab = _table(header, "token_embd.weight", d, where)
    rows = _table(header, "position_embd.weight", d, where)                  # the learned position table
    context = meta_int(f, f"{arch}.context_length", where, default=rows)
    if arch == "gpt2":
        config = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": d, "n_head": heads,
                  "n_layer": layers, "n_inner": ffn, "n_positions": rows, "n_ctx": context, "vocab_size": vocab,
                  "layer_norm_epsilon": eps, "activation_function": "gelu_new",
                  "tie_word_embeddings": "output.weight" not in header.tensors}
    elif arch == "starcoder":        # (context_length is llama.cpp's n_ctx_train: required, the table's rows)
        kv = meta_int(f, "starcoder.attention.head_count_kv", where, default=heads)
        require(kv == 1, "%1: metadata starcoder.attention.head_count_kv is %2; llama.cpp's converter writes 1 "
                "(multi_query), and a file of other kv heads is not a GPT-BigCode that transformers runs", where, kv)
        config = {"model_type": "gpt_bigcode", "architectures": ["GPTBigCodeForCausalLM"], "n_embd": d,
                  "n_head": heads, "n_layer": layers, "n_inner": ffn, "multi_query": True, "vocab_size": vocab,
                  "n_positions": meta_int(f, "starcoder.context_length", where), "layer_norm_epsilon": eps,
                  "activation_function": "gelu_pytorch_tanh",
                  "tie_word_embeddings": "output.weight" not in header.tensors}
    else:
        types = _table(header, "token_types.weight", d, where)
        config = {"model_type": "bert", "architectures": ["BertModel"], "hidden_size": d,
                  "num_attention_heads": heads, "num_hidden_layers": layers, "intermediate_size": ffn,
                  "max_position_embeddings": rows, "type_vocab_size": types, "vocab_size": vocab,
                  "layer_norm_eps": eps, "hidden_act": "gelu", "position_embedding_type": "absolute"}
        if isinstance(f.get("tokenizer.ggml.padding_token_id"), int):
            config["pad_token_id"] = int(f["tokenizer.ggml.padding_token_id"])
    for key, name in (("bos_token_id", "bos"), ("eos_token_id", "eos")):
        if isinstance(f.get(f"tokenizer.ggml.{name}_token_id"), int):
            config[key] = int(f[f"tokenizer.ggml.{name}_token_id"])
    return config


def check_learned_layer0(header: Header, config: dict, where: str) -> None:
    """The tables X and layer 0's q/k read exist with the shapes the config implies (GGUF ne = (in, out))."""
    if config["model_type"] in ("gpt2", "gpt_bigcode"):
        d = config["n_embd"]
        rows = 3 * d if config["model_type"] == "gpt2" else d + 2 * (d // config["n_head"])   # (one kv head)
        want = {"blk.0.attn_norm.weight": (d,), "blk.0.attn_norm.bias": (d,),
                "blk.0.attn_qkv.weight": (d, rows), "blk.0.attn_qkv.bias": (rows,)}
        if config["model_type"] == "gpt_bigcode":                  # starcoder.cpp: {n_embd, n_ctx_train}
            want["position_embd.weight"] = (d, config["n_positions"])
    else:
        d = config["hidden_size"]
        want = {"token_embd_norm.weight": (d,), "token_embd_norm.bias": (d,),
                "blk.0.attn_q.weight": (d, d), "blk.0.attn_q.bias": (d,),
                "blk.0.attn_k.weight": (d, d), "blk.0.attn_k.bias": (d,)}
    require_tensor_shapes(header, want, where)
