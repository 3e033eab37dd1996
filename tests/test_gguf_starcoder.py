"""GGUF files of architecture `starcoder` (GPT-BigCode: StarCoder, SantaCoder) against the GPTBigCodeForCausalLM they
were written from.

Each tiny random model is saved as a Hugging Face folder and written as llama.cpp's converter writes it
(tests/gguf_learned_writer.py: StarCoderModel's keys, head_count_kv 1, GPT-2's tensor names, the nn.Linear weights
as they are). An F16 file holds the float16-exact weights, so every tensor the reader gives equals the folder's; X,
the learned table, layer-0 q / k (one kv head) and the causal attention equal transformers' (hooks, its
output_attentions) for F16 and Q8_0 files (Q8_0: against the model holding the dequantized values). What llama.cpp
would not load is refused in one line.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from explorer.backend.models.gguf_config import config_from_metadata
from explorer.backend.models.gguf_learned import check_learned_layer0
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import gguf_fixtures as fx
from tests import gguf_learned_writer as lw
from tests import models_helpers as mh
from tests.test_gguf_smollm3 import _reshaped, _without, damaged, refused_in_one_line, without_field

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
TEXT = "the cat sat on the mat, 中国! 2024 and 12345"


def close(ours, ref, tol=1e-5):
    ref = np.asarray(ref, dtype=np.float64)
    np.testing.assert_allclose(ours, ref, rtol=0, atol=tol * max(1.0, float(np.abs(ref).max())))


def _saved(folder, **settings):
    """tiny_starcoder saved into folder with a byte-level BPE tokenizer behind StarCoder's pre-tokenizer (each digit
    alone, then GPT-2's regex: bigcode/starcoder's tokenizer.json; llama.cpp's "starcoder"); (model, tokenizer)."""
    from tokenizers import pre_tokenizers

    pre = pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=True),
                                   pre_tokenizers.ByteLevel(add_prefix_space=False)])
    return lw.saved_with_bpe(lw.tiny_starcoder(**settings), folder, pre)


def _write(folder, qtype="F16", **kw):
    torch_model, tokenizer = _saved(folder / "hf")
    stored = lw.write_learned_gguf(folder / "m.gguf", torch_model, tokenizer, folder / "hf", "starcoder", qtype,
                                   quantize_tables=qtype == "Q8_0", **kw)
    return torch_model, tokenizer, stored


def _holding(torch_model, stored: dict):
    """A copy of the torch model holding the file's values (a Q8_0 file's dequantized weights)."""
    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.STARCODER, torch_model.config.n_layer)
    held = copy.deepcopy(torch_model)
    with torch.no_grad():
        for hf, p in held.named_parameters():
            name = names.get_name(hf, try_suffixes=(".weight", ".bias"))
            if name in stored:
                p.copy_(torch.as_tensor(stored[name]).reshape(p.shape))
    return held


@pytest.fixture(scope="module", params=["F16", "Q8_0"])
def written(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp(f"starcoder-{request.param}")
    torch_model, _, stored = _write(folder, request.param)
    model, hf = open_model(str(folder / "m.gguf")), open_model(folder / "hf")
    yield request.param, torch_model, model, hf, stored
    model.close()
    hf.close()


def test_config_is_the_folders(written):
    _, torch_model, model, hf, _ = written
    c, ref = model.config, hf.config
    assert (c.family, c.model_type, c.position, c.rope_scaling) == ("gpt2", "gpt_bigcode", "learned", None)
    for field in ("d_model", "n_layers", "n_heads", "n_kv_heads", "head_dim", "vocab_size", "max_positions",
                  "norm_eps", "qk_bias", "pre_norm", "word_embed_proj_dim", "score_scalar"):
        assert getattr(c, field) == pytest.approx(getattr(ref, field)), field
    assert (c.n_heads, c.n_kv_heads, c.max_positions) == (4, 1, 48) == (
        torch_model.config.n_head, torch_model.transformer.h[0].attn.kv_heads, torch_model.config.n_positions)


def test_every_tensor_reads_as_the_folder_has_it(written):
    """Names and shapes equal the folder's; F16 values exactly (c_attn as stored: an nn.Linear, not transposed)."""
    qtype, _, model, hf, stored = written
    ours, theirs = model.tensors, hf.tensors
    fx.same_tensors(ours, theirs, qtype == "F16")
    qkv = ours.read("h.1.attn.c_attn.weight")                                    # (64 + 2 x 16, 64)
    assert qkv.shape == (96, 64)
    np.testing.assert_array_equal(qkv, stored["blk.1.attn_qkv.weight"])
    np.testing.assert_array_equal(ours.rows("h.1.attn.c_attn.weight", [0, 70, 95, 0]), qkv[[0, 70, 95, 0]])


def test_x_table_q_k_and_attention_equal_transformers(written):
    qtype, torch_model, model, _, stored = written
    reference = torch_model if qtype == "F16" else _holding(torch_model, stored)
    ids = model.tokenize(TEXT).ids
    ref = mh.capture(reference, "gpt_bigcode", ids)
    close(model.input_x(ids), ref["x"])
    close(model.positions(), reference.transformer.wpe.weight.detach().numpy())
    qk = model.layer0_qk(ids)
    close(qk.q, ref["q"])
    close(qk.k, ref["k"][qk.kv_head])
    np.testing.assert_array_equal(qk.q_rot, qk.q)                              # learned positions: no rotation
    with torch.no_grad():
        out = reference(input_ids=torch.as_tensor(np.asarray(ids)[None]), output_attentions=True)
    close(mh.attention_of(qk), out.attentions[0][0].numpy())


def test_tokenizer_ids_equal_the_original(written):
    _, _, model, hf, _ = written
    from transformers import AutoTokenizer

    original = AutoTokenizer.from_pretrained(hf.path)
    for text in ["the cat sat on the mat", "Hello World! The cat's token-izer.", "中国人是 (12) 30? 2024",
                 "  spaces\tand\nnew lines 3.14159  ", "<|endoftext|>hello world"]:
        assert model.tokenize(text).ids.tolist() == original(text)["input_ids"], text


def _header(tmp_path):
    _write(tmp_path)
    return fx.header_of(tmp_path / "m.gguf")


@pytest.mark.parametrize("fields, tensors, says", [
    (None, lambda h: _without(h, "position_embd.weight"),
     r"tensor position_embd\.weight is missing or not \(rows, 64\)"),
    (None, lambda h: _reshaped(h, "position_embd.weight", (64, 40)),       # llama.cpp: {n_embd, n_ctx_train}
     r"tensor position_embd\.weight has shape \[64, 40\], expected \[64, 48\]"),
    (None, lambda h: _reshaped(h, "blk.0.attn_qkv.weight", (64, 192)),     # GPT-2's (or multi_query false's) rows
     r"tensor blk\.0\.attn_qkv\.weight has shape \[64, 192\], expected \[64, 96\]"),
    (None, lambda h: _without(h, "blk.0.attn_qkv.bias"), r"tensor blk\.0\.attn_qkv\.bias is missing"),
    (None, lambda h: _without(h, "blk.0.attn_norm.bias"), r"tensor blk\.0\.attn_norm\.bias is missing"),
    ({"starcoder.attention.head_count_kv": 4}, None, r"metadata starcoder\.attention\.head_count_kv is 4; "),
    (without_field("starcoder.attention.head_count_kv"), None,           # (llama.cpp's default: head_count)
     r"metadata starcoder\.attention\.head_count_kv is 4; "),
    (without_field("starcoder.context_length"), None, r"metadata starcoder\.context_length is missing"),
    (without_field("starcoder.attention.layer_norm_epsilon"), None,
     r"metadata starcoder\.attention\.layer_norm_epsilon is missing"),
    ({"starcoder.attention.head_count": 5}, None, r"the width 64 is not a multiple of the 5 attention heads"),
])
def test_damaged_files_are_refused_in_one_line(tmp_path, fields, tensors, says):
    bad = damaged(_header(tmp_path), fields, tensors)

    def read():
        check_learned_layer0(bad, config_from_metadata(bad, "m.gguf"), "m.gguf")

    refused_in_one_line(read, says)


def test_a_multi_head_checkpoint_converted_as_llama_cpp_converts_it_is_refused(tmp_path):
    """multi_query false: the converter still writes head_count_kv 1 beside a c_attn of 3 x 64 rows, which
    llama.cpp's starcoder does not load (attn_qkv {n_embd, n_embd + 2 n_embd_gqa})."""
    torch_model, tokenizer = _saved(tmp_path / "hf", multi_query=False)
    path = tmp_path / "mha.gguf"
    lw.write_learned_gguf(path, torch_model, tokenizer, tmp_path / "hf", "starcoder")
    with pytest.raises(InputError, match=r"tensor blk\.0\.attn_qkv\.weight has shape \[64, 192\], expected "
                                         r"\[64, 96\]$") as info:
        open_model(str(path))
    assert "\n" not in str(info.value) and str(info.value).startswith(str(path))


def test_a_truncated_file_is_refused_in_one_line(tmp_path):
    _write(tmp_path)
    path = tmp_path / "m.gguf"
    path.write_bytes(path.read_bytes()[:-1000])
    with pytest.raises(InputError) as info:
        with open_model(str(path)) as model:
            model.layer0_qk(model.tokenize(TEXT).ids)
            model.positions()
    assert "\n" not in str(info.value) and str(path) in str(info.value)


def test_the_cli_reads_the_file_as_its_folder(written, capsys, tmp_path):
    """`tokens --model F.gguf`, `export input`, `export learned-pe` and `export qk` (nothing turned: q = q_plain)
    on the file give what its folder gives (Q8_0: what the file holds)."""
    import json

    from explorer.commands.cli import main

    qtype, _, model, hf, _ = written
    path, text = str(model.path), "the cat sat, 中国 42"
    assert main(["tokens", text, "--model", path, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ids"] == hf.tokenize(text).ids.tolist()
    assert main(["export", "learned-pe", "--model", path, "-o", str(tmp_path / "p.npy")]) == 0
    close(np.load(tmp_path / "p.npy"), model.positions())
    assert main(["export", "input", "--model", path, "--text", text, "-o", str(tmp_path / "x.npy")]) == 0
    assert main(["export", "qk", "--model", path, "--text", text, "-o", str(tmp_path / "qk.npz")]) == 0
    qk = np.load(tmp_path / "qk.npz")
    np.testing.assert_array_equal(qk["q"], qk["q_plain"])
    assert qk["q"].shape[0] == 4 and not qk["kv_head"].any()                   # four q heads read kv head 0
    if qtype == "F16":
        ids = hf.tokenize(text).ids
        close(np.load(tmp_path / "x.npy"), hf.input_x(ids))
        close(qk["logits"], hf.layer0_qk(ids).logits)
