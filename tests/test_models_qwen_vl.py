"""Qwen2-VL, Qwen2.5-VL, Qwen3-VL and Qwen3-VL-MoE checkpoints open as their text model
(explorer.backend.models.qwen_vl): X into layer 0, layer 0's q / k, their M-RoPE rotation of a text sentence
(t = h = w: plain RoPE) and its attention equal transformers' own classes run on the text-only ids."""

from __future__ import annotations

import json

import numpy as np
import pytest

from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh

pytest.importorskip("transformers")
pytest.importorskip("torch")

TEXT = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, intermediate_size=48,
            vocab_size=mh.VOCAB, max_position_embeddings=40)
VISION = {
    "qwen2_vl": dict(depth=1, embed_dim=16, hidden_size=32, num_heads=2, mlp_ratio=2, patch_size=2,
                     spatial_merge_size=1, temporal_patch_size=1),
    "qwen2_5_vl": dict(depth=1, hidden_size=16, intermediate_size=16, num_heads=2, out_hidden_size=32, patch_size=2,
                       spatial_merge_size=1, temporal_patch_size=1, window_size=4, fullatt_block_indexes=[0]),
    "qwen3_vl": dict(depth=1, hidden_size=16, intermediate_size=16, num_heads=2, out_hidden_size=32, patch_size=2,
                     spatial_merge_size=1, temporal_patch_size=1, num_position_embeddings=16,
                     deepstack_visual_indexes=[]),
}
VISION["qwen3_vl_moe"] = VISION["qwen3_vl"]
# each model's text_config: Qwen2-VL / 2.5-VL split hidden / heads = 8 channels a head (mrope_section adds up to
# 4); Qwen3-VL's explicit head_dim 12 (sections [2, 2, 2], interleaved); Qwen3-VL-MoE: 2 experts
TEXT_CONFIG = {
    "qwen2_vl": dict(TEXT, rope_parameters={"rope_type": "default", "rope_theta": 1e6, "mrope_section": [1, 1, 2]}),
    "qwen2_5_vl": dict(TEXT, rope_parameters={"rope_type": "default", "rope_theta": 1e6,
                                              "mrope_section": [1, 1, 2]}),
    "qwen3_vl": dict(TEXT, head_dim=12, rope_parameters={"rope_type": "default", "rope_theta": 5e5,
                                                         "mrope_section": [2, 2, 2], "mrope_interleaved": True}),
    "qwen3_vl_moe": dict(TEXT, rope_parameters={"rope_type": "default", "rope_theta": 5e5,
                                                "mrope_section": [1, 1, 2], "mrope_interleaved": True},
                         num_experts=2, num_experts_per_tok=1, moe_intermediate_size=16, decoder_sparse_step=1),
}
CLASSES = {"qwen2_vl": ("Qwen2VLConfig", "Qwen2VLForConditionalGeneration"),
           "qwen2_5_vl": ("Qwen2_5_VLConfig", "Qwen2_5_VLForConditionalGeneration"),
           "qwen3_vl": ("Qwen3VLConfig", "Qwen3VLForConditionalGeneration"),
           "qwen3_vl_moe": ("Qwen3VLMoeConfig", "Qwen3VLMoeForConditionalGeneration")}
FAMILY = {"qwen2_vl": "qwen2", "qwen2_5_vl": "qwen2", "qwen3_vl": "qwen3", "qwen3_vl_moe": "qwen3"}
# Qwen/Qwen2.5-VL-7B-Instruct's config.json (transformers 4.41.2 era) as quoted in public test code found with
# the find_string tool (a TensorRT-LLM Qwen2.5-VL test's QWEN2_5_VL_7B_CONFIG): text keys at the top level,
# "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}, "rope_theta": 1000000.0
HUB_QWEN2_5_VL_7B = {
    "architectures": ["Qwen2_5_VLForConditionalGeneration"], "attention_dropout": 0.0, "hidden_act": "silu",
    "hidden_size": 3584, "initializer_range": 0.02, "intermediate_size": 18944, "max_position_embeddings": 128000,
    "max_window_layers": 28, "model_type": "qwen2_5_vl", "num_attention_heads": 28, "num_hidden_layers": 28,
    "num_key_value_heads": 4, "rms_norm_eps": 1e-06, "rope_theta": 1000000.0, "sliding_window": 32768,
    "tie_word_embeddings": False, "torch_dtype": "bfloat16", "use_cache": True, "use_sliding_window": False,
    "vision_config": {"depth": 32, "hidden_act": "silu", "hidden_size": 1280, "intermediate_size": 3420,
                      "num_heads": 16, "in_chans": 3, "out_hidden_size": 3584, "patch_size": 14,
                      "spatial_merge_size": 2, "spatial_patch_size": 14, "window_size": 112,
                      "fullatt_block_indexes": [7, 15, 23, 31], "tokens_per_second": 2, "temporal_patch_size": 2},
    "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}, "vocab_size": 152064}


def close(ours, ref, tol=1e-5):
    ref = np.asarray(ref, dtype=np.float64)
    np.testing.assert_allclose(ours, ref, rtol=0, atol=tol * max(1.0, float(np.abs(ref).max())))


def build(kind: str, folder, seed: int = 3):
    import torch
    import transformers as tf

    config_name, model_name = CLASSES[kind]
    torch.manual_seed(seed)
    config = getattr(tf, config_name)(text_config=dict(TEXT_CONFIG[kind]), vision_config=dict(VISION[kind]))
    config._attn_implementation = "eager"
    config.text_config._attn_implementation = "eager"
    return mh.save_random(getattr(tf, model_name)(config).eval(), folder)


def _heads(flat, heads):
    return flat.reshape(len(flat), heads, -1).transpose(1, 0, 2)                  # (h, n, hd)


@pytest.mark.parametrize("kind", sorted(CLASSES))
def test_a_qwen_vl_checkpoint_opens_as_its_text_model(kind, tmp_path):
    import torch

    torch_model = build(kind, tmp_path)
    names = json.loads((tmp_path / "model.safetensors").read_bytes()[8:8 + int.from_bytes(
        (tmp_path / "model.safetensors").read_bytes()[:8], "little")])
    assert any(n.startswith(("visual.", "model.visual.")) for n in names)           # a vision tower beside it
    with open_model(tmp_path) as model:
        c = model.config
        assert (c.family, c.model_type) == (FAMILY[kind], kind + "_text")
        assert c.rope_scaling.rope_type == "default" and c.rope_type_label == ""
        text = TEXT_CONFIG[kind]
        assert c.rope_base == text["rope_parameters"]["rope_theta"]
        assert c.head_dim == text.get("head_dim", 8) and c.qk_bias == kind.startswith("qwen2")
        assert c.qk_norm == kind.startswith("qwen3")
        ids = model.tokenize(mh.TEXT).ids
        ref = mh.capture(torch_model, kind, ids)
        close(model.input_x(ids), ref["x"])
        qk = model.layer0_qk(ids)
        close(qk.q, _heads(ref["q"].reshape(len(ids), -1), c.n_heads))   # (q_proj's or q_norm's output)
        close(qk.q_rot, ref["q_rot"])
        close(qk.k_rot, ref["k_rot"][qk.kv_head])
        with torch.no_grad():
            out = torch_model(input_ids=torch.as_tensor(np.asarray(ids)[None, :]), output_attentions=True)
        close(mh.attention_of(qk), out.attentions[0][0].numpy())


def test_text_tokens_turn_as_plain_rope(tmp_path):
    """t = h = w for text: the M-RoPE rotation is plain rotate-half RoPE at rope_theta over the whole head."""
    build("qwen2_5_vl", tmp_path)
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        qk = model.layer0_qk(ids)
        hd = model.config.head_dim
        inv = 1.0 / (1e6 ** (np.arange(0, hd, 2) / hd))
        angles = np.arange(len(ids))[:, None] * inv[None, :]
        cos, sin = np.cos(np.concatenate([angles] * 2, 1)), np.sin(np.concatenate([angles] * 2, 1))
        q = qk.q.astype(np.float64)
        turned = q * cos + np.concatenate([-q[..., hd // 2:], q[..., :hd // 2]], -1) * sin
        close(qk.q_rot, turned)


def test_the_hub_4x_layout_reads_as_the_5x_nested_one(tmp_path):
    """Qwen2.5-VL-7B-Instruct's top-level text keys and rope_scaling type mrope read the ModelConfig that the
    same settings nested as a 5.x text_config (rope_parameters, default) read; transformers agrees."""
    import transformers as tf

    text_keys = ("hidden_size", "intermediate_size", "max_position_embeddings", "max_window_layers",
                 "num_attention_heads", "num_hidden_layers", "num_key_value_heads", "rms_norm_eps",
                 "sliding_window", "use_sliding_window", "vocab_size", "hidden_act")
    nested = {"model_type": "qwen2_5_vl", "vision_config": HUB_QWEN2_5_VL_7B["vision_config"], "dtype": "bfloat16",
              "text_config": {**{k: HUB_QWEN2_5_VL_7B[k] for k in text_keys}, "model_type": "qwen2_5_vl_text",
                              "rope_parameters": {"rope_type": "default", "rope_theta": 1000000.0,
                                                  "mrope_section": [16, 24, 24]}}}
    flat, deep = model_config(HUB_QWEN2_5_VL_7B, "q"), model_config(nested, "q")
    assert flat == deep
    assert (flat.head_dim, flat.n_kv_heads, flat.rope_base, flat.max_positions) == (128, 4, 1e6, 128000)
    assert flat.sliding_window is None and flat.dtype == "bfloat16" and flat.qk_bias
    ref = tf.Qwen2_5_VLConfig(**HUB_QWEN2_5_VL_7B).text_config
    assert ref.rope_parameters["rope_type"] == "default" and ref.rope_parameters["rope_theta"] == flat.rope_base
    assert (ref.num_key_value_heads, ref.rms_norm_eps) == (flat.n_kv_heads, flat.norm_eps)


def test_the_vision_tower_is_never_read(tmp_path):
    """A checkpoint whose visual.* tensors are all NaN gives the same X, q and k: only the text model is read."""
    from safetensors.numpy import load_file, save_file

    torch_model = build("qwen2_5_vl", tmp_path)
    path = tmp_path / "model.safetensors"
    tensors = load_file(str(path))
    vision = [n for n in tensors if "visual." in n]
    assert vision
    save_file({n: (np.full_like(t, np.nan) if n in vision else t) for n, t in tensors.items()}, str(path),
              metadata={"format": "pt"})
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        ref = mh.capture(torch_model, "qwen2_5_vl", ids)
        close(model.input_x(ids), ref["x"])
        qk = model.layer0_qk(ids)
        close(qk.q_rot, ref["q_rot"])
        assert np.isfinite(qk.logits).all()


@pytest.mark.parametrize("edit, match", [
    # Qwen2_5_VLRotaryEmbedding: freq.split(mrope_section) over head_dim / 2 = 4 frequencies
    (lambda c: c["text_config"]["rope_parameters"].update(mrope_section=[1, 1, 1]),
     r"mrope_section \[1, 1, 1\] adds up to 3, not head_dim / 2 = 4"),
    # no mrope_section: the class's [16, 24, 24], which a head of 8 channels cannot split
    (lambda c: c["text_config"]["rope_parameters"].pop("mrope_section"), r"adds up to 64, not head_dim / 2 = 4"),
    (lambda c: c["text_config"]["rope_parameters"].update(mrope_section="1,1,2"), r"must list whole numbers"),
])
def test_unusable_mrope_sections_are_refused_in_one_line(edit, match, tmp_path):
    import torch
    import transformers as tf

    build("qwen2_5_vl", tmp_path)
    path = tmp_path / "config.json"
    cfg = json.loads(path.read_text())
    edit(cfg)
    path.write_text(json.dumps(cfg))
    with pytest.raises(InputError, match=match) as info:
        open_model(tmp_path)
    assert "\n" not in str(info.value)
    if "adds up" in match:           # transformers' own model cannot run it either
        config = tf.Qwen2_5_VLConfig(**cfg)
        config._attn_implementation = "eager"
        with pytest.raises(RuntimeError):
            tf.Qwen2_5_VLForConditionalGeneration(config)(input_ids=torch.tensor([[1, 2, 3]]))


@pytest.mark.parametrize("kind", ["qwen2_5_vl", "qwen3_vl"])
def test_either_layout_of_tensor_names_opens_the_same(kind, tmp_path):
    """transformers 5.25 saves a Qwen2.5-VL as "model.layers.*" beside "visual.*", a Qwen3-VL as
    "model.language_model.*" beside "model.visual.*"; each rewritten in the other layout reads the same."""
    from safetensors.numpy import load_file, save_file

    torch_model = build(kind, tmp_path)
    path = tmp_path / "model.safetensors"
    tensors = load_file(str(path))
    newer = "model.language_model.embed_tokens.weight" in tensors
    assert newer == (kind == "qwen3_vl") and (newer or "model.embed_tokens.weight" in tensors)

    def renamed(name: str) -> str:
        if newer:
            return name.replace("model.language_model.", "model.", 1).replace("model.visual.", "visual.", 1)
        if name.startswith("visual."):
            return "model." + name
        return "model.language_model." + name[len("model."):] if name.startswith("model.") else name

    save_file({renamed(n): t for n, t in tensors.items()}, str(path), metadata={"format": "pt"})
    with open_model(tmp_path) as model:
        ids = model.tokenize(mh.TEXT).ids
        ref = mh.capture(torch_model, kind, ids)
        close(model.input_x(ids), ref["x"])
        qk = model.layer0_qk(ids)
        close(qk.q_rot, ref["q_rot"])
        close(qk.k_rot, ref["k_rot"][qk.kv_head])


def test_the_rope_words_say_mrope_is_plain_rope_for_text(tmp_path):
    """The opened-model line and the Real RoPE view's readout (rope_parts) name M-RoPE's reduction."""
    from explorer.ui.views.rope_words import rope_parts

    c = model_config(HUB_QWEN2_5_VL_7B, "q")
    assert c.mrope and not model_config(dict(mh.FAMILIES["qwen2"], model_type="qwen2"), "q").mrope
    assert rope_parts(c.rope_type_label, c.partial_rotary_factor, mrope=c.mrope) == (
        "M-RoPE: text tokens have t = h = w, so plain RoPE",)
