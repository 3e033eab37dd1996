"""Every family against transformers' own model classes: X into layer 0, layer-0 q/k per head, RoPE'd q/k.

The checkpoints are tiny and random (tests/models_helpers.py), written with save_pretrained (safetensors);
the references are captured with forward hooks on the real torch modules, so nothing here is re-derived.
"""

from __future__ import annotations

import re
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
    elif family in ("qwen3", "qwen3_moe"):           # after its per-head q_norm / k_norm, (n, H, hd)
        q_ref, k_ref = ref["q"].transpose(1, 0, 2), ref["k"].transpose(1, 0, 2)
    elif family in ("gemma3", "phi", "stablelm", "apertus", "exaone4") or family.startswith("gpt_bigcode"):
        # (their q/k norms come after the transpose; GPT-BigCode's q and k as its attention receives them)
        q_ref, k_ref = ref["q"], ref["k"]
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
    cfg = model.config                                # (Gemma 2/3: query_pre_attn_scalar; Gemma 2's cap)
    logits = np.einsum("hmd,hnd->hmn", ref["q_rot"], ref["k_rot"][qk.kv_head]) / np.sqrt(cfg.score_scalar
                                                                                        or cfg.head_dim)
    if cfg.attn_softcap is not None:
        logits = cfg.attn_softcap * np.tanh(logits / cfg.attn_softcap)
    close(qk.logits, logits)


def test_attention_weights_equal_transformers(built):
    """softmax of layer 0's logits (masked as the model masks: causal, BERT not; GPT-OSS's sliding window of 6
    tokens, and its sink logits) equals transformers' own attention weights (output_attentions): the score
    scale (Gemma 2/3's query_pre_attn_scalar) and Gemma 2's soft cap as the model applies them."""
    family, model, ids, _, torch_model = built
    _same_attention(model, torch_model, ids, causal=family not in ("bert", "m2m_100", "bart", "mbart"))   # (encoders)


def same_layer0(model, ref: dict, ids) -> None:
    """PE Explorer's model gives mh.capture's `ref` of transformers' model on ids: X into layer 0, and q and k
    after RoPE."""
    close(model.input_x(ids), ref["x"])
    qk = model.layer0_qk(ids)
    close(qk.q_rot, ref["q_rot"])
    close(qk.k_rot, ref["k_rot"][qk.kv_head])


def _same_attention(model, torch_model, ids, causal=True):
    """softmax of our layer-0 logits (masked as the model masks) equals transformers' attentions[0]."""
    import torch

    run = torch_model.get_encoder() if torch_model.config.is_encoder_decoder else torch_model   # (M2M100's)
    with torch.no_grad():
        out = run(input_ids=torch.as_tensor(np.asarray(ids)[None, :]), output_attentions=True)
    want = out.attentions[0][0].numpy()                                       # (H, n, n)
    qk = model.layer0_qk(ids)
    if causal:                       # (with the layer's sliding window and GPT-OSS's sinks)
        close(mh.attention_of(qk), want)
        return
    probs = np.exp(qk.logits - qk.logits.max(axis=-1, keepdims=True).astype(np.float64))
    close(probs / probs.sum(axis=-1, keepdims=True), want)


@pytest.mark.parametrize("name, family, kwargs, edit", [
    # Gemma3Attention passes no softcap: a config's attn_logit_softcapping changes nothing there
    ("gemma3 ignores attn_logit_softcapping", "gemma3", dict(mh.FAMILIES["gemma3"], attn_logit_softcapping=4.0),
     None),
    ("gemma2 without a cap (null)", "gemma2", dict(mh.FAMILIES["gemma2"], attn_logit_softcapping=None), None),
    # a 5.x config with a 4.x rope_scaling left at the top: merged into the full layers' settings
    ("gemma3 nested + top-level rope_scaling, layer 0 full", "gemma3",
     dict(mh.FAMILIES["gemma3"], layer_types=["full_attention", "sliding_attention"]),
     lambda cfg: cfg.update(rope_scaling={"rope_type": "linear", "factor": 2.0})),
])
def test_gemma_settings_reach_the_attention_as_transformers_applies_them(name, family, kwargs, edit, tmp_path):
    reference = _saved(tmp_path, family, kwargs, edit)
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        ref = mh.capture(reference, family, ids)
        close(model.layer0_qk(ids).q_rot, ref["q_rot"])
        _same_attention(model, reference, ids)


def test_a_published_style_multimodal_gemma3_text_config_opens(tmp_path):
    """google/gemma-3-4b-it's text_config lists a few keys; the heads (8), kv heads (4) and head_dim (256)
    are Gemma3TextConfig's defaults: a tiny checkpoint written that way opens as transformers loads it."""
    import json

    from transformers import Gemma3Config, Gemma3ForConditionalGeneration

    text = {"hidden_size": 32, "intermediate_size": 48, "num_hidden_layers": 2, "vocab_size": mh.VOCAB,
            "rope_scaling": {"factor": 8.0, "rope_type": "linear"}, "sliding_window": 1024}
    config = Gemma3Config(text_config=dict(text), mm_tokens_per_image=4,
                          vision_config={"hidden_size": 16, "intermediate_size": 32, "num_hidden_layers": 1,
                                         "num_attention_heads": 2, "image_size": 28, "patch_size": 14})
    mh.save_random(Gemma3ForConditionalGeneration(config).eval(), tmp_path)
    path = tmp_path / "config.json"
    saved = json.loads(path.read_text())
    saved["text_config"] = {"model_type": "gemma3_text", **text}            # as published: few keys
    path.write_text(json.dumps(saved))
    reference = Gemma3ForConditionalGeneration.from_pretrained(tmp_path, attn_implementation="eager").eval()
    text_model = reference.model.language_model
    with open_model(tmp_path) as model:
        assert (model.config.n_heads, model.config.n_kv_heads, model.config.head_dim) == (8, 4, 256)
        ids = model.tokenize(mh.TEXT).ids
        ref = mh.capture(text_model, "gemma3", ids)
        close(model.input_x(ids), ref["x"])
        close(model.layer0_qk(ids).q_rot, ref["q_rot"])
        _same_attention(model, text_model, ids)


def test_learned_positions_are_the_model_table(built):
    family, model, _ids, _, torch_model = built
    if model.config.position != "learned":
        return
    base = torch_model.base_model
    table = {"gpt2": lambda: base.wpe.weight, "gpt_neo": lambda: base.wpe.weight,
             "gpt_bigcode": lambda: base.wpe.weight, "gpt_bigcode_mha": lambda: base.wpe.weight,
             "bert": lambda: base.embeddings.position_embeddings.weight,
             "opt": lambda: base.decoder.embed_positions.weight[2:],
             "opt_post_ln": lambda: base.decoder.embed_positions.weight[2:],
             "xglm": lambda: base.embed_positions.weights[2:],                    # (XGLM's, M2M100's: a buffer)
             "m2m_100": lambda: base.encoder.embed_positions.weights[2:],
             "bart": lambda: base.encoder.embed_positions.weight[2:],
             "mbart": lambda: base.encoder.embed_positions.weight[2:]}[family]().detach().numpy()
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
            "num_key_value_heads": 1, "vocab_size": 8, "head_dim": 4}
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
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(1)
    params = {**SCALED[kind], "rope_theta": 500.0}
    config = LlamaConfig(**{**mh.SMALL, "num_key_value_heads": 2, "rope_parameters": params})
    config._attn_implementation = "eager"
    torch_model = mh.save_random(LlamaForCausalLM(config).eval(), tmp_path)
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        assert model.config.rope_parameters == config.rope_parameters
        ref = mh.capture(torch_model, "llama", ids)
        qk = model.layer0_qk(ids)
        close(qk.q_rot, ref["q_rot"])
        close(qk.k_rot, ref["k_rot"][qk.kv_head])


def _saved(tmp_path, family: str, config_kwargs: dict, edit=None):
    """A random tiny checkpoint of `family` saved with save_pretrained, config.json then edited by
    edit(dict) (keys transformers' config classes would not write), and transformers' own model
    loaded back from the folder: what transformers makes of that config.json."""
    import json

    import torch

    config_class, model_class = mh.classes(family)
    torch.manual_seed(2)
    mh.save_random(model_class(config_class(**config_kwargs)).eval(), tmp_path)
    if edit is not None:
        path = tmp_path / "config.json"
        cfg = json.loads(path.read_text())
        edit(cfg)
        path.write_text(json.dumps(cfg))
    return model_class.from_pretrained(tmp_path, dtype=torch.float32, attn_implementation="eager").eval()


def _drop(key):
    return lambda cfg: cfg.pop(key)


def _top_level_original(cfg):
    cfg["original_max_position_embeddings"] = 6          # Phi-3 style: it wins over the dict's


def _yarn_truncate_null(cfg):
    cfg["rope_parameters"]["truncate"] = None


def _dict_original_only(cfg):
    cfg["rope_parameters"].pop("original_max_position_embeddings")


def _unknown_key(cfg):
    cfg["rope_parameters"]["finetuned"] = True           # a key linear does not read: ignored


HEAD16 = dict(mh.SMALL, num_key_value_heads=2, head_dim=16, max_position_embeddings=40)
PHI3 = dict(mh.FAMILIES["phi3"], original_max_position_embeddings=20)
PHI3_LONGROPE = {"rope_type": "longrope", "rope_theta": 500.0, "partial_rotary_factor": 0.75,   # 6 of 8 rotate
                 "short_factor": [1.0, 1.5, 2.0], "long_factor": [2.0, 5.0, 11.0]}


def _gemma3_4x(cfg):
    """As Gemma 3's configs were written for transformers 4.x (google/gemma-3-1b-it's keys)."""
    params = cfg.pop("rope_parameters")
    full, sliding = params["full_attention"], params["sliding_attention"]
    cfg["rope_theta"], cfg["rope_local_base_freq"] = full.pop("rope_theta"), sliding["rope_theta"]
    kind = full.pop("rope_type")
    cfg["rope_scaling"] = None if kind == "default" else {"rope_type": kind, **full}
    cfg["sliding_window_pattern"] = 6
    cfg.pop("layer_types")


def _phi3_no_original(cfg):
    cfg.pop("original_max_position_embeddings")
    cfg["rope_parameters"].pop("original_max_position_embeddings", None)


def _phi3_su(cfg):
    """As Phi-3's first configs were written: 4.x rope_scaling with type "su", rope_theta at the top."""
    params = cfg.pop("rope_parameters")
    cfg["rope_theta"] = params.pop("rope_theta")
    cfg["partial_rotary_factor"] = params.pop("partial_rotary_factor")
    params.pop("rope_type")
    params.pop("original_max_position_embeddings", None)
    cfg["rope_scaling"] = {"type": "su", **params}
LONG_TEXT = " ".join([mh.TEXT] * 170)                    # 2,210 tokens: past 2,048
ROPE_CONFIGS = {   # name: (family, config kwargs, edit of config.json, text); found by a differential audit
    "partial_rotary_factor, default rope": (
        "llama", dict(HEAD16, rope_parameters={"rope_type": "default", "rope_theta": 500.0,
                                               "partial_rotary_factor": 0.5}), None, mh.TEXT),
    "dynamic, the dict's L0 ignored": (
        "llama", dict(HEAD16, max_position_embeddings=10, rope_parameters={
            "rope_type": "dynamic", "rope_theta": 500.0, "factor": 3.0,
            "original_max_position_embeddings": 4}), None, mh.TEXT),
    "yarn, top-level L0": (
        "llama", dict(HEAD16, rope_parameters={"rope_type": "yarn", "rope_theta": 500.0, "factor": 4.0,
                                               "original_max_position_embeddings": 20}),
        _top_level_original, mh.TEXT),
    "llama3, top-level L0": (
        "llama", dict(HEAD16, rope_parameters={"rope_type": "llama3", "rope_theta": 500.0, "factor": 8.0,
                                               "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                               "original_max_position_embeddings": 32}),
        _top_level_original, mh.TEXT),
    "yarn, truncate null": (       # L0 2000: its correction range 2.96 .. 7.42 is not whole
        "llama", dict(HEAD16, rope_parameters={"rope_type": "yarn", "rope_theta": 500.0, "factor": 4.0,
                                               "original_max_position_embeddings": 2000}),
        _yarn_truncate_null, mh.TEXT),
    "yarn, L0 from max_position_embeddings": (
        "qwen2", dict(HEAD16, rope_parameters={"rope_type": "yarn", "rope_theta": 500.0, "factor": 4.0,
                                               "original_max_position_embeddings": 10}),
        _dict_original_only, mh.TEXT),
    "linear, a key it does not read": (
        "llama", dict(HEAD16, rope_parameters={"rope_type": "linear", "rope_theta": 500.0, "factor": 2.0}),
        _unknown_key, mh.TEXT),
    "linear, rotary_pct and rotary_dim (GPT-NeoX's, GPT-J's) not read": (
        "llama", dict(HEAD16, rope_parameters={"rope_type": "linear", "rope_theta": 500.0, "factor": 2.0}),
        lambda cfg: cfg.update(rotary_pct=0.5, rotary_dim=4), mh.TEXT),
    "qwen3, the class's head_dim (128) when config.json has none": (
        "qwen3", dict(mh.SMALL, num_key_value_heads=2, rope_theta=1e6), _drop("head_dim"), mh.TEXT),
    "mixtral without a rope_theta: its class's 1e6 (default_theta), not 10,000": (
        "mixtral", mh.FAMILIES["mixtral"], _drop("rope_parameters"), mh.TEXT),
    "qwen3_moe without a head_dim: hidden / heads (Qwen3MoeConfig has no head_dim field), not Qwen3's 128": (
        "qwen3_moe", {k: v for k, v in mh.FAMILIES["qwen3_moe"].items() if k != "head_dim"}, None, mh.TEXT),
    "qwen2_moe without q/k/v biases (qkv_bias false)": (
        "qwen2_moe", dict(mh.FAMILIES["qwen2_moe"], qkv_bias=False), None, mh.TEXT),
    "qwen2_moe whose config turns its biases off (qkv_bias false): the file's bias tensors unread": (
        "qwen2_moe", mh.FAMILIES["qwen2_moe"], lambda cfg: cfg.update(qkv_bias=False), mh.TEXT),
    "llama whose config turns its biases off (attention_bias false): the file's bias tensors unread": (
        "llama", mh.FAMILIES["llama"], lambda cfg: cfg.update(attention_bias=False), mh.TEXT),
    "gemma, the class's head_dim (256) when config.json has none": (
        "gemma", dict(mh.SMALL, num_key_value_heads=1, rope_theta=1e4), _drop("head_dim"), mh.TEXT),
    "proportional (Gemma 4's p-RoPE), a quarter of the pairs turn": (
        "llama", dict(HEAD16, rope_parameters={"rope_type": "proportional", "rope_theta": 500.0,
                                               "partial_rotary_factor": 0.25}), None, mh.TEXT),
    "proportional with a factor, in qwen3": (
        "qwen3", dict(HEAD16, rope_parameters={"rope_type": "proportional", "rope_theta": 500.0,
                                               "partial_rotary_factor": 0.5, "factor": 4.0}), None, LONG_TEXT),
    "phi3 longrope, short factors (13 tokens <= L0 20)": (
        "phi3", dict(PHI3, rope_parameters=PHI3_LONGROPE), None, mh.TEXT),
    "phi3 longrope, long factors past L0, rotary 0.75 (Phi-4-mini's)": (
        "phi3", dict(PHI3, rope_parameters=PHI3_LONGROPE), None, " ".join([mh.TEXT] * 3)),
    "phi3 longrope written as 4.x 'su' with a top-level L0": (
        "phi3", dict(PHI3, rope_parameters=PHI3_LONGROPE), _phi3_su, " ".join([mh.TEXT] * 3)),
    "phi3 without an L0 in config.json: its class's 4096 wins (52 tokens, past max_position 40: short)": (
        "phi3", dict(PHI3, rope_parameters=PHI3_LONGROPE), _phi3_no_original, " ".join([mh.TEXT] * 4)),
    "gemma3 written as 4.x: rope_theta, rope_local_base_freq, rope_scaling, sliding_window_pattern": (
        "gemma3", mh.FAMILIES["gemma3"], _gemma3_4x, mh.TEXT),
    "gemma3 whose layer 0 is a full-attention layer: the full layers' RoPE (linear x8, 1e6)": (
        "gemma3", dict(mh.FAMILIES["gemma3"], layer_types=["full_attention", "sliding_attention"]), None,
        mh.TEXT),
    "gemma3 4.x without rope_local_base_freq: its class's 10,000 for the sliding layers": (
        "gemma3", mh.FAMILIES["gemma3"], lambda cfg: (_gemma3_4x(cfg), cfg.pop("rope_local_base_freq")),
        mh.TEXT),
    "dynamic, Mistral's default max_position_embeddings": (
        "mistral", dict(HEAD16, rope_parameters={"rope_type": "dynamic", "rope_theta": 500.0, "factor": 4.0}),
        _drop("max_position_embeddings"), LONG_TEXT),
}


@pytest.mark.parametrize("name", sorted(ROPE_CONFIGS))
def test_rope_settings_are_read_as_transformers_reads_them(name, tmp_path):
    """Configs that transformers' model classes run, read as they read them: q and k after RoPE equal
    theirs (a differential audit found each of these rotated differently, or refused)."""
    family, kwargs, edit, text = ROPE_CONFIGS[name]
    reference = _saved(tmp_path, family, kwargs, edit)
    with open_model(tmp_path) as model:
        ids = model.tokenize(text).ids
        ref = mh.capture(reference, family, ids)
        qk = model.layer0_qk(ids)
        close(qk.q_rot, ref["q_rot"])          # 2,210 tokens too: inv_freq is transformers' to the bit
        close(qk.k_rot, ref["k_rot"][qk.kv_head])


@pytest.mark.parametrize("rope, says", [
    ({"rope_type": "linear", "factor": 2.0, "partial_rotary_factor": 0.5},
     "partial_rotary_factor 0.5 with rope type linear: transformers' llama rotates the whole head and "
     "cannot run it"),
    ({"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 20, "beta_fast": 1.0,
      "beta_slow": 2.0}, "beta_fast must be greater than beta_slow"),
])
def test_rope_settings_that_cannot_be_used_refuse_q_and_k_only(tmp_path, rope, says):
    """A scaled type with a partial_rotary_factor (transformers' Llama cannot run it: a partial-width
    inv_freq against the whole head) or settings transformers' validation warns about: no numbers are
    made up for q and k, in one line; the model still opens, and its tokens and X are read."""
    import json

    mh.build("llama", tmp_path)
    path = tmp_path / "config.json"
    cfg = json.loads(path.read_text())
    cfg["rope_parameters"] = {**rope, "rope_theta": 500.0}
    path.write_text(json.dumps(cfg))
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        assert model.input_x(ids).shape == (len(ids), 32)
        with pytest.raises(InputError, match="its RoPE settings cannot be used: .*" + says) as err:
            model.layer0_qk(ids)
        assert "\n" not in str(err.value)


def test_opt_is_never_scaled_by_scale_embedding(tmp_path):
    """OPT's config class has no scale_embedding and its model never scales (a key from BART-like configs)."""
    reference = _saved(tmp_path, "opt", mh.FAMILIES["opt"], lambda cfg: cfg.update(scale_embedding=True))
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        close(model.input_x(ids), mh.capture(reference, "opt", ids)["x"])


INV_FREQ_CASES = [
    {"rope_type": "default"},
    {"rope_type": "linear", "factor": 3.0},
    {"rope_type": "dynamic", "factor": 4.0},
    {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1024},
    {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 2000, "beta_fast": 16,
     "beta_slow": 2, "truncate": False, "mscale": 1.2, "mscale_all_dim": 0.8},
    {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
     "original_max_position_embeddings": 8192},
    {"rope_type": "longrope", "short_factor": list(np.linspace(1, 2, 64)),
     "long_factor": list(np.linspace(1, 9, 64)), "original_max_position_embeddings": 4096},
    {"rope_type": "proportional", "partial_rotary_factor": 0.25},
    {"rope_type": "proportional", "partial_rotary_factor": 0.3, "factor": 8.0},
]


@pytest.mark.parametrize("base", [321.5, 1e4, 5e5])
@pytest.mark.parametrize("params", INV_FREQ_CASES, ids=lambda p: p["rope_type"])
@pytest.mark.parametrize("seq_len", [100, 9000])
def test_model_inv_freq_is_transformers_float32_to_the_bit(base, params, seq_len):
    """A model's inv_freq and attention factor equal transformers' (ROPE_INIT_FUNCTIONS, and the Llama
    class's default) bit for bit, so its angles agree thousands of positions in."""
    from transformers import LlamaConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    from explorer.backend.models.config import model_config
    from explorer.backend.models.model import Model

    config = LlamaConfig(hidden_size=1024, num_attention_heads=8, head_dim=128, vocab_size=8,
                         max_position_embeddings=8192, rope_parameters={**params, "rope_theta": base})
    kind = params["rope_type"]
    if kind == "default":
        want, factor = LlamaRotaryEmbedding.compute_default_rope_parameters(config)
    else:
        want, factor = ROPE_INIT_FUNCTIONS[kind](config, "cpu", seq_len=seq_len)
    model = Model.__new__(Model)                     # its config only: no weights are read
    model.config, model.name = model_config(config.to_dict()), "m"
    got, got_factor = model.rope_inv_freq(seq_len)
    np.testing.assert_array_equal(got, want.numpy())
    assert got_factor == pytest.approx(factor, rel=1e-7)


def test_model_inv_freq_without_torch_loaded_is_numpys_float32(monkeypatch):
    """A command that has not loaded torch does not load it for 64 numbers: numpy's float32 stands in,
    the same to within one ulp (a ~1 s, ~190 MB import saved)."""
    import sys

    from transformers import LlamaConfig

    from explorer.backend.models.config import model_config
    from explorer.backend.models.model import Model
    from explorer.backend.models.rope_float32 import transformers_inv_freq

    config = LlamaConfig(hidden_size=1024, num_attention_heads=8, head_dim=128, vocab_size=8,
                         rope_parameters={"rope_type": "linear", "factor": 3.0, "rope_theta": 5e5})
    model = Model.__new__(Model)
    model.config, model.name = model_config(config.to_dict()), "m"
    with_torch, _ = model.rope_inv_freq()
    monkeypatch.delitem(sys.modules, "torch")
    assert transformers_inv_freq(128, 5e5, model.config.rope_scaling, None, 2048) is None
    without, _ = model.rope_inv_freq()
    assert "torch" not in sys.modules and without.dtype == np.float32
    np.testing.assert_allclose(without, with_torch, rtol=2.5e-7)


def test_a_multimodal_gemma3_opens_as_its_text_model(tmp_path):
    """Gemma 3 4B and larger ship as Gemma3ForConditionalGeneration (model_type gemma3, text_config,
    tensors "language_model.model.*" beside a vision tower): X, layer 0's rotated q/k and its logits
    are its text model's."""
    import torch
    from transformers import Gemma3Config, Gemma3ForConditionalGeneration

    torch.manual_seed(4)
    config = Gemma3Config(text_config=dict(mh.FAMILIES["gemma3"]), mm_tokens_per_image=4,
                          vision_config={"hidden_size": 16, "intermediate_size": 32, "num_hidden_layers": 1,
                                         "num_attention_heads": 2, "image_size": 28, "patch_size": 14})
    config.text_config._attn_implementation = "eager"
    full = mh.save_random(Gemma3ForConditionalGeneration(config).eval(), tmp_path)
    text = full.model.language_model
    with open_model(tmp_path) as model:
        assert model.config.family == "gemma3" and model.config.model_type == "gemma3_text"
        ids = model.tokenize(mh.TEXT).ids
        same_layer0(model, mh.capture(text, "gemma3", ids), ids)


def test_the_python_api_opens_a_checkpoint_as_the_window_reads_it(tmp_path):
    """explorer.open_model: X and layer 0's rotated q / k of a Gemma 3 folder equal transformers' own, and
    the files are closed when the with block ends; a path that is not a model is one line."""
    import explorer
    from explorer.errors import InputError

    reference = mh.build("gemma3", tmp_path / "g3", seed=4)
    with explorer.open_model(tmp_path / "g3") as model:
        ids = model.tokenize(mh.TEXT).ids
        ref = mh.capture(reference, "gemma3", ids)
        close(model.input_x(ids), ref["x"])
        close(model.layer0_qk(ids).q_rot, ref["q_rot"])
        assert (model.config.family, model.config.layer_types[0]) == ("gemma3", "sliding_attention")
    with pytest.raises(InputError, match=r"the checkpoint is closed"):
        model.input_x(ids)
    with pytest.raises(InputError, match=r"^[^\n]*nowhere does not exist; give a model folder, a \.gguf file"):
        explorer.open_model(tmp_path / "nowhere")


@pytest.mark.parametrize("family", ["mixtral", "phi3", "llama"])
def test_a_missing_rms_norm_eps_is_the_classs_default(family, tmp_path):
    """Mixtral's and Phi-3's classes default to 1e-5, Llama's to 1e-6: with embeddings as small as real
    ones (std ~0.003) the eps shows in q (1e-6 for Mixtral put q_rot 40% off)."""
    import json

    import torch

    config_class, model_class = mh.classes(family)
    torch.manual_seed(2)
    model = mh.save_random(model_class(config_class(**mh.FAMILIES[family])).eval(), tmp_path)
    with torch.no_grad():
        model.get_input_embeddings().weight.mul_(0.006)
    model.save_pretrained(tmp_path)
    path = tmp_path / "config.json"
    cfg = json.loads(path.read_text())
    cfg.pop("rms_norm_eps")
    path.write_text(json.dumps(cfg))
    reference = model_class.from_pretrained(tmp_path, dtype=torch.float32, attn_implementation="eager").eval()
    with open_model(tmp_path) as opened:
        ids = opened.tokenize(mh.TEXT).ids
        assert opened.config.norm_eps == config_class().rms_norm_eps
        close(opened.layer0_qk(ids).q_rot, mh.capture(reference, family, ids)["q_rot"])


def test_smollm3s_nope_layers_are_not_rotated(tmp_path):
    """SmolLM3 turns q and k in layers 0-2 and not in layer 3 (no_rope_layer_interval 4): given layer 3's
    real input (captured from transformers' run), q and k stay as projected, and the softmax of its logits
    equals transformers' attention weights of that layer; the config lists the NoPE layers."""
    import torch

    reference = mh.build("smollm3", tmp_path, seed=6)
    with open_model(tmp_path) as model:
        assert model.config.nope_layers == (3,) and model.config.rope_base == 5000.0
        ids = model.tokenize(mh.TEXT).ids
        got = {}
        def keep(module, args, kwargs):
            got.setdefault("x", (args[0] if args else kwargs["hidden_states"])[0])

        hook = reference.model.layers[3].register_forward_pre_hook(keep, with_kwargs=True)
        with torch.no_grad():
            out = reference(input_ids=torch.as_tensor(np.asarray(ids)[None, :]), output_attentions=True)
        hook.remove()
        qk = model.layer0_qk(got["x"].numpy(), layer=3)
        np.testing.assert_array_equal(qk.q_rot, qk.q)
        logits = np.where(np.tri(len(ids), dtype=bool), qk.logits.astype(np.float64), -np.inf)
        probs = np.exp(logits - logits.max(axis=-1, keepdims=True))
        close(probs / probs.sum(axis=-1, keepdims=True), out.attentions[3][0].numpy())
        assert not np.allclose(model.layer0_qk(ids).q_rot, model.layer0_qk(ids).q)      # layer 0 turns


@pytest.mark.parametrize("cfg, says", [
    ({"no_rope_layers": [1, 1, 1]}, "no_rope_layers must list 4 flags, 1 (RoPE) or 0 (none)"),
    ({"no_rope_layers": [1, 1, 2, 0]}, "no_rope_layers must list 4 flags, 1 (RoPE) or 0 (none)"),
    ({"no_rope_layer_interval": 0}, "no_rope_layer_interval must be a whole number >= 1, not 0"),
])
def test_bad_smollm3_nope_settings_are_refused(cfg, says):
    from explorer.backend.models.config import model_config

    with pytest.raises(InputError, match=rf"^config\.json: {re.escape(says)}$"):
        model_config({"model_type": "smollm3", "hidden_size": 32, "num_hidden_layers": 4, "num_attention_heads": 4,
                      "vocab_size": 64, **cfg})
