"""Headless Qt for every test; an isolated QSettings store per test."""

import os
from contextlib import contextmanager

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402


_UI_FONT = []


@pytest.fixture(autouse=True)
def app_font(request):
    """Tests with Qt see the application's own font, as make_app sets it (the system sans, the bundled
    CJK font as fallback), so views are measured as users see them: with Qt's bare default, Learned's
    rows in F11 at 1280 x 800 looked taller than they were."""
    if not _UI_FONT and {"qapp", "qtbot"} & set(request.fixturenames):
        from explorer.ui.fonts import apply_ui_font

        _UI_FONT.append(apply_ui_font(request.getfixturevalue("qapp")))
    yield


@pytest.fixture
def settings(tmp_path):
    """A QSettings file in a temp dir, so tests never touch the user's settings."""
    from PySide6.QtCore import QSettings

    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def window(qtbot, settings):
    """The real main window, shown offscreen, with its first results drawn."""
    from explorer.ui.main_window import MainWindow

    win = MainWindow(settings=settings)
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    win.controller.wait_idle()
    yield win
    win.controller.wait_idle()
    close_and_delete(win)


@contextmanager
def another_window(settings):
    """Another real main window on the same settings (where a scene or saved state is brought back),
    shown offscreen, closed and deleted when the block ends."""
    from explorer.ui.main_window import MainWindow

    win = MainWindow(settings=settings)
    win.resize(1200, 800)
    win.show()
    try:
        yield win
    finally:
        close_and_delete(win)


@contextmanager
def window_in(lang, settings, size=(1280, 800)):
    """A real main window built in `lang` at `size`, shown offscreen; when the block ends (passed
    or failed) it goes back to 1x, is closed and deleted, and English is installed again."""
    from PySide6.QtWidgets import QApplication

    from explorer.ui.i18n import install_translator
    from explorer.ui.main_window import MainWindow

    install_translator(QApplication.instance(), lang)
    try:
        win = MainWindow(settings=settings)
        win.resize(*size)
        win.show()
        try:
            yield win
        finally:
            win.presenter.set_scale(1.0)         # the application font, for the tests after this one
            win.controller.wait_idle()
            close_and_delete(win)
    finally:
        install_translator(QApplication.instance(), "en")


def close_and_delete(win):
    """Close a window and really delete it now, so no timer or filter of it outlives the test."""
    from PySide6.QtCore import QCoreApplication, QEvent

    win.close()
    win.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
