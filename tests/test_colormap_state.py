"""The colour map is part of the State: a scene saved in viridis opens and renders in viridis (it had lived in
the window alone, so `render --scene` always drew CET-D1: the architecture review of stop 53). Older saved
settings keep theirs, and a version-1 save its open tab."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from explorer.commands.render import render_main
from explorer.errors import InputError
from explorer.scenes import load_scene, make_scene, save_scene, scene_from_dict
from explorer.state import COLORMAPS, State
from tests.conftest import another_window, close_and_delete
from tests.test_render_cli import SMALL, png_pixels


def test_the_state_keeps_a_colour_map_and_refuses_others():
    state = replace(State(), colormap="viridis")
    assert state.to_dict()["colormap"] == "viridis" and "colormap" not in State().to_dict()
    assert State.from_dict(state.to_dict()) == state
    for bad in ("nope", "../../etc/passwd", 3, None):
        with pytest.raises(InputError) as got:
            State.from_dict({"colormap": bad})
        assert "“colormap” must be one of CET-D1, viridis, cividis, inferno" in str(got.value)
        assert "\n" not in str(got.value)
    assert scene_from_dict({"version": 2, "colormap": "inferno"}).state.colormap == "inferno"
    with pytest.raises(InputError, match="unknown key"):            # version 1 had no colour map
        scene_from_dict({"version": 1, "params": {}, "view": "heatmap", "cursor": None, "colormap": "inferno",
                         "title": {"en": "", "zh_CN": ""}, "explain": {"en": "", "zh_CN": ""}})


def test_a_colour_chosen_in_the_window_is_saved_with_the_scene_and_shown_by_another(window, settings, tmp_path):
    from explorer.ui.file_actions import apply_scene, current_scene

    box = window.controls.cmap_box
    box.setCurrentIndex(box.findData("cividis"))
    assert window.controller.state.colormap == "cividis" == window.colormap
    bar = window.views["heatmap"].panel.bar
    assert bar.colorMap().name == "cividis"
    path = save_scene(tmp_path / "s.json", current_scene(window))
    assert json.loads(path.read_text())["colormap"] == "cividis"
    with another_window(settings) as other:
        assert other.colormap == "CET-D1"
        apply_scene(other, load_scene(path))
        assert other.controller.wait_idle()
        assert other.colormap == "cividis" and other.controls.cmap_box.currentData() == "cividis"
        assert other.views["heatmap"].panel.bar.colorMap().name == "cividis"


def test_render_draws_a_scene_in_its_colour_map(qapp, tmp_path, capsys):
    pictures = {}
    for name in ("CET-D1", "viridis"):
        scene = make_scene(replace(State(), colormap=name))
        path = save_scene(tmp_path / f"{name}.json", scene)
        out = tmp_path / f"{name}.png"
        assert render_main(["--scene", str(path), "-o", str(out)] + SMALL) == 0, capsys.readouterr().err
        pictures[name] = png_pixels(out)
    assert not np.array_equal(pictures["CET-D1"], pictures["viridis"])


@pytest.mark.parametrize("colormap", COLORMAPS)
def test_older_settings_keep_their_colour_map_and_a_version_1_save_its_tab(qtbot, settings, colormap):
    from explorer.ui.main_window import MainWindow

    settings.setValue("params", json.dumps({"d_model": 48, "max_len": 200, "base": 300.0}))
    settings.setValue("tab", 8)                 # version 1: the open tab's index, in catalogue order
    settings.setValue("colormap", colormap)     # kept beside the State before it was part of it
    settings.sync()
    win = MainWindow(settings=settings)
    try:
        state = win.controller.state
        assert (state.view, state.colormap, state.params.d_model) == ("rope", colormap, 48)
        win.save_settings()
        assert settings.value("tab") is None and settings.value("colormap") is None
        assert json.loads(settings.value("state")).get("colormap", "CET-D1") == colormap
    finally:
        close_and_delete(win)


def test_a_scene_without_a_colour_map_keeps_the_window_s_and_a_saved_one_names_its_own(window, tmp_path):
    """The bundled lessons name no colour map: a lecturer's viridis stays through them. A scene saved from the
    window names its map, the default too, so it is shown as saved in a window of another map."""
    from explorer.scenes import builtin_deck
    from explorer.ui.file_actions import apply_scene, current_scene

    window.controller.set_state(replace(window.controller.state, colormap="viridis"))
    deck = builtin_deck()
    assert not deck[0].colormap_given
    apply_scene(window, deck[0])
    assert window.controller.wait_idle() and window.colormap == "viridis"
    window.controller.set_state(replace(window.controller.state, colormap="CET-D1"))
    saved = save_scene(tmp_path / "default.json", current_scene(window))
    assert json.loads(saved.read_text())["colormap"] == "CET-D1"
    window.controller.set_state(replace(window.controller.state, colormap="inferno"))
    apply_scene(window, load_scene(saved))
    assert window.colormap == "CET-D1"
    hand = tmp_path / "hand.json"
    hand.write_text('{"version": 2, "view": "rope"}')
    apply_scene(window, load_scene(hand))
    assert window.colormap == "CET-D1" and window.controller.state.view == "rope"


def test_a_bad_colour_map_in_saved_settings_costs_only_itself(qtbot, settings):
    from explorer.ui.main_window import MainWindow

    settings.setValue("state", json.dumps({"params": {"max_len": 64}, "view": "rope", "colormap": "magma"}))
    settings.sync()
    win = MainWindow(settings=settings)
    try:
        state = win.controller.state
        assert (state.params.max_len, state.view, state.colormap) == (64, "rope", "CET-D1")
    finally:
        close_and_delete(win)
