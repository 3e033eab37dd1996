"""Tiny transformers BLOOM models, and GGUF files of them written as llama.cpp's converter writes them.

Mirrors ggml-org/llama.cpp conversion/bloom.py (`BloomModel`): bloom.context_length = seq_length else n_embed,
embedding_length, feed_forward_length 4 n_embed, block_count, head_count and head_count_kv (n_head),
layer_norm_epsilon; `transformer.` stripped, each query_key_value weight and bias reordered from BLOOM's per
head (q, k, v) rows into all q, all k, all v; names by gguf's TensorNameMap for MODEL_ARCH.BLOOM; the tied
lm_head not written (the checkpoint has none). The vocabulary as TextModel's `_set_vocab_gpt2` writes it, with
tokenizer.ggml.pre "bloom" (get_vocab_base_pre's answer for BLOOM's tokenizer). 2-D tensors F16 or Q8_0, 1-D F32
(tests/gguf_fixtures.add_weight).
"""

from __future__ import annotations

import numpy as np

from tests import gguf_fixtures as fx
from tests import gguf_learned_writer as lw

# BLOOM's tokenizer.json pre-tokenizer (bigscience/bloom-560m): words with their leading space, split off
# whitespace and punctuation, then GPT-2's bytes without its regex
HF_SPLIT = " ?[^(\\s|[.,!?…。，、।۔،])]+"


def tiny_bloom(folder, heads: int = 4, seed: int = 0):
    """A random BloomForCausalLM (heads of 8 channels, 2 layers), every parameter N(0, 0.5²) and the 2-D ones
    float16-exact, saved into folder with a byte-level BPE tokenizer as BLOOM's; (model, tokenizer)."""
    import torch
    from tokenizers import Regex, pre_tokenizers
    from transformers import BloomConfig, BloomForCausalLM

    torch.manual_seed(seed)
    config = BloomConfig(hidden_size=8 * heads, n_layer=2, n_head=heads, vocab_size=len(fx.vocabulary()[0]) + 3,
                         layer_norm_epsilon=0.01, bos_token_id=0, eos_token_id=0)
    config._attn_implementation = "eager"
    return lw.saved_with_bpe(BloomForCausalLM(config).eval(), folder, pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(HF_SPLIT), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)]))


def reorder_qkv(arr: np.ndarray, heads: int) -> np.ndarray:
    """BloomModel.modify_tensors: (3d, ...) rows per head (q, k, v) -> all q rows, all k, all v."""
    per_head = arr.reshape(heads, 3, arr.shape[0] // (3 * heads), *arr.shape[1:])    # (H, 3, hd, ...)
    return np.concatenate([per_head[:, j].reshape(-1, *arr.shape[1:]) for j in range(3)], axis=0)


def write_bloom_gguf(path, model, tokenizer, folder, qtype: str = "F16", skip=(), replace=None,
                     edit=None) -> dict[str, np.ndarray]:
    """Write `model` as a `bloom` GGUF; the stored float32 arrays (GGUF row order) by name. skip: GGUF names left
    out; replace: GGUF name -> the array written instead; edit(writer, stored) before writing (metadata)."""
    import gguf

    cfg = model.config
    heads, d, layers = cfg.n_head, cfg.hidden_size, cfg.n_layer
    w = gguf.GGUFWriter(str(path), "bloom")
    add_sizes(w, getattr(cfg, "seq_length", d), d, layers, heads, heads, cfg.layer_norm_epsilon)
    lw.write_vocab(w, folder, tokenizer, "gpt2", cfg.vocab_size, pre="bloom")
    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.BLOOM, layers)
    stored = add_tensors(w, model, names, qtype, lambda arr: reorder_qkv(arr, heads), skip, replace)
    return fx.finish_file(w, stored, edit)


def add_sizes(w, context: int, d: int, layers: int, heads: int, kv: int, eps: float) -> None:
    """The sizes BloomModel and FalconModel write: context_length, embedding_length, feed_forward_length 4 d,
    block_count, head_count, head_count_kv, layer_norm_epsilon."""
    w.add_context_length(context)
    w.add_embedding_length(d)
    w.add_feed_forward_length(4 * d)
    w.add_block_count(layers)
    w.add_head_count(heads)
    w.add_head_count_kv(kv)
    w.add_layer_norm_eps(eps)


def add_tensors(w, model, names, qtype: str, reorder, skip=(), replace=None,
                strip: str = "transformer.") -> dict[str, np.ndarray]:
    """Each state_dict tensor of a BLOOM, Falcon or GPT-NeoX model but the tied lm_head (not in the checkpoint),
    `strip` taken off (BloomModel's; FalconModel and GPTNeoXModel map whole names), under its name by gguf's
    TensorNameMap `names`, query_key_value's rows through reorder(arr), as add_weight stores it; skip: GGUF names
    left out; replace: GGUF name -> the array written instead."""
    stored = {}
    for hf, t in model.state_dict().items():
        if hf == "lm_head.weight" and model.config.tie_word_embeddings:
            continue
        name_hf = hf.removeprefix(strip)
        arr = t.detach().float().numpy()
        if "attention.query_key_value." in name_hf:                # (GPT-NeoX's attention.query_key_value too)
            arr = reorder(arr)
        name = names.get_name(name_hf, try_suffixes=(".weight", ".bias"))
        assert name is not None, name_hf
        if name in skip:
            continue
        arr = np.asarray(replace[name], np.float32) if replace and name in replace else arr
        stored[name] = fx.add_weight(w, name, arr, qtype)
    return stored


def set_key(key: str, value, kind: str = "uint32"):
    """An edit(writer, stored) that writes metadata `key` as `value` (of gguf type kind) in place of the
    converter's."""
    def edit(writer, stored):
        fx.drop_keys(writer, key)
        getattr(writer, f"add_{kind}")(key, value)
    return edit


def dequantized_model(model, stored: dict):
    """A copy of the torch model holding the file's values (a Q8_0 file's dequantized weights; qkv rows put back
    head by head), to compare a quantized file against transformers."""
    import copy

    import gguf
    import torch

    heads, layers = model.config.n_head, model.config.n_layer
    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.BLOOM, layers)
    twin = copy.deepcopy(model)
    with torch.no_grad():
        for hf, p in twin.named_parameters():
            name = names.get_name(hf.removeprefix("transformer."), try_suffixes=(".weight", ".bias"))
            arr = stored[name]
            if ".self_attention.query_key_value." in hf:            # (3, H, hd, ...) -> (H, 3, hd, ...)
                arr = arr.reshape(3, heads, -1, *arr.shape[1:]).swapaxes(0, 1).reshape(arr.shape)
            p.copy_(torch.as_tensor(np.ascontiguousarray(arr)))
    return twin
