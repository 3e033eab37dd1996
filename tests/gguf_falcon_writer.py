"""Tiny rotary transformers Falcons, and GGUF files of them written as llama.cpp's converter writes them.

Mirrors ggml-org/llama.cpp conversion/falcon.py (`FalconModel`): falcon.context_length 2048, tensor_data_layout
"jploski", embedding_length, feed_forward_length 4 hidden_size, block_count, head_count, head_count_kv (num_kv_heads,
else 1: falcon-7b's published config.json has none, and multi-query is 1), layer_norm_epsilon, no rope key;
`transformer.` stripped, each query_key_value reordered from KV groups (H / KV q heads, k, v) into all q, all k, all v
(modify_tensors' view(n_head_kv, n_head // n_head_kv + 2, head_dim, hidden)); names by gguf's TensorNameMap for
MODEL_ARCH.FALCON; the tied lm_head not written. The vocabulary as `_set_vocab_gpt2` writes it, tokenizer.ggml.pre
"falcon". 2-D tensors F16 or Q8_0, 1-D F32 (tests/gguf_fixtures.add_weight).
"""

from __future__ import annotations

import numpy as np

from tests import gguf_bloom_writer as bw
from tests import gguf_fixtures as fx
from tests import gguf_learned_writer as lw
from tests.test_models_falcon import LAYOUTS

# falcon-7b / falcon-40b layouts without biases (llama.cpp's falcon loads none), and one k and v a head
ROTARY = {"mq": LAYOUTS["mq"], "new": {**LAYOUTS["new"], "bias": False},
          "ph": {"multi_query": False, "parallel_attn": True, "bias": False}}


def falcon_pre_tokenizer():
    """tiiuae/falcon-7b's tokenizer.json pre-tokenizer: runs of punctuation, GPT-2's bytes and regex, digits in
    threes."""
    from tokenizers import Regex, pre_tokenizers

    return pre_tokenizers.Sequence([
        pre_tokenizers.Punctuation("contiguous"), pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True),
        pre_tokenizers.Digits(individual_digits=False),
        pre_tokenizers.Split(Regex("[0-9][0-9][0-9]"), behavior="isolated")])


def tiny_falcon(folder, layout: str = "mq", heads: int = 4, seed: int = 0, **extra):
    """A random rotary FalconForCausalLM (alibi false, heads of 8 channels, 2 layers) of `layout`, every parameter
    N(0, 0.5²) and the 2-D ones float16-exact, saved into folder with a byte-level BPE tokenizer; (model,
    tokenizer)."""
    import torch
    from transformers import FalconConfig, FalconForCausalLM

    torch.manual_seed(seed)
    config = FalconConfig(hidden_size=8 * heads, num_attention_heads=heads, num_hidden_layers=2, alibi=False,
                          vocab_size=len(fx.vocabulary()[0]) + 3, layer_norm_epsilon=0.01, bos_token_id=0,
                          eos_token_id=0, **{**ROTARY[layout], **extra})
    config._attn_implementation = "eager"
    return lw.saved_with_bpe(FalconForCausalLM(config).eval(), folder, falcon_pre_tokenizer())


def kv_heads(cfg) -> int:
    """n_head_kv as the converter finds it in the published config.json (num_kv_heads, else 1)."""
    return cfg.num_kv_heads if cfg.new_decoder_architecture or not cfg.multi_query else 1


def reorder_qkv(arr: np.ndarray, heads: int, kv: int) -> np.ndarray:
    """FalconModel.modify_tensors: ((H + 2 KV) hd, d) rows in KV groups -> all q rows, all k, all v."""
    groups = arr.reshape(kv, heads // kv + 2, -1, arr.shape[-1])                     # (KV, H / KV + 2, hd, d)
    q, k, v = groups[:, :-2], groups[:, [-2]], groups[:, [-1]]
    return np.concatenate([t.reshape(-1, arr.shape[-1]) for t in (q, k, v)], axis=0)


def groups_back(arr: np.ndarray, heads: int, kv: int) -> np.ndarray:
    """reorder_qkv undone: all q; all k; all v rows -> KV groups of H / KV q heads, k, v."""
    hd = arr.shape[0] // (heads + 2 * kv)
    q = arr[:heads * hd].reshape(kv, heads // kv, hd, -1)
    k = arr[heads * hd:(heads + kv) * hd].reshape(kv, 1, hd, -1)
    v = arr[(heads + kv) * hd:].reshape(kv, 1, hd, -1)
    return np.concatenate([q, k, v], axis=1).reshape(arr.shape)


def write_falcon_gguf(path, model, tokenizer, folder, qtype: str = "F16", skip=(), replace=None, extra=None,
                      edit=None) -> dict[str, np.ndarray]:
    """Write `model` as a `falcon` GGUF; the stored float32 arrays (GGUF row order) by name. skip: GGUF names left
    out; replace: GGUF name -> the array written instead; extra: more tensors; edit(writer, stored) before writing."""
    import gguf

    cfg = model.config
    heads, d, layers, kv = cfg.num_attention_heads, cfg.hidden_size, cfg.num_hidden_layers, kv_heads(cfg)
    w = gguf.GGUFWriter(str(path), "falcon")
    w.add_tensor_data_layout("jploski")
    bw.add_sizes(w, 2048, d, layers, heads, kv, cfg.layer_norm_epsilon)          # (2048: "not in config.json")
    lw.write_vocab(w, folder, tokenizer, "gpt2", cfg.vocab_size, pre="falcon")
    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.FALCON, layers)
    stored = bw.add_tensors(w, model, names, qtype, lambda arr: reorder_qkv(arr, heads, kv), skip, replace,
                            strip="")
    for name, arr in (extra or {}).items():
        stored[name] = fx.add_weight(w, name, np.asarray(arr, np.float32), qtype)
    return fx.finish_file(w, stored, edit)


def dequantized_model(model, stored: dict):
    """A copy of the torch model holding the file's values (a Q8_0 file's dequantized weights, qkv rows put back in
    KV groups), to compare a quantized file against transformers."""
    import copy

    import gguf
    import torch

    cfg = model.config
    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.FALCON, cfg.num_hidden_layers)
    twin = copy.deepcopy(model)
    with torch.no_grad():
        for hf, p in twin.named_parameters():
            arr = stored[names.get_name(hf, try_suffixes=(".weight", ".bias"))]
            if ".self_attention.query_key_value." in hf:
                arr = groups_back(arr, cfg.num_attention_heads, kv_heads(cfg))
            p.copy_(torch.as_tensor(np.ascontiguousarray(arr)))
    return twin
