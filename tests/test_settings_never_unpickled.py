"""A settings file holding a pickled Python object is moved aside unread: QSettings.value() unpickles PySide's
@Variant(PyObjectWrapper) values, so a hand-edited file ran code when the window started (the hostile-input
review of stop 53: os.system through a "tab", "colormap" or "state" value)."""

from __future__ import annotations

import json
import os

import pytest
from PySide6.QtCore import QSettings


class _Evil:
    def __init__(self, mark: str):
        self.mark = mark

    def __reduce__(self):
        return (open, (self.mark, "w"))           # unpickling creates the file


def _evil_settings(tmp_path, key: str) -> tuple[str, str]:
    path, mark = str(tmp_path / "settings.ini"), str(tmp_path / "UNPICKLED")
    store = QSettings(path, QSettings.Format.IniFormat)
    store.setValue("params", json.dumps({"max_len": 64}))
    store.setValue(key, _Evil(mark))
    store.sync()
    del store
    with open(path, "rb") as f:
        assert b"PyObjectWrapper" in f.read()
    return path, mark


@pytest.mark.parametrize("key", ["tab", "colormap", "state", "language"])
def test_a_pickled_value_is_never_read_by_the_window(qapp, tmp_path, key):
    from explorer.ui.main_window import MainWindow
    from tests.conftest import close_and_delete

    path, mark = _evil_settings(tmp_path, key)
    win = MainWindow(settings=QSettings(path, QSettings.Format.IniFormat))
    try:
        assert not os.path.exists(mark)
        assert os.path.exists(path + ".unsafe") and "moved to" in win.statusBar().currentMessage()
        assert win.controller.state.params.max_len == 256          # the defaults, not the file's 64
    finally:
        close_and_delete(win)
    assert not os.path.exists(mark)


def test_the_window_says_so_when_the_language_read_moved_the_file_first(qapp, tmp_path, monkeypatch):
    """`pe-explorer` reads the language before it opens the window, from the same store: that read moves the
    file aside, and the window still says where it went (it had found a clean file and said nothing)."""
    from explorer.ui import settings_store
    from explorer.ui.i18n import choose_language
    from explorer.ui.main_window import MainWindow
    from tests.conftest import close_and_delete

    path, mark = _evil_settings(tmp_path, "state")
    monkeypatch.setattr(settings_store, "user_settings", lambda: QSettings(path, QSettings.Format.IniFormat))
    monkeypatch.setattr(settings_store, "old_language_settings",
                        lambda: QSettings(str(tmp_path / "none.ini"), QSettings.Format.IniFormat))
    assert choose_language() in ("en", "zh_CN") and os.path.exists(path + ".unsafe")     # as run_app does
    win = MainWindow()
    try:
        assert "moved to" in win.statusBar().currentMessage() and not os.path.exists(mark)
    finally:
        close_and_delete(win)
    again = MainWindow()                                  # said once: the next window has nothing to say
    try:
        assert "moved to" not in again.statusBar().currentMessage()
    finally:
        close_and_delete(again)


def test_the_language_is_read_only_from_a_clean_file(qapp, tmp_path):
    from explorer.ui.i18n import choose_language, save_language

    path, mark = _evil_settings(tmp_path, "junk")
    store = QSettings(path, QSettings.Format.IniFormat)
    assert choose_language(store) in ("en", "zh_CN") and not os.path.exists(mark)
    assert os.path.exists(path + ".unsafe")
    clean = QSettings(str(tmp_path / "clean.ini"), QSettings.Format.IniFormat)
    save_language("zh_CN", clean)
    assert choose_language(clean) == "zh_CN" and not os.path.exists(str(tmp_path / "clean.ini.unsafe"))


def test_the_old_language_store_is_read_only_when_clean(qapp, tmp_path, monkeypatch):
    """The language older versions kept in a store of its own is taken over once: that file is guarded
    as the user's store is (moved aside unread, kept)."""
    from explorer.ui import settings_store
    from explorer.ui.i18n import SETTINGS_KEY, choose_language

    path, mark = _evil_settings(tmp_path, "junk")
    main = str(tmp_path / "main.ini")
    monkeypatch.setattr(settings_store, "user_settings", lambda: QSettings(main, QSettings.Format.IniFormat))
    monkeypatch.setattr(settings_store, "old_language_settings", lambda: QSettings(path, QSettings.Format.IniFormat))
    assert choose_language() in ("en", "zh_CN") and not os.path.exists(mark)
    assert os.path.exists(path + ".unsafe") and not os.path.exists(path)
    assert not QSettings(main, QSettings.Format.IniFormat).contains(SETTINGS_KEY)
