"""RoPE scaling against transformers' own ROPE_INIT_FUNCTIONS (5.x), for every rope type.

transformers computes in float32, we in float64. Listed configs: equal to 1e-6 relative to the float32
functions as shipped. Drawn configs (extreme bases, narrow llama3 bands, ...): equal to 1e-9 relative to
the same functions run in float64 (torch.float / torch.float32 pointed at float64 during the call; not
longrope, whose exponent is always float32: its closed form is checked to 1e-13 instead), and
to the shipped float32 functions within float32 rounding (2e-5; measured worst 2.5e-6 over 1,500 draws).
"""

from __future__ import annotations

import contextlib
import math
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.backend.rope_config import scaling_from_config
from explorer.backend.rope_profile import REGIMES, pair_profile
from explorer.backend.rope_scaling import (
    ROPE_TYPES,
    RopeScaling,
    inv_frequencies,
    rope_frequencies,
    rotated_pairs,
    rotated_width,
)
from explorer.errors import InputError

transformers = pytest.importorskip("transformers")
from transformers import GPTNeoXConfig, LlamaConfig
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
from transformers.models.gpt_neox.modeling_gpt_neox import GPTNeoXRotaryEmbedding

settings.register_profile("ci", max_examples=80, deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=10_000, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(settings.get_profile(os.environ.get("PE_FUZZ_PROFILE", "ci")))
RTOL = 1e-6


@contextlib.contextmanager
def float64_torch():
    """transformers' rope functions name torch.float / torch.float32; point both at float64 meanwhile."""
    import torch

    saved = torch.float, torch.float32
    torch.float = torch.float32 = torch.float64
    try:
        yield
    finally:
        torch.float, torch.float32 = saved


def reference(head_dim, base, scaling: RopeScaling, max_len=None, seq_len=None, exact=False):
    """transformers' (inv_freq, attention_factor) from a 5.x-style LlamaConfig built here; exact=True
    runs the same functions in float64."""
    params = {"rope_type": scaling.rope_type, "rope_theta": float(base),
              "partial_rotary_factor": scaling.partial_rotary_factor}
    for name in ("factor", "low_freq_factor", "high_freq_factor", "beta_fast", "beta_slow", "mscale",
                 "mscale_all_dim", "attention_factor", "truncate"):
        if getattr(scaling, name) is not None:
            params[name] = getattr(scaling, name)
    for name in ("short_factor", "long_factor"):
        if getattr(scaling, name) is not None:
            params[name] = list(getattr(scaling, name))
    if scaling.rope_type == "yarn":
        params["factor"] = scaling.factor       # a required key in 5.x, None meaning "from the lengths"
    original = scaling.original_max_position_embeddings
    if scaling.rope_type == "dynamic":
        max_len = original or max_len           # dynamic scales against max_position_embeddings
    elif original is not None and scaling.rope_type != "linear":
        params["original_max_position_embeddings"] = original
    config = LlamaConfig(hidden_size=head_dim * 2, num_attention_heads=2, head_dim=head_dim,
                         max_position_embeddings=max_len or 4096, rope_parameters=params)
    with float64_torch() if exact else contextlib.nullcontext():
        if scaling.rope_type == "default":
            inv, att = GPTNeoXRotaryEmbedding.compute_default_rope_parameters(config)
        else:
            inv, att = ROPE_INIT_FUNCTIONS[scaling.rope_type](config, "cpu", seq_len=seq_len)
    assert inv.dtype == (torch_float64() if exact else torch_float32())
    return inv.double().numpy(), float(att)


def torch_float64():
    import torch

    return torch.float64


def torch_float32():
    import torch

    return torch.float32


def assert_same(head_dim, base, scaling, max_len=None, seq_len=None, exact=False, rtol=RTOL):
    ours = inv_frequencies(head_dim, base, scaling, seq_len, max_len)
    ref_inv, ref_att = reference(head_dim, base, scaling, max_len, seq_len, exact)
    assert ours.inv_freq.dtype == np.float64
    assert ours.inv_freq.shape == ref_inv.shape == (rotated_width(head_dim, scaling) // 2,)
    np.testing.assert_allclose(ours.inv_freq, ref_inv, rtol=rtol, atol=0)
    assert ours.attention_factor == pytest.approx(ref_att, rel=1e-12)
    return ours


CASES = [
    (128, 10000.0, RopeScaling(), None, None),
    (64, 1e6, RopeScaling(partial_rotary_factor=0.25), None, None),
    (128, 10000.0, RopeScaling("linear", factor=4.0), None, None),
    (80, 5e5, RopeScaling("linear", factor=0.5, partial_rotary_factor=0.5), None, None),
    (128, 10000.0, RopeScaling("dynamic", factor=2.0), 4096, 4096),
    (128, 10000.0, RopeScaling("dynamic", factor=2.0), 4096, 10000),
    (64, 1e4, RopeScaling("dynamic", factor=8.0, partial_rotary_factor=0.25), 2048, 30000),
    (128, 10000.0, RopeScaling("dynamic", factor=3.0, original_max_position_embeddings=1024), None, 5000),
    (128, 1e6, RopeScaling("yarn", factor=4.0, original_max_position_embeddings=32768), 131072, None),
    (64, 1e4, RopeScaling("yarn", factor=40.0, original_max_position_embeddings=4096, beta_fast=32,
                          beta_slow=1, mscale=1.0, mscale_all_dim=1.0), 163840, None),
    (64, 1e4, RopeScaling("yarn", factor=40.0, original_max_position_embeddings=4096, mscale=0.707,
                          mscale_all_dim=1.0), 163840, None),
    (128, 5e4, RopeScaling("yarn", factor=16.0, original_max_position_embeddings=2048, truncate=False,
                           beta_fast=8.0, beta_slow=0.5), None, None),
    (96, 1e4, RopeScaling("yarn", factor=2.0, original_max_position_embeddings=4096, attention_factor=0.8,
                          partial_rotary_factor=0.5), None, None),
    (128, 5e5, RopeScaling("llama3", factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                           original_max_position_embeddings=8192), 131072, None),
    (64, 5e5, RopeScaling("llama3", factor=32.0, low_freq_factor=1.0, high_freq_factor=4.0,
                          original_max_position_embeddings=8192), 131072, None),
    (128, 1e4, RopeScaling("llama3", factor=2.5, low_freq_factor=0.5, high_freq_factor=8.0,
                           original_max_position_embeddings=512, partial_rotary_factor=0.5), None, None),
    # Llama-4-Scout-17B-16E-Instruct's config.json: equal band factors, so one step at 8192 (transformers warns)
    (128, 5e5, RopeScaling("llama3", factor=16.0, low_freq_factor=1.0, high_freq_factor=1.0,
                           original_max_position_embeddings=8192), 10485760, None),
]
PROPORTIONAL = [   # Gemma 4's full-attention layers: p 0.25, theta 1e6 (transformers' Gemma4TextConfig defaults)
    (512, 1e6, RopeScaling("proportional", partial_rotary_factor=0.25), None, None),
    (256, 1e6, RopeScaling("proportional", factor=8.0, partial_rotary_factor=0.25), None, None),
    (128, 1e4, RopeScaling("proportional"), None, None),
    (130, 5e5, RopeScaling("proportional", factor=3.0, partial_rotary_factor=0.33), None, None),
    (6, 1e4, RopeScaling("proportional", partial_rotary_factor=0.5), None, None),
]
CASES += PROPORTIONAL
LONG = RopeScaling("longrope", short_factor=[1.0 + 0.01 * i for i in range(48)],
                   long_factor=[1.0 + i for i in range(48)], original_max_position_embeddings=4096)


@pytest.mark.parametrize("head_dim, base, scaling, max_len, seq_len", CASES)
def test_matches_transformers(head_dim, base, scaling, max_len, seq_len):
    assert_same(head_dim, base, scaling, max_len, seq_len)


@pytest.mark.parametrize("seq_len", [None, 100, 4096, 4097, 100_000])
def test_longrope_short_and_long_factor_and_its_attention_factor(seq_len):
    ours = assert_same(96, 10000.0, LONG, 131072, seq_len)
    assert ours.attention_factor == pytest.approx(math.sqrt(1 + math.log(32) / math.log(4096)))
    plain = 10000.0 ** -(np.arange(0, 96, 2) / 96)
    factors = LONG.long_factor if seq_len is not None and seq_len > 4096 else LONG.short_factor
    np.testing.assert_allclose(ours.inv_freq, plain / np.array(factors), rtol=1e-13)


def test_default_is_the_closed_form_and_friendly_form_agrees():
    ours = rope_frequencies(64, 10000.0)
    np.testing.assert_allclose(ours.inv_freq, 10000.0 ** (-np.arange(32) * 2 / 64), rtol=1e-14)
    assert ours.attention_factor == 1.0
    llama3 = rope_frequencies(128, 5e5, "llama3", factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
                              original_max_position_embeddings=8192)
    assert np.array_equal(llama3.inv_freq, inv_frequencies(128, 5e5, CASES[13][2]).inv_freq)


def test_yarn_factor_from_max_position_embeddings_like_transformers():
    scaling = RopeScaling("yarn", original_max_position_embeddings=4096)
    ours = assert_same(64, 1e4, scaling, max_len=163840)
    assert ours.attention_factor == pytest.approx(0.1 * math.log(40) + 1)


EVEN_DIMS = st.sampled_from([(hd, p) for hd in (8, 16, 32, 48, 64, 80, 96, 128, 256)
                             for p in (1.0, 0.5, 0.25) if int(hd * p) % 2 == 0 and int(hd * p) >= 4])
BASES = st.floats(1.5, 1e6)
LENGTHS = st.integers(16, 200_000)
FACTORS = st.floats(1.0, 64.0)


@st.composite
def drawn_config(draw):
    (head_dim, fraction), base, kind = draw(EVEN_DIMS), draw(BASES), draw(st.sampled_from(ROPE_TYPES))
    original, seq_len = draw(LENGTHS), draw(st.none() | LENGTHS)
    dim = int(head_dim * fraction)
    p = {"partial_rotary_factor": fraction}
    if kind in ("linear", "dynamic", "yarn", "llama3") or (kind == "proportional" and draw(st.booleans())):
        p["factor"] = draw(FACTORS)
    if kind in ("dynamic", "yarn", "llama3", "longrope"):
        p["original_max_position_embeddings"] = original
    if kind == "yarn":
        slow = draw(st.floats(0.25, 4.0))
        p.update(beta_slow=slow, beta_fast=slow + draw(st.floats(0.5, 64.0)), truncate=draw(st.booleans()))
        if draw(st.booleans()):
            p.update(mscale=draw(st.floats(0.1, 2.0)), mscale_all_dim=draw(st.floats(0.1, 2.0)))
        if draw(st.booleans()):
            p["attention_factor"] = draw(st.floats(0.1, 3.0))
    if kind == "llama3":
        low = draw(st.floats(0.25, 4.0))
        p.update(low_freq_factor=low, high_freq_factor=low + draw(st.floats(0.25, 8.0)))
    if kind == "longrope":
        factors = st.lists(st.floats(1.0, 80.0), min_size=dim // 2, max_size=dim // 2)
        p.update(short_factor=draw(factors), long_factor=draw(factors))
        if draw(st.booleans()):
            p["factor"] = draw(FACTORS)
    max_len = original * 4 if kind in ("longrope", "yarn") else None
    return head_dim, base, RopeScaling(kind, **p), max_len, seq_len


@FUZZ
@given(drawn_config())
def test_drawn_configs_match_transformers(case):
    head_dim, base, scaling, max_len, seq_len = case
    # longrope's exponent is made with .float() (always float32), so its float64 run is float32 too;
    # test_longrope_short_and_long_factor_and_its_attention_factor checks its closed form to 1e-13
    exact_rtol = 2e-5 if scaling.rope_type == "longrope" else 1e-9
    assert_same(head_dim, base, scaling, max_len, seq_len, exact=True, rtol=exact_rtol)
    assert_same(head_dim, base, scaling, max_len, seq_len, rtol=2e-5)


def test_every_rope_type_of_transformers_is_known():
    """A rope type transformers adds (5.x added proportional for Gemma 4) must be added here too."""
    assert set(ROPE_INIT_FUNCTIONS) | {"default"} == set(ROPE_TYPES)


@pytest.mark.parametrize("head_dim, base, scaling, max_len, seq_len", PROPORTIONAL)
def test_proportional_turns_the_first_pairs_of_the_whole_head(head_dim, base, scaling, max_len, seq_len):
    """p-RoPE: the whole head's frequencies base^(-2i/head_dim) / factor for the first int(p hd // 2)
    pairs and 0 for the rest, not the partial-rotary default's base^(-2i/(p hd))."""
    ours = inv_frequencies(head_dim, base, scaling).inv_freq
    turning = int(scaling.partial_rotary_factor * head_dim // 2)
    assert rotated_pairs(head_dim, scaling) == turning and rotated_width(head_dim, scaling) == head_dim
    whole = base ** -(np.arange(0, head_dim, 2) / head_dim) / (scaling.factor or 1.0)
    np.testing.assert_allclose(ours[:turning], whole[:turning], rtol=1e-14)
    assert np.all(ours[turning:] == 0.0)
    profile = pair_profile(head_dim, base, scaling)
    assert profile.regime.count("not rotated") == head_dim // 2 - turning
    assert np.all(np.isinf(profile.wavelength_after[turning:]))


@FUZZ
@given(st.integers(1, 600).map(lambda h: 2 * h), st.floats(0.001, 1.0), BASES, st.none() | FACTORS)
def test_drawn_proportional_matches_transformers(head_dim, fraction, base, factor):
    scaling = RopeScaling("proportional", factor=factor, partial_rotary_factor=fraction)
    if int(fraction * head_dim // 2) < 1:
        with pytest.raises(InputError, match="leaves no pair that rotates"):
            inv_frequencies(head_dim, base, scaling)
        return
    assert_same(head_dim, base, scaling, exact=True, rtol=1e-9)
    assert_same(head_dim, base, scaling, rtol=2e-5)


@pytest.mark.parametrize("head_dim, base, scaling, max_len, seq_len", CASES)
def test_listed_configs_match_transformers_in_float64_to_1e_12(head_dim, base, scaling, max_len, seq_len):
    assert_same(head_dim, base, scaling, max_len, seq_len, exact=True, rtol=1e-12)


@pytest.mark.parametrize("kwargs, needle", [
    ({"rope_type": "ntk"}, "rope_type must be one of default, linear, dynamic, yarn, longrope, llama3"),
    ({"rope_type": "linear"}, "rope type linear needs factor"),
    ({"rope_type": "dynamic"}, "rope type dynamic needs factor"),
    ({"rope_type": "yarn", "factor": 2.0}, "rope type yarn needs original_max_position_embeddings"),
    ({"rope_type": "llama3", "factor": 8.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8},
     "rope type llama3 needs low_freq_factor"),
    ({"rope_type": "longrope", "long_factor": [1.0], "original_max_position_embeddings": 8},
     "rope type longrope needs short_factor"),
    ({"rope_type": "linear", "factor": 0.0}, "factor must be a finite number > 0"),
    ({"rope_type": "linear", "factor": -2.0}, "factor must be a finite number > 0"),
    ({"rope_type": "linear", "factor": float("nan")}, "factor must be a finite number > 0"),
    ({"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 4.0, "high_freq_factor": 1.0,
      "original_max_position_embeddings": 8192}, "low_freq_factor must not be greater than high_freq_factor"),
    ({"partial_rotary_factor": 0.0}, r"partial_rotary_factor must be a number in \(0, 1\]"),
    ({"partial_rotary_factor": 1.5}, r"partial_rotary_factor must be a number in \(0, 1\]"),
    ({"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 8, "beta_fast": 1.0,
      "beta_slow": 2.0}, "beta_fast must be greater than beta_slow"),
    ({"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 0},
     "original_max_position_embeddings must be a whole number from 1 to 2.53"),
    ({"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 8, "low_freq_factor": 1.0},
     "low_freq_factor is not a parameter of rope type yarn"),
    ({"rope_type": "longrope", "short_factor": [1.0, -1.0], "long_factor": [1.0, 1.0],
      "original_max_position_embeddings": 8}, "short_factor must be a list of finite numbers > 0"),
])
def test_bad_scaling_one_line_naming_the_field(kwargs, needle):
    with pytest.raises(InputError, match=needle) as info:
        RopeScaling(**kwargs)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("call, needle", [
    (lambda: inv_frequencies(96, 1e4, LONG.__class__("longrope", short_factor=[1.0] * 47,
                                                     long_factor=[1.0] * 48,
                                                     original_max_position_embeddings=8)),
     "short_factor must have 48 numbers"),
    (lambda: inv_frequencies(64, 1e4, RopeScaling(partial_rotary_factor=0.3)), "it must be an even whole number"),
    (lambda: inv_frequencies(7, 1e4), "it must be an even whole number"),
    (lambda: inv_frequencies(64, 1.0), "base .rope_theta. must be a finite number > 1"),
    (lambda: inv_frequencies(64, 1e4, seq_len=0), "seq_len must be a whole number from 1 to 2.53"),
    (lambda: inv_frequencies(64, 1e4, RopeScaling("dynamic", factor=2.0)), "rope type dynamic needs"),
    (lambda: inv_frequencies(64, 1e4, RopeScaling("yarn", original_max_position_embeddings=8)),
     "without factor needs max_position_embeddings"),
    (lambda: rope_frequencies(64, 1e4, "linear", factr=2.0), "unknown RoPE parameter.s.: factr"),
])
def test_bad_calls_one_line(call, needle):
    with pytest.raises(InputError, match=needle) as info:
        call()
    assert "\n" not in str(info.value)


def test_scaling_is_hashable_and_lists_become_tuples():
    a = RopeScaling("longrope", short_factor=[1, 2], long_factor=(3, 4), original_max_position_embeddings=8)
    assert a.short_factor == (1.0, 2.0) and hash(a) == hash(RopeScaling(
        "longrope", short_factor=(1.0, 2.0), long_factor=[3.0, 4.0], original_max_position_embeddings=8))


CONFIGS_4X = [
    {"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072, "rope_theta": 500000.0,
     "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                      "original_max_position_embeddings": 8192, "rope_type": "llama3"}},
    {"hidden_size": 3584, "num_attention_heads": 28, "max_position_embeddings": 32768, "rope_theta": 1e6,
     "rope_scaling": {"factor": 4.0, "original_max_position_embeddings": 32768, "type": "yarn"}},
    {"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 4096,
     "rope_scaling": {"type": "dynamic", "factor": 2.0}},
    {"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 4096, "rope_theta": 1e4,
     "rope_scaling": {"type": "linear", "factor": 4.0}},
    {"hidden_size": 2560, "num_attention_heads": 32, "max_position_embeddings": 2048,
     "partial_rotary_factor": 0.5, "rope_theta": 10000.0},
    {"hidden_size": 1024, "num_attention_heads": 16, "head_dim": 64, "max_position_embeddings": 40960,
     "rope_parameters": {"rope_type": "yarn", "rope_theta": 1e6, "factor": 2.0,
                         "original_max_position_embeddings": 20480, "partial_rotary_factor": 0.5}},
]


@pytest.mark.parametrize("config", CONFIGS_4X)
def test_scaling_from_config_reads_what_transformers_reads(config):
    base, scaling = scaling_from_config(config)
    head_dim = config.get("head_dim") or config["hidden_size"] // config["num_attention_heads"]
    ours = inv_frequencies(head_dim, base, scaling, 9000, config["max_position_embeddings"])
    hf = LlamaConfig(**config)
    kind = hf.rope_parameters["rope_type"]
    if kind == "default":
        inv, att = GPTNeoXRotaryEmbedding.compute_default_rope_parameters(hf)
    else:
        inv, att = ROPE_INIT_FUNCTIONS[kind](hf, "cpu", seq_len=9000)
    np.testing.assert_allclose(ours.inv_freq, inv.double().numpy(), rtol=RTOL)
    assert ours.attention_factor == pytest.approx(float(att))


def test_scaling_from_config_neox_rotary_pct_gptj_rotary_dim_and_phi3_top_level_original():
    neox = {"hidden_size": 768, "num_attention_heads": 12, "rotary_pct": 0.25, "rotary_emb_base": 10000,
            "max_position_embeddings": 2048}
    base, scaling = scaling_from_config(neox)
    ours = inv_frequencies(64, base, scaling)
    inv, _ = GPTNeoXRotaryEmbedding.compute_default_rope_parameters(GPTNeoXConfig(**neox))
    np.testing.assert_allclose(ours.inv_freq, inv.double().numpy(), rtol=RTOL)
    _, gptj = scaling_from_config({"n_embd": 4096, "n_head": 16, "rotary_dim": 64, "n_positions": 2048})
    assert gptj.partial_rotary_factor == 0.25
    phi = {"hidden_size": 3072, "num_attention_heads": 32, "max_position_embeddings": 131072,
           "original_max_position_embeddings": 4096,
           "rope_scaling": {"type": "longrope", "short_factor": [1.0] * 48, "long_factor": [2.0] * 48,
                            "original_max_position_embeddings": 999}}
    _, scaling = scaling_from_config(phi)
    assert scaling.original_max_position_embeddings == 4096 and scaling.factor == 32.0


@pytest.mark.parametrize("config, needle", [
    ({"rope_scaling": {"type": "su"}}, "rope_type must be one of"),
    ([1, 2], "a model config must be a JSON object"),
    ({"rope_scaling": {"type": "dynamic", "factor": 2.0}}, "rope type dynamic needs max_position_embeddings"),
])
def test_scaling_from_config_bad(config, needle):
    with pytest.raises(InputError, match=needle):
        scaling_from_config(config)


@pytest.mark.parametrize("head_dim, base, scaling, max_len, seq_len", CASES)
def test_pair_profile_is_consistent_with_the_frequencies(head_dim, base, scaling, max_len, seq_len):
    prof = pair_profile(head_dim, base, scaling, seq_len, max_len)
    freqs = inv_frequencies(head_dim, base, scaling, seq_len, max_len)
    assert np.array_equal(prof.inv_freq_after, freqs.inv_freq)
    dim = prof.rotary_dim
    np.testing.assert_allclose(prof.inv_freq_before, base ** (-np.arange(0, dim, 2) / dim), rtol=1e-13)
    turn = prof.rotated_pairs                 # proportional: the pairs past it have frequency 0
    np.testing.assert_allclose(prof.wavelength_after[:turn] * prof.inv_freq_after[:turn], 2 * np.pi, rtol=1e-13)
    np.testing.assert_allclose(prof.divisor[:turn], prof.inv_freq_before[:turn] / prof.inv_freq_after[:turn],
                               rtol=1e-13)
    assert np.all(np.isinf(prof.wavelength_after[turn:])) and np.all(np.isinf(prof.divisor[turn:]))
    assert set(prof.regime) <= set(REGIMES) and len(prof.regime) == dim // 2
    assert prof.regime[turn:] == ("not rotated",) * (dim // 2 - turn)
    assert prof.attention_factor == freqs.attention_factor
    w, b = prof.interpolation, prof.inv_freq_before
    if scaling.rope_type in ("yarn", "llama3"):          # a linear blend of w and w / factor
        np.testing.assert_allclose(prof.inv_freq_after, b * (1 - w) + b / prof.factor * w, rtol=1e-12)
    if scaling.rope_type == "dynamic":                   # w / s^t
        np.testing.assert_allclose(prof.inv_freq_after, b / prof.factor ** w, rtol=1e-9)
    for label, weight in zip(prof.regime[:turn], w):
        assert {"extrapolated": weight <= 1e-9, "interpolated": weight >= 1 - 1e-9,
                "between": 1e-9 < weight < 1 - 1e-9}[label] or prof.factor == 1.0


def test_pair_profile_llama3_bands_and_yarn_ramp():
    prof = pair_profile(128, 5e5, CASES[13][2], max_position_embeddings=131072)
    wavelength = 2 * np.pi / (5e5 ** (-np.arange(0, 128, 2) / 128))
    expect = np.where(wavelength < 8192 / 4, "extrapolated", np.where(wavelength > 8192, "interpolated", "between"))
    assert prof.regime == tuple(expect)
    assert prof.band_wavelengths == (2048.0, 8192.0) and prof.extended_context == 131072
    yarn = pair_profile(128, 1e6, CASES[8][2], max_position_embeddings=131072)
    low, high = yarn.ramp_pairs
    idx = np.arange(64)
    assert all(r == "extrapolated" for r in np.array(yarn.regime)[idx <= low])
    assert all(r == "interpolated" for r in np.array(yarn.regime)[idx >= high])
    assert yarn.counts()["between"] == int(np.sum((idx > low) & (idx < high)))
    linear = pair_profile(64, 1e4, RopeScaling("linear", factor=4.0), max_position_embeddings=2048)
    assert set(linear.regime) == {"interpolated"} and linear.extended_context == 8192
    assert set(pair_profile(64, 1e4).regime) == {"extrapolated"}
    assert set(pair_profile(96, 1e4, LONG, 5000, 131072).regime) == {"rescaled"}
    with pytest.raises(ValueError):
        prof.inv_freq_after[0] = 1.0                    # read-only arrays


@pytest.mark.parametrize("scaling", [RopeScaling("yarn", factor=4.0, original_max_position_embeddings=64,
                                                 partial_rotary_factor=0.5), CASES[13][2]])
def test_scaled_score_equals_explicitly_rotated_vectors(scaling):
    from explorer.backend.rope import query_key
    from explorer.backend.rope_profile import score_vs_distance_scaled

    head_dim, base = 32, 500.0
    delta, before, after = score_vs_distance_scaled(head_dim, base, scaling, max_dist=40, kind="random", seed=3)
    q, k = query_key(head_dim, "random", 3)
    freqs = inv_frequencies(head_dim, base, scaling)
    dim = 2 * len(freqs.inv_freq)

    def rotated(x, pos, theta, gain):
        out = x.copy()
        c, s = np.cos(pos * theta) * gain, np.sin(pos * theta) * gain
        out[0:dim:2] = x[0:dim:2] * c - x[1:dim:2] * s
        out[1:dim:2] = x[0:dim:2] * s + x[1:dim:2] * c
        return out

    plain = base ** (-np.arange(0, dim, 2) / dim)
    for j, d in enumerate(delta):
        m, n = 50 + d, 50
        assert before[j] == pytest.approx(rotated(q, m, plain, 1.0) @ rotated(k, n, plain, 1.0), abs=1e-9)
        want = rotated(q, m, freqs.inv_freq, freqs.attention_factor) @ rotated(k, n, freqs.inv_freq,
                                                                             freqs.attention_factor)
        assert after[j] == pytest.approx(want, abs=1e-9)


@pytest.mark.parametrize("head_dim, fraction", [(64, 1.0), (64, 0.25), (256, 0.25), (96, 0.5)])
def test_channel_pairs_follow_transformers_rotations(head_dim, fraction):
    import torch
    from transformers.models.gptj.modeling_gptj import rotate_every_two
    from transformers.models.llama.modeling_llama import rotate_half

    from explorer.backend.rope_profile import channel_pairs

    dim = int(head_dim * fraction)
    for pairing, rotate in (("half", rotate_half), ("interleaved", rotate_every_two)):
        pairs = channel_pairs(head_dim, fraction, pairing)
        assert pairs.shape == (head_dim,) and np.all(pairs[dim:] == -1)
        for c in range(dim):                        # rotate() maps a channel onto its pair partner
            x = torch.zeros(1, 1, 1, dim, dtype=torch.float64)
            x[..., c] = 1.0
            partner = int(torch.nonzero(rotate(x).reshape(-1))[0])
            assert partner != c and pairs[partner] == pairs[c]
        assert sorted(np.bincount(pairs[:dim])) == [2] * (dim // 2)
        # the frequency index: Llama's cat(freqs, freqs), GPT-J's repeat_interleave(freqs, 2)
        first = pairs[:dim // 2] if pairing == "half" else pairs[0:dim:2]
        assert np.array_equal(first, np.arange(dim // 2))


def test_settings_that_overflow_the_frequencies_are_refused_not_written_as_inf():
    """linear with factor 1e-320: transformers' own formula gives inf for every pair; that is an
    error in one line, not an inv_freq file of infinities (and no overflow warning on stderr)."""
    import warnings

    from explorer.backend.rope_scaling import RopeScaling, inv_frequencies
    from explorer.errors import InputError

    with warnings.catch_warnings():
        warnings.simplefilter("error")            # an overflow warning would fail here
        with pytest.raises(InputError, match="not finite numbers"):
            inv_frequencies(64, 10000.0, RopeScaling(rope_type="linear", factor=1e-320))
        ok = inv_frequencies(64, 10000.0, RopeScaling(rope_type="linear", factor=1e-3))
    assert np.all(np.isfinite(ok.inv_freq)) and ok.inv_freq[0] == pytest.approx(1000.0)


def test_longrope_attention_factor_of_a_one_position_context_is_refused_in_one_line():
    """sqrt(1 + ln(factor) / ln(L0)) divides by ln(1) = 0 at L0 = 1: it raised ZeroDivisionError in
    the RoPE view's controls (found by fuzzing the window); transformers' formula is the same."""
    from explorer.backend.rope_scaling import RopeScaling, inv_frequencies

    s = RopeScaling(rope_type="longrope", short_factor=(1.0,), long_factor=(1.0,),
                    original_max_position_embeddings=1)
    with pytest.raises(InputError, match="needs original_max_position_embeddings >= 2") as err:
        inv_frequencies(2, 10000.0, s, 10, 4096)
    assert "\n" not in str(err.value)
    ok = inv_frequencies(2, 10000.0, RopeScaling(**{**s.__dict__, "original_max_position_embeddings": 2}), 10, 4096)
    assert ok.attention_factor == pytest.approx(math.sqrt(1 + math.log(4096 / 2) / math.log(2)))


def test_yarn_mscale_that_zeroes_or_negates_its_factor_is_refused_in_one_line(tmp_path):
    """0.1 x mscale_all_dim x ln(factor) + 1 = 0 divided by zero (ZeroDivisionError from a scene file,
    raised on the GUI thread; found by a helper's fuzz); below 0 it flipped the sign of every score.
    A negative mscale that keeps both terms positive still matches transformers."""
    from explorer.scenes import load_scene

    assert_same(64, 1e4, RopeScaling("yarn", factor=4.0, original_max_position_embeddings=256, mscale=-1.0,
                                     mscale_all_dim=2.0))
    for factor in (1.0, 0.5):           # ln(factor) <= 0: get_mscale is 1, no bound to name
        assert_same(64, 1e4, RopeScaling("yarn", factor=factor, original_max_position_embeddings=256,
                                         mscale=1.0, mscale_all_dim=2.0))
    for mscale, mscale_all_dim, name in ((1.0, -10 / math.log(4.0), "mscale_all_dim"),
                                         (1.0, -20.0, "mscale_all_dim"), (-20.0, 1.0, "mscale")):
        scaling = RopeScaling("yarn", factor=4.0, original_max_position_embeddings=256, mscale=mscale,
                              mscale_all_dim=mscale_all_dim)
        with pytest.raises(InputError, match=f"0.1 x {name} x ln.factor. \\+ 1 must be > 0.*choose {name} > "
                                             "-7.213") as err:
            inv_frequencies(64, 1e4, scaling)
        assert "\n" not in str(err.value)
    scene = tmp_path / "mscale.json"
    scene.write_text('{"version": 2, "view": "rope", "views": {"rope": {"rope_type": "yarn", "factor": 4.0, '
                     '"original_max_len": 256, "mscale": 1.0, "mscale_all_dim": -7.213475204444817}}}')
    with pytest.raises(InputError, match="mscale_all_dim x ln"):
        load_scene(scene)


@pytest.mark.parametrize("call, needle", [
    (lambda: inv_frequencies(8, 1e4, RopeScaling("yarn", original_max_position_embeddings=4), None, 0),
     "max_position_embeddings must be a whole number from 1 to 2.53, not 0"),
    (lambda: inv_frequencies(8, 1e4, RopeScaling("longrope", short_factor=[1] * 4, long_factor=[1] * 4,
                                                 original_max_position_embeddings=4), None, -8),
     "max_position_embeddings must be a whole number"),
    (lambda: inv_frequencies(8, 1e4, RopeScaling("yarn", original_max_position_embeddings=4), None, "8"),
     "max_position_embeddings must be a whole number"),
    (lambda: inv_frequencies(8, 1e4, RopeScaling("yarn", original_max_position_embeddings=4), None,
                             float("nan")), "max_position_embeddings must be a whole number"),
    (lambda: RopeScaling("dynamic", factor=2.0, original_max_position_embeddings=10 ** 400),
     "original_max_position_embeddings must be a whole number from 1 to 2.53"),
    (lambda: inv_frequencies(8, 1e4, seq_len=10 ** 400), "seq_len must be a whole number from 1 to 2.53"),
    (lambda: inv_frequencies(8, 10 ** 400), "base .rope_theta. must be a finite number > 1"),
    (lambda: RopeScaling("linear", factor=10 ** 400), "factor must be a finite number > 0"),
    (lambda: RopeScaling("yarn", factor=4.0, original_max_position_embeddings=4, beta_fast=10 ** 400),
     "beta_fast must be a finite number > 0"),
    (lambda: RopeScaling("yarn", factor=4.0, original_max_position_embeddings=4, mscale=10 ** 400),
     "mscale must be a finite number"),
    (lambda: RopeScaling("longrope", short_factor=np.ones(()), long_factor=[1.0],
                         original_max_position_embeddings=4), "short_factor must be a list of finite numbers"),
    (lambda: RopeScaling("longrope", short_factor=np.ones((4, 1)), long_factor=[1.0],
                         original_max_position_embeddings=4), "short_factor must be a list of finite numbers"),
    (lambda: inv_frequencies(2_000_000_000, 1e4), "head_dim must be a whole number from 2 to 65,536"),
    (lambda: inv_frequencies(10 ** 20, 1e4), "head_dim must be a whole number from 2 to 65,536"),
])
def test_lengths_sizes_and_huge_numbers_are_refused_in_one_line(call, needle):
    """Found by a helper's fuzz: max_position_embeddings was never checked (0 gave a math domain
    error while the yarn message was made; -8 was taken by longrope), 400-digit ints overflowed in
    math.isfinite or float(), arrays as factor lists raised TypeError or a many-line message, and
    head_dim 2e9 wrote an 8 GB file."""
    with pytest.raises(InputError, match=needle) as err:
        call()
    assert "\n" not in str(err.value) and len(str(err.value)) < 300


def test_nested_rope_parameters_need_a_layer_type_and_read_that_one():
    """Gemma 3 and 4 configs set RoPE per layer type; the top level's defaults would be wrong numbers."""
    from transformers import Gemma3TextConfig, Gemma4TextConfig

    from explorer.backend.rope_config import layer_types

    gemma4 = Gemma4TextConfig()
    config = gemma4.to_dict()
    assert layer_types(config) == ("sliding_attention", "full_attention")
    with pytest.raises(InputError, match=r"per layer type \(sliding_attention, full_attention\): choose one"):
        scaling_from_config(config)
    with pytest.raises(InputError, match="choose one with layer_type, not 'global'"):
        scaling_from_config(config, "global")
    with pytest.raises(InputError, match="one RoPE for every layer: give no layer_type .not 'full_attention'."):
        scaling_from_config({"rope_theta": 1e4}, "full_attention")
    for theta in (None, "1e6", 1.0, float("nan")):      # (a TypeError, a string read as a number)
        with pytest.raises(InputError, match="rope_theta .RoPE's base. must be a finite number > 1"):
            scaling_from_config({"rope_parameters": {"full_attention": {"rope_type": "proportional",
                                                                        "rope_theta": theta}}}, "full_attention")
    base, scaling = scaling_from_config(config, "full_attention")
    assert base == 1e6 and scaling == RopeScaling("proportional", partial_rotary_factor=0.25)
    from explorer.backend import rope_scaling as public                 # the public wrapper passes it on
    assert public.scaling_from_config(config, layer_type="full_attention") == (base, scaling)
    full = gemma4.per_layer_config["full_attention"]       # its global layers' head_dim: 512
    want, factor = ROPE_INIT_FUNCTIONS["proportional"](full, "cpu", layer_type="full_attention")
    ours = inv_frequencies(full.head_dim, base, scaling)
    np.testing.assert_allclose(ours.inv_freq, want.double().numpy(), rtol=RTOL)
    assert int(np.count_nonzero(ours.inv_freq)) == 64 and ours.attention_factor == factor
    local = scaling_from_config(Gemma3TextConfig().to_dict(), "sliding_attention")
    assert local == (10_000.0, RopeScaling())


@pytest.mark.parametrize("rope_type,params", [
    ("yarn", {"factor": 4.0}), ("yarn", {"factor": 8.0, "beta_fast": 16.0}),
    ("llama3", {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0}),
    ("longrope", {"short_factor": [1.0] * 16, "long_factor": [2.0 + i / 8 for i in range(16)]})])
def test_friendly_form_takes_max_position_embeddings_as_l0_like_transformers(rope_type, params):
    """rope_frequencies(..., max_position_embeddings=L) without original_max_position_embeddings had been refused
    ("rope type yarn needs original_max_position_embeddings"), where transformers' config takes L as L0 for llama3,
    yarn and longrope (found by the API review, stop 53)."""
    hf = LlamaConfig(hidden_size=64, num_attention_heads=2, head_dim=32, max_position_embeddings=8192,
                     rope_parameters={"rope_type": rope_type, "rope_theta": 10000.0, **params})
    assert hf.rope_parameters["original_max_position_embeddings"] == 8192      # transformers fills L0 in
    for seq_len in (100, 9000):
        inv, att = ROPE_INIT_FUNCTIONS[rope_type](hf, "cpu", seq_len=seq_len)
        ours = rope_frequencies(32, 10000.0, rope_type, seq_len=seq_len, max_position_embeddings=8192, **params)
        np.testing.assert_allclose(ours.inv_freq, inv.double().numpy(), rtol=RTOL)
        assert ours.attention_factor == pytest.approx(float(att))
        explicit = rope_frequencies(32, 10000.0, rope_type, seq_len=seq_len, max_position_embeddings=8192,
                                    original_max_position_embeddings=8192, **params)
        np.testing.assert_array_equal(ours.inv_freq, explicit.inv_freq)
