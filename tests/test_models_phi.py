"""Phi-1 / 1.5 / 2 checkpoints (model_type "phi") against transformers' PhiConfig and PhiForCausalLM.

What differs from the Llama-like families: only the first int(head_dim x partial_rotary_factor) channels of
each head turn (Phi-2: 0.4; PhiConfig's default 0.5), with any rope type; LayerNorms (weight and bias)
before attention; q/k/v biases always; and optional per-head q/k LayerNorms (qk_layernorm). The plain X,
q/k and RoPE checks run with every other family in tests/test_models_families.py.
"""

from __future__ import annotations

import json

import pytest

from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")
pytest.importorskip("torch")

# microsoft/phi-2's config.json as published (transformers 4.37.0): 4.x keys, top-level partial_rotary_factor
PHI_2 = {"_name_or_path": "microsoft/phi-2", "architectures": ["PhiForCausalLM"], "attention_dropout": 0.0,
         "bos_token_id": 50256, "embd_pdrop": 0.0, "eos_token_id": 50256, "hidden_act": "gelu_new",
         "hidden_size": 2560, "initializer_range": 0.02, "intermediate_size": 10240, "layer_norm_eps": 1e-05,
         "max_position_embeddings": 2048, "model_type": "phi", "num_attention_heads": 32, "num_hidden_layers": 32,
         "num_key_value_heads": 32, "partial_rotary_factor": 0.4, "qk_layernorm": False, "resid_pdrop": 0.1,
         "rope_scaling": None, "rope_theta": 10000.0, "tie_word_embeddings": False, "torch_dtype": "float16",
         "transformers_version": "4.37.0", "use_cache": True, "vocab_size": 51200}


def test_phi_2_config_reads_as_transformers_reads_it():
    """32 of each 80-channel head turn (0.4), base 10,000, biases, LayerNorm eps 1e-5."""
    want = tf.PhiConfig(**PHI_2).rope_parameters
    cfg = model_config(PHI_2)
    assert (cfg.family, cfg.position, cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim) == (
        "phi", "rope", 2560, 32, 32, 80)
    assert cfg.rope_base == want["rope_theta"] == 10000.0
    assert cfg.partial_rotary_factor == want["partial_rotary_factor"] == 0.4 and cfg.rope_dim == 32
    assert (cfg.qk_bias, cfg.qk_norm, cfg.norm_eps, cfg.max_positions, cfg.dtype) == (
        True, False, 1e-5, 2048, "float16")


@pytest.mark.parametrize("extra", [{}, {"partial_rotary_factor": 0.75},
                                   {"rope_parameters": {"rope_type": "default", "rope_theta": 900.0}},
                                   {"rope_parameters": {"rope_type": "default", "rope_theta": 900.0},
                                    "partial_rotary_factor": 0.25}])
def test_the_rotary_fraction_defaults_as_phi_config_does(extra):
    """Without partial_rotary_factor a Phi turns half of each head (PhiConfig's default, not 1)."""
    cfg_dict = {k: v for k, v in PHI_2.items() if k not in ("partial_rotary_factor", "rope_theta")}
    cfg_dict.update(extra)
    want = tf.PhiConfig(**json.loads(json.dumps(cfg_dict))).rope_parameters
    cfg = model_config(cfg_dict)
    assert (cfg.rope_base, cfg.partial_rotary_factor) == (want["rope_theta"], want["partial_rotary_factor"])


@pytest.mark.parametrize("qk_layernorm", [False, True])
@pytest.mark.parametrize("scaling", [None, {"type": "linear", "factor": 3.0}, {"type": "dynamic", "factor": 2.0}])
def test_a_phi_2_style_folder_equals_transformers_layer_0(tmp_path, qk_layernorm, scaling):
    """X, q and k after the partial RoPE (scaled too) and the softmax of the causal logits equal
    transformers' model of the same folder, written with Phi-2's 4.x keys."""
    import torch

    # Phi-2's 0.4 of heads of 10 channels: 4 turn (a top-level key in the 4.x file, which a misread would
    # take for PhiConfig's default 0.5)
    settings = dict(mh.FAMILIES["phi"], hidden_size=40, qk_layernorm=qk_layernorm, partial_rotary_factor=0.4,
                    rope_theta=800.0)
    if scaling:
        settings["rope_scaling"] = dict(scaling)
    torch.manual_seed(5)
    mh.assert_reloaded_as_transformers(tf.PhiForCausalLM, tf.PhiConfig(**settings), tmp_path, "phi",
                                       mh.to_4x_config, 4)
    written = json.loads((tmp_path / "config.json").read_text())
    assert "rope_parameters" not in written and written["rope_theta"] == 800.0
    assert written["partial_rotary_factor"] == 0.4
    with open_model(tmp_path) as model:
        assert model.config.qk_norm == qk_layernorm


@pytest.mark.parametrize("suffix, change, match", [
    ("layers.0.self_attn.q_layernorm.bias", lambda b: b[:5], r"q_layernorm.bias has shape \(5,\), not \(8,\)"),
    # found by a helper's attack: a 0-d or (1,) bias or norm was broadcast over every channel (transformers
    # refuses to load it)
    ("layers.0.self_attn.k_proj.bias", lambda b: b[:1], r"k_proj.bias has shape \(1,\), not \(16,\)"),
    ("layers.0.input_layernorm.weight", lambda w: w[0], r"input_layernorm.weight has shape \(\), not \(32,\)")])
def test_a_bias_or_norm_of_the_wrong_shape_is_named(tmp_path, suffix, change, match):
    mh.assert_damaged_refused("phi", tmp_path, suffix, change, match)


def test_a_set_rope_scaling_wins_over_rope_parameters_as_in_transformers():
    """Found by a helper's attack: with both keys PhiConfig (convert_rope_params_to_dict: rope_scaling or
    rope_parameters) turns with the 4.x dict; PE Explorer took the 5.x one."""
    cfg_dict = {**PHI_2, "rope_theta": 800.0, "rope_scaling": {"type": "linear", "factor": 4.0},
                "rope_parameters": {"rope_type": "default", "rope_theta": 50.0}}
    want = tf.PhiConfig(**json.loads(json.dumps(cfg_dict))).rope_parameters
    cfg = model_config(cfg_dict)
    assert (cfg.rope_scaling.rope_type, cfg.rope_scaling.factor, cfg.rope_base) == (
        want["rope_type"], want["factor"], want["rope_theta"]) == ("linear", 4.0, 800.0)
