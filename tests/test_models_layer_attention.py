"""Sliding windows and the masks PE Explorer refuses to draw (explorer.backend.models.layer_attention), against
transformers' own classes: Mistral, Mixtral and Phi-3 slide every layer when config.json sets a window, Gemma 2 /
3 their sliding layers; a null window beside sliding layers, EmbeddingGemma's two-way window and the Qwen /
SmolLM3 use_sliding_window refuse layer q/k in one line while the model still opens. (GPT-OSS's own window
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


@pytest.mark.parametrize("family, window", [("mistral", 5), ("mixtral", 4), ("phi3", 5), ("gemma2", 5),
                                            ("gemma3", 3)])
def test_sliding_windows_equal_transformers(tmp_path, family, window):
    """Mistral, Mixtral and Phi-3 slide every layer's window when config.json sets one; Gemma 2 / 3 their
    sliding layers' (layer 0): the softmax over those keys equals transformers' for 52 tokens."""
    config_class, model_class = mh.classes(family)
    torch.manual_seed(19)
    config = config_class(**dict(mh.FAMILIES[family], sliding_window=window))
    config._attn_implementation = "eager"
    torch_model = mh.save_random(model_class(config).eval(), tmp_path)
    with open_model(tmp_path) as model:
        ids = model.tokenize(" ".join([mh.TEXT] * 4)).ids
        assert model.config.window_of(0) == window
        mh.assert_layer0_as_transformers(model, torch_model, family, ids)


@pytest.mark.parametrize("model_type, keys, want", [
    ("mistral", {}, 4096),                         # MistralConfig's default window
    ("mistral", {"sliding_window": None}, None),   # Mistral 7B v0.2 and later
    ("mixtral", {}, None), ("phi3", {}, None), ("qwen2", {"sliding_window": 7}, None),
    ("gemma2", {}, 4096), ("gpt_oss", {"layer_types": ["full_attention", "full_attention"]}, None)])
def test_which_window_layer_0_reads(model_type, keys, want):
    """Qwen2's window is read only with use_sliding_window (then refused: see below)."""
    cfg = {"model_type": model_type, "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4,
           "num_key_value_heads": 2, "vocab_size": 10, **keys}
    assert model_config(cfg).window_of(0) == want


@pytest.mark.parametrize("family, keys, match", [
    ("gpt_oss", {"sliding_window": None}, r"sliding_window is null beside sliding_attention layers"),
    ("gemma2", {"sliding_window": None}, r"sliding_window is null beside sliding_attention layers"),
    ("gemma3", {"use_bidirectional_attention": True}, r"use_bidirectional_attention is true \(EmbeddingGemma\)"),
    ("qwen2", {"use_sliding_window": True, "sliding_window": 4}, r"use_sliding_window is true; PE Explorer does "
                                                                 r"not read qwen2's sliding layers"),
    ("qwen3", {"use_sliding_window": True, "sliding_window": 4}, r"not read qwen3's sliding layers"),
    ("qwen2_moe", {"use_sliding_window": True, "sliding_window": 4}, r"not read qwen2_moe's sliding layers"),
    ("qwen3_moe", {"use_sliding_window": True, "sliding_window": 4}, r"not read qwen3_moe's sliding layers"),
    ("smollm3", {"use_sliding_window": True, "sliding_window": 4}, r"not read smollm3's sliding layers")])
def test_masks_transformers_builds_otherwise_refuse_q_and_k_but_open(tmp_path, family, keys, match):
    """Where transformers would mask layer 0 otherwise than PE Explorer shows (or cannot build the mask at
    all), q and k are refused in one line naming why; the model opens, and its X is still transformers'."""
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
