"""GGUF files of architecture `bloom` (ALiBi) against the transformers BloomForCausalLM they were written from.

Each tiny random model is saved as a Hugging Face folder and written as llama.cpp's converter writes it
(tests/gguf_bloom_writer.py: q; k; v rows reordered). An F16 file holds the float16-exact weights, so every
tensor the reader gives equals the folder's (the per-head qkv rows put back); X, layer-0 q / k and the
ALiBi-biased attention equal transformers' (hooks) to float32 tolerance, for F16 and for Q8_0 files (against
the model holding the dequantized values). llama.cpp's ALiBi slopes equal bloom.alibi_slopes. Damaged files
give one-line InputErrors.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.bloom import alibi_bias, alibi_slopes
from explorer.backend.models.hf_folder import open_model
from explorer.params import Params
from tests import gguf_bloom_writer as bw
from tests import gguf_fixtures as fx
from tests.test_models_bloom import _reference

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
TEXT = "the cat sat on the mat, 中国!"


def close(ours, ref, tol=1e-5):
    np.testing.assert_allclose(ours, ref, rtol=tol, atol=tol)


@pytest.fixture(scope="module", params=[(4, "F16"), (6, "F16"), (4, "Q8_0")], ids=lambda p: f"{p[0]}h-{p[1]}")
def written(request, tmp_path_factory):
    heads, qtype = request.param
    folder = tmp_path_factory.mktemp(f"bloom{heads}-{qtype}")
    torch_model, tokenizer = bw.tiny_bloom(folder / "hf", heads)
    path = folder / "m.gguf"
    stored = bw.write_bloom_gguf(path, torch_model, tokenizer, folder / "hf", qtype)
    model, hf = open_model(str(path)), open_model(folder / "hf")
    yield qtype, torch_model, model, hf, stored
    model.close()
    hf.close()


def test_config_is_the_folders(written):
    _, torch_model, model, hf, _ = written
    c, ref = model.config, hf.config
    assert (c.family, c.position, c.rope_scaling, c.model_type) == ("bloom", "alibi", None, "bloom")
    for field in ("d_model", "n_layers", "n_heads", "n_kv_heads", "head_dim", "vocab_size", "max_positions",
                  "norm_eps", "qk_bias", "pre_norm", "word_embed_proj_dim"):
        assert getattr(c, field) == pytest.approx(getattr(ref, field)), field
    assert c.n_heads == torch_model.config.n_head and c.max_positions == 2048 and c.norm_eps == pytest.approx(0.01)


def test_every_tensor_reads_as_the_folder_has_it(written):
    """Names and shapes equal the folder's; F16 values exactly (the converter's q; k; v rows put back per head)."""
    qtype, torch_model, model, hf, stored = written
    ours, theirs = model.tensors, hf.tensors
    fx.same_tensors(ours, theirs, qtype == "F16")
    heads, qkv = model.config.n_heads, "h.1.self_attention.query_key_value."
    back = stored["blk.1.attn_qkv.weight"].reshape(3, heads, 8, -1).swapaxes(0, 1).reshape(-1, 8 * heads)
    np.testing.assert_array_equal(ours.read(qkv + "weight"), back)
    np.testing.assert_array_equal(ours.rows(qkv + "weight", [0, 9, 95, 9]), back[[0, 9, 95, 9]])
    assert not np.array_equal(back, stored["blk.1.attn_qkv.weight"])             # (the reorder is not a no-op)
    np.testing.assert_array_equal(ours.read(qkv + "bias"),
                                  stored["blk.1.attn_qkv.bias"].reshape(3, heads, 8).swapaxes(0, 1).reshape(-1))


def test_x_q_k_and_attention_equal_transformers(written):
    qtype, torch_model, model, hf, stored = written
    reference = torch_model if qtype == "F16" else bw.dequantized_model(torch_model, stored)
    ids = model.tokenize(TEXT).ids
    ref = _reference(reference, ids)
    close(model.input_x(ids), ref["x"])
    assert model.positions(len(ids)) is None
    qk = model.layer0_qk(ids)
    close(qk.q, ref["q"])
    close(qk.k, ref["k"])
    assert np.array_equal(qk.q_rot, qk.q) and np.array_equal(qk.slopes, alibi_slopes(model.config.n_heads))
    np.testing.assert_array_equal(qk.logits, qk.logits_plain + alibi_bias(qk.slopes, len(ids)))
    scores = np.where(np.tri(len(ids), dtype=bool), qk.logits, -np.inf).astype(np.float64)
    probs = np.exp(scores - scores.max(axis=-1, keepdims=True))
    close(probs / probs.sum(axis=-1, keepdims=True), ref["attention"])
    if qtype == "F16":                                                           # the folder's own model
        want = hf.layer0_qk(ids)
        close(qk.logits, want.logits)
        close(model.input_x(ids), hf.input_x(ids))


def test_tokenizer_ids_equal_the_original(written):
    _, _, model, hf, _ = written
    from transformers import AutoTokenizer

    original = AutoTokenizer.from_pretrained(hf.path)
    for text in ["the cat sat on the mat", "Hello World! The cat's token-izer.", "中国人是 (12) 30?",
                 "unaffable cafés, xyzzy ωμέγα 🙂", "  spaces\tand\nnew lines  ", "a.b,c!d?e…f。g，h"]:
        assert model.tokenize(text).ids.tolist() == original(text)["input_ids"], text
        assert model.tokenize(text).ids.tolist() == hf.tokenize(text).ids.tolist(), text


@pytest.mark.parametrize("heads", range(1, 113))
def test_llama_cpp_alibi_slopes_are_blooms(heads):
    """ggml's soft_max slopes (max_bias 8, as llama.cpp's bloom sets it) against bloom.alibi_slopes: within
    float32 rounding of ggml's formula in float64, and within an ulp of it in float32 (powf)."""
    log2 = 1 << int(np.floor(np.log2(heads)))
    h = np.arange(heads)
    exact = np.where(h < log2, 2.0 ** (-8.0 / log2 * (h + 1)), 2.0 ** (-4.0 / log2 * (2 * (h - log2) + 1)))
    ours = alibi_slopes(heads)
    np.testing.assert_allclose(ours, exact, rtol=1e-6, atol=0)
    m0, m1 = np.float32(2.0) ** np.float32(-8.0 / log2), np.float32(2.0) ** np.float32(-4.0 / log2)
    powf = np.where(h < log2, m0 ** (h + 1).astype(np.float32), m1 ** (2 * (h - log2) + 1).astype(np.float32))
    np.testing.assert_array_max_ulp(ours, powf.astype(np.float32), maxulp=1)


def test_llama_cpp_alibi_mask_is_the_bias_on_the_keys_read():
    """llama.cpp's KQ mask holds -|p0 - p1| for the keys read when hparams.use_alibi (src/llama-kv-cache.cpp,
    set_input_kq_mask), which ggml's soft_max scales by each head's slope: alibi_bias's slope · (n - m) there."""
    slopes, n = alibi_slopes(6), 5
    m, key = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    llama = slopes[:, None, None] * -np.abs(m - key)[None].astype(np.float32)                    # (H, n, n)
    causal = np.tri(n, dtype=bool)
    np.testing.assert_array_equal(alibi_bias(slopes, n)[:, causal], llama[:, causal])


def test_the_views_and_export_read_the_gguf_file(written, tmp_path):
    """Tokens (X = LayerNorm(E)), Real RoPE (the ALiBi bias, each head's slope) and `export qk` on the .gguf."""
    from explorer.commands.cli import main
    from explorer.compute import qk as qk_view
    from explorer.compute.model_tokens import for_model

    _, _, model, _, _ = written
    path = str(model.path)
    params = Params(model=path, embedding_source="model", text=TEXT)
    r = for_model(params)
    assert (r.error, r.position, r.family) == ("", "alibi", "bloom")
    np.testing.assert_array_equal(r.x, model.input_x(model.tokenize(TEXT).ids))
    view = qk_view.qk_view(params, qk_view.QkState(head=1))
    want = model.layer0_qk(model.tokenize(TEXT).ids)
    assert (view.error, view.alibi, view.head, view.n_heads) == ("", True, 1, model.config.n_heads)
    np.testing.assert_array_equal(view.slopes, alibi_slopes(model.config.n_heads))
    np.testing.assert_array_equal(view.logits, want.logits)
    assert main(["export", "qk", "--model", path, "--text", TEXT, "-o", str(tmp_path / "f.npz")]) == 0
    f = np.load(tmp_path / "f.npz")
    np.testing.assert_array_equal(f["alibi_slopes"], alibi_slopes(model.config.n_heads))
    np.testing.assert_array_equal(f["logits"], want.logits)


def _bad(tmp_path, **kw):
    torch_model, tokenizer = bw.tiny_bloom(tmp_path / "hf")
    path = tmp_path / "bad.gguf"
    bw.write_bloom_gguf(path, torch_model, tokenizer, tmp_path / "hf", **kw)
    return path


@pytest.mark.parametrize("kw,match", [
    ({"skip": ("blk.0.attn_qkv.weight",)}, "tensor blk.0.attn_qkv.weight is missing"),
    ({"skip": ("blk.1.attn_qkv.bias",)}, "tensor blk.1.attn_qkv.bias is missing"),
    ({"replace": {"blk.0.attn_qkv.weight": np.zeros((64, 32))}},
     "tensor blk.0.attn_qkv.weight has shape [32, 64], expected [32, 96]"),
    ({"replace": {"blk.1.attn_qkv.weight": np.zeros((96, 16))}},
     "tensor blk.1.attn_qkv.weight has shape [16, 96], expected [32, 96]"),
    ({"skip": ("token_embd_norm.bias",)}, "tensor token_embd_norm.bias is missing"),
    ({"replace": {"token_embd.weight": np.zeros((20, 48))}}, "tensor token_embd.weight is missing or not (rows, 32)"),
    ({"edit": bw.set_key("bloom.attention.head_count", 5)}, "the width 32 is not a multiple of the 5 attention heads"),
    ({"edit": bw.set_key("bloom.attention.head_count", 0)},
     "metadata bloom.attention.head_count is 0; it must be an integer from 1 to 2^31"),
    ({"edit": bw.set_key("bloom.attention.head_count", 1 << 20)},
     "metadata bloom.attention.head_count is 1048576; at most 65,536 heads are read"),
    ({"edit": bw.set_key("bloom.attention.head_count_kv", 2)},
     "metadata bloom.attention.head_count_kv is 2; BLOOM has one key/value head per head (4)"),
    ({"edit": bw.set_key("bloom.attention.key_length", 16)},
     "metadata bloom.attention.key_length is 16; a BLOOM head has embedding_length / head_count (8) channels"),
    ({"edit": bw.set_key("bloom.block_count", (1 << 31) - 1)}, "tensor blk.2.attn_qkv.weight is missing"),
    ({"edit": bw.set_key("bloom.block_count", 1)}, "tensor blk.1.attn_norm.weight is not one llama.cpp's bloom "
     "loads (its loader refuses the file)"),
    ({"edit": fx.without_keys("bloom.attention.layer_norm_epsilon")},
     "metadata bloom.attention.layer_norm_epsilon is missing"),
    ({"edit": lambda w, stored: w.add_tensor("rope_freqs.weight", np.ones(4, np.float32))},
     "tensor rope_freqs.weight is not one llama.cpp's bloom loads (its loader refuses the file)"),
])
def test_damaged_files_are_refused_in_one_line(tmp_path, kw, match):
    fx.opened_refused(_bad(tmp_path, **kw), match)


@pytest.mark.parametrize("fraction", [0.3, 0.9, 0.999])
def test_a_truncated_file_is_refused_in_one_line(tmp_path, fraction):
    fx.opened_refused(fx.truncated(_bad(tmp_path), fraction))
