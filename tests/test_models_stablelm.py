"""StableLM checkpoints (model_type "stablelm": StableLM-3B-4E1T, StableLM 2) against transformers'
StableLmConfig and StableLmForCausalLM.

What differs from the Llama-like families: only the first int(head_dim x partial_rotary_factor) channels of
each head turn (StableLmConfig's default 0.25), with any rope type; LayerNorms (weight and bias) before
attention; q/k/v biases when use_qkv_bias (default false); and, when qk_layernorm, a LayerNorm of each head's
own (StableLmLayerNormPerHead: one weight a head, no bias) on q and on k. The plain X, q/k and RoPE checks
run with every other family in tests/test_models_families.py.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")
pytest.importorskip("torch")


def _four_x(cfg: dict) -> dict:
    """A 5.x config dict as transformers 4.x wrote StableLM's: rope_theta, partial_rotary_factor and
    rope_scaling at the top level."""
    out = {k: v for k, v in cfg.items() if k != "rope_parameters"}
    params = dict(cfg["rope_parameters"])
    out["rope_theta"] = params.pop("rope_theta")
    out["partial_rotary_factor"] = params.pop("partial_rotary_factor")
    kind = params.pop("rope_type")
    out["rope_scaling"] = None if kind == "default" else {"type": kind, **params}
    return out


@pytest.mark.parametrize("layout", ["5.x", "4.x"])
def test_the_stablelm_3b_defaults_read_as_transformers_reads_them(layout):
    """StableLmConfig() is "a stablelm-3b style configuration": 2560 wide, 32 heads of 80, a quarter of
    each head (20 channels) turning at base 10,000, no q/k biases, no q/k norms, LayerNorm eps 1e-5."""
    hf, cfg = mh.read_defaults(tf.StableLmConfig, "stablelm", _four_x if layout == "4.x" else None)
    want = hf.rope_parameters
    assert (cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim) == (2560, 32, 32, 80)
    assert cfg.rope_base == want["rope_theta"] == 10000.0
    assert cfg.partial_rotary_factor == want["partial_rotary_factor"] == 0.25 and cfg.rope_dim == 20
    assert (cfg.qk_bias, cfg.qk_norm, cfg.norm_eps, cfg.max_positions, cfg.layer_norms) == (
        hf.use_qkv_bias, hf.qk_layernorm, hf.layer_norm_eps, hf.max_position_embeddings, True) == (
        False, False, 1e-5, 4096, True)


@pytest.mark.parametrize("extra", [{}, {"partial_rotary_factor": 0.5},
                                   {"rope_parameters": {"rope_type": "default", "rope_theta": 900.0}},
                                   {"rope_parameters": {"rope_type": "default", "rope_theta": 900.0,
                                                        "partial_rotary_factor": 0.75},
                                    "partial_rotary_factor": 0.5},
                                   {"rope_theta": 500.0, "rope_scaling": {"type": "linear", "factor": 2.0}}])
def test_the_rotary_fraction_defaults_as_stablelm_config_does(extra):
    """Without partial_rotary_factor a StableLM turns a quarter of each head (its class's default, not 1);
    the 5.x dict's own fraction wins over a top-level one."""
    cfg_dict = {"model_type": "stablelm", "hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 2,
                "num_key_value_heads": 2, "vocab_size": 10, **extra}
    want = tf.StableLmConfig(**json.loads(json.dumps(cfg_dict))).rope_parameters
    cfg = model_config(cfg_dict)
    assert (cfg.rope_base, cfg.partial_rotary_factor) == (want["rope_theta"], want["partial_rotary_factor"])
    assert cfg.rope_dim == int(32 * want["partial_rotary_factor"])


@pytest.mark.parametrize("qk_layernorm, qkv_bias", [(False, False), (True, True), (True, False)])
@pytest.mark.parametrize("scaling", [None, {"type": "linear", "factor": 3.0}, {"type": "dynamic", "factor": 2.0}])
def test_a_stablelm_folder_equals_transformers_layer_0(tmp_path, qk_layernorm, qkv_bias, scaling):
    """X, q and k after the partial RoPE (scaled too) and the softmax of the causal logits equal
    transformers' model of the same folder, written with 4.x keys; with per-head q/k norms and q/k/v
    biases, either, or neither (StableLmConfig's defaults)."""
    import torch

    settings = dict(mh.FAMILIES["stablelm"], hidden_size=40, qk_layernorm=qk_layernorm, use_qkv_bias=qkv_bias,
                    rope_parameters={"rope_type": "default", "rope_theta": 700.0, "partial_rotary_factor": 0.4})
    if scaling:
        kind = scaling["type"]
        settings["rope_parameters"] = {**settings["rope_parameters"], "rope_type": kind,
                                       **{k: v for k, v in scaling.items() if k != "type"}}
    torch.manual_seed(7)
    # heads of 10 channels, 0.4 of them (4) turn: PE Explorer must not take the class's default 0.25 (2)
    mh.assert_reloaded_as_transformers(tf.StableLmForCausalLM, tf.StableLmConfig(**settings), tmp_path,
                                       "stablelm", mh.to_4x_config, 4)
    written = json.loads((tmp_path / "config.json").read_text())
    assert "rope_parameters" not in written and written["partial_rotary_factor"] == 0.4
    with open_model(tmp_path) as model:
        assert (model.config.qk_norm, model.config.qk_bias) == (qk_layernorm, qkv_bias)


def test_each_head_has_its_own_q_and_k_norm(tmp_path):
    """StableLmLayerNormPerHead: head h's q goes through norms.h alone. Head 1's weight doubled changes
    head 1's q and no other head's, and the q equals transformers' q_layernorm output of the changed folder."""
    mh.build("stablelm", tmp_path)
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        before = model.layer0_qk(ids).q
    mh.rewrite_tensor(tmp_path, "layers.0.self_attn.q_layernorm.norms.1.weight", lambda w: 2 * w)
    with open_model(tmp_path) as model:
        after = model.layer0_qk(ids).q
    np.testing.assert_allclose(after[1], 2 * before[1], rtol=1e-6)
    np.testing.assert_array_equal(np.delete(after, 1, axis=0), np.delete(before, 1, axis=0))
    reference = tf.StableLmForCausalLM.from_pretrained(tmp_path, attn_implementation="eager").eval()
    ref = mh.capture(reference, "stablelm", ids)["q"]                       # (H, n, hd), after q_layernorm
    np.testing.assert_allclose(after, ref, rtol=0, atol=1e-5 * np.abs(ref).max())


def test_a_missing_kv_head_count_is_stablelm_configs_32():
    """StableLmConfig's num_key_value_heads defaults to 32 whatever the head count (the other classes: the
    head count): 32 heads read as transformers reads them; 4 heads cannot share 32 and are refused."""
    cfg = {"model_type": "stablelm", "hidden_size": 2048, "num_hidden_layers": 1, "num_attention_heads": 32,
           "vocab_size": 10}
    assert model_config(cfg).n_kv_heads == tf.StableLmConfig(**cfg).num_key_value_heads == 32
    with pytest.raises(InputError, match="num_attention_heads 4 is not a multiple of num_key_value_heads 32"):
        model_config({**cfg, "hidden_size": 64, "num_attention_heads": 4})


@pytest.mark.parametrize("suffix, change, match", [
    ("layers.0.self_attn.k_layernorm.norms.1.weight", lambda w: w[:5],
     r"k_layernorm.norms.1.weight has shape \(5,\), not \(8,\)"),
    ("layers.0.self_attn.q_proj.bias", lambda b: b[:1], r"q_proj.bias has shape \(1,\), not \(32,\)"),
    ("layers.0.input_layernorm.bias", lambda b: b[0], r"input_layernorm.bias has shape \(\), not \(32,\)")])
def test_a_norm_or_bias_of_the_wrong_shape_is_named(tmp_path, suffix, change, match):
    mh.assert_damaged_refused("stablelm", tmp_path, suffix, change, match)


def test_a_missing_head_norm_is_named(tmp_path):
    """A checkpoint without the last kv head's k norm (qk_layernorm says it has one) is refused by name."""
    mh.assert_damaged_refused("stablelm", tmp_path, "layers.0.self_attn.k_layernorm.norms.1.weight",
                              lambda w: None, r"k_layernorm\.norms\.1\.weight")


def test_a_head_dim_other_than_the_heads_split_is_refused():
    """StableLmAttention splits hidden / heads channels a head, while its RoPE would size itself by a
    head_dim of config.json's: a file whose two disagree cannot run, and says so."""
    cfg_dict = {"model_type": "stablelm", "hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 2,
                "num_key_value_heads": 2, "vocab_size": 10, "head_dim": 16}
    with pytest.raises(InputError, match=r"head_dim 16 is not hidden_size / num_attention_heads \(64 / 2\), "
                                         r"the heads StableLM's attention splits"):
        model_config(cfg_dict)
    assert model_config({**cfg_dict, "head_dim": 32}).head_dim == 32


@pytest.mark.parametrize("family, suffix", [("stablelm", "embed_tokens.weight"), ("olmo2", "q_proj.weight"),
                                            ("llama", "embed_tokens.weight")])
def test_a_norm_that_overflows_float32_is_named_not_drawn_as_zeros(tmp_path, family, suffix):
    """Found by a helper's attack: finite weights of ~1e20 overflow a norm's float32 variance (StableLM's
    input LayerNorm; OLMo 2's q RMSNorm; Llama's input RMSNorm); x / inf gave rows of 0 marked finite.
    They are NaN now, and the note names the norm (X itself and every weight are finite)."""
    from explorer.backend.models.finite import qk_note
    from explorer.errors import localized

    mh.build(family, tmp_path)
    mh.rewrite_tensor(tmp_path, suffix, lambda w: w * np.float32(1e20))
    with open_model(tmp_path) as model:
        tokenized = model.tokenize(mh.TEXT)
        assert np.isfinite(model.input_x(tokenized.ids)).all()
        qk = model.layer0_qk(tokenized.ids)
        assert not qk.finite and qk.bad_tensors == () and qk.bad_input == ()
        assert np.isnan(qk.q).any() and not np.any(qk.q == 0)
        note = localized(qk_note(model, qk, [t.text for t in tokenized.tokens], tokenized.ids), "en")
    assert note.startswith("NaN or infinite values in q and k: a norm or projection of the layer overflows float32")
