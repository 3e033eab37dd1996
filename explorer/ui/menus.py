"""The main window's View and Settings menus (translated in the MainWindow context)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QKeySequence

# Ctrl+1 ... Ctrl+9, then Ctrl+0 for the tenth view; Ctrl+Tab reaches every view
TAB_KEYS = tuple(f"Ctrl+{i}" for i in range(1, 10)) + ("Ctrl+0",)


def build_view_and_settings_menus(window) -> None:
    """View: the controls dock, every view (Ctrl+1 ...), next / previous; Settings: reset, language."""
    view_menu = window.menuBar().addMenu(QCoreApplication.translate("MainWindow", "&View"))
    view_menu.addAction(window.dock.toggleViewAction())
    for i, name in enumerate(window.views):
        act = QAction(window.tab_names[name], window)
        if i < len(TAB_KEYS):
            act.setShortcut(QKeySequence(TAB_KEYS[i]))
        act.triggered.connect(lambda _=False, i=i: window.tabs.setCurrentIndex(i))
        view_menu.addAction(act)
    view_menu.addSeparator()
    for text, keys, step in ((QCoreApplication.translate("MainWindow", "Next view"), "Ctrl+Tab", +1),
                             (QCoreApplication.translate("MainWindow", "Previous view"), "Ctrl+Shift+Tab", -1)):
        act = QAction(text, window)
        act.setShortcuts([QKeySequence(keys), QKeySequence("Ctrl+PgDown" if step > 0 else "Ctrl+PgUp")])
        act.triggered.connect(lambda _=False, step=step: window.step_tab(step))
        view_menu.addAction(act)
    window.reset_action = QAction(QCoreApplication.translate("MainWindow", "&Reset settings"), window)
    window.reset_action.triggered.connect(window.reset)
    settings_menu = window.menuBar().addMenu(QCoreApplication.translate("MainWindow", "&Settings"))
    settings_menu.addAction(window.reset_action)
    language_menu = settings_menu.addMenu(QCoreApplication.translate("MainWindow", "&Language"))
    from explorer.ui import i18n

    for lang in i18n.available_languages():
        act = QAction(i18n.language_name(lang), window)
        act.triggered.connect(lambda _=False, lang=lang: window.language_requested.emit(lang))
        language_menu.addAction(act)
