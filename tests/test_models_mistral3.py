"""Mistral 3 checkpoints (model_type mistral3: Mistral Small 3.1 / 3.2, a Pixtral vision tower beside a Mistral text
model): the text model opens from text_config, whose own model_type picks its class (Mistral3Config builds it with
AutoConfig, "mistral" when it names none), against transformers' Mistral3ForConditionalGeneration on text ids."""

from __future__ import annotations

import json

import numpy as np
import pytest

from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh
from tests.test_models_families import _same_attention, same_layer0

tf = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
from safetensors import safe_open  # noqa: E402

TEXT = dict(model_type="mistral", hidden_size=32, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
            intermediate_size=48, vocab_size=mh.VOCAB, max_position_embeddings=40, head_dim=12, rope_theta=900.0,
            sliding_window=None)
VISION = dict(hidden_size=16, intermediate_size=16, num_hidden_layers=1, num_attention_heads=2, head_dim=8,
              patch_size=2, image_size=8)
# Mistral Small 3.x 24B's config.json (transformers 4.57.1), as quoted in public code found with the find_string
# tool (a FLUX.2 text-encoder loader's M3_CONFIG_JSON); the keys the text model reads
PUBLISHED = {"architectures": ["Mistral3ForConditionalGeneration"], "dtype": "bfloat16", "model_type": "mistral3",
             "text_config": {"head_dim": 128, "hidden_size": 5120, "intermediate_size": 32768,
                             "max_position_embeddings": 131072, "model_type": "mistral", "num_attention_heads": 32,
                             "num_hidden_layers": 40, "num_key_value_heads": 8, "rms_norm_eps": 1e-05,
                             "rope_theta": 1000000000.0, "sliding_window": None, "vocab_size": 131072},
             "vision_config": {"head_dim": 64, "hidden_size": 1024, "model_type": "pixtral"}}


def build(folder, seed: int = 5):
    torch.manual_seed(seed)
    config = tf.Mistral3Config(text_config=dict(TEXT), vision_config=dict(VISION), spatial_merge_size=1)
    config._attn_implementation = "eager"
    config.text_config._attn_implementation = "eager"
    return mh.save_random(tf.Mistral3ForConditionalGeneration(config).eval(), folder)


def test_a_mistral3_checkpoint_opens_as_its_text_model(tmp_path):
    torch_model = build(tmp_path)
    with safe_open(tmp_path / "model.safetensors", "pt") as stored:
        names = list(stored.keys())
    assert any(n.startswith("language_model.model.layers.0.") for n in names)       # transformers' own layout
    model = open_model(str(tmp_path))
    try:
        assert (model.config.family, model.config.head_dim, model.config.rope_base) == ("mistral", 12, 900.0)
        ids = model.tokenize(mh.TEXT).ids
        same_layer0(model, mh.capture(torch_model, "mistral", ids), ids)
        _same_attention(model, torch_model, ids)
    finally:
        model.close()


def test_the_published_mistral_small_3_config_reads_as_transformers_reads_it():
    cfg = model_config(json.loads(json.dumps(PUBLISHED)))
    hf = tf.Mistral3Config(**{k: v for k, v in PUBLISHED.items() if k != "model_type"}).text_config
    assert (cfg.family, cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim, cfg.rope_base, cfg.norm_eps) == (
        "mistral", hf.hidden_size, hf.num_attention_heads, hf.num_key_value_heads, hf.head_dim,
        hf.rope_parameters["rope_theta"], hf.rms_norm_eps) == ("mistral", 5120, 32, 8, 128, 1e9, 1e-5)
    without_type = json.loads(json.dumps(PUBLISHED))
    del without_type["text_config"]["model_type"]                 # Mistral3Config's default text class: Mistral
    assert model_config(without_type).family == "mistral"


@pytest.mark.parametrize("text, match", [
    ({"model_type": "pixtral", "hidden_size": 32}, "model_type 'pixtral' is not supported"),
    ([1, 2], "a multimodal mistral3 model needs its text model's settings as text_config"),
])
def test_a_mistral3_text_model_of_another_kind_is_refused_in_one_line(text, match):
    with pytest.raises(InputError, match=match) as got:
        model_config({"model_type": "mistral3", "text_config": text})
    assert "\n" not in str(got.value)


def test_the_vision_tower_is_never_read(tmp_path):
    build(tmp_path)
    model = open_model(str(tmp_path))
    try:
        ids = model.tokenize(mh.TEXT).ids
        before = model.layer0_qk(ids).logits
    finally:
        model.close()
    for name in ("vision_tower.transformer.layers.0.attention.q_proj.weight", "multi_modal_projector.linear_1.weight"):
        mh.rewrite_tensor(tmp_path, name, lambda a: np.full_like(a, np.nan))
    model = open_model(str(tmp_path))
    try:
        assert np.array_equal(model.layer0_qk(ids).logits, before)
    finally:
        model.close()
