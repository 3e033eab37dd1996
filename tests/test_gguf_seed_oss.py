"""GGUF files of Seed-OSS (llama.cpp's `seed_oss`) against the transformers SeedOssForCausalLM they came from.

Each tiny random model is saved with save_pretrained and written as llama.cpp's converter writes it
(conversion/olmo.py's SeedOssModel(TextModel): q/k rows and biases as Hugging Face has them, key_length = head_dim,
post_attention_layernorm as blk.N.post_attention_norm; tests/gguf_arch_writer.py). llama.cpp's seed_oss turns the
whole head with NEOX RoPE (rotate-half): nothing to undo. F16 files hold the float16-rounded model exactly; Q8_0
files are checked against the model holding gguf's own dequantization of the stored blocks. Damaged files give
one-line InputErrors, in Chinese too.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError, error_text
from tests import gguf_arch_writer as aw
from tests import gguf_fixtures as fx
from tests import models_helpers as mh
from tests.test_gguf_smollm3 import (_layer_inputs, _reshaped, _with, _without, close, damaged,
                                     refused_in_one_line, same_as_folder)

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2]
SETTINGS = dict(mh.FAMILIES["seed_oss"], num_hidden_layers=3)      # head_dim 12, not 32 / 4


def _write(folder, qtype="F16", seed=29, **settings):
    return aw.write_saved(folder, "seed_oss", "seed_oss", qtype, seed, dict(SETTINGS, **settings))


written = aw.written_fixture("seed_oss", _write, arch="seed_oss")


def test_the_file_reads_as_seed_oss(written):
    """model type seed_oss (Llama's family), the folder's heads, head_dim (key_length), base, biases, and the
    tensors' names: post_attention_norm is the layer's post_attention_layernorm."""
    _, model, torch_model, folder = written
    cfg, hf = model.config, torch_model.config
    assert (cfg.model_type, cfg.family, cfg.n_layers, cfg.n_heads, cfg.n_kv_heads) == ("seed_oss", "llama", 3, 4, 2)
    assert (cfg.head_dim, cfg.rope_dim, cfg.qk_bias, cfg.rope_interleaved) == (12, 12, True, False)
    assert cfg.rope_base == pytest.approx(hf.rope_parameters["rope_theta"]) and not cfg.rope_pairs_across_head
    names = set(model.tensors.names())
    assert "layers.1.post_attention_layernorm.weight" in names and "layers.0.self_attn.q_proj.bias" in names
    with open_model(str(folder / "hf")) as from_folder:
        assert (from_folder.config.head_dim, from_folder.config.qk_bias) == (cfg.head_dim, cfg.qk_bias)


def test_x_each_layers_qk_and_attention_equal_transformers(written):
    """X, layer 0's rotated q and k and its attention equal SeedOssForCausalLM's own; given each layer's real input,
    every layer's causal softmax equals transformers'; F16: the folder gives the same q and k."""
    held, model, _, _ = written
    mh.assert_layer0_as_transformers(model, held, "seed_oss", IDS)
    qk = model.layer0_qk(IDS)
    assert not np.allclose(qk.q_rot, qk.q)
    inputs, attentions = _layer_inputs(held, IDS)
    for il in (1, 2):
        close(mh.attention_of(model.layer0_qk(inputs[il], layer=il)), attentions[il])
    same_as_folder(written, IDS, qk)


def test_a_permuted_reading_would_differ(written, monkeypatch):
    """The rows as stored are transformers' own (SeedOssModel(TextModel) does not permute, NEOX RoPE): read as a
    llama file's (LlamaModel.permute undone), q after RoPE would not be SeedOssForCausalLM's."""
    from explorer.backend.models import gguf_archs

    held, _, _, folder = written
    ref = mh.capture(held, "seed_oss", IDS)
    monkeypatch.setitem(gguf_archs.ARCHS, "seed_oss", dataclasses.replace(gguf_archs.ARCHS["seed_oss"],
                                                                           permuted_qk=True))
    with open_model(str(folder / "m.gguf")) as model:
        assert not np.allclose(model.layer0_qk(IDS).q_rot, ref["q_rot"], atol=1e-3)


def test_a_checkpoint_without_biases_reads_without(tmp_path):
    _write(tmp_path, attention_bias=False)
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert model.config.qk_bias is False and "layers.0.self_attn.q_proj.bias" not in model.tensors.names()


def test_an_o_proj_bias_is_refused_as_llama_cpp_refuses_it(tmp_path):
    """attention_out_bias true: the converter writes attn_output.bias, which llama.cpp's seed_oss never creates (its
    loader refuses the file); so is PE Explorer's reading, in one line."""
    _write(tmp_path, attention_out_bias=True)
    with pytest.raises(InputError, match=r"tensor blk\.0\.attn_output\.bias is not one llama\.cpp's seed_oss loads"
                       ) as info:
        open_model(str(tmp_path / "m.gguf"))
    assert "\n" not in str(info.value)


def _header(tmp_path):
    _write(tmp_path)
    return fx.header_of(tmp_path / "m.gguf")


@pytest.mark.parametrize("fields, tensors, says", [
    ({}, lambda h: _without(h, "blk.2.attn_k.weight"), r"tensor blk\.2\.attn_k\.weight is missing"),
    ({}, lambda h: _reshaped(h, "blk.1.attn_q.weight", (32, 24)),
     r"tensor blk\.1\.attn_q\.weight has shape \[32, 24\], expected \[32, 48\]"),
    ({}, lambda h: _without(h, "blk.2.attn_q.bias"), r"tensor blk\.2\.attn_q\.bias is missing"),
    ({"seed_oss.rope.dimension_count": 6}, None,
     r"seed_oss\.rope\.dimension_count is 6; llama\.cpp's seed_oss turns the whole head \(12 channels\)"),
    ({"seed_oss.block_count": 2}, None, r"tensor blk\.2\.\S+ is not one llama\.cpp's seed_oss loads"),
    ({}, lambda h: _with(h, "blk.1.ffn_norm.weight", "blk.1.attn_norm.weight"),
     r"tensor blk\.1\.ffn_norm\.weight is not one llama\.cpp's seed_oss loads"),
    ({"seed_oss.attention.head_count_kv": 3}, None, r"4 attention heads cannot share 3 key/value heads"),
])
def test_damaged_files_are_refused_in_one_line(tmp_path, fields, tensors, says):
    """Missing or misshapen q / k / v or biases in any layer, a partial rotation (the graph asserts n_rot ==
    head_dim), a block count that is not the file's, a tensor llama.cpp's seed_oss does not load: one line naming
    the file, in English and in Chinese."""
    from explorer.backend.models.gguf_config import config_from_metadata

    header = _header(tmp_path)
    bad = damaged(header, fields, tensors)
    refused_in_one_line(lambda: config_from_metadata(bad, "m.gguf"), says)


def test_a_later_layers_bias_without_layer_0s_is_refused(tmp_path):
    from explorer.backend.models.gguf_config import config_from_metadata

    _write(tmp_path, attention_bias=False)
    header = fx.header_of(tmp_path / "m.gguf")
    bad = dataclasses.replace(header, tensors=_with(header, "blk.1.attn_k.bias", "blk.1.attn_norm.weight"))
    with pytest.raises(InputError, match=r"tensor blk\.1\.attn_k\.bias is a bias where layer 0 has none") as info:
        config_from_metadata(bad, "m.gguf")
    assert "\n" not in str(info.value) and "偏置" in error_text(info.value, "zh_CN")
