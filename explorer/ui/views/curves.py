"""Per-frequency curves: sin and cos of chosen channel pairs over positions, with wavelengths."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit

from explorer.translations import number_text
from explorer.ui.eliding_combo import ElidingCombo
from explorer.ui.views.band import Band, Bars
from explorer.ui.views.thick_curve import add_line
from explorer.ui.views.base import CURSOR_PEN, ZoomableView, cache_axes, line_at
from explorer.ui.views.tick_room import whole_steps

# Okabe-Ito: distinguishable with the common colour-vision deficiencies
LANE = 2.5   # vertical distance between pair lanes (values span -1 .. 1)
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#882255")


def band_is_cheaper(lo: np.ndarray, hi: np.ndarray, px: float) -> bool:
    """Whether an envelope (lo, hi per pixel column, data units; px = one pixel) is drawn faster as
    one filled band than as vertical bars. Qt fills a band at ~0.1-0.7 us per pixel of its edges'
    total rise and fall (each scanline walks every edge crossing it), and fills bars (Bars) at
    ~10 ns per pixel of their length: a fast sine over many positions per column (flat edges, tall bars) is a
    band (1 ms -> 0.06 ms); a jagged envelope (a few positions per column) stays bars (a band took
    300 ms there)."""
    if len(lo) < 2 or not px > 0:
        return False
    rise = (np.abs(np.diff(hi)).sum() + np.abs(np.diff(lo)).sum()) / px       # edge length, px
    length = (hi - lo).sum() / px + 2 * len(lo)                                # bar pixels
    return bool(rise < 0.03 * length)


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
        self.mode = ElidingCombo()
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
        whole_steps(self.plot.getAxis("bottom"))
        self.plot.setLabel("left", self.tr("frequency pair i (each lane spans −1 … 1)"))
        self.cursor_line = pg.InfiniteLine(angle=90, pen=CURSOR_PEN, movable=False)
        self.cursor_line.hide()
        self.plot.addItem(self.cursor_line, ignoreBounds=True)
        self.box.addWidget(self.plot, 1)
        self.track_resizes(self.plot.getViewBox())
        self.box.addWidget(self.readout)
        self._items: list[tuple] = []      # (curve, Band, Bars) per line: a curve, or its envelope
        self._width = 2.0
        self._extent = None
        self.mode.currentIndexChanged.connect(self._on_mode_changed)
        self.entry.editingFinished.connect(
            lambda: self.pairs_requested.emit("manual", self.entry.text()))
        self.plot.scene().sigMouseClicked.connect(self._on_clicked)
        self.plot.getViewBox().sigRangeChangedManually.connect(lambda *_: self.window_changed.emit())

    def _on_mode_changed(self) -> None:
        mode = self.mode.currentData()            # "manual": the pairs as they are, kept at a new width
        self.pairs_requested.emit(mode, self.entry.text() if mode == "manual" else "")

    def set_result(self, result) -> None:
        """Each pair gets its own lane (offset by LANE), sin solid and cos dashed, labelled λ."""
        p = result.params
        lines = result.lines
        while len(self._items) < len(lines):
            band, bars = Band(), Bars()            # a dense curve's per-pixel min/max envelope
            self.plot.addItem(band)
            self.plot.addItem(bars)
            self._items.append((add_line(self.plot), band, bars))
        lanes: dict[int, int] = {}
        ticks = []
        px = abs(self.plot.getViewBox().viewPixelSize()[1])     # one pixel in data units (y)
        for (item, band, bars), line in zip(self._items, lines):
            lane = lanes.setdefault(line.pair, len(lanes))
            colour = pg.mkColor(PALETTE[lane % len(PALETTE)])
            if line.kind == "cos":   # lighter shade: dashed pens on long paths are ~100x slower
                colour = cos_shade(colour)
            y = line.y - LANE * lane
            shown = item
            if result.pos_step > 1:
                # the envelope min..max over each pixel column, a pixel longer at each end (as
                # thick as a 2 px line where the curve is flat, and no gaps): one filled band
                # where its edges are flat (a fast sine), else one 1 px bar per column
                shown = band if band_is_cheaper(y[0::2], y[1::2], px) else bars
                shown.setData(line.x[0::2], y[0::2] - px, y[1::2] + px)
                shown.setColour(colour)
                bars.setWidth(max(1.0, self._width / 2))     # wider in presentation mode
            else:                    # a curve (ThickCurve, 2 px)
                style = (colour.name(), self._width)
                if getattr(item, "_style", None) != style:     # each setPen re-lays the curve's data
                    item._style = style
                    item.setPen(pg.mkPen(colour, width=self._width))
                item.setData(line.x, y, connect="all")
            for part in (item, band, bars):
                part.setVisible(part is shown)
            if line.kind == "sin":
                ticks.append((-LANE * lane, f"i={line.pair}  λ={number_text(line.wavelength)}"))
        for parts in self._items[len(lines):]:
            for part in parts:
                part.hide()
        self.plot.getAxis("left").setTicks([ticks, []])
        self.plot.setYRange(-LANE * (len(lanes) - 1) - 1.15, 1.15, padding=0)
        if (p.max_len,) != self._extent:
            self._extent = (p.max_len,)
            if self._zoom_shown:                                      # a scene's zoom
                self.plot.setXRange(*self._zoom_shown[0:2], padding=0)
            else:
                self.plot.setXRange(0, p.max_len, padding=0.01)
        self.entry.blockSignals(True)
        self.entry.setText(", ".join(str(i) for i in dict.fromkeys(p.curve_pairs)))
        self.entry.blockSignals(False)
        if self.mode.currentData() != p.curve_mode:          # the box names how the pairs were picked
            self.mode.blockSignals(True)
            self.mode.setCurrentIndex(self.mode.findData(p.curve_mode))
            self.mode.blockSignals(False)
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

    def zoomable_boxes(self) -> tuple:
        return (self.plot.getViewBox(),)          # its zoom is the State's (ZoomState)

    def visible_region(self) -> tuple[int, int, int, int, int, int]:
        (x0, x1), _ = self.plot.getViewBox().viewRange()
        width = max(1, int(self.plot.getViewBox().sceneBoundingRect().width()))
        return (int(max(0, x0)), int(x1) + 1, 0, 0, 1, width)

    def set_cursor(self, pos: int | None) -> None:
        line_at(self.cursor_line, pos, offset=0.0)

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
