"""The plain way's canvas, for the bench: the panels of explorer.bench.plain drawn as a beginner would.

`PlainCanvas` makes one PlotItem per panel, `setImage(autoLevels=True)` with a ColorBarItem that
follows the levels, `setData` on one curve per line, then `grab()`. Curves get the pens the views
use (LINE_WIDTH px: #17's lines that stay visible on a projector), so the ratio compares the data
paths, not pen widths.
"""

from __future__ import annotations

import math

import numpy as np

LINE_WIDTH = 2.0     # every view's curves are at least 2 px wide at scale 1 (PanelView.pen, curves)


class PlainCanvas:
    """One PlotItem per panel (images with a ColorBarItem), drawn with autoLevels, grabbed."""

    def __init__(self, panels: list, width: int, height: int):
        import pyqtgraph as pg

        self.widget = pg.GraphicsLayoutWidget()
        self.widget.resize(width, height)
        cols = max(1, math.ceil(math.sqrt(len(panels))))
        self.slots = []
        for i, (kind, *rest) in enumerate(panels):
            row, col = divmod(i, cols)
            plot = self.widget.addPlot(row=row, col=2 * col)
            if len(rest) > 1 and rest[1].get("log_y"):
                plot.setLogMode(y=True)
            if kind == "image":
                plot.invertY(True)
                image = pg.ImageItem()
                plot.addItem(image)
                bar = pg.ColorBarItem(values=(-1, 1), colorMap=pg.colormap.get("CET-D1"),
                                      interactive=False)
                bar.setImageItem(image)
                self.widget.addItem(bar, row=row, col=2 * col + 1)
                self.slots.append((plot, image, bar, []))
            else:
                self.slots.append((plot, None, None, []))
        self.widget.show()

    def draw(self, panels: list) -> None:
        import pyqtgraph as pg

        for (plot, image, bar, items), (kind, data, *_) in zip(self.slots, panels):
            if kind == "image":
                image.setImage(np.asarray(data), autoLevels=True)
                bar.setLevels(image.getLevels())
                plot.autoRange()
                continue
            while len(items) < len(data):
                items.append(plot.plot([], [], pen=pg.mkPen(len(items), width=LINE_WIDTH)))
            for item, (x, y) in zip(items, data):
                item.setData(x, y)
            plot.autoRange()
        self.widget.grab()

    def close(self) -> None:
        self.widget.close()
        self.widget.deleteLater()
