"""The check view end to end: File → Check my table… on a file the test writes (the seeds' module),
the diagnosis drawn, bad files refused with the State kept, scenes, explorer.show, the worker thread."""

from __future__ import annotations

import math
import sys
import threading
import types

import numpy as np
import pytest
import torch

import explorer
from explorer.backend import diagnose as diagnose_module
from explorer.backend.diagnose import diagnose
from explorer.compute import check as check_data
from explorer.compute.arrays import result_arrays
from explorer.scenes import load_scene, save_scene
from explorer.ui.file_actions import apply_scene, current_scene
from tests.check_implementations import PositionalEncoding
from tests.conftest import another_window, close_and_delete

L, D = 120, 64


def seeds_table(swap: bool = False) -> np.ndarray:
    """The seeds' PositionalEncoding's table (as the module adds it), sin/cos swapped if asked."""
    module = PositionalEncoding(D, max_len=L).eval()
    with torch.no_grad():
        pe = module(torch.zeros(1, L, D))[0].numpy()
    if swap:
        pe = pe.copy()
        pe[:, 0::2], pe[:, 1::2] = pe[:, 1::2].copy(), pe[:, 0::2].copy()
    return pe


def rope_cos_cache(n=80, hd=32) -> np.ndarray:
    inv = 1.0 / (10000 ** (torch.arange(0, hd, 2).float() / hd))
    freqs = torch.arange(n).float()[:, None] * inv
    return torch.cat([freqs, freqs], dim=-1).cos().numpy()


@pytest.fixture(autouse=True)
def fresh_cache():
    check_data._diagnosed_file.cache_clear()
    check_data._diagnosed_memory.cache_clear()
    yield
    check_data._diagnosed_file.cache_clear()
    check_data._diagnosed_memory.cache_clear()


def open_through_action(window, monkeypatch, path, key=None):
    """File → Check my table… with the file dialog answering `path` (and `key` for several arrays)."""
    from PySide6.QtWidgets import QFileDialog, QInputDialog

    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    asked = []
    monkeypatch.setattr(QInputDialog, "getItem",
                        lambda parent, title, label, items, *a, **k: (asked.append(list(items)) or
                                                                      (key, key is not None)))
    window.check_actions.action.trigger()
    assert window.check_actions.wait_idle()
    assert window.controller.wait_idle()
    return asked


def test_a_right_table_opened_through_the_action_shows_a_match(window, monkeypatch, tmp_path):
    path = tmp_path / "pe.npy"
    np.save(path, seeds_table())
    assert window.check_actions.action.shortcut().toString() == "Ctrl+K"
    open_through_action(window, monkeypatch, path)
    c = window.controller
    assert c.state.view == "check" and c.state.views["check"].source == str(path)
    view = window.views["check"]
    assert list(window.views)[window.tabs.currentIndex()] == "check"
    r = view.result
    assert r.match and r.kind == "pe" and r.mistakes == () and r.fix == ""
    assert "OK" in view.summary_line.text() and "interleaved" in view.summary_line.text()
    assert not view.fix_line.isVisible()
    np.testing.assert_allclose(r.reference, explorer.sinusoidal(L, D, dtype="float64"), atol=1e-12)
    np.testing.assert_allclose(view.ref.image.image, r.reference)
    assert view.stack.currentWidget() is view.canvas
    assert np.max(np.abs(r.difference)) <= r.tolerance


def test_a_p_rope_inv_freq_is_named_and_its_zeros_left_off_the_log_axis(window, monkeypatch, tmp_path):
    """Gemma 4's p-RoPE vector (transformers' numbers) opens as proportional; the 192 pairs at θ = 0
    are gaps in the log plot (not pinned at 1e-300, which flattened the rest) and named below it."""
    from explorer.backend.rope_scaling import rope_frequencies

    path = tmp_path / "gemma4_inv_freq.npy"
    w = rope_frequencies(512, 1e6, "proportional", partial_rotary_factor=0.25).inv_freq.astype(np.float32)
    np.save(path, w)
    open_through_action(window, monkeypatch, path)
    view = window.views["check"]
    r = view.result
    assert r.match and r.kind == "inv_freq" and "proportional" in view.summary_line.text()
    _, drawn = view.mine_curve.getOriginalDataset()
    assert np.all(np.isnan(drawn[64:])) and np.allclose(drawn[:64], w[:64])
    assert "192 frequencies are 0, not drawn on the log axis" in view.readout.text()
    other = tmp_path / "zeros_first.npy"            # zeros that are no p-RoPE: not blamed on it
    np.save(other, np.r_[np.zeros(16), w[:16]].astype(np.float32))
    open_through_action(window, monkeypatch, other)
    text = window.views["check"].readout.text()
    assert "16 values are 0, not drawn on the log axis" in text and "p-RoPE" not in text


def test_negative_frequencies_are_left_off_the_log_axis_and_counted(window, monkeypatch, tmp_path):
    """A negative inv_freq had been drawn as |value|, on the reference's own line (the architecture review,
    stop 53); the counts come with the result, not from the view."""
    from explorer.backend.rope_scaling import rope_frequencies

    w = rope_frequencies(64, 1e4).inv_freq
    signs = np.ones_like(w)
    signs[[3, 7, 9]] = -1
    path = tmp_path / "signs.npy"
    np.save(path, w * signs)
    open_through_action(window, monkeypatch, path)
    view = window.views["check"]
    r = view.result
    assert (r.kind, r.match, r.negatives, r.zeros) == ("inv_freq", False, 3, 0)
    _, drawn = view.mine_curve.getOriginalDataset()
    assert np.all(np.isnan(drawn[[3, 7, 9]])) and np.allclose(np.delete(drawn, [3, 7, 9]), np.delete(w, [3, 7, 9]))
    assert "3 values are negative, not drawn on the log axis" in view.readout.text()


def test_a_wrong_table_names_the_mistake_and_its_fix(window, monkeypatch, tmp_path):
    path = tmp_path / "swapped.npy"
    np.save(path, seeds_table(swap=True))
    open_through_action(window, monkeypatch, path)
    view = window.views["check"]
    r = view.result
    expected = diagnose(np.load(path))
    assert not r.match and [m.id for m in r.mistakes] == ["sin_cos_swapped"]
    assert expected.mistakes[0].message in view.summary_line.text().replace("&gt;", ">")
    assert view.fix_line.isVisible() and expected.fix in view.fix_line.text()
    assert "torch.sin(position * div_term)" in view.fix_line.text()
    np.testing.assert_allclose(r.reference, explorer.sinusoidal(L, D, dtype="float64"), atol=1e-12)


def test_a_table_with_two_channels_swapped_names_them_and_its_difference_shows_them(window, monkeypatch, tmp_path):
    """The seeds' table with channels 3 and 10 exchanged (it read "matches no known convention")."""
    table = seeds_table()
    table[:, [3, 10]] = table[:, [10, 3]]
    path = tmp_path / "two.npy"
    np.save(path, table)
    open_through_action(window, monkeypatch, path)
    view = window.views["check"]
    r = view.result
    assert [m.id for m in r.mistakes] == ["wrong_channels"]
    assert "channel 3 holds channel 10's values, channel 10 holds channel 3's values" in view.summary_line.text()
    assert "torch.sin(position * div_term)" in view.fix_line.text()
    wrong = np.abs(r.table - r.reference).max(axis=0) > r.tolerance            # what the difference panel draws
    assert list(np.flatnonzero(wrong)) == [3, 10]


def test_a_table_with_a_few_large_values_is_coloured_to_its_99_5th_percentile(window, monkeypatch, tmp_path):
    """A learned-like table (values ~0.02, one channel of 256 fifty times larger) matches nothing
    and no sinusoid comes near: its colours span the 99.5th percentile of |value|, not the peak
    (the rest was one pale colour), the readout says so, and the reference it is 4x+ away from
    keeps its own colours. Its fit is named as far, and the middle panel as the nearest one."""
    from explorer.ui.views.ranges import nice_ceil

    x = np.random.default_rng(4).standard_normal((384, 256)) * 0.02
    x[:, 7] *= 50
    path = tmp_path / "learned.npy"
    np.save(path, x)
    open_through_action(window, monkeypatch, path)
    view = window.views["check"]
    r = view.result
    assert [m.id for m in r.mistakes] == ["unknown"] and "no sinusoidal table comes close" in r.summary
    assert r.shape == (384, 256) and r.convention["orientation"] == "(L, d)"
    robust = float(np.percentile(np.abs(x), 99.5))
    assert r.table_limit == pytest.approx(robust) and r.clipped_peak == pytest.approx(np.abs(x).max())
    assert tuple(view.mine.image.levels) == pytest.approx((-nice_ceil(robust), nice_ceil(robust)))
    ref_peak = float(np.abs(r.reference).max())
    assert not robust / 4 <= ref_peak <= 4 * robust and tuple(view.ref.image.levels) == pytest.approx((-nice_ceil(ref_peak),
                                                                                    nice_ceil(ref_peak)))
    assert "99.5th percentile" in view.readout.text() and f"±{nice_ceil(robust):.3g}," in view.readout.text()
    assert f"reach {np.abs(x).max():.3g}" in view.readout.text()
    # the difference (here nearly the table itself) likewise
    assert r.difference_clipped == pytest.approx(np.abs(r.difference).max())
    assert view.diff.image.levels[1] == pytest.approx(nice_ceil(r.difference_limit))
    assert view.diff.image.levels[1] < r.difference_clipped / 4
    assert "the difference's colours span" in view.readout.text()
    assert "the nearest right table" in view.ref.plot.titleLabel.text


def test_colour_limits_share_the_tables_unless_4x_apart():
    """A table without outliers is coloured to its peak and the reference shares it (a dropout
    table x 1.11 beside the right one compares colour for colour); outliers clip it."""
    table = np.linspace(-1.11, 1.11, 200).reshape(20, 10)
    assert check_data.colour_limits(table, table / 1.11) == pytest.approx((1.11, 1.11, 0.0))
    assert check_data.colour_limits(table, table * 5) == pytest.approx((1.11, 5.55, 0.0))
    spiky = np.full((40, 25), 0.1)
    spiky[0, 0] = 3.0
    assert check_data.colour_limits(spiky, None) == pytest.approx((0.1, 0.1, 3.0))
    # drawn samples of a bigger table: its own peak is told, which the samples may miss
    assert check_data.colour_limits(np.full((40, 25), 0.1), None, peak=7.0) == pytest.approx((0.1, 0.1, 7.0))
    assert check_data.colour_limits(np.zeros((4, 4)), np.zeros((4, 4))) == (0.0, 0.0, 0.0)


def test_the_view_draws_the_backends_arrays_and_export_view_agrees(window, monkeypatch, tmp_path):
    from explorer.commands.cli import main

    path = tmp_path / "cache.npy"
    np.save(path, rope_cos_cache())
    open_through_action(window, monkeypatch, path)
    r = window.views["check"].result
    d = diagnose(np.load(path))
    assert r.kind == d.kind == "rope_cache" and r.match == d.match
    np.testing.assert_array_equal(r.table, d.table)
    np.testing.assert_array_equal(r.reference, d.reference)
    np.testing.assert_array_equal(r.difference, d.difference)
    assert r.summary == d.summary and r.max_error == d.max_error
    scene = save_scene(tmp_path / "scene.json", current_scene(window))
    out = tmp_path / "check.npz"
    assert main(["export", "view", "--view", "check", "--scene", str(scene), "-o", str(out)]) == 0
    shown = result_arrays(r)
    with np.load(out, allow_pickle=False) as headless:
        assert {"table", "reference", "difference", "rows", "cols"} <= set(headless.files)
        assert set(headless.files) == set(shown)
        for key in shown:
            np.testing.assert_array_equal(headless[key], shown[key], err_msg=key)


def test_big_tables_are_sampled_at_screen_size_with_exact_values():
    table = explorer.sinusoidal(3000, 1500, dtype="float64")
    token = check_data.remember_array(table)
    try:
        r = check_data.check_view(explorer.params.Params(), check_data.CheckState(source=token))
    finally:
        check_data.forget_array(token)
    assert r.match and r.shape == (3000, 1500)
    assert r.table.shape == (len(r.rows), len(r.cols)) and len(r.rows) <= 1024 >= len(r.cols)
    assert r.rows[0] == 0 and r.rows[-1] == 2999 and r.cols[-1] == 1499
    np.testing.assert_array_equal(r.table, table[np.ix_(r.rows, r.cols)])


def _pickled_npy(path):
    np.save(path, np.array([{"a": 1}], dtype=object), allow_pickle=True)


BAD = {
    "nan.npy": (lambda p: np.save(p, np.full((8, 8), np.nan)), "NaN"),
    "empty.csv": (lambda p: p.write_text(""), "cannot read"),
    "pickle.npy": (_pickled_npy, "cannot read"),
    "garbage.pt": (lambda p: p.write_bytes(b"not a torch file"), "garbage.pt"),
    "pickle.pt": (lambda p: torch.save({"pe": torch.zeros(2, 2), "f": math.cos}, p), "needs pickle"),
    "missing.npy": (lambda p: None, "no such file"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_file_leaves_the_state_and_says_why_in_one_line(window, monkeypatch, tmp_path, name):
    good = tmp_path / "good.npy"
    np.save(good, seeds_table())
    open_through_action(window, monkeypatch, good)
    window.controller.set_view("heatmap")
    before = window.controller.state
    write, words = BAD[name]
    write(tmp_path / name)
    open_through_action(window, monkeypatch, tmp_path / name)
    assert window.controller.state == before
    message = window.statusBar().currentMessage()
    assert words in message and "\n" not in message
    assert window.views["check"].result.state.source == str(good)


def test_a_file_of_several_arrays_asks_which(window, monkeypatch, tmp_path):
    path = tmp_path / "caches.npz"
    cos = rope_cos_cache()
    np.savez(path, cos=cos, sin=np.sqrt(np.clip(1 - cos ** 2, 0, 1)))
    asked = open_through_action(window, monkeypatch, path, key="cos")
    assert asked == [["cos", "sin"]]
    state = window.controller.state.views["check"]
    assert state.key == "cos" and window.views["check"].result.match
    assert "[cos]" in window.views["check"].source_line.text()


def test_a_scene_restores_the_checked_file(window, monkeypatch, tmp_path, settings):
    path = tmp_path / "pe.npy"
    np.save(path, seeds_table(swap=True))
    open_through_action(window, monkeypatch, path)
    window.controller.update_view("check", kind="pe", base=10000.0)
    assert window.controller.wait_idle()
    scene = load_scene(save_scene(tmp_path / "s.json", current_scene(window)))
    assert scene.state == window.controller.state
    assert scene.state.views["check"].to_dict(only_changed=True) == {
        "source": str(path), "kind": "pe", "base": 10000.0}
    with another_window(settings) as other:
        apply_scene(other, scene)
        assert other.controller.wait_idle()
        assert other.controller.state == window.controller.state
        view = other.views["check"]
        assert list(other.views)[other.tabs.currentIndex()] == "check"
        assert view.kind_box.currentData() == "pe" and view.base_box.value() == 10000.0
        assert view.result.mistakes[0].id == "sin_cos_swapped"


def test_the_own_controls_rediagnose_on_the_worker_and_never_on_the_gui_thread(
        window, monkeypatch, tmp_path):
    threads = []
    real = diagnose_module.diagnose

    def spy(*args, **kwargs):
        threads.append(threading.current_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(diagnose_module, "diagnose", spy)
    path = tmp_path / "cache.npy"
    np.save(path, rope_cos_cache())
    open_through_action(window, monkeypatch, path)
    view = window.views["check"]
    view.pairing_box.setCurrentIndex(view.pairing_box.findData("interleaved"))
    assert window.controller.wait_idle()
    assert [m.id for m in view.result.mistakes] == ["wrong_pairing"]
    token = check_data.remember_array(rope_cos_cache(40))
    window.check_actions.show_source(token)
    assert window.controller.wait_idle()
    assert view.result.match and view.result.shape == (40, 32)
    assert len(threads) == 3 and threading.main_thread() not in threads


def test_without_a_file_the_view_says_how_to_open_one(window):
    window.tabs.setCurrentIndex(list(window.views).index("check"))
    assert window.controller.wait_idle()
    view = window.views["check"]
    assert view.stack.currentWidget() is view.hint
    assert "Check my table" in view.hint.text() and "explorer.show(x)" in view.hint.text()


def test_a_saved_file_that_is_gone_says_so_in_the_view(tmp_path):
    r = check_data.check_view(explorer.params.Params(),
                              check_data.CheckState(source=str(tmp_path / "gone.npy")))
    assert r.kind == "" and "no such file" in r.error


def test_the_diagnosis_speaks_the_state_language():
    token = check_data.remember_array(seeds_table(swap=True))
    try:
        zh = check_data.check_view(explorer.params.Params(),
                                   check_data.CheckState(source=token, lang="zh_CN"))
    finally:
        check_data.forget_array(token)
    assert "sin 与 cos 对调了" in zh.summary


# explorer.show ------------------------------------------------------------------------------

@pytest.fixture
def shown_windows(qtbot, monkeypatch, settings):
    """Windows opened by explorer.show, closed after the test; the user's language not touched."""
    from explorer.ui import api_window, i18n

    monkeypatch.setattr(i18n, "choose_language", lambda *a, **k: "en")
    opened = []
    real = api_window.open_window

    def open_window(store=None):
        window = real(store or settings)
        opened.append(window)
        return window

    monkeypatch.setattr(api_window, "open_window", open_window)
    yield opened
    import shiboken6

    for window in opened:
        if shiboken6.isValid(window):
            window.controller.wait_idle()
            close_and_delete(window)


def test_show_opens_the_check_view_on_an_array_without_blocking(shown_windows):
    pe = explorer.sinusoidal(50, 16)
    window = explorer.show(pe, block=False)
    assert shown_windows == [window] and window.isVisible()
    assert window.controller.wait_idle()
    state = window.controller.state
    assert state.view == "check" and state.views["check"].source.startswith("memory:")
    r = window.views["check"].result
    assert r.match and r.shape == (50, 16)
    np.testing.assert_array_equal(r.table, pe.astype(np.float64))
    assert r.convention["dtype"] == "float32"


def test_show_takes_a_module_and_blocks_in_a_plain_script(shown_windows, monkeypatch):
    from explorer.ui import api_window

    loops = []
    monkeypatch.setattr(api_window, "run_loop", lambda window: loops.append(window) or 0)
    monkeypatch.setitem(sys.modules, "IPython", None)          # not installed: block
    window = explorer.show(PositionalEncoding(D, max_len=L))
    assert loops == [window]
    assert window.controller.wait_idle()
    r = window.views["check"].result
    assert r.match and r.kind == "pe" and r.shape == (L, D)
    assert "PositionalEncoding()" in window.views["check"].source_line.text()


def test_show_returns_at_once_inside_ipython_with_a_qt_event_loop(shown_windows, monkeypatch):
    from explorer.ui import api_window

    loops = []
    monkeypatch.setattr(api_window, "run_loop", lambda window: loops.append(window) or 0)
    shell = types.SimpleNamespace(active_eventloop="qt")
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))
    assert api_window.event_loop_running()
    window = explorer.show(rope_cos_cache())
    assert loops == [] and window.isVisible()
    shell.active_eventloop = None                             # IPython without %gui qt: block
    assert not api_window.event_loop_running()
    explorer.show(rope_cos_cache())
    assert len(loops) == 1


def test_show_refuses_bad_data_before_opening_a_window(shown_windows):
    from explorer.errors import InputError

    with pytest.raises(InputError, match="NaN"):
        explorer.show(np.full((4, 4), math.nan), block=False)
    assert shown_windows == []


def test_a_shown_array_is_not_saved_for_the_next_session(shown_windows, settings):
    window = explorer.show(explorer.sinusoidal(20, 8), block=False)
    assert window.controller.wait_idle()
    window.close()
    import json

    saved = json.loads(settings.value("state"))
    assert "source" not in saved.get("views", {}).get("check", {})


def test_a_long_check_shows_a_busy_dialog_and_cancel_keeps_the_state(window, monkeypatch, tmp_path):
    from PySide6.QtCore import QCoreApplication

    release = threading.Event()
    real = diagnose_module.diagnose

    def slow(*args, **kwargs):
        release.wait(20)
        return real(*args, **kwargs)

    monkeypatch.setattr(diagnose_module, "diagnose", slow)
    path = tmp_path / "pe.npy"
    np.save(path, seeds_table())
    before = window.controller.state
    actions = window.check_actions
    actions.open_file(str(path))
    QCoreApplication.processEvents()
    assert actions.busy and actions.dialog is not None
    assert actions.dialog.minimumDuration() > 0 and actions.dialog.maximum() == 0     # busy, not %
    from PySide6.QtWidgets import QPushButton

    actions.dialog.findChild(QPushButton).click()                     # the dialog's Cancel
    assert not actions.busy and actions.dialog is None
    assert window.statusBar().currentMessage() == "Check cancelled"
    release.set()
    actions.pool.waitForDone(20000)
    QCoreApplication.processEvents()
    assert window.controller.wait_idle()
    assert window.controller.state == before


def test_in_chinese_the_diagnosis_is_chinese(qtbot, qapp, settings, monkeypatch, tmp_path):
    from explorer.ui import i18n
    from explorer.ui.main_window import MainWindow

    path = tmp_path / "swapped.npy"
    np.save(path, seeds_table(swap=True))
    assert i18n.install_translator(qapp, "zh_CN")
    win = MainWindow(settings=settings)
    try:
        win.resize(1280, 800)
        win.show()
        assert win.controller.state.views["check"].lang == "zh_CN"
        open_through_action(win, monkeypatch, path)
        view = win.views["check"]
        assert "sin 与 cos 对调了" in view.summary_line.text() and "错误" in view.summary_line.text()
        assert "修正" in view.fix_line.text()
        assert win.check_actions.action.text().startswith("检查我的表")
    finally:
        i18n.install_translator(qapp, "en")
        win.controller.wait_idle()
        close_and_delete(win)


def test_in_chinese_the_pairing_is_named_as_on_the_rope_page(qtbot, qapp, settings, monkeypatch, tmp_path):
    """The Chinese check view said "half 配对" and "缓存按 half 排列，但要求的是 interleaved" (its combo
    "half：cat(freqs, freqs)") where the RoPE page says 前后半配对 / 交错配对."""
    from explorer.ui import i18n
    from explorer.ui.main_window import MainWindow

    path = tmp_path / "cache.npy"
    np.save(path, rope_cos_cache())
    assert i18n.install_translator(qapp, "zh_CN")
    win = MainWindow(settings=settings)
    try:
        open_through_action(win, monkeypatch, path)
        view = win.views["check"]
        assert "，前后半配对，" in view.summary_line.text(), view.summary_line.text()
        box = view.pairing_box
        assert [box.itemText(i) for i in (1, 2)] == ["前后半配对：cat(freqs, freqs)", "交错配对：repeat_interleave"]
        box.setCurrentIndex(box.findData("interleaved"))
        assert win.controller.wait_idle()
        assert "缓存按前后半配对排列，但要求的是交错配对" in view.summary_line.text(), view.summary_line.text()
    finally:
        i18n.install_translator(qapp, "en")
        win.controller.wait_idle()
        close_and_delete(win)


def test_in_chinese_a_damaged_file_says_why_in_chinese(qtbot, qapp, settings, monkeypatch, tmp_path):
    """A truncated old-format .pt showed torch's 'unexpected EOF, expected … more bytes' in the Chinese window."""
    from explorer.ui import i18n
    from explorer.ui.main_window import MainWindow
    from tests.test_check_damaged_files import CASES

    write, _, chinese = CASES["cut_in_storage.pt"]
    write(tmp_path / "cut.pt")
    assert i18n.install_translator(qapp, "zh_CN")
    win = MainWindow(settings=settings)
    try:
        open_through_action(win, monkeypatch, tmp_path / "cut.pt")
        message = win.statusBar().currentMessage()
        assert message.endswith("读取：" + chinese) and "\n" not in message, message
    finally:
        i18n.install_translator(qapp, "en")
        win.controller.wait_idle()
        close_and_delete(win)


def test_a_shown_window_switches_language_and_keeps_the_array(shown_windows, qapp):
    from explorer.ui import i18n

    pe = seeds_table(swap=True)
    window = explorer.show(pe, block=False)
    assert window.controller.wait_idle()
    try:
        window.language_requested.emit("zh_CN")
        new = shown_windows[-1]
        assert new is not window and new.controller.wait_idle()
        assert new.controller.state.views["check"].lang == "zh_CN"
        r = new.views["check"].result
        assert "sin 与 cos 对调了" in r.summary
        np.testing.assert_array_equal(r.table, pe.astype(np.float64))
    finally:
        i18n.install_translator(qapp, "en")


def test_a_shown_array_is_let_go_when_its_last_window_closes(shown_windows, qapp):
    """forget_array was never called: every explorer.show(x) array stayed in memory for the life of the
    process (the architecture review, stop 53). A language switch's new window still shows it."""
    from explorer.ui import i18n

    window = explorer.show(explorer.sinusoidal(30, 8), block=False)
    token = window.controller.state.views["check"].source
    assert token in check_data._MEMORY and window.controller.wait_idle()
    try:
        window.language_requested.emit("zh_CN")
        new = shown_windows[-1]
        assert new is not window and new.controller.wait_idle()
        assert token in check_data._MEMORY and new.views["check"].result.match
    finally:
        i18n.install_translator(qapp, "en")
    new.close()
    assert token not in check_data._MEMORY
    other = explorer.show(explorer.sinusoidal(20, 8), block=False)
    second = other.controller.state.views["check"].source
    other.close()
    assert second not in check_data._MEMORY


def test_a_shown_array_is_let_go_when_a_file_replaces_it_and_never_saved(shown_windows, tmp_path):
    """Opening a file over explorer.show's array had kept the array for good; closing the window during a lesson
    wrote its memory:N token into the settings. The caller's array stays writeable."""
    import json as json_module

    pe = explorer.sinusoidal(30, 8)
    window = explorer.show(pe, block=False)
    pe[0, 0] = 5.0                                      # the caller's own array: still theirs to change
    token = window.controller.state.views["check"].source
    assert window.controller.wait_idle() and token in check_data._MEMORY
    path = tmp_path / "pe.npy"
    np.save(path, explorer.sinusoidal(16, 8))
    window.check_actions.open_file(str(path), "")
    assert window.check_actions.wait_idle() and window.controller.wait_idle()
    assert window.controller.state.views["check"].source == str(path) and token not in check_data._MEMORY
    other = explorer.show(explorer.sinusoidal(20, 8), block=False)
    second = other.controller.state.views["check"].source
    other.lecture.start_builtin()                       # the lesson keeps the State to give back: the array
    assert other.controller.wait_idle() and second in check_data._MEMORY
    other.close()
    assert second not in check_data._MEMORY
    assert "memory:" not in json_module.dumps(json_module.loads(other.settings.value("state")))


def test_a_file_name_that_looks_like_markup_is_shown_as_its_name(window, tmp_path):
    """A file named "<b>pe&.npy" is shown by its name in the source line (Qt's AutoText had read it as
    rich text: the name vanished, the line turned bold), and a refusal naming "<i>cut.npy" in the
    summary (rich text, for the bold of a diagnosis) shows the name rather than italics."""
    good = tmp_path / "<b>pe&.npy"
    np.save(good, seeds_table())
    window.tabs.setCurrentIndex(list(window.views).index("check"))
    view = window.views["check"]
    window.controller.update_view("check", source=str(good))
    assert window.controller.wait_idle()
    assert view.source_line.textFormat() == view.source_line.textFormat().PlainText
    assert view.source_line.text().startswith("<b>pe&.npy: ")
    cut = tmp_path / "<i>cut.npy"
    cut.write_bytes(good.read_bytes()[:70])
    window.controller.update_view("check", source=str(cut))
    assert window.controller.wait_idle()
    assert view.summary_line.isVisible() and "&lt;i&gt;cut.npy" in view.summary_line.text()
    assert "<i>" not in view.summary_line.text()
