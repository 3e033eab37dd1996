"""MPT (ALiBi) opens: X, layer-0 q / k, the head slopes and the attention equal transformers' own MptModel, for tiny
random checkpoints written by MptForCausalLM; its config.json as mpt-7b's reads; what transformers' MPT does not run
is refused in one line."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

from explorer.backend.models.bloom import alibi_bias, alibi_slopes
from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from explorer.backend.models.mpt import mpt_alibi_slopes
from explorer.errors import InputError
from explorer.params import Params
from tests import models_helpers as mh

pytest.importorskip("transformers")
torch = pytest.importorskip("torch")


def _build(folder, heads: int = 4, seed: int = 0, **attn):
    """A random tiny MPT of `heads` heads of 8 channels (MptForCausalLM, 40 positions) saved into folder with the test
    tokenizer; the torch model. attn: attn_config's keys (alibi_bias_max, clip_qkv, softmax_scale)."""
    from transformers import MptConfig, MptForCausalLM

    torch.manual_seed(seed)
    config = MptConfig(d_model=8 * heads, n_heads=heads, n_layers=2, max_seq_len=40, vocab_size=mh.VOCAB,
                       layer_norm_epsilon=0.01, attn_config={"alibi": True, **attn})
    config._attn_implementation = "eager"
    return mh.save_random(MptForCausalLM(config).eval(), folder)


def _reference(torch_model, ids) -> dict:
    """transformers' X (layer 0's input), layer 0's Wqkv output cut into whole q, k blocks (clamped as MptAttention
    clamps it), and its attention weights."""
    base = torch_model.transformer
    got: dict = {}
    hooks = [base.blocks[0].register_forward_pre_hook(lambda m, a: got.update(x=a[0][0].numpy().copy())),
             base.blocks[0].attn.Wqkv.register_forward_hook(lambda m, i, o: got.update(qkv=o[0].numpy().copy()))]
    try:
        with torch.no_grad():
            out = torch_model(input_ids=torch.as_tensor(np.asarray(ids)[None, :]), output_attentions=True)
    finally:
        for h in hooks:
            h.remove()
    clip, heads = base.config.attn_config.clip_qkv, base.config.n_heads
    qkv = np.clip(got["qkv"], -clip, clip) if clip else got["qkv"]
    q, k, _ = np.split(qkv, 3, axis=-1)                                            # (n, H hd) each, chunk(3)
    per_head = lambda t: t.reshape(len(ids), heads, -1).transpose(1, 0, 2)          # noqa: E731 (H, n, hd)
    return {"x": got["x"], "q": per_head(q), "k": per_head(k), "attention": out.attentions[0][0].numpy()}


def _softmax(logits: np.ndarray) -> np.ndarray:
    n = logits.shape[-1]
    scores = np.where(np.tri(n, dtype=bool), logits, -np.inf).astype(np.float64)
    probs = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return probs / probs.sum(axis=-1, keepdims=True)


@pytest.mark.parametrize("heads, attn", [(4, {}), (6, {}), (12, {"clip_qkv": 0.8}), (4, {"softmax_scale": 0.2})])
def test_x_q_k_and_attention_equal_transformers(tmp_path, heads, attn):
    reference = _build(tmp_path, heads, **attn)
    with open_model(tmp_path) as model:
        cfg = model.config
        assert (cfg.family, cfg.position, cfg.n_heads, cfg.head_dim, cfg.rope_scaling, cfg.max_positions) == (
            "mpt", "alibi", heads, 8, None, 40)
        ids = model.tokenize(mh.TEXT).ids
        ref = _reference(reference, ids)
        np.testing.assert_allclose(model.input_x(ids), ref["x"], atol=1e-6, rtol=1e-6)   # wte[ids], nothing added
        assert model.positions(len(ids)) is None
        qk = model.layer0_qk(ids)
        np.testing.assert_allclose(qk.q, ref["q"], atol=1e-5, rtol=1e-5)
        np.testing.assert_allclose(qk.k, ref["k"], atol=1e-5, rtol=1e-5)
        assert np.array_equal(qk.q_rot, qk.q) and np.array_equal(qk.k_rot, qk.k)       # no rotation
        scale = attn.get("softmax_scale", 1 / np.sqrt(8.0))
        np.testing.assert_allclose(qk.logits_plain, np.einsum("hmd,hnd->hmn", qk.q, qk.k) * scale, atol=1e-5,
                                   rtol=1e-5)
        want_slopes = mpt_alibi_slopes(heads)
        assert np.array_equal(qk.slopes, want_slopes) and np.array_equal(model.alibi_slopes(), want_slopes)
        np.testing.assert_array_equal(qk.logits, qk.logits_plain + alibi_bias(qk.slopes, len(ids)))
        # slope · (n − m) is softmax-equal to MPT's slope · (n − (max_seq_len − 1)), sliced to the keys
        np.testing.assert_allclose(_softmax(qk.logits), ref["attention"], atol=1e-5)
        if "clip_qkv" in attn:                                   # the clamp bites: some of q or k sit on it
            assert np.isclose(np.abs(np.concatenate([qk.q, qk.k])).max(), 0.8)


def test_a_text_past_max_seq_len_is_refused(tmp_path):
    _build(tmp_path)
    with open_model(tmp_path) as model:
        ids = model.tokenize(" ".join([mh.TEXT] * 4)).ids                     # 52 tokens, max_seq_len 40
        assert len(ids) > 40
        with pytest.raises(InputError, match="longer than MPT's max_seq_len of 40") as info:
            model.layer0_qk(ids)
        assert "\n" not in str(info.value)
        model.input_x(ids)                                                    # X needs no positions


@pytest.mark.parametrize("heads", [1, 3, 6, 8, 12, 16, 24, 32])
@pytest.mark.parametrize("bias_max", [8, 16])
def test_slopes_are_build_mpt_alibi_tensors(heads, bias_max):
    """Bit for bit with torch loaded; numpy's within an ulp. With alibi_bias_max 8 they are BLOOM's slopes (its rule
    for a head count that is no power of 2 comes to the same list) up to the last bits of float32; with 16 not."""
    from transformers.models.mpt.modeling_mpt import build_mpt_alibi_tensor

    alibi = build_mpt_alibi_tensor(heads, 5, bias_max)                       # (H, 1, 5): slope · (n − 4)
    want = -alibi[:, 0, 3].numpy()
    assert np.array_equal(mpt_alibi_slopes(heads, bias_max), want)
    np.testing.assert_array_equal(alibi[:, 0].numpy(), want[:, None] * np.arange(-4, 1, dtype=np.float32))
    from pytest import MonkeyPatch

    with MonkeyPatch.context() as mp:
        mp.setitem(sys.modules, "torch", None)
        np.testing.assert_allclose(mpt_alibi_slopes(heads, bias_max), want, rtol=2e-7, atol=0)
    if bias_max == 8:
        np.testing.assert_allclose(want, alibi_slopes(heads), rtol=1e-6, atol=0)
        assert heads < 12 or not np.array_equal(want, alibi_slopes(heads))      # made otherwise: last bits apart
    else:
        assert not np.allclose(want, alibi_slopes(heads))


# mpt-7b-instruct's config.json as a public description of the model quotes it (code search: "MPT-7b-instruct"
# "original config"): mosaicml/mpt-7b has the same d_model, n_heads, n_layers, max_seq_len and attn_config (the
# README's mpt-7b preset: llm-foundry's scripts/train/yamls/pretrain/mpt-7b.yaml)
MPT_7B = {"architectures": ["MPTForCausalLM"],
          "attn_config": {"alibi": True, "alibi_bias_max": 8, "attn_impl": "torch", "attn_pdrop": 0,
                          "attn_type": "multihead_attention", "attn_uses_sequence_id": False, "clip_qkv": None,
                          "prefix_lm": False, "qk_ln": False, "softmax_scale": None},
          "d_model": 4096, "emb_pdrop": 0, "embedding_fraction": 1.0, "expansion_ratio": 4, "init_device": "cpu",
          "learned_pos_emb": True, "logit_scale": None, "max_seq_len": 2048, "model_type": "mpt", "n_heads": 32,
          "n_layers": 32, "no_bias": True, "norm_type": "low_precision_layernorm", "resid_pdrop": 0,
          "tokenizer_name": "EleutherAI/gpt-neox-20b", "torch_dtype": "bfloat16", "use_cache": False, "verbose": 0,
          "vocab_size": 50432}


def test_config_reads_as_mpt_7b_and_as_mptconfig():
    cfg = model_config(MPT_7B)
    assert (cfg.family, cfg.d_model, cfg.n_heads, cfg.head_dim, cfg.n_layers, cfg.max_positions, cfg.vocab_size,
            cfg.dtype, cfg.position, cfg.qk_bias, cfg.qkv_clip, cfg.score_scalar, cfg.attention_refusal) == (
        "mpt", 4096, 32, 128, 32, 2048, 50432, "bfloat16", "alibi", False, None, 0.0, None)
    from explorer.compute.qk_formula import _logit

    assert "/ √head_dim (√128)" in _logit(cfg)
    scaled = model_config({**MPT_7B, "attn_config": {**MPT_7B["attn_config"], "softmax_scale": 0.2}})
    assert scaled.score_scalar == pytest.approx(25.0) and "× softmax_scale (0.2)" in _logit(scaled)
    from transformers import MptConfig

    defaults = json.loads(json.dumps(MptConfig().to_dict()))                # MptConfig's own defaults
    cfg = model_config(defaults)
    assert (cfg.d_model, cfg.n_heads, cfg.n_layers, cfg.max_positions, cfg.norm_eps) == (2048, 16, 24, 2048, 1e-5)
    # attribute_map: hidden_size, num_attention_heads and num_hidden_layers are other names of these
    hf = MptConfig(d_model=64, n_heads=4, hidden_size=48, num_attention_heads=6, n_layers=3, num_hidden_layers=5)
    cfg = model_config({**MPT_7B, "d_model": 64, "n_heads": 4, "hidden_size": 48, "num_attention_heads": 6,
                        "n_layers": 3, "num_hidden_layers": 5})
    assert (cfg.d_model, cfg.n_heads, cfg.n_layers) == (hf.d_model, hf.n_heads, hf.n_layers) == (48, 6, 5)


@pytest.mark.parametrize("change, match", [
    ({"attn_config": {"alibi": False}}, "attn_config.alibi is false; transformers' MPT always uses ALiBi"),
    ({"n_heads": 0}, "n_heads must be a positive integer, not 0"),
    ({"n_heads": 5}, "the hidden size 4096 is not a multiple of the 5 heads"),
    ({"attn_config": {"alibi_bias_max": -1}}, "alibi_bias_max must be a positive number, not -1"),
    ({"attn_config": {"softmax_scale": "x"}}, "softmax_scale must be a positive number or null"),
    ({"attn_config": {"clip_qkv": 0}}, "clip_qkv must be a positive number or null, not 0"),
    ({"attn_config": [1]}, "attn_config must be an object"),
    ({"attn_config": {"alibi": "yes"}}, "alibi must be true or false"),
])
def test_bad_configs_are_one_line(change, match):
    with pytest.raises(InputError, match=match) as info:
        model_config({**MPT_7B, **change})
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("change, match", [
    ({"attn_config": {"qk_ln": True}}, "qk_ln is true: transformers' MPT applies no LayerNorm to q and k"),
    ({"attn_config": {"attn_type": "multiquery_attention"}}, "attn_type is 'multiquery_attention'"),
    ({"no_bias": False}, "no_bias is false: transformers' MPT reads no biases"),
    # MptModel builds its slopes without attn_config.alibi_bias_max: 8 whatever the config says
    ({"attn_config": {"alibi_bias_max": 12}}, "alibi_bias_max is 12: transformers' MPT makes its slopes with 8"),
])
def test_what_transformers_mpt_does_not_run_is_refused_for_layer_0(tmp_path, change, match):
    _build(tmp_path)
    path = tmp_path / "config.json"
    cfg = json.loads(path.read_text())
    path.write_text(json.dumps({**cfg, **change, "attn_config": {**cfg["attn_config"], **change.get("attn_config",
                                                                                                      {})}}))
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        model.input_x(ids)                                                    # X is shown
        with pytest.raises(InputError, match=match) as info:
            model.layer0_qk(ids)
        assert "\n" not in str(info.value)


def test_a_missing_wqkv_is_refused(tmp_path):
    _build(tmp_path)
    mh.rewrite_tensor(tmp_path, "blocks.0.attn.Wqkv.weight", lambda a: None)
    with open_model(tmp_path) as model:
        with pytest.raises(InputError, match="no tensor 'blocks.0.attn.Wqkv.weight'") as info:
            model.layer0_qk(model.tokenize(mh.TEXT).ids)
        assert "\n" not in str(info.value)
    mh.rewrite_tensor(tmp_path, "wte.weight", lambda a: a[:, :-1])
    with pytest.raises(InputError, match="the token table has shape") as info:
        open_model(tmp_path)


def test_the_real_rope_view_shows_mpt_with_and_without_its_bias(tmp_path):
    from explorer.compute import qk
    from explorer.compute.code import code_for
    from explorer.compute.formulas import formula_html

    _build(tmp_path, heads=6)
    params = Params(model=str(tmp_path), embedding_source="model", text=mh.TEXT)
    assert qk.choose_model(str(tmp_path)) == (str(tmp_path), "", "", "")
    r = qk.qk_view(params, qk.QkState(head=5))
    assert (r.error, r.alibi, r.head, r.n_heads) == ("", True, 5, 6)
    np.testing.assert_array_equal(r.slopes, mpt_alibi_slopes(6))
    n = r.n_shown
    np.testing.assert_allclose(r.by_distance_read[5, n - 1:] - r.by_distance_plain_read[5, n - 1:],
                               -r.slopes[5] * r.distance[n - 1:], atol=1e-5)
    html = formula_html("qk", params)
    assert "+ m<sub>h</sub> (n − m)" in html and "R(mθ)" not in html and "nothing turns" in html
    assert "X<sub>pos</sub> = E[id<sub>pos</sub>]</p>" in formula_html("tokens", params)
    code = code_for("tokens", params)
    assert "X = E[ids] (ALiBi: nothing added for position)" in code and "LayerNorm" not in code


def test_export_qk_writes_mpt_slopes(tmp_path):
    from explorer.commands.cli import main

    reference = _build(tmp_path / "mpt", heads=16)
    assert main(["export", "qk", "--model", str(tmp_path / "mpt"), "--text", mh.TEXT, "-o",
                 str(tmp_path / "f.npz")]) == 0
    f = np.load(tmp_path / "f.npz")
    ids = [mh.WORDS.index(w) + 1 for w in mh.TEXT.split()]
    np.testing.assert_array_equal(f["alibi_slopes"], mpt_alibi_slopes(16))        # (not BLOOM's, bit for bit)
    assert not np.array_equal(f["alibi_slopes"], alibi_slopes(16))
    np.testing.assert_allclose(f["k"], _reference(reference, ids)["k"], atol=1e-5, rtol=1e-5)
