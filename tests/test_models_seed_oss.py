"""Seed-OSS (seed_oss) read as transformers 5.25's SeedOssConfig / SeedOssForCausalLM read it: Llama's attention
(rotate-half RoPE over the whole head, GQA) with q/k/v biases by attention_bias, whose class default is TRUE
(configuration_seed_oss.py), o_proj's bias a switch of its own (attention_out_bias, default false, never read
here: layer 0's q, k and scores do not pass o_proj), head_dim 128 when config.json has none. (The tiny checkpoint
of tests/models_helpers.py, "seed_oss", also runs tests/test_models_families.py's checks.)"""

from __future__ import annotations

import json

import numpy as np
import pytest

from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh
from tests.test_models_families import _same_attention, same_layer0

tf = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")

# Seed-OSS-36B's config.json as a public MLX Swift port's test quotes it (SeedOSS configJSON, found with the
# find_string tool on '"num_attention_heads": 80,'): 80 heads of 128 channels in 5,120, 8 kv heads, base 1e7,
# default RoPE, 524,288 positions. (It leaves attention_bias out: the class's default, true, as the published
# checkpoint's q_proj / k_proj / v_proj biases need.)
SEED_OSS_36B = {"model_type": "seed_oss", "hidden_size": 5120, "num_hidden_layers": 64, "intermediate_size": 27648,
                "num_attention_heads": 80, "num_key_value_heads": 8, "head_dim": 128, "rms_norm_eps": 0.000001,
                "vocab_size": 155136, "rope_theta": 10000000.0, "rope_scaling": {"rope_type": "default"},
                "max_position_embeddings": 524288, "tie_word_embeddings": False}


def _as_transformers(cfg, hf) -> None:
    """cfg (a ModelConfig) has the widths, RoPE and biases that SeedOssForCausalLM of hf would run."""
    assert (cfg.family, cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim) == (
        "llama", hf.hidden_size, hf.num_attention_heads, hf.num_key_value_heads, hf.head_dim)
    assert (cfg.rope_dim, cfg.rope_base, cfg.rope_interleaved) == (hf.head_dim, hf.rope_parameters["rope_theta"], False)
    assert cfg.rope_scaling.rope_type == hf.rope_parameters["rope_type"] == "default"
    assert (cfg.qk_bias, cfg.qk_norm, cfg.norm_eps, cfg.max_positions) == (
        hf.attention_bias, False, hf.rms_norm_eps, hf.max_position_embeddings)


def test_the_class_defaults_read_as_transformers_reads_them():
    """SeedOssConfig(): head_dim 128 (not 4096 / 80), q/k/v biases, 8 kv heads, 524,288 positions."""
    hf = tf.SeedOssConfig()
    cfg = model_config(json.loads(json.dumps(hf.to_dict())))
    _as_transformers(cfg, hf)
    assert (cfg.head_dim, cfg.qk_bias, cfg.n_kv_heads) == (128, True, 8)
    bare = model_config({"model_type": "seed_oss", "hidden_size": 64, "num_hidden_layers": 1,
                         "num_attention_heads": 8, "vocab_size": 10})   # no head_dim, kv heads, bias, positions
    assert (bare.head_dim, bare.n_kv_heads, bare.qk_bias, bare.max_positions) == (128, 8, True, 524288)


def test_published_seed_oss_36b_opens_as_transformers_reads_it():
    """SEED_OSS_36B: 128-channel heads turned rotate-half at base 10^7, q/k/v biases by the class's default."""
    hf = tf.SeedOssConfig(**{k: v for k, v in SEED_OSS_36B.items() if k != "model_type"})
    cfg = model_config(dict(SEED_OSS_36B))
    _as_transformers(cfg, hf)
    assert (cfg.head_dim, cfg.rope_base, cfg.qk_bias, cfg.n_kv_heads) == (128, 1e7, True, 8)


@pytest.mark.parametrize("name, change", [
    ("attention_bias left out (the class's true)", None),
    ("attention_bias false", {"attention_bias": False}),
    ("o_proj's bias on (attention_out_bias), q/k/v's off", {"attention_bias": False, "attention_out_bias": True}),
])
def test_seed_oss_equals_transformers(tmp_path, name, change):
    """X, layer 0's q / k after RoPE and the attention weights equal SeedOssForCausalLM's for 13 tokens; with
    attention_bias left out of config.json the biases are read (transformers' default), and they matter."""
    config = tf.SeedOssConfig(**{**mh.FAMILIES["seed_oss"], **(change or {})})
    config._attn_implementation = "eager"
    torch.manual_seed(5)
    reference = mh.save_random(tf.SeedOssForCausalLM(config).eval(), tmp_path)
    if change is None:                                       # the key removed from the saved config.json
        path = tmp_path / "config.json"
        saved = json.loads(path.read_text())
        assert saved.pop("attention_bias") is True
        path.write_text(json.dumps(saved))
    with open_model(tmp_path) as model:
        assert (model.config.model_type, model.config.head_dim, model.config.qk_bias) == (
            "seed_oss", 12, config.attention_bias)
        ids = model.tokenize(mh.TEXT).ids
        same_layer0(model, mh.capture(reference, "seed_oss", ids), ids)
        _same_attention(model, reference, ids)
    if change is None:                                       # the same file told attention_bias false: the
        saved["attention_bias"] = False                      # biases go unread and q / k differ
        path.write_text(json.dumps(saved))
        with open_model(tmp_path) as model:
            ids = model.tokenize(mh.TEXT).ids
            assert not np.allclose(model.layer0_qk(ids).q_rot, mh.capture(reference, "seed_oss", ids)["q_rot"],
                                   atol=1e-3)


@pytest.mark.parametrize("change, says", [
    ({"attention_bias": "yes"}, r"config\.json: attention_bias must be true or false, not 'yes'"),
    ({"head_dim": 0}, r"config\.json: head_dim must be a whole number from 1 to"),
    ({"num_attention_heads": 80, "num_key_value_heads": 7}, r"num_attention_heads 80 is not a multiple of "
                                                            r"num_key_value_heads 7"),
    ({"max_position_embeddings": 0}, r"config\.json: max_position_embeddings must be a positive integer, not 0"),
])
def test_bad_fields_are_refused_in_one_line(change, says):
    with pytest.raises(InputError, match=says) as info:
        model_config({**SEED_OSS_36B, **change})
    assert "\n" not in str(info.value)
