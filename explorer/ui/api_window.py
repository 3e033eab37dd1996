"""explorer.show(x): the window opened on a user's array, tensor or PositionalEncoding module, in the
check view. Blocks in a plain script (runs the Qt event loop until the window closes); returns the
window at once inside IPython / Jupyter when a Qt event loop is integrated (`%gui qt`), the way
napari.view_image and pyqtgraph.image behave."""

from __future__ import annotations

_OPEN: list = []            # windows shown without blocking: kept alive until they close


def event_loop_running() -> bool:
    """True inside IPython with a Qt event loop integrated (`%gui qt`, `%gui qt6`); False in a plain
    script, and when IPython is not installed."""
    try:
        import IPython
    except ImportError:
        return False
    shell = IPython.get_ipython()
    loop = getattr(shell, "active_eventloop", None) if shell is not None else None
    return bool(loop) and str(loop).startswith("qt")


def show(x, *, kind: str | None = None, base: float | None = None, pairing: str | None = None,
         d_model: int | None = None, max_len: int | None = None, block: bool | None = None,
         key: str | None = None):
    """Open the window on x in the check view and return it. x as explorer.check takes it (numpy
    array, torch tensor, file path, nn.Module); kind / base / pairing: what it should be; key: the
    array of a file that holds several (None: the window asks). block None: block in a plain script,
    return at once inside IPython with a Qt event loop; True / False force it."""
    import os

    from explorer.api import _is_module, file_and_key, module_table
    from explorer.backend.diagnose.loading import checked_file
    from explorer.compute.check import CheckState, remember_array
    from explorer.errors import require

    require(kind in (None, "pe", "rope_cache", "inv_freq"),
            f"kind must be one of pe, rope_cache, inv_freq, not {kind!r}")
    require(pairing in (None, "half", "interleaved"),
            f"pairing must be one of half, interleaved, not {pairing!r}")
    token, file = None, file_and_key(x, key)
    if file is not None:      # the window reads it, on its worker with Cancel, as File → Check my table
        x, key = file
        CheckState(source=x, key=key or "")      # checked here: a bad path, or a file that is not there,
        checked_file(x)                          # raises before any window (its contents: the window's worker)
    elif _is_module(x):
        token = remember_array(module_table(x, d_model, max_len), f"{type(x).__name__}()")
        kind = kind or "pe"
    else:
        token = remember_array(x, "explorer.show(x)")   # validated here: a bad array raises before any window
    window = open_window()
    if token is None:
        window.check_actions.show_file(x, key, kind or "", base, pairing or "")
    else:
        window.check_actions.show_source(token, kind or "", base, pairing or "")
    window.show()
    _bring_to_front(window)
    if block is None:
        block = not event_loop_running()
    if block:
        run_loop(window)
    else:
        _OPEN.append(window)
        window.destroyed.connect(lambda *_: _OPEN.remove(window) if window in _OPEN else None)
    return window


def open_window(settings=None):
    """A new main window in the application (created once, with the user's language); settings: a
    QSettings store (default: the user's)."""
    from explorer.ui.app import make_app
    from explorer.ui.i18n import choose_language, current_language, install_translator

    app = make_app()
    if not getattr(app, "_pe_translator_set", False):
        if current_language() == "en":
            install_translator(app, choose_language())
        app._pe_translator_set = True
    from explorer.ui.main_window import MainWindow

    window = MainWindow(settings=settings)
    window.setAttribute(_delete_on_close(), True)
    window.language_requested.connect(lambda lang: switch_language(window, lang))
    return window


def switch_language(old, lang: str):
    """Settings → Language in a window of explorer.show: rebuilt in `lang` with the same State (the
    array stays in memory), as the program's own window does."""
    from PySide6.QtWidgets import QApplication

    from explorer.ui.app import carry_presentation
    from explorer.ui.i18n import install_translator, save_language

    old.save_settings()
    save_language(lang, old.settings)
    install_translator(QApplication.instance(), lang)
    new = open_window(old.settings)
    new.controller.set_state(old.controller.state)
    new.show()
    carry_presentation(old, new)
    if old in _OPEN:
        _OPEN.append(new)
    old.close()
    return new


def _bring_to_front(window) -> None:
    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.platformName() not in ("offscreen", "minimal"):   # they cannot raise
        window.raise_()
        window.activateWindow()


def _delete_on_close():
    from PySide6.QtCore import Qt

    return Qt.WidgetAttribute.WA_DeleteOnClose


def run_loop(window) -> int:
    """Run the application's event loop until the last window closes (a plain script)."""
    from PySide6.QtWidgets import QApplication

    return QApplication.instance().exec()
