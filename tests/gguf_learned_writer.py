"""Tiny transformers GPT-2 / BERT / GPT-BigCode models, and GGUF files of them written as llama.cpp's converter
writes them.

Mirrors ggml-org/llama.cpp conversion/gpt2.py (`GPT2Model`), conversion/bert.py (`BertModel`),
conversion/starcoder.py (`StarCoderModel`) and conversion/base.py (`TextModel.set_gguf_parameters`,
`get_vocab_base`, `_set_vocab_gpt2`): tensor names by gguf's own TensorNameMap, GPT-2's `.attn.bias` dropped and
its Conv1D weights (c_attn, c_proj, c_fc) transposed, BERT's `bert.` prefix, pooler and cls heads dropped; the
vocabulary in id order with [PAD{i}] (UNUSED) for ids the tokenizer lacks, CONTROL for special added tokens;
BERT's respelled with the phantom space (`phantom` below); merges and special token ids / add_*_token flags by
gguf.SpecialVocab from the saved Hugging Face folder.
2-D tensors F16 or Q8_0 (a width that is no multiple of 32 falls back to F16); 1-D tensors F32; position_embd and
token_types F32 as the converter keeps them, unless `quantize_tables` (a file quantized afterwards).
"""

from __future__ import annotations

import numpy as np

from tests import gguf_fixtures as fx

NORMAL, CONTROL, USER_DEFINED, UNUSED = 1, 3, 4, 5
CONV1D = (".attn.c_attn.weight", ".attn.c_proj.weight", ".mlp.c_fc.weight", ".mlp.c_proj.weight")
SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
PIECES = ["the", "cat", "sat", "on", "mat", "un", "##aff", "##able", "hello", "world", "##s", "##ing", "run",
          "position", "rope", "cafe", "token", "##izer", "中", "国", "人", "是", ",", ".", "!", "?", "'", "-", "(",
          ")", "1", "2", "##3", "##0"]
CASED = ["Hello", "The", "World", "##S", "café", "Paris", "A"]


def _random(model, scale: float = 0.5) -> None:
    import torch

    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0.0, scale)       # norms and biases too, so a missed one shows


def tiny_gpt2(seed: int = 0):
    """A random GPT2LMHeadModel (d 64, 4 heads, 48 positions) and its byte-level tokenizer, saved to folder."""
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel, GPT2Tokenizer

    tokens, _, merges = fx.vocabulary()
    torch.manual_seed(seed)
    config = GPT2Config(vocab_size=len(tokens) + 3, n_embd=64, n_layer=2, n_head=4, n_positions=48,
                        layer_norm_epsilon=1e-5, bos_token_id=0, eos_token_id=0)
    model = GPT2LMHeadModel(config).eval()
    _random(model)
    tokenizer = GPT2Tokenizer(vocab={t: i for i, t in enumerate(tokens)},
                              merges=[tuple(m.split(" ")) for m in merges])
    return model, tokenizer


def tiny_bert(cased: bool = False, seed: int = 0):
    """A random BertModel (d 64, 4 heads, 48 positions, 2 token types) and its WordPiece tokenizer."""
    import torch
    from transformers import BertConfig, BertModel, BertTokenizer

    letters = [chr(c) for c in range(ord("a"), ord("z") + 1)]
    words = SPECIALS + letters + ["##" + c for c in letters] + PIECES + (CASED if cased else [])
    torch.manual_seed(seed)
    config = BertConfig(vocab_size=len(words) + 2, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=96, max_position_embeddings=48, type_vocab_size=2, layer_norm_eps=1e-6)
    model = BertModel(config).eval()
    _random(model)
    tokenizer = BertTokenizer(vocab={w: i for i, w in enumerate(words)}, do_lower_case=not cased)
    return model, tokenizer


def save(folder, model, tokenizer) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)


def saved_with_bpe(model, folder, pre_tokenizer):
    """model with every parameter N(0, 0.5²) and its 2-D ones float16-exact (an F16 file holds them exactly),
    saved into folder with a byte-level BPE tokenizer of the test vocabulary behind `pre_tokenizer`;
    (model, tokenizer)."""
    from tokenizers import Tokenizer, decoders, models
    from transformers import PreTrainedTokenizerFast

    from tests import gguf_arch_writer as aw

    tokens, _, merges = fx.vocabulary()
    _random(model)
    aw.fp16_exact(model)
    bpe = Tokenizer(models.BPE(vocab={t: i for i, t in enumerate(tokens)},
                               merges=[tuple(m.split(" ")) for m in merges], fuse_unk=False))
    bpe.pre_tokenizer = pre_tokenizer
    bpe.decoder = decoders.ByteLevel()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|endoftext|>", bos_token="<|endoftext|>")
    save(folder, model, tokenizer)
    return model, tokenizer


def converter_vocab(tokenizer, vocab_size: int) -> tuple[list[str], list[int]]:
    """get_vocab_base: tokens and token types in id order."""
    reverse = {i: t for t, i in tokenizer.get_vocab().items()}
    added = tokenizer.get_added_vocab()
    decoder = tokenizer.added_tokens_decoder
    tokens, types = [], []
    for i in range(vocab_size):
        if i not in reverse:
            tokens.append(f"[PAD{i}]")
            types.append(UNUSED)
        elif reverse[i] in added:
            tokens.append(reverse[i])
            types.append(CONTROL if decoder[i].special else USER_DEFINED)
        else:
            tokens.append(reverse[i])
            types.append(NORMAL)
    return tokens, types


def phantom(token: str, kind: int) -> str:
    """BertModel.set_vocab's phantom-space spelling."""
    if kind == CONTROL:
        return token
    return token[2:] if token.startswith("##") else "\u2581" + token


def write_vocab(w, folder, tokenizer, kind: str, vocab_size: int, pre: str | None = None) -> None:
    """kind "gpt2": _set_vocab_gpt2 (also RobertaModel's); "bert": BertModel.set_vocab."""
    import gguf

    tokens, types = converter_vocab(tokenizer, vocab_size)
    if kind == "gpt2":
        w.add_tokenizer_model("gpt2")
        w.add_tokenizer_pre(pre or "gpt-2")      # get_vocab_base_pre's answer for GPT-2's tokenizer
        w.add_token_list(tokens)
        w.add_token_types(types)
        gguf.SpecialVocab(folder, load_merges=True).add_to_gguf(w, quiet=True)
    else:
        w.add_token_type_count(2)
        w.add_tokenizer_model("bert")
        w.add_tokenizer_pre(pre or "bert-bge")
        w.add_token_list([phantom(t, k) for t, k in zip(tokens, types)])
        w.add_token_types(types)
        gguf.SpecialVocab(folder, n_vocab=len(tokens)).add_to_gguf(w, quiet=True)


def tiny_starcoder(seed: int = 0, **settings):
    """A random GPTBigCodeForCausalLM (d 64, 4 heads, one kv head unless multi_query false, 48 positions)."""
    import torch
    from transformers import GPTBigCodeConfig, GPTBigCodeForCausalLM

    tokens, _, _ = fx.vocabulary()
    torch.manual_seed(seed)
    config = GPTBigCodeConfig(**{"vocab_size": len(tokens) + 3, "n_embd": 64, "n_layer": 2, "n_head": 4,
                                 "n_positions": 48, "layer_norm_epsilon": 1e-5, "bos_token_id": 0, "eos_token_id": 0,
                                 **settings})
    config._attn_implementation = "eager"
    return GPTBigCodeForCausalLM(config).eval()


def _kept(arch: str, name: str, tied: bool) -> str | None:
    """The name the converter maps (after its renames), or None for a tensor it drops."""
    if arch in ("gpt2", "starcoder"):
        if name.endswith((".attn.bias", ".attn.masked_bias")) or (name == "lm_head.weight" and tied):
            return None
        return name
    name = name.removeprefix("bert.")
    if name.endswith(("position_ids", "token_type_ids")) or name.startswith(("pooler.", "cls.")):
        return None
    return name


def write_learned_gguf(path, model, tokenizer, folder, arch: str, qtype: str = "F16", skip=(), replace=None,
                       quantize_tables: bool = False, vocab: str | None = None,
                       pre: str | None = None) -> dict[str, np.ndarray]:
    """Write `model` as a `gpt2` / `bert` / `starcoder` GGUF (StarCoderModel: GPT-2's names, nn.Linear weights kept
    as they are, the vocabulary _set_vocab_gpt2's with pre "starcoder"); returns the stored float32 arrays (GGUF
    orientation) by name.

    skip: GGUF names left out; replace: GGUF name -> the array written instead (a damaged file); vocab / pre:
    the vocabulary kind ("gpt2" | "bert", default arch) and tokenizer.ggml.pre to write instead."""
    import gguf

    cfg = model.config
    w = gguf.GGUFWriter(str(path), arch)
    if arch in ("gpt2", "starcoder"):       # (StarCoderModel.set_gguf_parameters: GPT-2's keys and head_count_kv 1)
        layers, d = cfg.n_layer, cfg.n_embd
        w.add_block_count(layers)
        w.add_context_length(cfg.n_positions)
        w.add_embedding_length(d)
        w.add_feed_forward_length(4 * d)
        w.add_head_count(cfg.n_head)
        if arch == "starcoder":
            w.add_head_count_kv(1)
        w.add_layer_norm_eps(cfg.layer_norm_epsilon)
    else:
        layers = cfg.num_hidden_layers
        w.add_block_count(layers)
        w.add_context_length(cfg.max_position_embeddings)
        w.add_embedding_length(cfg.hidden_size)
        w.add_feed_forward_length(cfg.intermediate_size)
        w.add_head_count(cfg.num_attention_heads)
        w.add_layer_norm_eps(cfg.layer_norm_eps)
        w.add_causal_attention(False)
    write_vocab(w, folder, tokenizer, vocab or ("gpt2" if arch == "starcoder" else arch), cfg.vocab_size,
                pre or ("starcoder" if arch == "starcoder" else None))
    kind = {"gpt2": gguf.MODEL_ARCH.GPT2, "starcoder": gguf.MODEL_ARCH.STARCODER}.get(arch, gguf.MODEL_ARCH.BERT)
    names = gguf.get_tensor_name_map(kind, layers)
    tied = bool(getattr(cfg, "tie_word_embeddings", False))
    stored = {}
    for hf, t in model.state_dict().items():
        kept = _kept(arch, hf, tied)
        if kept is None:
            continue
        arr = t.detach().float().numpy()
        if arch == "gpt2" and kept.endswith(CONV1D):
            arr = np.ascontiguousarray(arr.T)                          # Conv1D (in, out) -> Linear (out, in)
        name = names.get_name(kept, try_suffixes=(".weight", ".bias"))
        assert name is not None, kept
        if name in skip:
            continue
        arr = np.asarray(replace[name], np.float32) if replace and name in replace else arr
        table = name in ("position_embd.weight", "token_types.weight") and not quantize_tables
        stored[name] = fx.add_weight(w, name, arr, qtype, float32=table)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return stored
