"""Per-frequency curves: sin and cos of chosen channel pairs over positions, with wavelengths."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit

from explorer.ui.views.thick_curve import add_curve
from explorer.ui.views.base import CURSOR_PEN, ZoomableView, cache_axes

# Okabe-Ito: distinguishable with the common colour-vision deficiencies
LANE = 2.5   # vertical distance between pair lanes (values span -1 .. 1)
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#882255")


def cos_shade(colour):
    """The cos line's colour: the sin colour 45% of the way to white, but never lighter than
    HSL lightness 0.72 (pink #CC79A7 made lighter(160) was nearly invisible on white)."""
    h, s, lightness, a = colour.getHslF()
    return pg.QtGui.QColor.fromHslF(max(h, 0.0), s, min(lightness + (1 - lightness) * 0.45, 0.72), a)


class CurvesView(ZoomableView):
    title = "curves"
    pairs_requested = Signal(str, str)   # (mode, text): mode in spread/fastest/slowest/manual

    def __init__(self, parent=None):
        super().__init__(parent)
        self.explain.setText(self.tr(
            "Dark: sin(p·wᵢ) on channel 2i; light: cos(p·wᵢ) on channel 2i+1. Same frequency, a "
            "quarter period apart; higher pairs have longer wavelengths λᵢ = 2π/wᵢ."))
        self.mode = QComboBox()
        for key, label in (("spread", self.tr("evenly spread pairs")),
                           ("fastest", self.tr("fastest pairs")),
                           ("slowest", self.tr("slowest pairs")),
                           ("manual", self.tr("manual"))):
            self.mode.addItem(label, key)
        self.entry = QLineEdit()
        self.entry.setPlaceholderText(self.tr("pair indices, e.g. 0, 4, 16"))
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Pairs")))
        row.addWidget(self.mode)
        row.addWidget(self.entry, 1)
        self.box.addLayout(row)
        self.plot = pg.PlotWidget()
        self.plot.setMenuEnabled(False)
        cache_axes(self.plot.getPlotItem())
        self.plot.setLabel("bottom", self.tr("position p"))
        self.plot.setLabel("left", self.tr("frequency pair i (each lane spans −1 … 1)"))
        self.cursor_line = pg.InfiniteLine(angle=90, pen=CURSOR_PEN, movable=False)
        self.cursor_line.hide()
        self.plot.addItem(self.cursor_line, ignoreBounds=True)
        self.box.addWidget(self.plot, 1)
        self.box.addWidget(self.readout)
        self._items: list[pg.PlotDataItem] = []
        self._width = 2.0
        self._extent = None
        self.mode.currentIndexChanged.connect(self._on_mode_changed)
        self.entry.editingFinished.connect(
            lambda: self.pairs_requested.emit("manual", self.entry.text()))
        self.plot.scene().sigMouseClicked.connect(self._on_clicked)
        self.plot.getViewBox().sigRangeChangedManually.connect(lambda *_: self.window_changed.emit())

    def _on_mode_changed(self) -> None:
        mode = self.mode.currentData()
        if mode != "manual":
            self.pairs_requested.emit(mode, "")

    def set_result(self, result) -> None:
        """Each pair gets its own lane (offset by LANE), sin solid and cos dashed, labelled λ."""
        p = result.params
        lines = result.lines
        while len(self._items) < len(lines):
            self._items.append(add_curve(self.plot, [], []))
        lanes: dict[int, int] = {}
        ticks = []
        px = abs(self.plot.getViewBox().viewPixelSize()[1])     # one pixel in data units (y)
        for item, line in zip(self._items, lines):
            lane = lanes.setdefault(line.pair, len(lanes))
            colour = pg.mkColor(PALETTE[lane % len(PALETTE)])
            if line.kind == "cos":   # lighter shade: dashed pens on long paths are ~100x slower
                colour = cos_shade(colour)
            # an envelope (pos_step > 1): 1 px vertical bars, one per pixel column (wide pens cost
            # 3-4x per frame there)
            width = self._width if result.pos_step == 1 else max(1.0, self._width / 2)
            # as separate segments ("pairs"): half the segments of a zig-zag through the same points,
            # and Qt strokes a 2,000-vertex zig-zag path ~10x slower than it draws the bars
            style = (colour.name(), width, "on" if result.pos_step > 1 else "auto")
            if getattr(item, "_style", None) != style:     # each setPen re-lays the curve's data
                item._style = style
                item.setPen(pg.mkPen(colour, width=width))
                item.curve.setSegmentedLineMode(style[2])
            if result.pos_step > 1:    # bars (x, min)-(x, max), a pixel longer at each end: as thick
                y = line.y - LANE * lane   # as a 2 px line, and Qt draws no zero-length line (a flat
                y[0::2] -= px              # crest would leave a gap)
                y[1::2] += px
                item.setData(line.x, y, connect="pairs")
            else:
                item.setData(line.x, line.y - LANE * lane)
            item.show()
            if line.kind == "sin":
                ticks.append((-LANE * lane, f"i={line.pair}  λ={line.wavelength:.4g}"))
        for item in self._items[len(lines):]:
            item.hide()
        self.plot.getAxis("left").setTicks([ticks, []])
        self.plot.setYRange(-LANE * (len(lanes) - 1) - 1.15, 1.15, padding=0)
        if (p.max_len,) != self._extent:
            self._extent = (p.max_len,)
            if self._zoom_shown:                                      # a scene's zoom
                self.plot.setXRange(*self._zoom_shown, padding=0)
            else:
                self.plot.setXRange(0, p.max_len, padding=0.01)
        self.entry.blockSignals(True)
        self.entry.setText(", ".join(str(i) for i in dict.fromkeys(p.curve_pairs)))
        self.entry.blockSignals(False)
        self.result = result

    def show_state(self, state, params=None) -> None:
        """Show the State's zoom (a range of positions), or every position."""
        if not self.new_zoom(state, params):
            return
        zoom = state.zoom
        if zoom:
            self.plot.setXRange(*zoom[0:2], padding=0)
        elif params is not None:
            self.plot.setXRange(0, params.max_len, padding=0.01)

    def visible_region(self) -> tuple[int, int, int, int, int, int]:
        (x0, x1), _ = self.plot.getViewBox().viewRange()
        width = max(1, int(self.plot.getViewBox().sceneBoundingRect().width()))
        return (int(max(0, x0)), int(x1) + 1, 0, 0, 1, width)

    def set_cursor(self, pos: int) -> None:
        self.cursor_line.setPos(pos)
        self.cursor_line.show()

    def set_line_scale(self, scale: float) -> None:
        self._width = 2.0 * scale
        if self.result is not None:
            self.set_result(self.result)

    def _on_clicked(self, event) -> None:
        vb = self.plot.getViewBox()
        if self.result is None or not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        x = vb.mapSceneToView(event.scenePos()).x()
        pos = int(round(x))
        if 0 <= pos < self.result.params.max_len:
            self.cursor_moved.emit(pos)
