"""What the multi-panel views share: own controls that write the view's part of the State, drawing.

A view's result depends on the shared Params and on the view's own frozen state (a ViewState in
`State.views[name]`); both are computed on the worker (`catalogue.entry(name).run`). The view's controls
only emit `state_edited({field: value})`; the controller replaces the State and calls `show_state`
(controls follow, signals blocked) and later `set_result` (draw). The view computes nothing.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QLabel, QSizePolicy, QSpinBox,
                               QWidget)

from explorer.ui.eliding_combo import ElidingCombo
from explorer.ui.views.control_row import ControlRow
from explorer.ui.views.base import ImagePlot, View, cache_axes
from explorer.ui.views.tick_room import whole_steps
from explorer.ui.views.titles import scaled_pt, set_title
from explorer.ui.views.fitting_canvas import FittingCanvas, scales_with_canvas

# Okabe-Ito: distinguishable with the common colour-vision deficiencies
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
GREY = "#9a9a9a"
TITLE_SIZE = "9pt"            # set_title scales it with the presentation


SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def decade_ticks(axis: pg.AxisItem) -> None:
    """A log axis labelled 10⁻⁴ … 10⁵ throughout (pyqtgraph mixes 10^5 with 0.0001); minor
    ticks stay unlabelled, and no SI prefix: pyqtgraph's reads the log axis's exponents as values
    ("value (log scale) (x1e+09)" at base 10⁹)."""
    axis.enableAutoSIPrefix(False)
    def strings(values, scale, spacing):
        return [("1" if round(v) == 0 else "10" + str(round(v)).translate(SUPERSCRIPT))
                if abs(v - round(v)) < 1e-6 else "" for v in values]
    axis.tickStrings = strings


def line_label_font(line: pg.InfiniteLine) -> None:
    """An InfiniteLine's label in the (presentation-scaled) application font."""
    from PySide6.QtWidgets import QApplication

    if line.label.textItem.font() != QApplication.font():
        line.label.setFont(QApplication.font())


def set_pen(item, pen) -> None:
    """item.setPen(pen) unless the item has that pen already: each setPen re-lays the curve's data,
    and the views set their pens on every draw."""
    if item.opts.get("pen") != pen:
        item.setPen(pen)


BAR_GAP = 8       # px (x the presentation scale) after a colour bar's column; Qt's own gap is 6


class PanelView(View):
    """Subclasses pass their default state, build controls with spin/dspin/combo/check, and draw(result)."""

    state_edited = Signal(object)   # {field: value} the user set in this view's own controls

    def __init__(self, state, parent: QWidget | None = None):
        super().__init__(parent)
        self.state = state          # the view's part of the controller's State, as last shown
        self.params = None
        self._fields: dict[str, QWidget] = {}     # state field -> its control
        self.images: list[ImagePlot] = []
        self._bar_columns: set[int] = set()       # canvas columns that hold a colour bar
        self.line_scale = 1.0
        self.controls = ControlRow()         # wraps where the view is narrow (F11 with the panel)
        self.box.addLayout(self.controls)
        self.canvas = FittingCanvas()
        self._row_gap(1.0)
        self.box.addWidget(self.canvas, 1)
        self.box.addWidget(self.readout)

    # state ------------------------------------------------------------------------------------
    def set_state(self, **changes) -> None:
        """The user changed own controls: ask the controller (it validates, recomputes, redraws)."""
        self.state_edited.emit(changes)

    def show_state(self, state, params=None) -> None:
        """Make the own controls show `state` (signals blocked: nothing is written back)."""
        self.state = state
        if params is not None:
            self.show_params(params)
        for key, box in self._fields.items():
            value = getattr(state, key)
            box.blockSignals(True)
            if isinstance(box, QComboBox):
                show_choice(box, value)
            elif isinstance(box, QCheckBox):
                box.setChecked(bool(value))
            else:
                show_number(box, value)
            box.blockSignals(False)

    def show_params(self, params) -> None:
        """Fit the own controls' ranges to new shared Params (no state is changed here)."""

    def set_result(self, result) -> None:
        """A worker result for the current State: draw it."""
        self._show(result)

    def _show(self, result) -> None:
        self.params = result.params
        self.result = result
        self.draw(result)

    def draw(self, result) -> None:  # pragma: no cover - each view overrides
        raise NotImplementedError

    # shared widgets ---------------------------------------------------------------------------
    def image(self, row: int, col: int, x_label: str, y_label: str, title: str = "",
              cmap: str | None = None, bar: bool = True, reverse: bool = False) -> ImagePlot:
        """An image panel at (row, col) with its colour bar at col + 1 (bar=False: no bar drawn).

        cmap None: the user's diverging map (follows set_colormap); else a fixed map such as
        "CET-L1" (black to white; reverse=True: white to black).
        """
        panel = ImagePlot(self.canvas, row, col, x_label, y_label, cmap or "CET-D1")
        set_title(panel.plot, title, size=TITLE_SIZE)
        if cmap is None:
            self.images.append(panel)
        elif reverse:
            fixed = pg.colormap.get(cmap)   # a shared cached object: build a reversed copy
            panel.bar.setColorMap(pg.ColorMap(pos=fixed.pos, color=fixed.getColors()[::-1]))
        if not bar:
            self.canvas.ci.removeItem(panel.bar)
            panel.bar.hide()
        else:
            self._bar_columns.add(col + 1)
            self._row_gap(self.line_scale)
        return panel

    def plot(self, row: int, col: int, x_label: str, y_label: str, title: str = "",
             colspan: int = 1, whole_x: bool = False) -> pg.PlotItem:
        """A line plot at (row, col); whole_x: its x axis counts whole things (positions, offsets)
        and is ticked at whole steps only."""
        item = self.canvas.addPlot(row=row, col=col, colspan=colspan)
        if whole_x:
            whole_steps(item.getAxis("bottom"))
        item.setLabel("bottom", x_label)
        item.setLabel("left", y_label)
        set_title(item, title, size=TITLE_SIZE)
        item.setMenuEnabled(False)
        cache_axes(item)
        # no grid: pyqtgraph's grid (minor lines included) tripled the render time of a frame
        return item

    @staticmethod
    def legend(item: pg.PlotItem, columns: int = 5):
        """A legend in a band between the plot's title and its data area (the hidden top axis's
        row), `columns` entries a row: it never covers a curve at any size or scale (issue #17)."""
        legend = pg.LegendItem(colCount=columns, verSpacing=-6, horSpacing=14,
                               labelTextSize=scaled_pt(TITLE_SIZE))
        legend._base_pt = 9.0          # rescale_labels keeps it at 9 pt x the presentation scale
        scales_with_canvas(legend)
        legend.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
        item.layout.removeItem(item.getAxis("top"))     # hidden; its row holds the legend,
        item.layout.addItem(legend, 1, 0, 1, 3)         # over the left axis too: RoPE's two-column
        #                                                 legend was wider than its data area
        item.layout.setAlignment(legend, Qt.AlignmentFlag.AlignHCenter)
        item.legend = legend
        return legend

    def pen(self, colour: str, width: float = 2.0):
        """Half the nominal width at scale 1, but at least 2 px (1 px lines fade on a projector):
        wide pens cost 3-100x in Qt's raster engine on dense curves, so no wider; presentation
        scale thickens them again."""
        return pg.mkPen(colour, width=max(2.0, 0.5 * width) * self.line_scale)

    def spin(self, label: str, lo: int, hi: int, value: int, key: str) -> QSpinBox:
        box = QSpinBox()
        box.setRange(lo, hi)
        box.setValue(value)
        box.setKeyboardTracking(False)
        box.valueChanged.connect(lambda v: self.set_state(**{key: int(v)}))
        self._fields[key] = box
        self._add(label, box)
        return box

    def dspin(self, label: str, lo: float, hi: float, value: float, key: str,
              decimals: int = 2, step: float = 1.0) -> QDoubleSpinBox:
        box = QDoubleSpinBox()
        box.setRange(lo, hi)
        box.setDecimals(decimals)
        box.setSingleStep(step)
        box.setValue(value)
        box.setKeyboardTracking(False)
        box.valueChanged.connect(lambda v: self.set_state(**{key: float(v)}))
        self._fields[key] = box
        self._add(label, box)
        return box

    def combo(self, label: str, items, value, key: str) -> QComboBox:
        box = ElidingCombo()
        for text, data in items:
            box.addItem(text, data)
        box.setCurrentIndex(max(0, box.findData(value)))
        box.currentIndexChanged.connect(lambda _: self.set_state(**{key: box.currentData()}))
        self._fields[key] = box
        self._add(label, box)
        return box

    def check(self, label: str, value: bool, key: str) -> QCheckBox:
        box = QCheckBox(label)
        box.setChecked(value)
        box.toggled.connect(lambda v: self.set_state(**{key: bool(v)}))
        self._fields[key] = box
        self.controls.addWidget(box)
        return box

    def _add(self, label: str, widget: QWidget) -> None:
        if label:
            self.controls.add_pair(QLabel(label), widget)
        else:
            self.controls.addWidget(widget)

    @staticmethod
    def quiet_range(box, lo, hi) -> None:
        """Give a spin box the range [lo, hi] without emitting, and only when it has another one:
        each setRange asks for a new layout (the box's width follows its range), which repaints
        the whole window."""
        if (box.minimum(), box.maximum()) != (lo, hi):
            box.blockSignals(True)
            box.setRange(lo, hi)
            box.blockSignals(False)

    @staticmethod
    def quiet_set(widget, value) -> None:
        """Set a control's value without emitting (used when Params move its range)."""
        widget.blockSignals(True)
        widget.setValue(value)
        widget.blockSignals(False)

    # View API -----------------------------------------------------------------------------------
    def set_colormap(self, name: str) -> None:
        for panel in self.images:
            panel.set_colormap(name)

    def _row_gap(self, scale: float) -> None:
        """Room between panel rows for a colour bar's end labels (drawn centred on its ends), and
        after each colour bar, so its labels ("-100") do not run into the next panel's ("200")."""
        layout = self.canvas.ci.layout
        layout.setVerticalSpacing(10 * scale)
        for column in self._bar_columns:
            if column < layout.columnCount() - 1:       # a panel follows it
                layout.setColumnSpacing(column, BAR_GAP * scale)

    def set_line_scale(self, scale: float) -> None:
        self.line_scale = scale
        self._row_gap(scale)
        if self.result is not None:
            self.draw(self.result)


def show_choice(box: QComboBox, value) -> None:
    """Select `value`; a valid value the box does not list (a scene's span of 1000) gets an item of its
    own, so the box never names another value than the one drawn (it had shown its first item)."""
    listed = box.property("pe_listed")
    if listed is None:                        # the items the view made: the others are shown values
        listed = box.count()
        box.setProperty("pe_listed", listed)
    while box.count() > listed and box.itemData(box.count() - 1) != value:
        box.removeItem(box.count() - 1)       # an earlier shown value: one item at most, not a pile
    index = box.findData(value)
    if index < 0:
        box.addItem(f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value), value)
        index = box.count() - 1
    box.setCurrentIndex(index)


def show_number(box, value) -> None:
    """Show `value` as it is: a range widened to hold it, and for a float box enough decimals (up to 6) that
    it is not rounded (base 1.5 had read "2", and a nudge of the box then wrote 2)."""
    if isinstance(box, QDoubleSpinBox):
        own = box.property("pe_own_decimals")
        if own is None:                       # the decimals the view chose; more only while a value needs them
            own = box.decimals()
            box.setProperty("pe_own_decimals", own)
        needed = next((k for k in range(7) if abs(round(value, k) - value) <= 1e-9 * max(1.0, abs(value))), 6)
        if max(needed, own) != box.decimals():
            box.setDecimals(max(needed, own))
    if not box.minimum() <= value <= box.maximum():
        box.setRange(min(box.minimum(), value), max(box.maximum(), value))
    box.setValue(value)
