"""An image's position axis labels at least two ticks wherever its width has room for two.

pyqtgraph 0.14 draws no label of a horizontal axis that sticks out of the axis (AxisItem.generateDrawSpecs with
hideOverlappingLabels), and tick_room spaces the labels a label's width apart: the ALiBi view's bias images, about
105 px wide at 1280 x 800, labelled a span of 1024 positions "500" alone (its "0" and "1000" stuck out), and 100
positions "50" alone. Here such an axis is given its ticks: the multiples of the smallest 1, 2 or 5 x 10^k step whose
labels lie two digits apart, each inside the axis or at most one digit past its ends (the "0" on the left edge), at
least two wherever a step gives two; again when the axis is resized (label_room calls `on_resized`), as the colour
bars' ticks are (ranges.set_bar_levels). Tick v sits on its cell's centre, v + 1/2, as tick_room.cell_centres puts it.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pyqtgraph as pg

from explorer.ui.views.tick_room import tick_metrics


def span_values(span: int, width: float, advance: Callable[[str], float], digit: float) -> list[int]:
    """The labelled positions of an axis showing cells 0 .. span - 1 over `width` px (`advance`: a label's width,
    `digit`: one digit's): the multiples of the smallest 1, 2, 5 x 10^k step that are at most one digit past the
    axis's ends and two digits apart, the first such step with two of them; [] for an axis not laid out."""
    if span <= 0 or not 0 < width < math.inf:
        return []
    per_cell, best = width / span, []
    for step in _steps(span):
        if step * per_cell < 3 * digit:     # two labels of one digit and two digits between: none can be apart
            continue                        # (and 10,000,000 cells of step 1 took minutes)
        fitting = []
        for v in range(0, span, step):
            centre, half = (v + 0.5) * per_cell, advance(str(v)) / 2
            if centre - half >= -digit and centre + half <= width + digit:
                fitting.append((v, centre, half))
        apart = all(b[1] - a[1] >= a[2] + b[2] + 2 * digit for a, b in zip(fitting, fitting[1:]))
        if apart and len(fitting) >= 2:
            return [v for v, _, _ in fitting]
        if apart and len(fitting) > len(best):
            best = [v for v, _, _ in fitting]
    return best


def _steps(span: int):
    """1, 2, 5, 10, 20, ... up to the first step of at least `span`."""
    decade = 1
    while True:
        for m in (1, 2, 5):
            yield m * decade
            if m * decade >= span:
                return
        decade *= 10


def span_ticks(axis: pg.AxisItem, span: int) -> None:
    """Label the horizontal `axis` of an image of `span` cells (from 0) with span_values' positions, now and after
    each resize."""
    axis._span_cells = int(span)
    axis.on_resized = lambda: _fit(axis)
    _fit(axis)


def _fit(axis: pg.AxisItem) -> None:
    metrics = tick_metrics(axis)
    digit = metrics.horizontalAdvance("0")
    width = axis.size().width()
    key = (axis._span_cells, round(width, 1), digit)
    if getattr(axis, "_span_key", None) == key:          # (a new tick list re-draws the axis)
        return
    axis._span_key = key
    room = math.ceil(digit)
    if axis.style.get("hideOverlappingLabels") != room:
        axis.setStyle(hideOverlappingLabels=room)        # a label may pass the axis's ends by one digit
    values = span_values(axis._span_cells, width, metrics.horizontalAdvance, digit)
    axis.setTicks([[(v + 0.5, str(v)) for v in values], []] if values else None)
