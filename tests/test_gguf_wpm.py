"""WordPiece GGUF vocabularies (llama.cpp's `tokenizer.ggml.model = "bert"`) read back to the original tokenizer.

The phantom-space spelling written by llama.cpp's BertModel.set_vocab (tests/gguf_learned_writer.phantom) is
undone exactly; the ids equal the original Hugging Face tokenizer's, for the installed all-MiniLM-L6-v2
(bert-base-uncased's 30,522-piece vocabulary) too, and that model written whole as a `bert` GGUF gives the
X of transformers' own BertModel. Malformed vocabularies are refused in one line.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from explorer.backend import pretrained
from explorer.backend.models.gguf_vocab import tokenizer_from_metadata
from explorer.backend.models.gguf_wpm import is_uncased, original_pieces
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError, error_text
from tests import gguf_learned_writer as lw

TEXTS = ["The quick brown fox jumps over the lazy dog.", "Hello, World! It's 2024; don't panic...",
         "unaffable tokenizers' résumé naïve Ærøskøbing", "中国人是好人，你好世界。", "xyzzy qwertyuiop 🙂 ωμέγα",
         "[CLS] a [SEP] b [MASK] [unused1]", "  tabs\tand\nnew lines   ", "e-mail: a.b@c.d (1/2) $3.50 #tag",
         "a" * 120 + " done"]


def fields_of(tokenizer, vocab_size=None, folder=None) -> dict:
    """The tokenizer metadata llama.cpp's BertModel.set_vocab writes, as gguf_header would read it back."""
    tokens, types = lw.converter_vocab(tokenizer, vocab_size or len(tokenizer.get_vocab()))
    fields = {"general.architecture": "bert", "tokenizer.ggml.model": "bert", "tokenizer.ggml.pre": "bert-bge",
              "tokenizer.ggml.tokens": [lw.phantom(t, k) for t, k in zip(tokens, types)],
              "tokenizer.ggml.token_type": np.asarray(types, np.int32)}
    if folder is not None:
        import gguf

        special = gguf.SpecialVocab(folder, n_vocab=len(tokens))
        for kind, tid in special.special_token_ids.items():
            key = {"unk": "unknown", "sep": "seperator", "pad": "padding"}.get(kind, kind)
            fields[f"tokenizer.ggml.{key}_token_id"] = tid
        for kind, value in special.add_special_token.items():
            fields[f"tokenizer.ggml.add_{kind}_token"] = value
    return fields


def test_phantom_spelling_is_undone():
    tokens = ["[PAD]", "[CLS]", "the", "##s", "##", "#", "▁odd", "中", "[PAD7]"]
    types = np.array([3, 3, 1, 1, 1, 1, 1, 1, 5])
    written = [lw.phantom(t, k) for t, k in zip(tokens, types.tolist())]
    assert written[:4] == ["[PAD]", "[CLS]", "▁the", "s"]
    assert original_pieces(written, types) == tokens
    assert is_uncased(tokens, types) and not is_uncased(tokens + ["Paris"], np.append(types, 1))


@pytest.mark.parametrize("cased", [False, True])
def test_tiny_vocabulary_ids_equal_the_original(tmp_path, cased):
    _, tokenizer = lw.tiny_bert(cased=cased)
    tokenizer.save_pretrained(tmp_path)
    tok = tokenizer_from_metadata(fields_of(tokenizer, folder=tmp_path), "m.gguf")
    for text in TEXTS + ["Hello World The café Paris", "HELLO the Cat"]:
        assert tok.encode(text).ids == tokenizer(text)["input_ids"], text


def _minilm():
    folder = pretrained.minilm_dir()
    if folder is None or not (folder / "model.safetensors").is_file():
        pytest.skip("all-MiniLM-L6-v2 is not installed")
    from transformers import AutoTokenizer

    return folder, AutoTokenizer.from_pretrained(folder)


def test_minilm_vocabulary_ids_equal_the_original():
    folder, original = _minilm()
    fields = fields_of(original, folder=folder)
    assert len(fields["tokenizer.ggml.tokens"]) == 30522 and fields["tokenizer.ggml.bos_token_id"] == 101
    tok = tokenizer_from_metadata(fields, "minilm.gguf")
    for text in TEXTS:
        assert tok.encode(text).ids == original(text)["input_ids"], text


def test_minilm_written_as_gguf_gives_transformers_x(tmp_path):
    folder, original = _minilm()
    import torch
    from transformers import BertModel

    from tests import gguf_arch_writer as aw

    model = BertModel.from_pretrained(folder).eval()
    aw.fp16_exact(model)
    path = tmp_path / "minilm.gguf"
    lw.write_learned_gguf(path, model, original, folder, "bert")
    with open_model(str(path)) as ours:
        assert (ours.config.family, ours.config.d_model, ours.config.n_layers) == ("bert", 384, 6)
        text = "PE Explorer reads a GGUF file of MiniLM."
        ids = ours.tokenize(text).ids
        assert list(ids) == original(text)["input_ids"]
        with torch.no_grad():
            ref = model.embeddings(input_ids=torch.as_tensor(np.asarray(ids)[None, :]))[0].numpy()
        np.testing.assert_allclose(ours.input_x(ids), ref, rtol=0, atol=1e-5 * max(1.0, float(np.abs(ref).max())))


@pytest.mark.parametrize("change,match", [
    ({"tokenizer.ggml.token_type": None}, "metadata tokenizer.ggml.token_type is missing"),
    ({"tokenizer.ggml.token_type": np.ones(3, np.int32)}, "token_type must hold one integer per token"),
    ({"tokenizer.ggml.unknown_token_id": 10**6}, "unknown_token_id is 1000000; it must be a token id below"),
    ({"tokenizer.ggml.add_bos_token": "yes"}, "add_bos_token is 'yes'; it must be true or false"),
    ({"tokenizer.ggml.model": "t5"}, ("only byte-level BPE ('gpt2'), SentencePiece ('llama') and WordPiece "
                                      "('bert') vocabularies can be read")),
    ({"tokenizer.ggml.model": np.array([1, 2])}, "metadata tokenizer.ggml.model is a list, not the tokenizer type"),
    ({"tokenizer.ggml.model": 3}, "metadata tokenizer.ggml.model is a number, not the tokenizer type"),
    ({"tokenizer.ggml.model": True}, "metadata tokenizer.ggml.model is true or false, not the tokenizer type"),
])
def test_malformed_vocabularies_are_refused(change, match):
    _, tokenizer = lw.tiny_bert()
    fields = fields_of(tokenizer)
    fields["tokenizer.ggml.unknown_token_id"] = 1
    for key, value in change.items():
        if value is None:
            fields.pop(key)
        else:
            fields[key] = value
    with pytest.raises(InputError, match=r"^[^\n]*" + re.escape(match)) as info:
        tokenizer_from_metadata(fields, "m.gguf")
    assert str(info.value).startswith("m.gguf: ") and error_text(info.value, "zh_CN") != str(info.value)


def test_a_vocabulary_without_an_unknown_token_is_refused():
    fields = {"tokenizer.ggml.model": "bert", "tokenizer.ggml.tokens": ["[CLS]", "▁a", "b"],
              "tokenizer.ggml.token_type": np.array([3, 1, 1], np.int32)}
    with pytest.raises(InputError, match=r"^m\.gguf: the WordPiece vocabulary names no unknown token") as info:
        tokenizer_from_metadata(fields, "m.gguf")
    assert "未知词元" in error_text(info.value, "zh_CN")
    fields["tokenizer.ggml.tokens"] = ["[CLS]", "▁[UNK]", "b"]             # found by its spelling instead
    assert tokenizer_from_metadata(fields, "m.gguf").encode("a b").ids == [1, 1]
