"""The UI language lives in the window's own settings store, beside the State: explorer.show's Settings →
Language wrote it there while `pe-explorer` (run_app) read and wrote a second store ("PE Explorer"), so a
language picked in one was not the language the other started in. A language an older version kept in
that second store is taken over once; its file is left as it was."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale, QSettings

from explorer.ui import i18n

ENGLISH_SYSTEM = QLocale("en_US")


def _ini(path: Path) -> QSettings:
    return QSettings(str(path), QSettings.Format.IniFormat)


def _write(path: Path, text: str) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path.read_bytes()


@pytest.fixture
def stores(tmp_path, monkeypatch):
    """The user's store and the old language-only store, as ini files in tmp_path (never ~/.config)."""
    from explorer.ui import settings_store

    main, old = tmp_path / "main.ini", tmp_path / "old" / "pe-explorer.ini"
    monkeypatch.setattr(settings_store, "user_settings", lambda: _ini(main))
    monkeypatch.setattr(settings_store, "old_language_settings", lambda: _ini(old))
    return main, old


@pytest.fixture
def config_home(tmp_path):
    """Qt's own user settings folder pointed at tmp_path for this test: QSettings(org, app) as the app
    makes them, without touching the user's files."""
    if not sys.platform.startswith("linux"):
        pytest.skip("QSettings.setPath moves ini files; Windows and macOS keep native settings elsewhere")
    real = Path(QSettings("pe-explorer-probe", "probe").fileName()).parents[1]
    QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(tmp_path))
    yield tmp_path
    QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(real))


def test_both_ways_of_saving_the_language_meet_in_one_file(qapp, config_home):
    from explorer.ui.main_window import MainWindow
    from tests.conftest import close_and_delete

    window = MainWindow()                              # the app's window, on the user's own store
    try:
        assert Path(window.settings.fileName()) == config_home / "pe-explorer" / "pe-explorer.conf"
        i18n.save_language("zh_CN", window.settings)   # Settings → Language in explorer.show's window
        assert i18n.choose_language(locale=ENGLISH_SYSTEM) == "zh_CN"     # what `pe-explorer` starts in
        i18n.save_language("en")                       # `pe-explorer --lang en`
        assert QSettings("pe-explorer", "pe-explorer").value(i18n.SETTINGS_KEY) == "en"
        assert window.settings.value(i18n.SETTINGS_KEY) == "en"
        assert not (config_home / "PE Explorer").exists()            # the old store is not written
    finally:
        close_and_delete(window)


def test_a_language_in_the_old_store_is_taken_over_once_and_the_old_file_kept(qapp, config_home):
    main, old = config_home / "pe-explorer" / "pe-explorer.conf", config_home / "PE Explorer" / "pe-explorer.conf"
    before = _write(old, "[ui]\nlanguage=zh_CN\n")
    assert i18n.choose_language(locale=ENGLISH_SYSTEM) == "zh_CN"
    assert _ini(main).value(i18n.SETTINGS_KEY) == "zh_CN"           # now in the user's store
    i18n.save_language("en")
    assert i18n.choose_language(locale=ENGLISH_SYSTEM) == "en"       # the old value does not come back
    assert old.read_bytes() == before                                # never written, never deleted


def test_the_old_store_does_not_override_a_language_already_saved(qapp, stores):
    main, old = stores
    before = _write(old, "[ui]\nlanguage=zh_CN\n")
    _write(main, "[ui]\nlanguage=en\n")
    assert i18n.choose_language(locale=ENGLISH_SYSTEM) == "en"
    assert i18n.saved_language() == "en" and old.read_bytes() == before


def test_no_old_store_leaves_the_system_locale_to_choose(qapp, stores):
    main, old = stores
    assert i18n.choose_language(locale=QLocale("zh_CN")) == "zh_CN"
    assert i18n.saved_language() is None and not old.exists()
    assert not _ini(main).contains(i18n.SETTINGS_KEY)


def test_a_store_passed_in_is_the_only_one_read(qapp, stores, settings):
    """Tests and explorer.show(settings=...) pass their own store: the old one is not consulted for it."""
    main, old = stores
    _write(old, "[ui]\nlanguage=zh_CN\n")
    assert i18n.choose_language(settings, ENGLISH_SYSTEM) == "en"
    assert not settings.contains(i18n.SETTINGS_KEY) and not main.exists()


def test_reset_forgets_the_state_but_keeps_the_language(window, settings):
    """Settings → Reset settings returns the parameters to their defaults; the window stays in its
    language and so does the next start (before, the language was not in this store at all)."""
    i18n.save_language("zh_CN", settings)
    window.controller.update(d_model=48)
    window.save_settings()
    window.reset()
    window.controller.wait_idle()
    assert settings.value(i18n.SETTINGS_KEY) == "zh_CN" and settings.value("state") is None
    assert i18n.choose_language(settings, ENGLISH_SYSTEM) == "zh_CN"
    assert window.controller.params.d_model != 48
