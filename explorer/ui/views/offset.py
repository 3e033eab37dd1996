"""Relative offset: R(k), PE(p+k) beside R(k)·PE(p), and PE(p)·PE(p+k) against k for several p."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from explorer.compute import offset as data
from explorer.ui.views.thick_curve import add_line
from explorer.ui.views.titles import set_title
from explorer.ui.views.ranges import nice_ceil, set_extent
from explorer.ui.views.panel_view import PALETTE, TITLE_SIZE, PanelView, set_pen
from explorer.ui.views.dots import Dots, move_points
from explorer.translations import fill

VECTOR_CHANNELS = 128   # channels drawn as symbols in the PE(p+k) vs R(k)PE(p) plot (readable, cheap)
MARKERS = 48            # markers per further p on the first p's curve (they land on it)
SYMBOLS = ("o", "s", "t", "d")


class OffsetView(PanelView):
    title = "offset"

    def __init__(self, parent=None):
        super().__init__(data.OffsetState(), parent)
        self.explain.setText(self.tr(
            "PE(p + k) = R(k)·PE(p): shifting by k is one fixed rotation (a 2×2 block per frequency, "
            "interleaved order) that does not depend on p, so PE(p)·PE(p + k) depends only on k."))
        self.k_box = self.spin(self.tr("offset k"), -255, 255, self.state.offset, "offset")
        self.p_box = self.spin(self.tr("position p"), 0, 255, self.state.position, "position")
        self.rot = self.image(0, 0, self.tr("channel"), self.tr("channel"), self.tr("R(k)"))
        self.vec = self.plot(0, 2, self.tr("channel"), self.tr("value"),
                             self.tr("PE(p + k) and R(k)·PE(p), float32"), whole_x=True)
        self.legend(self.vec, 2)
        # bare scatters moved in place (move_points): a PlotDataItem's setData rebuilds every
        # symbol's style, ~5 ms a frame for this view's five marker sets
        # a ring with the cross inside it: where they agree (everywhere) both stay in sight
        self.shifted = Dots(symbol="o", size=12, pen=pg.mkPen(PALETTE[0], width=2), brush=None,
                            name="PE(p + k)")
        self.rotated = Dots(symbol="+", size=7, pen=None, brush=PALETTE[1], name="R(k)·PE(p)")
        for item in (self.shifted, self.rotated):
            self.vec.addItem(item)
        self.vec.setYRange(-1.15, 1.15, padding=0)
        self.dots = self.plot(1, 0, self.tr("offset k"), "PE(p)·PE(p + k)",
                              self.tr("the first p as a line, the others as markers: they land "
                                      "on it"), colspan=3, whole_x=True)
        self.dots.disableAutoRange()       # ranges are known: autorange costs ~2 ms a frame
        self.legend(self.dots)
        self.dot_items = []
        self._legend_key = None

    def show_params(self, params) -> None:
        n = params.max_len
        for box, lo in ((self.k_box, -(n - 1)), (self.p_box, 0)):
            self.quiet_range(box, lo, n - 1)

    def draw(self, r) -> None:
        c = r.rotation.shape[0]
        # cell (i, j) centred on ticks i and j, as the channel axis of the plot beside it
        self.rot.show(r.rotation, -0.5, -0.5, c, c, (-1.0, 1.0))
        set_extent(self.rot.plot, (-0.5, c - 0.5), (-0.5, c - 0.5))
        d = r.params.d_model
        set_title(self.rot.plot, size=TITLE_SIZE, text=fill(self.tr("R(k), k = %1"), str(r.k))
                               if c == d else
                               fill(self.tr("R(k), k = %1: channels 0 … %2 of %3"), str(r.k), str(c - 1), str(d)))
        shown = min(d, VECTOR_CHANNELS)     # thousands of symbols are unreadable and slow to draw
        channels = np.arange(shown, dtype=np.float64)
        move_points(self.shifted, channels, r.shifted[:shown])
        move_points(self.rotated, channels, r.rotated[:shown])
        set_extent(self.vec, x=(-0.5, shown - 0.5), padding=0.01)
        if r.unpaired_gap is not None:     # the unpaired sine is measured apart (the readout)
            title = self.tr("p = %1, k = %2: max error %3 (float32, the paired channels)") if shown == d \
                else self.tr("p = %1, k = %2: max error %3 (float32, the paired channels)<br>the first "
                             "%4 channels drawn")
        else:
            title = self.tr("p = %1, k = %2: max error %3 (float32)") if shown == d else \
                self.tr("p = %1, k = %2: max error %3 (float32, all channels)<br>the first %4 channels drawn")
        set_title(self.vec, size=TITLE_SIZE,
                  text=fill(title, str(r.position), str(r.k), f"{r.max_error:.3g}", str(shown)))
        self._draw_dots(r)
        text = fill(self.tr("max |PE(p + k) − R(k)·PE(p)| = %1 in float32; largest gap between the "
                            "curves for different p: %2"), f"{r.max_error:.3g}", f"{r.spread:.3g}")
        if r.unpaired_gap is not None:
            text += self.tr("; ") + fill(self.tr(
                "odd d_model: the last channel is a sine without a cosine partner, which no rotation "
                "shifts (R(k) scales it by cos(k·w): off by %1, not counted above), so the dot "
                "products depend on p"),
                f"{r.unpaired_gap:.3g}")
        self.set_readout(text)

    def _draw_dots(self, r) -> None:
        """p = ps[0] as a thin line; every further p as MARKERS markers, each set shifted so they
        interleave. Where the curves coincide the markers sit on the line; where they do not (odd
        d's unpaired channel) they leave it, visibly for small d. One line: wide overlapping pens
        cost ~5 ms a frame."""
        while len(self.dot_items) < len(r.ps):
            i = len(self.dot_items)
            if i == 0:
                self.dot_items.append(add_line(self.dots))
            else:
                self.dot_items.append(Dots(symbol=SYMBOLS[i % len(SYMBOLS)], pen=None,
                                           brush=PALETTE[i % len(PALETTE)], size=7))
                self.dots.addItem(self.dot_items[-1])
        relabel = (r.ps, self.line_scale) != self._legend_key
        if relabel:
            self._legend_key = (r.ps, self.line_scale)
            self.dots.legend.clear()
        n = len(r.ks)
        for i, (item, p) in enumerate(zip(self.dot_items, r.ps)):
            colour = PALETTE[i % len(PALETTE)]
            if i == 0:
                item.setData(r.ks, r.dots[0])
            else:
                at = ((np.arange(MARKERS) + i / len(r.ps)) * n / MARKERS).astype(int)
                at = np.unique(np.clip(at, 0, n - 1))
                if relabel:
                    item.setSize(7 * self.line_scale)   # the default size: its points are restyled
                move_points(item, r.ks[at].astype(np.float64), r.dots[i][at])
            if relabel:
                if i == 0:
                    set_pen(item, self.pen(colour, 3.0))
                self.dots.legend.addItem(item, f"p = {p}")
            item.show()
        for item in self.dot_items[len(r.ps):]:
            item.hide()
        # y from 0 (or a nice negative floor) to a nice top: stays put while the base moves
        lo, hi = float(r.dots.min()), float(r.dots.max())
        bottom = -nice_ceil(-lo) if lo < 0 else 0.0
        top = nice_ceil(hi) if hi > 0 else 1.0
        set_extent(self.dots, (float(r.ks[0]), float(r.ks[-1])), (bottom, top), padding=0.03)
