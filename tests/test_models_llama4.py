"""Llama 4 (explorer.backend.models.llama4) against transformers 5.25's Llama4ForCausalLM and
Llama4ForConditionalGeneration: RoPE on neighbouring pairs, q and k RMS-normalised after RoPE (use_qk_norm), NoPE
layers with the query temperature (attn_temperature_tuning), chunked attention, and the published configs' layout
(a multimodal llama4 with text_config, an empty no_rope_layers, attn_temperature_tuning 4, which transformers 5.25
refuses and 4.51 read as true).

The every-family checks (X, q/k, RoPE, attention weights with chunks of 5) run in test_models_families.py.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from explorer.backend.models.llama4 import temperature
from explorer.errors import InputError
from tests import models_helpers as mh

pytest.importorskip("transformers")
torch = pytest.importorskip("torch")

# Llama-4-Scout-17B-16E's text_config as published (meta-llama/Llama-4-Scout-17B-16E config.json; the same values
# in other projects' copies found with the search tool, e.g. a test's "_hf_scout_16e_dict" mirroring
# unsloth/Llama-4-Scout-17B-16E, and trt-llm's Maverick two-layer config for the shared keys)
SCOUT_TEXT = {"model_type": "llama4_text", "hidden_size": 5120, "num_hidden_layers": 48, "num_attention_heads": 40,
              "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 202048, "rms_norm_eps": 1e-5,
              "max_position_embeddings": 10485760, "attention_chunk_size": 8192, "no_rope_layers": [],
              "use_qk_norm": True, "attn_temperature_tuning": 4, "attn_scale": 0.1, "floor_scale": 8192,
              "rope_theta": 500000.0, "rope_scaling": {"rope_type": "llama3", "factor": 16.0, "low_freq_factor": 1.0,
                                                       "high_freq_factor": 1.0,
                                                       "original_max_position_embeddings": 8192}}


def test_the_class_defaults_and_a_published_config_are_read_as_transformers_reads_them():
    from transformers import Llama4Config, Llama4TextConfig

    hf, cfg = mh.read_defaults(Llama4TextConfig, "llama")
    assert (cfg.rope_base, cfg.rope_interleaved, cfg.norm_eps) == (hf.rope_parameters["rope_theta"], True, 1e-5)
    assert cfg.nope_layers == tuple(i for i, f in enumerate(hf.no_rope_layers) if f == 0) == (3, 7, 11) + tuple(
        range(15, 48, 4))
    assert cfg.layer_types == tuple(hf.layer_types) and cfg.chunk_of(0) == 8192 and cfg.chunk_of(3) is None
    assert cfg.qk_norm_after_rope and cfg.attn_temperature == (8192.0, 0.1)
    scout = model_config({"model_type": "llama4", "text_config": SCOUT_TEXT, "torch_dtype": "bfloat16"})
    # (transformers 5.25's strict Llama4TextConfig refuses the published 4, typed bool; 4.51, which the checkpoints
    # were published for, tests it for truth: PE Explorer reads it as true)
    reference = Llama4Config(text_config={**SCOUT_TEXT, "attn_temperature_tuning": True}).text_config
    assert (scout.model_type, scout.dtype, scout.d_model, scout.head_dim) == ("llama4_text", "bfloat16", 5120, 128)
    assert scout.nope_layers == tuple(i for i, f in enumerate(reference.no_rope_layers) if f == 0)
    assert scout.attn_temperature == (8192.0, 0.1) and scout.rope_type_label.startswith("llama3 ×16")


def test_the_nope_layers_temperature_equals_transformers():
    """attn_scale · log1p(floor((m + 1) / floor_scale)) + 1, against Llama4TextAttention's own on a NoPE layer
    (query m's output is q x that scale; checked on a NoPE layer 0 below)."""
    got = temperature(40, 3.0, 0.5)
    m = torch.arange(40)
    want = torch.log1p(torch.floor((m.float() + 1.0) / 3)) * 0.5 + 1.0
    np.testing.assert_allclose(got, want.numpy(), rtol=2e-7)          # (float32 log1p: torch's and numpy's may
    #                                                                    differ in the last bit)
    assert got[1] == 1.0 and got[2] > 1.0


@pytest.mark.parametrize("name, change", [
    ("no q/k norm (transformers: its 128E model), no chunks", dict(use_qk_norm=False, attention_chunk_size=None,
                                                         no_rope_layers=[1, 0, 1, 0])),
    ("Scout's llama3 RoPE, with an empty no_rope_layers as published",
     dict(rope_parameters={"rope_type": "llama3", "rope_theta": 900.0, "factor": 16.0, "low_freq_factor": 1.0,
                           "high_freq_factor": 1.0, "original_max_position_embeddings": 8}, no_rope_layers=[])),
])
def test_llama4_settings_equal_transformers(tmp_path, name, change):
    """X, q and k as Llama4TextAttention hands them to its attention, and its attention weights (output_attentions),
    for 52 tokens (past the chunks of 5), each head's 8 channels all turning."""
    from transformers import Llama4ForCausalLM, Llama4TextConfig

    config = Llama4TextConfig(**{**mh.FAMILIES["llama4"], **change})
    torch.manual_seed(5)
    mh.assert_reloaded_as_transformers(Llama4ForCausalLM, config, tmp_path, "llama4", lambda f: None, 8)


def test_a_nope_layer_0_scales_its_queries_as_transformers_does(tmp_path):
    """A NoPE layer 0 (no_rope_layers [0, 1, 1, 1]) turns nothing and has no q/k norm; its queries are scaled by
    the temperature from position 2 on (floor_scale 3, attn_scale 0.5): q, k and the attention weights equal
    Llama4TextAttention's."""
    from transformers import Llama4ForCausalLM, Llama4TextConfig

    config = Llama4TextConfig(**{**mh.FAMILIES["llama4"], "no_rope_layers": [0, 1, 1, 1], "floor_scale": 3,
                                 "attn_scale": 0.5})
    config._attn_implementation = "eager"
    torch.manual_seed(7)
    reference = mh.save_random(Llama4ForCausalLM(config).eval(), tmp_path)
    with open_model(tmp_path) as model:
        assert 0 in model.config.nope_layers and model.config.chunk_of(0) is None
        ids = model.tokenize(" ".join([mh.TEXT] * 4)).ids
        mh.assert_layer0_as_transformers(model, reference, "llama4", ids)
        qk = model.layer0_qk(ids)
        assert np.array_equal(qk.q_rot, qk.q) and np.array_equal(qk.k_rot, qk.k)
        untuned = qk.q / temperature(len(ids), 3.0, 0.5)[None, :, None]
        np.testing.assert_array_equal(qk.q[:, :2], untuned[:, :2])
        assert not np.allclose(qk.q[:, 2:], untuned[:, 2:])


def test_a_multimodal_llama4_opens_as_its_text_model(tmp_path):
    """Llama 4 ships as Llama4ForConditionalGeneration (model_type llama4, text_config, the language model's
    tensors beside a vision model's): X, layer 0's rotated and normalised q / k, and its chunked attention are
    its text model's."""
    from transformers import Llama4Config, Llama4ForConditionalGeneration

    torch.manual_seed(6)
    vision = {"hidden_size": 16, "intermediate_size": 32, "num_hidden_layers": 1, "num_attention_heads": 2,
              "image_size": 28, "patch_size": 14, "vision_output_dim": 16, "projector_input_dim": 16,
              "projector_output_dim": 16, "rope_theta": 10000.0}
    config = Llama4Config(text_config=dict(mh.FAMILIES["llama4"]), vision_config=vision)
    config.text_config._attn_implementation = "eager"
    full = mh.save_random(Llama4ForConditionalGeneration(config).eval(), tmp_path)
    saved = json.loads((tmp_path / "config.json").read_text())
    assert saved["model_type"] == "llama4" and saved["text_config"]["model_type"] == "llama4_text"
    with open_model(tmp_path) as model:
        assert (model.config.family, model.config.model_type, model.config.chunk_of(0)) == ("llama", "llama4_text", 5)
        ids = model.tokenize(mh.TEXT).ids
        ref = mh.capture(full.language_model, "llama4", ids)             # (its Llama4ForCausalLM)
        mh_close(model.input_x(ids), ref["x"])
        qk = model.layer0_qk(ids)
        mh_close(qk.q_rot, ref["q_rot"])
        mh_close(qk.k_rot, ref["k_rot"][qk.kv_head])


def mh_close(ours, ref, tol=1e-5):
    ref = np.asarray(ref, dtype=np.float64)
    np.testing.assert_allclose(ours, ref, rtol=0, atol=tol * max(1.0, float(np.abs(ref).max())))


@pytest.mark.parametrize("change, says", [
    ({"attention_chunk_size": 0}, "attention_chunk_size must be a whole number from 1 to 2\\^31 - 1 or null, not 0"),
    ({"attention_chunk_size": "8192"}, "attention_chunk_size must be a whole number"),
    ({"attn_temperature_tuning": "yes"}, "attn_temperature_tuning must be true, false or a whole number"),
    ({"floor_scale": 0}, "floor_scale must be a positive number, not 0"),
    ({"attn_scale": 1e400}, "attn_scale must be a finite number, not inf"),
    ({"floor_scale": 10 ** 400}, "floor_scale must be a finite number"),          # (float() of it overflowed)
    ({"use_qk_norm": "true"}, "use_qk_norm must be true or false"),
    ({"layer_types": ["sliding_attention"] * 4}, "layer_types must list 4 of full_attention / chunked_attention"),
    ({"no_rope_layers": [1, 1, 1]}, "no_rope_layers must list 4 flags"),
])
def test_bad_llama4_settings_are_refused_in_one_line(change, says):
    with pytest.raises(InputError, match=says) as info:
        model_config({**mh.FAMILIES["llama4"], "model_type": "llama4_text", **change})
    assert "\n" not in str(info.value)


def test_chunked_layers_without_a_chunk_size_open_but_refuse_their_attention(tmp_path):
    """layer_types naming chunked_attention beside a null attention_chunk_size: transformers cannot build the
    mask, so PE Explorer shows tokens and X but refuses layer q/k in one line."""
    mh.build("llama4", tmp_path)
    path = tmp_path / "config.json"
    cfg = json.loads(path.read_text())
    path.write_text(json.dumps({**cfg, "attention_chunk_size": None,
                                "layer_types": ["chunked_attention"] * 3 + ["full_attention"]}))
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        assert np.isfinite(model.input_x(ids)).all()
        with pytest.raises(InputError, match="attention_chunk_size is null beside chunked_attention layers"):
            model.layer0_qk(ids)


def test_export_qk_writes_the_chunk(tmp_path):
    """`export qk` of a Llama 4 folder writes layer 0's chunk (5), so the file alone gives transformers' attention
    weights (output_attentions)."""
    from explorer.commands.cli import main

    torch_model = mh.build("llama4", tmp_path / "llama4")
    assert main(["export", "qk", "--model", str(tmp_path / "llama4"), "--text", mh.TEXT,
                 "-o", str(tmp_path / "f.npz")]) == 0
    f = np.load(tmp_path / "f.npz")
    assert int(f["chunk"]) == 5 and not {"window", "sinks"} & set(f.files)
    ids = [mh.WORDS.index(w) + 1 for w in mh.TEXT.split()]
    with torch.no_grad():
        out = torch_model(input_ids=torch.as_tensor(np.asarray(ids)[None, :]), output_attentions=True)

    class Saved:
        logits, window, sinks, chunk = f["logits"], None, None, int(f["chunk"])

    np.testing.assert_allclose(mh.attention_of(Saved), out.attentions[0][0].numpy(), atol=1e-5)


def test_a_multimodal_configs_outer_type_decides_and_its_text_config_must_be_an_object():
    """Llama4Config (and Gemma3Config) build their text config class whatever text_config's model_type says: a
    "llama" inside a llama4 wrapper is still read as Llama 4 (it was read as plain Llama: no chunks, no NoPE layer,
    no q/k norm); a text_config that is not an object is named in one line (it was "model_type 'llama4' is not
    supported" and the list of every type)."""
    inner = {**mh.FAMILIES["llama4"], "model_type": "llama"}
    cfg = model_config({"model_type": "llama4", "text_config": inner})
    assert (cfg.model_type, cfg.chunk_of(0), cfg.nope_layers, cfg.qk_norm_after_rope) == ("llama4_text", 5, (3,), True)
    gemma = model_config({"model_type": "gemma3", "text_config": {**mh.FAMILIES["gemma3"], "model_type": "llama"}})
    assert gemma.model_type == "gemma3_text"
    for bad in (None, [1], "llama4_text"):
        with pytest.raises(InputError, match="^config.json: a multimodal llama4 model needs its text model's "
                                             "settings as text_config") as info:
            model_config({"model_type": "llama4", "text_config": bad})
        assert "\n" not in str(info.value) and len(str(info.value)) < 150
