"""The caption bar of a lesson: the scene's title and explanation in the UI language, "scene 3 / 12",
previous / next buttons. Shows; does not step (Lecture owns the deck)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from explorer.ui.i18n import current_language
from explorer.translations import fill


class CaptionBar(QWidget):
    """Title, explanation and position of the current scene."""

    step_requested = Signal(int)      # -1 previous, +1 next

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("captionBar")
        self.scene = None
        self.index, self.count = 0, 0
        self.answer_hidden = False     # a question card is up: the explanation (its answer) waits
        self.title = QLabel()
        self.title.setObjectName("captionTitle")
        self.title.setWordWrap(True)
        self.text = QLabel()
        self.text.setObjectName("captionText")
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.position = QLabel()
        self.position.setObjectName("captionPosition")
        self.prev_button = QPushButton("◀")
        self.next_button = QPushButton("▶")
        for button, step in ((self.prev_button, -1), (self.next_button, +1)):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)   # Space must step, not click a button
            button.clicked.connect(lambda _=False, s=step: self.step_requested.emit(s))
        self.words = words = QVBoxLayout()
        words.setContentsMargins(0, 0, 0, 0)
        words.setSpacing(2)
        words.addWidget(self.title)
        words.addWidget(self.text)
        words.addStretch(1)            # a held-back explanation's placeholder sits under the title
        self.side = side = QVBoxLayout()
        side.setContentsMargins(0, 0, 0, 0)
        side.addWidget(self.position, 0, Qt.AlignmentFlag.AlignCenter)
        buttons = QHBoxLayout()
        buttons.addWidget(self.prev_button)
        buttons.addWidget(self.next_button)
        side.addLayout(buttons)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 8, 4)
        row.addLayout(words, 1)
        row.addLayout(side)
        self._title_font()
        self.retranslate_ui()

    def show_scene(self, scene, index: int, count: int, answer_hidden: bool = False) -> None:
        """Show scene `index` (0-based) of `count`; answer_hidden: its question card is up, so the
        explanation, which answers it, is held back until the reveal."""
        self.scene, self.index, self.count = scene, index, count
        self.answer_hidden = answer_hidden
        self.retranslate_ui()

    def show_answer(self) -> None:
        """The card was revealed: the explanation shows (the bar keeps its height)."""
        if self.answer_hidden:
            self.answer_hidden = False
            self.retranslate_ui()

    def retranslate_ui(self) -> None:
        self.prev_button.setToolTip(self.tr("Previous scene (PageUp)"))
        self.next_button.setToolTip(self.tr("Next scene (PageDown, Space)"))
        if self.scene is None:
            self.title.setText(self.tr("No lesson loaded"))
            self.text.setText(self.tr("Lesson ▸ Start built-in lesson, or File ▸ Open scene or deck."))
            self.position.setText("")
            self.prev_button.setEnabled(False)
            self.next_button.setEnabled(False)
            return
        lang = current_language()
        self.title.setText(self.scene.text("title", lang))
        self.text.setText(self.scene.text("explain", lang))
        self.position.setText(fill(self.tr("scene %1 / %2"), str(self.index + 1), str(self.count)))
        self.prev_button.setEnabled(self.index > 0)
        self.next_button.setEnabled(self.index < self.count - 1)
        self._fit_height()
        self._hold_answer()

    def _hold_answer(self) -> None:
        """While the question card is up, a line saying the explanation comes with the reveal in
        place of it (the bar sized for the explanation: nothing moves on the reveal)."""
        if self.answer_hidden and self.scene is not None:
            self.text.setText(self.tr("(The explanation follows the reveal: R or Enter.)"))

    def _fit_height(self) -> None:
        """As tall as the wrapped text needs at the bar's width. A word-wrapped label's size hint
        guesses a width: a short explanation asked for 207 px where it needed 42, and the dock kept
        it (1280 x 800 in F11: the plots lost a quarter of their height)."""
        layout = self.layout()
        if layout is None or self.width() <= 0:
            return
        if self.answer_hidden and self.scene is not None:        # measured with the explanation
            self.text.setText(self.scene.text("explain", current_language()))
        for part in (self.words, self.side, layout):    # their cached heights are of the old text
            part.invalidate()
        need = layout.heightForWidth(self.width()) if layout.hasHeightForWidth() else -1
        need = max(need, layout.minimumSize().height())
        if self.answer_hidden and self.scene is not None:        # and the placeholder, if taller
            self._hold_answer()
            for part in (self.words, self.side, layout):
                part.invalidate()
            need = max(need, layout.heightForWidth(self.width()) if layout.hasHeightForWidth() else -1)
        if need != self.minimumHeight() or need != self.maximumHeight():
            self.setFixedHeight(need)
        self._hold_answer()

    def _title_font(self) -> None:
        """The title a quarter larger than the bar's font, bold (follows presentation scale)."""
        font = self.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        self.title.setFont(font)

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        elif event.type() == QEvent.Type.FontChange:
            self._title_font()
            self._fit_height()
        super().changeEvent(event)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._fit_height()          # another width wraps the text onto another number of lines
