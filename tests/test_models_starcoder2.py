"""StarCoder2 checkpoints (model_type "starcoder2") against transformers' Starcoder2Config and
Starcoder2ForCausalLM.

What differs from Llama at layer 0: a LayerNorm (weight and bias, eps `norm_epsilon`) before attention, q/k/v
biases unless `use_bias` is false, and, when config.json sets `sliding_window` (the published StarCoder2
models: 4,096), a window on every layer. The plain X, q/k and attention checks (a 6-token window) run with
every other family in tests/test_models_families.py.
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


def test_the_starcoder2_defaults_read_as_transformers_reads_them():
    """Starcoder2Config() (StarCoder2-7B's shape): 3072 wide, 24 heads of 128, 2 kv heads, base 10,000,
    LayerNorm eps 1e-5, 4,096 positions, q/k biases, no window (null)."""
    hf, cfg = mh.read_defaults(tf.Starcoder2Config, "starcoder2")
    assert (cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim) == (3072, 24, 2, 128)
    assert cfg.rope_base == hf.rope_parameters["rope_theta"] == 10000.0
    assert (cfg.norm_eps, cfg.max_positions, cfg.qk_bias) == (
        hf.norm_epsilon, hf.max_position_embeddings, hf.use_bias) == (1e-5, 4096, True)
    assert (cfg.layer_norms, cfg.window_of(0), hf.sliding_window) == (True, None, None)
    assert input_norm_names(cfg, 0) == ("layers.0.input_layernorm.weight", "layers.0.input_layernorm.bias")


@pytest.mark.parametrize("extra, layout", [
    ({}, "4.x"), ({"use_bias": False}, "5.x"), ({"norm_epsilon": 0.25}, "4.x"),
    ({"sliding_window": None}, "5.x")])
def test_a_starcoder2_folder_equals_transformers_layer_0(tmp_path, extra, layout):
    """X, q and k after RoPE and the softmax within the window equal transformers' model of the same folder;
    without biases (use_bias false: the bias tensors are absent), with a LayerNorm eps large enough to show
    (norm_epsilon, not layer_norm_eps), without a window (every earlier key)."""
    import torch

    config = tf.Starcoder2Config(**dict(mh.FAMILIES["starcoder2"], **extra))
    torch.manual_seed(13)
    rewrite = mh.to_4x_config if layout == "4.x" else (lambda folder: None)
    mh.assert_reloaded_as_transformers(tf.Starcoder2ForCausalLM, config, tmp_path, "starcoder2", rewrite, 8)
    with open_model(tmp_path) as model:
        cfg = model.config
        assert (cfg.qk_bias, cfg.norm_eps) == (extra.get("use_bias", True), extra.get("norm_epsilon", 1e-5))
        assert cfg.window_of(0) == extra.get("sliding_window", 6)


def test_a_null_kv_head_count_is_refused_as_starcoder2config_refuses_it():
    written = {"model_type": "starcoder2", "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
               "vocab_size": 10, "num_key_value_heads": None}
    with pytest.raises(InputError, match="num_key_value_heads must be a positive integer"):
        model_config(json.loads(json.dumps(written)))


def test_a_config_without_use_bias_has_biases_as_the_class_does():
    """Starcoder2Config's use_bias defaults to true (Llama's attention_bias to false)."""
    written = {"model_type": "starcoder2", "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
               "vocab_size": 10}
    assert model_config(written).qk_bias is tf.Starcoder2Config(**{k: v for k, v in written.items()
                                                                  if k != "model_type"}).use_bias is True
