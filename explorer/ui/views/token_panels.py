"""Panels of the tokens view: a row of matrices with operators between them, a text axis (the gauge: gauge_panel)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtGui import QColor

from explorer.ui.views.image_item import ScreenImage
from explorer.ui.views.bar_span import span_bar
from explorer.ui.views.empty_note import EmptyNote
from explorer.ui.views.base import CURSOR_PEN, cache_axes, line_at
from explorer.ui.views.tick_room import cell_centres
from explorer.ui.views.titles import scaled_label, set_title, title_over_axis
from explorer.ui.views.ranges import set_bar_levels, set_extent
from explorer.ui.views.fitting_canvas import FittingCanvas
from explorer.ui.views.label_axis import LabelAxis, name_ticks


def _swatch(colour: QColor, text: str) -> str:
    return f'<span style="background:{colour.name()}">&nbsp;&nbsp;&nbsp;</span>&nbsp;{text}'


class MatrixRow(FittingCanvas):
    """Three heatmaps in a row with operator signs between them ("×", "=") and one shared colour bar."""

    hovered = Signal(int, int, int)      # (panel, row, column)

    def __init__(self, ops: tuple[str, str], position_rows=(True, True, True), binary_first=False,
                 cmap: str = "CET-D1", own_scale=()):
        """own_scale: indices of panels drawn on their own levels, not the shared bar's (the PE
        panel: within ±1 it would be one pale block on the ±50 of E·√d)."""
        super().__init__()
        self.own_scale = tuple(own_scale)
        self.plots, self.images, self.lines = [], [], []
        self.own_bars = {}                 # panel -> its own colour bar, right of it (own_scale)
        self.notes = {}                    # panel -> its EmptyNote, made when a panel first says something
        self.position_rows = position_rows
        self.binary_first = binary_first
        col = 0                            # panel, [its own bar,] sign, panel, ..., the shared bar
        for i in range(3):
            plot = self.addPlot(row=0, col=col, axisItems={"left": LabelAxis("left"),
                                                           "bottom": LabelAxis("bottom")})
            for side in ("left", "bottom"):  # cells from 0: unlabelled ticks on their centres
                cell_centres(plot.getAxis(side), True)
            self.ci.layout.setColumnStretchFactor(col, 4)
            col += 1
            plot.invertY(True)
            plot.setMenuEnabled(False)
            plot.hideButtons()
            title_over_axis(plot)          # (the Lookup page's titles at 1.5x were wider than its row: F11 drew
            #                                the page 1.28x smaller, its text back at 1x)
            image = ScreenImage()
            plot.addItem(image)
            line = pg.InfiniteLine(angle=0, pen=CURSOR_PEN, movable=False)
            line.hide()
            plot.addItem(line, ignoreBounds=True)
            self.plots.append(plot)
            self.images.append(image)
            self.lines.append(line)
            if i in self.own_scale:        # a panel on its own levels has its own scale beside it
                own = pg.ColorBarItem(values=(-1, 1), colorMap=pg.colormap.get(cmap), interactive=False,
                                      width=10)
                own.setImageItem(image)
                self.own_bars[i] = own
                self.addItem(own, row=0, col=col)
                span_bar(own, plot)
                self.ci.layout.setColumnStretchFactor(col, 0)
                col += 1
            if i < 2:
                sign = scaled_label(ops[i], "22pt")
                self.addItem(sign, row=0, col=col)
                self.ci.layout.setColumnStretchFactor(col, 0)
                col += 1
        if binary_first:
            self.images[0].setColorMap(pg.ColorMap([0.0, 1.0], [(255, 255, 255), (20, 20, 20)]))
        coloured = [im for i, im in enumerate(self.images)
                    if i not in self.own_scale and not (binary_first and i == 0)]
        self.bar = pg.ColorBarItem(values=(-1, 1), colorMap=pg.colormap.get(cmap), interactive=False,
                                   width=16)
        self.bar.setImageItem(coloured)
        self.addItem(self.bar, row=0, col=col)
        span_bar(self.bar, self.plots[0])
        cache_axes(*self.plots, self.bar, *self.own_bars.values())
        self.scene().sigMouseMoved.connect(self._on_moved)

    def set_titles(self, titles) -> None:
        """Set the three titles (only when they change: a title re-lays out its plot)."""
        titles = tuple(titles)
        if titles == getattr(self, "_titles", None):
            return
        self._titles = titles
        for plot, title in zip(self.plots, titles):
            set_title(plot, title, size="10pt")

    def set_bar_label(self, text: str) -> None:
        """Name the panels the shared bar colours (the row's other panels have bars of their own),
        only when it changes: a label re-lays out the row."""
        if text != getattr(self, "_bar_label", None):
            self._bar_label = text
            self.bar.axis.setLabel(text)

    def set_x_labels(self, labels) -> None:
        """Name each panel's columns (only when they change: a label re-lays out its plot)."""
        labels = tuple(labels)
        if labels != getattr(self, "_x_labels", None):
            self._x_labels = labels
            for plot, text in zip(self.plots, labels):
                plot.setLabel("bottom", text)

    def show(self, i: int, data: np.ndarray, levels, x_ticks=None, y_ticks=None, binary=False) -> None:
        """Draw data (rows x cols) in panel i; tick labels for rows/columns when few enough."""
        rows, cols = data.shape if data.size else (0, 0)
        image, plot = self.images[i], self.plots[i]
        image.setImage(data if data.size else np.zeros((1, 1), np.float32), autoLevels=False, levels=levels)
        image.setRect(0, 0, max(cols, 1), max(rows, 1))
        if not (binary and self.binary_first) and data.size:
            set_bar_levels(self.own_bars.get(i, self.bar), levels)
        name_ticks(plot.getAxis("left"), y_ticks, rows)
        name_ticks(plot.getAxis("bottom"), x_ticks, cols)
        set_extent(plot, (0, max(cols, 1)), (0, max(rows, 1)))

    def align_axes(self) -> None:
        """Give every left axis the widest one's width, so the three panels line up."""
        axes = [plot.getAxis("left") for plot in self.plots]
        width = max(a.label_width() for a in axes)
        for a in axes:
            a.setWidth(width)

    def say(self, i: int, words: str) -> None:
        """One line in panel i's place, in the text colour, its axes and own bar hidden (a RoPE or ALiBi
        model adds nothing for position: the panel had been a pale empty box); "" shows the panel again.
        Call it after show(i, ...)."""
        note = self.notes.get(i)
        if note is None and not words:
            return
        if note is None:
            note = self.notes[i] = EmptyNote(self.plots[i], self.own_bars.get(i), colour=None)
            note.set_font(self.font())
        if words:
            self.images[i].clear()
            self.lines[i].hide()
        note.say(words)

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().changeEvent(event)
        if event.type() == event.Type.FontChange:      # the presentation scale: the notes' text with it
            for note in self.notes.values():
                note.set_font(self.font())

    def clear(self) -> None:
        for image, plot in zip(self.images, self.plots):
            image.clear()
            set_title(plot, "")
        for i in self.notes:
            self.say(i, "")

    def mark_row(self, pos: int | None) -> None:
        """A line along row `pos` of the panels whose rows are positions (None: none; none over a note)."""
        for i, (line, is_pos) in enumerate(zip(self.lines, self.position_rows)):
            if is_pos:
                line_at(line, None if self.notes.get(i) is not None and self.notes[i].words else pos)

    def set_colormap(self, name: str) -> None:
        for bar in (self.bar, *self.own_bars.values()):
            bar.setColorMap(pg.colormap.get(name))

    def _on_moved(self, scene_pos) -> None:
        for i, plot in enumerate(self.plots):
            vb = plot.getViewBox()
            if vb.sceneBoundingRect().contains(scene_pos) and self.images[i].image is not None:
                pt = vb.mapSceneToView(scene_pos)
                self.hovered.emit(i, int(np.floor(pt.y())), int(np.floor(pt.x())))
                return
