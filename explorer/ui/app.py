"""Start the Qt application: fonts, translations, the main window."""

from __future__ import annotations

import sys


def make_app(argv=None):
    """The QApplication (created once), with fonts and organisation names set."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(list(argv or sys.argv[:1]))
    app.setOrganizationName("pe-explorer")
    app.setApplicationName("pe-explorer")
    try:
        from explorer.ui.fonts import apply_ui_font, register_fonts

        register_fonts()
        apply_ui_font(app)
    except ImportError:
        pass
    return app


def run_app(lang: str | None = None) -> int:
    """Open the main window and run the event loop; returns the exit code."""
    app = make_app()
    try:
        from explorer.ui.i18n import install_translator, choose_language

        install_translator(app, lang or choose_language())
    except ImportError:
        pass
    from explorer.ui.main_window import MainWindow

    window = MainWindow()
    window.show()
    return app.exec()
