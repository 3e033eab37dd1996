"""GGUF files of architecture `mpt` (ALiBi) against the transformers MptForCausalLM they were written from.

Each tiny random model is saved as a Hugging Face folder and written as llama.cpp's converter writes it
(tests/gguf_mpt_writer.py: names only, Wqkv's q; k; v blocks kept). An F16 file holds the float16-exact weights, so
every tensor the reader gives equals the folder's; X, layer-0 q / k (clamped by clamp_kqv) and the ALiBi-biased
attention equal transformers' (hooks) to float32 tolerance, for F16 and Q8_0 files (against the model holding the
dequantized values). llama.cpp's ALiBi slopes for max_alibi_bias 8 equal BLOOM's and MPT's. Damaged files and what
PE Explorer does not read give one-line InputErrors.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.bloom import alibi_bias, alibi_slopes
from explorer.backend.models.hf_folder import open_model
from explorer.backend.models.mpt import mpt_alibi_slopes
from explorer.params import Params
from tests import gguf_fixtures as fx
from tests import gguf_mpt_writer as mw
from tests.gguf_bloom_writer import set_key
from tests.test_models_mpt import _reference, _softmax

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
TEXT = "the cat sat on the mat, 中国!"


def close(ours, ref, tol=1e-5):
    np.testing.assert_allclose(ours, ref, rtol=tol, atol=tol)


@pytest.fixture(scope="module", params=[(4, "F16", None), (6, "F16", None), (12, "F16", 0.8), (4, "Q8_0", None)],
                ids=lambda p: f"{p[0]}h-{p[1]}-clip{p[2]}")
def written(request, tmp_path_factory):
    heads, qtype, clip = request.param
    folder = tmp_path_factory.mktemp(f"mpt{heads}-{qtype}")
    torch_model, tokenizer = mw.tiny_mpt(folder / "hf", heads, clip_qkv=clip)
    path = folder / "m.gguf"
    stored = mw.write_mpt_gguf(path, torch_model, tokenizer, folder / "hf", qtype)
    model, hf = open_model(str(path)), open_model(folder / "hf")
    yield qtype, torch_model, model, hf, stored
    model.close()
    hf.close()


def test_config_is_the_folders(written):
    _, torch_model, model, hf, _ = written
    c, ref = model.config, hf.config
    assert (c.family, c.position, c.rope_scaling, c.model_type, c.attention_refusal) == ("mpt", "alibi", None, "mpt",
                                                                                         None)
    for field in ("d_model", "n_layers", "n_heads", "n_kv_heads", "head_dim", "vocab_size", "max_positions",
                  "norm_eps", "qk_bias", "pre_norm", "word_embed_proj_dim", "qkv_clip", "score_scalar"):
        assert getattr(c, field) == pytest.approx(getattr(ref, field)), field
    assert c.n_heads == torch_model.config.n_heads and c.max_positions == 40


def test_every_tensor_reads_as_the_folder_has_it(written):
    """Names and shapes equal the folder's; F16 values exactly (Wqkv as stored: no reorder)."""
    qtype, _, model, hf, stored = written
    ours, theirs = model.tensors, hf.tensors
    fx.same_tensors(ours, theirs, qtype == "F16")
    np.testing.assert_array_equal(ours.read("blocks.1.attn.Wqkv.weight"), stored["blk.1.attn_qkv.weight"])
    np.testing.assert_array_equal(ours.rows("blocks.1.attn.Wqkv.weight", [0, 9, 95, 9]),
                                  stored["blk.1.attn_qkv.weight"][[0, 9, 95, 9]])


def test_x_q_k_and_attention_equal_transformers(written):
    qtype, torch_model, model, hf, stored = written
    reference = torch_model if qtype == "F16" else mw.dequantized_model(torch_model, stored)
    ids = model.tokenize(TEXT).ids
    ref = _reference(reference, ids)
    close(model.input_x(ids), ref["x"])
    assert model.positions(len(ids)) is None
    qk = model.layer0_qk(ids)
    close(qk.q, ref["q"])
    close(qk.k, ref["k"])
    assert np.array_equal(qk.q_rot, qk.q) and np.array_equal(qk.slopes, mpt_alibi_slopes(model.config.n_heads))
    np.testing.assert_array_equal(qk.logits, qk.logits_plain + alibi_bias(qk.slopes, len(ids)))
    close(_softmax(qk.logits), ref["attention"])
    if torch_model.config.attn_config.clip_qkv:                 # the clamp bites: some of q or k sit on it
        assert np.isclose(np.abs(np.concatenate([qk.q, qk.k])).max(), 0.8)
    if qtype == "F16":                                           # the folder's own model
        close(qk.logits, hf.layer0_qk(ids).logits)
        close(model.input_x(ids), hf.input_x(ids))


def test_tokenizer_ids_equal_the_original(written):
    _, _, model, hf, _ = written
    from transformers import AutoTokenizer

    original = AutoTokenizer.from_pretrained(hf.path)
    for text in ["the cat sat on the mat", "Hello World! The cat's token-izer.", "中国人是 (12) 30?",
                 "unaffable cafés, xyzzy ωμέγα 🙂", "  spaces\tand\nnew lines  "]:
        assert model.tokenize(text).ids.tolist() == original(text)["input_ids"], text


@pytest.mark.parametrize("heads", range(1, 65))
def test_llama_cpp_alibi_slopes_with_max_bias_8_are_mpts(heads):
    """ggml's soft_max slopes for max_bias 8 (ops.cpp: m0^(h + 1), then m1's odd powers) equal bloom.alibi_slopes and,
    value for value, MPT's (made otherwise: within float32 rounding)."""
    log2 = 1 << int(np.floor(np.log2(heads)))
    h = np.arange(heads)
    exact = np.where(h < log2, 2.0 ** (-8.0 / log2 * (h + 1)), 2.0 ** (-4.0 / log2 * (2 * (h - log2) + 1)))
    np.testing.assert_allclose(alibi_slopes(heads), exact, rtol=1e-6, atol=0)
    np.testing.assert_allclose(mpt_alibi_slopes(heads), exact, rtol=1e-6, atol=0)


def test_the_files_epsilon_is_llama_cpps(tmp_path):
    """The converter writes layer_norm_epsilon 1e-5 whatever the config says; llama.cpp runs the file's."""
    torch_model, tokenizer = mw.tiny_mpt(tmp_path / "hf", eps=0.01)
    mw.write_mpt_gguf(tmp_path / "m.gguf", torch_model, tokenizer, tmp_path / "hf")
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert model.config.norm_eps == pytest.approx(1e-5)


def test_a_zero_clamp_is_no_clamp(tmp_path):
    """llama.cpp clamps only when clamp_kqv > 0 (older converters wrote 0.0 for none)."""
    path = _bad(tmp_path, edit=set_key("mpt.attention.clamp_kqv", 0.0, "float32"))
    with open_model(str(path)) as model:
        assert model.config.qkv_clip is None


def test_the_views_and_export_read_the_gguf_file(written, tmp_path):
    """Tokens (X = E), Real RoPE (the ALiBi bias, MPT's slopes) and `export qk` on the .gguf."""
    from explorer.commands.cli import main
    from explorer.compute import qk as qk_view
    from explorer.compute.model_tokens import for_model

    _, _, model, _, _ = written
    path, slopes = str(model.path), mpt_alibi_slopes(model.config.n_heads)
    params = Params(model=path, embedding_source="model", text=TEXT)
    r = for_model(params)
    assert (r.error, r.position, r.family) == ("", "alibi", "mpt")
    np.testing.assert_array_equal(r.x, model.input_x(model.tokenize(TEXT).ids))
    view = qk_view.qk_view(params, qk_view.QkState(head=1))
    want = model.layer0_qk(model.tokenize(TEXT).ids)
    assert (view.error, view.alibi, view.head, view.n_heads) == ("", True, 1, model.config.n_heads)
    np.testing.assert_array_equal(view.slopes, slopes)
    np.testing.assert_array_equal(view.logits, want.logits)
    assert main(["export", "qk", "--model", path, "--text", TEXT, "-o", str(tmp_path / "f.npz")]) == 0
    f = np.load(tmp_path / "f.npz")
    np.testing.assert_array_equal(f["alibi_slopes"], slopes)
    np.testing.assert_array_equal(f["logits"], want.logits)


def _bad(tmp_path, **kw):
    torch_model, tokenizer = mw.tiny_mpt(tmp_path / "hf")
    path = tmp_path / "bad.gguf"
    mw.write_mpt_gguf(path, torch_model, tokenizer, tmp_path / "hf", **kw)
    return path


NO_ALIBI = ("(0 when missing); llama.cpp's mpt adds its ALiBi bias only for a positive one, and without it nothing "
            "tells positions apart: not shown")


@pytest.mark.parametrize("kw,match", [
    ({"skip": ("blk.0.attn_qkv.weight",)}, "tensor blk.0.attn_qkv.weight is missing"),
    ({"skip": ("blk.1.attn_qkv.weight",)}, "tensor blk.1.attn_qkv.weight is missing"),
    ({"skip": ("blk.0.attn_norm.weight",)}, "tensor blk.0.attn_norm.weight is missing"),
    ({"replace": {"blk.0.attn_qkv.weight": np.zeros((64, 32))}},
     "tensor blk.0.attn_qkv.weight has shape [32, 64], expected [32, 96]"),
    ({"replace": {"blk.1.attn_qkv.weight": np.zeros((96, 16))}},
     "tensor blk.1.attn_qkv.weight has shape [16, 96], expected [32, 96]"),
    ({"replace": {"token_embd.weight": np.zeros((20, 48))}}, "tensor token_embd.weight is missing or not (rows, 32)"),
    ({"edit": set_key("mpt.attention.head_count", 5)}, "the width 32 is not a multiple of the 5 attention heads"),
    ({"edit": set_key("mpt.attention.head_count", 0)},
     "metadata mpt.attention.head_count is 0; it must be an integer from 1 to 2^31"),
    ({"edit": set_key("mpt.attention.head_count", 1 << 20)},
     "metadata mpt.attention.head_count is 1048576; at most 65,536 heads are read"),
    ({"edit": set_key("mpt.attention.head_count_kv", 2)},
     "metadata mpt.attention.head_count_kv is 2; MPT has one key/value head per head (4)"),
    ({"edit": set_key("mpt.attention.max_alibi_bias", 0.0, "float32")},
     "metadata mpt.attention.max_alibi_bias is 0.0 " + NO_ALIBI),
    ({"edit": set_key("mpt.attention.max_alibi_bias", -8.0, "float32")},
     "metadata mpt.attention.max_alibi_bias is -8.0 " + NO_ALIBI),
    ({"edit": set_key("mpt.attention.max_alibi_bias", float("nan"), "float32")},
     "metadata mpt.attention.max_alibi_bias is nan " + NO_ALIBI),
    ({"edit": fx.without_keys("mpt.attention.max_alibi_bias")},
     "metadata mpt.attention.max_alibi_bias is 0.0 " + NO_ALIBI),
    ({"edit": set_key("mpt.attention.max_alibi_bias", 16.0, "float32")},
     "metadata mpt.attention.max_alibi_bias is 16.0; PE Explorer shows MPT's ALiBi slopes for 8 only (transformers' "
     "MPT makes them with 8, llama.cpp with the file's)"),
    ({"edit": set_key("mpt.attention.clamp_kqv", -1.0, "float32")},
     "metadata mpt.attention.clamp_kqv is -1.0; it must be a number >= 0 (0: no clamp)"),
    ({"edit": set_key("mpt.attention.clamp_kqv", float("nan"), "float32")},
     "metadata mpt.attention.clamp_kqv is nan; it must be a number >= 0 (0: no clamp)"),
    ({"replace": {"position_embd.weight": np.zeros((40, 32))}}, "tensor position_embd.weight is a learned position "
     "table, which llama.cpp's mpt adds to X; PE Explorer reads MPT with ALiBi alone"),
    ({"replace": {"blk.0.attn_q_norm.weight": np.ones(32)}}, "tensor blk.0.attn_q_norm.weight is a LayerNorm "
     "llama.cpp's mpt applies to q and k (qk_ln), which PE Explorer does not"),
    ({"replace": {"blk.1.attn_k_norm.bias": np.ones(32)}}, "tensor blk.1.attn_k_norm.bias is a LayerNorm "
     "llama.cpp's mpt applies to q and k (qk_ln), which PE Explorer does not"),
    ({"replace": {"blk.0.attn_qkv.bias": np.zeros(96)}}, "tensor blk.0.attn_qkv.bias is a bias llama.cpp's mpt adds "
     "before q and k, which PE Explorer's MPT (as transformers') does not read"),
    ({"replace": {"blk.0.attn_norm.bias": np.zeros(32)}}, "tensor blk.0.attn_norm.bias is a bias llama.cpp's mpt "
     "adds before q and k, which PE Explorer's MPT (as transformers') does not read"),
    ({"edit": set_key("mpt.block_count", (1 << 31) - 1)}, "tensor blk.2.attn_qkv.weight is missing"),
    ({"edit": set_key("mpt.block_count", 1)}, "tensor blk.1.attn_norm.weight is not one llama.cpp's mpt loads (its "
     "loader refuses the file)"),
    ({"replace": {"rope_freqs.weight": np.ones(4)}}, "tensor rope_freqs.weight is not one llama.cpp's mpt loads (its "
     "loader refuses the file)"),
    ({"edit": fx.without_keys("mpt.attention.layer_norm_epsilon")},
     "metadata mpt.attention.layer_norm_epsilon is missing"),
    ({"edit": fx.without_keys("mpt.context_length")}, "metadata mpt.context_length is missing"),
])
def test_damaged_files_are_refused_in_one_line(tmp_path, kw, match):
    fx.opened_refused(_bad(tmp_path, **kw), match)


def test_awq_activation_scales_are_loaded_by_llama_cpp_and_not_read(tmp_path):
    path = _bad(tmp_path, edit=lambda w, stored: w.add_tensor("blk.0.ffn_act.scales", np.ones(128, np.float32)))
    with open_model(str(path)) as model:
        assert "blocks.0.ffn.act.scales" not in model.tensors.names()


@pytest.mark.parametrize("fraction", [0.3, 0.9, 0.999])
def test_a_truncated_file_is_refused_in_one_line(tmp_path, fraction):
    fx.opened_refused(fx.truncated(_bad(tmp_path), fraction))
