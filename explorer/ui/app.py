"""Start the Qt application: fonts, translations, the main window."""

from __future__ import annotations

import sys


_QUIET = ("This plugin does not support propagateSizeHints",)   # offscreen plugin chatter


def _install_message_filter() -> None:
    """Drop Qt's known-harmless platform notes; pass everything else to stderr as usual."""
    from PySide6.QtCore import qInstallMessageHandler

    def handler(mode, context, message):
        if not message.startswith(_QUIET):
            sys.stderr.write(message + "\n")

    qInstallMessageHandler(handler)


def make_app(argv=None):
    """The QApplication (created once), with fonts and organisation names set."""
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is None and "pytest" not in sys.modules:
        _install_message_filter()     # pytest-qt installs its own handler to catch warnings
    app = QApplication.instance() or QApplication(list(argv or sys.argv[:1]))
    app.setOrganizationName("pe-explorer")
    app.setApplicationName("pe-explorer")
    from explorer.ui.fonts import apply_ui_font, register_fonts

    register_fonts()
    apply_ui_font(app)
    return app


def carry_presentation(old, new) -> None:
    """A window rebuilt for a language switch keeps the old one's scale, contrast and F11, and its
    lesson (at the same scene; the State from before the lesson is still the one to go back to), and
    an open formula panel (it had closed: Ctrl+F again after every switch), floated or docked where the
    user put it (it came back beside the view)."""
    new.lecture.formula_dock.placer.carry_from(old.lecture.formula_dock.placer)
    if old.lecture.formula_dock.isVisible():
        new.lecture.formula_dock.show()      # else beside the view or under it, as the new window needs
    if old.lecture.deck:
        new.lecture.set_deck(old.lecture.deck, old.lecture.index)
        new.lecture.keep_before(old.lecture.state_to_keep())
        if not old.lecture.card.covering:      # a question already revealed stays revealed
            new.lecture.card.reveal()
    was = old.presenter
    if was.high_contrast:
        new.presenter.toggle_contrast()
    if was.in_presentation():
        new.presenter.enter_presentation()
        new.presenter._scale_before = was._scale_before        # F11 then leaves to these
        new.presenter._normal_geometry = was._normal_geometry
        new.presenter.set_scale(was.scale)
    else:
        new.presenter.set_scale(was.scale)


def run_app(lang: str | None = None, model: str | None = None) -> int:
    """Open the main window (with `model` opened, if given) and run the event loop; returns the exit code."""
    app = make_app()
    from explorer.ui.i18n import choose_language, install_translator, save_language

    if lang:
        save_language(lang)
    install_translator(app, lang or choose_language())
    from explorer.ui.main_window import MainWindow

    holder = {}

    def open_window():
        window = MainWindow(freeze_gc=True)
        window.language_requested.connect(switch_language)
        window.show()
        holder["window"] = window
        if model and "opened" not in holder:
            holder["opened"] = True
            window.model_actions.open_spec(model)

    def switch_language(new_lang: str):
        """Save the choice, install its translator, rebuild the window with the same settings."""
        import gc

        from explorer.ui.i18n import install_translator, save_language

        gc.unfreeze()       # the old window's objects may be collected again; the new one freezes anew

        old = holder["window"]
        old.save_settings()
        save_language(new_lang, old.settings)       # the window's store (the user's own), as explorer.show's
        install_translator(app, new_lang)
        open_window()
        carry_presentation(old, holder["window"])
        old.close()
        old.deleteLater()

    open_window()
    quit_on_interrupt(app, lambda: holder["window"])
    code = app.exec()
    # a device probe may still be importing torch: let it finish before the interpreter goes
    from PySide6.QtCore import QThreadPool

    QThreadPool.globalInstance().waitForDone(10_000)
    return code


def quit_on_interrupt(app, window):
    """Ctrl+C in the terminal (or SIGTERM) closes the window as closing it by hand does (settings
    saved, then the program ends). Python runs a signal handler only when it runs bytecode, and
    Qt's event loop runs none while idle: a 200 ms timer lets it (without it Ctrl+C did nothing
    until the next event, and then broke out of whatever Python code that event ran, an event
    filter, as a KeyboardInterrupt)."""
    import signal

    from PySide6.QtCore import QTimer

    signal.signal(signal.SIGINT, lambda *_: window().close())
    signal.signal(signal.SIGTERM, lambda *_: window().close())      # (`kill`: the same)
    timer = QTimer(app)
    timer.timeout.connect(lambda: None)
    timer.start(200)
    return timer
