"""The labels of a view: a steady one-line or wrapped label, the readout under a view, its caption."""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, QRect, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

SHORT_WINDOW = 640     # px: a window less high keeps a long readout at the view's text size (Readout)


class SteadyLabel(QWidget):
    """A QLabel in a box without a layout, for text that changes on every slider step.

    QLabel.setText asks its parent for a new layout on every change; in a view's layout that request
    climbs to the window, which then repaints the whole tab. The box takes the request itself and
    passes it on only when the text needs another size: another height when it wraps, another
    width or height when it does not."""

    def __init__(self, wrap: bool = True):
        super().__init__()
        self.label = QLabel("", self)
        self._text = ""                 # as set (the label's has word joiners: keep_together)
        self.label.setWordWrap(wrap)
        self._need = QSize(0, 0)        # what the layout was last told: (width, height)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def text(self) -> str:
        return self._text

    def setText(self, text: str) -> None:  # noqa: N802 (Qt name)
        self._text = text
        self.label.setText(keep_together(text))      # "|yours − reference|" breaks nowhere after its bar
        self._fit()

    def setWordWrap(self, on: bool) -> None:  # noqa: N802 (Qt name)
        self.label.setWordWrap(on)
        self._fit()

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return self._need

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return QSize(0 if self.label.wordWrap() else self._need.width(), self._need.height())

    def _fit(self) -> None:
        """The size the text needs (wrapped: its height at this width, any width will do); a new one
        goes to the layout. One text layout a call: this runs on every step."""
        if self.label.wordWrap() and self.width() > 0:
            need = QSize(0, max(self.label.heightForWidth(self.width()), 1))
        else:                   # not wrapped, or not laid out yet: the label's own wish
            need = self.label.sizeHint()
            need = QSize(0, need.height()) if self.label.wordWrap() else need
        if need != self._need:
            self._need = need
            self.updateGeometry()

    def event(self, e) -> bool:
        if e.type() == QEvent.Type.LayoutRequest:     # from the label: new text or font
            self._fit()
            return True
        return super().event(e)

    def resizeEvent(self, e) -> None:  # noqa: N802 (Qt name)
        self.label.setGeometry(0, 0, self.width(), max(self.height(), 1))
        self._fit()
        super().resizeEvent(e)


class Readout(SteadyLabel):
    """The line under a view: hidden while blank, so an empty readout leaves no strip (its font
    is 1.3x bold in presentation mode). A readout that follows the base changes on every step."""

    def __init__(self):
        super().__init__(wrap=True)
        self.setVisible(False)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt name)
        super().setText(text)
        self.setVisible(bool(text.strip()))

    def _fit(self) -> None:
        self._choose_font()
        super()._fit()

    def changeEvent(self, e) -> None:  # noqa: N802 (Qt name)
        super().changeEvent(e)
        if e.type() == QEvent.Type.FontChange:       # the presentation scale's 1.3x: chosen again
            self._fit()

    def _choose_font(self) -> None:
        """Its own (1.3x bold) font, or in a window less high than SHORT_WINDOW, where that takes more
        than one line, the view's text size (still bold): in 1280 x 520 at 1.5x the Precision readout's
        three 1.3x bold lines took the plot's room."""
        own, view = self.font(), self.parentWidget()
        font = own
        if (view is not None and self.width() > 0 and self.window().height() < SHORT_WINDOW
                and view.font().pointSizeF() < own.pointSizeF()):
            metrics = QFontMetrics(own)
            needed = metrics.boundingRect(QRect(0, 0, self.width(), 100_000), Qt.TextFlag.TextWordWrap,
                                          self.label.text()).height()
            if needed > 1.5 * metrics.lineSpacing():
                font = QFont(view.font())
                font.setBold(own.bold())
        if self.label.font() != font:
            self.label.setFont(font)


class Caption(QLabel):
    """A wrapped caption that never breaks a line inside "2π/wᵢ", "θ/s" or "|value|" (keep_together)."""

    def setText(self, text: str) -> None:  # noqa: N802 (Qt name)
        super().setText(keep_together(text))


def keep_together(text: str) -> str:
    """`text` with a word joiner after each "/" between two non-spaces ("2π/wᵢ"; not the "/" of an HTML tag's
    "</b>" or "<br/>") and after an opening "|" ("|value|": Qt breaks a line after a bar, as Unicode allows), and
    no-break spaces around a minus between two terms ("j − i", "m − n": the Chinese formula panel broke "j" from
    "− i")."""
    text = re.sub(r"(?<=[^\s<])/(?=[^\s>\u2060])", "/\u2060", text)
    text = re.sub(r"(?<=\S) \u2212 (?=\S)", "\u00a0\u2212\u00a0", text)
    return re.sub(r"\|(?=\w)", "|\u2060", text)
