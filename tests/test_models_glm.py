"""GLM-4 of 2024 (model_type glm: glm-4-9b-hf, glm-4-9b-chat-hf, GlmForCausalLM) read as transformers 5.25's
GlmConfig / GlmForCausalLM read it: GLM-4's attention (explorer's glm4 family: the first partial_rotary_factor of
each head, 0.5 by default, turns in neighbouring pairs (2i, 2i + 1) by repeat_interleave, q/k/v biases by
attention_bias, default true); what differs from Glm4 (two more norms after attention and MLP) is never read.
(The tiny checkpoint of tests/models_helpers.py, "glm", also runs tests/test_models_families.py's checks.)"""

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

# GLM-4-9B-Chat as transformers exports it (model_type glm), as a public C++ inference engine's test quotes it
# (kGlm4HfConfig, ConfigLoaderGlm4.HfNativeGlmTopology; found with the find_string tool on
# '"intermediate_size": 13696,'): 32 heads of 128, 2 kv heads, half of each head turning at base 10,000, biases.
# GlmConfig's own defaults are THUDM/glm-4-9b-chat's (its auto_docstring checkpoint) and agree.
GLM_4_9B_CHAT = {"model_type": "glm", "architectures": ["GlmForCausalLM"], "hidden_size": 4096,
                 "intermediate_size": 13696, "num_hidden_layers": 40, "num_attention_heads": 32,
                 "num_key_value_heads": 2, "head_dim": 128, "vocab_size": 151552, "rms_norm_eps": 1.5625e-07,
                 "rope_theta": 10000.0, "partial_rotary_factor": 0.5, "attention_bias": True,
                 "tie_word_embeddings": False, "max_position_embeddings": 131072}


def _as_transformers(cfg, hf) -> None:
    """cfg (a ModelConfig) has the widths, RoPE, pairing and biases GlmForCausalLM of hf would run (GlmRotaryEmbedding
    turns int(head_dim x partial_rotary_factor) channels; apply_rotary_pos_emb pairs them by repeat_interleave)."""
    assert (cfg.model_type, cfg.family, cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim) == (
        "glm", "glm4", hf.hidden_size, hf.num_attention_heads, hf.num_key_value_heads, hf.head_dim)
    assert (cfg.rope_dim, cfg.rope_base) == (int(hf.head_dim * hf.rope_parameters["partial_rotary_factor"]),
                                             hf.rope_parameters["rope_theta"])
    assert cfg.rope_scaling.rope_type == hf.rope_parameters["rope_type"] == "default"
    assert (cfg.rope_interleaved, cfg.qk_bias, cfg.qk_norm) == (True, hf.attention_bias, False)
    assert (cfg.norm_eps, cfg.max_positions) == (hf.rms_norm_eps, hf.max_position_embeddings)


def test_the_class_defaults_read_as_transformers_reads_them():
    """GlmConfig(): 64 of 128 channels turn in neighbouring pairs at base 10,000, q/k/v biases, 2 kv heads,
    rms_norm_eps 1.5625e-7, 131,072 positions; a config.json with none of these keys reads the same."""
    hf, cfg = mh.read_defaults(tf.GlmConfig, "glm4")
    _as_transformers(cfg, hf)
    assert (cfg.rope_dim, cfg.qk_bias, cfg.n_kv_heads) == (64, True, 2)
    bare = model_config({"model_type": "glm", "hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 4,
                         "vocab_size": 10})
    assert (bare.head_dim, bare.rope_dim, bare.n_kv_heads, bare.qk_bias, bare.norm_eps, bare.max_positions) == (
        128, 64, 2, True, 1.5625e-7, 131072)


@pytest.mark.parametrize("layout", ["as published (4.x keys)", "as transformers 5.x writes it"])
def test_published_glm_4_9b_chat_opens_as_transformers_reads_it(layout):
    hf = tf.GlmConfig(**{k: v for k, v in GLM_4_9B_CHAT.items() if k not in ("model_type", "architectures")})
    cfg = model_config(GLM_4_9B_CHAT if layout.startswith("as published") else json.loads(json.dumps(hf.to_dict())))
    _as_transformers(cfg, hf)
    assert (cfg.head_dim, cfg.rope_dim, cfg.rope_base, cfg.n_kv_heads) == (128, 64, 10000.0, 2)


def test_glm_equals_transformers_past_its_positions_with_half_of_each_head_in_neighbour_pairs(tmp_path):
    """X, q / k after RoPE and the attention of GlmForCausalLM for 52 tokens; channels 4..7 of each head never
    turn, and channels 0..3 turn as pairs (0, 1), (2, 3): each pair keeps its own length, rotate-half's would not."""
    config = tf.GlmConfig(**mh.FAMILIES["glm"])
    config._attn_implementation = "eager"
    torch.manual_seed(6)
    reference = mh.save_random(tf.GlmForCausalLM(config).eval(), tmp_path)
    with open_model(tmp_path) as model:
        ids = model.tokenize(" ".join([mh.TEXT] * 4)).ids
        same_layer0(model, mh.capture(reference, "glm", ids), ids)
        _same_attention(model, reference, ids)
        qk = model.layer0_qk(ids)
        assert np.array_equal(qk.q_rot[..., 4:], qk.q[..., 4:])
        assert not np.allclose(qk.q_rot[..., :4], qk.q[..., :4])
        pair_length = lambda x: np.hypot(x[..., 0:4:2], x[..., 1:4:2])               # noqa: E731
        np.testing.assert_allclose(pair_length(qk.q_rot), pair_length(qk.q), rtol=1e-5, atol=1e-6)


def test_a_4x_file_reloads_as_transformers(tmp_path):
    """A 4.x config.json (rope_theta, partial_rotary_factor at the top level) reloaded by transformers."""
    config = tf.GlmConfig(**mh.FAMILIES["glm"])
    mh.assert_reloaded_as_transformers(tf.GlmForCausalLM, config, tmp_path, "glm", mh.to_4x_config, rotated=4)


@pytest.mark.parametrize("change, says", [
    ({"head_dim": None}, r"config\.json: head_dim must be a whole number from 1 to 65,536, not null"),
    ({"num_key_value_heads": None}, r"config\.json: num_key_value_heads must be a positive integer, not null"),
    ({"attention_bias": 1}, r"config\.json: attention_bias must be true or false, not 1"),
    ({"num_key_value_heads": 3}, r"num_attention_heads 32 is not a multiple of num_key_value_heads 3"),
])
def test_bad_fields_are_refused_in_one_line(change, says):
    """What GlmConfig refuses or GlmAttention cannot run (a null head_dim or kv head count: None in its
    arithmetic) is refused in one line."""
    with pytest.raises(InputError, match=says) as info:
        model_config({**GLM_4_9B_CHAT, **change})
    assert "\n" not in str(info.value)
