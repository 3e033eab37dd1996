"""SentencePiece GGUF vocabularies (tokenizer.ggml.model "llama") against llama.cpp's and transformers' tokenizers.

The files are written with gguf.GGUFWriter: a small vocabulary with scores, the 256 byte tokens <0xNN>,
control / unknown / user-defined / unused tokens. References: a plain-Python port of llama.cpp's SPM tokenizer
(tests/spm_reference.py), on every text; transformers' conversion of the same file
(AutoTokenizer.from_pretrained(folder, gguf_file=...) for llama; integrations.gguf.convert_gguf_tokenizer for
gemma, whose GGUF architecture transformers' config loader does not read), on every text except the two
places where transformers departs from llama.cpp (no ▁ before text that starts with a space or follows a special
token), which are pinned separately. Hypothesis profile as tests/test_fuzz_text.py: PE_FUZZ_PROFILE=ci
(default, 80 examples) or long (10,000).
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.backend.models.gguf_header import read_header
from explorer.backend.models.gguf_vocab import tokenizer_from_metadata
from explorer.errors import InputError
from tests.spm_reference import SpmReference

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
LONG = os.environ.get("PE_FUZZ_PROFILE", "ci") == "long"
FUZZ = settings(max_examples=10_000 if LONG else 80, deadline=None, derandomize=not LONG, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
CORPUS = ["hello world", "the quick brown fox jumps", "position encoding", "你好世界", "位置编码 正弦",
          "emoji 🙂 ok", "tab\tand\nnewline", "a  b   c", "It's 2026; x=3.14"]
SENTENCES = ["Hello world", "hello world", "  hello  world\n", "你好，世界", "位置编码", "Emoji 🙂👨‍👩‍👧 and 🇨🇳!",
             "It's 2026; x=3.14  \n\n\tthe end   ", "<think>the fox</think>", "<s>hello</s>", "", " ", "\n",
             "quickbrownfox", "ﬁ é e\u0301", "a\u00a0b\u200d", "<unused0> <unk>"]
ALPHABET = "".join(sorted(set("".join(CORPUS)))) + "  \n\t!?éß😀"
ADDED = ("<s>", "</s>", "<unk>", "<think>", "</think>")
PIECES = st.sampled_from(list(ALPHABET)) | st.sampled_from(ADDED) | st.sampled_from(["hello", " world", "你好"])


def vocabulary(seed: int = 0, file_order: bool = False):
    """tokens, scores, types: <unk> <s> </s>, 256 bytes, pieces of CORPUS with random scores, <think>, <unused0>."""
    rng = np.random.default_rng(seed)
    tokens, types = ["<unk>", "<s>", "</s>"], [2, 3, 3]
    tokens += [f"<0x{b:02X}>" for b in range(256)]
    types += [6] * 256
    pieces = []
    for line in CORPUS:
        text = "\u2581" + line.replace(" ", "\u2581")
        for i in range(len(text)):
            for j in range(i + 1, min(i + 6, len(text)) + 1):
                if text[i:j] not in pieces and "\n" not in text[i:j] and "\t" not in text[i:j]:
                    pieces.append(text[i:j])
    tokens += pieces
    types += [1] * len(pieces)
    scores = [0.0] * 259 + sorted(rng.normal(-8, 3, len(pieces)).tolist(), reverse=True)
    if not file_order:                                    # scores not in file order: the order is the score's
        order = rng.permutation(len(pieces))
        scores[259:] = [scores[259 + k] for k in order]
    tokens += ["<think>", "</think>", "<unused0>"]
    types += [4, 4, 5]
    scores += [0.0, 0.0, 0.0]
    return tokens, np.asarray(scores, dtype=np.float32), types


def write_spm(path, arch="llama", tokens=None, scores="auto", types=None, prefix=True, bos=True, eos=False):
    w = gguf.GGUFWriter(str(path), arch)
    add_spm(w, tokens, scores, types, prefix, bos, eos)
    w.add_tensor("token_embd.weight", np.zeros((len(tokens or vocabulary()[0]), 32), np.float32))   # needs one
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


def add_spm(w, tokens=None, scores="auto", types=None, prefix=True, bos=True, eos=False) -> None:
    """The SentencePiece tokenizer metadata, as llama.cpp's _set_vocab_sentencepiece writes it."""
    t, s, ty = vocabulary(file_order=isinstance(scores, str) and scores == "file order")
    tokens = t if tokens is None else tokens
    types = ty if types is None else types
    w.add_tokenizer_model("llama")
    w.add_token_list(tokens)
    if scores is not None:
        w.add_token_scores(np.asarray(s if isinstance(scores, str) else scores, np.float32).tolist())
    w.add_token_types(types)
    w.add_unk_token_id(0)
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    w.add_add_bos_token(bos)
    w.add_add_eos_token(eos)
    w.add_add_space_prefix(prefix)


def reference(prefix: bool = True, file_order: bool = False) -> SpmReference:
    tokens, scores, types = vocabulary(file_order=file_order)
    return SpmReference(tokens, scores, [i for i, t in enumerate(types) if t in (2, 3, 4)], prefix)


def transformers_departs(text: str) -> bool:
    """Text where transformers' Metaspace("first") leaves out llama.cpp's ▁ (see explorer/backend/models/gguf_spm.py)."""
    return text.startswith(" ") or any(a in text for a in ADDED)


def ours(path):
    with open(path, "rb") as fh:
        header = read_header(fh, os.path.getsize(path), str(path))
    return tokenizer_from_metadata(header.fields, str(path))


@pytest.fixture(scope="module")
def llama_pair(tmp_path_factory):
    from transformers import AutoTokenizer

    folder = tmp_path_factory.mktemp("spm")
    path = write_spm(folder / "spm.gguf")
    return ours(path), AutoTokenizer.from_pretrained(str(folder), gguf_file="spm.gguf"), reference()


@pytest.fixture(scope="module")
def gemma_pair(tmp_path_factory):
    from transformers.integrations.gguf import (
        convert_gguf_tokenizer,
        get_gguf_tokenizer,
    )

    # scores = -file position, as a SentencePiece BPE model's (transformers orders Gemma's merges by position)
    path = write_spm(tmp_path_factory.mktemp("gemma") / "g.gguf", arch="gemma", prefix=False, scores="file order")
    arch, tokenizer_dict, _ = get_gguf_tokenizer(str(path))
    theirs, _ = convert_gguf_tokenizer(arch, tokenizer_dict)
    return ours(path), theirs, reference(prefix=False, file_order=True)


@pytest.mark.parametrize("text", SENTENCES)
def test_llama_ids_equal_llama_cpp_and_transformers(llama_pair, text):
    mine, theirs, cpp = llama_pair
    enc = mine.encode(text)
    assert enc.ids == cpp.encode(text), text
    assert enc.ids[0] == 1                                    # add_bos_token
    if not transformers_departs(text):
        assert enc.ids == theirs.encode(text), text
        assert mine.decode(enc.ids) == theirs.decode(enc.ids, skip_special_tokens=True)


@pytest.mark.parametrize("text", SENTENCES)
def test_gemma_ids_equal_llama_cpp_and_transformers(gemma_pair, text):
    mine, theirs, cpp = gemma_pair
    assert mine.encode(text).ids == cpp.encode(text), text
    assert mine.encode(text, add_special_tokens=False).ids == theirs.encode(text).ids, text


@pytest.mark.parametrize("text,extra", [(" hello", 0), ("  hello", 0), ("<think>the fox", 1), ("<s>hello", 1)])
def test_where_transformers_leaves_out_llama_cpps_space(llama_pair, text, extra):
    """llama.cpp prefixes ' ' to text after a special token and to text already starting with a space;
    transformers' Metaspace("first") does neither: one ▁ fewer there, the same pieces otherwise."""
    mine, theirs, cpp = llama_pair
    ids = mine.encode(text).ids
    assert ids == cpp.encode(text) and ids != theirs.encode(text)
    ours_text = "".join(mine.encode(text).tokens).replace("<s>", "").replace("<think>", "")
    theirs_text = "".join(theirs.convert_ids_to_tokens(theirs.encode(text))).replace("<s>", "").replace("<think>", "")
    assert ours_text == "\u2581" + theirs_text if extra == 0 else ours_text.count("\u2581") == theirs_text.count(
        "\u2581") + 1


@FUZZ
@given(st.lists(PIECES, max_size=30).map("".join) | st.text(st.characters(exclude_categories=("Cs",)), max_size=30))
def test_fuzz_llama_ids_equal_llama_cpp_and_transformers(llama_pair, text):
    mine, theirs, cpp = llama_pair
    ids = mine.encode(text).ids
    assert ids == cpp.encode(text)
    if not transformers_departs(text):
        assert ids == theirs.encode(text)


@FUZZ
@given(st.lists(PIECES, max_size=30).map("".join))
def test_fuzz_gemma_ids_equal_llama_cpp_and_transformers(gemma_pair, text):
    mine, theirs, cpp = gemma_pair
    assert mine.encode(text).ids == cpp.encode(text)
    assert mine.encode(text, add_special_tokens=False).ids == theirs.encode(text).ids


def test_byte_fallback_and_special_tokens(llama_pair):
    mine, _, _ = llama_pair
    enc = mine.encode("ß<think>")
    assert enc.tokens[:4] == ["<s>", "\u2581", "<0xC3>", "<0x9F>"] and enc.tokens[-1] == "<think>"
    assert enc.special_tokens_mask[0] == 1 and enc.special_tokens_mask[-1] == 0   # user-defined: not special
    assert mine.decode(enc.ids, skip_special_tokens=True) == "ß<think>"


def test_flags_no_space_prefix_no_bos_and_eos(tmp_path):
    """add_space_prefix false (llama.cpp's flag): nothing prepended; add_bos false, add_eos true."""
    plain = ours(write_spm(tmp_path / "a.gguf"))
    other = ours(write_spm(tmp_path / "b.gguf", prefix=False, bos=False, eos=True))
    assert plain.encode("hello").tokens[:2] == ["<s>", "\u2581"] or plain.encode("hello").tokens[1].startswith("\u2581")
    enc = other.encode("hello")
    assert not enc.tokens[0].startswith(("\u2581", "<s>")) and enc.tokens[-1] == "</s>"
    assert other.decode(enc.ids, skip_special_tokens=True) == "hello"


@pytest.mark.parametrize("change,match", [
    ({"scores": None}, "tokenizer.ggml.scores is missing"),
    ({"scores": np.zeros(10, np.float32)}, r"tokenizer.ggml.scores must hold one number per token \(262\)"),
    ({"bad_byte": "<0x4g>"}, r"token 3 \('<0x4g>'\) is marked as a byte token but is not written <0xNN>"),
    ({"bad_byte": "<0x0a>"}, r"token 3 \('<0x0a>'\) is marked as a byte token"),
])
def test_bad_vocabularies_are_one_line_errors(tmp_path, change, match):
    tokens, scores, types = vocabulary()
    tokens, scores, types = tokens[:262], scores[:262], types[:262]
    if "bad_byte" in change:
        tokens = tokens[:3] + [change["bad_byte"]] + tokens[4:]
    path = write_spm(tmp_path / "bad.gguf", tokens=tokens, types=types,
                     scores=change.get("scores", scores) if "scores" in change else scores)
    with pytest.raises(InputError, match=match) as info:
        ours(path)
    assert "\n" not in str(info.value) and str(path) in str(info.value)


def test_a_llama2_style_model_tokenizes_with_its_sentencepiece_vocabulary(tmp_path):
    """Through open_model: ids as transformers gives them, byte-fallback pieces shown as their bytes."""
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM

    from explorer.backend.models.hf_folder import open_model
    from tests import gguf_arch_writer as aw

    n = len(vocabulary()[0])
    config = LlamaConfig(vocab_size=n, hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64)
    aw.write_family_gguf(tmp_path / "m.gguf", LlamaForCausalLM(config).eval(), "llama", vocabulary=add_spm)
    theirs = AutoTokenizer.from_pretrained(str(tmp_path), gguf_file="m.gguf")
    text = "hello ß 你好 🙂"
    with open_model(str(tmp_path / "m.gguf")) as model:
        tokens = model.tokenize(text)
        assert tokens.ids.tolist() == theirs.encode(text)
        shown = [t.text for t in tokens.tokens]
        assert tokens.tokens[0].special and "<c3>" in shown and "<9f>" in shown
        assert model.input_x(tokens.ids).shape == (len(tokens.ids), 32)


def test_special_tokens_a_template_reads_otherwise(tmp_path):
    """A BOS token with a space is placed whole (the template is a list of pieces); one that starts
    with '$' would be read as a sequence, a Rust panic on every text (found by a helper's fuzz), and
    one with ':' as a name and a type id: refused when opened, in one line."""
    tokens, scores, types = vocabulary()
    for bos in ("<s> x", "< s >"):
        spaced = tokens[:1] + [bos] + tokens[2:]
        tok = ours(write_spm(tmp_path / "b.gguf", tokens=spaced, scores=scores, types=types))
        enc = tok.encode("hello")
        assert enc.tokens[0] == bos and enc.ids[0] == 1 and enc.special_tokens_mask[0] == 1
    for bos in ("$B", "<s:1>"):
        odd = tokens[:1] + [bos] + tokens[2:]
        path = write_spm(tmp_path / "d.gguf", tokens=odd, scores=scores, types=types)
        with pytest.raises(InputError, match=r"the special token .* starts with '\$' or holds ':'") as info:
            ours(path)
        assert "\n" not in str(info.value)


def test_merges_are_tried_only_at_token_lengths_and_long_tokens_stay_whole():
    """The same pairs as every split (transformers' generate_merges), for random vocabularies; a
    300,000-character token (20 s before) is not split."""
    from explorer.backend.models.gguf_spm import MAX_SPLIT_CHARS, recovered_merges

    def every_split(order, vocab):
        merges = []
        for merged, score in order.items():
            local = [(merged[:i], merged[i:], score) for i in range(1, len(merged))
                     if merged[:i] in vocab and merged[i:] in vocab]
            local.sort(key=lambda m: (vocab[m[0]], vocab[m[1]]))
            merges.extend(local)
        merges.sort(key=lambda m: (m[2], len(m[0]), len(m[1])), reverse=True)
        return [(a, b) for a, b, _ in merges]

    rng = np.random.default_rng(3)
    for _ in range(20):
        tokens = list(dict.fromkeys("".join(rng.choice(list("abcd▁"), rng.integers(1, 9)))
                                    for _ in range(300)))
        vocab = {t: i for i, t in enumerate(tokens)}
        order = {t: float(rng.normal()) for t in tokens}
        assert recovered_merges(tokens, order, vocab) == every_split(order, vocab)
    long = "a" * 300_000
    vocab = {"a": 0, "aa": 1, long: 2}
    assert MAX_SPLIT_CHARS < len(long)
    assert recovered_merges(list(vocab), {"aa": -1.0, long: -2.0}, vocab) == [("a", "a")]
