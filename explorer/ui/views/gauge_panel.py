"""The Tokens view's scale gauge: per token |E|, |E|·scale and |position| as grouped bars, and the angle the
position turns X away from E (the paper's why √d_model; an opened model's own scale)."""

from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from explorer.backend.models.family_tables import SINUSOID_FAMILIES
from explorer.ui.i18n import Retranslatable
from explorer.ui.views import token_model
from explorer.ui.views.base import keep_together
from explorer.ui.views.empty_note import EmptyNote
from explorer.ui.views.fitting_canvas import FittingCanvas
from explorer.ui.views.label_axis import LabelAxis, name_ticks
from explorer.ui.views.ranges import set_extent
from explorer.ui.views.titles import set_title


def _key(title: str, entries) -> str:
    """Plot title with coloured squares naming the bars."""
    parts = [f'<span style="color:{c}">■</span>&nbsp;{t}' for c, t in entries]
    return f"{title}: " + " &nbsp; ".join(parts)



class GaugePanel(Retranslatable, QWidget):
    """Per token: |E|, |E|·√d, |PE| as grouped bars, and the angle PE turns X away from E."""

    COLOURS = ("#0072B2", "#D55E00", "#009E73")

    def __init__(self, parent=None):
        super().__init__(parent)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)   # bold by <b>: a style sheet would pin
        #                                                       its font at 1x in F11 (presentation.py)
        self.why = QLabel("")
        self.why.setWordWrap(True)
        self.canvas = FittingCanvas()
        self.norms = self.canvas.addPlot(row=0, col=0, axisItems={"bottom": LabelAxis("bottom")})
        self.angles = self.canvas.addPlot(row=0, col=1, axisItems={"bottom": LabelAxis("bottom")})
        self.canvas.ci.layout.setColumnStretchFactor(0, 1)
        self.canvas.ci.layout.setColumnStretchFactor(1, 1)
        for plot in (self.norms, self.angles):
            plot.setMenuEnabled(False)
            plot.hideButtons()
            plot.showGrid(y=True, alpha=0.3)
        self.angle_note = EmptyNote(self.angles)     # a model that adds nothing: a line, not an empty grid
        self.angle_note.set_font(self.font())
        box.addWidget(self.summary)
        box.addWidget(self.canvas, 1)
        box.addWidget(self.why)
        self.result = None
        self.labels: list[str] = []
        self.retranslate_ui()

    def retranslate_ui(self) -> None:
        self.norms.setLabel("left", self.tr("length"))
        self.angles.setLabel("left", self.tr("degrees"))
        if self.result is not None:
            self.show(self.result, self.labels)

    def clear(self) -> None:
        for plot in (self.norms, self.angles):
            plot.clear()
        self.angles.addItem(self.angle_note.text, ignoreBounds=True)     # (plot.clear took it too)
        self.angle_note.say("")
        self.summary.setText("")

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().changeEvent(event)
        if event.type() == event.Type.FontChange and hasattr(self, "angle_note"):
            self.angle_note.set_font(self.font())           # the note follows the presentation scale

    def show(self, r, labels) -> None:
        """Draw the gauge of a TokensResult; labels name the tokens on the x axis."""
        self.result, self.labels = r, labels
        self.clear()
        self.why.setText(keep_together(token_model.gauge_note(r)))
        n = r.n_shown
        x = np.arange(n, dtype=np.float64)
        trained = r.source in ("minilm", "model")
        model = r.source == "model"
        if model:
            names = ("|E|", "|E|·" + f"{r.scale:.3g}" if r.scale != 1.0 else self.tr("|E| (not scaled)"),
                     self.tr("|position + type|") if r.family == "bert" else self.tr("|sinusoidal position|")
                     if r.family in SINUSOID_FAMILIES else self.tr("|learned position|")
                     if r.position == "learned" else self.tr("|added position| (ALiBi: 0)")
                     if r.position == "alibi" else self.tr("|added position| (relative bias: 0)")
                     if r.position == "relative" else self.tr("|added position| (RoPE: 0)"))
        else:
            names = ("|E|", "|E|·√d", self.tr("|position + type|") if trained else "|PE|")
        series = [(k, values) for k, values in enumerate((r.token_norm, r.scaled_norm, r.pe_norm))
                  if not (model and k == 1 and r.scale == 1.0)]   # (a model's |E| twice, "not scaled": said nothing)
        for i, (k, values) in enumerate(series):
            self.norms.addItem(pg.BarGraphItem(x=x + (i - (len(series) - 1) / 2) * 0.27, height=values, width=0.25,
                                               brush=self.COLOURS[k], pen=None))
        set_title(self.norms, _key(self.tr("lengths"), [(self.COLOURS[k], names[k]) for k, _ in series]), size="10pt")
        active_scaled = r.scale != 1.0
        if model:           # its own scale only (×1 and ×1 side by side said nothing)
            groups = [(r.angle_scaled, f"× {r.scale:.3g}", True)]
        else:
            groups = [(r.angle_scaled, self.tr("with ×√d"), active_scaled),
                      (r.angle_unscaled, self.tr("without ×√d"), not active_scaled)]
        key = []
        for k, (values, name, on) in enumerate(groups):
            colour = QColor(self.COLOURS[2 * k])
            colour.setAlpha(255 if on else 80)
            offset = (k - 0.5) * 0.4 if len(groups) == 2 else 0.0
            self.angles.addItem(pg.BarGraphItem(x=x + offset, height=np.nan_to_num(values),
                                                width=0.38, brush=colour, pen=None))
            key.append((self.COLOURS[2 * k], name + (" ✔" if on and not model else "")))
        set_title(self.angles, _key(self.tr("angle (X, E)"), key), size="10pt")
        for plot in (self.norms, self.angles):
            name_ticks(plot.getAxis("bottom"), labels, n, centre=0.0)
            set_extent(plot, x=(-0.6, max(n, 1) - 0.4))
        self.norms.enableAutoRange(axis="y")
        set_extent(self.angles, y=(0, 90 if n else 1), padding=0.02)
        self.angle_note.say(token_model.angle_note(r))
        if n == 0:
            return
        m = r.medians                                    # worked out with the result, not here
        med = {"e": m["token"], "s": m["scaled"], "p": m["position"], "a": m["angle"], "u": m["angle_unscaled"]}
        text = self.tr("d_model = %1, medians: |E| = %2, |E|·√d = %3, |PE| = %4. PE turns X away from E "
                       "by %5° with ×√d, by %6° without.")
        for key, value in (("%1", str(r.d_model)), ("%2", f"{med['e']:.3g}"), ("%3", f"{med['s']:.3g}"),
                           ("%4", f"{med['p']:.3g}"), ("%5", f"{med['a']:.1f}"), ("%6", f"{med['u']:.1f}")):
            text = text.replace(key, value)
        if model:
            text = self.tr("%1 (d_model = %2), medians: |E| = %3, |E|·scale = %4, |position| = %5; "
                           "position turns X away from E by %6°.")
            for key, value in (("%1", r.model_name), ("%2", str(r.d_model)), ("%3", f"{med['e']:.3g}"),
                               ("%4", f"{med['s']:.3g}"), ("%5", f"{med['p']:.3g}"), ("%6", f"{med['a']:.1f}")):
                text = text.replace(key, value)
            if r.position == "rope":
                text += " " + self.tr("Nothing is added at the input: RoPE turns q and k inside attention.")
            elif r.position == "alibi":
                text += " " + self.tr("Nothing is added at the input: ALiBi biases the attention scores.")
            elif r.position == "relative":
                text += " " + self.tr("Nothing is added at the input: T5 adds a learned bias per distance "
                                      "bucket to the attention scores.")
        elif trained:
            text += " " + self.tr("MiniLM does not multiply by √d; a LayerNorm follows the sum.")
        self.summary.setText(f"<b>{html.escape(text)}</b>")
