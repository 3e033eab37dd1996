"""Export what a view shows: PNG at a chosen DPI, SVG, its data (.csv/.npy), the clipboard.

Every file is built in memory and written atomically (temp file + rename), so a failure never
leaves a partial file and an older file of the same name survives. The data is the result's: its
``image`` (heatmap, similarity), its ``lines`` (curves), or its arrays.
"""

from __future__ import annotations

import dataclasses
import html
import os
import re
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPoint, QRect, QSize
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter

from explorer.errors import InputError, msg, require
from explorer.fileio import atomic_write_bytes, save_array
from explorer.ui.views.bar_span import settle as settle_bars

SCREEN_DPI = 96                    # logical DPI: dpi / 96 is the scale applied to the widget
DPI_RANGE = (24, 1200)
MAX_SIDE_PX = 16384                # QImage and most viewers cope up to here
MAX_PIXELS = 200_000_000           # 800 MB of ARGB32
IMAGE_SUFFIXES = (".png", ".svg")
DATA_SUFFIXES = (".csv", ".npy", ".npz")   # .npz: every array the view draws, named


def _suffix(path, allowed: tuple[str, ...], what: str) -> str:
    suffix = Path(path).suffix.lower()
    require(suffix in allowed, "the %1 file must end in %2, not %3", what, " or ".join(allowed),
                               repr(os.fspath(path)))
    return suffix


def check_dpi(dpi) -> float:
    require(isinstance(dpi, (int, float)) and not isinstance(dpi, bool)
            and DPI_RANGE[0] <= dpi <= DPI_RANGE[1],
            "dpi must be between %1 and %2; got %3", DPI_RANGE[0], DPI_RANGE[1], repr(dpi))
    return float(dpi)


@contextmanager
def uncached(view):
    """Paint every plot item afresh while exporting: axes, labels and titles are kept as screen
    pixmaps between repaints, which an SVG would embed as pictures and a 300 dpi PNG would blur."""
    from PySide6.QtWidgets import QGraphicsItem, QGraphicsView

    kept = []
    for gv in view.findChildren(QGraphicsView):
        for item in gv.scene().items():
            if item.cacheMode() != QGraphicsItem.CacheMode.NoCache:
                kept.append((item, item.cacheMode()))
                item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
    try:
        yield
    finally:
        for item, mode in kept:
            item.setCacheMode(mode)


def view_image(view, dpi: float = SCREEN_DPI) -> QImage:
    """The view drawn at dpi / 96 times its on-screen size, white background, DPI metadata set."""
    scale = check_dpi(dpi) / SCREEN_DPI
    size: QSize = view.size()
    w, h = round(size.width() * scale), round(size.height() * scale)
    require(0 < w <= MAX_SIDE_PX and 0 < h <= MAX_SIDE_PX and w * h <= MAX_PIXELS,
            "a %1 x %2 pixel image is too large (at most %3 pixels a side and %4 million in all); lower the dpi or "
            "the size", w, h, MAX_SIDE_PX, MAX_PIXELS // 1_000_000)
    image = QImage(w, h, QImage.Format.Format_ARGB32_Premultiplied)
    if image.isNull():
        raise InputError(msg("not enough memory for a %1 x %2 pixel image; lower the dpi", w, h))
    image.setDevicePixelRatio(scale)
    image.fill(QColor("white"))
    settle_bars()                        # no event loop may have turned since the last resize
    painter = QPainter(image)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        with uncached(view):
            view.render(painter, QPoint())
    finally:
        painter.end()
    dpm = round(float(dpi) / 0.0254)
    image.setDotsPerMeterX(dpm)
    image.setDotsPerMeterY(dpm)
    return image


def png_bytes(image: QImage) -> bytes:
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    ok = image.save(buf, "PNG")
    buf.close()
    require(ok, "Qt could not encode the PNG image")
    return bytes(data.data())


def svg_bytes(view, title: str = "PE Explorer") -> bytes:
    """The view painted into an SVG document (plots as vectors, images embedded)."""
    from PySide6.QtSvg import QSvgGenerator

    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    size = view.size()
    gen = QSvgGenerator()
    gen.setOutputDevice(buf)
    gen.setSize(size)
    gen.setViewBox(QRect(0, 0, size.width(), size.height()))
    gen.setResolution(SCREEN_DPI)
    gen.setTitle(title)
    gen.setDescription("Exported by PE Explorer")
    settle_bars()
    painter = QPainter(gen)
    try:
        painter.fillRect(QRect(0, 0, size.width(), size.height()), QColor("white"))
        with uncached(view):
            view.render(painter, QPoint())
    finally:
        painter.end()
    buf.close()
    out = bytes(data.data())
    require(out.strip().endswith(b"</svg>"), "Qt could not write the SVG document")
    return _pin_text_widths(out)


_TEXT = re.compile(rb'<text ([^>]*)>([^<]*)</text>')


def _pin_text_widths(svg: bytes) -> bytes:
    """Give every <text> the width Qt laid it out with (textLength), so a viewer lacking our
    fonts (the bundled CJK subset) squeezes its substitute instead of overlapping the next run."""
    from PySide6.QtGui import QFont, QFontMetricsF

    def fix(m: re.Match) -> bytes:
        attrs, body = m.group(1).decode("utf-8"), m.group(2).decode("utf-8")
        text = html.unescape(body)
        if not text.strip() or "textLength" in attrs:
            return m.group(0)
        found = dict(re.findall(r'([\w-]+)="([^"]*)"', attrs))
        font = QFont()
        font.setFamilies(found.get("font-family", "").split(","))
        font.setPixelSize(max(1, round(float(found.get("font-size", "12")))))
        font.setWeight(QFont.Weight(int(found.get("font-weight", "400"))))
        width = QFontMetricsF(font).horizontalAdvance(text)
        if width <= 0:     # a run of only a zero-width character (the word joiner of keep_together,
            return m.group(0)   # given its own run once a fallback font is loaded): nothing to pin
        pinned = f'{attrs} textLength="{width:.2f}" lengthAdjust="spacingAndGlyphs"'
        return f"<text {pinned}>{body}</text>".encode("utf-8")

    return _TEXT.sub(fix, svg)


def export_view_png(view, path, dpi: float = SCREEN_DPI) -> Path:
    """Write the view as a PNG at `dpi` (96 = on-screen size); returns the path."""
    _suffix(path, (".png",), msg("image"))
    return atomic_write_bytes(path, png_bytes(view_image(view, dpi)))


def export_view_svg(view, path) -> Path:
    """Write the view as an SVG document; returns the path."""
    _suffix(path, (".svg",), msg("image"))
    return atomic_write_bytes(path, svg_bytes(view, getattr(view, "title", "PE Explorer")))


def export_view_image(view, path, dpi: float = SCREEN_DPI) -> Path:
    """PNG or SVG by the file's suffix."""
    if _suffix(path, IMAGE_SUFFIXES, msg("image")) == ".svg":
        return export_view_svg(view, path)
    return export_view_png(view, path, dpi)


def _curve_table(result) -> tuple[np.ndarray, str]:
    lines = result.lines
    require(len(lines) > 0, "the curves view shows no curves to export")
    m = max(len(line.x) for line in lines)
    table = np.full((m, 1 + len(lines)), np.nan)                     # (m, 1 + lines)
    longest = max(lines, key=lambda line: len(line.x))
    table[:, 0] = longest.x
    for j, line in enumerate(lines):
        table[:len(line.y), j + 1] = line.y
    names = ", ".join(f"{line.kind} pair {line.pair} (wavelength {line.wavelength:.6g})"
                      for line in lines)
    note = ("; each position appears twice: the min and max over "
            f"{result.pos_step} positions" if result.pos_step > 1 else "")
    return table, f"position, {names}{note}"


def _first_arrays(result, title: str) -> tuple[np.ndarray, str]:
    """Fallback: the result's first array field; 1-D fields of its length become columns."""
    found = [(f.name, getattr(result, f.name)) for f in dataclasses.fields(result)
             if isinstance(getattr(result, f.name), np.ndarray)] \
        if dataclasses.is_dataclass(result) else []
    require(bool(found), "the %1 view has no array data to export", title)
    name, first = found[0]
    if first.ndim != 1:
        return first, name
    cols = [(n, a) for n, a in found if a.ndim == 1 and len(a) == len(first)]
    return np.stack([a for _, a in cols], axis=1), ", ".join(n for n, _ in cols)  # (m, cols)


def view_arrays(view) -> tuple[np.ndarray, str]:
    """(the array the view draws, a one-line description of its rows and columns)."""
    result = getattr(view, "result", None)
    require(result is not None, "the view has no result yet; wait until it is drawn")
    if hasattr(result, "lines"):
        return _curve_table(result)
    image = getattr(result, "image", None)
    if not isinstance(image, np.ndarray):
        return _first_arrays(result, getattr(view, "title", "view"))
    step = getattr(result, "pos_step", 1)
    rows = f"rows: positions from {getattr(result, 'pos0', 0)} in steps of {step}"
    if step > 1:
        rows += " (each row is the mean over its block)"
    if hasattr(result, "ch_step"):
        cols = f"columns: channels from {result.ch0} in steps of {result.ch_step}"
    else:
        cols = "columns: positions, like the rows"
    return image, f"{rows}; {cols}"


def export_view_data(view, path) -> Path:
    """Write the view's current result array as .npy or .csv (with a # header line), or every array
    of its result as .npz (the same file `pe-explorer export view` writes headless)."""
    suffix = _suffix(path, DATA_SUFFIXES, msg("data"))
    if suffix == ".npz":
        from explorer.compute.arrays import npz_bytes, result_arrays

        result = getattr(view, "result", None)
        require(result is not None, "the view has no result yet; wait until it is drawn")
        return atomic_write_bytes(path, npz_bytes(result_arrays(result)))
    array, header = view_arrays(view)
    return save_array(path, array, header)          # the header goes into a .csv only


def copy_view_image(view, dpi: float = SCREEN_DPI) -> QImage:
    """Put the view's picture on the clipboard; returns the image."""
    image = view_image(view, dpi)
    QGuiApplication.clipboard().setImage(image)
    return image
