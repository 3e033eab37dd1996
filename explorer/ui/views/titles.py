"""Plot titles and labels that follow the presentation scale (F11): set once per text and scale,
their rows sized to fit (Chinese rows at least a CJK line high). No maths here."""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from explorer.ui.i18n import current_language


TITLE_PT = 9.0                 # plot titles at scale 1, in points
_text_scale = [1.0]            # the presentation scale every plot text follows (presentation.py)


def set_text_scale(scale: float) -> None:
    """The presentation scale: titles and labels set from now on are drawn `scale` times larger."""
    _text_scale[0] = float(scale)


def text_scale() -> float:
    return _text_scale[0]


def scaled_pt(points) -> str:
    """"9pt" (or 9) at scale 1 as a size string at the current presentation scale."""
    return f"{_points(points) * _text_scale[0]:.0f}pt"


def _points(size) -> float:
    return float(str(size).removesuffix("pt")) if size is not None else TITLE_PT


def scaled_label(text: str, size) -> pg.LabelItem:
    """A LabelItem of `size` points at scale 1 that the presentation scale keeps in proportion."""
    item = pg.LabelItem(text, size=scaled_pt(size))
    item._base_pt = _points(size)
    return item


def set_title(plot, text: str, size=None, free_width: bool = False, **style) -> None:
    """plot.setTitle at `size` points x the presentation scale (default TITLE_PT), only when the
    text or scale changes: each call re-lays out the plot (~1 ms). free_width: the title's text does
    not widen its column (see free_title_width; for short titles that change with every step)."""
    key = (text, _points(size), _text_scale[0], tuple(sorted(style.items())))
    shown = getattr(plot, "_shown_title", None)
    if shown == key:
        return
    plot._shown_title = key
    plot.titleLabel._base_pt = _points(size)
    plot.titleLabel._plot = plot
    if not text:
        plot.setTitle(None)            # no empty 30 px band above the plot
        return
    if free_width and not getattr(plot.titleLabel, "_width_free", False):
        free_title_width(plot.titleLabel)
    elif shown is not None and shown[0] and shown[1:] == key[1:] and _retitled_in_place(plot.titleLabel, text):
        return
    plot.setTitle(text, size=scaled_pt(size), **style)
    fit_title_row(plot)


def _retitled_in_place(label: pg.LabelItem, text: str) -> bool:
    """A shown title's new text in the same style, set without re-laying out the canvas when it needs no
    more room than the title has: no taller, and (unless its width is free) no wider than its minimum
    width. True when done so; False (the text set, its room not yet asked for) when it needs more.
    A title with a number that moves with each step (Learned's "base 9862") re-laid out every panel and
    axis of its canvas: ~0.4 ms to set and ~0.5 ms more to draw on a 2-core EPYC."""
    if not label.isVisible():
        return False
    height, width = label.itemRect().height(), label.minimumWidth()
    own = {name: label.__dict__[name] for name in ("updateMin", "updateGeometry") if name in label.__dict__}
    label.updateMin = label.updateGeometry = lambda: None      # LabelItem.setText asks for room twice
    try:
        label.setText(text)
    finally:
        for name in ("updateMin", "updateGeometry"):
            if name in own:
                setattr(label, name, own[name])
            else:
                delattr(label, name)
    rect = label.itemRect()
    return rect.height() == height and (getattr(label, "_width_free", False) or rect.width() <= width)


def free_title_width(label: pg.LabelItem) -> None:
    """Let a plot title's text not size its column (the plot below it does): a title that changes
    with every step (ALiBi's "head 3: m = 1/8") would otherwise re-lay out every panel of the canvas,
    and every axis would redraw. Only for titles shorter than their plot: a longer one would run
    under the next column. pyqtgraph's LabelItem.updateMin (called on each setText and
    resize) asks for the text's width; this one asks for its height only."""
    def update_min() -> None:
        height = label.itemRect().height()
        label.setMinimumWidth(0)
        label.setMinimumHeight(height)
        label._sizeHint = {Qt.SizeHint.MinimumSize: (0, height), Qt.SizeHint.PreferredSize: (0, height),
                           Qt.SizeHint.MaximumSize: (-1, -1), Qt.SizeHint.MinimumDescent: (0, 0)}
        label.updateGeometry()

    label.updateMin = update_min
    label._width_free = True


def title_over_axis(plot: pg.PlotItem) -> None:
    """The plot's title spans its left axis as well as its view box: a short panel's title (ALiBi's
    "head 12: m = 0.04419" in presentation mode, the PCA row's two-line titles) otherwise ran past
    the view box into the next column or off the canvas."""
    plot.layout.removeItem(plot.titleLabel)
    plot.layout.addItem(plot.titleLabel, 0, 0, 1, 3)


def fit_title_row(plot) -> None:
    """pyqtgraph fixes the title row at 30 px: at 2x-3x the title would be cut; make it fit."""
    if not plot.titleLabel.isVisible():
        return
    need = max(30, math.ceil(_title_height(plot.titleLabel)) + 2)
    plot.titleLabel.setMaximumHeight(need)
    plot.layout.setRowFixedHeight(0, need)
    _keep_equal_width(plot)


def equal_width(plot, width: float) -> None:
    """Panels of one row `width` px wide each, whatever their titles (with equal column stretch), unless a
    panel needs more: Qt caps an item's minimum at an explicit preferred width, so a plain
    setPreferredWidth(200) let a wider title's panel be squeezed under what its own layout needs, and its
    view box ran under the next colour bar (Check's "difference: yours − reference" in F11 at 1280 px)."""
    plot._equal_width = width
    _keep_equal_width(plot)


def _keep_equal_width(plot) -> None:
    width = getattr(plot, "_equal_width", None)
    if width is not None:
        plot.setPreferredWidth(max(width, plot.layout.effectiveSizeHint(Qt.SizeHint.MinimumSize).width()))


_CJK_LINE: dict = {}     # (label options, application font) -> the height of a CJK title line


def _title_height(label: pg.LabelItem) -> float:
    """The title's drawn height; in Chinese at least that of a CJK line in the same style: the
    fallback font's line is taller, and a Latin-only title ("t2t / fairseq") sat 4-5 px higher
    than its neighbours in F11."""
    height = label.item.boundingRect().height()
    if not current_language().startswith("zh"):
        return height
    key = (tuple(sorted((k, str(v)) for k, v in label.opts.items())), QApplication.font().key())
    if key not in _CJK_LINE:
        probe = pg.LabelItem("国", **label.opts)        # held: its text item dies with it
        _CJK_LINE[key] = probe.item.boundingRect().height()
    return max(height, _CJK_LINE[key])


def rescale_labels(scene) -> None:
    """Redraw every LabelItem made by set_title / scaled_label at the current presentation scale."""
    for item in scene.items():
        base = getattr(item, "_base_pt", None)
        if base is None:
            continue
        if isinstance(item, pg.LegendItem):      # its entries, and those added later
            item.opts["labelTextSize"] = scaled_pt(base)
            for _sample, label in item.items:
                label.setText(label.text, size=scaled_pt(base))
        elif isinstance(item, pg.LabelItem) and item.text:
            item.setText(item.text, size=scaled_pt(base))
            if getattr(item, "_plot", None) is not None:
                fit_title_row(item._plot)
