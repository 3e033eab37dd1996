"""GPT-Neo checkpoints (model_type "gpt_neo") against transformers' GPTNeoConfig and GPTNeoForCausalLM.

What differs from GPT-2: q/k/v projections without bias under attn.attention, layer 0's logits q·k NOT divided
by sqrt(head_dim) (GPTNeoSelfAttention._attn), and "local" layers that read only the window_size latest keys
(bias ^ tril(bias, -window_size)). The plain X, q/k and attention checks run with every other family in
tests/test_models_families.py (there layer 0 is global and layer 1 local over 5 keys).
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
torch = pytest.importorskip("torch")

# EleutherAI/gpt-neo-125M's published config.json, as a copy of it in the search tool's code corpus gives it (a
# script that passes the Hub file's keys to GPTNeoConfig, file id 5928835340; the index names no repository):
# 12 layers alternating global / local, 12 heads of 64 channels, a window of 256, 2,048 positions
GPT_NEO_125M = {"activation_function": "gelu_new", "architectures": ["GPTNeoForCausalLM"], "attention_dropout": 0,
                "attention_layers": ["global", "local"] * 6, "attention_types": [[["global", "local"], 6]],
                "bos_token_id": 50256, "embed_dropout": 0, "eos_token_id": 50256, "gradient_checkpointing": False,
                "hidden_size": 768, "initializer_range": 0.02, "intermediate_size": None, "layer_norm_epsilon": 1e-05,
                "max_position_embeddings": 2048, "model_type": "gpt_neo", "num_heads": 12, "num_layers": 12,
                "resid_dropout": 0, "use_cache": True, "vocab_size": 50257, "window_size": 256}
# layer 0 local over 5 keys, so the app's layer-0 view shows the window
LOCAL_FIRST = dict(mh.FAMILIES["gpt_neo"], attention_types=[[["local", "global"], 1]])


def test_gpt_neo_125m_config_is_read_as_transformers_reads_it():
    cfg = model_config(GPT_NEO_125M)
    hf = tf.GPTNeoConfig(**{k: v for k, v in GPT_NEO_125M.items() if k != "model_type"})
    assert (cfg.family, cfg.position, cfg.d_model, cfg.n_layers, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim) == (
        "gpt_neo", "learned", hf.hidden_size, hf.num_layers, hf.num_heads, hf.num_heads, 64)
    assert (cfg.max_positions, cfg.vocab_size, cfg.norm_eps, cfg.qk_bias, cfg.pre_norm) == (2048, 50257, 1e-5,
                                                                                            False, True)
    kinds = {"global": "full_attention", "local": "sliding_attention"}
    assert cfg.layer_types == tuple(kinds[t] for t in hf.attention_layers)
    assert [cfg.window_of(i) for i in range(3)] == [None, 256, None]
    assert cfg.score_scalar == 1.0 and cfg.rope_scaling is None and cfg.attention_refusal is None


def test_a_silent_config_takes_gpt_neo_configs_defaults():
    hf = tf.GPTNeoConfig()
    cfg = model_config({"model_type": "gpt_neo"})
    assert (cfg.d_model, cfg.n_layers, cfg.n_heads, cfg.max_positions, cfg.vocab_size, cfg.norm_eps) == (
        hf.hidden_size, hf.num_layers, hf.num_heads, hf.max_position_embeddings, hf.vocab_size, hf.layer_norm_epsilon)
    assert cfg.sliding_window == hf.window_size == 256
    assert cfg.layer_types == ("full_attention", "sliding_attention") * 12


def test_a_saved_attention_layers_wins_as_transformers_loads_it(tmp_path):
    """save_pretrained writes attention_layers beside attention_types; loaded, it is set after the expansion."""
    saved = dict(GPT_NEO_125M, attention_layers=["local"] * 12)
    (tmp_path / "config.json").write_text(json.dumps(saved))
    assert tf.AutoConfig.from_pretrained(tmp_path).attention_layers == ["local"] * 12
    assert model_config(saved).layer_types == ("sliding_attention",) * 12


def _built(tmp_path, settings: dict):
    config = tf.GPTNeoConfig(**settings)
    config._attn_implementation = "eager"
    torch.manual_seed(5)
    return mh.save_random(tf.GPTNeoForCausalLM(config).eval(), tmp_path)


def _run(torch_model, ids):
    with torch.no_grad():
        return torch_model(input_ids=torch.as_tensor(np.asarray(ids)[None, :]), output_attentions=True,
                           output_hidden_states=True)


def test_x_q_k_and_unscaled_logits_of_a_local_layer_0_equal_the_models(tmp_path):
    """X is hidden_states[0] (wte + wpe); q and k are the projections' outputs; the logits are q·k without
    1/sqrt(head_dim) (a scale of 1/sqrt(8) would be off by 2.8x); the softmax over the window of 5 keys is
    transformers' own attention of layer 0."""
    torch_model = _built(tmp_path, LOCAL_FIRST)
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        ref, out = mh.capture(torch_model, "gpt_neo", ids), _run(torch_model, ids)
        x = model.input_x(ids)
        np.testing.assert_allclose(x, out.hidden_states[0][0].numpy(), rtol=0, atol=1e-5)
        qk = model.layer0_qk(ids)
        assert qk.window == 5 and model.config.window_of(1) is None
        heads = model.config.n_heads
        q, k = (ref[s].reshape(len(ids), heads, -1).transpose(1, 0, 2) for s in ("q", "k"))   # (H, n, hd)
        np.testing.assert_allclose(qk.q, q, rtol=0, atol=1e-5)
        np.testing.assert_allclose(qk.k, k, rtol=0, atol=1e-5)
        unscaled = np.einsum("hmd,hnd->hmn", q.astype(np.float64), k)
        np.testing.assert_allclose(qk.logits, unscaled, rtol=0, atol=1e-5 * np.abs(unscaled).max())
        np.testing.assert_array_equal(qk.logits, qk.logits_plain)          # no rotation: the same logits
        want = out.attentions[0][0].numpy()                                 # (H, n, n)
        np.testing.assert_allclose(mh.attention_of(qk), want, rtol=0, atol=1e-5)
        assert np.all(want[:, 12, :8] == 0) and np.all(want[:, 12, 8:] > 0)   # keys 12 - 5 < n <= 12 only


def test_a_later_local_layer_reads_its_window_as_transformers_does(tmp_path):
    """Layer 1 (local, 5 keys) from its real input, hidden_states[1]: the softmax equals transformers'."""
    torch_model = _built(tmp_path, mh.FAMILIES["gpt_neo"])
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        out = _run(torch_model, ids)
        assert model.layer0_qk(ids).window is None
        qk = model.layer0_qk(out.hidden_states[1][0].numpy(), layer=1)
        assert qk.window == 5
        np.testing.assert_allclose(mh.attention_of(qk), out.attentions[1][0].numpy(), rtol=0, atol=1e-5)


def test_the_tokens_and_learned_views_show_wte_wpe_and_x(tmp_path):
    """The Tokens view: E[ids] = wte rows, the summand = wpe[0..n-1], X = hidden_states[0]; the Learned view: the
    whole wpe table."""
    from explorer.compute import model_tokens, models
    from explorer.compute.learned import learned
    from explorer.params import Params

    torch_model = _built(tmp_path, mh.FAMILIES["gpt_neo"])
    base = torch_model.transformer
    try:
        r = model_tokens.for_model(Params(model=str(tmp_path), embedding_source="model", text=mh.TEXT))
        assert not r.error and r.family == "gpt_neo" and r.position == "learned" and r.scale == 1.0
        ids = [t.id for t in r.tokens]
        n = len(ids)
        np.testing.assert_array_equal(r.token_rows, base.wte.weight.detach().numpy()[ids])
        np.testing.assert_array_equal(r.pe_rows, base.wpe.weight.detach().numpy()[:n])
        np.testing.assert_allclose(r.x, _run(torch_model, ids).hidden_states[0][0].numpy(), rtol=0, atol=1e-5)
        table = learned(Params(model=str(tmp_path)))
        assert not table.note_kind and table.total_rows == 40
        np.testing.assert_array_equal(table.learned, base.wpe.weight.detach().numpy()[:len(table.learned)])
    finally:
        models.forget(str(tmp_path))


def test_export_qk_writes_the_unscaled_logits_and_the_window(tmp_path, capsys):
    """`pe-explorer export qk` of a GPT-Neo whose layer 0 is local: its softmax over the written logits inside
    the written window is transformers' attention of layer 0; the logits are q·k, not divided by sqrt(8)."""
    from explorer.commands.cli import main

    torch_model = _built(tmp_path / "neo", LOCAL_FIRST)
    code = main(["export", "qk", "--model", str(tmp_path / "neo"), "--text", mh.TEXT, "-o", str(tmp_path / "f.npz")])
    assert code == 0, capsys.readouterr()
    f = np.load(tmp_path / "f.npz")
    assert int(f["window"]) == 5
    np.testing.assert_allclose(f["logits"], np.einsum("hmd,hnd->hmn", f["q"], f["k"]), rtol=0, atol=1e-4)
    ids = [mh.WORDS.index(w) + 1 for w in mh.TEXT.split()]
    n = len(ids)
    m, k = np.indices((n, n))
    logits = np.where((k <= m) & (m - k < 5), f["logits"].astype(np.float64), -np.inf)
    probs = np.exp(logits - logits.max(axis=-1, keepdims=True))
    np.testing.assert_allclose(probs / probs.sum(axis=-1, keepdims=True), _run(torch_model, ids).attentions[0][0],
                               rtol=0, atol=1e-5)


@pytest.mark.parametrize("change, match", [
    ({"attention_types": [[["global", "local"], 5]]}, "attention_types expands to 10 layers; num_layers is 12"),
    ({"attention_types": [[["global", "sparse"], 6]]}, "GPT-Neo's layers are global or local"),
    ({"attention_types": [["global", "local"], 6]}, r"attention_types must be a list of \[\[types\], times\]"),
    ({"attention_types": [[["global", "local"], "6"]]}, r"must be a list of \[\[types\], times\]"),
    ({"attention_types": "global"}, r"must be a list of \[\[types\], times\]"),
    ({"attention_layers": ["global"] * 11}, "attention_layers lists 11 layers; num_layers is 12"),
    ({"attention_types": [[[["global"]], 12]]}, "GPT-Neo's layers are global or local"),      # (unhashable)
    ({"attention_types": [[["global"], 10**12]]}, "attention_types expands to more than 10,000 layers"),
    ({"attention_layers": ["global", "dense"] * 6}, "attention_layers must list global or local"),
    ({"attention_layers": [{"global": 1}] * 12}, "attention_layers must list global or local"),
    ({"attention_layers": "global"}, "attention_layers must list global or local"),
    ({"window_size": 0}, "window_size must be a whole number from 1"),
    ({"window_size": -256}, "window_size must be a whole number from 1"),
    ({"window_size": "256"}, "window_size must be a whole number from 1"),
    ({"window_size": None}, "window_size must be a whole number from 1"),
    ({"hidden_size": 770}, "hidden_size 770 is not divisible by num_heads 12"),
    ({"num_heads": 0}, "num_heads must be a positive integer"),
])
def test_a_config_gpt_neo_cannot_run_is_refused_in_one_line(change, match):
    cfg = {**GPT_NEO_125M, **change}
    if "attention_types" in change:      # (a saved attention_layers would win over the changed types)
        del cfg["attention_layers"]
    with pytest.raises(InputError, match=match) as info:
        model_config(cfg)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("change", [{"attention_types": [[["global", "local"], 5]]}, {"hidden_size": 770},
                                    {"attention_types": [[["global", "sparse"], 6]]}])
def test_transformers_refuses_the_same_configs(change):
    """The refusals above that transformers makes itself: validate_architecture (a count that is not num_layers),
    GPTNeoSelfAttention (a width heads do not divide), GPTNeoAttention (a type other than global / local)."""
    settings = {**GPT_NEO_125M, "hidden_size": 24, "num_heads": 4, "num_layers": 12, "vocab_size": 8,
                "max_position_embeddings": 8, "bos_token_id": 0, "eos_token_id": 0,
                **({"hidden_size": 26} if "hidden_size" in change else {}),
                **{k: v for k, v in change.items() if k != "hidden_size"}}
    settings.pop("model_type")
    if "attention_types" in change:      # (a saved attention_layers would win over the changed types)
        settings.pop("attention_layers")
    from huggingface_hub.errors import StrictDataclassClassValidationError     # (validate_architecture's)

    with pytest.raises((ValueError, NotImplementedError, StrictDataclassClassValidationError)):
        tf.GPTNeoForCausalLM(tf.GPTNeoConfig(**settings))
