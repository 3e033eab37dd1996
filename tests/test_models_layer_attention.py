"""Sliding windows and the masks PE Explorer refuses to draw (explorer.backend.models.layer_attention), against
transformers' own classes: Mistral, Mixtral and Phi-3 slide every layer when config.json sets a window, Gemma 2 /
3, the Qwens and SmolLM3 their sliding layers (the Qwens and SmolLM3 only with use_sliding_window); a null window
beside sliding layers and EmbeddingGemma's two-way window refuse layer q/k in one line while the model still
opens. (GPT-OSS's own window
and sinks: tests/test_models_gpt_oss.py.)"""

from __future__ import annotations

import json

import numpy as np
import pytest

from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")


USE = {"use_sliding_window": True}
WINDOWS = [   # (family, config keys, layer 0's window in transformers)
    ("mistral", {"sliding_window": 5}, 5), ("mixtral", {"sliding_window": 4}, 4), ("phi3", {"sliding_window": 5}, 5),
    ("gemma2", {"sliding_window": 5}, 5), ("gemma3", {"sliding_window": 3}, 3),
    ("qwen2", {**USE, "sliding_window": 5, "max_window_layers": 0}, 5),        # layers from 0 on slide
    ("qwen2", {**USE, "sliding_window": 5}, None),                             # from 28 on: layer 0 full
    ("qwen3", {**USE, "sliding_window": 4, "max_window_layers": 1}, None),     # layer 1 slides, 0 does not
    ("qwen2", {"sliding_window": 5, "max_window_layers": 0}, None),            # no use_sliding_window
    ("qwen2_moe", {**USE, "sliding_window": 5}, 5),                            # every other layer below 28
    ("qwen3_moe", {**USE, "sliding_window": 6}, 6),                            # every layer
    ("smollm3", {**USE, "sliding_window": 5, "no_rope_layers": [0, 1, 1, 1]}, 5),   # its layers without RoPE
    ("smollm3", {**USE, "sliding_window": 5}, None)]                           # (layer 3, by default)


@pytest.mark.parametrize("family, keys, window", WINDOWS)
def test_sliding_windows_equal_transformers(tmp_path, family, keys, window):
    """Each class's sliding layers and window, as its config class sets them (layer_types compared with
    transformers' where it has them), and the softmax over layer 0's keys equal transformers' for 52 tokens."""
    config_class, model_class = mh.classes(family)
    torch.manual_seed(19)
    config = config_class(**dict(mh.FAMILIES[family], **keys))
    config._attn_implementation = "eager"
    torch_model = mh.save_random(model_class(config).eval(), tmp_path)
    with open_model(tmp_path) as model:
        ids = model.tokenize(" ".join([mh.TEXT] * 4)).ids
        assert model.config.window_of(0) == window
        if getattr(torch_model.config, "layer_types", None) is not None and model.config.layer_types:
            assert model.config.layer_types == tuple(torch_model.config.layer_types)
            assert [model.config.window_of(i) for i in range(model.config.n_layers)] == [
                torch_model.config.sliding_window if t == "sliding_attention" else None
                for t in torch_model.config.layer_types]
        mh.assert_layer0_as_transformers(model, torch_model, family, ids)


@pytest.mark.parametrize("model_type, keys, want", [
    ("mistral", {}, 4096),                         # MistralConfig's default window
    ("mistral", {"sliding_window": None}, None),   # Mistral 7B v0.2 and later
    ("mixtral", {}, None), ("phi3", {}, None), ("qwen2", {"sliding_window": 7, "max_window_layers": 0}, None),
    ("qwen3_moe", {"use_sliding_window": True}, 4096),   # Qwen3MoeConfig's default window, every layer
    ("gemma2", {}, 4096), ("gpt_oss", {"layer_types": ["full_attention", "full_attention"]}, None),
    ("gemma3_text", {"use_bidirectional_attention": None}, 4096)])     # (null: false, as Gemma3TextConfig reads it)
def test_which_window_layer_0_reads(model_type, keys, want):
    """Qwen2's window is read only with use_sliding_window."""
    cfg = {"model_type": model_type, "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
           "num_key_value_heads": 2, "vocab_size": 10, **keys}
    cfg = model_config(cfg)
    assert cfg.window_of(0) == want and cfg.attention_refusal is None


@pytest.mark.parametrize("keys, match", [
    ({"use_sliding_window": "yes"}, r"use_sliding_window must be true or false, not 'yes'"),
    ({"use_sliding_window": True, "max_window_layers": -1}, r"max_window_layers must be a whole number >= 0, not -1"),
    ({"use_sliding_window": True, "sliding_window": 0}, r"sliding_window must be a whole number from 1 to 2\^31 - 1"),
    ({"use_sliding_window": True, "sliding_window": 2**40}, r"sliding_window must be a whole number from 1")])
def test_bad_qwen_window_keys_are_refused_in_one_line(keys, match):
    """(Without use_sliding_window the window is not read: a saved Qwen2-MoE config says 0 there.)"""
    from explorer.errors import InputError

    cfg = {"model_type": "qwen2", "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
           "num_key_value_heads": 2, "vocab_size": 10, **keys}
    with pytest.raises(InputError, match=match) as info:
        model_config(cfg)
    assert "\n" not in str(info.value)
    if "sliding_window" in keys:                        # not read without use_sliding_window
        assert model_config({**cfg, "use_sliding_window": False}).window_of(0) is None


@pytest.mark.parametrize("family, keys, match", [
    ("gpt_oss", {"sliding_window": None}, r"sliding_window is null beside sliding_attention layers"),
    ("gemma2", {"sliding_window": None}, r"sliding_window is null beside sliding_attention layers"),
    ("gemma3", {"use_bidirectional_attention": True}, r"use_bidirectional_attention is true \(EmbeddingGemma\)"),
    ("qwen2", {"layer_types": ["sliding_attention", "full_attention"]},           # no use_sliding_window
     r"sliding_window is null beside sliding_attention layers")])
def test_masks_transformers_builds_otherwise_refuse_q_and_k_but_open(tmp_path, family, keys, match):
    """Where transformers would mask layer 0 differently from what PE Explorer draws (or cannot build the mask
    at all), q and k are refused in one line naming why; the model opens, and its X is still transformers'."""
    from explorer.errors import InputError

    config_class, model_class = mh.classes(family)
    torch.manual_seed(23)
    config = config_class(**mh.FAMILIES[family])
    torch_model = mh.save_random(model_class(config).eval(), tmp_path)
    path = tmp_path / "config.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), **keys}))
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        with pytest.raises(InputError, match=match) as info:
            model.layer0_qk(ids)
        assert "\n" not in str(info.value) and "its attention cannot be shown" in str(info.value)
        x = mh.capture(torch_model, family, ids)["x"]
        np.testing.assert_allclose(model.input_x(ids), x, rtol=0, atol=1e-5 * max(1.0, float(np.abs(x).max())))
