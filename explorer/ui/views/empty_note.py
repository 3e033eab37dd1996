"""A panel with nothing to plot says so: its axes and colour bar hidden, a centred note saying why in their
place (the check view's reference and difference had been bare 0..1 axes when nothing fits the data)."""

from __future__ import annotations

from html import escape

import pyqtgraph as pg
from PySide6.QtGui import QFont

from explorer.ui.views.ranges import forget_extent, set_extent

NOTE_COLOUR = "#555555"


class EmptyNote:
    """say(words): the note in the middle of `plot` instead of its axes (and `bar`); say(""): the axes again."""

    def __init__(self, plot: pg.PlotItem, bar: pg.ColorBarItem | None = None):
        self.plot, self.bar, self.words = plot, bar, ""
        self.text = pg.TextItem("", color=NOTE_COLOUR, anchor=(0.5, 0.5))
        self.text.setVisible(False)
        plot.addItem(self.text, ignoreBounds=True)

    def say(self, words: str) -> None:
        """Show `words` (lines split at a line break, each centred) where the data would be; "" shows the
        axes. Call it after the panel's setLabel, which shows an axis again."""
        for side in ("left", "bottom"):
            self.plot.showAxis(side, not words)
        if self.bar is not None:
            self.bar.setVisible(not words)
        self.text.setVisible(bool(words))
        if words and words != self.words:
            self.text.setHtml('<div align="center">' + escape(words).replace("\n", "<br>") + "</div>")
            self._fit()
        self.words = words
        if words:
            forget_extent(self.plot)         # an auto-ranged plot has moved since its last set_extent
            set_extent(self.plot, (0, 1), (0, 1))
            self.text.setPos(0.5, 0.5)

    def set_font(self, font: QFont) -> None:
        """The note in `font` (the view's: it follows the presentation scale)."""
        self.text.setFont(font)
        self._fit()

    def _fit(self) -> None:
        """The text as wide as its longest line, so that each line is centred in it (with no width, Qt
        aligns nothing), and the item centred on the panel again."""
        document = self.text.textItem.document()
        document.setTextWidth(-1)
        document.setTextWidth(document.idealWidth())
        self.text.updateTextPos()
