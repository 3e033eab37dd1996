"""IBM Granite checkpoints (model_type "granite", and the MoE "granitemoe" / "granitemoeshared") against transformers'
GraniteConfig and GraniteForCausalLM (the MoE classes' X, q/k and attention: tests/test_models_families.py).

What differs from Llama at layer 0: GraniteModel multiplies the token embeddings by embedding_multiplier
(X = E[ids] x m_e), and GraniteAttention multiplies q·k by attention_multiplier where Llama divides by
sqrt(head_dim) (both default 1.0: a config without them scales q·k by 1, not by 1 / sqrt(head_dim)). The
plain X, q/k and RoPE checks run with every other family in tests/test_models_families.py.
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


@pytest.mark.parametrize("config_class", ["GraniteConfig", "GraniteMoeConfig", "GraniteMoeSharedConfig"])
def test_the_granite_defaults_read_as_transformers_reads_them(config_class):
    """GraniteConfig() and the MoE classes' (granitemoe, granitemoeshared: Granite's attention, experts in the
    MLP): Llama-7B-like sizes, both multipliers 1.0: X = E[ids], logits = q·k x 1."""
    hf, cfg = mh.read_defaults(getattr(tf, config_class), "granite")
    assert cfg.rope_base == hf.rope_parameters["rope_theta"]
    assert (cfg.embed_scale, cfg.score_scalar) == (hf.embedding_multiplier, 1 / hf.attention_multiplier ** 2) == (
        1.0, 1.0)
    assert (cfg.norm_eps, cfg.max_positions, cfg.qk_bias, cfg.pre_norm) == (
        hf.rms_norm_eps, hf.max_position_embeddings, hf.attention_bias, True)


@pytest.mark.parametrize("multipliers", [{"embedding_multiplier": 12.0, "attention_multiplier": 0.015625},
                                         {"embedding_multiplier": 0.3, "attention_multiplier": 2.0}, {}])
@pytest.mark.parametrize("layout", ["4.x", "5.x"])
def test_a_granite_folder_equals_transformers_layer_0(tmp_path, multipliers, layout):
    """X (scaled by embedding_multiplier), q and k after RoPE, and the softmax of q·k x attention_multiplier
    equal transformers' model of the same folder (the softmax would differ with Llama's 1 / sqrt(hd))."""
    import torch

    settings = {k: v for k, v in mh.FAMILIES["granite"].items() if not k.endswith("_multiplier")}
    settings.update(multipliers, attention_bias=True)
    torch.manual_seed(13)
    rewrite = mh.to_4x_config if layout == "4.x" else (lambda folder: None)
    mh.assert_reloaded_as_transformers(tf.GraniteForCausalLM, tf.GraniteConfig(**settings), tmp_path, "granite",
                                       rewrite, 8)
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        m_e = multipliers.get("embedding_multiplier", 1.0)
        np.testing.assert_allclose(model.input_x(ids), model.rows(ids) * np.float32(m_e), rtol=1e-6)
        qk = model.layer0_qk(ids)
        m_a = multipliers.get("attention_multiplier", 1.0)
        want = np.einsum("hmd,hnd->hmn", qk.q_rot.astype(np.float64), qk.k_rot.astype(np.float64)) * m_a
        np.testing.assert_allclose(qk.logits, want, rtol=1e-5, atol=1e-6 * np.abs(want).max())


@pytest.mark.parametrize("key, value", [("embedding_multiplier", 0), ("embedding_multiplier", -12.0),
                                        ("attention_multiplier", "0.015625"), ("attention_multiplier", True),
                                        ("attention_multiplier", 1e40), ("embedding_multiplier", None)])
def test_a_multiplier_that_is_not_a_sane_number_is_refused_in_one_line(key, value):
    cfg = {"model_type": "granite", "hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 4,
           "vocab_size": 10, key: value}
    with pytest.raises(InputError, match=f"config.json: {key} must be a number from 1e-30 to 1e30") as info:
        model_config(cfg)
    assert "\n" not in str(info.value)


def test_the_tokens_view_names_the_embedding_multiplier(window, tmp_path):
    """The Tokens view's first sum panel says E[ids] x embedding_multiplier 3.5 (not x √d), its bar colours
    E·3.5 and X, and its X is the model's (E[ids] x 3.5)."""
    mh.build("granite", tmp_path)
    window.controller.update(text=mh.TEXT)
    window.model_actions.open_spec(str(tmp_path))
    assert window.model_actions.wait_idle()
    window.controller.wait_idle()
    window.tabs.setCurrentIndex(list(window.views).index("tokens"))
    window.controller.wait_idle()
    view = window.views["tokens"]
    r = view.result
    assert r.family == "granite" and r.scale == 3.5 and not r.error
    assert view.sum.plots[0].titleLabel.text == "E[ids] × embedding_multiplier 3.5"
    assert view.sum.bar.axis.labelText == "E·3.5 and X"
    assert view.pages.tabText(view.pages.indexOf(view.sum)) == "X = E·3.5 (RoPE adds nothing here)"
    assert not view.scale_box.isChecked() and not view.scale_box.isEnabled()      # not × √d_model
    np.testing.assert_allclose(r.x, r.token_rows * np.float32(3.5), rtol=1e-6)
