"""T5 opens: its encoder's X, layer-0 q / k and logits with its relative position bias equal transformers' own T5 stack,
for tiny random checkpoints written by T5ForConditionalGeneration and T5EncoderModel (heads of d_kv 12, not
d_model / heads), and its buckets are T5Attention._relative_position_bucket's; bad settings are refused in one line."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from explorer.backend.models.t5_bias import bias_by_distance, relative_bucket
from explorer.errors import InputError
from tests import models_helpers as mh

pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
TINY = {"vocab_size": mh.VOCAB, "d_model": 32, "d_kv": 12, "d_ff": 48, "num_layers": 2, "num_heads": 4,
        "relative_attention_num_buckets": 8, "relative_attention_max_distance": 20, "layer_norm_epsilon": 0.01,
        "feed_forward_proj": "gated-gelu"}


def build_t5(folder, encoder_only: bool = False, seed: int = 0, **changes):
    """A random tiny T5 (T5EncoderModel when encoder_only, else T5ForConditionalGeneration) saved into folder."""
    from transformers import T5Config, T5EncoderModel, T5ForConditionalGeneration

    torch.manual_seed(seed)
    config = T5Config(**{**TINY, **changes})
    config._attn_implementation = "eager"
    return mh.save_random((T5EncoderModel if encoder_only else T5ForConditionalGeneration)(config).eval(), folder)


def reference(torch_model, ids) -> dict:
    """transformers' encoder: the hidden states entering blocks 0 and 1, layer 0's q and k (per head), its
    position_bias (compute_bias(n, n)) and every layer's attention weights."""
    enc = torch_model.encoder
    got: dict = {}
    att = enc.block[0].layer[0].SelfAttention

    def keep_input(i):
        def hook(module, args, kwargs):           # (returns None: the input is left as it is)
            got.setdefault(f"x{i}", (args[0] if args else kwargs["hidden_states"])[0].numpy().copy())
        return hook

    hooks = [enc.block[i].register_forward_pre_hook(keep_input(i), with_kwargs=True) for i in (0, 1)]
    keep = mh._keeper(got)
    hooks += [att.q.register_forward_hook(keep("q")), att.k.register_forward_hook(keep("k"))]
    try:
        with torch.no_grad():
            out = enc(input_ids=torch.as_tensor(np.asarray(ids)[None, :]), output_attentions=True)
            got["bias"] = att.compute_bias(len(ids), len(ids))[0].numpy()                     # (H, n, n)
    finally:
        for h in hooks:
            h.remove()
    n, heads = len(ids), torch_model.config.num_heads
    for key in ("q", "k"):
        got[key] = got[key].reshape(n, heads, -1).transpose(1, 0, 2)                          # (H, n, d_kv)
    got["attention"] = [a[0].numpy() for a in out.attentions]
    return got


def softmax(logits: np.ndarray) -> np.ndarray:
    """Over every key (an encoder masks none); float64."""
    z = logits.astype(np.float64)
    z = np.exp(z - z.max(axis=-1, keepdims=True))
    return z / z.sum(axis=-1, keepdims=True)


@pytest.mark.parametrize("encoder_only", [False, True])
def test_x_q_k_bias_and_attention_equal_transformers(tmp_path, encoder_only):
    torch_model = build_t5(tmp_path, encoder_only)
    with open_model(tmp_path) as model:
        cfg = model.config
        assert (cfg.family, cfg.position, cfg.n_heads, cfg.head_dim, cfg.score_scalar, cfg.relative_buckets) == (
            "t5", "relative", 4, 12, 1.0, (8, 20))
        ids = model.tokenize(" ".join([mh.TEXT] * 4)).ids                   # 52 tokens: past max_distance 20
        ref = reference(torch_model, ids)
        np.testing.assert_allclose(model.input_x(ids), ref["x0"], atol=1e-6, rtol=0)     # shared[ids], as stored
        np.testing.assert_array_equal(model.input_x(ids), model.rows(ids))
        assert model.positions(len(ids)) is None and model.positions_of(ids) is None    # nothing added
        qk = model.layer0_qk(ids)
        np.testing.assert_allclose(qk.q, ref["q"], atol=1e-5, rtol=1e-5)
        np.testing.assert_allclose(qk.k, ref["k"], atol=1e-5, rtol=1e-5)
        assert np.array_equal(qk.q_rot, qk.q) and np.array_equal(qk.k_rot, qk.k)          # nothing turns
        np.testing.assert_allclose(qk.logits_plain, np.einsum("hmd,hnd->hmn", qk.q, qk.k), atol=1e-5, rtol=1e-5)
        np.testing.assert_allclose(qk.logits - qk.logits_plain, ref["bias"], atol=1e-5, rtol=0)
        np.testing.assert_allclose(softmax(qk.logits), ref["attention"][0], atol=1e-5, rtol=0)
        # layer 1 reuses layer 0's bias (T5Stack passes position_bias on)
        later = model.layer0_qk(ref["x1"], layer=1)
        np.testing.assert_allclose(softmax(later.logits), ref["attention"][1], atol=1e-5, rtol=0)
        with pytest.raises(InputError, match="relative position bias on the attention scores, not RoPE"):
            model.rope_inv_freq()


def test_a_long_text_is_not_refused_and_the_bias_saturates(tmp_path):
    """No table limits T5's text: 300 tokens open, and every distance from max_distance on has one bias."""
    build_t5(tmp_path)
    with open_model(tmp_path) as model:
        ids = model.tokenize(" ".join([mh.TEXT] * 24)).ids
        assert len(ids) > 300
        qk = model.layer0_qk(ids)
        bias = qk.logits - qk.logits_plain                                               # (H, n, n)
        np.testing.assert_allclose(bias[:, 299, 0], bias[:, 299, 299 - 20], atol=1e-5)   # m − n 299 and 20
        assert not np.allclose(bias[:, 5, 0], bias[:, 5, 5], atol=1e-3)                  # near: not one bucket
        delta, by_distance = bias_by_distance(model.config, model.tensors, 30)
        weight = model.tensors.read("encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight")
        assert delta[0] == -30 and by_distance.shape == (4, 61)
        np.testing.assert_array_equal(by_distance[:, 30], weight[0])                     # m − n = 0: bucket 0
        np.testing.assert_array_equal(by_distance[:, 31], weight[1])             # key before (n - m = -1): lower half
        np.testing.assert_array_equal(by_distance[:, 29], weight[4 + 1])         # key after (n - m = 1): upper half


@pytest.mark.parametrize("buckets, distance", [(32, 128), (8, 20), (4, 2), (33, 128), (64, 1000), (32, 9)])
def test_buckets_are_t5s_relative_position_buckets(buckets, distance):
    """Bit for bit with torch loaded, and with numpy's float32 log as in a command without torch."""
    from transformers.models.t5.modeling_t5 import T5Attention

    rel = torch.arange(-3000, 3001)
    want = T5Attention._relative_position_bucket(rel, True, buckets, distance).numpy()
    np.testing.assert_array_equal(relative_bucket(rel.numpy(), buckets, distance), want)
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(sys.modules, "torch", None)
        np.testing.assert_array_equal(relative_bucket(rel.numpy(), buckets, distance), want)


def test_config_names_as_t5config_reads_them():
    """attribute_map: hidden_size, num_attention_heads, num_hidden_layers, head_dim win over d_model, num_heads,
    num_layers, d_kv; T5Config's defaults where config.json is silent."""
    from transformers import T5Config

    defaults = json.loads(json.dumps(T5Config().to_dict()))
    cfg = model_config(defaults)
    hf = T5Config()
    assert (cfg.d_model, cfg.head_dim, cfg.n_heads, cfg.n_layers, cfg.norm_eps, cfg.relative_buckets) == (
        hf.d_model, hf.d_kv, hf.num_heads, hf.num_layers, hf.layer_norm_epsilon,
        (hf.relative_attention_num_buckets, hf.relative_attention_max_distance))
    written = {"model_type": "t5", "d_model": 48, "hidden_size": 40, "num_heads": 4, "num_attention_heads": 5,
               "num_layers": 3, "num_hidden_layers": 2, "d_kv": 8, "head_dim": 6, "vocab_size": 64}
    hf = T5Config(**{k: v for k, v in written.items() if k != "model_type"})
    cfg = model_config(written)
    assert (cfg.d_model, cfg.n_heads, cfg.n_layers, cfg.head_dim) == (hf.d_model, hf.num_heads, hf.num_layers,
                                                                       hf.d_kv)
    # google-t5/t5-small's config.json (as printed from T5Model.from_pretrained("t5-small") in the search corpus):
    # d_model 512, d_kv 64, d_ff 2048, num_heads 8, num_layers 6, 32 buckets, max distance 128, relu
    small = {"model_type": "t5", "architectures": ["T5WithLMHeadModel"], "d_ff": 2048, "d_kv": 64, "d_model": 512,
             "feed_forward_proj": "relu", "layer_norm_epsilon": 1e-06, "n_positions": 512, "num_decoder_layers": 6,
             "num_heads": 8, "num_layers": 6, "relative_attention_max_distance": 128,
             "relative_attention_num_buckets": 32, "vocab_size": 32128}
    cfg = model_config(small)
    assert (cfg.d_model, cfg.n_heads, cfg.head_dim, cfg.relative_buckets, cfg.score_scalar) == (512, 8, 64,
                                                                                                 (32, 128), 1.0)
    # a flan-t5 (google/flan-t5-large's layout): gated-gelu, untied embeddings, heads of 64 in 1,024
    flan = {**small, "d_model": 1024, "d_ff": 2816, "num_heads": 16, "num_layers": 24, "num_decoder_layers": 24,
            "feed_forward_proj": "gated-gelu", "dense_act_fn": "gelu_new", "is_gated_act": True,
            "tie_word_embeddings": False}
    cfg = model_config(flan)
    assert (cfg.d_model, cfg.n_heads, cfg.head_dim, cfg.n_layers, cfg.relative_buckets) == (1024, 16, 64, 24,
                                                                                            (32, 128))


@pytest.mark.parametrize("changes, match", [
    ({"relative_attention_num_buckets": 2}, "relative_attention_num_buckets is 2; an encoder's bucket rule"),
    ({"relative_attention_num_buckets": 32, "relative_attention_max_distance": 8}, "must exceed the 8 exact"),
    ({"relative_attention_num_buckets": 0}, "relative_attention_num_buckets must be a positive integer"),
    ({"d_kv": 0}, "d_kv must be a positive integer"),
    ({"layer_norm_epsilon": "1e-6"}, "layer_norm_epsilon must be a positive number, not '1e-6'"),
])
def test_bad_configs_are_refused_in_one_line(changes, match):
    with pytest.raises(InputError, match=match) as info:
        model_config({"model_type": "t5", **TINY, **changes})
    assert "\n" not in str(info.value)


def test_transformers_cannot_run_what_is_refused():
    """The bucket settings refused above break transformers' own rule: a division by 0, or buckets outside the
    table (an index error in its nn.Embedding)."""
    from transformers.models.t5.modeling_t5 import T5Attention

    rel = torch.arange(-40, 41)
    for buckets, distance in ((2, 128), (32, 8), (32, 4)):
        try:
            b = T5Attention._relative_position_bucket(rel, True, buckets, distance)
        except ZeroDivisionError:
            continue
        assert (b < 0).any() or (b >= buckets).any()


@pytest.mark.parametrize("suffix, change, match, at_open", [
    ("encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", lambda a: None,
     "no tensor 'encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight'", True),
    ("encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", lambda a: a[:6],
     r"relative_attention_bias.weight has shape \(6, 4\); config.json says \(8, 4\)", True),
    ("encoder.block.0.layer.0.SelfAttention.q.weight", lambda a: a[:40], "q.weight has shape", False),
    ("encoder.block.0.layer.0.layer_norm.weight", lambda a: a[:8], r"layer_norm.weight has shape \(8,\)", False),
])
def test_damaged_checkpoints_are_refused_in_one_line(tmp_path, suffix, change, match, at_open):
    build_t5(tmp_path)
    mh.rewrite_tensor(tmp_path, suffix, change)
    with pytest.raises(InputError, match=match) as info:
        with open_model(tmp_path) as model:
            assert not at_open
            model.layer0_qk(model.tokenize(mh.TEXT).ids)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("encoder_only", [False, True])
def test_mt5_opens_as_t5_with_mt5configs_defaults(tmp_path, encoder_only):
    """mT5 (google/mt5-*: model_type "mt5") runs T5's layers under MT5 names (modeling_mt5.py) with the same tensor
    names; its config class has its own defaults (8 layers of 6 heads where T5Config has 6 of 8). X, q, k, the
    relative bias and layer 0's attention equal MT5EncoderModel's / MT5ForConditionalGeneration's own."""
    from transformers import MT5Config, MT5EncoderModel, MT5ForConditionalGeneration

    defaults = model_config({"model_type": "mt5", "vocab_size": 64})
    hf = MT5Config(vocab_size=64)
    assert (defaults.family, defaults.n_layers, defaults.n_heads, defaults.head_dim, defaults.relative_buckets) == (
        "t5", hf.num_layers, hf.num_heads, hf.d_kv,
        (hf.relative_attention_num_buckets, hf.relative_attention_max_distance)) == ("t5", 8, 6, 64, (32, 128))
    torch.manual_seed(1)
    config = MT5Config(**TINY)
    config._attn_implementation = "eager"
    torch_model = mh.save_random((MT5EncoderModel if encoder_only else MT5ForConditionalGeneration)(config).eval(),
                                 tmp_path)
    with open_model(tmp_path) as model:
        assert (model.config.model_type, model.config.family, model.config.position) == ("mt5", "t5", "relative")
        ids = model.tokenize(mh.TEXT).ids
        ref = reference(torch_model, ids)
        np.testing.assert_allclose(model.input_x(ids), ref["x0"], atol=1e-6, rtol=0)
        qk = model.layer0_qk(ids)
        np.testing.assert_allclose(qk.logits - qk.logits_plain, ref["bias"], atol=1e-5, rtol=0)
        np.testing.assert_allclose(softmax(qk.logits), ref["attention"][0], atol=1e-5, rtol=0)
