"""Tiny transformers GPT-NeoX (Pythia) models, and GGUF files of them written as llama.cpp's converter writes them.

Mirrors ggml-org/llama.cpp conversion/gptneox.py (`GPTNeoXModel`): gptneox.context_length (max_position_embeddings),
embedding_length, block_count, feed_forward_length (intermediate_size), rope.dimension_count = int(rotary_pct x
(hidden_size // num_attention_heads)), head_count, use_parallel_residual, layer_norm_epsilon; no head_count_kv, no
rope.freq_base; each attention.query_key_value weight and bias reordered from GPT-NeoX's per head (q, k, v) rows into
all q, all k, all v (BLOOM's reorder, gguf_bloom_writer.reorder_qkv); names by gguf's TensorNameMap for
MODEL_ARCH.GPTNEOX (embed_out -> output). The vocabulary as `_set_vocab_gpt2` writes it, tokenizer.ggml.pre "gpt-2"
(a byte-level BPE behind GPT-2's regex, as GPT-NeoX-20B's tokenizer.json). 2-D tensors F16 or Q8_0, 1-D F32.
"""

from __future__ import annotations

import numpy as np

from tests import gguf_bloom_writer as bw
from tests import gguf_fixtures as fx
from tests import gguf_learned_writer as lw


def tiny_gpt_neox(folder, heads: int = 4, head_dim: int = 16, rotary_pct: float = 0.25, seed: int = 0,
                  **extra):
    """A random GPTNeoXForCausalLM (2 layers, Pythia's quarter of each head turning by default, base 10,000: the
    converter writes no base), every parameter N(0, 0.5²) and the 2-D ones float16-exact, saved into folder with a
    byte-level BPE tokenizer; (model, tokenizer)."""
    import torch
    from tokenizers import pre_tokenizers
    from transformers import GPTNeoXConfig, GPTNeoXForCausalLM

    torch.manual_seed(seed)
    d = heads * head_dim
    config = GPTNeoXConfig(hidden_size=d, num_attention_heads=heads, num_hidden_layers=2, intermediate_size=2 * d,
                           vocab_size=len(fx.vocabulary()[0]) + 3, layer_norm_eps=0.01, bos_token_id=0,
                           eos_token_id=0, max_position_embeddings=2048,
                           **{"rotary_pct": rotary_pct, "rotary_emb_base": 10000, **extra})
    config._attn_implementation = "eager"
    return lw.saved_with_bpe(GPTNeoXForCausalLM(config).eval(), folder,
                             pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True))


def write_gptneox_gguf(path, model, tokenizer, folder, qtype: str = "F16", skip=(), replace=None, extra=None,
                       edit=None) -> dict[str, np.ndarray]:
    """Write `model` as a `gptneox` GGUF; the stored float32 arrays (GGUF row order) by name. skip: GGUF names left
    out; replace: GGUF name -> the array written instead; extra: more tensors; edit(writer, stored) before writing."""
    import gguf

    cfg = model.config
    heads, d, layers = cfg.num_attention_heads, cfg.hidden_size, cfg.num_hidden_layers
    w = gguf.GGUFWriter(str(path), "gptneox")
    w.add_context_length(cfg.max_position_embeddings)
    w.add_embedding_length(d)
    w.add_block_count(layers)
    w.add_feed_forward_length(cfg.intermediate_size)
    w.add_rope_dimension_count(int(cfg.rope_parameters["partial_rotary_factor"] * (d // heads)))
    w.add_head_count(heads)
    w.add_parallel_residual(cfg.use_parallel_residual)
    w.add_layer_norm_eps(cfg.layer_norm_eps)
    lw.write_vocab(w, folder, tokenizer, "gpt2", cfg.vocab_size)
    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.GPTNEOX, layers)
    stored = bw.add_tensors(w, model, names, qtype, lambda arr: bw.reorder_qkv(arr, heads), skip, replace, strip="")
    for name, arr in (extra or {}).items():
        stored[name] = fx.add_weight(w, name, np.asarray(arr, np.float32), qtype)
    return fx.finish_file(w, stored, edit)


def dequantized_model(model, stored: dict):
    """A copy of the torch model holding the file's values (a Q8_0 file's dequantized weights; qkv rows put back
    head by head), to compare a quantized file against transformers."""
    import copy

    import gguf
    import torch

    heads, layers = model.config.num_attention_heads, model.config.num_hidden_layers
    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.GPTNEOX, layers)
    twin = copy.deepcopy(model)
    with torch.no_grad():
        for hf, p in twin.named_parameters():
            arr = stored[names.get_name(hf, try_suffixes=(".weight", ".bias"))]
            if ".attention.query_key_value." in hf:                   # (3, H, hd, ...) -> (H, 3, hd, ...)
                arr = arr.reshape(3, heads, -1, *arr.shape[1:]).swapaxes(0, 1).reshape(arr.shape)
            p.copy_(torch.as_tensor(np.ascontiguousarray(arr)))
    return twin
