"""The CLI with --model: tokens, export input / learned-pe / qk; bad models exit 2 with one line."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from explorer.backend import pretrained
from explorer.commands.cli import main
from explorer.errors import InputError
from tests import models_helpers as mh

pytest.importorskip("transformers")


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("cli")
    models = {f: mh.build(f, root / f) for f in ("gpt2", "qwen3")}
    return root, models


def run(capsys, *argv):
    code = main(list(map(str, argv)))
    out, err = capsys.readouterr()
    return code, out, err


def test_tokens_with_a_model_use_its_own_tokenizer(folders, capsys):
    root, _ = folders
    code, out, _ = run(capsys, "tokens", "the cat zebra", "--model", root / "gpt2", "--json")
    data = json.loads(out)
    assert code == 0 and data["ids"] == [1, 2, 0]                      # WordLevel: zebra is [UNK] = 0
    assert data["spans"] == [[0, 3], [4, 7], [8, 13]] and data["tokenizer"] == "gpt2"
    code, out, _ = run(capsys, "tokens", "the cat", "--tokenizer", "char", "--json")
    assert json.loads(out)["ids"] == [ord(c) for c in "the cat"]       # --tokenizer still works


def test_export_input_learned_pe_and_qk(folders, capsys, tmp_path):
    root, models = folders
    code, out, _ = run(capsys, "export", "input", "--model", root / "gpt2", "--text", mh.TEXT,
                       "-o", tmp_path / "x.npy")
    assert code == 0, out
    ids = [mh.WORDS.index(w) + 1 for w in mh.TEXT.split()]
    ref = mh.capture(models["gpt2"], "gpt2", ids)["x"]
    np.testing.assert_allclose(np.load(tmp_path / "x.npy"), ref, atol=1e-5)
    assert run(capsys, "export", "learned-pe", "--model", root / "gpt2", "-o", tmp_path / "p.npy")[0] == 0
    np.testing.assert_array_equal(np.load(tmp_path / "p.npy"),
                                  models["gpt2"].transformer.wpe.weight.detach().numpy())
    code, out, _ = run(capsys, "export", "qk", "--model", root / "qwen3", "--text", mh.TEXT,
                       "-o", tmp_path / "f.npz")
    assert code == 0, out
    f = np.load(tmp_path / "f.npz")
    ref = mh.capture(models["qwen3"], "qwen3", ids)
    np.testing.assert_allclose(f["q"], ref["q_rot"], atol=1e-5 * np.abs(ref["q_rot"]).max())
    np.testing.assert_allclose(f["k"], ref["k_rot"][f["kv_head"]], atol=1e-5 * np.abs(ref["k_rot"]).max())
    assert f["logits"].shape == (4, len(ids), len(ids))


@pytest.mark.parametrize("argv, match", [
    (["export", "learned-pe", "--model", "{root}/qwen3", "-o", "{tmp}/p.npy"], "no learned position table"),
    (["export", "qk", "--model", "{root}/qwen3", "--text", "the", "--layer", "1", "-o", "{tmp}/f.npz"],
     "only layer 0"),
    (["export", "qk", "--model", "{root}/qwen3", "--text", "the", "-o", "{tmp}/f.npy"], "must end in .npz"),
    # logits grow as tokens²: 6000 tokens x 4 heads would need ~1.1 GiB (a fuzzed long text took 4 GB)
    (["export", "qk", "--model", "{root}/qwen3", "--text", "the " * 6000, "-o", "{tmp}/f.npz"],
     "use a shorter text"),
    (["export", "input", "--model", "{root}/qwen3", "--text", "", "-o", "{tmp}/x.npy"], "no tokens"),
    (["export", "input", "--model", "{tmp}/absent", "--text", "a", "-o", "{tmp}/x.npy"], "does not exist"),
    (["tokens", "a", "--model", "{tmp}/model.pt"], "pickle"),
    (["export", "qk", "--model", "{root}/qwen3", "--text", "the", "--layer", "-1", "-o", "{tmp}/f.npz"],
     "layer must be in 0..1, not -1"),            # was "layer -1 reads the output of the layers before it"
    # a pipe, or a link to /dev/zero, was said not to exist (and a pipe read would wait for ever)
    (["tokens", "a", "--model", "{tmp}/pipe.gguf"], "pipe.gguf is not a regular file"),
    (["tokens", "a", "--model", "{tmp}/zero.gguf"], "zero.gguf is not a regular file"),
])
def test_bad_requests_exit_2_with_one_line(folders, capsys, tmp_path, argv, match):
    root, _ = folders
    (tmp_path / "model.pt").write_bytes(b"\x80")
    os.mkfifo(tmp_path / "pipe.gguf")
    (tmp_path / "zero.gguf").symlink_to("/dev/zero")
    code, _out, err = run(capsys, *[a.format(root=root, tmp=tmp_path) for a in argv])
    assert code == 2 and err.startswith("pe-explorer: error: ") and match in err
    assert err.count("\n") == 1
    assert not (tmp_path / "f.npz").exists() and not (tmp_path / "x.npy").exists()


@pytest.mark.skipif(pretrained.minilm_available() is not None, reason="MiniLM not installed")
def test_minilm_by_name_equals_the_existing_tables(capsys, tmp_path):
    code, out, _ = run(capsys, "export", "input", "--model", "minilm", "--text", "hello world",
                       "-o", tmp_path / "x.npy")
    assert code == 0
    code, out, _ = run(capsys, "tokens", "hello world", "--model", "minilm", "--json")
    ids = json.loads(out)["ids"]
    assert ids == [101, 7592, 2088, 102]
    ref = pretrained.bert_input(pretrained.minilm_tables(), ids, layer_norm=True)
    np.testing.assert_allclose(np.load(tmp_path / "x.npy"), ref, atol=1e-6)


def test_byte_level_pieces_of_a_chinese_character_are_partial_and_share_its_span(tmp_path):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    from explorer.backend.models.hf_folder import open_model

    mh.build("qwen2", tmp_path / "q")
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(["the cat sat on the mat"], trainers.BpeTrainer(
        vocab_size=300, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False))
    tok.save(str(tmp_path / "q" / "tokenizer.json"))
    with open_model(tmp_path / "q") as m:
        t = m.tokenize("the 位 cat")
        assert t.ids.max() >= mh.VOCAB                    # this tokenizer is larger than the table ...
        with pytest.raises(InputError, match=f"0..{mh.VOCAB - 1}"):
            m.input_x(t.ids)                              # ... so its ids are refused, by name
    text = [x.text for x in t.tokens]
    assert text[0] == "the" and text[-1] == " cat"
    wei = [x for x in t.tokens if x.partial]
    assert [x.text for x in wei] == ["<e4>", "<bd>", "<8d>"]               # "位" is e4 bd 8d in UTF-8
    assert {(x.start, x.end) for x in wei} == {(4, 5)}
