"""GGUF files of IBM Granite (llama.cpp's `granite`) against the transformers GraniteForCausalLM they came from.

Each tiny random model is written as convert_hf_to_gguf.py's GraniteModel writes it (tests/gguf_arch_writer.py:
LlamaModel's permuted q/k, the multipliers as granite.embedding_scale / attention.scale / residual_scale /
logit_scale, each only when non-zero). llama.cpp's granite graph scales the embeddings only by a non-zero
embedding_scale and takes 1 / sqrt(head_dim) for a missing or zero attention scale: a file without the scales
(from a converter that read config.json as plain JSON, or made by hand; today's reads it through AutoConfig
and writes GraniteConfig's defaults of 1.0) turns q·k as Llama does. F16 files hold float16-rounded weights
exactly.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import gguf_arch_writer as aw
from tests import models_helpers as mh

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2]


def _written(tmp_path, hparams=None, **settings):
    torch_model = aw.fp16_random_model("granite", tmp_path / "hf", 17, dict(mh.FAMILIES["granite"], **settings))
    aw.write_family_gguf(tmp_path / "m.gguf", torch_model, "granite", hparams=hparams)
    return torch_model


def test_x_rotated_qk_and_attention_equal_transformers(tmp_path):
    """X = E[ids] x 3.5, q and k after RoPE (q/k rows un-permuted), and the causal softmax of q·k x 0.07
    equal the model's own."""
    torch_model = _written(tmp_path)
    fields = {f.name for f in gguf.GGUFReader(str(tmp_path / "m.gguf")).fields.values()}
    assert {"granite.embedding_scale", "granite.attention.scale"} <= fields
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert (model.config.family, model.config.embed_scale) == ("granite", np.float32(3.5))
        mh.assert_layer0_as_transformers(model, torch_model, "granite", IDS)


def test_a_file_without_the_scales_turns_as_llama_cpp_does(tmp_path):
    """A file without the two scale keys (as a converter that read a config.json without them as plain JSON
    wrote it): llama.cpp scales q·k by 1 / sqrt(head_dim) and the embeddings not at all, which is
    transformers' Granite with attention_multiplier 1 / sqrt(8) (not GraniteConfig's default 1.0)."""
    torch_model = _written(tmp_path, hparams={"logits_scaling": 1.0}, embedding_multiplier=1.0,
                           attention_multiplier=8 ** -0.5)
    fields = {f.name for f in gguf.GGUFReader(str(tmp_path / "m.gguf")).fields.values()}
    assert {name for name in fields if name.endswith("scale")} == {"granite.logit_scale"}
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert model.config.embed_scale == 1.0 and model.config.score_scalar == pytest.approx(8.0)
        mh.assert_layer0_as_transformers(model, torch_model, "granite", IDS)


@pytest.mark.parametrize("key, value, match", [
    ("granite.attention.scale", -0.5, "granite.attention.scale is -0.5; it must be a positive number"),
    ("granite.embedding_scale", "12", "granite.embedding_scale is '12'; it must be a positive number"),
    ("granite.rope.dimension_count", 4, "granite.rope.dimension_count is 4; llama.cpp's granite turns the whole "
                                        "head"),
    # found by a helper's attack: refused in config.json's words, without the file; a 40-value array's repr
    # ran over lines; llama.cpp's granite turns nothing when rope.scaling.finetuned is false
    ("granite.attention.scale", 1e-35, "granite.attention.scale is 1e-35; it must be a number from 1e-30"),
    ("granite.attention.head_count_kv", np.array([2] * 20 + [1] * 20, np.uint32),
     "granite.attention.head_count_kv differs from layer to layer"),
    ("granite.rope.scaling.finetuned", False, "granite.rope.scaling.finetuned is false: llama.cpp's granite then "
                                              "turns no q or k")])
def test_bad_granite_metadata_is_refused_in_one_line(tmp_path, key, value, match):
    import dataclasses

    from explorer.backend.models.gguf_config import config_from_metadata
    from explorer.backend.models.gguf_header import read_header

    _written(tmp_path)
    path = tmp_path / "m.gguf"
    with open(path, "rb") as fh:
        header = read_header(fh, path.stat().st_size, str(path))
    bad = dataclasses.replace(header, fields=dict(header.fields, **{key: value}))
    with pytest.raises(InputError, match=match) as info:
        config_from_metadata(bad, "m.gguf")
    assert "\n" not in str(info.value)
    assert config_from_metadata(header, "m.gguf")["attention_multiplier"] == pytest.approx(0.07)


def test_kv_heads_listed_per_layer_read_as_one_number(tmp_path):
    """A dense Granite 4.0 file lists its kv heads per layer (GraniteHybridModel with no SSM layers writes
    granite with head_count_kv an array); llama.cpp reads them per layer. All equal: read as that number."""
    import dataclasses

    from explorer.backend.models.gguf_config import config_from_metadata
    from explorer.backend.models.gguf_header import read_header

    _written(tmp_path)
    path = tmp_path / "m.gguf"
    with open(path, "rb") as fh:
        header = read_header(fh, path.stat().st_size, str(path))
    per_layer = dataclasses.replace(header, fields=dict(
        header.fields, **{"granite.attention.head_count_kv": np.array([2] * 40, np.uint32)}))
    assert config_from_metadata(per_layer, "m.gguf") == config_from_metadata(header, "m.gguf")


def test_a_negative_attention_scale_written_by_the_writer_is_refused(tmp_path):
    """The converter writes any non-zero multiplier; PE Explorer opens the file and refuses it by name."""
    _written(tmp_path, hparams={"attention_multiplier": -0.5, "embedding_multiplier": 3.5})
    with pytest.raises(InputError, match="granite.attention.scale is -0.5") as info:
        open_model(str(tmp_path / "m.gguf"))
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("family", ["granitemoe", "granitemoeshared"])
def test_a_granite_moe_file_reads_as_transformers_runs_it(tmp_path, family):
    """granitemoe files (GraniteMoeModel writes both MoE classes so): Granite's attention and multipliers under the
    arch's own keys (granitemoe.embedding_scale, granitemoe.attention.scale); the experts are not read."""
    torch_model = aw.fp16_random_model(family, tmp_path / "hf", 17, mh.FAMILIES[family])
    aw.write_family_gguf(tmp_path / "m.gguf", torch_model, "granitemoe")
    fields = {f.name for f in gguf.GGUFReader(str(tmp_path / "m.gguf")).fields.values()}
    assert {"granitemoe.embedding_scale", "granitemoe.attention.scale"} <= fields
    with open_model(str(tmp_path / "m.gguf")) as model:
        cfg = model.config
        assert (cfg.model_type, cfg.family) == ("granitemoe", "granite")
        assert cfg.embed_scale == np.float32(mh.FAMILIES[family]["embedding_multiplier"])
        assert cfg.score_scalar == pytest.approx(mh.FAMILIES[family]["attention_multiplier"] ** -2)
        mh.assert_layer0_as_transformers(model, torch_model, family, IDS)
