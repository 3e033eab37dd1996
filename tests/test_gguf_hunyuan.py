"""GGUF files of Hunyuan (llama.cpp's `hunyuan-dense` / `hunyuan-moe`, explorer.backend.models.gguf_hunyuan) against
the transformers HunYuanDenseV1ForCausalLM / HunYuanMoEV1ForCausalLM they came from.

Each tiny random model (a "dynamic" RoPE with alpha 1000 over rope_theta 500: transformers' ntk_alpha base) is saved
with save_pretrained and written as conversion/hunyuan.py writes it (tests/gguf_arch_writer.py: TextModel's tensors
as stored, query_layernorm / key_layernorm as attn_q_norm / attn_k_norm, the alpha folded into rope.freq_base with
dim head_dim (dense) or hidden / heads (MoE), scaling type none). F16 files hold the float16-rounded model exactly;
Q8_0 files are checked against the model holding gguf's own dequantization of the stored blocks. Damaged files give
one-line InputErrors, in Chinese too.
"""

from __future__ import annotations

import dataclasses

import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError, error_text
from tests import gguf_arch_writer as aw
from tests import gguf_fixtures as fx
from tests import models_helpers as mh
from tests.test_gguf_smollm3 import close, refused_in_one_line

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2, 11, 7, 50, 33, 19, 4, 28, 61, 13, 6, 45, 38, 27, 1, 58, 14, 9, 22]
ALPHA = {"rope_type": "dynamic", "rope_theta": 500.0, "alpha": 1000.0, "factor": 1.0}
# dense: head_dim 12, not hidden / heads (8), as HunYuanModel folds with head_dim; MoE: 8 = hidden / heads, the dim
# HunYuanMoEModel folds with (transformers' config.head_dim, which it must equal to agree)
DENSE = dict(mh.SMALL, num_key_value_heads=2, head_dim=12, rope_parameters=ALPHA, tie_word_embeddings=False)
MOE = dict(mh.SMALL, num_key_value_heads=2, head_dim=8, rope_parameters=ALPHA, tie_word_embeddings=False,
           num_experts=4, moe_topk=2)


def _dense(folder, qtype="F16", seed=31, **settings):
    return aw.write_saved(folder, "hunyuan_v1_dense", "hunyuan-dense", qtype, seed, dict(DENSE, **settings))


def _moe(folder, qtype="F16", seed=37, **settings):
    return aw.write_saved(folder, "hunyuan_v1_moe", "hunyuan-moe", qtype, seed, dict(MOE, **settings))


dense = aw.written_fixture("hunyuan-dense", _dense, arch="hunyuan-dense")
moe = aw.written_fixture("hunyuan-moe", _moe, arch="hunyuan-moe")


def test_dense_x_layer0_qk_and_attention_equal_transformers(dense):
    _same_as_transformers(dense, "hunyuan_v1_dense", 12)


def test_moe_x_layer0_qk_and_attention_equal_transformers(moe):
    _same_as_transformers(moe, "hunyuan_v1_moe", 8)


def _same_as_transformers(written, family: str, hd: int) -> None:
    """The file reads as its family (Llama's attention, the folded base as plain RoPE, rows as stored: NEOX), and
    X, layer 0's q and k after RoPE and the per-head norms, and the attention weights equal transformers'; F16: the
    folder opened by PE Explorer gives the same q and k, at the same base."""
    held, model, torch_model, folder = written
    cfg = model.config
    assert (cfg.model_type, cfg.family, cfg.head_dim, cfg.rope_dim, cfg.n_kv_heads) == (family, "llama", hd, hd, 2)
    # (rope.freq_base is a float32 in the file: the folded base, rounded)
    assert cfg.rope_base == pytest.approx(500.0 * 1000.0 ** (hd / (hd - 2)), rel=1e-7)
    assert cfg.rope_scaling.rope_type == "default" and cfg.rope_alpha is None
    mh.assert_layer0_as_transformers(model, held, family, IDS)
    with open_model(str(folder / "hf")) as from_folder:
        assert from_folder.config.rope_base == pytest.approx(cfg.rope_base, rel=1e-7)
        if held is torch_model:
            want, qk = from_folder.layer0_qk(IDS), model.layer0_qk(IDS)
            for ours, ref in ((qk.q_rot, want.q_rot), (qk.k_rot, want.k_rot), (qk.q, want.q)):
                close(ours, ref)


def test_a_file_at_the_unfolded_base_turns_otherwise(tmp_path, monkeypatch):
    """What the test above leans on: a file whose freq_base were rope_theta (the alpha dropped) would not give
    transformers' q after RoPE; the folded one does."""
    monkeypatch.setattr(aw, "add_hunyuan_rope", lambda w, cfg, arch: w.add_rope_freq_base(500.0))
    held = _dense(tmp_path)
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert model.config.rope_base == 500.0
        with pytest.raises(AssertionError):
            mh.assert_layer0_as_transformers(model, held, "hunyuan_v1_dense", IDS)


def _header(tmp_path, **settings):
    _dense(tmp_path, **settings)
    return fx.header_of(tmp_path / "m.gguf")


@pytest.mark.parametrize("fields, drop, says", [
    ({"hunyuan-dense.rope.dimension_count": 4}, (), r"hunyuan-dense\.rope\.dimension_count is 4; llama\.cpp's "
                                                    r"hunyuan-dense turns the whole head \(12 channels\)"),
    ({}, ("blk.0.attn_q_norm.weight",), r"tensor blk\.0\.attn_q_norm\.weight is missing"),
    ({"hunyuan-dense.rope.scaling.attn_factor": 0.5}, (), r"rope\.scaling\.attn_factor is 0\.5: llama\.cpp scales "
                                                          r"cos and sin by it"),
])
def test_damaged_files_are_refused_in_one_line(tmp_path, fields, drop, says):
    """A partial rotation (hunyuan-dense.cpp asserts n_rot == head_dim), a missing q norm, an attn_factor on cos and
    sin: one line naming the file, in English and in Chinese."""
    from explorer.backend.models.gguf_config import config_from_metadata
    from explorer.backend.models.gguf_layer0 import check_rope_layer0

    header = _header(tmp_path)
    bad = dataclasses.replace(header, fields=dict(header.fields, **fields),
                              tensors={k: v for k, v in header.tensors.items() if k not in drop})
    refused_in_one_line(lambda: check_rope_layer0(bad, config_from_metadata(bad, "m.gguf"), "m.gguf"), says)


def test_a_file_with_attention_biases_is_refused(tmp_path):
    from explorer.backend.models.gguf_config import config_from_metadata

    header = _header(tmp_path, attention_bias=True)
    with pytest.raises(InputError, match=r"^m\.gguf: tensor blk\.0\.attn_q\.bias is not read: PE Explorer reads "
                                         r"hunyuan-dense files without attention biases") as info:
        config_from_metadata(header, "m.gguf")
    assert "\n" not in error_text(info.value, "zh_CN")
