"""GGUF files of Apertus (llama.cpp's `apertus`) against the transformers ApertusForCausalLM they came from.

Each tiny random model is saved with save_pretrained and written as conversion/apertus.py's ApertusModel(LlamaModel)
writes it (tests/gguf_arch_writer.py: undo_permute False, so q/k rows as Hugging Face has them; the input norm
attention_layernorm as attn_norm; the xIELU parameters as xielu.* keys; Apertus-8B's Llama 3 RoPE as
rope_freqs.weight). llama.cpp's apertus normalises each head of q and k, then turns them with NEOX RoPE (rotate-half)
divided by the rope factors: nothing to undo. F16 files hold the float16-rounded model exactly; Q8_0 files are
checked against the model holding gguf's own dequantization of the stored blocks. Damaged files give one-line
InputErrors, in Chinese too.
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
# Apertus-8B's published RoPE (config.json rope_scaling: llama3, x8 from 8,192, factors 1 / 4, base 1.2e7): with
# 12-channel heads, pairs 3 to 5 (wavelengths over 8,192) turn 8 times slower, pairs 0 to 2 not at all
APERTUS_8B_ROPE = {"rope_type": "llama3", "rope_theta": 12000000.0, "factor": 8.0, "low_freq_factor": 1.0,
                   "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}
SETTINGS = dict(mh.FAMILIES["apertus"], num_hidden_layers=3, rope_parameters=APERTUS_8B_ROPE,
                max_position_embeddings=65536)


def _write(folder, qtype="F16", seed=31, **settings):
    return aw.write_saved(folder, "apertus", "apertus", qtype, seed, dict(SETTINGS, **settings))


written = aw.written_fixture("apertus", _write, arch="apertus")


def test_the_file_reads_as_apertus(written):
    """model type apertus, the folder's heads, head_dim, base and Llama 3 RoPE (from rope_freqs), per-head q/k
    norms, and the tensors' names: attn_norm is the layer's attention_layernorm."""
    _, model, torch_model, folder = written
    cfg = model.config
    assert (cfg.model_type, cfg.family, cfg.n_layers, cfg.n_heads, cfg.n_kv_heads) == ("apertus", "apertus", 3, 4, 2)
    assert (cfg.head_dim, cfg.rope_dim, cfg.qk_norm, cfg.qk_bias, cfg.rope_interleaved) == (12, 12, True, False, False)
    assert cfg.rope_base == pytest.approx(12000000.0)
    assert (cfg.rope_scaling.rope_type, cfg.rope_scaling.factor) == ("llama3", 8.0)
    names = set(model.tensors.names())
    assert {"layers.2.attention_layernorm.weight", "layers.0.self_attn.q_norm.weight"} <= names
    assert not any(".act_fn." in n for n in names)
    with open_model(str(folder / "hf")) as from_folder:
        got = from_folder.config
        assert (got.head_dim, got.rope_base, got.rope_scaling.rope_type) == (cfg.head_dim, cfg.rope_base, "llama3")


def test_x_each_layers_qk_and_attention_equal_transformers(written):
    """X, layer 0's normalised and rotated q and k and its attention equal ApertusForCausalLM's own; given each
    layer's real input, every layer's causal softmax equals transformers'; F16: the folder gives the same q and k."""
    held, model, _, _ = written
    mh.assert_layer0_as_transformers(model, held, "apertus", IDS)
    qk = model.layer0_qk(IDS)
    assert not np.allclose(qk.q_rot, qk.q)
    inputs, attentions = _layer_inputs(held, IDS)
    for il in (1, 2):
        close(mh.attention_of(model.layer0_qk(inputs[il], layer=il)), attentions[il])
    same_as_folder(written, IDS, qk, parts=("q", "k", "q_rot", "k_rot"))


def test_a_permuted_or_unscaled_reading_would_differ(written, monkeypatch):
    """The rows as stored are transformers' own (undo_permute False, NEOX RoPE): read as a llama file's
    (LlamaModel.permute undone), q after RoPE would not be ApertusForCausalLM's; nor without the rope factors."""
    from explorer.backend.models import gguf_archs, gguf_file

    held, _, _, folder = written
    ref = mh.capture(held, "apertus", IDS)
    monkeypatch.setitem(gguf_archs.ARCHS, "apertus", dataclasses.replace(gguf_archs.ARCHS["apertus"],
                                                                          permuted_qk=True))
    with open_model(str(folder / "m.gguf")) as model:
        assert not np.allclose(model.layer0_qk(IDS).q_rot, ref["q_rot"], atol=1e-3)
    monkeypatch.undo()
    monkeypatch.setattr(gguf_file, "apply_rope_freqs", lambda *args: None)
    with open_model(str(folder / "m.gguf")) as model:
        assert getattr(model.config.rope_scaling, "rope_type", "default") == "default"
        assert not np.allclose(model.layer0_qk(IDS).q_rot, ref["q_rot"], atol=1e-4)


def test_a_file_without_rope_freqs_turns_plain_rope(tmp_path):
    """A checkpoint whose RoPE is plain converts without rope_freqs; llama.cpp then turns plain RoPE, not
    ApertusConfig's default Llama 3, and the file reads so: equal to ApertusForCausalLM of that checkpoint."""
    torch_model = _write(tmp_path, rope_parameters={"rope_type": "default", "rope_theta": 700.0})
    assert "rope_freqs.weight" not in fx.header_of(tmp_path / "m.gguf").tensors
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert getattr(model.config.rope_scaling, "rope_type", "default") == "default"
        assert model.config.rope_base == pytest.approx(700.0)
        mh.assert_layer0_as_transformers(model, torch_model, "apertus", IDS)


def _header(tmp_path):
    _write(tmp_path)
    return fx.header_of(tmp_path / "m.gguf")


@pytest.mark.parametrize("fields, tensors, says", [
    (None, lambda h: _without(h, "blk.1.attn_k_norm.weight"), r"tensor blk\.1\.attn_k_norm\.weight is missing"),
    (None, lambda h: _reshaped(h, "blk.2.attn_q_norm.weight", (32,)),
     r"tensor blk\.2\.attn_q_norm\.weight has shape \[32\], expected \[12\]"),
    (None, lambda h: _without(h, "blk.2.attn_norm.weight"), r"tensor blk\.2\.attn_norm\.weight is missing"),
    (None, lambda h: _without(h, "blk.1.attn_v.weight"), r"tensor blk\.1\.attn_v\.weight is missing"),
    (None, lambda h: _without(h, "output.weight"), r"tensor output\.weight is missing"),
    (without_field("xielu.beta"), None, r"metadata xielu\.beta is missing; llama\.cpp's apertus requires it"),
    ({"apertus.rope.dimension_count": 6}, None,
     r"apertus\.rope\.dimension_count is 6; llama\.cpp's apertus turns the whole head \(12 channels\)"),
    ({"apertus.block_count": 2}, None, r"tensor blk\.2\.\S+ is not one llama\.cpp's apertus loads"),
    (None, lambda h: _with(h, "blk.1.ffn_gate.weight", "blk.1.ffn_up.weight"),
     r"tensor blk\.1\.ffn_gate\.weight is not one llama\.cpp's apertus loads"),
    (None, lambda h: _with(h, "blk.1.attn_k.bias", "blk.1.attn_norm.weight"),
     r"tensor blk\.1\.attn_k\.bias is a bias where layer 0 has none"),
])
def test_damaged_files_are_refused_in_one_line(tmp_path, fields, tensors, says):
    """A missing or misshapen q/k norm, input norm or projection in any layer, no output head (llama.cpp's apertus
    requires one), a missing xIELU key, a partial rotation (the graph asserts n_rot == head_dim), a block count that
    is not the file's, a tensor llama.cpp's apertus does not load, a later layer's lone bias: one line naming the
    file, in English and in Chinese."""
    from explorer.backend.models.gguf_config import config_from_metadata

    header = _header(tmp_path)
    bad = damaged(header, fields, tensors)
    refused_in_one_line(lambda: config_from_metadata(bad, "m.gguf"), says)
    assert config_from_metadata(header, "m.gguf")["rope_parameters"]["rope_type"] == "default"
