"""File menu: scene round trip through the dialogs; a bad file changes nothing and says why."""

import numpy as np
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox


def test_save_and_open_scene_round_trip(window, tmp_path, monkeypatch):
    path = str(tmp_path / "s.json")
    window.controller.update(d_model=40, base=321.0)
    window.tabs.setCurrentIndex(2)
    window.controller.set_cursor(7)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (path, ""))
    window.file_actions.save_scene()
    window.controller.update(d_model=12, base=10000.0)
    window.tabs.setCurrentIndex(0)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (path, ""))
    window.file_actions.open_scene()
    window.controller.wait_idle()
    p = window.controller.params
    assert (p.d_model, p.base) == (40, 321.0)
    assert window.tabs.currentIndex() == 2 and window.controller.cursor == 7


def _open_through_the_menu(window, monkeypatch, path) -> list[str]:
    """File > Open scene on `path` (the dialog answered), as the menu runs it; the message boxes' texts
    (the list goes on collecting for later actions)."""
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: shown.append(text))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.file_actions._guard(window.file_actions.open_scene)
    return shown


def test_bad_scene_file_changes_nothing(window, tmp_path, monkeypatch):
    path = tmp_path / "bad.json"
    path.write_text('{"version": 1, "params": {"d_model": -5}, "view": "heatmap", "cursor": null, '
                    '"title": {"en": "t", "zh_CN": "t"}, "explain": {"en": "e", "zh_CN": "e"}}')
    before = window.controller.params
    shown = _open_through_the_menu(window, monkeypatch, path)
    assert window.controller.params == before
    assert shown and "d_model" in shown[0]


def test_export_image_and_data(window, tmp_path, monkeypatch):
    png, csv = str(tmp_path / "v.png"), str(tmp_path / "v.npy")
    monkeypatch.setattr(QInputDialog, "getInt", lambda *a, **k: (96, True))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (png, ""))
    window.file_actions.export_image()
    with open(png, "rb") as fh:
        assert fh.read(8) == b"\x89PNG\r\n\x1a\n"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (csv, ""))
    window.file_actions.export_data()
    np.testing.assert_allclose(np.load(csv), window.views["heatmap"].result.image)


def test_full_size_export_with_progress_and_cancel(window, tmp_path, monkeypatch):
    from explorer.backend import full_export
    from explorer.backend.encodings import sinusoidal_pe

    monkeypatch.setattr(full_export, "BLOCK_ELEMENTS", 512)
    path = str(tmp_path / "pe.npy")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (path, ""))
    window.controller.update(max_len=300, d_model=16)
    window.file_actions.export_full("pe")
    np.testing.assert_allclose(np.load(path), sinusoidal_pe(300, 16), atol=1e-7)
    from PySide6.QtWidgets import QProgressDialog
    monkeypatch.setattr(QProgressDialog, "wasCanceled", lambda self: True)
    other = str(tmp_path / "other.npy")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (other, ""))
    window.file_actions.export_full("similarity")
    assert not (tmp_path / "other.npy").exists()
    assert "cancelled" in window.statusBar().currentMessage()


def test_a_scene_whose_yarn_mscale_zeroes_the_factor_is_one_line_and_other_bugs_too(window, tmp_path,
                                                                                    monkeypatch):
    """This scene raised ZeroDivisionError on the GUI thread (found by a helper's fuzz); now the
    backend's refusal. Any other exception from a File action is named in one line, not a traceback."""
    path = tmp_path / "mscale.json"
    path.write_text('{"version": 2, "view": "rope", "views": {"rope": {"rope_type": "yarn", "factor": 4.0, '
                    '"original_max_len": 256, "mscale": 1.0, "mscale_all_dim": -7.213475204444817}}}')
    before = window.controller.state
    shown = _open_through_the_menu(window, monkeypatch, path)
    assert window.controller.state == before
    assert len(shown) == 1 and "mscale_all_dim x ln(factor) + 1 must be > 0" in shown[0] and "\n" not in shown[0]

    def broken():
        raise RuntimeError("boom")

    window.file_actions._guard(broken)
    assert shown[1] == "internal error: RuntimeError: boom"


def test_full_size_export_dialog_is_titled_and_message_boxes_name_the_app_as_the_window_does(settings, tmp_path,
                                                                                            monkeypatch):
    """The export's progress dialog had no title, and the Chinese message box was titled 位置编码探索器
    where the window title and every message say PE Explorer."""
    from PySide6.QtWidgets import QProgressDialog

    from explorer.backend import full_export
    from tests.conftest import window_in

    for lang, title in (("en", "Export full-size table"), ("zh_CN", "导出完整表格")):
        with window_in(lang, settings) as win:
            seen = []

            def export(kind, params, path, progress, cancelled):
                seen.extend(d.windowTitle() for d in win.findChildren(QProgressDialog))
                return 1, 1

            monkeypatch.setattr(full_export, "export_full", export)
            monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "x.npy"), ""))
            win.file_actions.export_full("pe")
            assert seen == [title]
            boxes = []
            monkeypatch.setattr(QMessageBox, "warning", lambda parent, t, text: boxes.append(t))
            bad = tmp_path / "bad.json"
            bad.write_text("{")
            monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), ""))
            win.file_actions._guard(win.file_actions.open_scene)
            assert boxes == ["PE Explorer"] and win.windowTitle().startswith("PE Explorer")
