"""Nemotron checkpoints (model_type "nemotron": Minitron-4B / 8B-Base, Nemotron-Mini-4B-Instruct, Nemotron-4-340B's
ports) against transformers' NemotronConfig and NemotronForCausalLM (models/nemotron in transformers 5.25).

What differs from the other RoPE families here: the norm before attention is NemotronLayerNorm1P, a LayerNorm that
scales by weight + 1 (and adds its bias), at eps norm_eps; only the first partial_rotary_factor of each head turns
(0.5 by the class's default, NemotronConfig.__post_init__), rotate-half over those channels (apply_rotary_pos_emb
slices q[..., :rot_dim]); a config.json without num_key_value_heads cannot run in transformers (its default is None).
The plain X, q/k and RoPE checks run with every other family in tests/test_models_families.py.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from explorer.backend.models.config import model_config
from explorer.errors import InputError
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")
pytest.importorskip("torch")

# The 4B Nemotron's config.json (Minitron-4B-Base / Nemotron-Mini-4B-Instruct: 3,072 wide, 24 heads of 128, 8 kv
# heads, relu2, half of each head turning at base 10,000, 4,096 positions) as NVIDIA's TensorRT-LLM copies it into
# its tests (NVIDIA/TensorRT-LLM tests/unittest/_torch/modeling/test_modeling_nemotron.py, Nemotron_4_4B_CONFIG)
NEMOTRON_4B = {"architectures": ["NemotronForCausalLM"], "bos_token_id": 2, "eos_token_id": 3, "hidden_act": "relu2",
               "hidden_size": 3072, "initializer_range": 0.0134, "intermediate_size": 9216,
               "max_position_embeddings": 4096, "model_type": "nemotron", "num_attention_heads": 24,
               "num_hidden_layers": 32, "num_key_value_heads": 8, "norm_eps": 1e-05, "rope_theta": 10000,
               "partial_rotary_factor": 0.5, "tie_word_embeddings": False, "torch_dtype": "bfloat16",
               "transformers_version": "4.48.0", "use_cache": True, "vocab_size": 256000, "kv_channels": 128}


def test_the_published_4b_config_reads_as_nemotron_config_reads_it():
    """24 heads of 128 channels, the first 64 turning at base 10,000; LayerNorm eps 1e-5, no q/k biases; each number
    equal to NemotronConfig's reading of the same file and to its rotary embedding's inv_freq."""
    from transformers.models.nemotron.modeling_nemotron import NemotronRotaryEmbedding

    hf = tf.NemotronConfig.from_dict(json.loads(json.dumps(NEMOTRON_4B)))
    cfg = model_config(NEMOTRON_4B)
    assert (cfg.family, cfg.position, cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim, cfg.rope_dim) == (
        "nemotron", "rope", 3072, 24, 8, 128, 64)
    assert (cfg.head_dim, cfg.n_kv_heads, cfg.norm_eps, cfg.qk_bias, cfg.max_positions) == (
        hf.head_dim, hf.num_key_value_heads, hf.norm_eps, hf.attention_bias, hf.max_position_embeddings)
    assert (cfg.rope_base, cfg.partial_rotary_factor) == (hf.rope_parameters["rope_theta"],
                                                          hf.rope_parameters["partial_rotary_factor"])
    assert cfg.layer_norms and cfg.norm_1p and not cfg.rope_interleaved and cfg.rope_refusal is None
    assert 2 * NemotronRotaryEmbedding(hf).inv_freq.shape[0] == cfg.rope_dim


def test_a_config_silent_on_the_rope_norm_and_bias_keys_reads_the_class_defaults():
    """Without partial_rotary_factor, rope_theta, max_position_embeddings, norm_eps, attention_bias or head_dim:
    NemotronConfig's 0.5, 10,000, 4,096, 1e-5, false and hidden / heads."""
    silent = {k: v for k, v in NEMOTRON_4B.items() if k not in (
        "partial_rotary_factor", "rope_theta", "max_position_embeddings", "norm_eps", "kv_channels")}
    hf = tf.NemotronConfig.from_dict(json.loads(json.dumps(silent)))
    cfg = model_config(silent)
    assert (cfg.partial_rotary_factor, cfg.rope_base, cfg.max_positions, cfg.norm_eps, cfg.qk_bias, cfg.head_dim) == (
        hf.rope_parameters["partial_rotary_factor"], hf.rope_parameters["rope_theta"], hf.max_position_embeddings,
        hf.norm_eps, hf.attention_bias, hf.head_dim) == (0.5, 10000.0, 4096, 1e-5, False, 128)
    assert model_config({**silent, "attention_bias": True}).qk_bias


@pytest.mark.parametrize("kv", ["missing", None])
def test_no_kv_head_count_is_refused_in_one_line_as_transformers_cannot_run_it(kv):
    """NemotronConfig keeps num_key_value_heads None (missing or null), and NemotronAttention's num_heads //
    num_key_value_heads then fails: PE Explorer refuses the config.json in one line."""
    written = {k: v for k, v in NEMOTRON_4B.items() if k != "num_key_value_heads"}
    if kv is None:
        written["num_key_value_heads"] = None
    small = tf.NemotronConfig(**{**mh.FAMILIES["nemotron"], "num_key_value_heads": None})
    with pytest.raises(TypeError):
        tf.NemotronForCausalLM(small)
    with pytest.raises(InputError, match="num_key_value_heads is missing; transformers' nemotron has no default"
                       if kv == "missing" else "num_key_value_heads must be a positive integer, not null") as info:
        model_config(written)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("changes, rotated", [
    ({"attention_bias": False}, 4),                                     # the class's defaults: no biases
    ({"head_dim": 12}, 6),                                              # heads of 12 in 32 (as 48 x 128 in 4,096)
    ({"partial_rotary_factor": 0.25, "rope_scaling": {"rope_type": "linear", "factor": 2.0}}, 2),
    ({"rope_scaling": {"rope_type": "dynamic", "factor": 2.0}}, 4),    # (52 tokens: past its 40 positions)
])
def test_a_4x_file_reloads_as_transformers_with_only_the_first_channels_turned(changes, rotated, tmp_path):
    """A 4.x config.json (rope_theta, partial_rotary_factor at the top level) reloaded by transformers: X, rotated
    q / k and the attention equal NemotronForCausalLM's for 52 tokens, and only int(head_dim x p) channels turn."""
    config = tf.NemotronConfig(**{**mh.FAMILIES["nemotron"], **changes})
    mh.assert_reloaded_as_transformers(tf.NemotronForCausalLM, config, tmp_path, "nemotron", mh.to_4x_config,
                                       rotated=rotated)


def test_the_input_norm_scales_by_weight_plus_one(tmp_path):
    """A checkpoint whose input_layernorm weight is all -1 (NemotronLayerNorm1P: x 0) gives q = k = the biases
    at every position, as transformers' q_proj receives zeros."""
    from explorer.backend.models.hf_folder import open_model

    mh.build("nemotron", tmp_path, seed=3)
    mh.rewrite_tensor(tmp_path, "layers.0.input_layernorm.weight", lambda w: np.full_like(w, -1.0))
    mh.rewrite_tensor(tmp_path, "layers.0.input_layernorm.bias", lambda b: np.zeros_like(b))
    reference = tf.NemotronForCausalLM.from_pretrained(tmp_path, attn_implementation="eager").eval()
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        qk = model.layer0_qk(ids)
        bias = reference.model.layers[0].self_attn.q_proj.bias.detach().numpy().reshape(4, 1, 8)
        np.testing.assert_allclose(qk.q, np.broadcast_to(bias, qk.q.shape), atol=1e-6)
        mh.assert_layer0_as_transformers(model, reference, "nemotron", ids)


@pytest.mark.parametrize("suffix, change, match", [
    ("layers.0.input_layernorm.bias", lambda b: None, "has no tensor 'layers.0.input_layernorm.bias'"),
    ("layers.0.input_layernorm.weight", lambda w: w[:1], r"input_layernorm.weight has shape \(1,\), not \(32,\)"),
    ("layers.0.self_attn.k_proj.bias", lambda b: b[:3], r"k_proj.bias has shape \(3,\), not \(16,\)"),
])
def test_a_damaged_checkpoint_is_refused_in_one_line(suffix, change, match, tmp_path):
    mh.assert_damaged_refused("nemotron", tmp_path, suffix, change, match)


def test_the_rope_words_say_half_of_each_head_turns_rotate_half():
    """The opened-model line and the Real RoPE readout (rope_parts): "rotary 0.5", no neighbour pairs."""
    from explorer.ui.views.rope_words import rope_parts

    c = model_config(NEMOTRON_4B, "nvidia/Nemotron-Mini-4B-Instruct")
    assert rope_parts(c.rope_type_label, c.partial_rotary_factor, neighbour_pairs=c.rope_interleaved,
                      decoupled=c.decoupled_rope, mrope=c.mrope) == ("rotary 0.5",)
