"""Predict, then reveal: a card over the tab area hides the plot until a key or a click reveals it."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout

from explorer.ui.i18n import current_language


class QuestionCard(QFrame):
    """Covers the pages of a QTabWidget (the tab bar stays visible); click or R / Enter reveals."""

    revealed = Signal()

    def __init__(self, tabs):
        super().__init__(tabs)
        self.tabs = tabs
        self.scene = None
        self.setObjectName("questionCard")
        self.setAutoFillBackground(True)
        self.setStyleSheet("#questionCard { background: #fdf6e3; border: 3px solid #b58900; }"
                           "#questionCard QLabel { color: #073642; background: transparent; }")
        self.heading = QLabel()
        self.question = QLabel()
        self.hint = QLabel()
        for label in (self.heading, self.question, self.hint):
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            label.setWordWrap(True)
        self.heading.setObjectName("questionHeading")
        self.question.setObjectName("questionText")
        box = QVBoxLayout(self)
        box.setContentsMargins(40, 30, 40, 30)
        box.addStretch(2)
        box.addWidget(self.heading)
        box.addSpacing(12)
        box.addWidget(self.question)
        box.addStretch(3)
        box.addWidget(self.hint)
        tabs.installEventFilter(self)
        self.hide()
        self.retranslate_ui()

    # showing ------------------------------------------------------------------------------------
    def cover(self, scene=None) -> None:
        """Hide the current plot behind the card; `scene` gives the question (else a generic one)."""
        self.scene = scene
        self.retranslate_ui()
        self._place()
        self.show()
        self.raise_()

    def reveal(self) -> None:
        if self.isVisible():
            self.hide()
            self.revealed.emit()

    @property
    def covering(self) -> bool:
        return self.isVisible()

    def retranslate_ui(self) -> None:
        self.heading.setText(self.tr("Predict first"))
        text = self.scene.text("question", current_language()) if self.scene is not None else ""
        generic = self.tr("What will this plot show? Say it out loud, then reveal.")
        self.question.setText(text or generic)
        self.hint.setText(self.tr("Press R or Enter, or click, to reveal"))
        self._fonts()

    def _fonts(self) -> None:
        base = self.tabs.font()      # the card's own style sheet stops font propagation to it
        for label, factor, bold in ((self.heading, 1.3, True), (self.question, 1.8, True),
                                    (self.hint, 1.0, False)):
            font = QFont(base)
            font.setPointSizeF(max(6.0, base.pointSizeF()) * factor)
            font.setBold(bold)
            label.setFont(font)

    def _place(self) -> None:
        """Cover the tab widget below its tab bar. (From the tab widget's own size: when it is
        resized its page still has the old size, and a shorter caption left a strip of the plot
        showing under the card.)"""
        bar = self.tabs.tabBar()
        top = bar.geometry().bottom() + 1 if bar.isVisible() else 0
        self.setGeometry(0, top, self.tabs.width(), max(0, self.tabs.height() - top))

    # events -------------------------------------------------------------------------------------
    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if obj is self.tabs:
            if event.type() in (QEvent.Type.Resize, QEvent.Type.LayoutRequest) and self.isVisible():
                self._place()
            elif event.type() == QEvent.Type.FontChange:
                self._fonts()
        return False

    def mousePressEvent(self, event) -> None:
        self.reveal()
        event.accept()

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        super().changeEvent(event)
