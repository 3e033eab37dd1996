"""A combo box that elides its current text instead of cutting it mid-letter."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtWidgets import QComboBox, QSizePolicy, QStyle, QStyleOptionComboBox, QStylePainter


def elided(metrics, text: str, width: int) -> str:
    """`text` cut to `width` pixels with "…" at the end, one "…" only: "sin, cos, sin, cos …" cut
    after its own ellipsis read "sin, cos … …"."""
    shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)
    if shown != text and shown[:-1].rstrip().endswith("…"):
        shown = shown[:-1].rstrip()
    return shown


class ElidingCombo(QComboBox):
    """A combo box that ends a too-long current text with "…" instead of cutting it mid-letter
    (Chinese "交错：sin, cos … (" lost half its bracket); the full text is in the tooltip."""

    _grows = False

    def grow_to_items(self) -> None:
        """Take the room its row has to spare, up to the width of its longest item: a box kept
        narrow so that long items cannot widen the view then shows its text whole where it fits
        ("interleaved (RoFormer)" was "interleaved (R…" with half the row empty)."""
        self._grows = True
        policy = self.sizePolicy()
        policy.setHorizontalPolicy(QSizePolicy.Policy.Expanding)
        self.setSizePolicy(policy)
        self._cap()

    def widest_item_width(self) -> int:
        """The box's width with its longest item shown whole, in its current font and style."""
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        metrics = self.fontMetrics()
        text = max((metrics.horizontalAdvance(self.itemText(i)) for i in range(self.count())), default=0)
        return self.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, opt,
                                             QSize(text + 4, metrics.height()), self).width()

    def _cap(self) -> None:
        if self._grows:
            self.setMaximumWidth(max(self.minimumSizeHint().width(), self.widest_item_width()))

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):   # F11's larger text
            self._cap()

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
        painter = QStylePainter(self)
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, opt)
        field = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, opt,
                                            QStyle.SubControl.SC_ComboBoxEditField, self)
        full = opt.currentText
        opt.currentText = elided(painter.fontMetrics(), full, field.width() - 4)
        self.setToolTip(full if opt.currentText != full else "")
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, opt)
