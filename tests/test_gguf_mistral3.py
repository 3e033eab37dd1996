"""GGUF files of Ministral 3 (llama.cpp's `mistral3`, explorer.backend.models.gguf_mistral3) against the
transformers Ministral3ForCausalLM they came from.

Each tiny random model (YaRN x4 from L0 = 8, beta_fast 16, llama_4_scaling_beta 0.5: q's scale 1 + 0.5 ln(1 +
floor(m / 8)) shows over 30 tokens) is saved with save_pretrained and written as convert_hf_to_gguf.py's
Mistral3Model.Ministral3Model(LlamaModel) writes it (tests/gguf_arch_writer.py: LlamaModel's keys, q/k rows
permuted, the YaRN keys, yarn_log_multiplier and attention.temperature_scale). F16 files hold the float16-rounded
model exactly; Q8_0 files are checked against the model holding gguf's own dequantization of the stored blocks
(un-permuted). Damaged files give one-line InputErrors, in Chinese too.
"""

from __future__ import annotations

import dataclasses

import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.backend.models.ministral3 import position_scale
from tests import gguf_arch_writer as aw
from tests import gguf_fixtures as fx
from tests import models_helpers as mh
from tests.test_gguf_smollm3 import refused_in_one_line, same_as_folder

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2, 11, 7, 50, 33, 19, 4, 28, 61, 13, 6, 45, 38, 27, 1, 58, 14, 9, 22]
YARN = {"rope_type": "yarn", "rope_theta": 900.0, "factor": 4.0, "original_max_position_embeddings": 8,
        "beta_fast": 16.0, "beta_slow": 1.0, "mscale": 1.0, "mscale_all_dim": 1.0, "llama_4_scaling_beta": 0.5}
SETTINGS = dict(mh.SMALL, num_key_value_heads=2, head_dim=8, rope_parameters=YARN, tie_word_embeddings=False)


def _write(folder, qtype="F16", seed=29, **settings):
    return aw.write_saved(folder, "ministral3", "mistral3", qtype, seed, dict(SETTINGS, **settings))


written = aw.written_fixture("mistral3", _write)


def test_the_file_reads_as_ministral3_with_its_yarn_and_q_scale(written):
    """model type ministral3 (Mistral's family), the folder's heads, YaRN (factor, L0, betas) and q scale."""
    _, model, _, folder = written
    cfg = model.config
    assert (cfg.model_type, cfg.family, cfg.n_layers, cfg.n_heads, cfg.n_kv_heads) == ("ministral3", "mistral", 2, 4, 2)
    assert cfg.rope_base == pytest.approx(900.0) and cfg.rope_dim == cfg.head_dim == 8
    assert cfg.q_scale == (8, 0.5) and cfg.sliding_window is None
    with open_model(str(folder / "hf")) as from_folder:
        want = from_folder.config
        assert (want.q_scale, want.rope_scaling.rope_type) == (cfg.q_scale, cfg.rope_scaling.rope_type) == (
            (8, 0.5), "yarn")
        for key in ("factor", "original_max_position_embeddings", "beta_fast", "beta_slow"):
            assert cfg.rope_parameters[key] == want.rope_parameters[key] == YARN[key]


def test_x_layer0_qk_and_attention_equal_transformers(written):
    """X, layer 0's q and k as Ministral3Attention hands them to its attention (after YaRN and q's scale) and its
    attention weights equal transformers'; F16: the folder opened by PE Explorer gives the same q and k."""
    held, model, _, _ = written
    mh.assert_layer0_as_transformers(model, held, "ministral3", IDS)
    qk = model.layer0_qk(IDS)
    scale = position_scale(len(IDS), 8, 0.5)
    assert (scale[:8] == 1).all() and scale[-1] > 1.3                  # (the scale shows past position 8)
    same_as_folder(written, IDS, qk, ("q_rot", "k_rot", "q"))


def test_a_file_without_a_temperature_scale_has_none(tmp_path, monkeypatch):
    """llama.cpp's mistral3 scales q only where attention.temperature_scale is non-zero: a file without it reads
    as the model with llama_4_scaling_beta 0 (transformers' scale then 1 at every position)."""
    monkeypatch.setattr(gguf.GGUFWriter, "add_attn_temperature_scale", lambda self, value: None)
    _write(tmp_path)
    plain = aw.fp16_random_model("ministral3", tmp_path / "ref", 29, dict(SETTINGS, rope_parameters=dict(
        YARN, llama_4_scaling_beta=0.0)))
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert model.config.q_scale == (8, 0.0)
        mh.assert_layer0_as_transformers(model, plain, "ministral3", IDS)


def _header(tmp_path):
    _write(tmp_path)
    return fx.header_of(tmp_path / "m.gguf")


@pytest.mark.parametrize("fields, says", [
    ({"mistral3.rope.scaling.type": "linear"}, r"rope scaling 'linear' in a mistral3 file: llama\.cpp's mistral3 "
                                               r"then shrinks cos and sin"),
    ({"mistral3.attention.temperature_scale": "0.1"}, r"mistral3\.attention\.temperature_scale is '0\.1'; it must "
                                                      r"be a finite number"),
    ({"mistral3.attention.temperature_scale": float("inf")}, r"temperature_scale is inf; it must be a finite"),
    ({"mistral3.rope.scaling.original_context_length": 0}, r"original_context_length is 0; it must be an integer"),
    ({"mistral3.rope.scaling.yarn_beta_fast": -1.0}, r"yarn_beta_fast is -1\.0; it must be a positive number"),
    ({"mistral3.rope.dimension_count": 4}, r"mistral3\.rope\.dimension_count is 4; llama\.cpp's mistral3 turns the "
                                           r"whole head \(8 channels\)"),
    ({"mistral3.rope.scaling.attn_factor": 0.5}, r"rope\.scaling\.attn_factor is not read"),
])
def test_damaged_files_are_refused_in_one_line(tmp_path, fields, says):
    """Linear scaling, a bad temperature scale, L0 or beta, a partial rotation (mistral3.cpp asserts n_rot ==
    head_dim), a YaRN attn_factor: one line naming the file, in English and in Chinese."""
    from explorer.backend.models.gguf_config import config_from_metadata

    header = _header(tmp_path)
    bad = dataclasses.replace(header, fields=dict(header.fields, **fields))
    refused_in_one_line(lambda: config_from_metadata(bad, "m.gguf"), says)
    assert config_from_metadata(header, "m.gguf")["rope_parameters"]["llama_4_scaling_beta"] == 0.5
