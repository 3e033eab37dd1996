"""GGUF files of architecture `gptneox` (GPT-NeoX / Pythia) against the transformers GPTNeoXForCausalLM they were
written from.

Each tiny random model (Pythia's quarter of each head turning, half of it, the whole head; parallel residual or not)
is saved as a Hugging Face folder and written as llama.cpp's converter writes it (tests/gguf_gptneox_writer.py: the
per-head query_key_value rows reordered into q; k; v, no freq_base, no head_count_kv). An F16 file holds the
float16-exact weights, so every tensor reads as the folder's (the rows put back head by head); X, layer-0 q / k
after the partial NEOX RoPE and the attention equal transformers' (hooks) for F16 and Q8_0 files (against the model
holding the dequantized values); the views and `export qk` read the file; damaged files give one-line InputErrors,
in English and Chinese.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.params import Params
from tests import gguf_bloom_writer as bw
from tests import gguf_fixtures as fx
from tests import gguf_gptneox_writer as nw
from tests import models_helpers as mh
from tests.test_models_falcon import _softmax

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
TEXT = "the cat sat on the mat, 中国! hello world's token-izer (rope) position"


def close(ours, ref, tol=1e-5):
    np.testing.assert_allclose(ours, ref, rtol=tol, atol=tol)


def _reference(torch_model, ids) -> dict:
    """transformers' X (layer 0's input), the q and k its attention receives after RoPE (spied on
    eager_attention_forward, (heads, n, hd)) and its attention weights."""
    got: dict = {}

    def keep_input(module, args, kwargs) -> None:
        got.setdefault("x", (args[0] if args else kwargs["hidden_states"])[0].numpy().copy())

    hooks = [torch_model.gpt_neox.layers[0].register_forward_pre_hook(keep_input, with_kwargs=True)]
    mh._run_spying_on_attention(torch_model, ids, hooks, got, "transformers.models.gpt_neox.modeling_gpt_neox")
    with torch.no_grad():
        out = torch_model(input_ids=torch.as_tensor(np.asarray(ids)[None, :]), output_attentions=True)
    return {"x": got["x"], "q": got["q_rot"], "k": got["k_rot"], "attention": out.attentions[0][0].numpy()}


# (heads, head_dim, rotary_pct, use_parallel_residual, qtype): Pythia's 0.25, half, the whole head
CASES = [(4, 16, 0.25, True, "F16"), (2, 32, 0.5, False, "F16"), (4, 16, 1.0, True, "F16"),
         (4, 16, 0.25, True, "Q8_0"), (2, 32, 0.5, False, "Q8_0")]


@pytest.fixture(scope="module", params=CASES, ids=lambda p: "-".join(map(str, p)))
def written(request, tmp_path_factory):
    heads, hd, pct, parallel, qtype = request.param
    folder = tmp_path_factory.mktemp(f"neox-{heads}-{pct}-{qtype}")
    torch_model, tokenizer = nw.tiny_gpt_neox(folder / "hf", heads, hd, pct, use_parallel_residual=parallel)
    path = folder / "m.gguf"
    stored = nw.write_gptneox_gguf(path, torch_model, tokenizer, folder / "hf", qtype)
    with open_model(str(path)) as model, open_model(folder / "hf") as hf:
        yield qtype, torch_model, model, hf, stored


def test_config_is_the_folders(written):
    _, torch_model, model, hf, _ = written
    c, ref, tc = model.config, hf.config, torch_model.config
    hd = tc.hidden_size // tc.num_attention_heads
    assert (c.family, c.model_type, c.position, c.rope_interleaved, c.rope_pairs_across_head) == (
        "gpt_neox", "gpt_neox", "rope", False, False)
    assert c.rope_scaling == ref.rope_scaling
    for field in ("d_model", "n_layers", "n_heads", "n_kv_heads", "head_dim", "vocab_size", "max_positions",
                  "norm_eps", "qk_bias", "pre_norm", "rope_base", "rope_dim", "word_embed_proj_dim"):
        assert getattr(c, field) == pytest.approx(getattr(ref, field)), field
    assert (c.rope_dim, c.rope_base, c.n_kv_heads, c.qk_bias) == (
        int(hd * tc.rope_parameters["partial_rotary_factor"]), 10000.0, c.n_heads, True)
    inv_freq, factor = model.rope_inv_freq()
    np.testing.assert_allclose(inv_freq, torch_model.gpt_neox.rotary_emb.inv_freq.numpy(), rtol=1e-6)
    assert factor == 1.0


def test_every_tensor_reads_as_the_folder_has_it(written):
    """Names and shapes equal the folder's (embed_out for output); F16 values exactly, the converter's q; k; v rows
    put back head by head, read whole or by rows."""
    qtype, torch_model, model, hf, stored = written
    ours, theirs = model.tensors, hf.tensors
    fx.same_tensors(ours, theirs, qtype == "F16")
    assert "embed_out.weight" in ours.names()
    heads, qkv = model.config.n_heads, "layers.1.attention.query_key_value."
    for kind in ("weight", "bias"):
        raw = stored[f"blk.1.attn_qkv.{kind}"]
        back = raw.reshape(3, heads, -1, *raw.shape[1:]).swapaxes(0, 1).reshape(raw.shape)
        np.testing.assert_array_equal(ours.read(qkv + kind), back)
        assert not np.array_equal(back, raw)                    # (the reorder is not a no-op)
    back = ours.read(qkv + "weight")
    np.testing.assert_array_equal(ours.rows(qkv + "weight", [0, 9, len(back) - 1, 9]), back[[0, 9, len(back) - 1, 9]])


def test_x_q_k_after_rope_and_attention_equal_transformers(written):
    qtype, torch_model, model, hf, stored = written
    reference = torch_model if qtype == "F16" else nw.dequantized_model(torch_model, stored)
    ids = model.tokenize(TEXT).ids
    ref = _reference(reference, ids)
    close(model.input_x(ids), ref["x"], 1e-6)
    assert model.positions(len(ids)) is None
    qk = model.layer0_qk(ids)
    close(qk.q_rot, ref["q"])
    close(qk.k_rot, ref["k"])
    rot, hd = model.config.rope_dim, model.config.head_dim
    assert qk.slopes is None and not np.allclose(qk.q_rot[:, 1:, :rot], qk.q[:, 1:, :rot], atol=1e-3)
    np.testing.assert_array_equal(qk.q_rot[..., rot:], qk.q[..., rot:])          # (channels past rot: unturned)
    assert rot < hd or model.config.rope_scaling.partial_rotary_factor == 1.0
    close(_softmax(qk.logits), ref["attention"])
    if qtype == "F16":                                                           # the folder's own model
        want = hf.layer0_qk(ids)
        close(qk.logits, want.logits)
        close(qk.q_rot, want.q_rot)
        close(model.input_x(ids), hf.input_x(ids), 0)


def test_a_files_rope_base_is_read(tmp_path):
    """gptneox.rope.freq_base (which the converter does not write) is llama.cpp's base: a model of base 500."""
    torch_model, tokenizer = nw.tiny_gpt_neox(tmp_path / "hf", rotary_emb_base=500)
    path = tmp_path / "m.gguf"
    nw.write_gptneox_gguf(path, torch_model, tokenizer, tmp_path / "hf",
                          edit=bw.set_key("gptneox.rope.freq_base", 500.0, "float32"))
    with open_model(str(path)) as model:
        assert model.config.rope_base == 500.0
        ids = model.tokenize(TEXT).ids
        ref, qk = _reference(torch_model, ids), model.layer0_qk(ids)
        close(qk.q_rot, ref["q"])
        close(_softmax(qk.logits), ref["attention"])


def test_without_a_base_the_file_turns_at_10000_as_llama_cpp(tmp_path):
    """A checkpoint of rotary_emb_base 500 converted: the file has no base, so llama.cpp (and the reader) turn q and
    k at 10,000, not as the folder does."""
    torch_model, tokenizer = nw.tiny_gpt_neox(tmp_path / "hf", rotary_emb_base=500)
    nw.write_gptneox_gguf(tmp_path / "m.gguf", torch_model, tokenizer, tmp_path / "hf")
    with open_model(str(tmp_path / "m.gguf")) as model, open_model(tmp_path / "hf") as hf:
        assert (model.config.rope_base, hf.config.rope_base) == (10000.0, 500.0)
        ids = model.tokenize(TEXT).ids
        assert not np.allclose(model.layer0_qk(ids).q_rot, hf.layer0_qk(ids).q_rot, atol=1e-3)


def test_tokenizer_ids_equal_the_original(written):
    _, _, model, hf, _ = written
    from transformers import AutoTokenizer

    original = AutoTokenizer.from_pretrained(hf.path)
    for text in ["the cat sat on the mat", "Hello World! The cat's token-izer.", "中国人是 (12) ...?",
                 "  spaces\tand\nnew lines  "]:
        assert model.tokenize(text).ids.tolist() == original(text)["input_ids"], text


def test_the_views_and_export_read_the_gguf_file(written, tmp_path):
    """Tokens (X = token_embd[ids]), Real RoPE (q and k after RoPE) and `export qk` on the .gguf."""
    from explorer.commands.cli import main
    from explorer.compute import qk as qk_view
    from explorer.compute.model_tokens import for_model

    _, _, model, _, _ = written
    path = str(model.path)
    params = Params(model=path, embedding_source="model", text=TEXT)
    r = for_model(params)
    assert (r.error, r.position, r.family) == ("", "rope", "gpt_neox")
    want = model.layer0_qk(model.tokenize(TEXT).ids)
    np.testing.assert_array_equal(r.x, model.input_x(model.tokenize(TEXT).ids))
    view = qk_view.qk_view(params, qk_view.QkState(head=1))
    assert (view.error, view.alibi, view.head, view.n_heads) == ("", False, 1, model.config.n_heads)
    for got, ref in ((view.q, want.q_rot), (view.k, want.k_rot), (view.logits, want.logits)):
        close(got, ref, 1e-6)
    assert main(["export", "qk", "--model", path, "--text", TEXT, "-o", str(tmp_path / "f.npz")]) == 0
    close(np.load(tmp_path / "f.npz")["logits"], want.logits, 1e-6)


def _bad(tmp_path, **kw):
    torch_model, tokenizer = nw.tiny_gpt_neox(tmp_path / "hf")
    path = tmp_path / "bad.gguf"
    nw.write_gptneox_gguf(path, torch_model, tokenizer, tmp_path / "hf", **kw)
    return path


NOT_LOADED = "(its loader refuses the file)"


@pytest.mark.parametrize("kw,match", [
    ({"skip": ("blk.0.attn_qkv.weight",)}, "tensor blk.0.attn_qkv.weight is missing"),
    ({"skip": ("blk.1.attn_qkv.bias",)}, "tensor blk.1.attn_qkv.bias is missing"),
    ({"replace": {"blk.1.attn_qkv.weight": np.zeros((160, 64))}},
     "tensor blk.1.attn_qkv.weight has shape [64, 160], expected [64, 192]"),
    ({"replace": {"blk.0.attn_qkv.bias": np.zeros(190)}}, "tensor blk.0.attn_qkv.bias has shape [190], expected [192]"),
    ({"skip": ("blk.0.attn_norm.bias",)}, "tensor blk.0.attn_norm.bias is missing"),
    ({"skip": ("output.weight",)}, "tensor output.weight is missing"),
    ({"skip": ("output_norm.bias",)}, "tensor output_norm.bias is missing"),
    ({"skip": ("blk.1.ffn_down.bias",)}, "tensor blk.1.ffn_down.bias is missing"),
    ({"extra": {"rope_freqs.weight": np.ones(2)}},
     f"tensor rope_freqs.weight is not one llama.cpp's gptneox loads {NOT_LOADED}"),
    ({"extra": {"blk.0.attn_q.weight": np.ones((64, 64))}},
     f"tensor blk.0.attn_q.weight is not one llama.cpp's gptneox loads {NOT_LOADED}"),
    ({"replace": {"token_embd.weight": np.zeros((20, 48))}},
     "tensor token_embd.weight is missing or not (rows, 64)"),
    ({"edit": bw.set_key("gptneox.attention.head_count", 3)},
     "the width 64 is not a multiple of the 3 attention heads"),
    ({"edit": bw.set_key("gptneox.attention.head_count_kv", 2)},
     "metadata gptneox.attention.head_count_kv is 2; GPT-NeoX has one key/value head per head (4)"),
    ({"edit": bw.set_key("gptneox.attention.head_count", 1 << 20)},
     "metadata gptneox.attention.head_count is 1048576; at most 65,536 heads are read"),
    ({"edit": bw.set_key("gptneox.attention.key_length", 8)},
     "metadata gptneox.attention.key_length is 8; a GPT-NeoX head has embedding_length / head_count (16) channels"),
    ({"edit": bw.set_key("gptneox.rope.dimension_count", 5)}, "RoPE dimension 5 must be even and <= 16"),
    ({"edit": bw.set_key("gptneox.rope.dimension_count", 18)}, "RoPE dimension 18 must be even and <= 16"),
    ({"edit": bw.set_key("gptneox.rope.freq_base", 1.0, "float32")},
     "metadata gptneox.rope.freq_base is 1.0; RoPE's base must be > 1"),
    ({"edit": bw.set_key("gptneox.rope.scaling.type", "yarn", "string")},
     "PE Explorer reads a gptneox file without RoPE scaling (llama.cpp's converter writes none)"),
    ({"edit": bw.set_key("gptneox.rope.scaling.factor", 4.0, "float32")},
     "PE Explorer reads a gptneox file without RoPE scaling (llama.cpp's converter writes none)"),
    ({"edit": fx.without_keys("gptneox.use_parallel_residual")}, "metadata gptneox.use_parallel_residual is missing"),
    ({"edit": bw.set_key("gptneox.use_parallel_residual", 1)},
     "metadata gptneox.use_parallel_residual must be a boolean, not 1"),
    ({"edit": fx.without_keys("gptneox.attention.layer_norm_epsilon")},
     "metadata gptneox.attention.layer_norm_epsilon is missing"),
    ({"edit": bw.set_key("gptneox.block_count", (1 << 31) - 1)}, "tensor blk.2.attn_norm.weight is missing"),
    ({"edit": bw.set_key("gptneox.block_count", 1)}, NOT_LOADED),
])
def test_damaged_files_are_refused_in_one_line(tmp_path, kw, match):
    fx.opened_refused(_bad(tmp_path, **kw), match)


def test_a_layer_past_block_count_is_refused(tmp_path):
    exc = fx.opened_refused(_bad(tmp_path, edit=bw.set_key("gptneox.block_count", 1)), NOT_LOADED)
    assert "tensor blk.1." in str(exc) and "llama.cpp's gptneox" in str(exc)


@pytest.mark.parametrize("fraction", [0.3, 0.9, 0.999])
def test_a_truncated_file_is_refused_in_one_line(tmp_path, fraction):
    fx.opened_refused(fx.truncated(_bad(tmp_path), fraction))


def test_a_pythia_14m_shaped_file_reads_as_its_published_config(tmp_path):
    """EleutherAI/pythia-14m's config.json (tests/test_models_gpt_neox.PYTHIA_14M) as GPTNeoXModel writes it (rope
    dimension_count int(0.25 x 32) = 8, no base, no kv count), its tensors' shapes (zeros): the config read from the
    metadata is the folder's, field by field."""
    from explorer.backend.models.config import model_config
    from explorer.backend.models.gguf_config import config_from_metadata
    from explorer.backend.models.gguf_gptneox import check_gptneox_layers
    from tests.test_models_gpt_neox import PYTHIA_14M

    p, path = PYTHIA_14M, tmp_path / "pythia-14m.gguf"
    d, ff, vocab, layers = p["hidden_size"], p["intermediate_size"], p["vocab_size"], p["num_hidden_layers"]
    w = gguf.GGUFWriter(str(path), "gptneox")
    w.add_context_length(p["max_position_embeddings"])
    w.add_embedding_length(d)
    w.add_block_count(layers)
    w.add_feed_forward_length(ff)
    w.add_rope_dimension_count(int(p["rotary_pct"] * (d // p["num_attention_heads"])))
    w.add_head_count(p["num_attention_heads"])
    w.add_parallel_residual(p["use_parallel_residual"])
    w.add_layer_norm_eps(p["layer_norm_eps"])
    shapes = {"token_embd.weight": (vocab, d), "output.weight": (vocab, d), "output_norm.weight": (d,),
              "output_norm.bias": (d,)}
    for il in range(layers):
        shapes.update({f"blk.{il}.{n}.{k}": (d,) for n in ("attn_norm", "ffn_norm") for k in ("weight", "bias")})
        shapes.update({f"blk.{il}.attn_qkv.weight": (3 * d, d), f"blk.{il}.attn_qkv.bias": (3 * d,),
                       f"blk.{il}.attn_output.weight": (d, d), f"blk.{il}.attn_output.bias": (d,),
                       f"blk.{il}.ffn_up.weight": (ff, d), f"blk.{il}.ffn_up.bias": (ff,),
                       f"blk.{il}.ffn_down.weight": (d, ff), f"blk.{il}.ffn_down.bias": (d,)})
    for name, shape in shapes.items():
        w.add_tensor(name, np.zeros(shape, np.float16 if len(shape) == 2 else np.float32))
    fx.finish_file(w, {})
    header = fx.header_of(path)
    config = config_from_metadata(header, str(path))
    check_gptneox_layers(header, config, str(path))
    ours, theirs = model_config(config, "pythia-14m", runtime="llama.cpp"), model_config(PYTHIA_14M, "pythia-14m")
    for field in ("family", "d_model", "n_layers", "n_heads", "n_kv_heads", "head_dim", "vocab_size", "max_positions",
                  "norm_eps", "qk_bias", "pre_norm", "rope_base", "rope_dim", "rope_scaling", "rope_interleaved",
                  "partial_rotary_factor"):
        assert getattr(ours, field) == pytest.approx(getattr(theirs, field)), field
    assert (ours.rope_dim, ours.head_dim, ours.rope_base) == (8, 32, 10000.0)
