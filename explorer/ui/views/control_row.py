"""A view's row of own controls that wraps onto a second line where the view is narrow.

In one QHBoxLayout the Check, Distance, Precision and RoPE rows needed 920-1260 px at the
presentation scale: with the control panel shown in F11 on a 1280 px projector the window went past
the screen's edge, and a tab's row widened every tab (a QTabWidget is as wide as its widest page).
Here the row is only as wide as its widest unit; a label stays on its control's line.

superqt's QFlowLayout (a port of Qt's flow layout example) places every item at its size hint and
breaks between any two items, and importing superqt takes ~65 ms (qtpy, pygments); this one glues a
label to its control and gives a line's spare room to expanding controls (RoPE's pairing box).
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QStyle, QWidget


class ControlRow(QLayout):
    """Items left to right, wrapping to a new line at a unit's edge; each line's items centred
    vertically. add_pair(label, box) is one unit."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._glued: list[bool] = []      # item i stays on the line of item i + 1
        self.setContentsMargins(0, 0, 0, 0)

    # building ------------------------------------------------------------------------------------
    def add_pair(self, label: QWidget, widget: QWidget) -> None:
        """label, then widget, never split between two lines."""
        self.addWidget(label)
        self._glued[-1] = True
        self.addWidget(widget)

    # QLayout -------------------------------------------------------------------------------------
    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 (Qt name)
        self._items.append(item)
        self._glued.append(False)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 (Qt name)
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 (Qt name)
        if not 0 <= index < len(self._items):
            return None
        glued = self._glued.pop(index)
        if index > 0:              # the item before stays glued only through a glued one
            self._glued[index - 1] = self._glued[index - 1] and glued
        return self._items.pop(index)

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802 (Qt name)
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt name)
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt name)
        return self._arrange(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 (Qt name)
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        """Everything on one line."""
        shown = self._shown()
        gap = self._gap()
        width = sum(i.sizeHint().width() for i in shown) + gap * max(0, len(shown) - 1)
        return QSize(width, max((i.sizeHint().height() for i in shown), default=0))

    def minimumSize(self) -> QSize:  # noqa: N802 (Qt name)
        """The widest unit at its items' minimum widths; one line's height (heightForWidth says
        how many lines a width needs)."""
        gap = self._gap()
        widest = max((sum(i.minimumSize().width() for i in unit) + gap * (len(unit) - 1)
                      for unit in self._units()), default=0)
        return QSize(widest, max((i.minimumSize().height() for i in self._shown()), default=0))

    # layout --------------------------------------------------------------------------------------
    def _gap(self) -> int:
        gap = self.spacing()
        if gap < 0:
            parent = self.parentWidget()
            style = parent.style() if parent is not None else None
            gap = style.pixelMetric(QStyle.PixelMetric.PM_LayoutHorizontalSpacing) if style else 6
        return max(0, gap)

    def _shown(self) -> list[QLayoutItem]:
        return [item for item in self._items if not item.isEmpty()]

    def _units(self) -> list[list[QLayoutItem]]:
        """The shown items in runs that stay on one line (a label and its control)."""
        units, current = [], []
        for item, glued in zip(self._items, self._glued):
            if not item.isEmpty():
                current.append(item)
            if not glued and current:
                units.append(current)
                current = []
        if current:
            units.append(current)
        return units

    def _lines(self, width: int, gap: int) -> list[list[QLayoutItem]]:
        lines, line, used = [], [], 0
        for unit in self._units():
            need = sum(i.sizeHint().width() for i in unit) + gap * (len(unit) - 1)
            if line and used + gap + need > width:
                lines.append(line)
                line, used = [], 0
            used += (gap if line else 0) + need
            line.extend(unit)
        if line:
            lines.append(line)
        return lines

    def _arrange(self, rect: QRect, move: bool) -> int:
        """Place the items in rect (move) or only measure; the height the lines take."""
        gap = self._gap()
        y = rect.y()
        for n, line in enumerate(self._lines(rect.width(), gap)):
            y += gap if n else 0
            widths = _fitted_widths(line, rect.width() - gap * (len(line) - 1))
            height = max(i.sizeHint().height() for i in line)
            if move:
                x = rect.x()
                for item, w in zip(line, widths):
                    h = min(item.sizeHint().height(), height)
                    item.setGeometry(QRect(x, y + (height - h) // 2, w, h))
                    x += w + gap
            y += height
        return y - rect.y()


def _fitted_widths(line: list[QLayoutItem], room: int) -> list[int]:
    """Each item's width on its line: its size hint; spare room to the expanding ones up to their
    maximum width; a line too narrow for the hints squeezes each item toward its minimum."""
    hints = [i.sizeHint().width() for i in line]
    spare = room - sum(hints)
    if spare < 0:
        mins = [min(i.minimumSize().width(), h) for i, h in zip(line, hints)]
        slack = sum(hints) - sum(mins)
        keep = max(0.0, (room - sum(mins)) / slack) if slack else 0.0
        return [m + int((h - m) * keep) for m, h in zip(mins, hints)]
    widths = list(hints)
    for k, item in enumerate(line):
        if spare <= 0:
            break
        if item.expandingDirections() & Qt.Orientation.Horizontal:
            extra = min(spare, max(0, item.maximumSize().width() - widths[k]))
            widths[k] += extra
            spare -= extra
    return widths

