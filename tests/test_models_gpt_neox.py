"""GPT-NeoX checkpoints (Pythia, GPT-NeoX-20B) against transformers' GPTNeoXConfig and GPTNeoXForCausalLM.

What differs from the Llama-like families: the 4.x keys `rotary_emb_base` / `rotary_pct` (a quarter of
each head turns by default, whatever the rope type), a LayerNorm before attention, and one fused
`query_key_value` whose rows are head 0's q, k and v, then head 1's. The plain X, q/k and RoPE checks
run with every other family in tests/test_models_families.py.
"""

from __future__ import annotations

import json

import pytest

from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")
pytest.importorskip("torch")

# EleutherAI/pythia-14m's config.json (commit 94f7c35d5e9f2e9bac8ca839329f505b4d007d5d), as written by
# transformers 4.x: no rope_parameters, its own rotary_emb_base and rotary_pct
PYTHIA_14M = {"architectures": ["GPTNeoXForCausalLM"], "attention_bias": True, "bos_token_id": 0,
              "eos_token_id": 0, "hidden_act": "gelu", "hidden_size": 128, "intermediate_size": 512,
              "layer_norm_eps": 1e-5, "max_position_embeddings": 2048, "model_type": "gpt_neox",
              "num_attention_heads": 4, "num_hidden_layers": 6, "rope_scaling": None, "rotary_emb_base": 10000,
              "rotary_pct": 0.25, "tie_word_embeddings": False, "use_parallel_residual": True,
              "vocab_size": 50304}


def test_pythia_14m_config_reads_as_transformers_reads_it():
    """A quarter of each 32-channel head turns (8 channels), base 10,000: GPTNeoXConfig's rope_parameters."""
    want = tf.GPTNeoXConfig(**PYTHIA_14M).rope_parameters
    cfg = model_config(PYTHIA_14M, "pythia-14m")
    assert (cfg.family, cfg.position, cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim) == (
        "gpt_neox", "rope", 128, 4, 4, 32)
    assert cfg.rope_base == want["rope_theta"] == 10000
    assert cfg.partial_rotary_factor == want["partial_rotary_factor"] == 0.25 and cfg.rope_dim == 8
    assert (cfg.qk_bias, cfg.norm_eps, cfg.max_positions, cfg.rope_refusal) == (True, 1e-5, 2048, None)


@pytest.mark.parametrize("extra", [{}, {"rope_theta": 700.0}, {"rotary_emb_base": 500, "rotary_pct": 0.5},
                                   {"rope_scaling": {"type": "linear", "factor": 2.0}}])
def test_rope_keys_are_read_as_gpt_neox_config_reads_them(extra):
    """rotary_emb_base (default 10,000; a top-level rope_theta is not read) and rotary_pct (default 0.25)."""
    cfg_dict = {k: v for k, v in PYTHIA_14M.items() if k not in ("rotary_emb_base", "rotary_pct")}
    cfg_dict.update(extra)
    want = tf.GPTNeoXConfig(**json.loads(json.dumps(cfg_dict))).rope_parameters   # (it edits the dict)
    cfg = model_config(cfg_dict)
    assert cfg.rope_base == want["rope_theta"]
    assert cfg.partial_rotary_factor == want["partial_rotary_factor"]
    assert cfg.rope_scaling.rope_type == want["rope_type"]


def _pythia_style(folder):
    """Rewrite a 5.x GPT-NeoX config.json with Pythia's 4.x keys (rotary_emb_base, rotary_pct)."""
    path = folder / "config.json"
    cfg = json.loads(path.read_text())
    params = cfg.pop("rope_parameters")
    cfg.update(rotary_emb_base=params.pop("rope_theta"), rotary_pct=params.pop("partial_rotary_factor"))
    kind = params.pop("rope_type")
    cfg["rope_scaling"] = None if kind == "default" else {"type": kind, **params}
    path.write_text(json.dumps(cfg))
    return cfg


@pytest.mark.parametrize("scaling", [None, {"rope_type": "linear", "factor": 3.0},
                                     {"rope_type": "dynamic", "factor": 2.0}])
def test_a_pythia_style_folder_equals_transformers_layer_0(tmp_path, scaling):
    """X, q and k after the partial RoPE (scaled too: GPT-NeoX turns its rotary fraction with any rope
    type) and the softmax of the causal logits equal transformers' model of the same folder."""
    import torch

    settings = {"rotary_emb_base": 700, "rotary_pct": 0.5}
    if scaling:
        settings["rope_scaling"] = dict(scaling, rope_theta=700.0, partial_rotary_factor=0.5)
    config = tf.GPTNeoXConfig(**{**mh.FAMILIES["gpt_neox"], **settings})
    torch.manual_seed(3)
    mh.assert_reloaded_as_transformers(tf.GPTNeoXForCausalLM, config, tmp_path, "gpt_neox", _pythia_style, 4)
    written = json.loads((tmp_path / "config.json").read_text())
    assert "rope_parameters" not in written and written["rotary_pct"] == 0.5
    with open_model(tmp_path) as model:
        assert model.config.rope_scaling.rope_type == (scaling or {"rope_type": "default"})["rope_type"]


@pytest.mark.parametrize("suffix, change, match", [
    ("layers.0.attention.query_key_value.weight", lambda w: w[:90],
     r"query_key_value.weight has 90 rows; config.json says 4 heads of 8"),
    ("layers.0.attention.query_key_value.bias", lambda b: b[:95],
     r"query_key_value.bias has shape \(95,\), not \(96,\)"),
    # found by a helper's attack: a 0-d bias was broadcast over the 96 rows (transformers refuses it)
    ("layers.0.attention.query_key_value.bias", lambda b: b[0], r"query_key_value.bias has shape \(\), not \(96,\)")])
def test_a_fused_projection_of_the_wrong_size_is_named(tmp_path, suffix, change, match):
    """query_key_value with rows missing, or a bias of the wrong shape: one line naming the tensor."""
    mh.assert_damaged_refused("gpt_neox", tmp_path, suffix, change, match)


@pytest.mark.parametrize("extra, match", [
    ({"rotary_emb_base": 0.5, "rope_theta": 10000.0}, r"rotary_emb_base \(RoPE's base\) must be a number > 1, not 0.5"),
    ({"rotary_pct": 1.5}, r"rotary_pct must be a number in \(0, 1\], not 1.5"),
    ({"rotary_pct": "x"}, r"rotary_pct must be a number in \(0, 1\], not 'x'"),
    ({"rope_scaling": "linear"}, r"rope_scaling must be an object, not 'linear'"),
    ({"rope_parameters": []}, r"rope_parameters must be an object, not \[\]"),
    ({"head_dim": 16}, r"head_dim 16 is not hidden_size / num_attention_heads \(128 / 4\)"),
])
def test_bad_gpt_neox_rope_keys_are_named_as_written(extra, match):
    """Found by a helper's attack: the messages named rope_theta or rope_parameters for GPT-NeoX's own
    keys, a falsy rope_parameters ([]) was ignored (GPTNeoXConfig refuses it), and a head_dim beside
    hidden / heads gave other q and k than transformers (its RoPE sizes itself by head_dim, its
    attention by hidden / heads) without a word."""
    with pytest.raises(InputError, match=match):
        model_config({**PYTHIA_14M, **extra})


@pytest.mark.parametrize("head_dim, pct, refused", [(10, 0.5, True), (12, 0.5, False), (20, 0.25, True),
                                                    (32, 0.25, False)])
def test_an_odd_count_of_rotated_channels_is_refused_in_one_line(head_dim, pct, refused):
    """int(head_dim x rotary_pct) odd: transformers' inv_freq has ceil(dim / 2) frequencies made for the odd dim,
    and GPT-NeoX turns one channel more than dim (cos.shape[-1]); PE Explorer's rotations take even counts, so
    q and k are refused with the reason (the model still opens), where they had turned dim - 1 channels."""
    cfg_dict = {**PYTHIA_LIKE, "hidden_size": 4 * head_dim, "rotary_pct": pct}
    dim = int(head_dim * pct)
    torch = pytest.importorskip("torch")
    rotary = tf.GPTNeoXForCausalLM(tf.GPTNeoXConfig(**cfg_dict)).gpt_neox.rotary_emb
    assert rotary.inv_freq.shape == ((dim + 1) // 2,)
    cos, _ = rotary(torch.zeros(1), torch.arange(3)[None])
    assert cos.shape[-1] == (dim + 1) // 2 * 2                    # the channels transformers turns
    cfg = model_config(cfg_dict)
    if refused:
        assert cfg.rope_scaling is None and cfg.rope_refusal == (
            f"head_dim x partial_rotary_factor = {head_dim} x {pct:g} gives {dim} rotated channels, an odd count: "
            f"transformers turns {dim + 1} at frequencies made for {dim}, which PE Explorer does not model")
    else:
        assert cfg.rope_refusal is None and cfg.rope_dim == dim


PYTHIA_LIKE = {"model_type": "gpt_neox", "hidden_size": 40, "intermediate_size": 32, "num_attention_heads": 4,
               "num_hidden_layers": 1, "vocab_size": 64, "max_position_embeddings": 64, "rotary_emb_base": 10000}
