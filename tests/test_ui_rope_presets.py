"""Presets through the window's Model selector, the RoPE view's rope types through its own controls,
refused input, scenes with a preset, and --preset on the CLI. References: explorer.backend.presets
(values read from the models' config.json) and transformers' ROPE_INIT_FUNCTIONS."""

import json
import math
from dataclasses import replace

import numpy as np
import pytest

from explorer.backend.presets import get_preset, load_presets
from explorer.backend.rope_scaling import ROPE_TYPES, inv_frequencies
from explorer.scenes import load_scene, save_scene
from explorer.state import State
from explorer.ui.file_actions import apply_scene, current_scene
from tests.test_ui_extra import make, step


def _choose(window, name):
    box = window.controls.preset_box
    box.setCurrentIndex(box.findData(name))
    assert window.controller.wait_idle()


def _show(window, view):
    window.tabs.setCurrentIndex(list(window.views).index(view))
    assert window.controller.wait_idle()


def _transformers_inv_freq(preset):
    """inv_freq and attention factor from transformers' own functions for the preset's settings."""
    pytest.importorskip("transformers")
    from transformers import PretrainedConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    from explorer.backend.rope_config import scaling_to_config

    config = scaling_to_config(preset.head_dim, preset.rope_theta, preset.rope_scaling,
                               preset.max_position_embeddings)
    cfg = PretrainedConfig(**config)
    kind = preset.rope_scaling.rope_type
    if kind == "default":
        dim = int(preset.head_dim * preset.rotary_fraction)
        return 1.0 / preset.rope_theta ** (np.arange(0, dim, 2) / dim), 1.0
    inv, att = ROPE_INIT_FUNCTIONS[kind](cfg, "cpu")
    return inv.double().numpy(), float(att)


@pytest.mark.parametrize("name", list(load_presets()))
def test_each_preset_through_the_selector_sets_every_view(window, name):
    p = get_preset(name)
    _choose(window, name)
    s = window.controller.state
    assert s.preset == name
    assert s.params.d_model == p.d_model
    assert s.params.max_len == min(p.context_length, 32768)
    assert s.params.scale_embedding == (not math.isclose(p.embedding_scale, 1.0))
    assert s.views["rope"].head_dim == p.head_dim == s.views["distance"].head_dim
    assert s.views["alibi"].heads == min(p.n_heads, 64) == s.views["distance"].heads
    assert s.views["frequencies"].rope == (p.position == "rope")
    assert name in window.controls.preset_label.text()
    if p.position != "rope":
        return
    rope = s.views["rope"]
    assert (rope.base, rope.pairing, rope.rope_type) == (p.rope_theta, p.pairing, p.rope_scaling.rope_type)
    assert rope.partial_rotary_factor == p.rotary_fraction
    assert rope.scaling() == p.rope_scaling
    assert s.views["distance"].rope_base == p.rope_theta
    _show(window, "rope")
    r = window.views["rope"].result
    want = p.frequencies()
    np.testing.assert_allclose(r.scaled.profile.inv_freq_after, want.inv_freq, rtol=1e-12)
    assert r.scaled.profile.attention_factor == pytest.approx(want.attention_factor)
    ref, att = _transformers_inv_freq(p)
    np.testing.assert_allclose(r.scaled.profile.inv_freq_after, ref, rtol=1e-5)
    assert r.scaled.profile.attention_factor == pytest.approx(att, rel=1e-6)
    turning = int(np.count_nonzero(want.inv_freq))    # proportional (Gemma 4): the pairs at θ = 0 not drawn
    _, y = window.views["rope"].panels.f_after.getOriginalDataset()
    np.testing.assert_allclose(y, want.inv_freq[:turning])
    unrotated = np.sum(r.scaled.channel_pair < 0)
    assert unrotated == p.head_dim - 2 * turning
    _show(window, "frequencies")
    fr = window.views["frequencies"].result
    np.testing.assert_allclose(fr.rope_after, want.inv_freq)
    assert window.views["frequencies"].rope_shown
    np.testing.assert_allclose(10 ** window.views["frequencies"].r_after.getData()[1], want.inv_freq[:turning],
                               rtol=1e-12)                                  # drawn as log10 on a log axis


def test_gpt_oss_yarn_truncate_box_follows_the_preset_and_changes_the_ramp(window, tmp_path):
    """gpt-oss-20b's YaRN is not truncated: the scaling page's truncate box shows it unticked; ticking it gives
    transformers' truncated YaRN, a scene keeps it, and another rope type hides the box and forgets it."""
    pytest.importorskip("transformers")
    from transformers import PretrainedConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    from explorer.backend.rope_config import scaling_to_config

    p = get_preset("gpt-oss-20b")
    _choose(window, "gpt-oss-20b")
    _show(window, "rope")
    view = window.views["rope"]
    view.pages.setCurrentIndex(1)
    assert window.controller.wait_idle()
    box = view.params_boxes.truncate
    assert box.isVisible() and not box.isChecked() and window.controller.state.views["rope"].truncate is False
    untruncated = view.result.scaled.profile.inv_freq_after
    assert view.readout.text().startswith("rope type yarn (not truncated), factor 32")
    assert "yarn ×32 (4096 → 131072), not truncated" in window.controls.preset_label.text()
    box.setChecked(True)
    assert window.controller.wait_idle()
    assert window.controller.state.views["rope"].truncate is True
    assert view.readout.text().startswith("rope type yarn, factor 32")
    config = scaling_to_config(p.head_dim, p.rope_theta, replace(p.rope_scaling, truncate=True),
                               p.max_position_embeddings)
    ref, _ = ROPE_INIT_FUNCTIONS["yarn"](PretrainedConfig(**config), "cpu")
    np.testing.assert_allclose(view.result.scaled.profile.inv_freq_after, ref.double().numpy(), rtol=1e-5)
    assert not np.allclose(untruncated, ref.double().numpy(), rtol=1e-5)
    box.setChecked(False)
    assert window.controller.wait_idle()
    assert load_scene(save_scene(tmp_path / "s.json", current_scene(window))).state.views["rope"].truncate is False
    view.type_box.setCurrentIndex(view.type_box.findData("linear"))
    assert window.controller.wait_idle()
    assert window.controller.state.views["rope"].truncate is True and not box.isVisible()


def test_changed_values_are_named_and_none_keeps_them(window):
    _choose(window, "llama-3.1-8b")
    window.controls.d_model.value_changed.emit(512.0)
    assert window.controller.wait_idle()
    assert window.controller.state.params.d_model == 512
    text = window.controls.preset_label.text()
    assert "llama-3.1-8b" in text and "d_model 4096 → 512" in text
    assert window.controls.d_model.label.font().italic()
    _choose(window, "")
    assert window.controller.state.preset == "" and window.controller.state.params.d_model == 512
    assert not window.controls.preset_label.isVisible()


def test_a_base_step_leaves_the_preset_marks_alone_until_they_change(window, monkeypatch):
    """A slider step that changes nothing the preset set does not set the marks' fonts and tips
    again (three setFont + setToolTip calls a step); a value the preset set, changed, does."""
    _choose(window, "llama-3.1-8b")
    label = window.controls.d_model.label
    line = window.controls.preset_label.text()
    calls = []
    monkeypatch.setattr(label, "setToolTip", lambda text: calls.append(text))
    for base in (600000.0, 700000.0):
        window.controls.base.value_changed.emit(base)
        assert window.controller.wait_idle()
    assert calls == [] and window.controls.preset_label.text() == line   # the shared base is
    #                                                                         no preset value
    window.controls.d_model.value_changed.emit(512.0)
    assert window.controller.wait_idle()
    assert calls and "4096" in calls[-1] and label.font().italic()


def test_scene_with_a_preset_and_overrides_round_trips(window, tmp_path, settings):
    _choose(window, "qwen2.5-7b-yarn")
    c = window.controller
    assert c.update(max_len=4096) and c.update_view("rope", factor=2.0)
    path = save_scene(tmp_path / "p.json", current_scene(window))
    data = json.loads(path.read_text())
    assert data["preset"] == "qwen2.5-7b-yarn"
    assert data["params"] == {"max_len": 4096} and data["views"]["rope"] == {"factor": 2.0}
    scene = load_scene(path)
    assert scene.state == c.state
    fresh = State()
    apply_scene(window, load_scene(save_scene(tmp_path / "d.json", current_scene(window))))
    assert window.controller.state == c.state != fresh
    bad = dict(data, preset="llama-99")
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    from explorer.errors import InputError
    with pytest.raises(InputError, match="llama-99.*gpt2"):
        load_scene(tmp_path / "bad.json")


@pytest.mark.parametrize("kind", ROPE_TYPES)
def test_each_rope_type_through_the_view_controls(qtbot, kind):
    view = make(qtbot, "rope")
    step(view, lambda: view.pages.setCurrentIndex(1))        # the scaling page (only the open page is drawn)
    step(view, lambda: view.type_box.setCurrentIndex(view.type_box.findData(kind)))
    s = view.result.state
    assert s.rope_type == kind and s.page == "scaling"
    want = inv_frequencies(s.head_dim, s.base, s.scaling(), s.seq_len, s.max_position_embeddings)
    _, drawn = view.panels.f_after.getOriginalDataset()
    turning = int(np.count_nonzero(want.inv_freq))       # proportional: the pairs with θ = 0 are not drawn
    np.testing.assert_allclose(drawn, want.inv_freq[:turning])
    plain = 1.0 / s.base ** (np.arange(0, s.head_dim, 2) / s.head_dim)
    assert np.allclose(drawn, plain[:turning]) == (kind in ("default", "dynamic", "proportional"))
    #                               (dynamic: seq_len <= L0; proportional: the first pairs, unchanged)
    if kind == "proportional":    # picking it turns a quarter of the pairs, as Gemma 4's global layers
        assert s.partial_rotary_factor == 0.25 and turning == s.head_dim // 8
        assert view.panels.f_still.isVisible() and view.panels.f_still.getRegion() == (turning - 0.5,
                                                                                        s.head_dim / 2 - 0.5)
        runs = [r.getRegion() for r in view.panels.unrotated if r.isVisible()]
        half = s.head_dim // 2
        assert runs == [(turning, half), (half + turning, s.head_dim)] if s.pairing == "half" else \
            runs == [(2 * turning, s.head_dim)]
    if kind == "dynamic":          # the current length: longer than L0 rescales the base
        before = drawn.copy()
        step(view, lambda: view.params_boxes.boxes["seq_len"].setValue(4 * s.original_max_len))
        _, after = view.panels.f_after.getOriginalDataset()
        assert view.result.state.seq_len == 4 * s.original_max_len and np.all(after[1:] < before[1:])


BAD = [({"rope_type": "ntk"}, "rope_type must be one of default, linear"),
       ({"factor": None}, "rope type llama3 needs factor"),
       ({"factor": 0.0}, "factor must be a finite number > 0"),
       ({"factor": -2.0}, "factor must be"),
       ({"rope_type": "llama3", "factor": 8.0, "original_max_len": 8192, "low_freq_factor": 4.0,
         "high_freq_factor": 1.0}, "low_freq_factor must not be greater than high_freq_factor"),
       ({"rope_type": "longrope", "low_freq_factor": None, "high_freq_factor": None, "short_factor": (1.0,) * 3,
         "long_factor": (1.0,) * 3}, "short_factor must have 64 numbers"),
       ({"partial_rotary_factor": 0.0}, r"partial_rotary_factor must be a number in \(0, 1\]"),
       ({"partial_rotary_factor": 1.5}, r"partial_rotary_factor must be a number in \(0, 1\]")]


@pytest.mark.parametrize("changes, message", BAD)
def test_bad_input_keeps_the_state_and_says_why(window, changes, message):
    import re

    _choose(window, "llama-3.1-8b")
    c = window.controller
    before = c.state
    assert not c.update_view("rope", **changes)
    assert c.state == before
    assert re.search(message, window.statusBar().currentMessage())
    assert c.update_view("rope", factor=4.0)            # still works


def test_bad_input_through_the_controls_reverts_them(window):
    _choose(window, "llama-3.1-8b")
    _show(window, "rope")
    view = window.views["rope"]
    view.params_boxes.boxes["factor"].setValue(0.0)
    assert window.controller.wait_idle()
    assert window.controller.state.views["rope"].factor == 8.0
    assert view.params_boxes.boxes["factor"].value() == 8.0
    assert "needs factor" in window.statusBar().currentMessage()   # 0 shows "—": unset


def test_export_view_and_render_with_a_preset(tmp_path, capsys):
    from explorer.commands.cli import main

    out = tmp_path / "rope.npz"
    assert main(["export", "view", "--view", "rope", "--preset", "phi-3.5-mini", "-o", str(out)]) == 0
    arrays = np.load(out)
    np.testing.assert_allclose(arrays["scaled.profile.inv_freq_after"],
                               get_preset("phi-3.5-mini").frequencies().inv_freq)
    assert main(["export", "view", "--view", "rope", "--preset", "nope", "-o", str(out)]) == 2
    assert "unknown preset 'nope'; known presets: gpt2" in capsys.readouterr().err
    png = tmp_path / "rope.png"
    assert main(["render", "--view", "rope", "--preset", "pythia-160m", "--size", "900x600",
                 "-o", str(png)]) == 0
    assert png.stat().st_size > 10_000


def test_a_linear_factor_below_one_draws_and_leaves_the_worker_running(qtbot):
    """linear, L0 256, factor 0.001: an extended context of 0 positions. Its marker line took
    log10(0) in the GUI thread; the exception skipped the controller's hand-over to the next job,
    so no later change was ever computed (the window froze on that picture)."""
    view = make(qtbot, "rope")
    step(view, lambda: view.pages.setCurrentIndex(1))
    step(view, lambda: view.type_box.setCurrentIndex(view.type_box.findData("linear")))
    step(view, lambda: view.params_boxes.boxes["original_max_len"].setValue(256))
    step(view, lambda: view.params_boxes.boxes["factor"].setValue(0.001))
    s = view.result.state
    assert s.factor == pytest.approx(0.001) and s.original_max_len == 256
    assert not view.panels.ext_line.isVisible() and view.panels.l0_line.isVisible()
    assert view.panels.l0_line.value() == pytest.approx(math.log10(256))
    step(view, lambda: view.params_boxes.boxes["factor"].setValue(4.0))   # still computed, drawn
    assert view.result.state.factor == 4.0 and view.panels.ext_line.isVisible()
    assert view.panels.ext_line.value() == pytest.approx(math.log10(1024))


def test_a_view_that_fails_to_draw_is_named_and_the_next_change_is_computed(window, monkeypatch):
    c = window.controller
    window.tabs.setCurrentIndex(list(window.views).index("heatmap"))
    assert c.wait_idle()
    view = window.views["heatmap"]
    messages = []
    c.message.connect(messages.append)
    real = view.set_result
    monkeypatch.setattr(view, "set_result", lambda r: (_ for _ in ()).throw(ValueError("broken draw")))
    c.update(base=500.0)
    assert c.wait_idle()
    assert messages and "internal error: ValueError: broken draw" in messages[-1]
    monkeypatch.setattr(view, "set_result", real)
    c.update(base=600.0)
    assert c.wait_idle()                                        # the worker was handed the next job
    assert view.result.params.base == 600.0


def test_a_computation_that_raises_a_base_exception_is_named_and_the_next_change_is_computed(window,
                                                                                             monkeypatch):
    """A Rust panic (pyo3's PanicException) is a BaseException: it passed the worker's `except
    Exception`, no job was answered and the window never computed again."""
    import dataclasses

    from explorer import catalogue

    class Panic(BaseException):
        pass

    def panics(*args):
        raise Panic("index out of bounds")

    c = window.controller
    window.tabs.setCurrentIndex(list(window.views).index("heatmap"))
    assert c.wait_idle()
    messages = []
    c.message.connect(messages.append)
    entry = catalogue.VIEWS["heatmap"]
    monkeypatch.setitem(catalogue.VIEWS, "heatmap", dataclasses.replace(entry, compute=panics))
    c.update(base=700.0)
    assert c.wait_idle()
    assert messages and "internal error: Panic: index out of bounds" in messages[-1]
    monkeypatch.setitem(catalogue.VIEWS, "heatmap", entry)
    c.update(base=800.0)
    assert c.wait_idle()
    assert window.views["heatmap"].result.params.base == 800.0


def test_p_rope_preset_sets_distance_head_dim_512(window):
    """Gemma 4's global heads are 512 wide: the Distance view's box shows what its state holds (its
    box stopped at 256 while the curve used 512)."""
    _choose(window, "gemma-4-global")
    _show(window, "distance")
    view = window.views["distance"]
    assert window.controller.state.views["distance"].head_dim == 512 == view.head_box.value()


def test_p_rope_fraction_in_and_out_of_the_rope_type(qtbot):
    """Choosing p-RoPE sets Gemma 4's 0.25 where a pair then turns (head_dim 6: it stays 1, not a
    refusal of a value never typed); leaving it, the fraction goes back to 1 (elsewhere it means the
    rotated width, GPT-NeoX's partial rotary)."""
    view = make(qtbot, "rope")
    step(view, lambda: view.pages.setCurrentIndex(1))
    pick = lambda kind: step(view, lambda: view.type_box.setCurrentIndex(view.type_box.findData(kind)))
    pick("proportional")
    assert view.result.state.rope_type == "proportional" and view.result.state.partial_rotary_factor == 0.25
    pick("default")
    assert view.result.state.rope_type == "default" and view.result.state.partial_rotary_factor == 1.0
    step(view, lambda: view.head_box.setValue(6))
    pick("proportional")
    s = view.result.state
    assert (s.head_dim, s.rope_type, s.partial_rotary_factor) == (6, "proportional", 1.0)


def test_the_rotary_fraction_is_named_in_chinese_too(qapp, settings):
    """The Frequencies and Distance readouts name the rope type and the rotary fraction in the UI's
    language ("rotary 0.25" stayed English in zh)."""
    from tests.conftest import window_in

    with window_in("zh_CN", settings) as win:
        win.choose_preset("gemma-4-global")
        assert win.controller.wait_idle()
        for name in ("frequencies", "distance"):
            win.tabs.setCurrentIndex(list(win.views).index(name))
            assert win.controller.wait_idle()
            win.views[name].draw(win.views[name].result)
            text = win.views[name].readout.text()
            assert "proportional，旋转比例 0.25" in text and "rotary" not in text, text
