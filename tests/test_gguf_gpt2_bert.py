"""GGUF files of architecture `gpt2` and `bert` against the transformers models they were written from.

Each tiny random model is saved as a Hugging Face folder and written as llama.cpp's converter writes it
(tests/gguf_learned_writer.py). F16 files hold float16-rounded weights exactly, so every tensor the GGUF reader
gives equals the folder's own (names, Hugging Face shapes, GPT-2's Conv1D orientation), and X into layer 0, the
learned position table and layer-0 q/k equal transformers' own (hooks; BERT: `model.embeddings`) to 1e-5. Q8_0
files equal gguf's own dequantization of the stored blocks. Damaged files give one-line InputErrors.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError, error_text
from tests import gguf_arch_writer as aw
from tests import gguf_fixtures as fx
from tests import gguf_learned_writer as lw
from tests import models_helpers as mh

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2, 44, 1]
CASES = [("gpt2", "F16"), ("gpt2", "Q8_0"), ("bert", "F16"), ("bert", "Q8_0"), ("bert-cased", "F16")]


def close(ours, ref, tol=1e-5):
    ref = np.asarray(ref, dtype=np.float64)
    np.testing.assert_allclose(ours, ref, rtol=0, atol=tol * max(1.0, float(np.abs(ref).max())))


def build(kind: str, seed: int = 5):
    if kind == "gpt2":
        return lw.tiny_gpt2(seed)
    return lw.tiny_bert(cased=kind == "bert-cased", seed=seed)


@pytest.fixture(scope="module", params=CASES, ids=lambda p: f"{p[0]}-{p[1]}")
def written(request, tmp_path_factory):
    kind, qtype = request.param
    arch = kind.split("-")[0]
    folder = tmp_path_factory.mktemp(f"{kind}-{qtype}")
    torch_model, tokenizer = build(kind)
    if qtype == "F16":
        aw.fp16_exact(torch_model)
    lw.save(folder / "hf", torch_model, tokenizer)
    path = folder / "m.gguf"
    stored = lw.write_learned_gguf(path, torch_model, tokenizer, folder / "hf", arch, qtype,
                                   quantize_tables=qtype == "Q8_0")
    model, hf = open_model(str(path)), open_model(folder / "hf")
    yield arch, qtype, torch_model, model, hf, stored
    model.close()
    hf.close()


def test_config_is_the_family(written):
    arch, _, torch_model, model, hf, _ = written
    c, ref = model.config, hf.config
    assert c.family == arch and c.position == "learned" and c.rope_scaling is None
    for field in ("d_model", "n_layers", "n_heads", "n_kv_heads", "head_dim", "vocab_size", "max_positions",
                  "norm_eps", "qk_bias", "pre_norm", "word_embed_proj_dim"):
        assert getattr(c, field) == pytest.approx(getattr(ref, field)), field
    assert c.max_positions == 48 and c.vocab_size == torch_model.config.vocab_size


def test_every_tensor_reads_as_the_folder_has_it(written):
    """Names and Hugging Face shapes equal the folder's; F16 values equal it exactly (Conv1D turned back)."""
    arch, qtype, _, model, hf, stored = written
    ours, theirs = model.tensors, hf.tensors
    dropped = {n for n in theirs.names() if n.startswith("pooler.")}          # BertModel's converter drops it
    fx.same_tensors(ours, theirs, qtype == "F16", left_out=dropped)
    if arch == "gpt2":
        qkv = ours.read("h.0.attn.c_attn.weight")                             # (d, 3d), as Conv1D keeps it
        np.testing.assert_array_equal(qkv, stored["blk.0.attn_qkv.weight"].T)
        np.testing.assert_array_equal(ours.rows("h.0.attn.c_attn.weight", [5, 0, 63]), qkv[[5, 0, 63]])


def test_input_x_is_what_layer_0_receives(written):
    arch, qtype, torch_model, model, _, stored = written
    x = model.input_x(IDS)
    ids = torch.as_tensor([IDS])
    if qtype == "F16":
        close(x, mh.capture(torch_model, arch, IDS)["x"])                      # the input hook of block 0
        if arch == "bert":
            with torch.no_grad():
                close(x, torch_model.embeddings(input_ids=ids)[0].numpy())
        else:
            with torch.no_grad():
                t = torch_model.transformer
                close(x, (t.wte(ids) + t.wpe(torch.arange(len(IDS))))[0].numpy())
    else:
        e, p = stored["token_embd.weight"][IDS], stored["position_embd.weight"][:len(IDS)]
        if arch == "gpt2":
            close(x, e + p)
        else:
            ref = torch.nn.functional.layer_norm(
                torch.as_tensor(e + p + stored["token_types.weight"][0]), (64,),
                torch.as_tensor(stored["token_embd_norm.weight"]), torch.as_tensor(stored["token_embd_norm.bias"]),
                torch_model.config.layer_norm_eps)
            close(x, ref.numpy())


def test_learned_position_table(written):
    arch, qtype, torch_model, model, _, stored = written
    table = model.positions()
    ref = (torch_model.transformer.wpe.weight if arch == "gpt2"
           else torch_model.embeddings.position_embeddings.weight).detach().numpy()
    assert table.shape == ref.shape == (48, 64)
    close(table, ref if qtype == "F16" else stored["position_embd.weight"])
    close(model.positions(7), table[:7])
    with pytest.raises(InputError, match=r"^49 tokens is longer than the model's 48 learned positions"):
        model.positions(49)


def test_layer0_qk_equal_transformers(written):
    arch, qtype, torch_model, model, hf, _ = written
    if qtype != "F16":
        pytest.skip("F16 files only: Q8_0 weights are not the model's")
    got, qk = mh.capture(torch_model, arch, IDS), model.layer0_qk(IDS)
    d, heads = model.config.d_model, model.config.n_heads
    q = got["qkv"][:, :d] if arch == "gpt2" else got["q"]
    k = got["qkv"][:, d:2 * d] if arch == "gpt2" else got["k"]
    close(qk.q, q.reshape(len(IDS), heads, -1).transpose(1, 0, 2))
    close(qk.k, k.reshape(len(IDS), heads, -1).transpose(1, 0, 2))
    np.testing.assert_array_equal(qk.q_rot, qk.q)                              # learned positions: no rotation
    close(qk.logits, hf.layer0_qk(IDS).logits)


def test_tokenizer_ids_equal_the_original(written):
    _, _, _, model, hf, _ = written
    from transformers import AutoTokenizer

    original = AutoTokenizer.from_pretrained(hf.path)
    texts = ["the cat sat on the mat", "Hello World! The cat's token-izer.", "中国人是 (12) 30?",
             "unaffable cafés, xyzzy ωμέγα 🙂", "  spaces\tand\nnew lines  ", "[CLS] the [SEP] mat [MASK]",
             "<|endoftext|>hello world"]
    for text in texts:
        assert model.tokenize(text).ids.tolist() == original(text)["input_ids"], text
        assert model.tokenize(text).ids.tolist() == hf.tokenize(text).ids.tolist(), text


def _bad(tmp_path, kind="gpt2", **kw):
    torch_model, tokenizer = build(kind)
    lw.save(tmp_path / "hf", torch_model, tokenizer)
    path = tmp_path / "bad.gguf"
    lw.write_learned_gguf(path, torch_model, tokenizer, tmp_path / "hf", kind, **kw)
    with pytest.raises(InputError) as info:
        open_model(str(path))
    message = str(info.value)
    assert "\n" not in message and message.startswith(str(path))
    return info.value


@pytest.mark.parametrize("kind,kw,match", [
    ("gpt2", {"skip": ("position_embd.weight",)}, "tensor position_embd.weight is missing or not (rows, 64)"),
    ("bert", {"skip": ("position_embd.weight",)}, "tensor position_embd.weight is missing or not (rows, 64)"),
    ("gpt2", {"replace": {"position_embd.weight": np.zeros((48, 32))}},
     "tensor position_embd.weight is missing or not (rows, 64)"),
    ("bert", {"skip": ("token_types.weight",)}, "tensor token_types.weight is missing or not (rows, 64)"),
    ("bert", {"skip": ("token_embd_norm.bias",)}, "tensor token_embd_norm.bias is missing"),
    ("gpt2", {"replace": {"blk.0.attn_qkv.weight": np.zeros((64, 64))}},
     "tensor blk.0.attn_qkv.weight has shape [64, 64], expected [64, 192]"),
    ("bert", {"replace": {"blk.0.attn_k.weight": np.zeros((32, 64))}},
     "tensor blk.0.attn_k.weight has shape [64, 32], expected [64, 64]"),
    ("gpt2", {"replace": {"token_embd.weight": np.zeros((20, 48))}},
     "tensor token_embd.weight is missing or not (rows, 64)"),
])
def test_damaged_files_are_refused_in_one_line(tmp_path, kind, kw, match):
    exc = _bad(tmp_path, kind, **kw)
    assert str(exc).endswith(match)
    assert "张量" in error_text(exc, "zh_CN")                                 # the window shows it in Chinese


def test_missing_layer_norm_epsilon_is_named(tmp_path):
    torch_model, tokenizer = build("gpt2")
    lw.save(tmp_path / "hf", torch_model, tokenizer)
    path = tmp_path / "m.gguf"
    lw.write_learned_gguf(path, torch_model, tokenizer, tmp_path / "hf", "gpt2")
    data = path.read_bytes().replace(b"gpt2.attention.layer_norm_epsilon", b"gpt2.attention.layer_norm_epsilom")
    path.write_bytes(data)
    with pytest.raises(InputError, match=r"^[^\n]*metadata gpt2\.attention\.layer_norm_epsilon is missing$"):
        open_model(str(path))


def test_the_cli_reads_the_files(written, capsys, tmp_path):
    """`tokens --model F.gguf`, `export input` and `export learned-pe` on the GGUF file, as on its folder."""
    import json

    from explorer.commands.cli import main

    _, qtype, _, model, hf, stored = written
    path = str(model.path)
    assert main(["tokens", "the cat sat, 中国", "--model", path, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ids"] == hf.tokenize("the cat sat, 中国").ids.tolist()
    assert main(["export", "learned-pe", "--model", path, "-o", str(tmp_path / "p.npy")]) == 0
    table = np.load(tmp_path / "p.npy")
    close(table, hf.positions() if qtype == "F16" else stored["position_embd.weight"])
    assert main(["export", "input", "--model", path, "--text", "the cat sat", "-o", str(tmp_path / "x.npy")]) == 0
    close(np.load(tmp_path / "x.npy"), model.input_x(model.tokenize("the cat sat").ids))
    if qtype == "F16":
        close(np.load(tmp_path / "x.npy"), hf.input_x(hf.tokenize("the cat sat").ids))


def test_a_roberta_style_bert_file_is_refused_by_its_pre_tokenizer(tmp_path):
    """RobertaModel writes arch `bert` with a byte-level vocabulary and pre 'roberta-bpe': not read (yet)."""
    bert, _ = build("bert")
    _, byte_level = build("gpt2")
    lw.save(tmp_path / "hf", bert, byte_level)
    path = tmp_path / "roberta.gguf"
    lw.write_learned_gguf(path, bert, byte_level, tmp_path / "hf", "bert", vocab="gpt2", pre="roberta-bpe")
    with pytest.raises(InputError, match=r"^[^\n]*tokenizer\.ggml\.pre is 'roberta-bpe'; supported pre-tokenizers "
                                         r"are [^\n]*gpt-2"):
        open_model(str(path))
