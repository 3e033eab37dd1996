"""Falcon with ALiBi (falcon-rw-1b's layout, multi-query, new_decoder_architecture) opens: X, layer-0 q / k and the
attention with its bfloat16 bias divided by sqrt(head_dim) equal transformers' own FalconModel, for tiny random
checkpoints written by FalconForCausalLM; a bad config is refused in one line (rotary Falcon:
tests/test_models_falcon_rope.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from explorer.backend.models.bloom import alibi_slopes
from explorer.backend.models.config import model_config
from explorer.backend.models.falcon import bf16, falcon_bias, falcon_slopes
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from explorer.params import Params
from tests import models_helpers as mh

pytest.importorskip("transformers")
torch = pytest.importorskip("torch")

LAYOUTS = {"rw": {"multi_query": False, "bias": True, "parallel_attn": False},   # falcon-rw-1b / -7b: q, k, v a head
           "mq": {"multi_query": True},                                # one k and one v for every head
           # 2 groups of 3 q heads, k, v; ln_attn before attention (transformers builds ln_attn only with parallel_attn)
           "new": {"new_decoder_architecture": True, "num_kv_heads": 2, "bias": True, "parallel_attn": True}}


def _build(folder, layout: str = "rw", heads: int = 4, seed: int = 0, **extra):
    """A random tiny Falcon with alibi of `heads` heads of 8 channels (FalconForCausalLM) saved into folder with the
    test tokenizer; the torch model. extra: more FalconConfig keys (alibi=False: a rotary Falcon)."""
    from transformers import FalconConfig, FalconForCausalLM

    torch.manual_seed(seed)
    config = FalconConfig(hidden_size=8 * heads, num_attention_heads=heads, num_hidden_layers=2, vocab_size=mh.VOCAB,
                          layer_norm_epsilon=0.01, **{"alibi": True, **LAYOUTS[layout], **extra})
    config._attn_implementation = "eager"
    return mh.save_random(FalconForCausalLM(config).eval(), folder)


def _reference(torch_model, ids) -> dict:
    """transformers' X (layer 0's input), the q and k its attention receives (spied on eager_attention_forward) and
    its attention weights."""
    import transformers.models.falcon.modeling_falcon as module

    got: dict = {}

    def keep_input(module, args, kwargs) -> None:
        got.setdefault("x", (args[0] if args else kwargs["hidden_states"])[0].numpy().copy())

    hooks = [torch_model.transformer.h[0].register_forward_pre_hook(keep_input, with_kwargs=True)]
    mh._run_spying_on_attention(torch_model, ids, hooks, got, module.__name__)
    with torch.no_grad():
        out = torch_model(input_ids=torch.as_tensor(np.asarray(ids)[None, :]), output_attentions=True)
    return {"x": got["x"], "q": got["q_rot"], "k": got["k_rot"], "attention": out.attentions[0][0].numpy()}


def _softmax(logits: np.ndarray) -> np.ndarray:
    n = logits.shape[-1]
    scores = np.where(np.tri(n, dtype=bool), logits, -np.inf).astype(np.float64)
    probs = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return probs / probs.sum(axis=-1, keepdims=True)


@pytest.mark.parametrize("layout, heads", [("rw", 4), ("rw", 12), ("mq", 4), ("new", 6)])
def test_x_q_k_and_attention_equal_transformers(tmp_path, layout, heads):
    reference = _build(tmp_path, layout, heads)
    with open_model(tmp_path) as model:
        cfg = model.config
        kv = {"rw": heads, "mq": 1, "new": 2}[layout]
        assert (cfg.family, cfg.position, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim, cfg.qk_bias) == (
            "falcon", "alibi", heads, kv, 8, layout != "mq")
        ids = model.tokenize(" ".join([mh.TEXT] * 3)).ids
        ref = _reference(reference, ids)
        np.testing.assert_allclose(model.input_x(ids), ref["x"], atol=1e-6, rtol=1e-6)   # word_embeddings[ids]
        assert model.positions(len(ids)) is None
        qk = model.layer0_qk(ids)
        np.testing.assert_allclose(qk.q, ref["q"], atol=1e-5, rtol=1e-5)
        np.testing.assert_allclose(qk.k[::heads // kv], ref["k"], atol=1e-5, rtol=1e-5)   # (each group's k)
        assert np.array_equal(qk.q_rot, qk.q)
        np.testing.assert_allclose(qk.logits_plain, np.einsum("hmd,hnd->hmn", qk.q, qk.k) / np.sqrt(8.0),
                                   atol=1e-5, rtol=1e-5)
        assert np.array_equal(qk.slopes, falcon_slopes(heads, 8)) and np.array_equal(model.alibi_slopes(), qk.slopes)
        np.testing.assert_array_equal(qk.logits, qk.logits_plain + falcon_bias(heads, 8, len(ids)))
        np.testing.assert_allclose(_softmax(qk.logits), ref["attention"], atol=1e-5)
        if heads == 12:             # slopes 2^-0.5, 2^-1.5, ... round in bfloat16: slope · (n − m) would be off
            exact = qk.logits_plain + (alibi_slopes(heads) / np.sqrt(8.0))[:, None, None] * (
                np.arange(len(ids))[None, None, :] - np.arange(len(ids))[None, :, None])
            assert np.abs(_softmax(exact) - ref["attention"]).max() > 1e-4


def test_the_bias_is_build_alibi_tensors_in_bfloat16_over_sqrt_head_dim():
    """24 heads (slopes 2^-0.5 … round in bfloat16) over 300 tokens (past 256: products round too): the bias is
    transformers' alibi / sqrt(head_dim) less its diagonal, not slope · (n − m) / sqrt(head_dim)."""
    from transformers.models.falcon.modeling_falcon import build_alibi_tensor

    n, heads, hd = 300, 24, 64
    alibi = build_alibi_tensor(torch.ones(1, n, dtype=torch.long), heads, torch.float32)[:, 0].numpy()   # (H, n)
    want = alibi / np.float32(np.sqrt(hd))
    bias = falcon_bias(heads, hd, n)
    np.testing.assert_allclose(bias, want[:, None, :] - want[:, :, None], atol=1e-6, rtol=0)
    plain = (alibi_slopes(heads)[:, None, None] * (np.arange(n)[None, None, :] - np.arange(n)[None, :, None])
             / np.sqrt(hd))
    assert np.abs(bias - plain).max() > 1e-3                               # bfloat16 shows
    np.testing.assert_array_equal(falcon_slopes(heads, hd) * np.float32(8.0), bf16(alibi_slopes(heads)))
    np.testing.assert_array_equal(bf16(np.array([1.0, 0.70710677, 3.0e38, np.inf], np.float32)),
                                  torch.tensor([1.0, 0.70710677, 3.0e38, np.inf]).bfloat16().float().numpy())


# tiiuae/falcon-rw-1b's config.json, the keys FalconConfig reads, as a public Falcon-RW loader's test quotes it (code
# search: "falcon-rw config alibi multi_query"; not the file itself)
FALCON_RW_1B = {"model_type": "falcon", "architectures": ["FalconForCausalLM"], "hidden_size": 2048,
                "num_hidden_layers": 24, "num_attention_heads": 32, "multi_query": False,
                "new_decoder_architecture": False, "parallel_attn": False, "alibi": True, "bias": True,
                "layer_norm_epsilon": 1e-5, "vocab_size": 50304}


def test_config_reads_as_falcon_rw_1b():
    cfg = model_config(FALCON_RW_1B)
    assert (cfg.family, cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim, cfg.n_layers, cfg.qk_bias,
            cfg.position, cfg.max_positions) == ("falcon", 2048, 32, 32, 64, 24, True, "alibi", 2048)
    from transformers import FalconConfig

    hf = FalconConfig(**{k: v for k, v in FALCON_RW_1B.items() if k != "model_type"})
    assert (cfg.d_model, cfg.n_heads, cfg.n_kv_heads) == (hf.hidden_size, hf.num_attention_heads,
                                                         hf.num_key_value_heads)


@pytest.mark.parametrize("change, match", [
    ({"num_attention_heads": 0}, "num_attention_heads must be a positive integer, not 0"),
    ({"num_attention_heads": 30}, "the hidden size 2048 is not a multiple of the 30 heads"),
    ({"num_kv_heads": 4}, "num_kv_heads 4 is not num_attention_heads 32"),
    ({"new_decoder_architecture": True, "num_kv_heads": 5}, "num_attention_heads 32 is not a multiple of num_kv_"),
    ({"bias": "yes"}, "bias must be true or false"),
])
def test_bad_configs_are_one_line(change, match):
    with pytest.raises(InputError, match=match) as info:
        model_config({**FALCON_RW_1B, **change})
    assert "\n" not in str(info.value)


def test_a_missing_query_key_value_is_refused(tmp_path):
    _build(tmp_path)
    mh.rewrite_tensor(tmp_path, "h.0.self_attention.query_key_value.weight", lambda a: a[:-8])
    with open_model(tmp_path) as model:
        with pytest.raises(InputError, match="has 88 rows; config.json says 4 heads of 8") as info:
            model.layer0_qk(model.tokenize(mh.TEXT).ids)
        assert "\n" not in str(info.value)


def test_the_real_rope_view_and_export_show_falcon(tmp_path):
    from explorer.commands.cli import main
    from explorer.compute import qk

    _build(tmp_path / "falcon", heads=6)
    params = Params(model=str(tmp_path / "falcon"), embedding_source="model", text=mh.TEXT)
    r = qk.qk_view(params, qk.QkState(head=2))
    assert (r.error, r.alibi, r.n_heads) == ("", True, 6)
    np.testing.assert_array_equal(r.slopes, falcon_slopes(6, 8))
    assert main(["export", "qk", "--model", str(tmp_path / "falcon"), "--text", mh.TEXT, "-o",
                 str(tmp_path / "f.npz")]) == 0
    f = np.load(tmp_path / "f.npz")
    np.testing.assert_array_equal(f["alibi_slopes"], falcon_slopes(6, 8))
    np.testing.assert_array_equal(f["logits"], f["logits_plain"] + falcon_bias(6, 8, f["logits"].shape[-1]))
    json.dumps(r.tokens)
