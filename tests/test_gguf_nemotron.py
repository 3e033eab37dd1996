"""GGUF files of Nemotron (llama.cpp's `nemotron`) against the transformers NemotronForCausalLM they came from.

Each tiny random model is saved with save_pretrained and written as llama.cpp's conversion/nemotron.py writes it
(tests/gguf_nemotron_writer.py: every *norm.weight + 1, rope.dimension_count = int(partial_rotary_factor x hidden)
// heads, nothing permuted). llama.cpp runs nemotron with NEOX RoPE (rotate-half over the first n_rot channels),
NemotronForCausalLM's own pairing. F16 files hold the float16-rounded model exactly; Q8_0 files are checked against
the model holding gguf's own dequantization of the stored blocks. Damaged files give one-line InputErrors, in
Chinese too.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from tests import gguf_arch_writer as aw
from tests import gguf_fixtures as fx
from tests import gguf_nemotron_writer as nw
from tests import models_helpers as mh
from tests.test_gguf_smollm3 import (_layer_inputs, _reshaped, _with, _without, close, damaged, refused_in_one_line,
                                     same_as_folder, without_field)

gguf = pytest.importorskip("gguf")
tf = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2]
SETTINGS = dict(mh.FAMILIES["nemotron"], num_hidden_layers=3)        # half of each head of 8 turns, q/k/v biases


def _write(folder, qtype="F16", seed=31, edit=None, **settings):
    """folder/hf (the float16-exact model, saved) and folder/m.gguf; (the model the file holds, the folder's)."""
    torch_model = aw.fp16_random_model("nemotron", folder / "hf", seed, dict(SETTINGS, **settings))
    torch_model.save_pretrained(folder / "hf")
    stored = nw.write_nemotron(folder / "m.gguf", torch_model, qtype, edit)
    return (torch_model if qtype == "F16" else nw.held_model(torch_model, stored)), torch_model


@pytest.fixture(scope="module", params=["F16", "Q8_0"])
def written(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp(f"nemotron-{request.param}")
    held, torch_model = _write(folder, request.param)
    with open_model(str(folder / "m.gguf")) as model:
        yield held, model, torch_model, folder


def test_the_file_reads_as_nemotron(written):
    """model type nemotron, the folder's heads, base, eps, biases and half of each head turning; the norm weights
    read as the checkpoint's own (the converter's + 1 taken off), their biases as stored."""
    held, model, torch_model, folder = written
    cfg, hf = model.config, torch_model.config
    assert (cfg.model_type, cfg.family, cfg.n_layers, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim) == (
        "nemotron", "nemotron", 3, 4, 2, 8)
    assert (cfg.rope_dim, cfg.partial_rotary_factor, cfg.qk_bias, cfg.rope_interleaved) == (4, 0.5, True, False)
    assert cfg.rope_base == pytest.approx(hf.rope_parameters["rope_theta"]) and not cfg.rope_pairs_across_head
    assert cfg.norm_eps == pytest.approx(hf.norm_eps) and cfg.norm_1p
    layer = held.model.layers[0].input_layernorm
    close(model.tensors.read("layers.0.input_layernorm.weight"), layer.weight.detach().numpy(), tol=1e-6)
    close(model.tensors.read("layers.0.input_layernorm.bias"), layer.bias.detach().numpy(), tol=0)
    with open_model(str(folder / "hf")) as from_folder:
        assert (from_folder.config.rope_dim, from_folder.config.qk_bias) == (cfg.rope_dim, cfg.qk_bias)


def test_x_each_layers_qk_and_attention_equal_transformers(written):
    """X, layer 0's rotated q and k (channels 4..7 of each head unturned) and its attention equal
    NemotronForCausalLM's own; given each layer's real input, every layer's causal softmax equals transformers';
    F16: the folder gives the same q and k."""
    held, model, _, _ = written
    mh.assert_layer0_as_transformers(model, held, "nemotron", IDS)
    qk = model.layer0_qk(IDS)
    assert np.array_equal(qk.q_rot[..., 4:], qk.q[..., 4:]) and not np.allclose(qk.q_rot[..., :4], qk.q[..., :4])
    inputs, attentions = _layer_inputs(held, IDS)
    for il in (1, 2):
        close(mh.attention_of(model.layer0_qk(inputs[il], layer=il)), attentions[il])
    same_as_folder(written, IDS, qk)


def test_the_norm_shift_is_what_makes_it_equal(written, monkeypatch):
    """Read without taking the converter's + 1 off (as if llama.cpp's file held LayerNorm1P's own weights), X is the
    same but q after the input norm is not NemotronForCausalLM's."""
    from explorer.backend.models import gguf_archs

    held, _, _, folder = written
    ref = mh.capture(held, "nemotron", IDS)
    monkeypatch.setitem(gguf_archs.ARCHS, "nemotron", dataclasses.replace(gguf_archs.ARCHS["nemotron"],
                                                                           norm_shift=0.0))
    with open_model(str(folder / "m.gguf")) as model:
        close(model.input_x(IDS), ref["x"])
        assert not np.allclose(model.layer0_qk(IDS).q_rot, ref["q_rot"], atol=1e-3)


def test_heads_other_than_hidden_over_heads_turn_the_files_channel_count(tmp_path):
    """head_dim 12 in 32 / 4 (as 48 heads of 128 in 4,096): the converter writes int(0.5 x 32) // 4 = 4
    turned channels where transformers turns 6; the file reads as llama.cpp runs it, 4 channels of each head."""
    held, torch_model = _write(tmp_path, head_dim=12)
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert (model.config.head_dim, model.config.rope_dim) == (12, 4)
        qk = model.layer0_qk(IDS)
        assert np.array_equal(qk.q_rot[..., 4:], qk.q[..., 4:])
        ref = mh.capture(held, "nemotron", IDS)
        close(model.input_x(IDS), ref["x"])
        close(qk.q, ref["q"].reshape(len(IDS), 4, 12).transpose(1, 0, 2))
        assert not np.allclose(qk.q_rot, ref["q_rot"], atol=1e-3)       # (transformers turns 6)
    with open_model(str(tmp_path / "hf")) as from_folder:
        assert from_folder.config.rope_dim == 6


@pytest.mark.parametrize("where", ["m.gguf", "hf"])
def test_the_views_and_export_read_the_file_and_the_folder(written, where, tmp_path):
    """Tokens (X = E[ids], nothing added: RoPE), Real RoPE (layer 0's rotated q and logits; the rotary fraction in
    its words) and `export qk`, on the .gguf and on the Hugging Face folder it came from."""
    from explorer.commands.cli import main
    from explorer.compute import qk as qk_view
    from explorer.compute.model_tokens import for_model
    from explorer.params import Params

    _, _, _, folder = written
    path, text = str(folder / where), "the cat sat on the mat" if where == "hf" else "12, 34. 56 (7)"
    with open_model(path) as model:
        ids = model.tokenize(text).ids
        want, x = model.layer0_qk(ids), model.input_x(ids)
    params = Params(model=path, embedding_source="model", text=text)
    r = for_model(params)
    assert (r.error, r.position) == ("", "rope")
    np.testing.assert_array_equal(r.x, x)
    view = qk_view.qk_view(params, qk_view.QkState(head=1))
    assert (view.error, view.head, view.n_heads, view.n_kv_heads) == ("", 1, 4, 2)
    np.testing.assert_array_equal(view.q, want.q_rot)
    np.testing.assert_array_equal(view.logits, want.logits)
    assert main(["export", "qk", "--model", path, "--text", text, "-o", str(tmp_path / "f.npz")]) == 0
    np.testing.assert_array_equal(np.load(tmp_path / "f.npz")["q"], want.q_rot)


def test_a_checkpoint_without_biases_reads_without(tmp_path):
    _write(tmp_path, attention_bias=False)
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert model.config.qk_bias is False and "layers.0.self_attn.q_proj.bias" not in model.tensors.names()


def _header(tmp_path):
    _write(tmp_path)
    return fx.header_of(tmp_path / "m.gguf")


@pytest.mark.parametrize("fields, tensors, says", [
    ({}, lambda h: _without(h, "blk.2.attn_k.weight"), r"tensor blk\.2\.attn_k\.weight is missing"),
    ({}, lambda h: _reshaped(h, "blk.1.attn_q.weight", (32, 24)),
     r"tensor blk\.1\.attn_q\.weight has shape \[32, 24\], expected \[32, 32\]"),
    ({}, lambda h: _without(h, "blk.2.attn_q.bias"), r"tensor blk\.2\.attn_q\.bias is missing"),
    ({}, lambda h: _without(h, "blk.0.attn_norm.bias"), r"tensor blk\.0\.attn_norm\.bias is missing"),
    ({}, lambda h: _without(h, "blk.2.ffn_norm.bias"), r"tensor blk\.2\.ffn_norm\.bias is missing"),
    ({}, lambda h: _without(h, "output_norm.bias"), r"tensor output_norm\.bias is missing"),
    ({}, lambda h: _without(h, "output.weight"), r"tensor output\.weight is missing"),
    ({}, lambda h: _reshaped(h, "blk.0.attn_norm.bias", (16,)),
     r"tensor blk\.0\.attn_norm\.bias has shape \[16\], expected \[32\]"),
    ({}, lambda h: _with(h, "blk.1.ffn_gate.weight", "blk.1.ffn_up.weight"),
     r"tensor blk\.1\.ffn_gate\.weight is not one llama\.cpp's nemotron loads"),
    ({"nemotron.block_count": 2}, None, r"tensor blk\.2\.\S+ is not one llama\.cpp's nemotron loads"),
    (without_field("nemotron.attention.layer_norm_epsilon"), None,
     r"metadata nemotron\.attention\.layer_norm_epsilon is missing"),
    ({"nemotron.rope.dimension_count": 5}, None, r"RoPE dimension 5 must be even and <= 8"),
])
def test_damaged_files_are_refused_in_one_line(tmp_path, fields, tensors, says):
    """What llama.cpp's nemotron loader refuses (a missing q / k / v, norm bias, output norm bias or output, a
    tensor it does not load, a missing LayerNorm eps) and what it cannot turn (an odd rotation): one line naming the
    file, in English and in Chinese."""
    from explorer.backend.models.gguf_config import config_from_metadata
    from explorer.backend.models.gguf_layer0 import check_rope_layer0

    header = _header(tmp_path)
    bad = damaged(header, fields, tensors)
    refused_in_one_line(lambda: check_rope_layer0(bad, config_from_metadata(bad, "m.gguf"), "m.gguf"), says)
