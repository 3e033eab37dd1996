"""Tiny GGUF files written the way llama.cpp's converter writes them, from a random transformers Llama.

`write_llama_gguf` takes a `LlamaForCausalLM`, permutes q/k exactly as convert_hf_to_gguf.py's
`LlamaModel.permute` does, stores 2-D tensors as F16 or Q8_0 (norms F32, as llama.cpp does) and a small
byte-level BPE vocabulary with merges. `reference_encode` is a plain-Python tokenizer with llama.cpp's
semantics (regexes applied in order, unmatched text kept, then lowest-rank merge first) to test against.
"""

from __future__ import annotations

import numpy as np

SMOLLM_RES = (r"\p{N}", r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)")
MERGES = ["h e", "l l", "he ll", "hell o", "Ġ w", "Ġw o", "r l", "Ġwo rl", "Ġworl d", "1 2", "ä ½", "Ġ t",
          "e r", "i n", "Ġt h", "Ġth e"]
GGUF_NAMES = {"embed_tokens.weight": "token_embd.weight", "norm.weight": "output_norm.weight",
              "lm_head.weight": "output.weight"}
BLOCK = {"input_layernorm": "attn_norm", "self_attn.q_proj": "attn_q", "self_attn.k_proj": "attn_k",
         "self_attn.v_proj": "attn_v", "self_attn.o_proj": "attn_output", "post_attention_layernorm": "ffn_norm",
         "mlp.gate_proj": "ffn_gate", "mlp.up_proj": "ffn_up", "mlp.down_proj": "ffn_down"}


def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's byte -> printable character map."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), 256))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


def vocabulary() -> tuple[list[str], list[int], list[str]]:
    """tokens (id order), token types (3 = control), merges of the tiny byte-level vocabulary."""
    tokens = ["<|endoftext|>"] + [bytes_to_unicode()[b] for b in range(256)]
    for m in MERGES:
        tokens.append(m.replace(" ", ""))
    types = [3] + [1] * (len(tokens) - 1)
    return tokens, types, list(MERGES)


def permute(w: np.ndarray, n_head: int, n_head_kv: int | None) -> np.ndarray:
    """convert_hf_to_gguf.py LlamaModel.permute (numpy)."""
    if n_head_kv is not None and n_head != n_head_kv:
        n_head = n_head_kv
    return w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def tiny_llama(tie: bool = False, pad_rows: int = 3, seed: int = 0):
    """A random LlamaForCausalLM (d 64, 4 heads, 2 kv heads, head_dim 16) whose vocabulary is `vocabulary()`."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(seed)
    config = LlamaConfig(vocab_size=len(vocabulary()[0]) + pad_rows, hidden_size=64, intermediate_size=128,
                         num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, head_dim=16,
                         max_position_embeddings=256, rms_norm_eps=1e-5, rope_theta=10000.0,
                         tie_word_embeddings=tie)
    model = LlamaForCausalLM(config).eval()
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0.0, 0.05)      # norms too, so a swapped norm cannot pass for ones
    return model


def hf_weights(model) -> dict[str, np.ndarray]:
    """state dict, float32, names without the `model.` prefix."""
    out = {}
    for name, t in model.state_dict().items():
        out[name.removeprefix("model.")] = t.detach().float().numpy()
    return out


def gguf_name(hf: str) -> str:
    if hf in GGUF_NAMES:
        return GGUF_NAMES[hf]
    _, layer, rest = hf.split(".", 2)
    base, kind = rest.rsplit(".", 1)
    return f"blk.{layer}.{BLOCK[base]}.{kind}"


def write_llama_gguf(path, model, qtype: str = "F16", arch: str = "llama", tokenizer: bool = True,
                     pre: str = "smollm", extra_kv=None, raw_override=None) -> dict[str, np.ndarray]:
    """Write `model` as llama.cpp does; returns the GGUF-side float32 arrays (permuted) by GGUF name."""
    import gguf

    cfg = model.config
    w = gguf.GGUFWriter(str(path), arch)
    add_shape_metadata(w, cfg)
    w.add_rope_freq_base(cfg.rope_parameters["rope_theta"] if getattr(cfg, "rope_parameters", None)
                         else cfg.rope_theta)
    w.add_rope_dimension_count(cfg.head_dim)
    w.add_vocab_size(cfg.vocab_size)
    for key, value in (extra_kv or {}).items():
        if isinstance(value, str):
            w.add_string(key, value)
        elif isinstance(value, float):
            w.add_float32(key, value)
        else:
            w.add_uint32(key, value)
    if tokenizer:
        add_byte_vocabulary(w, pre)
        w.add_bos_token_id(0)
        w.add_eos_token_id(0)
        w.add_add_bos_token(False)
    stored = {}
    for hf, arr in hf_weights(model).items():
        if hf == "lm_head.weight" and cfg.tie_word_embeddings:
            continue                                  # tied: llama.cpp writes no output.weight
        name = gguf_name(hf)
        if hf.endswith("q_proj.weight"):
            arr = permute(arr, cfg.num_attention_heads, cfg.num_attention_heads)
        elif hf.endswith("k_proj.weight"):
            arr = permute(arr, cfg.num_attention_heads, cfg.num_key_value_heads)
        if raw_override and name in raw_override:
            data, raw = raw_override[name]
            w.add_tensor(name, data, raw_dtype=raw)
            continue
        stored[name] = add_weight(w, name, arr, qtype)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return stored


def add_byte_vocabulary(writer, pre: str = "smollm") -> None:
    """vocabulary() as a byte-level BPE tokenizer ("gpt2") with pre-tokenizer `pre`."""
    tokens, types, merges = vocabulary()
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre(pre)
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_merges(merges)


def add_shape_metadata(writer, cfg) -> None:
    """The keys every converted RoPE model has (TextModel.set_gguf_parameters): lengths, counts, the RMSNorm eps
    (a model with RMSNorms)."""
    writer.add_block_count(cfg.num_hidden_layers)
    writer.add_context_length(cfg.max_position_embeddings)
    writer.add_embedding_length(cfg.hidden_size)
    writer.add_feed_forward_length(cfg.intermediate_size)
    writer.add_head_count(cfg.num_attention_heads)
    writer.add_head_count_kv(cfg.num_key_value_heads)
    if getattr(cfg, "rms_norm_eps", None) is not None:
        writer.add_layer_norm_rms_eps(cfg.rms_norm_eps)


def add_weight(writer, name: str, arr: np.ndarray, qtype: str, float32: bool = False) -> np.ndarray:
    """Write one tensor as llama.cpp's converter would: 1-D (or float32=True) as F32, else F16, or Q8_0
    when asked and the rows are whole 32-value blocks; returns the float32 values the file now holds."""
    import gguf

    if arr.ndim == 1 or float32:
        writer.add_tensor(name, arr.astype(np.float32))
        return arr.astype(np.float32)
    if qtype == "F16" or arr.shape[-1] % 32:     # (Q8_0 blocks run along the last axis)
        writer.add_tensor(name, arr.astype(np.float16))
        return arr.astype(np.float16).astype(np.float32)
    q8 = gguf.GGMLQuantizationType.Q8_0
    q = gguf.quants.quantize(arr, q8)
    writer.add_tensor(name, q, raw_dtype=q8)
    return gguf.quants.dequantize(q, q8)


def drop_keys(writer, *keys: str) -> None:
    """Remove metadata keys from a GGUFWriter before it writes them (a file without those keys)."""
    for kv in writer.kv_data:
        for key in keys:
            kv.pop(key, None)


def without_keys(*keys: str):
    """An edit(writer, stored) for the test writers that drops these metadata keys."""
    return lambda writer, stored: drop_keys(writer, *keys)


def header_of(path):
    """The parsed header (explorer.backend.models.gguf_header.Header) of the GGUF file at path, for tests that damage
    its metadata or tensor table before config_from_metadata reads it."""
    from explorer.backend.models.gguf_header import read_header

    with open(path, "rb") as fh:
        return read_header(fh, path.stat().st_size, str(path))


def same_tensors(ours, theirs, exact: bool, left_out=()) -> None:
    """A GGUF file's tensors (`ours`, a TensorReader) have its folder's names (but `left_out`, which the converter
    drops) and shapes, and with `exact` (an F16 file: the folder's float16-exact weights) its values."""
    assert set(ours.names()) == set(theirs.names()) - set(left_out)
    for name in ours.names():
        assert ours.shape(name) == theirs.shape(name), name
        if exact:
            np.testing.assert_array_equal(ours.read(name), theirs.read(name), err_msg=name)


def opened_refused(path, match: str = ""):
    """open_model(path) raises an InputError whose message is one line that starts with the file's path and ends
    with `match`, and reads in one line of Chinese too; that InputError."""
    import pytest

    from explorer.backend.models.hf_folder import open_model
    from explorer.errors import InputError, error_text

    with pytest.raises(InputError) as info:
        open_model(str(path))
    message, zh = str(info.value), error_text(info.value, "zh_CN")
    assert "\n" not in message and message.startswith(str(path)) and message.endswith(match), message
    assert "\n" not in zh and any("\u4e00" <= ch <= "\u9fff" for ch in zh), zh
    return info.value


def truncated(path, fraction: float):
    """The file at `path` cut to `fraction` of its bytes (in place); path."""
    path.write_bytes(path.read_bytes()[:int(path.stat().st_size * fraction)])
    return path


def finish_file(writer, stored: dict, edit=None) -> dict:
    """edit(writer, stored), if given, then the header, metadata and tensors written and the file closed;
    stored (the float32 arrays the file holds, by GGUF name)."""
    if edit is not None:
        edit(writer, stored)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return stored


def reference_encode(text: str, regexes, tokens: list[str], merges: list[str]) -> list[int]:
    """llama.cpp-style BPE in plain Python: split by each regex in turn (unmatched text stays), merge by rank."""
    import regex

    pieces = [text]
    for rx in regexes:
        out = []
        for p in pieces:
            pos = 0
            for m in regex.finditer(rx, p):
                if m.start() > pos:
                    out.append(p[pos:m.start()])
                if m.end() > m.start():
                    out.append(m.group())
                pos = m.end()
            if pos < len(p):
                out.append(p[pos:])
        pieces = out
    b2u = bytes_to_unicode()
    rank = {tuple(m.split(" ")): i for i, m in enumerate(merges)}
    vocab = {t: i for i, t in reversed(list(enumerate(tokens)))}
    ids = []
    for p in pieces:
        word = [b2u[b] for b in p.encode("utf-8")]
        while len(word) > 1:
            r, i = min((rank.get((word[i], word[i + 1]), 1 << 30), i) for i in range(len(word) - 1))
            if r == 1 << 30:
                break
            word[i:i + 2] = [word[i] + word[i + 1]]
        ids += [vocab[x] for x in word]
    return ids


def write_sparse_llama(path, d: int = 4096, layers: int = 32, heads: int = 32, kv: int = 8, ff: int = 11008,
                       vocab_rows: int = 32000) -> int:
    """A 7B-shaped Q8_0 GGUF whose tensor data is a sparse hole (zeros, no disk blocks); returns its size."""
    import os

    import gguf

    q8 = gguf.GGMLQuantizationType.Q8_0
    block, size = gguf.GGML_QUANT_SIZES[q8]
    w = gguf.GGUFWriter(str(path), "llama")
    for add, value in ((w.add_block_count, layers), (w.add_context_length, 4096), (w.add_embedding_length, d),
                       (w.add_feed_forward_length, ff), (w.add_head_count, heads), (w.add_head_count_kv, kv),
                       (w.add_rope_freq_base, 10000.0), (w.add_layer_norm_rms_eps, 1e-5),
                       (w.add_rope_dimension_count, d // heads)):
        add(value)
    tokens, types, merges = vocabulary()
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("smollm")
    w.add_token_list(tokens)
    w.add_token_types(types)
    w.add_token_merges(merges)
    hd = d // heads
    shapes = {"token_embd.weight": (vocab_rows, d), "output_norm.weight": (d,), "output.weight": (vocab_rows, d)}
    for i in range(layers):
        shapes.update({f"blk.{i}.attn_norm.weight": (d,), f"blk.{i}.ffn_norm.weight": (d,),
                       f"blk.{i}.attn_q.weight": (heads * hd, d), f"blk.{i}.attn_k.weight": (kv * hd, d),
                       f"blk.{i}.attn_v.weight": (kv * hd, d), f"blk.{i}.attn_output.weight": (d, heads * hd),
                       f"blk.{i}.ffn_gate.weight": (ff, d), f"blk.{i}.ffn_up.weight": (ff, d),
                       f"blk.{i}.ffn_down.weight": (d, ff)})
    total = 0
    for name, shape in shapes.items():
        if len(shape) == 1:
            nbytes = shape[0] * 4
            w.add_tensor_info(name, shape, np.dtype(np.float32), nbytes)
        else:
            byte_shape = (shape[0], shape[1] // block * size)
            nbytes = byte_shape[0] * byte_shape[1]
            w.add_tensor_info(name, byte_shape, np.dtype(np.uint8), nbytes, raw_dtype=q8)
        total += -(-nbytes // 32) * 32
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_ti_data_to_file()
    w.close()
    data_start = -(-os.path.getsize(path) // 32) * 32
    os.truncate(path, data_start + total)
    return data_start + total
