"""GGUF files of OLMo 1 (llama.cpp's `olmo`) against the transformers OlmoForCausalLM they came from.

Each tiny random model (clip_qkv 1.5, which its N(0, 0.5²) weights exceed) is saved with save_pretrained and written
as conversion/olmo.py's OlmoModel(TextModel) writes it (tests/gguf_arch_writer.py: q/k rows permuted with
LlamaModel.permute, attention.layer_norm_epsilon 1e-5, attention.clamp_kqv, no norm tensor). llama.cpp's olmo runs a
LayerNorm without weight before attention, clamps q, k and v to +-clamp_kqv, then turns neighbouring rows (NORM
RoPE), which the reader's un-permutation makes transformers' rotate-half. F16 files hold the float16-rounded model
exactly; Q8_0 files are checked against the model holding gguf's own dequantization (un-permuted). Damaged files give
one-line InputErrors, in Chinese too.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from tests import gguf_arch_writer as aw
from tests import gguf_fixtures as fx
from tests import models_helpers as mh
from tests.test_gguf_smollm3 import (_layer_inputs, _reshaped, _with, _without, close, damaged, without_field,
                                     refused_in_one_line, same_as_folder)

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2]
SETTINGS = dict(mh.FAMILIES["olmo"], num_hidden_layers=3)


def _write(folder, qtype="F16", seed=37, **settings):
    return aw.write_saved(folder, "olmo", "olmo", qtype, seed, dict(SETTINGS, **settings))


written = aw.written_fixture("olmo", _write, arch="olmo")


def test_the_file_reads_as_olmo(written):
    """model type olmo, the folder's heads, base and clamp (clamp_kqv 1.5), a LayerNorm without weight before
    attention (no norm tensor in the file), no biases."""
    _, model, _, folder = written
    cfg = model.config
    assert (cfg.model_type, cfg.family, cfg.n_layers, cfg.n_heads, cfg.n_kv_heads) == ("olmo", "olmo", 3, 4, 2)
    assert (cfg.head_dim, cfg.rope_dim, cfg.qkv_clip, cfg.qk_bias, cfg.pre_norm) == (8, 8, 1.5, False, True)
    assert (cfg.norm_eps, cfg.rope_base) == (1e-5, pytest.approx(750.0))
    assert not any("norm" in n for n in model.tensors.names())
    with open_model(str(folder / "hf")) as from_folder:
        got = from_folder.config
        assert (got.qkv_clip, got.norm_eps, got.rope_base) == (cfg.qkv_clip, cfg.norm_eps, cfg.rope_base)


def test_x_each_layers_qk_and_attention_equal_transformers(written):
    """X, layer 0's clamped and rotated q and k and its attention equal OlmoForCausalLM's own; given each layer's real
    input, every layer's causal softmax equals transformers'; F16: the folder gives the same q and k."""
    held, model, _, _ = written
    mh.assert_layer0_as_transformers(model, held, "olmo", IDS)
    qk = model.layer0_qk(IDS)
    assert not np.allclose(qk.q_rot, qk.q) and np.abs(qk.q).max() == pytest.approx(1.5)    # (the clamp bites)
    inputs, attentions = _layer_inputs(held, IDS)
    for il in (1, 2):
        close(mh.attention_of(model.layer0_qk(inputs[il], layer=il)), attentions[il])
    same_as_folder(written, IDS, qk, parts=("q", "k", "q_rot", "k_rot"))


def test_an_unpermuted_reading_would_differ(written, monkeypatch):
    """OlmoModel permutes q/k rows as LlamaModel does (llama.cpp's NORM RoPE): read as stored, without undoing it,
    q after RoPE would not be OlmoForCausalLM's."""
    from explorer.backend.models import gguf_archs

    held, _, _, folder = written
    ref = mh.capture(held, "olmo", IDS)
    monkeypatch.setitem(gguf_archs.ARCHS, "olmo", dataclasses.replace(gguf_archs.ARCHS["olmo"], permuted_qk=False))
    with open_model(str(folder / "m.gguf")) as model:
        assert not np.allclose(model.layer0_qk(IDS).q_rot, ref["q_rot"], atol=1e-3)


def test_a_checkpoint_without_clip_reads_without_clamp(tmp_path):
    """clip_qkv null: the converter writes no clamp_kqv, llama.cpp clamps nothing (f_clamp_kqv 0), and the file
    reads so: equal to OlmoForCausalLM of that checkpoint, whose projections pass 1.5."""
    torch_model = _write(tmp_path, clip_qkv=None)
    assert "olmo.attention.clamp_kqv" not in fx.header_of(tmp_path / "m.gguf").fields
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert model.config.qkv_clip is None and np.abs(model.layer0_qk(IDS).q).max() > 1.5
        mh.assert_layer0_as_transformers(model, torch_model, "olmo", IDS)


def test_a_tied_checkpoint_converts_without_output(tmp_path):
    """tie_word_embeddings: no output.weight, which llama.cpp's olmo then takes from token_embd (output optional)."""
    torch_model = _write(tmp_path, tie_word_embeddings=True)
    assert "output.weight" not in fx.header_of(tmp_path / "m.gguf").tensors
    with open_model(str(tmp_path / "m.gguf")) as model:
        mh.assert_layer0_as_transformers(model, torch_model, "olmo", IDS)


def _header(tmp_path):
    _write(tmp_path)
    return fx.header_of(tmp_path / "m.gguf")


@pytest.mark.parametrize("fields, tensors, says", [
    (None, lambda h: _without(h, "blk.1.attn_k.weight"), r"tensor blk\.1\.attn_k\.weight is missing"),
    (None, lambda h: _reshaped(h, "blk.2.attn_q.weight", (32, 16)),
     r"tensor blk\.2\.attn_q\.weight has shape \[32, 16\], expected \[32, 32\]"),
    (None, lambda h: _with(h, "blk.0.attn_norm.weight", "token_embd.weight"),
     r"tensor blk\.0\.attn_norm\.weight is not one llama\.cpp's olmo loads"),
    (None, lambda h: _with(h, "output_norm.weight", "token_embd.weight"),
     r"tensor output_norm\.weight is not one llama\.cpp's olmo loads"),
    (None, lambda h: _with(h, "blk.1.attn_q.bias", "token_embd.weight"),
     r"tensor blk\.1\.attn_q\.bias is not one llama\.cpp's olmo loads"),
    (without_field("olmo.attention.layer_norm_epsilon"), None,
     r"metadata olmo\.attention\.layer_norm_epsilon is missing"),
    ({"olmo.attention.layer_norm_epsilon": 1e-6}, None,
     r"layer_norm_epsilon is 1e-06; llama\.cpp's olmo normalises with it, PE Explorer's OLMo with OlmoLayerNorm's"),
    ({"olmo.attention.clamp_kqv": -1.0}, None, r"clamp_kqv is -1\.0; it must be a number >= 0 \(0: no clamp\)"),
    ({"olmo.attention.clamp_kqv": "big"}, None, r"clamp_kqv is 'big'; it must be a number >= 0"),
    ({"olmo.attention.key_length": 16}, None, r"olmo\.attention\.key_length is 16; llama\.cpp's olmo takes "
                                              r"embedding_length / head_count \(32 / 4\) channels a head"),
    ({"olmo.rope.dimension_count": 4}, None,
     r"olmo\.rope\.dimension_count is 4; llama\.cpp's olmo turns the whole head \(8 channels\)"),
    ({"olmo.block_count": 2}, None, r"tensor blk\.2\.\S+ is not one llama\.cpp's olmo loads"),
])
def test_damaged_files_are_refused_in_one_line(tmp_path, fields, tensors, says):
    """Missing or misshapen q / k / v in any layer, a norm or bias tensor llama.cpp's olmo does not load, a missing
    or other LayerNorm eps, a negative or non-number clamp, another head size, a partial rotation (the graph asserts
    n_rot == head_dim), a block count that is not the file's: one line naming the file, in English and Chinese."""
    from explorer.backend.models.gguf_config import config_from_metadata

    header = _header(tmp_path)
    bad = damaged(header, fields, tensors)
    refused_in_one_line(lambda: config_from_metadata(bad, "m.gguf"), says)
    assert config_from_metadata(header, "m.gguf")["clip_qkv"] == 1.5
