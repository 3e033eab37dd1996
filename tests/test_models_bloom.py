"""BLOOM (ALiBi) opens: X, layer-0 q / k and the head slopes equal transformers' own BloomModel, for tiny random
checkpoints written by BloomForCausalLM ("transformer." names) and BloomModel (no prefix)."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

from explorer.backend.models.bloom import alibi_bias, alibi_slopes
from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from explorer.params import Params
from tests import models_helpers as mh

pytest.importorskip("transformers")
torch = pytest.importorskip("torch")


def _build(folder, heads: int = 4, base: bool = False, seed: int = 0):
    """A random tiny BLOOM of `heads` heads of 8 channels (BloomModel when base, else BloomForCausalLM) saved into
    folder with the test tokenizer; the torch model."""
    from transformers import BloomConfig, BloomForCausalLM, BloomModel

    torch.manual_seed(seed)
    config = BloomConfig(hidden_size=8 * heads, n_layer=2, n_head=heads, vocab_size=mh.VOCAB, layer_norm_epsilon=0.01)
    config._attn_implementation = "eager"
    return mh.save_random((BloomModel if base else BloomForCausalLM)(config).eval(), folder)


def _reference(torch_model, ids) -> dict:
    """transformers' X (word_embeddings_layernorm's output), layer 0's fused q/k/v split as BloomAttention._reshape
    splits it, and its attention weights."""
    base = getattr(torch_model, "transformer", torch_model)
    got: dict = {}
    hooks = [base.word_embeddings_layernorm.register_forward_hook(lambda m, i, o: got.update(x=o[0].numpy())),
             base.h[0].self_attention.query_key_value.register_forward_hook(
                 lambda m, i, o: got.update(qkv=o[0].numpy()))]
    try:
        with torch.no_grad():
            out = torch_model(input_ids=torch.as_tensor(np.asarray(ids)[None, :]), output_attentions=True)
    finally:
        for h in hooks:
            h.remove()
    heads = base.config.n_head
    fused = got["qkv"].reshape(len(ids), heads, 3, -1)                         # (n, H, 3, hd)
    return {"x": got["x"], "q": fused[:, :, 0].transpose(1, 0, 2), "k": fused[:, :, 1].transpose(1, 0, 2),
            "attention": out.attentions[0][0].numpy()}                         # (H, n, hd) x 2, (H, n, n)


@pytest.mark.parametrize("heads, base", [(4, False), (6, True), (12, False)])
def test_x_q_k_and_attention_equal_transformers(tmp_path, heads, base):
    reference = _build(tmp_path, heads, base)
    with open_model(tmp_path) as model:
        cfg = model.config
        assert (cfg.family, cfg.position, cfg.n_heads, cfg.head_dim, cfg.rope_scaling) == ("bloom", "alibi", heads, 8,
                                                                                          None)
        ids = model.tokenize(mh.TEXT).ids
        ref = _reference(reference, ids)
        np.testing.assert_allclose(model.input_x(ids), ref["x"], atol=1e-5, rtol=1e-5)
        assert model.positions(len(ids)) is None                                # nothing added for position
        qk = model.layer0_qk(ids)
        np.testing.assert_allclose(qk.q, ref["q"], atol=1e-5, rtol=1e-5)
        np.testing.assert_allclose(qk.k, ref["k"], atol=1e-5, rtol=1e-5)
        assert np.array_equal(qk.q_rot, qk.q) and np.array_equal(qk.k_rot, qk.k)    # no rotation
        want = np.einsum("hmd,hnd->hmn", qk.q, qk.k) / np.sqrt(8.0)
        np.testing.assert_allclose(qk.logits_plain, want, atol=1e-5, rtol=1e-5)        # without the bias
        assert np.array_equal(qk.slopes, model.alibi_slopes())
        np.testing.assert_array_equal(qk.logits, qk.logits_plain + alibi_bias(qk.slopes, len(ids)))
        # with each head's slope · (n - m) on the keys n <= m, the softmax is transformers' (slope · n)
        scores = qk.logits
        scores = np.where(np.tri(len(ids), dtype=bool), scores, -np.inf).astype(np.float64)
        probs = np.exp(scores - scores.max(axis=-1, keepdims=True))
        np.testing.assert_allclose(probs / probs.sum(axis=-1, keepdims=True), ref["attention"], atol=1e-5)


@pytest.mark.parametrize("heads", [1, 2, 3, 4, 6, 8, 12, 16, 24, 30, 32, 64, 112])
def test_slopes_are_build_alibi_tensors(heads):
    """Bit for bit with torch loaded (bloom-560m: 16 heads, bloom: 112); numpy's within an ulp."""
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor

    alibi = build_alibi_tensor(torch.ones(1, 5, dtype=torch.long), heads, torch.float32)    # (H, 1, 5): slope · n
    want = alibi[:, 0, 1].numpy()
    assert np.array_equal(alibi_slopes(heads), want)
    np.testing.assert_array_equal(alibi[:, 0].numpy(), alibi_slopes(heads)[:, None] * np.arange(5, dtype=np.float32))
    from pytest import MonkeyPatch

    with MonkeyPatch.context() as mp:
        mp.setitem(sys.modules, "torch", None)                                 # as in a command without torch
        np.testing.assert_allclose(alibi_slopes(heads), want, rtol=2e-7, atol=0)


def test_alibi_bias_is_slope_times_key_minus_query():
    b = alibi_bias(np.array([0.5, 0.25], np.float32), 3)                         # (2, 3, 3)
    assert b.shape == (2, 3, 3) and b.dtype == np.float32
    np.testing.assert_array_equal(b[0], 0.5 * np.array([[0, 1, 2], [-1, 0, 1], [-2, -1, 0]]))
    np.testing.assert_array_equal(b[1, 2], [-0.5, -0.25, 0.0])


def test_config_names_as_bloomconfig_reads_them():
    """attribute_map: num_attention_heads / num_hidden_layers win over n_head / n_layer; a 4.x n_embed over
    hidden_size; BloomConfig's defaults where config.json is silent."""
    from transformers import BloomConfig

    written = {"model_type": "bloom", "n_embed": 48, "hidden_size": 32, "n_head": 4, "num_attention_heads": 6,
               "n_layer": 3, "num_hidden_layers": 5, "vocab_size": 64}
    hf, cfg = BloomConfig(**{k: v for k, v in written.items() if k != "model_type"}), model_config(written)
    assert (cfg.d_model, cfg.n_heads, cfg.n_layers) == (hf.hidden_size, hf.num_attention_heads, hf.n_layer)
    assert (cfg.head_dim, cfg.n_kv_heads, cfg.qk_bias, cfg.layer_norms) == (8, 6, True, True)
    defaults = json.loads(json.dumps(BloomConfig().to_dict()))
    cfg = model_config(defaults)
    assert (cfg.d_model, cfg.n_heads, cfg.n_layers, cfg.norm_eps, cfg.position) == (64, 8, 2, 1e-5, "alibi")
    with pytest.raises(InputError, match="not a multiple of the 6 heads"):
        model_config({**written, "n_embed": 50})
    # bigscience/bloom-560m's config.json layout (4.x keys the class ignores: n_inner, offset_alibi, ...)
    published = {"model_type": "bloom", "hidden_size": 1024, "n_head": 16, "n_layer": 24, "n_inner": None,
                 "offset_alibi": 100, "attention_softmax_in_fp32": True, "masked_softmax_fusion": True,
                 "layer_norm_epsilon": 1e-05, "pretraining_tp": 1, "slow_but_exact": False, "torch_dtype": "float16",
                 "vocab_size": 250880, "apply_residual_connection_post_layernorm": False}
    cfg = model_config(published)
    assert (cfg.d_model, cfg.n_heads, cfg.head_dim, cfg.n_layers, cfg.dtype, cfg.position) == (
        1024, 16, 64, 24, "float16", "alibi")


def test_a_missing_embedding_layernorm_is_refused_at_open(tmp_path):
    _build(tmp_path)
    mh.rewrite_tensor(tmp_path, "word_embeddings_layernorm.bias", lambda a: None)
    with pytest.raises(InputError, match="no tensor 'word_embeddings_layernorm.bias'") as info:
        open_model(tmp_path)
    assert "\n" not in str(info.value)


def test_no_rope_and_no_learned_table_are_named_as_alibi(tmp_path):
    from explorer.compute import learned, models, qk
    from explorer.compute.model_tokens import for_model

    _build(tmp_path)
    with open_model(tmp_path) as model:
        with pytest.raises(InputError, match="uses ALiBi, a bias on the attention scores, not RoPE"):
            model.rope_inv_freq()
        x = model.input_x(model.tokenize(mh.TEXT).ids)
    params = Params(model=str(tmp_path), embedding_source="model", text=mh.TEXT)
    r = for_model(params)
    assert (r.error, r.position, r.family) == ("", "alibi", "bloom")
    assert not np.any(r.pe_rows) and np.array_equal(r.x, x)
    assert learned._model_table(str(tmp_path), models.stamp(str(tmp_path)))[3] == "alibi"


def test_the_real_rope_view_shows_the_logits_with_and_without_the_alibi_bias(tmp_path):
    from explorer.compute import qk
    from explorer.compute.formulas import formula_html

    _build(tmp_path, heads=6)
    params = Params(model=str(tmp_path), embedding_source="model", text=mh.TEXT)
    assert qk.choose_model(str(tmp_path)) == (str(tmp_path), "", "", "")        # BLOOM itself, no stand-in
    r = qk.qk_view(params, qk.QkState(head=5))
    assert (r.error, r.note, r.note_kind, r.alibi, r.head, r.n_heads) == ("", "", "", True, 5, 6)
    with open_model(tmp_path) as model:
        want = model.layer0_qk(model.tokenize(mh.TEXT).ids)
    np.testing.assert_array_equal(r.slopes, alibi_slopes(6))
    np.testing.assert_array_equal(r.logits, want.logits)
    np.testing.assert_array_equal(r.logits_plain, want.logits_plain)
    n = r.n_shown
    # on the keys read, the mean logit with the bias is the one without, less slope · (m − n)
    delta = r.distance[n - 1:]                                                  # m − n = 0 .. n − 1
    np.testing.assert_allclose(r.by_distance_read[5, n - 1:] - r.by_distance_plain_read[5, n - 1:],
                               -r.slopes[5] * delta, atol=1e-5)
    assert np.isnan(r.shown[0, 1]) and np.isfinite(r.shown[1, 0])             # causal: later keys blank
    html = formula_html("qk", params)
    assert "+ m<sub>h</sub> (n − m)" in html and "R(mθ)" not in html and "nothing turns" in html


def test_export_qk_writes_the_slopes_and_learned_pe_names_alibi(tmp_path, capsys):
    from explorer.commands.cli import main

    reference = _build(tmp_path / "bloom", heads=6)
    assert main(["export", "qk", "--model", str(tmp_path / "bloom"), "--text", mh.TEXT, "-o",
                 str(tmp_path / "f.npz")]) == 0
    f = np.load(tmp_path / "f.npz")
    ids = [mh.WORDS.index(w) + 1 for w in mh.TEXT.split()]
    ref = _reference(reference, ids)
    np.testing.assert_array_equal(f["alibi_slopes"], alibi_slopes(6))
    np.testing.assert_allclose(f["q"], ref["q"], atol=1e-5, rtol=1e-5)
    np.testing.assert_array_equal(f["logits"], f["logits_plain"] + alibi_bias(f["alibi_slopes"], len(ids)))
    assert main(["export", "learned-pe", "--model", str(tmp_path / "bloom"), "-o", str(tmp_path / "p.npy")]) == 2
    assert "through ALiBi, a bias on the scores" in capsys.readouterr().err


def test_the_formula_and_code_panels_say_x_is_the_layernorm_of_e(tmp_path):
    from explorer.compute.code import code_for
    from explorer.compute.formulas import formula_html

    _build(tmp_path)
    params = Params(model=str(tmp_path), embedding_source="model", text=mh.TEXT)
    assert "X<sub>pos</sub> = LayerNorm(E[id<sub>pos</sub>])</p>" in formula_html("tokens", params)
    assert "(ALiBi biases its attention scores)" in formula_html("learned", params)
    code = code_for("tokens", params)
    assert "then LayerNorm (ALiBi: nothing added for position)" in code
    namespace: dict = {}
    exec(compile(code, "<tokens code>", "exec"), namespace)       # the panel's code, as a user would run it
    with open_model(tmp_path) as model:
        np.testing.assert_array_equal(namespace["result"], model.input_x(model.tokenize(mh.TEXT).ids))
