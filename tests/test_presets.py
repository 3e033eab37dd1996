"""Model presets: the file validates, every RoPE preset computes what transformers computes from an
equivalent config, the config.json forms convert to the same settings, and bad files are refused."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest

from explorer.backend.presets import (
    POSITION_FAMILIES,
    get_preset,
    load_presets,
    presets_from_json,
)
from explorer.backend.rope_config import scaling_from_config
from explorer.backend.rope_scaling import inv_frequencies
from explorer.errors import InputError
from explorer.paths import resource

transformers = pytest.importorskip("transformers")
from transformers import LlamaConfig, Phi3Config
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
from transformers.models.gpt_neox.modeling_gpt_neox import GPTNeoXRotaryEmbedding

REQUIRED = ("gpt2", "bert-base-uncased", "all-minilm-l6-v2", "opt-125m", "llama-2-7b", "llama-3-8b", "llama-3.1-8b",
            "llama-3.2-1b", "llama-4-scout-instruct", "llama-4-maverick-instruct", "mistral-7b-v0.1", "qwen2.5-7b",
            "qwen2.5-7b-yarn", "qwen3-8b", "deepseek-v3", "gpt-oss-20b", "phi-3-mini-128k", "gemma-2b", "gpt-j-6b",
            "pythia-160m", "bloom-560m", "mpt-7b", "smollm2-135m", "mistral-small-3.1", "qwen2.5-vl-7b",
            "glm-4-9b-0414", "glm-4.5-air", "glm-4.7", "phi-2", "gemma-3-1b-global")
ROPE = [name for name, p in load_presets().items() if p.position == "rope"]


def test_every_required_model_is_there_with_sources():
    presets = load_presets()
    assert set(REQUIRED) <= set(presets)
    for p in presets.values():
        assert p.position in POSITION_FAMILIES
        assert p.sources and all(s.repo and s.path for s in p.sources)
        assert (p.pairing is None) == (p.position != "rope")


def test_families_pairings_and_embedding_scales_of_named_models():
    presets = load_presets()
    assert {n: presets[n].position for n in ("gpt2", "bert-base-uncased", "bloom-560m", "mpt-7b")} == {
        "gpt2": "learned", "bert-base-uncased": "learned", "bloom-560m": "alibi", "mpt-7b": "alibi"}
    assert presets["gpt-j-6b"].pairing == "interleaved" and presets["deepseek-v3"].pairing == "interleaved"
    assert presets["llama-4-scout-instruct"].pairing == presets["llama-4-maverick-instruct"].pairing == "interleaved"
    assert presets["llama-3.1-8b"].pairing == "half" and presets["pythia-160m"].pairing == "half"
    assert presets["glm-4-9b-0414"].pairing == "interleaved"                 # Glm4: x[0::2], x[1::2]
    assert presets["glm-4.5-air"].pairing == presets["glm-4.7"].pairing == "half"   # Glm4Moe: rotate_half
    assert presets["glm-4.5-air"].rotary_dim == 64 and presets["phi-2"].rotary_dim == 32
    for gemma in ("gemma-2b", "gemma-3-1b-global", "gemma-4-global"):
        assert presets[gemma].embedding_scale == pytest.approx(math.sqrt(presets[gemma].d_model))
    assert all(p.embedding_scale == 1.0 for n, p in presets.items() if not n.startswith("gemma"))
    g4 = presets["gemma-4-global"]       # p-RoPE: a quarter of the whole head's pairs turn
    assert g4.rope_scaling.rope_type == "proportional" and g4.rotary_dim == 512
    assert int((g4.frequencies().inv_freq > 0).sum()) == 64 and len(g4.frequencies().inv_freq) == 256
    assert presets["pythia-160m"].rotary_dim == 16 and presets["gpt-j-6b"].rotary_dim == 64
    assert presets["deepseek-v3"].head_dim == 64          # MLA: qk_rope_head_dim
    for name, p in presets.items():
        # (Gemma 4's global heads: 8 x 512 > 2304; gpt-oss: 64 x 64 > 2880; GLM-4.5-Air / 4.7: 96 x 128;
        # Mistral Small 3.1: 32 x 128 < 5120; Gemma 3 1B: 4 x 256 < 1152)
        if name not in ("deepseek-v3", "gemma-4-global", "gpt-oss-20b", "glm-4.5-air", "glm-4.7",
                        "mistral-small-3.1", "gemma-3-1b-global"):
            assert p.head_dim * p.n_heads == p.d_model, name
        assert p.n_heads % p.n_kv_heads == 0, name


def transformers_frequencies(p, seq_len=None):
    """The preset as a 5.x config (a Phi3Config for Phi's top-level original length), through transformers."""
    params = dict(p.rope_scaling.to_dict(), rope_theta=p.rope_theta,
                  partial_rotary_factor=p.rotary_fraction)
    common = {"hidden_size": p.head_dim * p.n_heads, "num_attention_heads": p.n_heads,
                  "num_key_value_heads": p.n_kv_heads, "head_dim": p.head_dim,
                  # (a preset without it, GLM-4-9B-0414's: default RoPE, where transformers never reads it)
                  "max_position_embeddings": p.max_position_embeddings or p.context_length}
    if params["rope_type"] == "longrope":
        original = params.pop("original_max_position_embeddings")
        config = Phi3Config(original_max_position_embeddings=original, rope_parameters=params, **common)
    else:
        config = LlamaConfig(rope_parameters=params, **common)
    if params["rope_type"] == "default":
        inv, att = GPTNeoXRotaryEmbedding.compute_default_rope_parameters(config)
    else:
        inv, att = ROPE_INIT_FUNCTIONS[params["rope_type"]](config, "cpu", seq_len=seq_len)
    return inv.double().numpy(), float(att)


@pytest.mark.parametrize("name", ROPE)
def test_rope_presets_match_transformers(name):
    p = get_preset(name)
    for seq_len in (None, 2 * p.context_length):
        ours = p.frequencies(seq_len)
        inv, att = transformers_frequencies(p, seq_len)
        assert ours.inv_freq.shape == (p.rotary_dim // 2,)
        np.testing.assert_allclose(ours.inv_freq, inv, rtol=1e-6)
        assert ours.attention_factor == pytest.approx(att, rel=1e-12)


def test_gpt_oss_yarn_is_not_truncated():
    """gpt-oss-20b's YaRN keeps the correction range's ends unrounded (truncate False), which matters: its
    ramp differs from the rounded one (transformers' own for the preset: test_rope_presets_match_transformers)."""
    p = get_preset("gpt-oss-20b")
    rounded = inv_frequencies(p.head_dim, p.rope_theta, replace(p.rope_scaling, truncate=True), None,
                              p.max_position_embeddings).inv_freq
    ours = p.frequencies().inv_freq
    assert p.rope_scaling.truncate is False and not np.allclose(ours, rounded, rtol=1e-6)
    np.testing.assert_allclose(ours[:5], rounded[:5], rtol=1e-6)           # the fastest pairs: kept as they are


def test_named_attention_factors():
    assert get_preset("qwen2.5-7b-yarn").frequencies().attention_factor == pytest.approx(0.1 * math.log(4) + 1)
    assert get_preset("deepseek-v3").frequencies().attention_factor == 1.0     # mscale == mscale_all_dim
    assert get_preset("phi-3.5-mini").frequencies().attention_factor == pytest.approx(
        math.sqrt(1 + math.log(32) / math.log(4096)))


# Literal config.json forms as published (4.x keys), read by scaling_from_config
CONFIG_FORMS = {
    "llama-3.1-8b": {"max_position_embeddings": 131072, "rope_theta": 500000.0,
                     "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                      "original_max_position_embeddings": 8192, "rope_type": "llama3"}},
    "qwen2.5-7b-yarn": {"max_position_embeddings": 32768, "rope_theta": 1000000.0,
                        "rope_scaling": {"factor": 4.0, "original_max_position_embeddings": 32768, "type": "yarn"}},
    "deepseek-v3": {"max_position_embeddings": 163840, "rope_theta": 10000, "qk_rope_head_dim": 64,
                    "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0,
                                     "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096,
                                     "type": "yarn"}},
    "gpt-oss-20b": {"max_position_embeddings": 131072, "rope_theta": 150000, "head_dim": 64,
                    "rope_scaling": {"beta_fast": 32.0, "beta_slow": 1.0, "factor": 32.0,
                                     "original_max_position_embeddings": 4096, "rope_type": "yarn",
                                     "truncate": False}},
    "pythia-160m": {"hidden_size": 768, "num_attention_heads": 12, "rotary_pct": 0.25,
                    "max_position_embeddings": 2048},
    "gpt-j-6b": {"n_embd": 4096, "n_head": 16, "rotary_dim": 64, "n_positions": 2048},
    "llama-2-7b": {"max_position_embeddings": 4096, "rope_scaling": None},
    # Llama 4's text_config (the RoPE layers): Scout-Instruct's llama3 with equal band factors, Maverick's none
    "llama-4-scout-instruct": {"max_position_embeddings": 10485760, "rope_theta": 500000.0, "head_dim": 128,
                               "rope_scaling": {"factor": 16.0, "high_freq_factor": 1.0, "low_freq_factor": 1.0,
                                                "original_max_position_embeddings": 8192, "rope_type": "llama3"}},
    "llama-4-maverick-instruct": {"max_position_embeddings": 1048576, "rope_theta": 500000.0, "head_dim": 128,
                                  "rope_scaling": None},
    # Mistral Small 3.1's text_config; Qwen2.5-VL's M-RoPE dict (mrope_section is not a frequency setting)
    "mistral-small-3.1": {"head_dim": 128, "hidden_size": 5120, "num_attention_heads": 32,
                          "max_position_embeddings": 131072, "rope_theta": 1000000000.0},
    "qwen2.5-vl-7b": {"hidden_size": 3584, "num_attention_heads": 28, "max_position_embeddings": 128000,
                      "rope_scaling": {"mrope_section": [16, 24, 24], "rope_type": "default", "type": "default"},
                      "rope_theta": 1000000.0},
    "glm-4.5-air": {"head_dim": 128, "partial_rotary_factor": 0.5, "max_position_embeddings": 131072,
                    "rope_scaling": None, "rope_theta": 1000000},
    "glm-4.7": {"head_dim": 128, "max_position_embeddings": 202752, "partial_rotary_factor": 0.5,
                "rope_scaling": None, "rope_theta": 1000000},
    "phi-2": {"n_embd": 2560, "n_head": 32, "n_positions": 2048, "rotary_dim": 32},       # phi-msft: no base
    "gemma-3-1b-global": {"head_dim": 256, "max_position_embeddings": 32768, "rope_local_base_freq": 10000,
                          "rope_scaling": None, "rope_theta": 1000000},
}


@pytest.mark.parametrize("name", sorted(CONFIG_FORMS))
def test_config_forms_give_the_preset_settings(name):
    p = get_preset(name)
    base, scaling = scaling_from_config(CONFIG_FORMS[name])
    assert base == p.rope_theta
    assert scaling == p.rope_scaling
    np.testing.assert_array_equal(p.frequencies().inv_freq, inv_frequencies(
        p.head_dim, base, scaling, None, p.max_position_embeddings).inv_freq)


@pytest.mark.parametrize("name", ["llama-4-scout-instruct", "llama-4-maverick-instruct"])
def test_llama4_presets_as_llama4_computes_them(name):
    """Llama 4's own classes, not LlamaConfig: Llama4TextRotaryEmbedding's inv_freq from a Llama4TextConfig with
    the preset's values, and its apply_rotary_emb turning channel 2i into channel 2i + 1 only (interleaved pairs,
    the preset's pairing; rotate_half would move it to channel 2i + head_dim/2)."""
    import torch
    from transformers import Llama4TextConfig
    from transformers.models.llama4.modeling_llama4 import Llama4TextRotaryEmbedding, apply_rotary_emb

    p = get_preset(name)
    params = dict(p.rope_scaling.to_dict(), rope_theta=p.rope_theta)
    config = Llama4TextConfig(hidden_size=p.d_model, num_attention_heads=p.n_heads, num_key_value_heads=p.n_kv_heads,
                              head_dim=p.head_dim, max_position_embeddings=p.max_position_embeddings,
                              vocab_size=p.vocab_size, num_hidden_layers=4, rope_parameters=params)
    rotary = Llama4TextRotaryEmbedding(config)
    np.testing.assert_allclose(p.frequencies().inv_freq, rotary.inv_freq.double().numpy(), rtol=1e-6)
    assert rotary.attention_scaling == p.frequencies().attention_factor == 1.0
    assert config.no_rope_layers == [1, 1, 1, 0]              # every 4th layer NoPE (not shown by the preset)
    m, pair = 5000, 10
    x = torch.zeros(1, 1, 1, p.head_dim)
    x[..., 2 * pair] = 1.0
    freqs_cis = rotary(x, torch.tensor([[m]]))
    out, _ = apply_rotary_emb(x, x, freqs_cis)
    got = out[0, 0, 0].double().numpy()
    assert np.flatnonzero(got).tolist() == [2 * pair, 2 * pair + 1]
    angle = float(torch.tensor(float(m)) * rotary.inv_freq[pair])        # the angle as transformers takes it (float32)
    np.testing.assert_allclose(got[2 * pair:2 * pair + 2], [math.cos(angle), math.sin(angle)], atol=1e-6)
    assert p.pairing == "interleaved"


def test_phi35_config_form_with_top_level_original():
    p = get_preset("phi-3.5-mini")
    config = {"max_position_embeddings": 131072, "original_max_position_embeddings": 4096,
              "rope_theta": 10000.0, "rope_scaling": {"type": "longrope",
                                                      "short_factor": list(p.rope_scaling.short_factor),
                                                      "long_factor": list(p.rope_scaling.long_factor)}}
    _, scaling = scaling_from_config(config)
    assert scaling.original_max_position_embeddings == 4096 and scaling.factor == 32.0
    assert scaling.short_factor == p.rope_scaling.short_factor


def test_unknown_preset_lists_the_known_ones():
    with pytest.raises(InputError) as info:
        get_preset("llama-9")
    message = str(info.value)
    assert "\n" not in message and "unknown preset 'llama-9'" in message
    assert all(name in message for name in REQUIRED)


def _file_with(name="x", **changes):
    data = json.loads(resource("presets", "models.json").read_text(encoding="utf-8"))
    entry = dict(data["presets"]["llama-3.1-8b"], **changes)
    return json.dumps({"presets": {name: entry}})


@pytest.mark.parametrize("changes, needle", [
    ({"position": "rotary"}, "x.position must be one of learned, sinusoidal, rope, alibi, none"),
    ({"d_model": 0}, "x.d_model must be a whole number >= 1"),
    ({"pairing": "zigzag"}, "x.pairing must be one of interleaved, half"),
    ({"rope_theta": None}, "x.rope_theta must be set exactly when position is rope"),
    ({"rope_scaling": {"rope_type": "llama3", "factor": 8.0}}, "rope type llama3 needs low_freq_factor"),
    ({"rope_scaling": {"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 8,
                       "bogus": 1}}, "x.rope_scaling:"),
    ({"rotary_fraction": 2.0}, "partial_rotary_factor must be a number in"),
    ({"sources": []}, "x.sources must be a list"),
])
def test_bad_preset_files_refused_with_one_line(changes, needle):
    with pytest.raises(InputError, match=needle) as info:
        presets_from_json(_file_with(**changes))
    assert "\n" not in str(info.value)


def test_missing_keys_and_bad_json():
    data = json.loads(_file_with())
    del data["presets"]["x"]["head_dim"]
    with pytest.raises(InputError, match="x lacks head_dim"):
        presets_from_json(json.dumps(data))
    with pytest.raises(InputError, match="not valid JSON"):
        presets_from_json("{")
    with pytest.raises(InputError, match="'presets' object"):
        presets_from_json("[]")
