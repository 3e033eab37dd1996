"""The ALiBi view with an opened T5 and "the opened model's heads" ticked (explorer.compute.alibi_t5): the slope
chart becomes each drawn head's learned bias against j − i (key minus query, the view's query i / key j; a linear
axis: the bias has no slope and can be of either sign), and the bias images are the heads' own, in the steps of their
buckets. The causal box is greyed and unticked (T5's encoder reads every key; the State keeps the user's choice).
`leave` puts the slope chart and the causal box back for ALiBi. Strings in the view's "AlibiView" context."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication

from explorer.compute.alibi import ALIBI_SHOWN
from explorer.translations import fill
from explorer.ui.views.dots import move_points
from explorer.ui.views.panel_view import PALETTE, TITLE_SIZE, decade_ticks, set_pen
from explorer.ui.views.ranges import labelled_span, set_extent
from explorer.ui.views.span_ticks import span_ticks
from explorer.ui.views.thick_curve import add_line
from explorer.ui.views.titles import set_title


def draw(view, r) -> None:
    """The T5's heads: the bias curves of the drawn heads (PALETTE by panel, each image's title in its curve's
    colour), the images, the heads box greyed with the model's head count, the explanation and the readout."""
    plot, heads = view.slope_plot, len(r.head_bias)
    if not getattr(view, "_t5_mode", False):             # (once on entering: a log mode switch re-lays the plot)
        view._t5_mode = True
        plot.setLogMode(y=False)
        left = plot.getAxis("left")
        left.tickStrings = pg.AxisItem.tickStrings.__get__(left)      # decade_ticks' labels off
        plot.getAxis("bottom").setTicks(None)
        plot._ticked_heads = None                        # the ALiBi chart ticks its heads again on return
        plot.setLabel("bottom", QCoreApplication.translate("AlibiView", "j − i (key minus query)"))
        plot.setLabel("left", QCoreApplication.translate("AlibiView", "bias b_h"))
        view.slope_curve.setData([], [])
        move_points(view.slope_dots, np.zeros(0), np.zeros(0))
        view._alibi_explain = view.explain.text()        # (ALiBi's words come back in leave)
        view.explain.setText(QCoreApplication.translate(
            "AlibiView", "An opened T5 adds no position vectors and has no slopes: each head h adds a learned number "
            "b_h(bucket(j − i)) to its attention scores, one per bucket of the distance: a bucket for each near "
            "distance, log-spaced buckets for farther ones up to max_distance, one for all beyond it, and separate "
            "ones for keys before and after the query. Each curve is the head whose image title has its colour."))
    grey_causal(view)
    if not hasattr(view, "t5_curves"):
        view.t5_curves = [add_line(plot) for _ in range(ALIBI_SHOWN)]
    view._show_heads(heads, r.state.heads)
    for i, curve in enumerate(view.t5_curves):
        on = i < len(r.shown)
        curve.setData(r.distance if on else [], r.head_bias[r.shown[i]] if on else [])
        set_pen(curve, view.pen(PALETTE[i % len(PALETTE)]))
    set_title(plot, QCoreApplication.translate("AlibiView", "each drawn head's bias b_h(bucket(j − i)) against j − i "
                                                            "(one value a bucket)"), size=TITLE_SIZE)
    reach = float(r.distance[-1]) if len(r.distance) else 1.0
    set_extent(plot, x=(-reach, reach), padding=0.02)
    step = int(r.positions[1] - r.positions[0]) if len(r.positions) > 1 else 1
    span = len(r.positions) * step
    finite = r.bias[np.isfinite(r.bias)]
    levels = labelled_span(float(finite.min()), float(finite.max())) if finite.size else (-1.0, 1.0)
    for i, panel in enumerate(view.panels):
        on = i < len(r.shown)
        panel.plot.setVisible(on)
        panel.bar.setVisible(on)
        if on:
            panel.show(r.bias[i], 0, 0, span, span, levels)
            set_extent(panel.plot, (0, span), (0, span))
            span_ticks(panel.plot.getAxis("bottom"), span)
            text = fill(QCoreApplication.translate("AlibiView", "head %1: bias b_h"), str(r.shown[i]))
            set_title(panel.plot, text, size=TITLE_SIZE, free_width=True, color=PALETTE[i % len(PALETTE)])
    view.set_readout(fill(QCoreApplication.translate(
        "AlibiView", "%1: %2 heads with a learned relative position bias (T5), no slopes; the curves show heads %3 "
        "for j − i up to ±%4"), r.model_name, str(heads), ", ".join(map(str, r.shown)), str(int(reach))))


def grey_causal(view) -> None:
    """The causal box greyed and unticked, its tooltip saying why (signals blocked: the State keeps the user's
    choice for the ALiBi heads)."""
    box = view.causal_box
    if box.isEnabled() or box.isChecked():
        box.blockSignals(True)
        box.setChecked(False)
        box.setEnabled(False)
        box.blockSignals(False)
    box.setToolTip(QCoreApplication.translate(
        "AlibiView", "T5's encoder is bidirectional: every query i reads every key j, so no key is masked here"))


def leave(view) -> None:
    """The slope chart as the ALiBi view first made it (log axis, decade labels), its T5 curves emptied, the causal
    box enabled again with the State's choice."""
    if not getattr(view, "_t5_mode", False):
        return
    view._t5_mode = False
    box = view.causal_box
    box.blockSignals(True)
    box.setChecked(bool(view.state.causal))
    box.setEnabled(True)
    box.blockSignals(False)
    box.setToolTip("")
    view.explain.setText(getattr(view, "_alibi_explain", view.explain.text()))
    plot = view.slope_plot
    plot.setLogMode(y=True)
    decade_ticks(plot.getAxis("left"))
    plot.setLabel("bottom", QCoreApplication.translate("AlibiView", "head (from 0)"))
    plot.setLabel("left", QCoreApplication.translate("AlibiView", "slope m_h"))
    set_title(plot, QCoreApplication.translate("AlibiView", "slopes"), size=TITLE_SIZE)
    for curve in getattr(view, "t5_curves", ()):
        curve.setData([], [])
