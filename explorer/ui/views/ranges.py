"""Ranges, colour levels and ticks that stay put while a slider moves (so cached axes are not redrawn)."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg

from explorer.ui.views import label_room  # noqa: F401 (its axis resize calls a bar's on_resized)
from explorer.ui.views.tick_room import ROOM, label_height, tick_metrics


def set_bar_levels(bar: pg.ColorBarItem, levels) -> None:
    """bar.setLevels only when the levels change, with its ticks given (bar_ticks): pyqtgraph's
    own three tick levels cost ~2 ms per redraw of a colour bar's axis. As many ticks as the bar's
    height has room for (bar_room), again when it is resized."""
    levels = tuple(float(v) for v in levels)
    if getattr(bar, "_shown_levels", None) != levels:
        bar._shown_levels = levels
        bar.setLevels(levels)
        bar.axis.on_resized = lambda: _bar_ticks(bar)      # label_room's resize calls it
    _bar_ticks(bar)


def _bar_ticks(bar: pg.ColorBarItem) -> None:
    key = (bar._shown_levels, bar_room(bar.axis))
    if getattr(bar, "_shown_ticks", None) != key:
        bar._shown_ticks = key
        ticks = bar_ticks(*key[0], most=key[1])
        bar.axis.setTicks(ticks)
        room_for_labels(bar.axis, [text for _, text in ticks[0]])


def bar_room(axis: pg.AxisItem, most: int = 6) -> int:
    """How many labelled ticks a colour bar's axis has room for, ROOM label heights apart, 2 to
    `most` (before it is laid out: `most`). A 40 px bar at 1.5x (the lesson's Learned tables in
    1280 x 800) stacked "0.5", "0" and "-0.5" on top of each other."""
    height = axis.size().height()
    if height <= 0:
        return most
    return max(2, min(most, int(height // (ROOM * label_height(axis))) + 1))


def room_for_labels(axis: pg.AxisItem, labels: list[str]) -> None:
    """Widen a fixed-width vertical axis (a colour bar's is 45 px, pyqtgraph's ColorBarItem) to
    fit `labels`: pyqtgraph draws no label that sticks out of its axis, so a bar of ±0.0005
    ("-0.0004") showed only its "0". Never narrowed: the layout stays put while a slider moves."""
    if axis.fixedWidth is None or not labels:
        return
    metrics = tick_metrics(axis)
    needed = (max(metrics.horizontalAdvance(t) for t in labels) + max(0, axis.style["tickLength"])
              + axis.style["tickTextOffset"][0] + 2)
    if needed > axis.fixedWidth:
        axis.setWidth(math.ceil(needed))


def bar_ticks(lo: float, hi: float, most: int = 6) -> list[list[tuple[float, str]]]:
    """A colour bar's labelled ticks: the multiples of the smallest 1, 2, 2.5 or 5 x 10^k step that
    gives at most `most` ticks in [lo, hi] (pyqtgraph's major ticks, without its minor levels)."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return [[]]
    step = _tick_step(lo, hi, max(most, 2))
    if step is None or (most <= 2 and lo < 0 < hi):
        return [_end_ticks(lo, hi)]
    e = 10.0 ** math.floor(math.log10(step) + 1e-9)
    places = max(0, -math.floor(math.log10(step) + 1e-9)) + (1 if round(step / e, 6) == 2.5 else 0)
    first = math.ceil(lo / step - 1e-9)
    figures = max(3, math.floor(math.log10(max(abs(lo), abs(hi)))) - math.floor(math.log10(step) + 1e-9) + 2)
    ticks = []
    for k in range(first, first + most + 1):
        v = k * step
        if v > hi + step * 1e-9:
            break
        if abs(v) < step * 1e-9:
            text = "0"
        elif abs(v) < 1e5 and places <= 6:      # (0.8531 … 0.8533 read "0.853" four times)
            text = f"{v:.{places}f}".rstrip("0").rstrip(".") if places else f"{v:.0f}"
        else:                                    # as many figures as the step needs
            text = f"{v:.{figures}g}"
        ticks.append((v, text))
    return [ticks]


def _end_ticks(lo: float, hi: float) -> list[tuple[float, str]]:
    """Two labels at the ends: across zero rounded in to 1, 2, 2.5 or 5 x 10^k (-0.05 and 0.05 for
    ±0.0733), else the ends themselves, with as many figures as tell them apart (0.25 was put
    below 0.376 for [0.376, 0.467])."""
    if lo < 0 < hi:
        return [(v, f"{v:.3g}") for v in (-_nice_below(-lo), _nice_below(hi))]
    for figures in range(3, 10):
        texts = [f"{v:.{figures}g}" for v in (lo, hi)]
        if texts[0] != texts[1]:
            break
    return [(lo, "0" if lo == 0 else texts[0]), (hi, "0" if hi == 0 else texts[1])]


def _tick_step(lo: float, hi: float, most: int) -> float | None:
    """The 1, 2, 2.5 or 5 x 10^k step for [lo, hi]: the smallest that cannot give more than `most`
    ticks wherever they fall; when that leaves fewer than two, the smallest whose multiples, counted
    where they fall, are 2 to `most`: ±0.0733 with room for three has 0.05 (-0.05, 0, 0.05), not
    0.1 (a lone "0")."""
    raw = (hi - lo) / max(most - 1, 1)
    e = 10.0 ** math.floor(math.log10(raw))
    steps = [f * e * scale for scale in (0.1, 1.0, 10.0, 100.0) for f in (1.0, 2.0, 2.5, 5.0)]
    counts = [math.floor(hi / step + 1e-9) - math.ceil(lo / step - 1e-9) + 1 for step in steps]
    safe = next(i for i, step in enumerate(steps) if step >= raw * (1 - 1e-9))
    if counts[safe] >= 2:
        return steps[safe]
    return next((step for step, count in zip(steps, counts) if 2 <= count <= most), None)


def _nice_below(x: float) -> float:
    """The largest 1, 2, 2.5 or 5 x 10^k not above x > 0."""
    e = 10.0 ** math.floor(math.log10(x))
    return max(f * e for f in (1.0, 2.0, 2.5, 5.0) if f * e <= x * (1 + 1e-9))


NICE = (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)


def nice_ceil(m: float) -> float:
    """The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^k that is >= m (m > 0)."""
    e = 10.0 ** math.floor(math.log10(m))
    return next(f * e for f in NICE if f * e >= m * (1 - 1e-12))


def nice_levels(m: float, floor: float = 1e-12) -> tuple[float, float]:
    """(-n, n), n = nice_ceil(m) (at least `floor`): a diverging map's levels for values within ±m."""
    n = nice_ceil(max(m, floor)) if math.isfinite(m) else 1.0
    return (-n, n)


def symmetric_levels(data, floor: float = 1e-12) -> tuple[float, float]:
    """(-m, m), m the largest |value| rounded up to a nice number: 0 stays at the centre of a
    diverging map, and the colour bar's ticks stay put while a slider moves (at most 20% of the
    colour range goes unused)."""
    m = float(np.abs(data).max()) if data.size else 1.0
    if not math.isfinite(m):      # NaN or ±inf in it (a damaged checkpoint): the finite values set it
        finite = np.abs(data[np.isfinite(data)])
        m = float(finite.max()) if finite.size else 1.0
    return nice_levels(m, floor)


def nice_span(lo: float, hi: float) -> tuple[float, float]:
    """[lo, hi] widened to "nice" ends (1, 1.2, 1.5, 2, ... x 10^k away from 0), so a range set from
    changing data stays put while a slider moves (and the cached axes are not redrawn)."""
    def out(v: float, up: bool) -> float:
        if v == 0 or not math.isfinite(v):
            return 0.0
        m = nice_ceil(abs(v)) if (v > 0) == up else _nice_floor(abs(v))
        return m if v > 0 else -m
    lo, hi = (lo, hi) if lo <= hi else (hi, lo)
    a, b = out(lo, False), out(hi, True)
    return (a, b) if b > a else (a - 1.0, a + 1.0)


def labelled_span(lo: float, hi: float) -> tuple[float, float]:
    """nice_span(lo, hi) widened to whole steps of the ticks bar_ticks gives it, so that a colour
    bar's both ends carry a label (-120 took steps of 25: its end was unnamed; -125 is named)."""
    a, b = nice_span(lo, hi)
    for _ in range(3):                 # a wider span can take a coarser step: until it holds
        ticks = bar_ticks(a, b)[0]
        if len(ticks) < 2:
            break
        step = ticks[1][0] - ticks[0][0]
        wide = (step * math.floor(a / step + 1e-9), step * math.ceil(b / step - 1e-9))
        if wide == (a, b) or (math.isclose(wide[0], a) and math.isclose(wide[1], b)):
            break
        a, b = wide
    return a, b


def _nice_floor(m: float) -> float:
    """The largest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^k that is <= m (m > 0)."""
    e = 10.0 ** math.floor(math.log10(m))
    return next(f * e for f in reversed(NICE) if f * e <= m * (1 + 1e-12))


HELD_FILL = 0.5   # a held span is kept while the data still spans at least this fraction of it


def held_span(plot, axis: str, lo: float, hi: float, fill: float = HELD_FILL) -> tuple[float, float]:
    """nice_span(lo, hi), or the span this gave last for (plot, axis) while [lo, hi] still lies
    inside it and spans at least `fill` of it. Data that moves a little with each slider step
    crossed a nice end every few steps, and each new span redrew the axis (~1-2 ms)."""
    key = "_held_" + axis
    last = getattr(plot, key, None)
    if last is not None and last[0] <= lo and hi <= last[1] and hi - lo >= fill * (last[1] - last[0]):
        return last
    span = nice_span(lo, hi)
    setattr(plot, key, span)
    return span


def steady_range(plot, x: tuple[float, float] | None = None, y: tuple[float, float] | None = None) -> None:
    """Set a plot's range only when it differs from the one set last (autorange every frame
    redraws the axes: ~2-15 ms)."""
    key = (x, y)
    if getattr(plot, "_steady_range", None) == key:
        return
    plot._steady_range = key
    plot.disableAutoRange()
    plot.setRange(xRange=x, yRange=y, padding=0.02)


def set_extent(plot, x: tuple[float, float] | None = None, y: tuple[float, float] | None = None,
               padding: float = 0.0) -> None:
    """plot.setRange(xRange=x, yRange=y, padding=padding) unless that is the range set last: a
    view that sets its panels' fixed extents on every draw paid ~0.3 ms per panel per frame (and
    an axis redraw, when the range had been panned)."""
    key = (x, y, padding)
    if getattr(plot, "_extent_set", None) == key:
        return
    plot._extent_set = key
    plot.setRange(xRange=x, yRange=y, padding=padding)


def forget_extent(plot) -> None:
    """The next set_extent of `plot` sets its range even when it is the one set last: the range has moved
    since by other means (an auto-range)."""
    plot._extent_set = None


def decades(values) -> tuple[float, float]:
    """The whole powers of ten around the positive values, as a log axis's range (log10 units)."""
    v = np.asarray(values, dtype=np.float64)
    v = v[np.isfinite(v) & (v > 0)]
    if not v.size:
        return (0.0, 1.0)
    lo, hi = math.floor(math.log10(v.min())), math.ceil(math.log10(v.max()))
    return (float(lo), float(max(hi, lo + 1)))


def fixed_ranges(view) -> None:
    """Every plot of `view` but those whose range is the State's zoom (`view.zoomable_boxes()`: heatmap,
    curves and similarity) takes no mouse pan or zoom and has no range menu: a range the user set there was
    kept by the view alone, so a scene, `render` and `export view` showed another (ALiBi's slopes zoomed
    to x 2.25-4.75 stayed so across base steps, and reopened as -0.66-7.66), nor an auto-range button."""
    from PySide6.QtWidgets import QGraphicsView

    keep = set(map(id, view.zoomable_boxes()))
    for canvas in [view] * isinstance(view, QGraphicsView) + view.findChildren(QGraphicsView):
        for item in canvas.scene().items() if canvas.scene() is not None else ():
            if isinstance(item, pg.ViewBox) and id(item) not in keep:
                item.setMouseEnabled(False, False)
                item.setMenuEnabled(False)
            elif isinstance(item, pg.PlotItem) and id(item.getViewBox()) not in keep:
                item.hideButtons()          # its "A" (auto-range) button set a range the view alone kept
