"""A panel with nothing to plot says so: its axes and colour bar hidden, a centred note saying why in their
place (the check view's reference and difference had been bare 0..1 axes when nothing fits the data)."""

from __future__ import annotations

from html import escape

import pyqtgraph as pg
from PySide6.QtGui import QFont

from explorer.ui.views.ranges import forget_extent, set_extent

NOTE_COLOUR = "#555555"
MARGIN = 4             # px kept clear on each side of a wrapped note


class EmptyNote:
    """say(words): the note in the middle of `plot` instead of its axes (and `bar`); say(""): the axes again."""

    def __init__(self, plot: pg.PlotItem, bar: pg.ColorBarItem | None = None, colour: str | None = NOTE_COLOUR):
        """colour None: the application's text colour (its palette's WindowText), not the check view's grey."""
        self.plot, self.bar, self.words = plot, bar, ""
        if colour is None:
            from PySide6.QtGui import QPalette
            from PySide6.QtWidgets import QApplication

            colour = QApplication.palette().color(QPalette.ColorRole.WindowText)
        self.text = pg.TextItem("", color=colour, anchor=(0.5, 0.5))
        self.text.setVisible(False)
        plot.addItem(self.text, ignoreBounds=True)
        plot.getViewBox().sigResized.connect(self._fit)     # wrapped to the panel's new width

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

    def _fit(self, *_) -> None:
        """The text as wide as its longest line, so that each line is centred in it (with no width, Qt
        aligns nothing), wrapped at words to the panel's width on screen (the text ignores the scene's
        scale), and the item centred on the panel again."""
        document = self.text.textItem.document()
        document.setTextWidth(-1)
        room = self._room()
        if room is not None and document.idealWidth() > room:
            document.setTextWidth(room)
        document.setTextWidth(document.idealWidth())
        self.text.updateTextPos()

    def _room(self) -> float | None:
        """The panel's data area's width in screen px less a margin (None before it is shown)."""
        box = self.plot.getViewBox()
        view = box.getViewWidget()
        if view is None or box.width() <= 0:
            return None
        return max(view.mapFromScene(box.sceneBoundingRect()).boundingRect().width() - 2 * MARGIN, 40.0)
