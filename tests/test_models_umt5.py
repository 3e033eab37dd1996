"""UMT5 (google/umt5-*: model_type "umt5") opens as T5 with UMT5Config's defaults and a relative_attention_bias in
every layer (transformers 5.25 models/umt5/modeling_umt5.py: UMT5LayerSelfAttention builds UMT5Attention with
has_relative_attention_bias=True in each block). X, layer-0 q / k, the bias and the attention equal
UMT5EncoderModel's / UMT5ForConditionalGeneration's own; layer 1 adds its own table, not layer 0's."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh
from tests.test_models_t5 import TINY, reference, softmax

pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
BIAS1 = "encoder.block.1.layer.0.SelfAttention.relative_attention_bias.weight"


def build_umt5(folder, encoder_only: bool = False, seed: int = 2):
    """A random tiny UMT5 (UMT5EncoderModel when encoder_only, else UMT5ForConditionalGeneration) saved into folder."""
    from transformers import UMT5Config, UMT5EncoderModel, UMT5ForConditionalGeneration

    torch.manual_seed(seed)
    config = UMT5Config(**TINY)
    config._attn_implementation = "eager"
    cls = UMT5EncoderModel if encoder_only else UMT5ForConditionalGeneration
    return mh.save_random(cls(config).eval(), folder)


def test_umt5config_defaults():
    """Where config.json is silent: UMT5Config's 8 layers of 6 heads of 64, 32 buckets, max distance 128."""
    from transformers import UMT5Config

    cfg = model_config({"model_type": "umt5", "vocab_size": 64})
    hf = UMT5Config(vocab_size=64)
    assert (cfg.family, cfg.position, cfg.d_model, cfg.n_layers, cfg.n_heads, cfg.head_dim, cfg.norm_eps,
            cfg.relative_buckets, cfg.score_scalar) == (
        "t5", "relative", hf.d_model, hf.num_layers, hf.num_heads, hf.d_kv, hf.layer_norm_epsilon,
        (hf.relative_attention_num_buckets, hf.relative_attention_max_distance), 1.0) == (
        "t5", "relative", 512, 8, 6, 64, 1e-6, (32, 128), 1.0)


@pytest.mark.parametrize("encoder_only", [False, True])
def test_x_q_k_bias_and_attention_equal_transformers(tmp_path, encoder_only):
    torch_model = build_umt5(tmp_path, encoder_only)
    with open_model(tmp_path) as model:
        cfg = model.config
        assert (cfg.model_type, cfg.family, cfg.position, cfg.n_heads, cfg.head_dim, cfg.relative_buckets) == (
            "umt5", "t5", "relative", 4, 12, (8, 20))
        ids = model.tokenize(" ".join([mh.TEXT] * 3)).ids                   # 39 tokens: past max_distance 20
        ref = reference(torch_model, ids)
        np.testing.assert_allclose(model.input_x(ids), ref["x0"], atol=1e-6, rtol=0)     # shared[ids]
        qk = model.layer0_qk(ids)
        np.testing.assert_allclose(qk.q, ref["q"], atol=1e-5, rtol=1e-5)
        np.testing.assert_allclose(qk.k, ref["k"], atol=1e-5, rtol=1e-5)
        np.testing.assert_allclose(qk.logits_plain, np.einsum("hmd,hnd->hmn", qk.q, qk.k), atol=1e-5, rtol=1e-5)
        np.testing.assert_allclose(qk.logits - qk.logits_plain, ref["bias"], atol=1e-5, rtol=0)
        np.testing.assert_allclose(softmax(qk.logits), ref["attention"][0], atol=1e-5, rtol=0)
        np.testing.assert_array_equal(model.relative_bias_table(), model.tensors.read(
            "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight"))
        # layer 1 adds its own table (UMT5Attention.compute_bias in every layer), which differs from layer 0's
        later = model.layer0_qk(ref["x1"], layer=1)
        np.testing.assert_allclose(softmax(later.logits), ref["attention"][1], atol=1e-5, rtol=0)
        own = torch_model.encoder.block[1].layer[0].SelfAttention.compute_bias(len(ids), len(ids))[0].detach().numpy()
        np.testing.assert_allclose(later.logits - later.logits_plain, own, atol=1e-5, rtol=0)
        assert not np.allclose(own, ref["bias"], atol=1e-2)


@pytest.mark.parametrize("change, match", [
    (lambda a: None, f"no tensor '{BIAS1}'"),
    (lambda a: a[:, :3], r"block\.1\..*relative_attention_bias.weight has shape \(8, 3\); config.json says \(8, 4\)"),
])
def test_a_later_layers_damaged_table_is_refused_in_one_line(tmp_path, change, match):
    """Layer 0 opens; layer 1's q·k needs its own table, refused in one line when missing or misshapen."""
    build_umt5(tmp_path)
    mh.rewrite_tensor(tmp_path, BIAS1, change)
    with open_model(tmp_path) as model:
        model.layer0_qk(model.tokenize(mh.TEXT).ids)
        with pytest.raises(InputError, match=match) as info:
            model.layer0_qk(np.ones((5, 32), np.float32), layer=1)
    assert "\n" not in str(info.value)


def test_a_missing_layer0_table_is_refused_at_open(tmp_path):
    build_umt5(tmp_path, encoder_only=True)
    mh.rewrite_tensor(tmp_path, "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight",
                      lambda a: None)
    with pytest.raises(InputError, match="no tensor 'encoder.block.0.layer.0.SelfAttention.relative_attention_b"
                                         "ias.weight'") as info:
        open_model(tmp_path).close()
    assert "\n" not in str(info.value)
