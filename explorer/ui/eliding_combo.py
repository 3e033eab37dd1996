"""A combo box that elides its current text instead of cutting it mid-letter."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox, QStylePainter


class ElidingCombo(QComboBox):
    """A combo box that ends a too-long current text with "…" instead of cutting it mid-letter
    (Chinese "交错：sin, cos … (" lost half its bracket); the full text is in the tooltip."""

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt name)
        painter = QStylePainter(self)
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, opt)
        field = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, opt,
                                            QStyle.SubControl.SC_ComboBoxEditField, self)
        full = opt.currentText
        opt.currentText = painter.fontMetrics().elidedText(full, Qt.TextElideMode.ElideRight,
                                                           field.width() - 4)
        self.setToolTip(full if opt.currentText != full else "")
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, opt)
