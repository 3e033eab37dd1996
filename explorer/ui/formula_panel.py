"""A dock with the current view's formula (numbers substituted) and the PyTorch code that computes it."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QTimer
from PySide6.QtGui import QFont, QGuiApplication
from PySide6.QtWidgets import (
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from explorer.compute import formulas
from explorer.errors import InputError, error_text
from explorer.ui.fonts import with_cjk_fallback
from explorer.ui.formula_place import FormulaPlacer
from explorer.ui.i18n import current_language
from explorer.ui.views.labels import keep_together


def texts_for(name: str, state, lang: str, channel: int) -> tuple[str, str]:
    """(formula HTML, PyTorch code) of view `name` in `state` (runs on the worker thread)."""
    view_state = state.views[name]
    try:
        return (formulas.formula_html(name, state.params, state.cursor, lang, channel, view_state),
                formulas.code_for(name, state.params, view_state))
    except InputError as exc:
        return f"<p>{error_text(exc, lang)}</p>", f"# {exc}\n"


class FormulaPanel(QDockWidget):
    """Shows formulas.formula_html / formulas.code_for for the window's current view."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.setObjectName("formulaDock")
        self.channel = 8                      # the heatmap channel last pointed at
        self.formula = QTextBrowser()
        self.formula.setObjectName("formulaText")
        self.formula.setOpenLinks(False)
        self.code = QPlainTextEdit()
        self.code.setObjectName("codeText")
        self.code.setReadOnly(True)
        self.code.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.copy_button = QPushButton()
        self.copy_button.clicked.connect(self.copy_code)
        self.note = QLabel()
        self.note.setWordWrap(True)
        code_page = QWidget()
        box = QVBoxLayout(code_page)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.code, 1)
        row = QHBoxLayout()
        row.addWidget(self.note, 1)
        row.addWidget(self.copy_button)
        box.addLayout(row)
        self.pages = QTabWidget()
        self.pages.addTab(self.formula, "")
        self.pages.addTab(code_page, "")
        self.setWidget(self.pages)
        self._timer = QTimer(self, singleShot=True, interval=60)
        self._timer.timeout.connect(self.refresh)
        self.visibilityChanged.connect(lambda shown: shown and self.schedule())
        c = window.controller
        c.params_changed.connect(self.schedule)
        c.results_shown.connect(self.schedule)
        window.tabs.currentChanged.connect(self.schedule)
        for name, view in window.views.items():      # the views made so far, and later ones
            self._on_view_built(name, view)
        window.view_built.connect(self._on_view_built)
        self._fonts()
        self.retranslate_ui()
        self.placer = FormulaPlacer(window, self)    # beside the view, or under it where the tabs need the width

    def _fonts(self) -> None:
        """Monospace code and a larger formula, both following the window's (presentation) size."""
        size = self.font().pointSizeF() if self.font().pointSizeF() > 0 else 10.0
        mono = QFont()
        mono.setFamilies(["DejaVu Sans Mono", "Menlo", "Consolas", "Courier New", "monospace"])
        mono.setStyleHint(QFont.StyleHint.TypeWriter)
        mono.setFixedPitch(True)
        mono.setPointSizeF(size)
        self.code.setFont(with_cjk_fallback(mono))
        big = QFont(self.font())
        big.setPointSizeF(size * 1.3)
        self.formula.setFont(with_cjk_fallback(big))

    def _on_view_built(self, name: str, view) -> None:
        view.cursor_moved.connect(self.schedule)
        if name == "heatmap":
            view.hovered.connect(self._on_heatmap_hovered)

    def _on_heatmap_hovered(self, _pos: int, channel: int) -> None:
        self.channel = channel
        self.schedule()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.schedule()            # texts are only kept current while visible: fill them now

    def schedule(self, *_) -> None:
        if self.isVisible():
            self._timer.start()

    def current_view(self) -> str:
        return list(self.window.views)[self.window.tabs.currentIndex()]

    def refresh(self) -> None:
        """Ask the worker for both texts for the current view, State, cursor and language."""
        name = self.current_view()
        c = self.window.controller
        state, lang, channel = c.state, current_language(), self.channel
        c.run_aside(lambda: texts_for(name, state, lang, channel), self._show_texts)

    def _show_texts(self, texts) -> None:
        html, code = texts
        self.formula.setHtml(keep_together(html))       # "|PE(0)|", "j − i": not broken across lines
        if code != self.code.toPlainText():
            self.code.setPlainText(code)

    def copy_code(self) -> None:
        QGuiApplication.clipboard().setText(self.code.toPlainText())
        self.window.statusBar().showMessage(self.tr("Code copied to the clipboard"), 3000)

    def retranslate_ui(self) -> None:
        self.setWindowTitle(self.tr("Formula and code"))
        self.pages.setTabText(0, self.tr("Formula"))
        self.pages.setTabText(1, self.tr("PyTorch code"))
        self.copy_button.setText(self.tr("Copy code"))
        self.note.setText(self.tr("Runs as is; `result` holds what the view shows."))
        self.schedule()

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        elif event.type() == QEvent.Type.FontChange:
            self._fonts()
        super().changeEvent(event)
