"""The window on one State: every view's settings round-trip through scenes and settings, the headless
export draws what the window showed, the catalogue and the UI registry agree, views only draw."""

import numpy as np
import pytest

from explorer import catalogue
from explorer.compute.arrays import result_arrays
from explorer.params import Params
from explorer.scenes import builtin_deck, load_scene, save_scene
from explorer.ui.file_actions import apply_scene, current_scene
from explorer.ui.views.registry import VIEW_CLASSES, tab_title
from tests.conftest import another_window, close_and_delete

NON_DEFAULT = {   # one setting per view that has any, set through the controller as a control would
    "tokens": {"page": "gauge"}, "conventions": {"rows": 128}, "offset": {"offset": 7, "position": 3},
    "rope": {"pairing": "half", "head_dim": 32}, "alibi": {"heads": 4, "causal": True},
    "frequencies": {"rope": True, "rope_type": "linear", "factor": 2.0},
    "distance": {"heads": 4, "alibi_head": 2}, "precision": {"mode": "store", "train_max_len": 100},
    "heatmap": {"zoom": (10, 110, 0, 40)}, "curves": {"zoom": (5, 150)}, "similarity": {"zoom": (20, 120)},
    "qk": {"head": 2},
    "check": {"kind": "rope_cache", "pairing": "half"},     # (a file: tests/test_ui_check.py)
}


def test_catalogue_and_ui_registry_list_the_same_views(window):
    assert tuple(VIEW_CLASSES) == catalogue.NAMES == tuple(window.views)
    assert [window.tabs.tabToolTip(i) for i in range(window.tabs.count())] == \
        [window.tab_names[n] for n in catalogue.NAMES] == [tab_title(n) for n in catalogue.NAMES]
    for name, entry in catalogue.VIEWS.items():
        has_settings = bool(entry.state_type.field_specs())
        assert has_settings == (name in NON_DEFAULT), name


def _show(window, name):
    window.tabs.setCurrentIndex(list(window.views).index(name))
    assert window.controller.wait_idle()


def test_every_view_state_round_trips_through_a_scene(window, qtbot, tmp_path, settings):
    c = window.controller
    c.update(max_len=200, d_model=48)
    for name, changes in NON_DEFAULT.items():
        assert c.update_view(name, **changes)
    _show(window, "rope")
    assert window.views["rope"].pair_box.currentData() == "half"      # controls follow the State
    assert window.views["rope"].head_box.value() == 32
    path = save_scene(tmp_path / "all.json", current_scene(window))
    scene = load_scene(path)
    assert scene.state == c.state and scene.view == "rope"
    with another_window(settings) as other:
        apply_scene(other, scene)
        assert other.controller.wait_idle()
        assert other.controller.state == c.state
        assert list(other.views)[other.tabs.currentIndex()] == "rope"
        assert other.views["offset"].k_box.value() == 7 and other.views["alibi"].heads_box.value() == 4
        assert other.views["tokens"].pages.currentIndex() == 2
        for name in catalogue.NAMES:
            _show(other, name)
            drawn = other.views[name].result
            assert drawn is not None and drawn.params == c.params, name
            if hasattr(drawn, "state"):
                assert drawn.state == c.state.views[name], name


def test_headless_export_equals_what_the_window_shows(window, tmp_path):
    """Non-default settings in every view, the scene saved, `pe-explorer export view --scene` run for
    each view: the arrays equal what the window draws (default sizes fit the screen exactly)."""
    from explorer.commands.cli import main

    c = window.controller
    for name, changes in NON_DEFAULT.items():
        c.update_view(name, **changes)
    scene = save_scene(tmp_path / "scene.json", current_scene(window))
    for name in catalogue.NAMES:
        _show(window, name)
        shown = result_arrays(window.views[name].result)
        out = tmp_path / f"{name}.npz"
        assert main(["export", "view", "--view", name, "--scene", str(scene), "-o", str(out)]) == 0
        with np.load(out, allow_pickle=False) as headless:
            assert set(headless.files) == set(shown), name
            for key in shown:
                if key.startswith("shown_"):   # Learned's tables as drawn, at the panel's pixels: the
                    continue                   # export's are at its own (tests/test_compute_learned_shown.py)
                np.testing.assert_array_equal(headless[key], shown[key], err_msg=f"{name}.{key}")


def test_settings_remember_the_whole_state(window, qtbot, settings):
    from explorer.ui.main_window import MainWindow

    window.controller.update(base=500.0)
    window.controller.update_view("rope", scale=8.0)
    window.controller.update_view("tokens", page="lookup")
    _show(window, "alibi")
    window.save_settings()
    again = MainWindow(settings=settings)
    try:
        assert again.controller.state == window.controller.state
        assert list(again.views)[again.tabs.currentIndex()] == "alibi"
        assert again.views["rope"].scale_box.value() == 8.0
    finally:
        close_and_delete(again)


def test_builtin_scene_two_opens_the_lookup_sub_tab(window):
    tokens = window.views["tokens"]
    tokens.pages.setCurrentIndex(1)            # whatever was open last ...
    assert window.controller.state.views["tokens"].page == "sum"
    apply_scene(window, builtin_deck()[1])     # ... the scene names the sub-tab
    assert window.controller.wait_idle()
    assert tokens.pages.currentIndex() == 0 and list(window.views)[window.tabs.currentIndex()] == "tokens"


def test_sub_tab_click_writes_the_state(window):
    _show(window, "tokens")
    window.views["tokens"].pages.setCurrentIndex(2)
    assert window.controller.state.views["tokens"].page == "gauge"


def test_hover_readout_reads_the_shown_result_not_the_maths(window, monkeypatch):
    from explorer.compute import heatmap, similarity

    def forbidden(*_):
        raise AssertionError("maths on the GUI thread")

    monkeypatch.setattr(heatmap, "pe_value", forbidden)
    monkeypatch.setattr(similarity, "similarity_value", forbidden)
    p = Params()
    window.views["heatmap"].hovered.emit(10, 3)
    text = window.views["heatmap"].readout.text()
    want = np.cos(10 * 10000.0 ** (-2 / p.d_model))   # channel 3 = cos of pair 1: cos(10 w_1)
    assert f"{want:+.6f}" in text and "position 10, channel 3" in text
    _show(window, "similarity")
    window.views["similarity"].hovered.emit(4, 9)
    assert "offset k = 5" in window.views["similarity"].readout.text()


def test_views_are_made_when_their_tab_is_first_shown(window):
    """Start-up builds only the open tab's view; another tab's view is made on first show, with the
    State's settings in its controls and the shared colour map."""
    views = window.views
    assert [n for n in catalogue.NAMES if views.built(n)] == ["heatmap"]
    window.controller.update_view("alibi", heads=4)          # a hidden view's state changes ...
    assert not views.built("alibi")
    window.controls.cmap_box.setCurrentIndex(window.controls.cmap_box.findData("viridis"))
    _show(window, "alibi")                                   # ... and shows when it is made
    alibi = views["alibi"]
    assert alibi.heads_box.value() == 4 and alibi.result.state.heads == 4
    assert alibi.parent() is window.tabs.currentWidget()
    assert window.colormap == "viridis"


def test_a_zoom_is_part_of_the_state_and_of_a_scene(window, qtbot, settings, tmp_path):
    """Zooming the heatmap writes its region into the State; a scene brings the same region back in
    another window, computed at full detail there."""
    window.controller.update(max_len=20000)
    _show(window, "heatmap")
    view = window.views["heatmap"]
    view.panel.plot.setRange(yRange=(1000, 1100), xRange=(0, 64), padding=0)
    view.window_changed.emit()
    window._window_timer.timeout.emit()
    assert window.controller.wait_idle()
    zoom = window.controller.state.views["heatmap"].zoom
    assert 990 <= zoom[0] <= 1001 and 1099 <= zoom[1] <= 1110 and zoom[2] == 0 and 63 <= zoom[3] <= 66
    assert view.result.pos_step == 1 and view.result.pos0 == zoom[0]
    scene = load_scene(save_scene(tmp_path / "zoom.json", current_scene(window)))
    with another_window(settings) as other:
        apply_scene(other, scene)
        assert other.controller.wait_idle()
        shown = other.views["heatmap"]
        (x0, x1), (y0, y1) = shown.panel.plot.getViewBox().viewRange()
        assert (round(y0), round(y1)) == zoom[0:2] and (round(x0), round(x1)) == zoom[2:4]
        assert shown.result.pos_step == 1 and shown.result.pos0 == zoom[0]
        other.controller.update(max_len=300)            # a new table size shows all of it again
        assert other.controller.state.views["heatmap"].zoom == ()


def test_a_two_number_heatmap_zoom_and_a_four_number_curves_zoom_show_their_positions(window, settings,
                                                                                       tmp_path):
    """Found by a helper's fuzz: a heatmap zoom of positions only sliced its channels out of two
    numbers (a traceback from pyqtgraph's min of nothing, the picture unzoomed), and a curves zoom
    of four numbers gave setXRange four values (a TypeError) once max_len changed."""
    import json

    path = tmp_path / "z.json"
    path.write_text(json.dumps({"version": 2, "view": "heatmap", "params": {"max_len": 1000},
                                "views": {"heatmap": {"zoom": [100, 200]},
                                          "curves": {"zoom": [10, 60, 0, 4]}}}))
    scene = load_scene(path)
    with another_window(settings) as other:
        apply_scene(other, scene)
        assert other.controller.wait_idle()
        (x0, x1), (y0, y1) = other.views["heatmap"].panel.plot.getViewBox().viewRange()
        assert (round(y0), round(y1)) == (100, 200) and (round(x0), round(x1)) == (0, 128)
        _show(other, "curves")
        assert other.controller.wait_idle()
        (c0, c1), _ = other.views["curves"].plot.getViewBox().viewRange()
        assert (round(c0), round(c1)) == (10, 60)


@pytest.mark.parametrize("state, colormap", [
    ("[" * 100_000, "viridis"),                        # nested past Python's recursion limit
    ('{"version": 2}', "nope"),                       # a colour map pyqtgraph has no file for
    ('{"version": 2}', "../../../../../../../etc/passwd"),   # a path: was read as a colour map
    ('{"version": 2}', "@Variant(\\0\\0\\0\\x7f\\0\\0\\0\\bQVariant)"),   # not a string
])
def test_hand_edited_settings_leave_the_window_starting(qtbot, settings, monkeypatch, state, colormap):
    """Settings edited by hand (or damaged) give the defaults and a note, never a window that
    does not start (a RecursionError escaped load_state; the colour map's name was a file path)."""
    from pyqtgraph import colormap as pg_colormap

    from explorer.ui.controls import COLORMAPS
    from explorer.ui.main_window import MainWindow
    from tests.conftest import close_and_delete

    settings.setValue("state", state)
    settings.setValue("colormap", colormap)
    settings.sync()
    read = []
    real = pg_colormap.get
    monkeypatch.setattr(pg_colormap, "get", lambda name, *a, **k: read.append(name) or real(name, *a, **k))
    win = MainWindow(settings=settings)
    try:
        assert win.colormap == ("viridis" if colormap == "viridis" else "CET-D1")
        assert set(read) <= set(COLORMAPS), read
        assert win.controller.wait_idle() and win.views[win.controller.state.view].result is not None
        if state.startswith("["):
            assert "unreadable" in win.statusBar().currentMessage()
    finally:
        close_and_delete(win)
