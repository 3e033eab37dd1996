"""A row of PCA scatter plots: position rows on PC1 × PC2 and PC2 × PC3, for a learned table and for
sinusoidal PE, coloured by position (one colour bar names the positions). Draws only."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QGraphicsItem

from explorer.translations import fill
from explorer.ui.i18n import Retranslatable
from explorer.ui.views.bar_span import span_bar
from explorer.ui.views.base import cache_axes
from explorer.ui.views.titles import set_title, title_over_axis
from explorer.ui.views.dots import Dots, move_points
from explorer.ui.views.ranges import held_span, set_bar_levels, steady_range
from explorer.ui.views.fitting_canvas import FittingCanvas

POSITION_MAP = "viridis"       # sequential: position 0 dark, the last position yellow
BRUSH_LEVELS = 32              # colours the positions are binned into: the scatter's symbol atlas
#                                keeps 32 entries, not one per point (a per-point colour cost ~50 ms)


class PcaRow(Retranslatable, FittingCanvas):
    """Four scatter plots (learned PC1/PC2, PC2/PC3; sinusoidal PC1/PC2, PC2/PC3) and a position bar."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.plots, self.paths, self.dots = [], [], []
        for col in range(4):
            plot = self.addPlot(row=0, col=col)
            plot.setMenuEnabled(False)
            plot.hideButtons()
            plot.setAspectLocked(True)
            # a bare curve: PlotDataItem's setData (~0.5 ms for 512 points) wraps this one's (~0.1)
            path = pg.PlotCurveItem(pen=pg.mkPen("#c8c8c8", width=1))
            dots = Dots(size=4, pen=None)
            plot.addItem(path)
            plot.addItem(dots)
            for item in (path, dots) if col < 2 else ():   # the learned side never moves with the
                item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)   # base: as a pixmap,
            #   not 512 symbols; the sinusoidal side moves with every step (a pixmap would be drawn,
            #   then copied: ~0.1 ms a frame more on a 2-core EPYC)
            cache_axes(plot)
            # over the view box alone, four two-line titles plus four axes were wider than the row
            # at 1280 px (and in presentation mode): the last plot and the bar went off the edge
            title_over_axis(plot)
            for name in ("left", "bottom"):
                plot.getAxis(name).enableAutoSIPrefix(False)
            self.plots.append(plot)
            self.paths.append(path)
            self.dots.append(dots)
        self.cmap = pg.colormap.get(POSITION_MAP)
        self.bar = pg.ColorBarItem(values=(0, 1), colorMap=self.cmap, interactive=False, width=14)
        self.addItem(self.bar, row=0, col=4)
        span_bar(self.bar, self.plots[0])
        self.bar_image = pg.ImageItem()                  # the bar needs an image to take its levels from
        self.result = None
        self.names = ("", "")
        self._brushes: dict[int, list] = {}      # n -> one brush per point from BRUSH_LEVELS shared ones
        self._shown: dict[int, object] = {}      # first column -> the coordinates drawn there
        self.retranslate_ui()

    def retranslate_ui(self) -> None:
        self.bar.axis.setLabel(self.tr("position"))
        for plot, (x, y) in zip(self.plots, (("PC1", "PC2"), ("PC2", "PC3")) * 2):
            plot.setLabel("bottom", x)
            plot.setLabel("left", y)
        if self.result is not None:
            self.draw(self.result, *self.names)

    def _brushes_for(self, n: int) -> list:
        if n not in self._brushes:
            levels = [pg.mkBrush(c) for c in self.cmap.mapToQColor(np.linspace(0.0, 1.0, BRUSH_LEVELS))]
            bins = (np.arange(n) * BRUSH_LEVELS // max(n, 1)).clip(0, BRUSH_LEVELS - 1)
            self._brushes = {n: [levels[b] for b in bins]}
        return self._brushes[n]

    def draw(self, r, learned_name: str, sinusoidal_name: str) -> None:
        """Draw r.pca_learned (if any) and r.pca_sinusoidal, each (n, 3); a side whose coordinates did
        not change (the learned table does not move with the base) is left as it is."""
        self.result, self.names = r, (learned_name, sinusoidal_name)
        sides = ((r.pca_learned, r.var_learned, learned_name, 0),
                 (r.pca_sinusoidal, r.var_sinusoidal, sinusoidal_name, 2))
        n = 0
        for coords, var, name, col in sides:
            if coords is None:
                self._shown[col] = None
                for k in (0, 1):
                    self.paths[col + k].setData([], [])
                    self.dots[col + k].clear()
                    set_title(self.plots[col + k], fill(self.tr("%1: not available"), name), size="9pt")
                continue
            n = coords.shape[0]
            if self._shown.get(col) is coords:
                continue
            self._shown[col] = coords
            brushes = self._brushes_for(n)
            for k, (a, b) in enumerate(((0, 1), (1, 2))):
                plot = self.plots[col + k]
                self.paths[col + k].setData(coords[:, a], coords[:, b])
                move_points(self.dots[col + k], coords[:, a], coords[:, b], brushes)
                set_title(plot, fill(self.tr("%1: PC%2 × PC%3<br>(%4% + %5% of the variance)"), name,
                                     str(a + 1), str(b + 1), f"{100 * var[a]:.0f}", f"{100 * var[b]:.0f}"),
                          size="9pt")
                steady_range(plot, held_span(plot, "x", float(coords[:, a].min()), float(coords[:, a].max())),
                             held_span(plot, "y", float(coords[:, b].min()), float(coords[:, b].max())))
        set_bar_levels(self.bar, (0, max(n - 1, 1)))

    def set_colormap(self, name: str) -> None:
        """Positions keep their own sequential map (the user's map is diverging, for signed values)."""
