"""GGUF files of architecture `t5` / `t5encoder` (T5, and UMT5 with a bias table in every layer) against the
transformers models they were written from (tests/gguf_t5_writer.py: llama.cpp's T5Model / T5EncoderModel).

F16 files hold the float16-exact weights exactly: X into block 0, layer-0 q / k, the relative bias and the attention
(and layer 1's, with layer 0's table in T5, its own in UMT5) equal transformers' own encoder; the Unigram tokenizer
gives transformers' ids for the same file (AutoTokenizer with gguf_file) and for T5Tokenizer over the same pieces.
Damaged files are refused in one line."""

from __future__ import annotations

import math

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.backend.models.t5_bias import relative_bucket
from tests import gguf_fixtures as fx
from tests import gguf_t5_writer as tw
from tests import models_helpers as mh
from tests.test_models_t5 import reference, softmax

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
CASES = [("t5", "t5"), ("t5encoder", "t5encoder"), ("umt5", "t5")]      # (model, GGUF architecture)
SENTENCES = [mh.TEXT, "  the   cat\tsat  on\n the mat ", "dogs running far-away!", "unsat café rope's",
             "the</s>cat<pad> a", "", "position"]


@pytest.fixture(scope="module", params=CASES, ids=lambda p: p[0])
def written(request, tmp_path_factory):
    kind, arch = request.param
    folder = tmp_path_factory.mktemp(kind)
    torch_model = tw.tiny(kind)
    tw.save(folder / "hf", torch_model, tw.unigram_tokenizer())
    tw.write_t5_gguf(folder / "m.gguf", folder / "hf", arch)
    with open_model(str(folder / "m.gguf")) as model:
        yield kind, folder, torch_model, model


def test_x_q_k_bias_and_attention_equal_transformers(written):
    kind, _, torch_model, model = written
    cfg = model.config
    assert (cfg.model_type, cfg.family, cfg.position, cfg.n_heads, cfg.head_dim, cfg.relative_buckets,
            cfg.score_scalar, cfg.norm_eps) == ("umt5" if kind == "umt5" else "t5", "t5", "relative", 4, 12,
                                                (8, 128), 1.0, pytest.approx(0.01))
    ids = model.tokenize(" ".join([mh.TEXT] * 4)).ids                   # 49 tokens (the </s> last)
    ref = reference(torch_model, ids)
    np.testing.assert_array_equal(model.input_x(ids), ref["x0"])        # shared[ids], F16-exact
    qk = model.layer0_qk(ids)
    np.testing.assert_allclose(qk.q, ref["q"], atol=1e-5, rtol=1e-5)
    np.testing.assert_allclose(qk.k, ref["k"], atol=1e-5, rtol=1e-5)
    np.testing.assert_allclose(qk.logits - qk.logits_plain, ref["bias"], atol=1e-5, rtol=0)
    np.testing.assert_allclose(softmax(qk.logits), ref["attention"][0], atol=1e-5, rtol=0)
    later = model.layer0_qk(ref["x1"], layer=1)                         # T5: layer 0's table; UMT5: its own
    np.testing.assert_allclose(softmax(later.logits), ref["attention"][1], atol=1e-5, rtol=0)


def test_tensors_are_the_folders(written):
    """Every tensor read (the encoder's and the shared table) has the folder's name, shape and values."""
    _, folder, _, model = written
    with open_model(folder / "hf") as hf:
        names = [n for n in hf.tensors.names() if n.startswith("encoder.block.") and ".layer.0." in n]
        for name in names + ["shared.weight"]:
            np.testing.assert_array_equal(model.tensors.read(name), hf.tensors.read(name), err_msg=name)


def test_the_unigram_tokenizer_gives_transformers_ids(written):
    """transformers' own reading of the same file (integrations/gguf: T5Tokenizer over its pieces) and T5Tokenizer
    over the test pieces: the same ids, </s> last; unknown characters are <unk> (2)."""
    from transformers import AutoTokenizer

    _, folder, _, model = written
    theirs = AutoTokenizer.from_pretrained(str(folder), gguf_file="m.gguf")
    slow = tw.unigram_tokenizer()
    for text in SENTENCES:
        ours = [int(i) for i in model.tokenize(text).ids]
        assert ours == theirs(text).input_ids == slow(text).input_ids, text
        assert ours[-1] == 1
    assert 2 in model.tokenize("café!").ids and list(model.tokenize(mh.TEXT).ids[:3]) == [4, 5, 6]   # ▁the ▁cat ▁sat


@pytest.mark.parametrize("buckets", [8, 16, 32, 64, 128])
def test_llamas_bucket_rule_is_transformers_at_max_distance_128(buckets):
    """src/llama-graph.cpp, llama_relative_position_bucket (max_distance 128), transcribed with its float / double
    steps (logf of a float, times the int64 half in float, over a double log, floorf), gives relative_bucket's
    buckets for every distance to ±3000."""
    def llama(rel: int) -> int:
        half = buckets >> 1
        exact = half >> 1
        upper = half if rel > 0 else 0
        d = abs(rel)
        if d < exact:
            return upper + d
        logf = np.float32(math.log(np.float32(d / exact)))
        large = np.float32(exact + float(np.float32(logf * np.float32(half - exact))) / math.log(128 / exact))
        return upper + min(int(math.floor(large)), half - 1)

    rel = np.arange(-3000, 3001)
    np.testing.assert_array_equal(relative_bucket(rel, buckets, 128), [llama(int(r)) for r in rel])


def _buckets(w, count: int) -> None:
    """The writer's relative_buckets_count replaced by count."""
    fx.drop_keys(w, "t5.attention.relative_buckets_count")
    w.add_relative_attn_buckets_count(count)


def _refused(tmp_path, match, kind="t5", arch="t5", **write):
    torch_model = tw.tiny(kind)
    tw.save(tmp_path / "hf", torch_model, tw.unigram_tokenizer())
    tw.write_t5_gguf(tmp_path / "m.gguf", tmp_path / "hf", arch, **write)
    fx.opened_refused(tmp_path / "m.gguf", match)


@pytest.mark.parametrize("write, match", [
    ({"skip": ("enc.blk.0.attn_rel_b.weight",)}, "tensor enc.blk.0.attn_rel_b.weight is missing"),
    ({"replace": {"enc.blk.0.attn_rel_b.weight": np.zeros((8, 3))}},
     "tensor enc.blk.0.attn_rel_b.weight has shape [3, 8], expected [4, 8]"),
    ({"edit": lambda w, s: _buckets(w, 16)},
     "tensor enc.blk.0.attn_rel_b.weight has shape [4, 8], expected [4, 16]"),
    ({"skip": ("enc.blk.0.attn_q.weight",)}, "tensor enc.blk.0.attn_q.weight is missing"),
    ({"edit": fx.without_keys("t5.attention.relative_buckets_count")},
     "metadata t5.attention.relative_buckets_count is missing"),
    ({"edit": fx.without_keys("t5.attention.layer_norm_rms_epsilon")},
     "metadata t5.attention.layer_norm_rms_epsilon is missing"),
])
def test_damaged_files_are_refused_in_one_line(tmp_path, write, match):
    _refused(tmp_path, match, **write)


def test_bucket_counts_the_rule_cannot_use_are_refused(tmp_path):
    _refused(tmp_path, "metadata t5.attention.relative_buckets_count is 2; the encoder's bucket rule needs 4 to 515 "
             "buckets at llama.cpp's max distance of 128", edit=lambda w, s: _buckets(w, 2))


def test_a_umt5_file_without_some_later_tables_is_refused(tmp_path):
    """llama.cpp would take layer 0's table for a layer without its own; PE Explorer reads all or none."""
    import transformers

    torch.manual_seed(4)
    model = transformers.UMT5ForConditionalGeneration(transformers.UMT5Config(**{**tw.TINY, "num_layers": 3}))
    tw.save(tmp_path / "hf", model.eval(), tw.unigram_tokenizer())
    tw.write_t5_gguf(tmp_path / "m.gguf", tmp_path / "hf", "t5", skip=("enc.blk.2.attn_rel_b.weight",))
    fx.opened_refused(tmp_path / "m.gguf", "tensor enc.blk.N.attn_rel_b.weight is in 1 of the 2 later layers; PE "
                      "Explorer reads layer 0's table for every layer (T5) or one in every layer (UMT5)")


@pytest.mark.parametrize("key", ["tokenizer.ggml.add_space_prefix", "tokenizer.ggml.remove_extra_whitespaces"])
def test_a_vocabulary_llama_cpp_would_split_otherwise_is_refused(tmp_path, key):
    def off(w, stored):
        fx.drop_keys(w, key)
        w.add_bool(key, False)

    _refused(tmp_path, f"metadata {key} is false; PE Explorer reads T5's Unigram vocabulary with both it and "
             f"{'remove_extra_whitespaces' if key.endswith('prefix') else 'add_space_prefix'} true, as T5's "
             "SentencePiece models have them", edit=off)


def test_the_charsmap_is_left_out_as_transformers_leaves_it(tmp_path):
    """A file with a precompiled_charsmap (here bytes no SentencePiece normalizer could read) tokenizes as
    transformers' reading of it does, which leaves the map out."""
    from transformers import AutoTokenizer

    def charsmap(w, stored):
        w.add_array("tokenizer.ggml.precompiled_charsmap", list(range(1, 40)))

    tw.save(tmp_path / "hf", tw.tiny("t5encoder"), tw.unigram_tokenizer())
    tw.write_t5_gguf(tmp_path / "m.gguf", tmp_path / "hf", "t5encoder", edit=charsmap)
    theirs = AutoTokenizer.from_pretrained(str(tmp_path), gguf_file="m.gguf")
    with open_model(str(tmp_path / "m.gguf")) as model:
        for text in SENTENCES:
            assert [int(i) for i in model.tokenize(text).ids] == theirs(text).input_ids, text


def test_a_t5_vocabulary_of_another_architecture_is_still_refused(tmp_path):
    """XLM-RoBERTa's `bert` files also say tokenizer.ggml.model "t5"; only T5's own files build T5's tokenizer."""
    from explorer.backend.models.gguf_vocab import tokenizer_from_metadata
    from explorer.errors import InputError

    fields = {"general.architecture": "bert", "tokenizer.ggml.model": "t5", "tokenizer.ggml.tokens": ["a"]}
    with pytest.raises(InputError, match="tokenizer.ggml.model is 't5'; only byte-level BPE") as info:
        tokenizer_from_metadata(fields, "m.gguf")
    assert "\n" not in str(info.value)
