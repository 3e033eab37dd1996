"""The tokens view's chip strip (one chip per token: its text, ID and position, coloured by kind) and
the notice line above it (why nothing is shown, or where a long text was cut)."""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics
from PySide6.QtWidgets import QListWidget, QListWidgetItem

from explorer.errors import localized
from explorer.translations import fill
from explorer.ui.i18n import current_language

CHIP_SPECIAL = QColor("#fdd9a0")    # [CLS], [SEP]
CHIP_PARTIAL = QColor("#f6c6d8")    # incomplete UTF-8 bytes, shown as hex
CHIP_UNKNOWN = QColor("#d0d0d0")    # [UNK]
CHIP_PLAIN = QColor("#dcebf7")
_BEYOND_LATIN = re.compile("[\u0250-\U0010ffff]")   # drawn with a fallback font (CJK, ...) when the
#                                                        UI font lacks it


class ChipStrip(QListWidget):
    """Two rows of token chips (then it scrolls); `fill(result)` shows a TokensResult's tokens."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setFlow(QListWidget.Flow.LeftToRight)
        self.setWrapping(True)
        self.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.setSpacing(2)
        self.setSelectionMode(QListWidget.SelectionMode.SingleSelection)
        self.fit()

    def fill(self, r) -> None:
        self.blockSignals(True)
        self.clear()
        for pos, tok in enumerate(r.tokens):
            item = QListWidgetItem(f"{chip_text(tok)}\n{tok.id} · p{pos}")
            item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            colour = (CHIP_SPECIAL if tok.special else CHIP_PARTIAL if tok.partial
                      else CHIP_UNKNOWN if tok.text == "[UNK]" else CHIP_PLAIN)
            item.setBackground(colour)
            item.setForeground(QColor("black"))
            tip = fill(self.tr("position %1, ID %2, characters %3–%4"), pos, tok.id, tok.start, tok.end)
            if pos < len(r.position_ids) and int(r.position_ids[pos]) != pos:   # RoBERTa, OPT: another row
                tip += "\n" + fill(self.tr("reads row %1 of the model's position table"), int(r.position_ids[pos]))
            if tok.partial:
                tip += "\n" + fill(self.tr("incomplete UTF-8 bytes of “%1”"),
                                   r.params.text[tok.start:tok.end])
            item.setToolTip(tip)
            self.addItem(item)
        self.blockSignals(False)
        self._size_fallback_chips()
        self.fit()

    def _size_fallback_chips(self) -> None:
        """When a chip's text needs a fallback font, every chip is as tall as two lines of the tallest
        family (rows of one height: two whole rows, then the strip scrolls). Qt's own size for such a
        chip is a few pixels short of what it paints: "注意\n12345 · p0" got 32 px and was drawn
        as "注意..." (it wants 2 x 17 + 2 with the bundled CJK font)."""
        items = [self.item(i) for i in range(self.count())]
        if not any(_BEYOND_LATIN.search(item.text()) for item in items):
            return
        need = 2 * self._tallest_line() + 2
        metrics = self.fontMetrics()
        margin = self.style().pixelMetric(self.style().PixelMetric.PM_FocusFrameHMargin, None, self)
        pad = 2 * (margin + 1) + 1                     # Qt's text margins, and one pixel to spare
        for item in items:                             # as wide as the longer line
            width = max(metrics.horizontalAdvance(line) for line in item.text().split("\n")) + pad
            item.setSizeHint(QSize(width, need))

    def _tallest_line(self) -> int:
        """The largest line spacing among the font's families (the UI font, then its fallbacks)."""
        spacings = [self.fontMetrics().lineSpacing()]
        for family in self.font().families():
            font = QFont(self.font())
            font.setFamilies([family])
            spacings.append(QFontMetrics(font).lineSpacing())
        return max(spacings)

    def fit(self) -> None:
        """One row of chips when they fit in one, else two whole rows at the current font (the
        presentation scale makes them taller), then the strip scrolls (chips sized for a fallback font
        are all of one height: the first's). Two empty rows under a short sentence took ~45 px from
        the panels below in F11 at 1280 x 800."""
        row = self.sizeHintForRow(0) if self.count() else 2 * self.fontMetrics().lineSpacing() + 8
        rows = 1 if self._one_row_holds_all() else 2
        self.setFixedHeight(rows * (row + 2 * self.spacing()) + 2 * self.frameWidth() + 2)

    def _one_row_holds_all(self) -> bool:
        """The chips, side by side with their spacing, fit the strip's width (as the wrapping
        layout places them)."""
        width = self.width() - 2 * self.frameWidth() - self.verticalScrollBar().sizeHint().width()
        used = sum(self.sizeHintForIndex(self.model().index(i, 0)).width() + 2 * self.spacing()
                   for i in range(self.count()))
        return used <= width

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():     # a row more or less (not on a
            self.fit()                                          # height change: no loop)

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().changeEvent(event)
        if event.type() == event.Type.FontChange:
            self._size_fallback_chips()
            self.fit()


def chip_text(tok) -> str:
    """Token text with visible spaces; hex bytes of partial tokens kept as they are."""
    if tok.partial:
        return tok.text
    return tok.text.replace(" ", "␣") if tok.text else "∅"


def _gap() -> str:
    """Between two sentences: a space, none in Chinese (a sentence there ends in 。)."""
    return "" if current_language().startswith("zh") else " "


def _shown_first(n: int) -> str:
    """ "Shown: the first n tokens only." (singular at 1; context TokensView)."""
    return (QCoreApplication.translate("TokensView", "Shown: the first token only.") if n == 1 else
            fill(QCoreApplication.translate("TokensView", "Shown: the first %1 tokens only."), str(n)))


def notice_text(r) -> str:
    """The line above the chips: why nothing is shown, or where a long text was cut (context TokensView)."""
    n, limit, total = r.n_shown, r.limit, r.n_total
    if r.error:
        return fill(QCoreApplication.translate("TokensView", "Nothing to show: %1"),
                    localized(r.error, current_language()))
    lines = []
    if r.limit_kind == "max_len":
        lines.append(fill(QCoreApplication.translate("TokensView",
            "The text has %1 tokens but the position table stops at max_len = %2. As the seeds say, "
            "either extend the table (raise max_len) or stop the sequence (shorten the text)."),
            str(total), str(limit)) + _gap() + _shown_first(n))
    elif r.limit_kind == "learned" and r.source == "model":
        lines.append(fill(QCoreApplication.translate("TokensView",
            "The text has %1 tokens but %3 learned only %2 positions. A learned table cannot be "
            "extended without training, so the sequence must stop here."), str(total), str(limit),
            r.model_name) + _gap() + _shown_first(n))
    elif r.limit_kind == "learned":
        lines.append(fill(QCoreApplication.translate("TokensView",
            "The text has %1 tokens but MiniLM learned only %2 positions. A learned table cannot be "
            "extended without training, so the sequence must stop here."), str(total), str(limit))
            + _gap() + _shown_first(n))
    elif r.limit_kind == "view":
        lines.append(fill(QCoreApplication.translate(
            "TokensView", "The text has %1 tokens; this view shows the first %2."), str(total), str(n)))
    if r.warning:
        lines.append(localized(r.warning, current_language()))
    if r.source == "minilm" and r.params.tokenizer != "wordpiece":
        lines.append(QCoreApplication.translate(
            "TokensView", "MiniLM has rows only for WordPiece IDs, so the text was cut with WordPiece."))
    return "\n".join(lines)
