"""GGUF files of Qwen2-VL / Qwen2.5-VL (llama.cpp's `qwen2vl`), Qwen3-VL (`qwen3vl`) and Qwen3-VL-MoE
(`qwen3vlmoe`) text models against the transformers *ForConditionalGeneration they came from.

Each tiny random model is written as the converter's Qwen2VLModel / Qwen3VLTextModel / Qwen3VLMoeTextModel writes
it (tests/gguf_glm_vl_writer.py: the text model's tensors as Hugging Face has them, mrope_section padded to four
as rope.dimension_sections, no vision tower). A text token's positions are (p, p, p, 0) in llama.cpp; with
sections that give no pair the fourth, its M-RoPE is plain RoPE, as transformers' for text; the pairs that take
the fourth are unturned (position 0), which the tests check against transformers with their inv_freq set to 0.
F16 files hold float16-rounded weights exactly, so X, layer-0 q/k after RoPE and the causal softmax equal the
model's own.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.gguf_qwen_vl import fourth_position_pairs
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import gguf_arch_writer as aw
from tests import gguf_converter_writer as gw
from tests import gguf_fixtures as fx
from tests import gguf_glm_vl_writer as vw
from tests import models_helpers as mh

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2]
TEXT = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, intermediate_size=48,
            vocab_size=mh.VOCAB, max_position_embeddings=40)
VISION = dict(depth=1, hidden_size=16, intermediate_size=16, num_heads=2, out_hidden_size=32, patch_size=2,
              spatial_merge_size=1, temporal_patch_size=1)
# (kind, arch, config class, model class, text_config): Qwen2-VL / 2.5-VL 8 channels a head, sections adding up
# to 4 pairs; Qwen3-VL an explicit head_dim 12, interleaved [2, 2, 2]; Qwen3-VL-MoE [2, 1, 1] over 4 pairs
KINDS = {
    "qwen2_vl": ("qwen2vl", "Qwen2VLConfig", "Qwen2VLForConditionalGeneration",
                 dict(TEXT, rope_parameters={"rope_type": "default", "rope_theta": 1e6, "mrope_section": [1, 1, 2]})),
    "qwen2_5_vl": ("qwen2vl", "Qwen2_5_VLConfig", "Qwen2_5_VLForConditionalGeneration",
                   dict(TEXT, rope_parameters={"rope_type": "default", "rope_theta": 2e5, "mrope_section": [2, 1, 1]})),
    "qwen3_vl": ("qwen3vl", "Qwen3VLConfig", "Qwen3VLForConditionalGeneration",
                 dict(TEXT, head_dim=12, rope_parameters={"rope_type": "default", "rope_theta": 5e5,
                                                          "mrope_section": [2, 2, 2], "mrope_interleaved": True})),
    "qwen3_vl_moe": ("qwen3vlmoe", "Qwen3VLMoeConfig", "Qwen3VLMoeForConditionalGeneration",
                     dict(TEXT, rope_parameters={"rope_type": "default", "rope_theta": 5e5, "mrope_section": [2, 1, 1],
                                                 "mrope_interleaved": True},
                          num_experts=2, num_experts_per_tok=1, moe_intermediate_size=16, decoder_sparse_step=1)),
}


def _written(tmp_path, kind, edit=None, section=None):
    import transformers as tf

    arch, config_name, model_name, text = KINDS[kind]
    if section is not None:
        text = dict(text, rope_parameters=dict(text["rope_parameters"], mrope_section=section))
    vision = dict(VISION, **({"embed_dim": 16, "hidden_size": 32, "mlp_ratio": 2} if kind == "qwen2_vl" else {}),
                  **({"num_position_embeddings": 16, "deepstack_visual_indexes": []} if kind.startswith("qwen3")
                     else {}), **({"window_size": 4, "fullatt_block_indexes": [0]} if kind == "qwen2_5_vl" else {}))
    torch.manual_seed(31)
    config = getattr(tf, config_name)(text_config=dict(text), vision_config=vision)
    config._attn_implementation = "eager"
    config.text_config._attn_implementation = "eager"
    torch_model = mh.save_random(getattr(tf, model_name)(config).eval(), tmp_path / "hf")
    aw.fp16_exact(torch_model)
    vw.write_glm_vl(tmp_path / "m.gguf", torch_model, arch, edit=edit)
    return torch_model


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("ids", [IDS, IDS * 4], ids=["12 tokens", "48 tokens"])
def test_x_rotated_qk_and_attention_equal_transformers(tmp_path, kind, ids):
    torch_model = _written(tmp_path, kind)
    names = {t.name for t in gguf.GGUFReader(str(tmp_path / "m.gguf")).tensors}
    assert not any(n.startswith("v.") or "visual" in n for n in names)
    with open_model(str(tmp_path / "m.gguf")) as model:
        cfg, text = model.config, KINDS[kind][3]
        assert (cfg.model_type, cfg.rope_base, cfg.mrope, cfg.rope_interleaved) == (
            kind + "_text" if kind != "qwen2_5_vl" else "qwen2_vl_text", text["rope_parameters"]["rope_theta"],
            True, False)
        assert (cfg.rope_dim, cfg.qk_bias, cfg.qk_norm) == (text.get("head_dim", 8), kind.startswith("qwen2"),
                                                             kind.startswith("qwen3"))
        mh.assert_layer0_as_transformers(model, torch_model, kind, ids)


def test_qwen3_vl_s_published_sections_leave_two_pairs_to_the_fourth_position():
    """Qwen3-VL's mrope_section [24, 20, 20] over 64 pairs: IMROPE gives pairs 61 and 62 to e (0 for text)."""
    assert fourth_position_pairs([24, 20, 20, 0], 64, interleaved=True) == [61, 62]
    assert fourth_position_pairs([16, 24, 24, 0], 64, interleaved=False) == []     # Qwen2-VL's: none
    assert fourth_position_pairs([2, 1, 1, 1], 5, interleaved=False) == [4]


def _sections(values):
    return lambda w, stored: (fx.drop_keys(w, f"{w.arch}.rope.dimension_sections"),
                              w.add_rope_dimension_sections(values))


def _without_rotation(torch_model, pairs):
    """torch_model with the text rotary embedding's inv_freq 0 at `pairs`: what llama.cpp turns them by for text
    (position 0); the vision tower's is left alone."""
    buffers = [b for name, b in torch_model.named_buffers() if name.endswith("rotary_emb.inv_freq")
               and "visual" not in name]
    assert len(buffers) == 1
    buffers[0][list(pairs)] = 0.0
    return torch_model


@pytest.mark.parametrize("kind, section, edit, pairs", [
    # IMROPE over 4 pairs with [1, 1, 2]: pair 3 (sector 3: 3 % 3 == 0, not < 3 x 1) turns by e
    ("qwen3_vl_moe", [1, 1, 2], None, [3]),
    # M-RoPE [1, 1, 1, 1] written over the model's [1, 1, 2]: pair 3 (sector 3 >= 1 + 1 + 1) turns by e
    ("qwen2_vl", None, _sections([1, 1, 1, 1]), [3]),
    ("qwen2_vl", None, _sections([0, 0, 0, 1]), [0, 1, 2, 3])])          # every pair: no rotation at all
def test_pairs_llama_cpp_leaves_unturned_for_text_are_unturned(tmp_path, kind, section, edit, pairs):
    """A file whose sections give pairs the fourth position (Qwen3-VL's published ones do: 61 and 62) opens as
    llama.cpp runs it: those pairs at frequency 0, the others as transformers turns text; the readout says so."""
    torch_model = _written(tmp_path, kind, edit=edit, section=section)
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert model.config.still_pairs == tuple(pairs)
        inv_freq = model.rope_inv_freq(len(IDS))[0]
        assert (inv_freq[pairs] == 0).all() and (np.delete(inv_freq, pairs) > 0).all()
        mh.assert_layer0_as_transformers(model, _without_rotation(torch_model, pairs), kind, IDS)
        with pytest.raises(AssertionError):        # (transformers itself turns them: not the same q / k)
            mh.assert_layer0_as_transformers(model, _written(tmp_path / "t", kind, edit=edit, section=section),
                                             kind, IDS)


def test_a_transformers_folder_turns_every_pair():
    """still_pairs is a GGUF's (runtime llama.cpp) alone: a config.json that carries the key is read without it."""
    from explorer.backend.models.config import model_config
    from explorer.backend.models.qwen_vl import STILL_PAIRS

    text = dict(KINDS["qwen3_vl"][3], model_type="qwen3_vl_text", **{STILL_PAIRS: [1]})
    assert model_config(text).still_pairs == ()
    assert model_config(text, runtime="llama.cpp").still_pairs == (1,)


@pytest.mark.parametrize("kind, section, edit, match", [
    ("qwen2_vl", None, fx.without_keys("qwen2vl.rope.dimension_sections"),
     r"metadata qwen2vl\.rope\.dimension_sections is missing"),
    ("qwen3_vl", None, _sections([0, 0, 0, 0]), r"dimension_sections is \[0, 0, 0, 0\]; it must list four"),
    ("qwen2_vl", None, lambda w, stored: w.add_rope_dimension_count(4),
     r"qwen2vl\.rope\.dimension_count is 4; llama\.cpp's qwen2vl turns the whole head"),
    ("qwen2_vl", None, lambda w, stored: w.add_key_length(16), r"qwen2vl\.attention\.key_length is 16"),
    # (without both biases: Qwen2-VL's attention always has them)
    ("qwen2_vl", None, lambda w, stored: [gw.replace_tensor(w, stored, f"blk.0.attn_{x}.bias") for x in "qk"],
     r"tensor blk\.0\.attn_q\.bias is missing$")])
def test_bad_qwen_vl_files_are_refused_in_one_line(tmp_path, kind, section, edit, match):
    _written(tmp_path, kind, edit=edit, section=section)
    with pytest.raises(InputError, match=match) as info:
        open_model(str(tmp_path / "m.gguf"))
    assert "\n" not in str(info.value)


def test_the_window_says_which_pairs_llama_cpp_leaves_unturned(window, qapp, tmp_path):
    """The opened-model line and the Real RoPE view's readout name the pairs (the words in Chinese too), where a
    Qwen2-VL file whose pairs all turn says plain RoPE."""
    from explorer.ui import i18n
    from explorer.ui.views.rope_words import rope_parts
    from tests.test_ui_models import open_and_wait, show

    _written(tmp_path / "still", "qwen3_vl_moe", section=[1, 1, 2])
    _written(tmp_path / "plain", "qwen2_vl")
    window.controller.update(text="12, 34. 56 (7)")   # bytes < 64: ids of the 64-row table
    open_and_wait(window, tmp_path / "still" / "m.gguf")
    words = "but llama.cpp leaves pairs 3 unturned (4th position 0)"
    assert words in window.statusBar().currentMessage()
    view = show(window, "qk")
    assert words in view.readout.text()
    open_and_wait(window, tmp_path / "plain" / "m.gguf")
    view = show(window, "qk")
    assert "so plain RoPE" in view.readout.text() and "llama.cpp leaves" not in view.readout.text()
    assert i18n.install_translator(qapp, "zh_CN")
    try:
        assert rope_parts("", 1.0, mrope=True, still_pairs=(61, 62)) == (
            "M-RoPE：文本词元的 t = h = w，但 llama.cpp 不旋转第 61, 62 对（第 4 个位置为 0）",)
    finally:
        i18n.install_translator(qapp, "en")
