"""What every view shares: pyqtgraph set-up, a colour-barred image plot, the cursor signal."""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtCore import QRectF, Signal
from PySide6.QtWidgets import QGraphicsItem, QVBoxLayout, QWidget
from explorer.ui.views.image_item import ScreenImage
from explorer.ui.views.bar_span import span_bar
from explorer.ui.views.kept_axis import keep_pictures
from explorer.ui.views import tick_room  # installs roomy tick steps
from explorer.ui.views import label_room  # noqa: F401 (vertical axis titles clear their ticks)
from explorer.ui.views.ranges import set_bar_levels
from explorer.ui.views.labels import Caption, Readout, SteadyLabel, keep_together  # noqa: F401 (views import them here)
from explorer.translations import fill

pg.setConfigOptions(imageAxisOrder="row-major", antialias=False, background="w", foreground="k")

CURSOR_PEN = pg.mkPen("#e67e22", width=2)


class View(QWidget):
    """A view: `set_result(result)` draws; `set_cursor(pos)` marks a position; emits what users do."""

    cursor_moved = Signal(int)            # a position the user points at
    window_changed = Signal()             # the visible region changed (zoom/pan)
    resized = Signal()                    # the panel of a view with visible_region got another size
    hovered = Signal(int, int)            # (position, channel) under the mouse, for a readout

    title = "view"
    name = ""      # the catalogue name (set by the registry); the controller computes its result

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.result = None
        self.generation = -1
        self.explain = Caption("")
        self.explain.setWordWrap(True)
        self.explain.setObjectName("explainLine")
        self.readout = Readout()
        self.readout.setObjectName("readout")
        self.readout.setWordWrap(True)
        self.box = QVBoxLayout(self)
        self.box.setContentsMargins(4, 4, 4, 4)
        self.box.addWidget(self.explain)

    def set_result(self, result) -> None:  # pragma: no cover - each view overrides
        raise NotImplementedError

    def track_resizes(self, box: pg.ViewBox) -> None:
        """Emit `resized` (which the main window debounces, then recomputes the view) when `box`, the panel
        visible_region measures, gets another size in whole pixels: a window resize or F11, and also a title,
        caption or note that takes its room inside a view of the same size (the Learned view's first result
        was computed for 170 rows, before its titles were set, and drawn into 154 px). Once a size: a hidden
        view's grab() lays it out again each time, and a title set again moves it by a fraction."""
        sizes = []

        def on_resized(*_) -> None:
            rect = box.sceneBoundingRect()
            size = (int(rect.width()), int(rect.height()))     # as visible_region counts them
            if not sizes or size != sizes[-1]:
                sizes[:] = [size]
                self.resized.emit()
        box.sigResized.connect(on_resized)

    def zoomable_boxes(self) -> tuple:
        """The ViewBoxes whose range the user may pan and zoom: those whose region goes into the State
        (explorer.ui.views.ranges.fixed_ranges fixes every other)."""
        return ()

    def set_cursor(self, pos: int | None) -> None:
        """Mark position `pos` (None: mark nothing)."""

    def set_readout(self, text: str) -> None:
        self.readout.setText(text)

    def set_colormap(self, name: str) -> None:
        pass

    def set_line_scale(self, scale: float) -> None:
        pass


def zoom_ranges(zoom: tuple, max_len: int, d_model: int) -> tuple[tuple, tuple]:
    """((pos0, pos1), (ch0, ch1)) a State's zoom shows: the whole table where it names no range (a
    zoom of two numbers is positions only, of any view)."""
    return tuple(zoom[0:2]) or (0, max_len), tuple(zoom[2:4]) or (0, d_model)


class ZoomableView(View):
    """A view whose shown region is the State's zoom (heatmap, curves, similarity): it remembers the
    current table size (for stale hover readouts) and which zoom it shows."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._zoom_shown = ()      # the State's zoom last shown (() = the whole table)
        self._table = None         # (max_len, d_model) of the current params, from show_state

    def new_zoom(self, state, params) -> bool:
        """Remember the table size; True (the zoom then counts as shown) when the State's zoom is not
        the one on screen."""
        if params is not None:
            self._table = (params.max_len, params.d_model)
        if state.zoom == self._zoom_shown:
            return False
        self._zoom_shown = state.zoom
        return True

    def stale(self, result) -> bool:
        """True when `result` is of another table size than the current params (a picture one step
        behind a slider): its cells are not read out."""
        return result is None or (self._table is not None
                                  and (result.params.max_len, result.params.d_model) != self._table)


class ImagePlot:
    """A PlotItem holding an ImageItem with a ColorBarItem; y grows downwards (matrix style)."""

    def __init__(self, layout: pg.GraphicsLayoutWidget, row: int, col: int, x_label: str,
                 y_label: str, cmap: str = "CET-D1"):
        self.plot = layout.addPlot(row=row, col=col)
        self.plot.invertY(True)
        self.plot.setLabel("bottom", x_label)
        self.plot.setLabel("left", y_label)
        self.plot.setMenuEnabled(False)
        for side in ("bottom", "left"):      # cells: whole positions and channels (no "position 0.5")
            tick_room.whole_steps(self.plot.getAxis(side))
        self.image = ScreenImage()
        self.plot.addItem(self.image)
        self.bar = pg.ColorBarItem(values=(-1, 1), colorMap=pg.colormap.get(cmap),
                                   interactive=False, width=18)
        self.bar.setImageItem(self.image)
        layout.addItem(self.bar, row=row, col=col + 1)
        span_bar(self.bar, self.plot)
        cache_axes(self.plot, self.bar)
        self._shown = None          # (array, key) last drawn by show()

    def show(self, data, x0: float, y0: float, width: float, height: float,
             levels: tuple[float, float]) -> None:
        """Draw data (rows = y) over the rectangle (x0, y0, width, height) with fixed levels.

        The same array (a cached result: a permutation, a trained table) at the same levels and place
        is not drawn again: each setImage re-colours every pixel (~0.5 ms for 512 x 512)."""
        key = (tuple(levels), (x0, y0, width, height))
        if self._shown is not None and self._shown[0] is data and self._shown[1] == key:
            return
        self._shown = (data, key)
        self.image.setImage(data, autoLevels=False, levels=levels)
        self.image.setRect(QRectF(x0, y0, width, height))
        tick_room.cell_centres(self.plot.getAxis("bottom"), float(x0).is_integer())
        tick_room.cell_centres(self.plot.getAxis("left"), float(y0).is_integer())
        set_bar_levels(self.bar, levels)

    def clear(self) -> None:
        """Show no picture (the next show() draws again)."""
        self._shown = None
        self.image.clear()

    def set_colormap(self, name: str) -> None:
        self.bar.setColorMap(pg.colormap.get(name))


def one_rect_repaints(widget: QWidget) -> None:
    """Every QGraphicsView inside `widget` repaints the bounding rectangle of what changed, not the
    exact region (pyqtgraph's MinimalViewportUpdate).

    A slider step changes most items of a plot, and the exact region of eight curves is a union of
    many rectangles: clipped to it, Qt's raster engine drew each 1 px line ~10x slower than to one
    rectangle (a Curves step in a shown window: ~27 ms against ~16). `view.grab()`, which the bench
    times, paints the whole view either way."""
    from PySide6.QtWidgets import QGraphicsView

    for view in widget.findChildren(QGraphicsView):
        view.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.BoundingRectViewportUpdate)


def line_at(line: pg.InfiniteLine, pos: int | None, offset: float = 0.5) -> None:
    """A cursor line at pos + offset (a cell's centre), hidden when pos is None (no cursor)."""
    line.setVisible(pos is not None)
    if pos is not None:
        line.setPos(pos + offset)


def plain_tick_values(widget: QWidget) -> None:
    """Every axis inside `widget` labels its ticks with the values themselves: pyqtgraph's automatic
    SI prefix put "(x0.001)" on Q·K's mean logit (ticks -40 … 0) and the scale gauge's length."""
    from PySide6.QtWidgets import QGraphicsView

    for view in widget.findChildren(QGraphicsView):
        for item in view.scene().items() if view.scene() is not None else ():
            if isinstance(item, pg.AxisItem) and item.autoSIPrefix:
                item.enableAutoSIPrefix(False)


def cache_axes(*items) -> None:
    """Keep the axes of PlotItems / ColorBarItems, their labels and the title as pixmaps between
    repaints.

    An axis only changes with its range, but Qt replays its text on every repaint (~0.2 ms per
    axis, 10-24 axes per multi-panel view); pyqtgraph's own update() on a range change refreshes
    the pixmap. Each axis also keeps the pictures of its last scales (kept_axis), and vertical
    axes keep the widest text space they needed (see below).
    """
    cached = QGraphicsItem.CacheMode.DeviceCoordinateCache
    for item in items:       # a ColorBarItem is a PlotItem: its scale plus three frame axes
        item.titleLabel.item.setCacheMode(cached)     # text is re-laid out on every repaint
        for name in ("left", "bottom", "right", "top"):
            axis = item.getAxis(name)
            axis.setCacheMode(cached)
            axis.label.setCacheMode(cached)           # the axis label: a child, not in its pixmap
            if isinstance(item, pg.ColorBarItem):
                # its ticks are given (bar_ticks); with an SI prefix on, every level change re-set
                # the label's HTML (~0.15 ms per bar). (Every view's axes lose the prefix when the
                # view is made: plain_tick_values.)
                axis.enableAutoSIPrefix(False)
            keep_pictures(axis)                       # its last few pictures are kept
            if name in ("left", "right"):
                # grow for longer tick labels, never shrink back: a colour bar whose labels go
                # "-0.5" -> "-12.25" -> "-3" would re-lay out the whole canvas on every step
                axis.setStyle(autoReduceTextSpace=False)


def cell_under(plot, scene_pos, rows: int, cols: int, centred: bool = False) -> tuple[int, int] | None:
    """(row, column) of the integer cell under a scene position in `plot` (y = rows, x = columns),
    or None outside the plot or outside [0, rows) x [0, cols). Cell i spans [i, i + 1), or
    [i - 1/2, i + 1/2) when `centred` (an image drawn from -1/2, its ticks on the cells' centres)."""
    vb = plot.getViewBox()
    if not vb.sceneBoundingRect().contains(scene_pos):
        return None
    pt = vb.mapSceneToView(scene_pos)
    half = 0.5 if centred else 0.0
    row, col = math.floor(pt.y() + half), math.floor(pt.x() + half)
    return (row, col) if 0 <= row < rows and 0 <= col < cols else None


def per_pixel_hint(pos_step: int, ch_step: int = 1) -> str:
    """"2 channels per pixel column: …" when a picture averages several rows/columns into one
    pixel (interleaved sin/cos stripes then blend away unseen), else ""."""
    from PySide6.QtCore import QCoreApplication

    parts = []
    if ch_step > 1:
        parts.append(fill(QCoreApplication.translate("View", "%1 channels per pixel column"), str(ch_step)))
    if pos_step > 1:
        parts.append(fill(QCoreApplication.translate("View", "%1 positions per pixel row"), str(pos_step)))
    if not parts:
        return ""
    return QCoreApplication.translate("View", ", ").join(parts) + QCoreApplication.translate(
        "View", " (averaged: zoom in for single values)")

