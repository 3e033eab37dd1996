"""Panels of the tokens view: a row of matrices with operators between them, a text axis, the gauge."""

from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from explorer.ui.views.empty_note import EmptyNote
from explorer.ui.views.image_item import ScreenImage
from explorer.ui.views.bar_span import span_bar
from explorer.ui.views.empty_note import EmptyNote
from explorer.ui.i18n import Retranslatable
from explorer.ui.views.base import CURSOR_PEN, cache_axes, keep_together, line_at
from explorer.ui.views.tick_room import cell_centres
from explorer.ui.views.titles import scaled_label, set_title, title_over_axis
from explorer.ui.views.ranges import set_bar_levels, set_extent
from explorer.ui.views.fitting_canvas import FittingCanvas
from explorer.ui.views.label_axis import LabelAxis, name_ticks
from explorer.backend.models.family_tables import SINUSOID_FAMILIES
from explorer.ui.views import token_model


def _key(title: str, entries) -> str:
    """Plot title with coloured squares naming the bars."""
    parts = [f'<span style="color:{c}">■</span>&nbsp;{t}' for c, t in entries]
    return f"{title}: " + " &nbsp; ".join(parts)


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


class GaugePanel(Retranslatable, QWidget):
    """Per token: |E|, |E|·√d, |PE| as grouped bars, and the angle PE turns X away from E."""

    COLOURS = ("#0072B2", "#D55E00", "#009E73")

    def __init__(self, parent=None):
        super().__init__(parent)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)   # bold by <b>: a style sheet would pin
        #                                                       its font at 1x in F11 (presentation.py)
        self.why = QLabel("")
        self.why.setWordWrap(True)
        self.canvas = FittingCanvas()
        self.norms = self.canvas.addPlot(row=0, col=0, axisItems={"bottom": LabelAxis("bottom")})
        self.angles = self.canvas.addPlot(row=0, col=1, axisItems={"bottom": LabelAxis("bottom")})
        self.canvas.ci.layout.setColumnStretchFactor(0, 1)
        self.canvas.ci.layout.setColumnStretchFactor(1, 1)
        for plot in (self.norms, self.angles):
            plot.setMenuEnabled(False)
            plot.hideButtons()
            plot.showGrid(y=True, alpha=0.3)
        self.angle_note = EmptyNote(self.angles)     # a model that adds nothing: a line, not an empty grid
        self.angle_note.set_font(self.font())
        box.addWidget(self.summary)
        box.addWidget(self.canvas, 1)
        box.addWidget(self.why)
        self.result = None
        self.labels: list[str] = []
        self.retranslate_ui()

    def retranslate_ui(self) -> None:
        self.norms.setLabel("left", self.tr("length"))
        self.angles.setLabel("left", self.tr("degrees"))
        if self.result is not None:
            self.show(self.result, self.labels)

    def clear(self) -> None:
        for plot in (self.norms, self.angles):
            plot.clear()
        self.angles.addItem(self.angle_note.text, ignoreBounds=True)     # (plot.clear took it too)
        self.angle_note.say("")
        self.summary.setText("")

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().changeEvent(event)
        if event.type() == event.Type.FontChange and hasattr(self, "angle_note"):
            self.angle_note.set_font(self.font())           # the note follows the presentation scale

    def show(self, r, labels) -> None:
        """Draw the gauge of a TokensResult; labels name the tokens on the x axis."""
        self.result, self.labels = r, labels
        self.clear()
        self.why.setText(keep_together(token_model.gauge_note(r)))
        n = r.n_shown
        x = np.arange(n, dtype=np.float64)
        trained = r.source in ("minilm", "model")
        model = r.source == "model"
        if model:
            names = ("|E|", "|E|·" + f"{r.scale:.3g}" if r.scale != 1.0 else self.tr("|E| (not scaled)"),
                     self.tr("|position + type|") if r.family == "bert" else self.tr("|sinusoidal position|")
                     if r.family in SINUSOID_FAMILIES else self.tr("|learned position|")
                     if r.position == "learned" else self.tr("|added position| (ALiBi: 0)")
                     if r.position == "alibi" else self.tr("|added position| (relative bias: 0)")
                     if r.position == "relative" else self.tr("|added position| (RoPE: 0)"))
        else:
            names = ("|E|", "|E|·√d", self.tr("|position + type|") if trained else "|PE|")
        series = [(k, values) for k, values in enumerate((r.token_norm, r.scaled_norm, r.pe_norm))
                  if not (model and k == 1 and r.scale == 1.0)]   # (a model's |E| twice, "not scaled": said nothing)
        for i, (k, values) in enumerate(series):
            self.norms.addItem(pg.BarGraphItem(x=x + (i - (len(series) - 1) / 2) * 0.27, height=values, width=0.25,
                                               brush=self.COLOURS[k], pen=None))
        set_title(self.norms, _key(self.tr("lengths"), [(self.COLOURS[k], names[k]) for k, _ in series]), size="10pt")
        active_scaled = r.scale != 1.0
        if model:           # its own scale only (×1 and ×1 side by side said nothing)
            groups = [(r.angle_scaled, f"× {r.scale:.3g}", True)]
        else:
            groups = [(r.angle_scaled, self.tr("with ×√d"), active_scaled),
                      (r.angle_unscaled, self.tr("without ×√d"), not active_scaled)]
        key = []
        for k, (values, name, on) in enumerate(groups):
            colour = QColor(self.COLOURS[2 * k])
            colour.setAlpha(255 if on else 80)
            offset = (k - 0.5) * 0.4 if len(groups) == 2 else 0.0
            self.angles.addItem(pg.BarGraphItem(x=x + offset, height=np.nan_to_num(values),
                                                width=0.38, brush=colour, pen=None))
            key.append((self.COLOURS[2 * k], name + (" ✔" if on and not model else "")))
        set_title(self.angles, _key(self.tr("angle (X, E)"), key), size="10pt")
        for plot in (self.norms, self.angles):
            name_ticks(plot.getAxis("bottom"), labels, n, centre=0.0)
            set_extent(plot, x=(-0.6, max(n, 1) - 0.4))
        self.norms.enableAutoRange(axis="y")
        set_extent(self.angles, y=(0, 90 if n else 1), padding=0.02)
        self.angle_note.say(token_model.angle_note(r))
        if n == 0:
            return
        m = r.medians                                    # worked out with the result, not here
        med = {"e": m["token"], "s": m["scaled"], "p": m["position"], "a": m["angle"], "u": m["angle_unscaled"]}
        text = self.tr("d_model = %1, medians: |E| = %2, |E|·√d = %3, |PE| = %4. PE turns X away from E "
                       "by %5° with ×√d, by %6° without.")
        for key, value in (("%1", str(r.d_model)), ("%2", f"{med['e']:.3g}"), ("%3", f"{med['s']:.3g}"),
                           ("%4", f"{med['p']:.3g}"), ("%5", f"{med['a']:.1f}"), ("%6", f"{med['u']:.1f}")):
            text = text.replace(key, value)
        if model:
            text = self.tr("%1 (d_model = %2), medians: |E| = %3, |E|·scale = %4, |position| = %5; "
                           "position turns X away from E by %6°.")
            for key, value in (("%1", r.model_name), ("%2", str(r.d_model)), ("%3", f"{med['e']:.3g}"),
                               ("%4", f"{med['s']:.3g}"), ("%5", f"{med['p']:.3g}"), ("%6", f"{med['a']:.1f}")):
                text = text.replace(key, value)
            if r.position == "rope":
                text += " " + self.tr("Nothing is added at the input: RoPE turns q and k inside attention.")
            elif r.position == "alibi":
                text += " " + self.tr("Nothing is added at the input: ALiBi biases the attention scores.")
            elif r.position == "relative":
                text += " " + self.tr("Nothing is added at the input: T5 adds a learned bias per distance "
                                      "bucket to the attention scores.")
        elif trained:
            text += " " + self.tr("MiniLM does not multiply by √d; a LayerNorm follows the sum.")
        self.summary.setText(f"<b>{html.escape(text)}</b>")
