"""OLMo 3 checkpoints (model_type "olmo3") against transformers' Olmo3Config and Olmo3ForCausalLM.

OLMo 3 is OLMo 2's attention (no norm before it, q/k RMSNorms over all heads) with three layers in four sliding
over 4,096 tokens, and one RoPE per layer type: a 4.x `rope_scaling` (YaRN x8 in the long-context models)
applies to the full layers only, so layer 0, a sliding layer, turns with plain RoPE at rope_theta. The plain
X, q/k and attention checks (5.x nested rope_parameters, a 6-token window) run with every other family in
tests/test_models_families.py.
"""

from __future__ import annotations

import json

import pytest

from explorer.backend.models.config import model_config
from explorer.backend.models.families import input_norm_names
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")
pytest.importorskip("torch")
YARN = {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 10, "beta_fast": 32.0,
        "beta_slow": 1.0, "attention_factor": 1.2079441541679836}     # (OLMo 3's published rope_scaling, L0 scaled)


def test_the_olmo3_defaults_read_as_transformers_reads_them():
    """Olmo3Config() (OLMo 3 7B's shape): 4096 wide, 32 heads of 128, base 500,000 for both layer types, RMSNorm
    eps 1e-5, 2,048 positions, no biases, no input norm, q/k norms; layers 0-2 of every 4 slide over 4,096."""
    hf, cfg = mh.read_defaults(tf.Olmo3Config, "olmo2")
    assert cfg.model_type == "olmo3" and (cfg.d_model, cfg.n_heads, cfg.head_dim) == (4096, 32, 128)
    assert cfg.layer_types == tuple(hf.layer_types) and cfg.layer_types[:4] == ("sliding_attention",) * 3 + (
        "full_attention",)
    assert [cfg.window_of(i) for i in range(4)] == [hf.sliding_window] * 3 + [None] == [4096] * 3 + [None]
    for layer in (0, 3):
        base, scaling, refusal = cfg.rope_of(layer)
        want = hf.rope_parameters[hf.layer_types[layer]]
        assert (base, scaling.rope_type, refusal) == (want["rope_theta"], want["rope_type"], None) == (
            500000.0, "default", None)
    assert (cfg.norm_eps, cfg.max_positions, cfg.qk_bias) == (
        hf.rms_norm_eps, hf.max_position_embeddings, hf.attention_bias) == (1e-5, 2048, False)
    assert (cfg.pre_norm, cfg.qk_norm) == (False, True) and input_norm_names(cfg, 0) == (None, None)


def _four_x(folder, rope_theta: float, scaling: dict | None) -> None:
    """folder's config.json as transformers 4.x wrote OLMo 3's: rope_theta, rope_scaling (full layers only)."""
    path = folder / "config.json"
    cfg = json.loads(path.read_text())
    cfg.pop("rope_parameters")
    cfg.update(rope_theta=rope_theta, rope_scaling=scaling)
    path.write_text(json.dumps(cfg))


@pytest.mark.parametrize("layer0", ["sliding_attention", "full_attention"])
def test_a_4x_config_scales_the_full_layers_only(tmp_path, layer0):
    """A 4.x config's YaRN turns the full layers; layer 0 turns with plain RoPE when it slides (over 6 of the
    52 tokens) and with YaRN when config.json's layer_types make it a full one, as transformers runs both."""
    types = [layer0, "sliding_attention", "sliding_attention", "full_attention"]
    settings = dict(mh.FAMILIES["olmo3"], layer_types=types, rope_parameters={
        "sliding_attention": {"rope_type": "default", "rope_theta": 500000.0},
        "full_attention": {**YARN, "rope_theta": 500000.0}})
    config = tf.Olmo3Config(**settings)
    mh.assert_reloaded_as_transformers(tf.Olmo3ForCausalLM, config, tmp_path, "olmo3",
                                       lambda folder: _four_x(folder, 500000.0, YARN), 8)
    with open_model(tmp_path) as model:
        cfg = model.config
        assert (cfg.model_type, cfg.family) == ("olmo3", "olmo2")          # (the status line names the first)
        assert cfg.rope_scaling.rope_type == ("default" if layer0 == "sliding_attention" else "yarn")
        assert cfg.window_of(0) == (6 if layer0 == "sliding_attention" else None)
        assert cfg.rope_of(3)[1].rope_type == "yarn" and cfg.rope_of(1)[1].rope_type == "default"


def test_a_4x_configs_rope_theta_turns_the_sliding_layers_too():
    """Both layer types take a 4.x config's rope_theta, as transformers 4.57 (which wrote such configs), older
    vLLM (olmo2.py) and llama.cpp read it. (transformers 5.25's Olmo3Config gives the sliding layers 500,000
    whatever rope_theta says; every published OLMo 3 has 500,000, where the two agree.)"""
    written = {"model_type": "olmo3", "hidden_size": 32, "num_hidden_layers": 4, "num_attention_heads": 4,
               "vocab_size": 10, "rope_theta": 10000.0, "rope_scaling": YARN}
    cfg = model_config(written)
    hf = tf.Olmo3Config(**{k: v for k, v in written.items() if k != "model_type"})
    assert cfg.layer_types == tuple(hf.layer_types)                     # (no layer_types: the class's pattern)
    assert cfg.rope_of(0)[:2] == (10000.0, cfg.rope_scaling) and cfg.rope_scaling.rope_type == "default"
    assert cfg.rope_of(3)[0] == 10000.0 and cfg.rope_of(3)[1].rope_type == "yarn"
    assert hf.rope_parameters["sliding_attention"]["rope_theta"] == 500000.0   # (the 5.25 reading this differs from)


@pytest.mark.parametrize("change, match", [
    ({"rope_parameters": {"rope_type": "default", "rope_theta": 500.0}},
     "OLMo 3's rope_parameters must be set per layer type"),
    ({"sliding_window": None}, None),
    ({"sliding_window": 0}, "sliding_window must be a whole number from 1"),
])
def test_odd_olmo3_settings_are_named_in_one_line(change, match):
    """A flat rope_parameters (Olmo3Config nests them per layer type) and a bad window are refused in one line;
    a null window beside sliding layers opens the model but refuses layer q/k (transformers cannot mask them)."""
    written = {"model_type": "olmo3", "hidden_size": 32, "num_hidden_layers": 4, "num_attention_heads": 4,
               "vocab_size": 10, **change}
    if match is None:
        cfg = model_config(written)
        assert "sliding_window is null" in str(cfg.attention_refusal)
        return
    with pytest.raises(InputError, match=match) as err:
        model_config(written)
    assert "\n" not in str(err.value)
