"""ModelConfig from configs as transformers 4.x and 5.x write them, checked against transformers' classes."""

from __future__ import annotations

import json

import pytest

from explorer.backend.models.config import SUPPORTED, model_config
from explorer.backend.models.config_rope import rope_parameters
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")


@pytest.mark.parametrize("family", sorted(mh.FAMILIES))
def test_5x_and_4x_layouts_give_the_same_config(family, tmp_path):
    config_class, _ = mh.classes(family)
    hf = config_class(**mh.FAMILIES[family])
    five = model_config(hf.to_dict(), "m")
    four_dict = dict(hf.to_dict())
    params = four_dict.pop("rope_parameters", None)
    nested = family in ("gemma3", "olmo3")          # RoPE per layer type; layer 0 is a sliding layer
    if nested:                                       # (OLMo 3's two bases are one rope_theta in 4.x)
        full, sliding = params["full_attention"], params["sliding_attention"]
        four_dict.update(rope_theta=full["rope_theta"], rope_scaling={k: v for k, v in full.items()
                                                                      if k != "rope_theta"})
        if family == "gemma3":
            four_dict["rope_local_base_freq"] = sliding["rope_theta"]
        params = params[hf.layer_types[0]]
    elif family == "gptj":                           # no RoPE keys: rotary_dim of each head, base 10,000
        params = {"rope_type": "default", "rope_theta": 10000.0,
                  "partial_rotary_factor": hf.rotary_dim / (hf.n_embd // hf.n_head)}
    elif family == "gpt_neox":                       # its own 4.x keys (GPTNeoXConfig reads no rope_theta)
        four_dict.update(rotary_emb_base=params["rope_theta"], rotary_pct=params["partial_rotary_factor"],
                         rope_scaling=None)
    elif params:
        four_dict["rope_theta"] = params["rope_theta"]
        # a scaled RoPE in 4.x's rope_scaling (Apertus's Llama 3: without it, its class's own would win)
        four_dict["rope_scaling"] = None if params.get("rope_type", "default") == "default" else {
            k: v for k, v in params.items() if k not in ("rope_theta", "partial_rotary_factor")}
        if "partial_rotary_factor" in params:        # 4.x wrote it at the top level (Phi, StableLM)
            four_dict["partial_rotary_factor"] = params["partial_rotary_factor"]
    assert model_config(four_dict, "m") == five
    assert model_config(four_dict, "m").type_ropes == five.type_ropes     # (Gemma 3: both layer types')
    assert hash(five) == hash(model_config(four_dict, "m"))
    assert five.n_layers == hf.num_hidden_layers and five.vocab_size == hf.vocab_size
    assert five.n_heads == hf.num_attention_heads
    # (DeepSeek's MLA: a q / k head is its nope and rope parts, qk_head_dim; its class's head_dim is the rope part)
    assert five.head_dim == (getattr(hf, "qk_head_dim", None) or getattr(hf, "head_dim", None)
                             or hf.hidden_size // hf.num_attention_heads)
    assert five.rope_head_dim == (getattr(hf, "head_dim", None) or hf.hidden_size // hf.num_attention_heads)
    if five.position == "rope":
        assert five.rope_base == params["rope_theta"]
        assert five.rope_parameters == params
        assert five.n_kv_heads == getattr(hf, "num_key_value_heads", hf.num_attention_heads)
    else:
        assert five.rope_scaling is None and five.rope_base is None
    assert five.position_offset == (2 if family.startswith("opt") or family in ("xglm", "m2m_100", "bart", "mbart")
                                    else 0)


def test_4x_rope_scaling_with_type_or_rope_type_becomes_5x_parameters():
    base = {"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 4,
            "vocab_size": 10, "rope_theta": 5e5}
    for key in ("type", "rope_type"):
        four = model_config({**base, "rope_scaling": {key: "linear", "factor": 4.0}})
        assert four.rope_parameters == {"rope_type": "linear", "factor": 4.0, "rope_theta": 5e5}
    llama3 = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
              "original_max_position_embeddings": 8192}
    four = model_config({**base, "rope_scaling": llama3})
    five = model_config({**{k: v for k, v in base.items() if k != "rope_theta"},
                         "rope_parameters": {**llama3, "rope_theta": 5e5}})
    assert four == five
    hf = tf.LlamaConfig(**{**base, "rope_parameters": {**llama3, "rope_theta": 5e5}})
    assert five.rope_parameters == hf.rope_parameters
    yarn = model_config({**base, "rope_scaling": {"type": "longrope", "short_factor": [1.0, 2.0],
                                                  "long_factor": [3.0, 4.0], "factor": 2.0}})
    assert yarn.rope_scaling.short_factor == (1.0, 2.0)          # lists kept hashable
    hash(yarn)
    assert rope_parameters({"model_type": "llama"}) == {"rope_type": "default", "rope_theta": 10000.0}


def test_partial_rotary_factor_top_level_or_in_rope_parameters():
    """A GGUF's rope.dimension_count (llama.cpp rotates that many channels) arrives as the factor; in a
    Hugging Face folder transformers' classes of these families rotate the whole head (checked against
    them in test_models_families.py)."""
    base = {"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 2,
            "vocab_size": 10}
    assert model_config({**base, "partial_rotary_factor": 0.5}, runtime="llama.cpp").rope_dim == 16
    assert model_config({**base, "rope_parameters": {"rope_theta": 1e4, "partial_rotary_factor": 0.25}},
                        runtime="llama.cpp").rope_dim == 8
    assert model_config({**base, "partial_rotary_factor": 0.5}).rope_dim == 32
    with pytest.raises(InputError, match="partial_rotary_factor"):
        model_config({**base, "partial_rotary_factor": 1.5})


@pytest.mark.parametrize("cfg, match", [
    ({"model_type": "mamba"}, "'mamba' is not supported; supported: " + ", ".join(SUPPORTED)),
    ({}, "None is not supported"),
    ({"model_type": "llama", "hidden_size": "64"}, "hidden_size must be a positive integer"),
    ({"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 3,
      "vocab_size": 5}, "not a multiple of the 3 heads"),
    ({"model_type": "mistral", "hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 4,
      "num_key_value_heads": 3, "vocab_size": 5}, "not a multiple of num_key_value_heads 3"),
    ({"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 4,
      "vocab_size": 5, "rope_theta": -1}, "rope_theta must be a positive number"),
    # base <= 1: every pair turns 1 rad per token or faster; 1e-300 made inf frequencies and NaN q, k
    *[({"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 4,
        "vocab_size": 5, "rope_theta": theta}, rf"rope_theta \(RoPE's base\) must be a number > 1, not {theta!r}")
      for theta in (1.0, 0.5, 1e-300)],
    ({"model_type": "qwen3", "hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 4,
      "num_key_value_heads": 4, "vocab_size": 5, "rope_parameters": {"rope_type": "default", "rope_theta": 1}},
     "must be a number > 1, not 1.0"),
    ({"model_type": "bert", "hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 4,
      "vocab_size": 5, "max_position_embeddings": 8, "position_embedding_type": "relative_key"},
     "position_embedding_type 'relative_key'"),
    # the message names the key the file has (it said "eps")
    ({"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 4,
      "vocab_size": 5, "rms_norm_eps": -1e-6}, "config.json: rms_norm_eps must be a positive number, not -1e-06"),
    ({"model_type": "bert", "hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 4,
      "vocab_size": 5, "max_position_embeddings": 8, "layer_norm_eps": "x"},
     "config.json: layer_norm_eps must be a positive number, not 'x'"),
    *[({"model_type": family, "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
        "vocab_size": 5, **bad}, match) for family, bad, match in (
        ("gemma2", {"query_pre_attn_scalar": 0}, "query_pre_attn_scalar must be a number from 1e-30 to 1e30, not 0"),
        ("gemma3_text", {"query_pre_attn_scalar": 1e-320}, "query_pre_attn_scalar must be a number from 1e-30"),
        ("gemma2", {"attn_logit_softcapping": -1.0}, "attn_logit_softcapping must be a number from 1e-30 to 1e30 or"),
        ("gemma2", {"attn_logit_softcapping": 1e-320}, "attn_logit_softcapping must be a number from 1e-30"),
        ("gemma2", {"attn_logit_softcapping": float("inf")}, "attn_logit_softcapping must be a number from 1e-30"),
        ("gemma3_text", {"rope_parameters": {"sliding_attention": [1], "full_attention": {}}},
         "rope_parameters' sliding_attention must be an object, not \\[1\\]"),
        ("gemma3_text", {"rope_parameters": "x"}, "rope_parameters must be an object, not 'x'"),
        ("gemma3_text", {"rope_parameters": {"rope_type": "linear", "factor": 8.0}},
         "Gemma 3's rope_parameters must be set per layer type"),
        ("gemma3_text", {"layer_types": ["sliding_attention"]}, "layer_types must list 2 of"),
        ("gemma3_text", {"layer_types": ["local", "global"]}, "layer_types must list 2 of"),
        ("gemma3_text", {"sliding_window_pattern": 0}, "sliding_window_pattern must be a whole number >= 1"))],
])
def test_bad_configs_are_refused_by_name(cfg, match):
    with pytest.raises(InputError, match=match):
        model_config(cfg)


def test_a_4x_folder_opens_like_the_5x_one(tmp_path):
    mh.build("qwen2", tmp_path / "five")
    mh.build("qwen2", tmp_path / "four")
    old = mh.to_4x_config(tmp_path / "four")
    assert "rope_theta" in old and "rope_parameters" not in old
    assert "rope_parameters" in json.loads((tmp_path / "five" / "config.json").read_text())
    with open_model(tmp_path / "five") as a, open_model(tmp_path / "four") as b:
        assert a.config == b.config.__class__(**{**b.config.__dict__, "name": a.config.name})
        ids = a.tokenize(mh.TEXT).ids
        assert (a.layer0_qk(ids).logits == b.layer0_qk(ids).logits).all()


def test_phi4_mini_config_reads_as_phi3_longrope_with_rotary_three_quarters():
    """microsoft/Phi-4-mini-instruct's config.json (model_type phi3, rope_scaling type longrope without a
    factor, top-level L0 4096, partial_rotary_factor 0.75); 48 made-up factors stand in for its lists."""
    cfg = model_config({
        "model_type": "phi3", "hidden_size": 3072, "num_attention_heads": 24, "num_key_value_heads": 8,
        "num_hidden_layers": 32, "vocab_size": 200064, "max_position_embeddings": 131072,
        "original_max_position_embeddings": 4096, "partial_rotary_factor": 0.75, "rope_theta": 10000.0,
        "rope_scaling": {"type": "longrope", "short_factor": [1.0] * 48, "long_factor": [2.0] * 48}})
    s = cfg.rope_scaling
    assert cfg.family == "phi3" and cfg.head_dim == 128 and cfg.rope_dim == 96 and cfg.rope_refusal is None
    assert (s.rope_type, s.factor, s.original_max_position_embeddings) == ("longrope", 32.0, 4096)
    assert cfg.rope_type_label == "longrope ×32 (4096 → 131072)" and cfg.partial_rotary_factor == 0.75
    assert model_config({"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4,
                         "num_hidden_layers": 1, "vocab_size": 8}).rope_type_label == ""


# google/gemma-3-4b-it's config.json as published (vision tower left out): its text_config lists only
# what differs from Gemma3TextConfig's defaults
GEMMA3_4B = {"architectures": ["Gemma3ForConditionalGeneration"], "boi_token_index": 255999,
             "eoi_token_index": 256000, "eos_token_id": [1, 106], "image_token_index": 262144,
             "initializer_range": 0.02, "mm_tokens_per_image": 256, "model_type": "gemma3",
             "text_config": {"hidden_size": 2560, "intermediate_size": 10240, "model_type": "gemma3_text",
                             "num_hidden_layers": 34, "rope_scaling": {"factor": 8.0, "rope_type": "linear"},
                             "sliding_window": 1024},
             "torch_dtype": "bfloat16", "transformers_version": "4.50.0.dev0"}


def test_gemma3_4b_text_config_is_filled_in_as_transformers_fills_it():
    """A multimodal Gemma 3's text_config names 5 keys; the heads, head_dim, vocabulary and RoPE come
    from Gemma3TextConfig's defaults, as transformers builds it (it was refused: no num_attention_heads)."""
    want = tf.Gemma3Config(**{k: v for k, v in GEMMA3_4B.items() if k != "architectures"}).text_config
    cfg = model_config(GEMMA3_4B, "gemma-3-4b-it")
    assert (cfg.family, cfg.model_type, cfg.dtype) == ("gemma3", "gemma3_text", "bfloat16")
    assert (cfg.d_model, cfg.n_layers, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim, cfg.vocab_size,
            cfg.max_positions, cfg.score_scalar) == (
        want.hidden_size, want.num_hidden_layers, want.num_attention_heads, want.num_key_value_heads,
        want.head_dim, want.vocab_size, want.max_position_embeddings, want.query_pre_attn_scalar)
    assert cfg.layer_types == tuple(want.layer_types) and cfg.attn_softcap is None
    for layer in (0, 5):                             # a sliding and a full-attention layer
        base, scaling, refusal = cfg.rope_of(layer)
        params = want.rope_parameters[want.layer_types[layer]]
        assert refusal is None and base == params["rope_theta"] and scaling.rope_type == params["rope_type"]
        assert scaling.factor == params.get("factor")
    assert cfg.rope_of(5)[1].factor == 8.0 and cfg.rope_of(0)[0] == 10_000.0


@pytest.mark.parametrize("model_type", ["gemma2", "gemma3_text", "gpt_oss"])
def test_a_config_with_billions_of_layer_types_is_refused_not_listed(model_type):
    """Gemma's and GPT-OSS's layer types are listed per layer: 2^31 - 1 layers took minutes and gigabytes;
    refused."""
    cfg = {"model_type": model_type, "hidden_size": 32, "num_hidden_layers": 2**31 - 1, "num_attention_heads": 4,
           "num_key_value_heads": 2, "vocab_size": 64}
    with pytest.raises(InputError, match=r"^config\.json: num_hidden_layers is 2147483647; layer types are "
                                         r"read for at most 10,000 layers$"):
        model_config(cfg)
    types = model_config({**cfg, "num_hidden_layers": 10_000}).layer_types          # the cap itself is fine
    assert len(types) == 10_000 and types[4:6] == ("sliding_attention", "full_attention")


@pytest.mark.parametrize("model_type, extra, family, bias", [
    ("qwen2_moe", {}, "qwen2", True),                        # Qwen2MoeConfig.qkv_bias defaults to true
    ("qwen2_moe", {"qkv_bias": False}, "qwen2", False),
    ("qwen3_moe", {"attention_bias": True}, "qwen3", True),
    ("mixtral", {}, "mistral", False),
])
def test_moe_model_types_read_as_their_dense_family(model_type, extra, family, bias):
    cfg = model_config({"model_type": model_type, "hidden_size": 32, "num_hidden_layers": 2,
                        "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 64, **extra})
    assert (cfg.family, cfg.model_type, cfg.qk_bias, cfg.head_dim) == (family, model_type, bias, 8)
    assert cfg.rope_base == (1e6 if model_type == "mixtral" else 10000.0)


@pytest.mark.parametrize("key, value", [("qkv_bias", "false"), ("qkv_bias", None), ("attention_bias", 1)])
def test_a_bias_flag_that_is_not_true_or_false_is_refused(key, value):
    """transformers refuses them ("false" would have meant biases on through bool())."""
    model_type = "qwen2_moe" if key == "qkv_bias" else "llama"
    with pytest.raises(InputError, match=rf"^config\.json: {key} must be true or false, not "):
        model_config({"model_type": model_type, "hidden_size": 32, "num_hidden_layers": 2,
                      "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 64, key: value})


def _without_rope_keys(family: str) -> dict:
    cfg = dict(mh.FAMILIES[family], model_type=mh.classes(family)[0].model_type)
    for key in ("rope_theta", "rotary_emb_base", "rotary_pct", "partial_rotary_factor", "rope_parameters"):
        cfg.pop(key, None)
    return cfg


@pytest.mark.parametrize("family, runs", [("phi", False), ("stablelm", False), ("gpt_neox", True)])
def test_proportional_rope_on_part_of_a_head_is_refused_where_transformers_cannot_run_it(family, runs):
    """Found by a helper's attack: PhiAttention and StableLmAttention turn int(head_dim x p) channels with
    proportional RoPE's whole-head cos and sin, a shape error in transformers; PE Explorer showed numbers of
    no model. GPT-NeoX runs it (and is read)."""
    import torch

    rope = {"rope_type": "proportional", "rope_theta": 600.0, "partial_rotary_factor": 0.5}
    config_class, model_class = mh.classes(family)
    settings = dict(_without_rope_keys(family), rope_parameters=rope)
    settings.pop("model_type")
    torch_model = model_class(config_class(**settings)).eval()
    try:
        with torch.no_grad():
            torch_model(input_ids=torch.arange(5)[None])
        ran = True
    except RuntimeError:
        ran = False
    assert ran == runs
    cfg = model_config(dict(_without_rope_keys(family), rope_parameters=rope))
    assert (cfg.rope_refusal is None) == runs
    if not runs:
        assert cfg.rope_refusal == (f"config.json: partial_rotary_factor 0.5 with rope type proportional: "
                                    f"transformers' {family} cannot run it")


@pytest.mark.parametrize("rope_type, extra", [("linear", {"factor": 2.0}), ("dynamic", {"factor": 2.0}),
                                              ("proportional", {})])
def test_phi3_refuses_the_rope_types_its_config_class_refuses(rope_type, extra):
    """Phi3Config.validate_rope takes only default and longrope: transformers cannot even build the config,
    so PE Explorer refuses q and k too (the model still opens: tokens and X need no RoPE)."""
    rope = {"rope_type": rope_type, "rope_theta": 600.0, **extra}
    settings = dict(_without_rope_keys("phi3"), rope_parameters=rope)
    settings.pop("model_type")
    with pytest.raises(Exception, match="longrope"):
        tf.Phi3Config(**settings)
    cfg = model_config(dict(_without_rope_keys("phi3"), rope_parameters=rope))
    assert cfg.rope_refusal == (f"config.json: Phi-3's rope type must be default or longrope, not {rope_type} "
                                f"(transformers' Phi3Config refuses it)")



@pytest.mark.parametrize("both", [True, False])
def test_gpt2s_other_key_names_win_as_gpt2_config_maps_them(both):
    """GPT2Config's attribute_map makes hidden_size, num_attention_heads, num_hidden_layers and
    max_position_embeddings other names of n_embd, n_head, n_layer and n_positions, set after them (they win where
    config.json has both); the app read n_embd and its kin alone."""
    import transformers as tf

    renamed = {"hidden_size": 32, "num_attention_heads": 2, "num_hidden_layers": 1, "max_position_embeddings": 20}
    old = {"n_embd": 64, "n_head": 4, "n_layer": 3, "n_positions": 10} if both else {}
    given = {**old, **renamed, "vocab_size": 99}
    want = tf.GPT2Config(**given)
    cfg = model_config({"model_type": "gpt2", **given})
    assert (cfg.d_model, cfg.n_heads, cfg.n_layers, cfg.max_positions) == (
        want.n_embd, want.n_head, want.n_layer, want.n_positions) == (32, 2, 1, 20)
