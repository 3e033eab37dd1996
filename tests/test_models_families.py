"""Every family against transformers' own model classes: X into layer 0, layer-0 q/k per head, RoPE'd q/k.

The checkpoints are tiny and random (tests/models_helpers.py), written with save_pretrained (safetensors);
the references are captured with forward hooks on the real torch modules, so nothing here is re-derived.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh

pytest.importorskip("transformers")
pytest.importorskip("torch")


def close(ours, ref, tol=1e-5):
    """Equal to tol relative to the reference's largest magnitude."""
    ref = np.asarray(ref, dtype=np.float64)
    scale = max(1.0, float(np.abs(ref).max()))
    np.testing.assert_allclose(ours, ref, rtol=0, atol=tol * scale)


@pytest.fixture(scope="module", params=sorted(mh.FAMILIES))
def built(request, tmp_path_factory):
    family = request.param
    folder = tmp_path_factory.mktemp(family)
    torch_model = mh.build(family, folder, seed=len(family))
    model = open_model(str(folder))
    ids = model.tokenize(mh.TEXT).ids
    ref = mh.capture(torch_model, family, ids)
    yield family, model, ids, ref, torch_model
    model.close()


def _heads(flat, heads):
    n = flat.shape[0]
    return flat.reshape(n, heads, -1).transpose(1, 0, 2)                      # (h, n, hd)


def test_input_x_equals_what_layer_0_receives(built):
    _family, model, ids, ref, _ = built
    assert len(ids) == len(mh.TEXT.split())
    close(model.input_x(ids), ref["x"])


def test_layer0_q_k_per_head_equal_the_projections(built):
    family, model, ids, ref, _ = built
    cfg = model.config
    qk = model.layer0_qk(ids)
    if family == "gpt2":
        d = cfg.d_model
        q_ref, k_ref = _heads(ref["qkv"][:, :d], cfg.n_heads), _heads(ref["qkv"][:, d:2 * d], cfg.n_heads)
    elif family == "qwen3":
        q_ref, k_ref = ref["q"].transpose(1, 0, 2), ref["k"].transpose(1, 0, 2)
    else:
        q_ref, k_ref = _heads(ref["q"], cfg.n_heads), _heads(ref["k"], cfg.n_kv_heads)
    close(qk.q, q_ref)
    close(qk.k, k_ref[qk.kv_head])
    assert qk.q.shape == (cfg.n_heads, len(ids), cfg.head_dim)
    assert qk.logits.shape == (cfg.n_heads, len(ids), len(ids))


def test_rope_rotation_equals_transformers(built):
    _family, model, ids, ref, _ = built
    qk = model.layer0_qk(ids)
    if model.config.position != "rope":
        assert "q_rot" not in ref and np.array_equal(qk.q_rot, qk.q)
        assert model.positions(len(ids)).shape == (len(ids), model.config.d_model)
        return
    assert model.positions(len(ids)) is None
    close(qk.q_rot, ref["q_rot"])
    close(qk.k_rot, ref["k_rot"][qk.kv_head])
    assert not np.allclose(qk.q_rot, qk.q)            # the rotation did something past position 0
    close(qk.logits, np.einsum("hmd,hnd->hmn", ref["q_rot"], ref["k_rot"][qk.kv_head])
          / np.sqrt(model.config.head_dim))


def test_learned_positions_are_the_model_table(built):
    family, model, _ids, _, torch_model = built
    if model.config.position != "learned":
        return
    base = torch_model.base_model
    table = {"gpt2": lambda: base.wpe.weight, "bert": lambda: base.embeddings.position_embeddings.weight,
             "opt": lambda: base.decoder.embed_positions.weight[2:],
             "opt_post_ln": lambda: base.decoder.embed_positions.weight[2:]}[family]().detach().numpy()
    np.testing.assert_array_equal(model.positions(), table)
    assert model.positions().shape[0] == model.config.max_positions


def test_rows_are_the_stored_rows_and_norms_match(built):
    _family, model, ids, _, torch_model = built
    emb = torch_model.get_input_embeddings().weight.detach().numpy()
    np.testing.assert_array_equal(model.rows(ids), emb[ids])
    norms = model.norms(ids)
    close(norms["token_norm"], np.linalg.norm(emb[ids], axis=1))
    close(norms["input_norm"], np.linalg.norm(model.input_x(ids), axis=1))


def test_custom_inv_freq_changes_only_the_rotation(built):
    _family, model, ids, _, _ = built
    if model.config.position != "rope":
        return
    plain = model.layer0_qk(ids)
    rd = model.config.rope_dim
    slow = model.layer0_qk(ids, inv_freq=np.full(rd // 2, 1e-9, dtype=np.float32))
    close(slow.q_rot, plain.q, tol=1e-6)                # no rotation: back to the unrotated q
    close(slow.logits, plain.logits_plain, tol=1e-5)


def test_prefixed_and_unprefixed_names_give_the_same_model(tmp_path):
    import transformers as tf

    for family, cls in (("gpt2", tf.GPT2Model), ("bert", tf.BertForMaskedLM), ("opt", tf.OPTModel)):
        a, b = tmp_path / f"{family}_a", tmp_path / f"{family}_b"
        torch_a = mh.build(family, a, seed=3)
        torch_b = mh.build(family, b, seed=3, model_class=cls)
        with open_model(a) as ma, open_model(b) as mb:
            assert set(ma.tensors.names()) & set(mb.tensors.names())     # both stripped to one naming
            ids = ma.tokenize(mh.TEXT).ids
            close(ma.input_x(ids), mh.capture(torch_a, family, ids)["x"])
            close(mb.input_x(ids), mh.capture(torch_b, family, ids)["x"])
    from safetensors import safe_open

    with safe_open(str(tmp_path / "bert_b" / "model.safetensors"), "np") as f:
        assert any(k.startswith("bert.") for k in f.keys())  # noqa: SIM118 - it really was prefixed
    with safe_open(str(tmp_path / "gpt2_a" / "model.safetensors"), "np") as f:
        assert any(k.startswith("transformer.") for k in f.keys())  # noqa: SIM118


def test_gemma_scale_is_rounded_to_the_model_dtype():
    import torch

    from explorer.backend.models.config import model_config

    base = {"model_type": "gemma", "hidden_size": 2050, "num_hidden_layers": 1, "num_attention_heads": 2,
            "vocab_size": 8, "head_dim": 4}
    for dtype, tdtype in (("bfloat16", torch.bfloat16), ("float16", torch.float16), ("float32", torch.float32)):
        want = torch.tensor(2050 ** 0.5).to(tdtype).item()
        assert model_config({**base, "dtype": dtype}).embed_scale == want
    assert model_config({**base, "torch_dtype": "bfloat16"}).embed_scale == \
        torch.tensor(2050 ** 0.5).to(torch.bfloat16).item()


SCALED = {
    "linear": {"rope_type": "linear", "factor": 4.0},
    "llama3": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
               "original_max_position_embeddings": 8},
    "yarn": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 10},
}


@pytest.mark.parametrize("kind", sorted(SCALED))
def test_scaled_rope_is_the_models_own(kind, tmp_path):
    """A model with rope scaling is rotated with it by default (explorer.backend.rope_scaling)."""
    import importlib.util

    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(1)
    params = {**SCALED[kind], "rope_theta": 500.0}
    config = LlamaConfig(**{**mh.SMALL, "num_key_value_heads": 2, "rope_parameters": params})
    config._attn_implementation = "eager"
    torch_model = LlamaForCausalLM(config).eval()
    with torch.no_grad():
        for p in torch_model.parameters():
            p.normal_(0.0, 0.5)
    torch_model.save_pretrained(tmp_path)
    mh.write_tokenizer(tmp_path / "tokenizer.json")
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        assert model.config.rope_parameters == config.rope_parameters
        if importlib.util.find_spec("explorer.backend.rope_scaling") is None:
            with pytest.raises(InputError, match="needs explorer.backend.rope_scaling"):
                model.layer0_qk(ids)
            return
        ref = mh.capture(torch_model, "llama", ids)
        qk = model.layer0_qk(ids)
        close(qk.q_rot, ref["q_rot"])
        close(qk.k_rot, ref["k_rot"][qk.kv_head])
