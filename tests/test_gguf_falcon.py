"""GGUF files of architecture `falcon` (rotary) against the transformers FalconForCausalLM they were written from.

Each tiny random model (falcon-7b's multi-query layout, falcon-40b's two norms and KV groups, one k and v a head) is
saved as a Hugging Face folder and written as llama.cpp's converter writes it (tests/gguf_falcon_writer.py: the
query_key_value rows reordered from KV groups into q; k; v). An F16 file holds the float16-exact weights, so every
tensor reads as the folder's (the rows put back); X, layer-0 q / k after RoPE and the attention equal transformers'
(hooks) for F16 and Q8_0 files (against the model holding the dequantized values); the views and `export qk` read the
file; damaged files give one-line InputErrors, in English and Chinese.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.params import Params
from tests import gguf_bloom_writer as bw
from tests import gguf_falcon_writer as fw
from tests import gguf_fixtures as fx
from tests.test_models_falcon import _reference, _softmax

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
TEXT = "the cat sat on the mat, 中国! hello world's token-izer (rope) position"
KV = {"mq": 1, "new": 2, "ph": None}          # kv heads of each layout (None: one a head)


def close(ours, ref, tol=1e-5):
    np.testing.assert_allclose(ours, ref, rtol=tol, atol=tol)


@pytest.fixture(scope="module", params=[("mq", 4, "F16"), ("new", 8, "F16"), ("ph", 4, "F16"), ("new", 8, "Q8_0"),
                                        ("mq", 4, "Q8_0")], ids=lambda p: "-".join(map(str, p)))
def written(request, tmp_path_factory):
    layout, heads, qtype = request.param
    folder = tmp_path_factory.mktemp(f"falcon-{layout}{heads}-{qtype}")
    torch_model, tokenizer = fw.tiny_falcon(folder / "hf", layout, heads)
    path = folder / "m.gguf"
    stored = fw.write_falcon_gguf(path, torch_model, tokenizer, folder / "hf", qtype)
    with open_model(str(path)) as model, open_model(folder / "hf") as hf:
        yield layout, qtype, torch_model, model, hf, stored


def test_config_is_the_folders(written):
    layout, _, torch_model, model, hf, _ = written
    c, ref, heads = model.config, hf.config, torch_model.config.num_attention_heads
    assert (c.family, c.model_type, c.position, c.rope_interleaved, c.rope_type_label) == (
        "falcon", "falcon", "rope", False, "")
    assert c.rope_scaling == ref.rope_scaling
    assert (c.n_heads, c.n_kv_heads, c.head_dim, c.rope_dim, c.d_model, c.max_positions, c.rope_base) == (
        heads, KV[layout] or heads, 8, 8, 8 * heads, 2048, 10000.0)
    for field in ("d_model", "n_layers", "n_heads", "n_kv_heads", "head_dim", "vocab_size", "max_positions",
                  "norm_eps", "qk_bias", "pre_norm", "rope_base", "rope_dim", "word_embed_proj_dim"):
        assert getattr(c, field) == pytest.approx(getattr(ref, field)), field
    assert c.norm_eps == pytest.approx(0.01) and not c.qk_bias
    inv_freq, factor = model.rope_inv_freq()
    np.testing.assert_allclose(inv_freq, torch_model.transformer.rotary_emb.inv_freq.numpy(), rtol=1e-6)
    assert factor == 1.0


def test_every_tensor_reads_as_the_folder_has_it(written):
    """Names and shapes equal the folder's (falcon-40b's attn_norm is ln_mlp beside attn_norm_2's ln_attn); F16
    values exactly, the converter's q; k; v rows put back in KV groups."""
    layout, qtype, torch_model, model, hf, stored = written
    ours, theirs = model.tensors, hf.tensors
    fx.same_tensors(ours, theirs, qtype == "F16")
    assert ("h.0.ln_attn.weight" in ours.names()) == ("h.0.ln_mlp.weight" in ours.names()) == (layout == "new")
    heads, kv, qkv = model.config.n_heads, model.config.n_kv_heads, "h.1.self_attention.query_key_value.weight"
    back = fw.groups_back(stored["blk.1.attn_qkv.weight"], heads, kv)
    np.testing.assert_array_equal(ours.read(qkv), back)
    np.testing.assert_array_equal(ours.rows(qkv, [0, 9, len(back) - 1, 9]), back[[0, 9, len(back) - 1, 9]])
    # (the reorder is not a no-op, except for one group: q heads, k, v already)
    assert (kv == 1) == np.array_equal(back, stored["blk.1.attn_qkv.weight"])


def test_x_q_k_after_rope_and_attention_equal_transformers(written):
    _, qtype, torch_model, model, hf, stored = written
    reference = torch_model if qtype == "F16" else fw.dequantized_model(torch_model, stored)
    ids = model.tokenize(TEXT).ids
    ref = _reference(reference, ids)
    heads, kv = model.config.n_heads, model.config.n_kv_heads
    close(model.input_x(ids), ref["x"], 1e-6)
    assert model.positions(len(ids)) is None
    qk = model.layer0_qk(ids)
    close(qk.q_rot, ref["q"])
    close(qk.k_rot[::heads // kv], ref["k"])                                   # (each group's k)
    assert qk.slopes is None and not np.allclose(qk.q_rot[:, 1:], qk.q[:, 1:], atol=1e-3)
    close(_softmax(qk.logits), ref["attention"])
    if qtype == "F16":                                                           # the folder's own model
        want = hf.layer0_qk(ids)
        close(qk.logits, want.logits)
        close(qk.q_rot, want.q_rot)
        close(model.input_x(ids), hf.input_x(ids), 0)


def test_a_files_rope_base_is_read(tmp_path):
    """falcon.rope.freq_base (which the converter does not write) is llama.cpp's base: a model of rope_theta 500."""
    torch_model, tokenizer = fw.tiny_falcon(tmp_path / "hf", "new", 8, rope_theta=500.0)
    path = tmp_path / "m.gguf"
    fw.write_falcon_gguf(path, torch_model, tokenizer, tmp_path / "hf", edit=bw.set_key("falcon.rope.freq_base",
                                                                                         500.0, "float32"))
    with open_model(str(path)) as model:
        assert model.config.rope_base == 500.0
        ids = model.tokenize(TEXT).ids
        ref, qk = _reference(torch_model, ids), model.layer0_qk(ids)
        close(qk.q_rot, ref["q"])
        close(_softmax(qk.logits), ref["attention"])


def test_neutral_rope_scaling_keys_are_no_scaling(tmp_path):
    """A scaling type "none" and a factor of 1 change nothing in llama.cpp: read, as plain RoPE."""
    def edit(w, stored):
        w.add_string("falcon.rope.scaling.type", "none")
        w.add_float32("falcon.rope.scaling.factor", 1.0)

    torch_model, tokenizer = fw.tiny_falcon(tmp_path / "hf", "mq", 4)
    fw.write_falcon_gguf(tmp_path / "m.gguf", torch_model, tokenizer, tmp_path / "hf", edit=edit)
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert (model.config.rope_base, model.config.rope_type_label) == (10000.0, "")
        ids = model.tokenize(TEXT).ids
        close(model.layer0_qk(ids).q_rot, _reference(torch_model, ids)["q"])


def test_tokenizer_ids_equal_the_original(written):
    _, _, _, model, hf, _ = written
    from transformers import AutoTokenizer

    original = AutoTokenizer.from_pretrained(hf.path)
    for text in ["the cat sat on the mat", "Hello World! The cat's token-izer.", "中国人是 (12) ...?",
                 "unaffable cafés, xyzzy ωμέγα 🙂", "  spaces\tand\nnew lines  ", "a.b,c!d?e…f。g，h"]:
        assert model.tokenize(text).ids.tolist() == original(text)["input_ids"], text


def test_the_views_and_export_read_the_gguf_file(written, tmp_path):
    """Tokens (X = token_embd[ids]), Real RoPE (q and k after RoPE, no ALiBi) and `export qk` on the .gguf."""
    from explorer.commands.cli import main
    from explorer.compute import qk as qk_view
    from explorer.compute.model_tokens import for_model

    _, _, _, model, _, _ = written
    path = str(model.path)
    params = Params(model=path, embedding_source="model", text=TEXT)
    r = for_model(params)
    assert (r.error, r.position, r.family) == ("", "rope", "falcon")
    want = model.layer0_qk(model.tokenize(TEXT).ids)
    np.testing.assert_array_equal(r.x, model.input_x(model.tokenize(TEXT).ids))
    view = qk_view.qk_view(params, qk_view.QkState(head=1))
    assert (view.error, view.alibi, view.head, view.n_heads) == ("", False, 1, model.config.n_heads)
    for got, ref in ((view.q, want.q_rot), (view.k, want.k_rot), (view.logits, want.logits)):
        close(got, ref, 1e-6)
    assert main(["export", "qk", "--model", path, "--text", TEXT, "-o", str(tmp_path / "f.npz")]) == 0
    f = np.load(tmp_path / "f.npz")
    assert "alibi_slopes" not in f.files
    close(f["logits"], want.logits, 1e-6)


def _bad(tmp_path, layout="mq", heads=4, **kw):
    torch_model, tokenizer = fw.tiny_falcon(tmp_path / "hf", layout, heads)
    path = tmp_path / "bad.gguf"
    fw.write_falcon_gguf(path, torch_model, tokenizer, tmp_path / "hf", **kw)
    return path


NO_LAYOUT = "PE Explorer reads one norm layout for every layer"
NOT_LOADED = "(its loader refuses the file)"


@pytest.mark.parametrize("layout,kw,match", [
    ("mq", {"skip": ("blk.0.attn_qkv.weight",)}, "tensor blk.0.attn_qkv.weight is missing"),
    ("mq", {"replace": {"blk.1.attn_qkv.weight": np.zeros((40, 32))}},
     "tensor blk.1.attn_qkv.weight has shape [32, 40], expected [32, 48]"),
    ("new", {"replace": {"blk.0.attn_qkv.weight": np.zeros((64, 64))}},
     "tensor blk.0.attn_qkv.weight has shape [64, 64], expected [64, 96]"),
    ("new", {"skip": ("blk.1.attn_norm_2.weight",)}, "tensor blk.1.attn_norm_2.weight is missing"),
    ("mq", {"extra": {"blk.1.attn_norm_2.weight": np.ones(32)}},
     f"tensor blk.1.attn_norm_2.weight is in layer 1 but not in layer 0; {NO_LAYOUT}"),
    ("mq", {"extra": {"blk.0.attn_qkv.bias": np.ones(48)}},
     f"tensor blk.0.attn_qkv.bias is not one llama.cpp's falcon loads {NOT_LOADED}"),
    ("mq", {"extra": {"rope_freqs.weight": np.ones(4)}},
     f"tensor rope_freqs.weight is not one llama.cpp's falcon loads {NOT_LOADED}"),
    ("mq", {"skip": ("output_norm.bias",)}, "tensor output_norm.bias is missing"),
    ("mq", {"replace": {"token_embd.weight": np.zeros((20, 48))}}, "tensor token_embd.weight is missing or not "
     "(rows, 32)"),
    ("mq", {"edit": bw.set_key("falcon.attention.head_count", 3)},
     "the width 32 is not a multiple of the 3 attention heads"),
    ("new", {"edit": bw.set_key("falcon.attention.head_count_kv", 3)}, "8 attention heads cannot share 3 key/value "
     "heads"),
    ("mq", {"edit": bw.set_key("falcon.attention.head_count_kv", 0)},
     "metadata falcon.attention.head_count_kv is 0; it must be an integer from 1 to 2^31"),
    ("mq", {"edit": bw.set_key("falcon.attention.head_count", 1 << 20)},
     "metadata falcon.attention.head_count is 1048576; at most 65,536 heads are read"),
    ("mq", {"edit": bw.set_key("falcon.attention.key_length", 16)},
     "metadata falcon.attention.key_length is 16; a Falcon head has embedding_length / head_count (8) channels"),
    ("mq", {"edit": bw.set_key("falcon.rope.dimension_count", 4)},
     "metadata falcon.rope.dimension_count is 4; llama.cpp's falcon turns the whole head (8 channels)"),
    ("mq", {"edit": bw.set_key("falcon.rope.freq_base", 1.0, "float32")},
     "metadata falcon.rope.freq_base is 1.0; RoPE's base must be > 1"),
    ("mq", {"edit": bw.set_key("falcon.rope.scaling.type", "yarn", "string")},
     "PE Explorer reads a falcon file without RoPE scaling (llama.cpp's converter writes none)"),
    ("mq", {"edit": bw.set_key("falcon.rope.scaling.factor", 4.0, "float32")},
     "PE Explorer reads a falcon file without RoPE scaling (llama.cpp's converter writes none)"),
    ("mq", {"edit": bw.set_key("falcon.block_count", (1 << 31) - 1)}, "tensor blk.2.attn_norm.weight is missing"),
    ("mq", {"edit": bw.set_key("falcon.block_count", 1)}, NOT_LOADED),
    ("mq", {"edit": fx.without_keys("falcon.attention.layer_norm_epsilon")},
     "metadata falcon.attention.layer_norm_epsilon is missing"),
])
def test_damaged_files_are_refused_in_one_line(tmp_path, layout, kw, match):
    fx.opened_refused(_bad(tmp_path, layout, 4 if layout == "mq" else 8, **kw), match)


def test_a_layer_past_block_count_is_refused(tmp_path):
    exc = fx.opened_refused(_bad(tmp_path, edit=bw.set_key("falcon.block_count", 1)), NOT_LOADED)
    assert "tensor blk.1." in str(exc) and "llama.cpp's falcon" in str(exc)


@pytest.mark.parametrize("fraction", [0.3, 0.9, 0.999])
def test_a_truncated_file_is_refused_in_one_line(tmp_path, fraction):
    fx.opened_refused(fx.truncated(_bad(tmp_path), fraction))
