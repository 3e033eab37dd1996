"""A labelled slider with a typed entry; typed values are validated, never silently clamped."""

from __future__ import annotations

import math

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import (QHBoxLayout, QLabel, QLineEdit, QSizePolicy, QSlider, QStyle,
                               QVBoxLayout, QWidget)
from explorer.translations import fill

STEPS = 1000  # resolution of a log-scale slider
ENTRY_DIGITS = 8  # the widest value shown: max_len 10000000


class ValueEntry(QLineEdit):
    """The typed-value box: as wide as ENTRY_DIGITS digits in its current font (presentation mode
    scales the font), so a long label in another language cannot squeeze the number."""

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        frame = self.style().pixelMetric(QStyle.PixelMetric.PM_DefaultFrameWidth, None, self)
        margins = self.textMargins()
        width = (self.fontMetrics().horizontalAdvance("0" * ENTRY_DIGITS) + margins.left()
                 + margins.right() + 2 * frame + 8)        # 8: QLineEdit's inner text margins
        return QSize(width, hint.height())

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()


class SliderRow(QWidget):
    """name [----o----] [typed value]; emits value_changed(float) for slider moves and typed values.

    Linear sliders map ticks to integers; `log=True` maps STEPS ticks to [lo, hi] geometrically.
    A typed value inside [type_lo, type_hi] (default the slider range) is accepted; outside, the row
    shows a message and keeps the previous value.
    """

    value_changed = Signal(float)

    def __init__(self, name: str, lo: float, hi: float, value: float, *, log: bool = False,
                 integer: bool = True, type_range: tuple[float, float] | None = None,
                 mark: float | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self._lo, self._hi, self._log, self._integer = lo, hi, log, integer
        self._type_lo, self._type_hi = type_range or (lo, hi)
        self._value = value
        self.label = QLabel(name)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, STEPS if log else int(hi - lo))
        if mark is not None:
            self.slider.setTickPosition(QSlider.TickPosition.TicksBelow)
            self.slider.setTickInterval(max(1, self._to_tick(mark)))
        self.entry = ValueEntry()
        self.entry.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.entry.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.message = QLabel("")
        self.message.setObjectName("inputMessage")
        self.message.setStyleSheet("color: #c0392b;")
        self.message.setWordWrap(True)
        self.message.hide()
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.label)
        top.addStretch(1)
        top.addWidget(self.entry)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 2, 0, 2)
        lay.setSpacing(1)
        lay.addLayout(top)
        lay.addWidget(self.slider)
        lay.addWidget(self.message)
        self.slider.valueChanged.connect(self._on_slider_changed)
        self.entry.editingFinished.connect(self._on_entry_changed)
        self.set_value(value)

    # mapping ------------------------------------------------------------------------------
    def _to_tick(self, v: float) -> int:
        v = min(max(v, self._lo), self._hi)
        if self._log:
            t = math.log(v / self._lo) / math.log(self._hi / self._lo)
            return int(round(t * STEPS))
        return int(round(v - self._lo))

    def _from_tick(self, t: int) -> float:
        if self._log:
            v = self._lo * (self._hi / self._lo) ** (t / STEPS)
            return float(round(v)) if self._integer else float(f"{v:.4g}")
        return float(self._lo + t)

    def _fmt(self, v: float) -> str:
        return f"{int(v)}" if self._integer else f"{v:g}"

    # public -------------------------------------------------------------------------------
    def value(self) -> float:
        return self._value

    def set_value(self, v: float) -> None:
        """Show v (model -> widget); emits nothing."""
        self._value = v
        self.slider.blockSignals(True)
        self.slider.setValue(self._to_tick(v))
        self.slider.blockSignals(False)
        if self.entry.text() != self._fmt(v):      # the text a slider step just wrote, or another
            self.entry.setText(self._fmt(v))

    def show_message(self, text: str) -> None:
        self.message.setText(text)
        self.message.setVisible(bool(text))

    # slots --------------------------------------------------------------------------------
    def _on_slider_changed(self, tick: int) -> None:
        v = self._from_tick(tick)
        if v == self._value:
            return
        self._value = v
        self.entry.setText(self._fmt(v))
        self.show_message("")
        self.value_changed.emit(v)

    def _on_entry_changed(self) -> None:
        text = self.entry.text().strip().replace(",", "").replace("_", "")
        try:
            v = float(text)
            ok = math.isfinite(v) and (not self._integer or v == int(v))
        except ValueError:
            ok = False
        if not ok:
            self.show_message(fill(self.tr("“%1” is not a number"), text) if not self._integer
                              else fill(self.tr("“%1” is not a whole number"), text))
            self.entry.setText(self._fmt(self._value))
            return
        if not self._type_lo <= v <= self._type_hi:
            self.show_message(fill(self.tr("%1 is outside the allowed range %2 – %3; kept %4"), self._fmt(v),
                                   self._fmt(self._type_lo), self._fmt(self._type_hi), self._fmt(self._value)))
            self.entry.setText(self._fmt(self._value))
            return
        self.show_message("")
        if v != self._value:
            self.set_value(v)
            self.value_changed.emit(v)
