"""An axis that names rows or columns with text (token texts, vocabulary ids), thinned to what fits."""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtGui import QFontMetrics, QFontMetricsF

from explorer.ui.views.tick_room import whole_steps


def name_ticks(axis, labels, count: int, centre: float = 0.5) -> None:
    """Name rows/columns with labels (as many as fit), or plain numbers when labels is None."""
    axis.set_labels(labels[:count] if labels is not None and count else None, centre)


class LabelAxis(pg.AxisItem):
    """An axis that names rows/columns (token texts, vocabulary ids), thinned to what fits in its pixels."""

    def __init__(self, orientation: str):
        super().__init__(orientation)
        whole_steps(self)          # without labels: channels and rows, at whole steps
        self.labels: list[str] | None = None
        self.centre = 0.5
        self._px = 12.0

    def set_labels(self, labels, centre: float = 0.5) -> None:
        font = self.style.get("tickFont") or self.font()
        key = (list(labels) if labels else None, centre, font.toString())
        if key == getattr(self, "_labels_key", None):
            return                 # unchanged: keep the cached picture (a redraw costs ~1 ms)
        self._labels_key = key
        self.labels = key[0]
        self.centre = centre
        fm = QFontMetrics(font)
        if self.labels and self.orientation in ("left", "right"):
            self._px = fm.height() - 2.0      # a line's leading may touch the next label's
        elif self.labels:
            self._px = max(fm.horizontalAdvance(t) for t in self.labels) + 6.0
            self._updateHeight()       # room below the baseline for these labels
        self.picture = None
        self.update()

    def _updateHeight(self) -> None:  # noqa: N802 (pyqtgraph's name)
        """pyqtgraph's height, or taller where a label reaches further below the baseline than its
        estimate allows: at 1.5x the "␣" of "␣for" lost its bottom stroke, drawn below the axis and
        off the canvas, and read "..for"."""
        super()._updateHeight()
        if not (getattr(self, "labels", None) and self.orientation in ("bottom", "top") and self.isVisible()
                and self.fixedHeight is None and self.style["showValues"]):
            return
        metrics = QFontMetricsF(self.style.get("tickFont") or self.font())
        depth = max((metrics.boundingRect(t).bottom() for t in self.labels if t), default=0.0)
        need = math.ceil(metrics.ascent() + max(depth, metrics.descent()) + 1
                         + self.style["tickTextOffset"][1] + max(0, self.style["tickLength"])
                         + (self.label.boundingRect().height() * 0.8 if self.label.isVisible() else 0))
        if need > self.maximumHeight():
            self.setMaximumHeight(need)
            self.setMinimumHeight(need)

    def label_width(self) -> int:
        """Pixels the labels need (plain numbers: a default)."""
        if not self.labels:
            return 40
        fm = QFontMetrics(self.style.get("tickFont") or self.font())
        return max(fm.horizontalAdvance(t) for t in self.labels) + 14

    def tickValues(self, minVal, maxVal, size):
        if not self.labels:
            return super().tickValues(minVal, maxVal, size)
        minVal, maxVal = sorted((minVal, maxVal))                                 # inverted y comes reversed
        per_row = size / max(maxVal - minVal, 1e-9)                              # pixels per row
        step = max(1, math.ceil(self._px / max(per_row, 1e-9)))
        lo = max(0, math.ceil(minVal - self.centre))
        hi = min(len(self.labels) - 1, math.floor(maxVal - self.centre))
        if all(self.labels[lo:hi + 1]):
            first = lo + (-lo) % step
            return [(float(step), [j + self.centre for j in range(first, hi + 1, step)])]
        chosen, last = [], -math.inf     # blank labels (unnamed rows) are skipped: the named ones, thinned
        for j in range(lo, hi + 1):
            if self.labels[j] and j - last >= step:
                chosen.append(j + self.centre)
                last = j
        return [(float(step), chosen)]

    def tickStrings(self, values, scale, spacing):
        if not self.labels:
            return super().tickStrings(values, scale, spacing)
        out = []
        for v in values:
            j = round(v - self.centre)
            out.append(self.labels[j] if 0 <= j < len(self.labels) else "")
        return out
