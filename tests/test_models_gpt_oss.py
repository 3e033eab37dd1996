"""GPT-OSS checkpoints (model_type "gpt_oss") against transformers' GptOssConfig and GptOssForCausalLM, and the
sliding windows of the other families that have them.

What differs from Llama at layer 0: q/k/v biases by default; RoPE is YaRN (x32 from 4,096 positions, base
150,000, not truncated) when config.json names no rope settings; the layers alternate sliding (128 tokens by
default) and full attention, layer 0 sliding; and each head's softmax has one more slot, a learned sink logit
(self_attn.sinks) that no key fills, so a query's weights over the keys add up to less than 1. The plain X, q/k,
RoPE and attention checks run with every other family in tests/test_models_families.py.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from explorer.backend.rope_scaling import inv_frequencies
from explorer.compute.qk import sink_share
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")


def test_the_gpt_oss_defaults_read_as_transformers_reads_them():
    """GptOssConfig() (gpt-oss-120b's sizes): 2880 wide, 64 heads of 64 (not 2880 / 64), 8 kv heads, q/k biases,
    YaRN x32 from 4,096 at base 150,000 without truncation, RMSNorm eps 1e-5, 131,072 positions, layers
    alternating sliding (128 tokens) and full, sinks."""
    hf = tf.GptOssConfig()
    cfg = model_config(json.loads(json.dumps(hf.to_dict())))
    assert (cfg.family, cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim) == (
        "gpt_oss", hf.hidden_size, hf.num_attention_heads, hf.num_key_value_heads, hf.head_dim) == (
        "gpt_oss", 2880, 64, 8, 64)
    rope = hf.rope_parameters
    s = cfg.rope_scaling
    assert (cfg.rope_base, s.rope_type, s.factor, s.original_max_position_embeddings, s.beta_fast, s.beta_slow,
            s.truncate) == (rope["rope_theta"], rope["rope_type"], rope["factor"],
                            rope["original_max_position_embeddings"], rope["beta_fast"], rope["beta_slow"],
                            rope["truncate"]) == (150000.0, "yarn", 32.0, 4096, 32.0, 1.0, False)
    assert (cfg.norm_eps, cfg.max_positions, cfg.qk_bias) == (
        hf.rms_norm_eps, hf.max_position_embeddings, hf.attention_bias) == (1e-5, 131072, True)
    assert cfg.layer_types == tuple(hf.layer_types)
    assert [cfg.window_of(i) for i in range(4)] == [hf.sliding_window, None] * 2 == [128, None] * 2
    assert cfg.attention_sinks and cfg.rope_type_label == "yarn ×32 (4096 → 131072)"


@pytest.mark.parametrize("keys", [{}, {"rope_theta": 900.0}, {"rope_scaling": None}])
def test_a_config_without_rope_settings_gets_gpt_oss_configs_yarn(tmp_path, keys):
    """No rope_parameters and no set rope_scaling: GptOssConfig's YaRN (x32 from 4,096, not truncated) at
    rope_theta or 150,000, as transformers reads the same file (save_pretrained always writes the dict, so
    only a hand-written config.json takes this path)."""
    written = {"model_type": "gpt_oss", "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
               "num_key_value_heads": 2, "head_dim": 8, "vocab_size": 10, **keys}
    (tmp_path / "config.json").write_text(json.dumps(written))
    hf = tf.AutoConfig.from_pretrained(tmp_path)
    inv_freq, scale = tf.modeling_rope_utils.ROPE_INIT_FUNCTIONS["yarn"](hf, "cpu")
    cfg = model_config(written)
    assert (cfg.rope_scaling.rope_type, cfg.rope_scaling.truncate, cfg.rope_base) == (
        hf.rope_parameters["rope_type"], False, keys.get("rope_theta", 150000.0)) == ("yarn", False, cfg.rope_base)
    ours = inv_frequencies(cfg.head_dim, cfg.rope_base, cfg.rope_scaling, None, cfg.max_positions)
    np.testing.assert_allclose(ours.inv_freq, inv_freq.numpy(), rtol=1e-6)
    assert ours.attention_factor == pytest.approx(scale)


def test_the_published_4x_config_reads_as_transformers_reads_it(tmp_path):
    """openai/gpt-oss-20b's config.json as transformers 4.x wrote it (rope_theta beside rope_scaling; values
    from the model card's config, hf-model-inspector's report of it) gives transformers' own RoPE."""
    written = {"model_type": "gpt_oss", "hidden_size": 2880, "num_hidden_layers": 24, "num_attention_heads": 64,
               "num_key_value_heads": 8, "head_dim": 64, "vocab_size": 201088, "max_position_embeddings": 131072,
               "rope_theta": 150000, "sliding_window": 128, "attention_bias": True, "rms_norm_eps": 1e-05,
               "rope_scaling": {"beta_fast": 32.0, "beta_slow": 1.0, "factor": 32.0,
                                "original_max_position_embeddings": 4096, "rope_type": "yarn", "truncate": False}}
    (tmp_path / "config.json").write_text(json.dumps(written))
    hf = tf.AutoConfig.from_pretrained(tmp_path)
    inv_freq, scale = tf.modeling_rope_utils.ROPE_INIT_FUNCTIONS["yarn"](hf, "cpu")
    cfg = model_config(written)
    ours = inv_frequencies(cfg.head_dim, cfg.rope_base, cfg.rope_scaling, None, cfg.max_positions)
    np.testing.assert_allclose(ours.inv_freq, inv_freq.numpy(), rtol=1e-6)
    assert ours.attention_factor == pytest.approx(scale) and scale > 1.3      # YaRN's 0.1 ln 32 + 1
    assert cfg.layer_types == tuple(hf.layer_types) and cfg.window_of(0) == 128


@pytest.mark.parametrize("extra, layout", [
    ({}, "5.x"), ({}, "4.x"),                                      # the class's YaRN, at base 150,000
    ({"rope_parameters": {"rope_type": "default", "rope_theta": 300.0}}, "4.x"),
    ({"attention_bias": False, "sliding_window": 3}, "5.x"),
    ({"layer_types": ["full_attention", "sliding_attention"]}, "5.x")])   # layer 0 reads every key
def test_a_gpt_oss_folder_equals_transformers_layer_0(tmp_path, extra, layout):
    """X, q and k after RoPE and the softmax over the window's keys and the sink equal transformers' model of
    the same folder, for 52 tokens."""
    torch.manual_seed(17)
    config = tf.GptOssConfig(**{**mh.FAMILIES["gpt_oss"], **extra})
    rewrite = mh.to_4x_config if layout == "4.x" else (lambda folder: None)
    mh.assert_reloaded_as_transformers(tf.GptOssForCausalLM, config, tmp_path, "gpt_oss", rewrite, 8)
    with open_model(tmp_path) as model:
        qk = model.layer0_qk(model.tokenize(mh.TEXT).ids)
        assert qk.window == (None if "layer_types" in extra else extra.get("sliding_window", 6))
        assert qk.sinks.shape == (4,)
        assert model.config.qk_bias == extra.get("attention_bias", True)


def test_the_window_and_the_sinks_are_what_transformers_applies(tmp_path):
    """transformers' attention of layer 0 is 0 exactly for keys 6 or more tokens back, and each query's weights
    add up to 1 - its sink's share: PE Explorer's window and sink logits give both."""
    torch_model = mh.build("gpt_oss", tmp_path)
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        qk = model.layer0_qk(ids)
    with torch.no_grad():
        out = torch_model(input_ids=torch.as_tensor(np.asarray(ids)[None, :]), output_attentions=True)
    want = out.attentions[0][0].numpy()                                                  # (H, n, n)
    m, k = np.indices((len(ids), len(ids)))
    assert qk.window == 6 and np.all(want[:, (m - k >= 6) | (k > m)] == 0)
    assert np.all(want[:, (m - k < 6) & (k <= m)] > 0)
    np.testing.assert_allclose(qk.sinks, torch_model.model.layers[0].self_attn.sinks.detach().numpy(), rtol=0)
    ours = mh.attention_of(qk)
    np.testing.assert_allclose(ours.sum(axis=-1), want.sum(axis=-1), atol=1e-5)
    assert np.all(want.sum(axis=-1) <= 1 + 1e-6) and want.sum(axis=-1).min() < 0.5    # the sink's share
    # the Real RoPE view's "on average N% of a query's weights": 1 - the weights over the keys, over the queries
    np.testing.assert_allclose(sink_share(qk.logits, qk.sinks, qk.window), 1 - want.sum(axis=-1).mean(axis=-1),
                               atol=1e-5)


@pytest.mark.parametrize("change, match", [
    (lambda w: None, r"sinks"),                                     # missing
    (lambda w: w[:2], r"sinks has shape \(2,\), not \(4,\)")])
def test_missing_or_misshapen_sinks_are_named(tmp_path, change, match):
    mh.assert_damaged_refused("gpt_oss", tmp_path, "layers.0.self_attn.sinks", change, match)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_sinks_are_named(tmp_path, bad):
    """A NaN or inf sink is named (the view's red warning); the Real RoPE view's result has no share for that
    head (NaN, not a warning turned error) and the others' shares as usual."""
    from explorer.compute.qk import qk_view
    from explorer.params import Params

    mh.build("gpt_oss", tmp_path)
    name = mh.rewrite_tensor(tmp_path, "layers.0.self_attn.sinks", lambda w: np.where(np.arange(4) == 1, bad, w))
    with open_model(tmp_path) as model:
        qk = model.layer0_qk(model.tokenize(mh.TEXT).ids)
    assert not qk.finite and qk.bad_tensors == (name.removeprefix("model."),)
    r = qk_view(Params(model=str(tmp_path), text=mh.TEXT))
    assert not r.error and np.isnan(r.sink_share[1]) and np.isfinite(r.sink_share[[0, 2, 3]]).all()


@pytest.mark.parametrize("keys, match", [
    ({"sliding_window": 0}, r"sliding_window must be a whole number from 1 to 2\^31 - 1 or null, not 0"),
    ({"sliding_window": 4.5}, r"sliding_window must be a whole number from 1 to 2\^31 - 1 or null, not 4\.5"),
    ({"sliding_window": True}, r"sliding_window must be a whole number from 1 to 2\^31 - 1 or null, not True"),
    ({"sliding_window": 2**31}, r"sliding_window must be a whole number from 1 to 2\^31 - 1 or null, not 2147483648"),
    ({"use_bidirectional_attention": 1}, None),        # (not read for GPT-OSS)
    ({"layer_types": ["sliding_attention"]}, r"layer_types must list 2 of sliding_attention / full_attention"),
    ({"layer_types": "full"}, r"layer_types must list 2 of")])
def test_bad_window_keys_are_refused_in_one_line(keys, match):
    from explorer.errors import InputError

    cfg = {"model_type": "gpt_oss", "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
           "num_key_value_heads": 2, "vocab_size": 10, **keys}
    if match is None:
        model_config(cfg)
        return
    with pytest.raises(InputError, match=match) as info:
        model_config(cfg)
    assert "\n" not in str(info.value)


def test_missing_head_dim_and_kv_heads_read_as_gpt_oss_config(tmp_path):
    """GptOssConfig's head_dim 64 and 8 kv heads when config.json has none (not 32 / 16 and one kv head a
    head), as transformers reads the same file."""
    cfg = {"model_type": "gpt_oss", "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 16,
           "vocab_size": 10}
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    hf = tf.AutoConfig.from_pretrained(tmp_path)
    ours = model_config(cfg)
    assert (ours.head_dim, ours.n_kv_heads) == (hf.head_dim, hf.num_key_value_heads) == (64, 8)


def test_export_qk_writes_the_window_and_the_sinks(tmp_path, capsys):
    """`export qk` of a GPT-OSS folder: the logits, its layer 0's window (6) and the heads' sink logits, so the
    file alone gives transformers' attention weights; a Llama file has neither."""
    from explorer.commands.cli import main

    torch_model = mh.build("gpt_oss", tmp_path / "gpt_oss")
    assert main(["export", "qk", "--model", str(tmp_path / "gpt_oss"), "--text", mh.TEXT,
                 "-o", str(tmp_path / "f.npz")]) == 0
    f = np.load(tmp_path / "f.npz")
    assert int(f["window"]) == 6 and f["sinks"].shape == (4,)
    ids = [mh.WORDS.index(w) + 1 for w in mh.TEXT.split()]
    with torch.no_grad():
        out = torch_model(input_ids=torch.as_tensor(np.asarray(ids)[None, :]), output_attentions=True)

    class Saved:
        logits, window, sinks, chunk = f["logits"], int(f["window"]), f["sinks"], None

    np.testing.assert_allclose(mh.attention_of(Saved), out.attentions[0][0].numpy(), atol=1e-5)
    mh.build("llama", tmp_path / "llama")
    assert main(["export", "qk", "--model", str(tmp_path / "llama"), "--text", mh.TEXT,
                 "-o", str(tmp_path / "g.npz")]) == 0
    assert not {"window", "sinks", "chunk"} & set(np.load(tmp_path / "g.npz").files)
