"""Ministral 3 (explorer.backend.models.ministral3) against transformers 5.25's Ministral3ForCausalLM and a mistral3
wrapper (Mistral3ForConditionalGeneration) around it: Mistral's attention with q x 1 + beta ln(1 + floor(m / L0))
after RoPE (get_llama_4_attn_scale), the class's YaRN when config.json names no RoPE, and damaged settings refused.

A tiny original_max_position_embeddings (8) makes the scale show on a 13- or 52-token text (1 below position 8)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from explorer.backend.models.ministral3 import position_scale
from explorer.errors import InputError
from tests import models_helpers as mh
from tests.test_models_families import _same_attention, same_layer0

tf = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")

YARN = {"rope_type": "yarn", "rope_theta": 900.0, "factor": 4.0, "original_max_position_embeddings": 8,
        "beta_fast": 32.0, "beta_slow": 1.0, "mscale": 1.0, "mscale_all_dim": 1.0, "llama_4_scaling_beta": 0.5}
TINY = dict(mh.SMALL, num_key_value_heads=2, head_dim=12, rope_parameters=YARN, pad_token_id=0, bos_token_id=1,
            eos_token_id=1)
# Devstral-Small-2's text_config (a mistral3 wrapper around a ministral3 text model), as a public C++ inference
# project's test quotes it (RopeScalingConfigTest.Ministral3YarnAndQueryTemperature, found with the find_string
# tool on "llama_4_scaling_beta"); Ministral3Config's own defaults are those of mistralai/Ministral-3-8B-Base-2512
# (its auto_docstring checkpoint: 4096 wide, 34 layers, YaRN x16 from 16,384 at base 1e6, beta 0.1)
DEVSTRAL_TEXT = {"head_dim": 128, "hidden_size": 5120, "num_attention_heads": 32, "num_key_value_heads": 8,
                 "num_hidden_layers": 40, "model_type": "ministral3",
                 "rope_parameters": {"beta_fast": 32.0, "beta_slow": 1.0, "factor": 48.0, "llama_4_scaling_beta": 0.1,
                                     "mscale": 1.0, "mscale_all_dim": 1.0, "original_max_position_embeddings": 8192,
                                     "rope_theta": 100000000.0, "rope_type": "yarn", "type": "yarn"}}


def test_the_class_defaults_and_a_published_config_read_as_transformers_reads_them():
    hf, cfg = mh.read_defaults(tf.Ministral3Config, "mistral")
    rope = hf.rope_parameters
    assert (cfg.model_type, cfg.rope_base, cfg.rope_scaling.rope_type, cfg.rope_scaling.factor) == (
        "ministral3", rope["rope_theta"], "yarn", rope["factor"])
    assert cfg.q_scale == (rope["original_max_position_embeddings"], rope["llama_4_scaling_beta"]) == (16384, 0.1)
    assert (cfg.max_positions, cfg.sliding_window, cfg.norm_eps) == (262144, None, 1e-5)
    text = dict(DEVSTRAL_TEXT, vocab_size=hf.vocab_size)            # (the quote leaves it out: the class's 131072)
    devstral = model_config({"model_type": "mistral3", "text_config": text, "torch_dtype": "bfloat16"})
    ref = tf.Mistral3Config(text_config=dict(text)).text_config
    assert (devstral.family, devstral.d_model, devstral.n_kv_heads, devstral.head_dim, devstral.rope_base) == (
        "mistral", ref.hidden_size, ref.num_key_value_heads, ref.head_dim, ref.rope_parameters["rope_theta"])
    assert devstral.q_scale == (8192, 0.1) and devstral.dtype == "bfloat16"


def test_a_config_without_rope_settings_gets_the_classs_yarn():
    """Ministral3Config.__post_init__ sets its own YaRN (base 1e6) where config.json has no rope_parameters, even
    beside a rope_theta."""
    plain = dict(TINY, rope_parameters=None, rope_theta=500.0, model_type="ministral3")
    cfg = model_config(plain)
    hf = tf.Ministral3Config(**{k: v for k, v in plain.items() if k != "model_type"})
    assert cfg.rope_parameters["rope_theta"] == hf.rope_parameters["rope_theta"] == 1e6
    assert cfg.rope_scaling.factor == hf.rope_parameters["factor"] and cfg.q_scale == (16384, 0.1)


def test_the_position_scale_equals_transformers():
    from transformers.models.ministral3.modeling_ministral3 import get_llama_4_attn_scale

    want = get_llama_4_attn_scale(torch.arange(100)[None, :], 0.3, 7)[0, 0, :, 0].numpy()
    got = position_scale(100, 7, 0.3)
    np.testing.assert_allclose(got, want, rtol=2e-7)
    assert (got[:7] == 1.0).all() and got[7] > 1.0 and got[14] > got[13]


@pytest.mark.parametrize("name, change", [
    ("YaRN x4 from 8, beta 0.5", {}),
    ("plain RoPE with beta and L0 given, a sliding window of 6", dict(
        rope_parameters={"rope_type": "default", "rope_theta": 700.0, "llama_4_scaling_beta": 0.2,
                         "original_max_position_embeddings": 5}, sliding_window=6)),
    ("YaRN without its L0: max_position_embeddings (40)", dict(
        rope_parameters={k: v for k, v in YARN.items() if k != "original_max_position_embeddings"})),
])
def test_ministral3_equals_transformers(tmp_path, name, change):
    """X, q and k as Ministral3Attention hands them to its attention (after RoPE and q's scale), and its attention
    weights, for 52 tokens; q before RoPE is q_proj's times the same scale."""
    config = tf.Ministral3Config(**{**TINY, **change})
    config._attn_implementation = "eager"
    torch.manual_seed(3)
    reference = mh.save_random(tf.Ministral3ForCausalLM(config).eval(), tmp_path)
    with open_model(tmp_path) as model:
        assert (model.config.model_type, model.config.family) == ("ministral3", "mistral")
        ids = model.tokenize(" ".join([mh.TEXT] * 4)).ids
        mh.assert_layer0_as_transformers(model, reference, "ministral3", ids)
        ref = mh.capture(reference, "ministral3", ids)
        qk, (original, beta) = model.layer0_qk(ids), model.config.q_scale
        scale = position_scale(len(ids), original, beta)[None, :, None]
        q_proj = ref["q"].reshape(len(ids), 4, 12).transpose(1, 0, 2)                  # (H, n, hd)
        np.testing.assert_allclose(qk.q, q_proj * scale, rtol=0, atol=1e-5 * np.abs(q_proj).max())
        assert not np.allclose(qk.q[:, original:], q_proj[:, original:])              # the scale shows
        assert (scale[0, :original] == 1.0).all() and (scale[0, original:] > 1.0).all()


def test_a_mistral3_wrapper_around_ministral3_opens_as_its_text_model(tmp_path):
    """Mistral3ForConditionalGeneration whose text_config is a ministral3 (Ministral-3-3B / 8B / 14B as published):
    X, layer 0's q / k after RoPE and the scale, and its attention are its text model's."""
    vision = dict(hidden_size=16, intermediate_size=16, num_hidden_layers=1, num_attention_heads=2, head_dim=8,
                  patch_size=2, image_size=8)
    torch.manual_seed(4)
    config = tf.Mistral3Config(text_config=dict(TINY, model_type="ministral3"), vision_config=vision,
                               spatial_merge_size=1)
    config._attn_implementation = "eager"
    config.text_config._attn_implementation = "eager"
    full = mh.save_random(tf.Mistral3ForConditionalGeneration(config).eval(), tmp_path)
    saved = json.loads((tmp_path / "config.json").read_text())
    assert saved["model_type"] == "mistral3" and saved["text_config"]["model_type"] == "ministral3"
    with open_model(tmp_path) as model:
        assert (model.config.model_type, model.config.q_scale) == ("ministral3", (8, 0.5))
        ids = model.tokenize(mh.TEXT).ids
        same_layer0(model, mh.capture(full, "ministral3", ids), ids)
        _same_attention(model, full, ids)


@pytest.mark.parametrize("rope, says", [
    (dict(YARN, llama_4_scaling_beta="0.1"), "llama_4_scaling_beta must be a finite number, not '0.1'"),
    (dict(YARN, llama_4_scaling_beta=1e400), "llama_4_scaling_beta must be a finite number, not inf"),
    (dict(YARN, original_max_position_embeddings=0), "original_max_position_embeddings must be a whole number >= 1"),
    (dict(YARN, original_max_position_embeddings=8.5), "original_max_position_embeddings must be a whole number"),
])
def test_bad_ministral3_settings_are_refused_in_one_line(rope, says):
    with pytest.raises(InputError, match=says) as info:
        model_config({**TINY, "model_type": "ministral3", "rope_parameters": rope})
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("rope, missing", [
    ({"rope_type": "default", "rope_theta": 500.0}, "llama_4_scaling_beta"),
    ({"rope_type": "linear", "factor": 2.0, "rope_theta": 500.0, "llama_4_scaling_beta": 0.1},
     "original_max_position_embeddings"),
])
def test_without_beta_or_l0_the_model_opens_but_refuses_its_attention(tmp_path, rope, missing):
    """transformers' Ministral3Attention cannot scale q without them (None in get_llama_4_attn_scale): tokens and X
    are shown, layer q/k refused in one line."""
    mh.build("llama", tmp_path)                      # (any Llama-layout checkpoint: q_proj / k_proj, no biases read)
    cfg = json.loads((tmp_path / "config.json").read_text())
    cfg.update(model_type="ministral3", architectures=["Ministral3ForCausalLM"], rope_parameters=rope,
               attention_bias=False)
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        assert np.isfinite(model.input_x(ids)).all()
        with pytest.raises(InputError, match=f"and {missing} is missing") as info:
            model.layer0_qk(ids)
        assert "\n" not in str(info.value)


def test_the_formula_panel_writes_the_q_scale(tmp_path):
    """The Real RoPE view's lines (explorer.compute.qk_formula): q = s_m R(mθ) W_q norm(x), and s_m's curve with
    beta and L0, in English and Chinese."""
    from explorer.compute import models
    from explorer.compute.qk_formula import qk_lines
    from explorer.params import Params

    config = tf.Ministral3Config(**TINY)
    mh.save_random(tf.Ministral3ForCausalLM(config).eval(), tmp_path)
    params = Params(model=str(tmp_path))
    models.open_cached(str(tmp_path))
    try:
        lines = qk_lines(params)
        assert lines[0].startswith("q<sub>m</sub> = s<sub>m</sub> R(mθ) W<sub>q</sub> norm(x<sub>m</sub>), ")
        assert lines[1] == ("s<sub>m</sub> = 1 + 0.5 · ln(1 + ⌊m / 8⌋) scales query m after RoPE (Llama 4's position "
                            "scale: 1 for the first 8 positions)")
        assert "位置缩放" in qk_lines(params, "zh_CN")[1]
    finally:
        models.forget(str(tmp_path))
