"""View exports: PNG at a DPI, SVG, CSV/NPY equal to the view's result, clipboard, atomic writes."""

import os
import struct
import unicodedata
import xml.etree.ElementTree as ET
import zlib

import numpy as np
import pytest

from explorer import fileio
from explorer.errors import InputError
from explorer.ui.export import (copy_view_image, export_view_data, export_view_image,
                                export_view_png, export_view_svg, view_arrays)


def png_chunks(data: bytes) -> dict:
    """{chunk type: payload} of a PNG file; checks the signature and every CRC."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    out, i = {}, 8
    while i < len(data):
        (length,) = struct.unpack(">I", data[i:i + 4])
        kind, body = data[i + 4:i + 8], data[i + 8:i + 8 + length]
        (crc,) = struct.unpack(">I", data[i + 8 + length:i + 12 + length])
        assert crc == zlib.crc32(kind + body) & 0xFFFFFFFF
        out[kind.decode()] = body
        i += 12 + length
    assert "IEND" in out
    return out


def show(window, name):
    window.tabs.setCurrentIndex(list(window.views).index(name))
    window.controller.wait_idle()
    view = window.views[name]
    assert view.result is not None
    return view


def test_png_has_the_size_and_dpi_asked_for(window, tmp_path):
    view = show(window, "heatmap")
    for dpi in (96, 192, 300):
        path = export_view_png(view, tmp_path / f"h{dpi}.png", dpi=dpi)
        chunks = png_chunks(path.read_bytes())
        w, h = struct.unpack(">II", chunks["IHDR"][:8])
        assert (w, h) == (round(view.width() * dpi / 96), round(view.height() * dpi / 96))
        x, y, unit = struct.unpack(">IIB", chunks["pHYs"])
        assert unit == 1 and abs(x * 0.0254 - dpi) < 0.5 and x == y


def test_png_shows_the_picture_not_a_blank(window, tmp_path, qtbot):
    from PySide6.QtGui import QImage

    view = show(window, "heatmap")
    image = QImage(str(export_view_png(view, tmp_path / "h.png")))
    colours = {image.pixel(x, y) for x in range(0, image.width(), 7)
               for y in range(0, image.height(), 7)}
    assert len(colours) > 50                    # a heatmap, not an empty widget


def test_svg_is_xml_with_the_plot_inside(window, tmp_path):
    view = show(window, "curves")
    path = export_view_svg(view, tmp_path / "c.svg")
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg")
    tags = {el.tag.split("}")[-1] for el in root.iter()}
    assert "path" in tags or "polyline" in tags
    assert path.read_bytes().count(b"<path") + path.read_bytes().count(b"<polyline") > 5
    texts = [el for el in root.iter() if el.tag.endswith("text") and (el.text or "").strip()]
    # a lone word joiner (zero width: a run of its own once a fallback font is loaded) is not pinned
    visible = [el for el in texts if any(unicodedata.category(ch) != "Cf" for ch in el.text.strip())]
    assert visible and all(float(el.get("textLength")) > 0 for el in visible)   # widths pinned
    assert all(el.get("textLength") is None for el in texts if el not in visible)
    label = next(el for el in texts if (el.text or "").startswith("position p"))
    assert 40 < float(label.get("textLength")) < 120          # "position p" at ~12 px


def test_svg_has_the_axes_and_colour_bar_as_text_and_the_screen_caches_come_back(window, tmp_path):
    """Axes, labels and titles are pixmaps between repaints on screen; an export paints them
    afresh, so their text is SVG text (not embedded pictures), then the caches return."""
    from PySide6.QtWidgets import QGraphicsItem

    view = show(window, "similarity")
    axis = view.panel.bar.axis
    assert axis.cacheMode() == QGraphicsItem.CacheMode.DeviceCoordinateCache
    root = ET.parse(export_view_svg(view, tmp_path / "s.svg")).getroot()
    texts = {(el.text or "").strip() for el in root.iter() if el.tag.endswith("text")}
    assert {"-0.5", "0.5", "cosine similarity"} <= texts               # bar ticks, the title
    assert "offset k = q − p" in texts                                 # an axis label
    assert axis.cacheMode() == QGraphicsItem.CacheMode.DeviceCoordinateCache


def test_npy_and_csv_equal_the_image_the_view_draws(window, tmp_path):
    for name in ("heatmap", "similarity"):
        view = show(window, name)
        npy = np.load(export_view_data(view, tmp_path / "a.npy"), allow_pickle=False)
        np.testing.assert_array_equal(npy, view.result.image)
        assert npy.dtype == view.result.image.dtype
        csv = np.loadtxt(export_view_data(view, tmp_path / "a.csv"), delimiter=",", ndmin=2)
        np.testing.assert_array_equal(csv.astype(np.float32), view.result.image)
        assert (tmp_path / "a.csv").read_text().startswith("# rows: positions")


def test_curves_table_has_x_then_each_line(window, tmp_path):
    view = show(window, "curves")
    table = np.load(export_view_data(view, tmp_path / "c.npy"))
    lines = view.result.lines
    assert table.shape == (len(lines[0].x), 1 + len(lines))
    np.testing.assert_array_equal(table[:, 0], lines[0].x)
    for j, line in enumerate(lines):
        np.testing.assert_array_equal(table[:, j + 1], line.y)
    header = (tmp_path / "c.csv")
    export_view_data(view, header)
    assert "sin pair 0" in header.read_text().splitlines()[0]


def test_data_follows_the_parameters(window, tmp_path):
    view = show(window, "heatmap")
    window.controller.update(d_model=16, max_len=40)
    window.controller.wait_idle()
    data = np.load(export_view_data(view, tmp_path / "h.npy"))
    assert data.shape == (40, 16)
    ref = np.zeros((40, 16))                                    # float64 oracle
    pos, i = np.arange(40)[:, None], np.arange(8)[None, :]
    ref[:, 0::2] = np.sin(pos / 10000.0 ** (2 * i / 16))
    ref[:, 1::2] = np.cos(pos / 10000.0 ** (2 * i / 16))
    np.testing.assert_allclose(data, ref, atol=1e-6)


def test_image_dispatch_and_bad_suffixes(window, tmp_path):
    view = show(window, "heatmap")
    assert export_view_image(view, tmp_path / "a.svg").read_bytes().lstrip().startswith(b"<?xml")
    assert export_view_image(view, tmp_path / "a.PNG").read_bytes()[:4] == b"\x89PNG"
    for call, name in ((export_view_image, "c.jpg"), (export_view_png, "d.svg"),
                       (export_view_svg, "e.png"), (export_view_data, "f.txt")):
        with pytest.raises(InputError, match="must end in"):
            call(view, tmp_path / name)
        assert not (tmp_path / name).exists()
    with pytest.raises(InputError, match="dpi"):
        export_view_png(view, tmp_path / "b.png", dpi=5000)
    with pytest.raises(InputError, match="does not exist"):
        export_view_png(view, tmp_path / "missing" / "b.png")


def test_failed_write_keeps_the_old_file_and_leaves_no_temp(window, tmp_path, monkeypatch):
    view = show(window, "heatmap")
    for name in ("h.png", "h.svg", "h.npy", "h.csv"):
        (tmp_path / name).write_bytes(b"old contents")

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fileio.os, "replace", broken_replace)
    for name, call in (("h.png", export_view_png), ("h.svg", export_view_svg),
                       ("h.npy", export_view_data), ("h.csv", export_view_data)):
        with pytest.raises(InputError, match="No space left"):
            call(view, tmp_path / name)
        assert (tmp_path / name).read_bytes() == b"old contents"
    assert sorted(os.listdir(tmp_path)) == ["h.csv", "h.npy", "h.png", "h.svg"]


def test_copy_image_puts_the_picture_on_the_clipboard(window):
    from PySide6.QtGui import QGuiApplication

    view = show(window, "similarity")
    image = copy_view_image(view)
    got = QGuiApplication.clipboard().image()
    assert not got.isNull()
    assert (got.width(), got.height()) == (image.width(), image.height()) == \
        (view.width(), view.height())


def test_a_view_without_a_result_has_no_data(qtbot):
    from explorer.ui.views.heatmap import HeatmapView

    view = HeatmapView()
    qtbot.addWidget(view)
    with pytest.raises(InputError, match="no result"):
        view_arrays(view)


def test_extra_views_export_their_arrays(qtbot, tmp_path):
    from explorer.params import Params
    from explorer.ui.views.frequencies import FrequenciesView
    from explorer.ui.views.offset import OffsetView

    params = Params(d_model=32, max_len=64, base=100.0)
    from explorer import catalogue

    freq, off = FrequenciesView(), OffsetView()
    for name, view in (("frequencies", freq), ("offset", off)):
        qtbot.addWidget(view)
        view.set_result(catalogue.entry(name).run(params))
    table = np.load(export_view_data(freq, tmp_path / "f.npy"))
    r = freq.result
    np.testing.assert_array_equal(table, np.stack([r.index, r.w, r.wavelength], axis=1))
    np.testing.assert_allclose(table[:, 1], 100.0 ** (-2 * np.arange(16) / 32))   # float64 oracle
    export_view_data(freq, tmp_path / "f.csv")
    assert (tmp_path / "f.csv").read_text().startswith("# index, w, wavelength")
    rot = np.load(export_view_data(off, tmp_path / "o.npy"))
    np.testing.assert_array_equal(rot, off.result.rotation)
