"""Tiny transformers MPT models, and GGUF files of them written as llama.cpp's converter writes them.

Mirrors ggml-org/llama.cpp conversion/mpt.py (`MPTModel`): mpt.context_length = max_seq_len, embedding_length,
block_count, feed_forward_length 4 d_model, head_count, layer_norm_epsilon 1e-5 (whatever the config says),
clamp_kqv only when clip_qkv is set, max_alibi_bias = alibi_bias_max; `transformer.` stripped, every tensor renamed
by gguf's TensorNameMap for MODEL_ARCH.MPT and otherwise written as it is (Wqkv's whole q, k, v blocks kept); the
tied lm_head not written (the checkpoint has none). The vocabulary as `_set_vocab_gpt2` writes it, with
tokenizer.ggml.pre "mpt". 2-D tensors F16 or Q8_0, 1-D F32 (tests/gguf_fixtures.add_weight).
"""

from __future__ import annotations

import numpy as np

from tests import gguf_fixtures as fx
from tests import gguf_learned_writer as lw


def tiny_mpt(folder, heads: int = 4, seed: int = 0, eps: float = 1e-5, **attn):
    """A random MptForCausalLM (heads of 8 channels, 2 layers, 40 positions), every parameter N(0, 0.5²) and the
    2-D ones float16-exact, saved into folder with a byte-level BPE tokenizer (GPT-2's pre-tokenizer, as
    gpt-neox-20b's); (model, tokenizer). attn: attn_config's keys (clip_qkv, ...)."""
    import torch
    from tokenizers import pre_tokenizers
    from transformers import MptConfig, MptForCausalLM

    torch.manual_seed(seed)
    config = MptConfig(d_model=8 * heads, n_heads=heads, n_layers=2, max_seq_len=40,
                       vocab_size=len(fx.vocabulary()[0]) + 3, layer_norm_epsilon=eps,
                       attn_config={"alibi": True, **attn}, bos_token_id=0, eos_token_id=0)
    config._attn_implementation = "eager"
    return lw.saved_with_bpe(MptForCausalLM(config).eval(), folder,
                             pre_tokenizers.ByteLevel(add_prefix_space=False))   # (GPT-2's regex, then bytes)


def write_mpt_gguf(path, model, tokenizer, folder, qtype: str = "F16", skip=(), replace=None,
                   edit=None) -> dict[str, np.ndarray]:
    """Write `model` as an `mpt` GGUF; the stored float32 arrays by GGUF name. skip: GGUF names left out; replace:
    GGUF name -> the array written instead (or added); edit(writer, stored) before writing (metadata)."""
    import gguf

    cfg = model.config
    attn, d = cfg.attn_config, cfg.d_model
    w = gguf.GGUFWriter(str(path), "mpt")
    w.add_context_length(cfg.max_seq_len)
    w.add_embedding_length(d)
    w.add_block_count(cfg.n_layers)
    w.add_feed_forward_length(4 * d)
    w.add_head_count(cfg.n_heads)
    w.add_layer_norm_eps(1e-5)
    if attn.clip_qkv is not None:
        w.add_clamp_kqv(attn.clip_qkv)
    w.add_max_alibi_bias(attn.alibi_bias_max if attn.alibi else 0.0)
    lw.write_vocab(w, folder, tokenizer, "gpt2", cfg.vocab_size, pre="mpt")
    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.MPT, cfg.n_layers)
    stored = {}
    for hf, t in model.state_dict().items():
        if hf == "lm_head.weight":                                  # tied: not in the checkpoint
            continue
        name = names.get_name(hf, try_suffixes=(".weight", ".bias"))
        assert name is not None, hf
        if name in skip:
            continue
        arr = t.detach().float().numpy()
        arr = np.asarray(replace[name], np.float32) if replace and name in replace else arr
        stored[name] = fx.add_weight(w, name, arr, qtype)
    for name, arr in (replace or {}).items():                       # a tensor the converter would not write
        if name not in stored:
            stored[name] = fx.add_weight(w, name, np.asarray(arr, np.float32), qtype)
    return fx.finish_file(w, stored, edit)


def dequantized_model(model, stored: dict):
    """A copy of the torch model holding the file's values (a Q8_0 file's dequantized weights)."""
    import copy

    import gguf
    import torch

    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.MPT, model.config.n_layers)
    twin = copy.deepcopy(model)
    with torch.no_grad():
        for hf, p in twin.named_parameters():
            if hf != "lm_head.weight":
                p.copy_(torch.as_tensor(stored[names.get_name(hf, try_suffixes=(".weight", ".bias"))]))
    return twin
