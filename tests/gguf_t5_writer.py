"""Tiny transformers T5 / UMT5 models with a Unigram tokenizer, and `t5` / `t5encoder` GGUF files of them written as
llama.cpp's converter writes them.

Mirrors ggml-org/llama.cpp conversion/t5.py (`T5Model`, `T5EncoderModel`): set_gguf_parameters' keys
(context_length, embedding_length, feed_forward_length, block_count, head_count, key_length, value_length,
layer_norm_epsilon, relative_buckets_count, layer_norm_rms_epsilon, decoder_start_token_id for `t5`); set_vocab's
pieces in id order with [PAD{i}] (score -10000, UNUSED) for ids past the tokenizer's, their scores, types
(UNKNOWN, CONTROL, NORMAL), add_space_prefix and remove_extra_whitespaces, the special ids by gguf.SpecialVocab;
modify_tensors' first shared table as shared.weight and every other tensor renamed by gguf's TensorNameMap for
MODEL_ARCH.T5 / T5ENCODER (the checkpoint as saved, not transposed). 2-D tensors F16 (the model float16-exact),
1-D F32.
"""

from __future__ import annotations

import numpy as np

from tests import gguf_fixtures as fx
from tests import models_helpers as mh

NORMAL, UNKNOWN, CONTROL, UNUSED = 1, 2, 3, 5
SPECIALS = [("<pad>", 0.0), ("</s>", 0.0), ("<unk>", 0.0)]         # T5's ids 0, 1, 2
WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", "far", "away", "position", "rope"]
PIECES = (SPECIALS + [("\u2581", -2.0)] + [("\u2581" + w, -3.0 - 0.25 * i) for i, w in enumerate(WORDS)]
          + [(c, -8.0 - 0.1 * i) for i, c in enumerate("abcdefghijklmnopqrstuvwxyz")]
          + [("s", -5.0), ("ing", -5.5), ("un", -6.0), ("\u2581un", -6.5), ("'", -7.0)])
# the test models: relative_attention_max_distance is llama.cpp's fixed 128 (a GGUF stores none)
TINY = {"vocab_size": mh.VOCAB, "d_model": 32, "d_kv": 12, "d_ff": 48, "num_layers": 2, "num_heads": 4,
        "relative_attention_num_buckets": 8, "relative_attention_max_distance": 128, "layer_norm_epsilon": 0.01,
        "feed_forward_proj": "gated-gelu", "decoder_start_token_id": 0}


def unigram_tokenizer():
    """transformers' T5Tokenizer over PIECES (no sentinels)."""
    from transformers import T5Tokenizer

    return T5Tokenizer(vocab=list(PIECES), extra_ids=0)


def tiny(kind: str, seed: int = 3):
    """A random float16-exact tiny T5ForConditionalGeneration ("t5"), T5EncoderModel ("t5encoder") or
    UMT5ForConditionalGeneration ("umt5"), eager attention."""
    import torch
    import transformers as tf

    from tests import gguf_arch_writer as aw

    cls, conf = {"t5": (tf.T5ForConditionalGeneration, tf.T5Config),
                 "t5encoder": (tf.T5EncoderModel, tf.T5Config),
                 "umt5": (tf.UMT5ForConditionalGeneration, tf.UMT5Config)}[kind]
    torch.manual_seed(seed)
    config = conf(**TINY)
    config._attn_implementation = "eager"
    model = cls(config).eval()
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0.0, 0.5)
    aw.fp16_exact(model)
    return model


def save(folder, model, tokenizer) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)


def write_t5_gguf(path, folder, arch: str, skip=(), replace=None, edit=None) -> dict[str, np.ndarray]:
    """Write the saved folder's model as a `t5` / `t5encoder` GGUF; the stored float32 arrays by GGUF name.
    skip: GGUF names left out; replace: GGUF name -> the array written instead; edit(writer, stored) before
    writing (fx.finish_file)."""
    import json

    import gguf
    from safetensors.numpy import load_file

    cfg = json.loads((folder / "config.json").read_text())
    w = gguf.GGUFWriter(str(path), arch)
    w.add_context_length(512)                  # (no n_positions in the config: the converter's 512)
    w.add_embedding_length(cfg["d_model"])
    w.add_feed_forward_length(cfg["d_ff"])
    w.add_block_count(cfg["num_layers"])
    w.add_head_count(cfg["num_heads"])
    w.add_key_length(cfg["d_kv"])
    w.add_value_length(cfg["d_kv"])
    w.add_layer_norm_eps(cfg["layer_norm_epsilon"])
    w.add_relative_attn_buckets_count(cfg["relative_attention_num_buckets"])
    w.add_layer_norm_rms_eps(cfg["layer_norm_epsilon"])
    if arch == "t5":
        w.add_decoder_start_token_id(cfg["decoder_start_token_id"])
    add_unigram_vocab(w, folder, cfg["vocab_size"])
    kind = gguf.MODEL_ARCH.T5 if arch == "t5" else gguf.MODEL_ARCH.T5ENCODER
    names = gguf.get_tensor_name_map(kind, cfg["num_layers"])
    stored, shared = {}, False
    for hf, arr in load_file(folder / "model.safetensors").items():
        if hf in ("decoder.embed_tokens.weight", "encoder.embed_tokens.weight", "shared.weight"):
            if shared:
                continue
            hf, shared = "shared.weight", True
        name = names.get_name(hf, try_suffixes=(".weight", ".bias"))
        assert name is not None, hf
        if name in skip:
            continue
        arr = np.asarray(replace[name], np.float32) if replace and name in replace else arr.astype(np.float32)
        stored[name] = fx.add_weight(w, name, arr, "F16")
    return fx.finish_file(w, stored, edit)


def add_unigram_vocab(w, folder, vocab_size: int) -> None:
    """T5Model.set_vocab: the pieces, scores and types in id order, padded to vocab_size; SpecialVocab's ids."""
    import gguf

    tokens = [f"[PAD{i}]" for i in range(vocab_size)]
    scores = [-10000.0] * vocab_size
    types = [UNUSED] * vocab_size
    for i, (piece, score) in enumerate(PIECES):
        tokens[i], scores[i] = piece, score
        types[i] = UNKNOWN if piece == "<unk>" else CONTROL if (piece, score) in SPECIALS else NORMAL
    w.add_tokenizer_model("t5")
    w.add_tokenizer_pre("default")
    w.add_token_list(tokens)
    w.add_token_scores(scores)
    w.add_token_types(types)
    w.add_add_space_prefix(True)
    w.add_remove_extra_whitespaces(True)
    gguf.SpecialVocab(folder, n_vocab=len(tokens)).add_to_gguf(w, quiet=True)
