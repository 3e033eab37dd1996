"""Hunyuan (explorer.backend.models.hunyuan) against transformers 5.25's HunYuanDenseV1ForCausalLM and
HunYuanMoEV1ForCausalLM: X, layer 0's q and k after RoPE and the per-head RMSNorms that follow it, and the attention;
the "dynamic" RoPE with an alpha as its fixed base theta x alpha^(hd / (hd - 2)); damaged settings refused.

alpha 1000 at head_dim 12 multiplies the base by 1000^1.2 (~3981): the rotations of 13 tokens differ plainly."""

from __future__ import annotations

import json

import numpy as np
import pytest

from explorer.backend.models.attention import default_inv_freq, rotate
from explorer.backend.models.config import model_config
from explorer.backend.models.families import rms_norm
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")

ALPHA = {"rope_type": "dynamic", "rope_theta": 500.0, "alpha": 1000.0, "factor": 1.0}
TINY = dict(mh.SMALL, num_key_value_heads=2, head_dim=12, rope_parameters=ALPHA, pad_token_id=0, bos_token_id=1,
            eos_token_id=1)
MOE = dict(TINY, num_experts=4, moe_topk=2)
# tencent/Hy-MT2-7B's config.json (hunyuan_v1_dense), as an agent's log quotes it fetched from huggingface.co
# (found with the find_string tool on '"cla_share_factor": 2,'); its Hunyuan-7B-Instruct siblings have the same
# rope_scaling (alpha 1000 over rope_theta 10000) and head_dim 128
HY_MT2_7B = {
    "add_classification_head": False, "architectures": ["HunYuanDenseV1ForCausalLM"], "attention_bias": False,
    "attention_dropout": 0.1, "attention_head_dim": 128, "bos_token_id": 127958, "cla_share_factor": 2,
    "class_num": 0, "dense_list": [4096, 0], "torch_dtype": "bfloat16", "eos_token_id": 127960, "head_dim": 128,
    "hidden_act": "silu", "hidden_size": 4096, "im_end_id": 5, "im_newline_id": 11, "im_start_id": 4,
    "initializer_range": 0.02, "intermediate_size": 14336, "mask_init_id": 12, "max_position_embeddings": 262144,
    "mlp_bias": False, "model_type": "hunyuan_v1_dense", "norm_type": "rms", "num_attention_heads": 32,
    "num_hidden_layers": 32, "num_key_value_heads": 8, "org_vocab_size": 128167, "pad_id": 127961,
    "pad_token_id": 127961, "pool_type": "last", "pretraining_tp": 1, "rms_norm_eps": 1e-05,
    "rope_scaling": {"alpha": 1000.0, "beta_fast": 32, "beta_slow": 1, "factor": 1.0, "mscale": 1.0,
                     "mscale_all_dim": 1.0, "type": "dynamic"},
    "rope_theta": 10000.0, "sep_token_id": 127962, "text_end_id": 7, "text_start_id": 6,
    "tie_word_embeddings": True, "transformers_version": "4.57.6", "use_cache": True, "use_cla": False,
    "use_qk_norm": True, "use_rotary_pos_emb": True, "vocab_size": 128167}


def _class_inv_freq(config_class, cfg: dict) -> np.ndarray:
    """The inv_freq transformers' rotary embedding of this config.json makes (its ntk_alpha type where it has one)."""
    from transformers.models.hunyuan_v1_dense.modeling_hunyuan_v1_dense import HunYuanDenseV1RotaryEmbedding

    hf = config_class(**{k: v for k, v in cfg.items() if k not in ("model_type", "architectures")})
    return HunYuanDenseV1RotaryEmbedding(hf).inv_freq.numpy()


def test_the_class_defaults_read_as_transformers_reads_them():
    """Plain RoPE at 10,000, 2048 positions, eps 1e-5, a kv head a head; no head_dim: no attention (its class's
    attention takes config.head_dim, None)."""
    for config_class in (tf.HunYuanDenseV1Config, tf.HunYuanMoEV1Config):
        hf, cfg = mh.read_defaults(config_class, "llama")
        assert (cfg.rope_base, cfg.rope_type_label, cfg.rope_alpha) == (10000.0, "", None)
        assert (cfg.max_positions, cfg.norm_eps, cfg.qk_bias) == (hf.max_position_embeddings, hf.rms_norm_eps, False)
        assert "head_dim" in cfg.attention_refusal and hf.head_dim is None


def test_a_published_config_opens_at_its_fixed_ntk_alpha_base():
    """Hy-MT2-7B's config.json: base 10000 x 1000^(128/126), the inv_freq HunYuanDenseV1RotaryEmbedding makes
    from it (ntk_alpha), and the readout says it is NTK-alpha's fixed base."""
    cfg = model_config(HY_MT2_7B)
    assert (cfg.model_type, cfg.family, cfg.head_dim, cfg.n_kv_heads, cfg.dtype) == (
        "hunyuan_v1_dense", "llama", 128, 8, "bfloat16")
    assert cfg.rope_base == 10000.0 * 1000.0 ** (128 / 126) and cfg.rope_scaling.rope_type == "default"
    assert cfg.rope_type_label == "NTK-alpha 1000 = 10000 × 1000^(128/126)"
    assert cfg.attention_refusal is None and cfg.rope_refusal is None
    want = _class_inv_freq(tf.HunYuanDenseV1Config, HY_MT2_7B)
    np.testing.assert_allclose(default_inv_freq(cfg.rope_base, 128), want, rtol=1e-6)
    assert not np.allclose(default_inv_freq(10000.0, 128), want, rtol=1e-3)      # the alpha shows
    moe = model_config(dict(HY_MT2_7B, model_type="hunyuan_v1_moe", num_experts=64, moe_topk=8))
    assert (moe.rope_base, moe.rope_alpha) == (cfg.rope_base, (1000.0, 10000.0))


@pytest.mark.parametrize("family, change", [
    ("hunyuan_v1_dense", {}),
    ("hunyuan_v1_moe", {}),
    ("hunyuan_v1_dense", dict(rope_parameters={"rope_type": "default", "rope_theta": 700.0}, attention_bias=True)),
    ("hunyuan_v1_moe", dict(rope_parameters={**ALPHA, "alpha": 3.5}, num_key_value_heads=1)),
])
def test_hunyuan_equals_transformers(tmp_path, family, change):
    """X, q and k as HunYuan*Attention hands them to its attention (RoPE at the folded base, then each head's
    query_layernorm / key_layernorm) and its attention weights; a 4.x file ("type": "dynamic" in rope_scaling) too."""
    config_class, model_class = mh.classes(family)
    config = config_class(**{**(MOE if family.endswith("moe") else TINY), **change})
    config._attn_implementation = "eager"
    torch.manual_seed(5)
    reference = mh.save_random(model_class(config).eval(), tmp_path)
    plain = change.get("rope_parameters", ALPHA)["rope_type"] == "default"
    assert reference.model.rotary_emb.rope_type == ("default" if plain else "ntk_alpha")
    for layout in ("5.x", "4.x"):
        if layout == "4.x":
            written = mh.to_4x_config(tmp_path)
            assert written["rope_scaling"] is None or written["rope_scaling"]["type"] == "dynamic"
        with open_model(tmp_path) as model:
            assert (model.config.model_type, model.config.family) == (family, "llama")
            ids = model.tokenize(mh.TEXT).ids
            mh.assert_layer0_as_transformers(model, reference, family, ids)
            inv_freq = reference.model.rotary_emb.inv_freq.numpy()
            np.testing.assert_allclose(default_inv_freq(model.config.rope_base, 12), inv_freq, rtol=1e-6)


def test_the_alpha_and_the_norm_order_show(tmp_path):
    """What the test above would miss if it were blind: transformers' q after RoPE and its norm differ from q turned
    at rope_theta (alpha ignored) and from q normalised BEFORE RoPE (the order swapped), each by far more than the
    tolerance; PE Explorer's equals it."""
    config = tf.HunYuanDenseV1Config(**TINY)
    config._attn_implementation = "eager"
    torch.manual_seed(6)
    reference = mh.save_random(tf.HunYuanDenseV1ForCausalLM(config).eval(), tmp_path)
    att = reference.model.layers[0].self_attn
    w = att.query_layernorm.weight.detach().numpy()
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        ref = mh.capture(reference, "hunyuan_v1_dense", ids)
        q = ref["q"].reshape(len(ids), 4, 12).transpose(1, 0, 2)                             # (H, n, hd)

        def turned(t, base):
            return rotate(t, default_inv_freq(base, 12), 1.0, None, False, 0)

        eps, base = model.config.norm_eps, model.config.rope_base
        assert base == 500.0 * 1000.0 ** 1.2
        right = rms_norm(turned(q, base), w, eps)
        np.testing.assert_allclose(right, ref["q_rot"], rtol=0, atol=1e-5 * np.abs(ref["q_rot"]).max())
        np.testing.assert_allclose(model.layer0_qk(ids).q_rot, ref["q_rot"], rtol=0,
                                   atol=1e-5 * np.abs(ref["q_rot"]).max())
        for wrong in (rms_norm(turned(q, 500.0), w, eps), turned(rms_norm(q, w, eps), base)):
            assert np.abs(wrong - ref["q_rot"]).max() > 0.05 * np.abs(ref["q_rot"]).max()


def test_no_head_dim_opens_without_its_attention(tmp_path):
    """A config.json without head_dim (transformers' attention cannot run): tokens and X shown, layer q/k refused in
    one line."""
    config = tf.HunYuanDenseV1Config(**TINY)
    torch.manual_seed(7)
    mh.save_random(tf.HunYuanDenseV1ForCausalLM(config).eval(), tmp_path)
    path = tmp_path / "config.json"
    path.write_text(json.dumps({k: v for k, v in json.loads(path.read_text()).items() if k != "head_dim"}))
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        assert model.input_x(ids).shape == (len(ids), 32)
        with pytest.raises(InputError, match="no head_dim") as exc:
            model.layer0_qk(ids)
        assert "\n" not in str(exc.value)


@pytest.mark.parametrize("alpha, words", [
    (0, "must be a positive number, not 0"), (-1.0, "not -1.0"), ("1000", "not '1000'"), (True, "not True"),
    (float("nan"), "not nan"), ([1000.0], "not [1000.0]"), (1e300, "is not a usable RoPE base"),
])
def test_bad_alphas_are_refused_in_one_line(alpha, words):
    rope = {**HY_MT2_7B["rope_scaling"], "alpha": alpha}
    with pytest.raises(InputError, match="alpha") as exc:
        model_config(dict(HY_MT2_7B, rope_scaling=rope))
    assert words in str(exc.value) and "\n" not in str(exc.value)


def test_an_alpha_beside_another_rope_type_is_not_read():
    """transformers renames only "dynamic" with an alpha; a linear alpha is plain linear scaling, and a dynamic
    without one is transformers' dynamic NTK."""
    linear = model_config(dict(HY_MT2_7B, rope_scaling={"type": "linear", "factor": 2.0, "alpha": 1000.0}))
    assert (linear.rope_base, linear.rope_scaling.rope_type, linear.rope_alpha) == (10000.0, "linear", None)
    dynamic = model_config(dict(HY_MT2_7B, rope_scaling={"type": "dynamic", "factor": 2.0}))
    assert (dynamic.rope_base, dynamic.rope_scaling.rope_type, dynamic.rope_alpha) == (10000.0, "dynamic", None)
