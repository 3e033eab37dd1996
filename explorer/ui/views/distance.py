"""One chart: how each position scheme changes the attention score with the distance k."""

from __future__ import annotations

import numpy as np

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSizePolicy

from explorer.compute import distance as data
from explorer.ui.views.thick_curve import add_line
from explorer.ui.views.ranges import held_span, steady_range
from explorer.ui.views.panel_view import GREY, PALETTE, PanelView, set_pen
from explorer.translations import fill, number_text
from explorer.ui.views.rope_words import scaling_words
from explorer.ui.views.fitting_canvas import scales_with_canvas

STYLE = {"sinusoidal": PALETTE[0], "rope": PALETTE[1], "alibi": PALETTE[2],
         "learned": PALETTE[3], "none": GREY, "rope_unscaled": "#f0b08a"}


class DistanceView(PanelView):
    title = "distance"

    def __init__(self, parent=None):
        super().__init__(data.DistanceState(), parent)
        self.explain.setText(self.tr(
            "Score factor against distance k, each scheme scaled to 1 at k = 0: sinusoidal "
            "PE(0)·PE(k), RoPE with all-ones q, k, ALiBi's softmax factor exp(−m·k), learned "
            "(MiniLM, mean cosine of rows p and p + k) and no positions at all (flat). A scaled RoPE "
            "(a preset's rope type) keeps its attention factor², so its curve may start above 1."))
        s = self.state
        self.head_box = self.spin(self.tr("RoPE head_dim"), *type(s).RANGES["head_dim"], s.head_dim, "head_dim")
        self.head_box.setSingleStep(2)
        self.base_box = self.dspin(self.tr("RoPE base"), *type(s).RANGES["rope_base"], s.rope_base, "rope_base",
                                   0, 1000.0)
        self.heads_box = self.spin(self.tr("ALiBi heads"), 1, 64, s.heads, "heads")
        self.alibi_box = self.spin(self.tr("ALiBi head"), 0, s.heads - 1, s.alibi_head, "alibi_head")
        self.check(self.tr("learned (MiniLM)"), s.learned, "learned")
        self.chart = self.plot(0, 0, self.tr("distance k"), self.tr("score factor (1 at k = 0 without rope scaling)"),
                               whole_x=True)
        names = {"sinusoidal": self.tr("sinusoidal"), "rope": "RoPE", "alibi": "ALiBi",
                 "learned": self.tr("learned (MiniLM)"), "none": self.tr("no position"),
                 "rope_unscaled": self.tr("RoPE before scaling")}
        self.items = {key: add_line(self.chart) for key in names}
        # the legend sits in its own column beside the chart, so it never covers a curve
        self.key = pg.LegendItem(brush=pg.mkBrush(255, 255, 255, 0), pen=pg.mkPen(None))
        self.key._base_pt = 9.0        # rescale_labels keeps it at 9 pt x the presentation scale
        scales_with_canvas(self.key)
        self.canvas.addItem(self.key, row=0, col=1)
        for key, label in names.items():
            self.key.addItem(self.items[key], label)
        self.key.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.canvas.ci.layout.setAlignment(self.key, Qt.AlignmentFlag.AlignTop)

    def set_state(self, **changes) -> None:
        if "head_dim" in changes and changes["head_dim"] % 2:
            changes["head_dim"] += 1
            self.quiet_set(self.head_box, changes["head_dim"])
        if "heads" in changes:   # the chosen head must exist
            self.alibi_box.blockSignals(True)
            self.alibi_box.setMaximum(changes["heads"] - 1)
            self.alibi_box.blockSignals(False)
            changes["alibi_head"] = self.alibi_box.value()
        super().set_state(**changes)

    def show_state(self, state, params=None) -> None:
        self.quiet_range(self.alibi_box, self.alibi_box.minimum(), state.heads - 1)
        super().show_state(state, params)

    def _key_visible(self, item, visible: bool) -> None:
        for sample, label in self.key.items:
            if sample.item is item:
                sample.setVisible(visible)
                label.setVisible(visible)

    def draw(self, r) -> None:
        for key, item in self.items.items():
            curve = r.curves.get(key)
            item.setVisible(curve is not None)
            self._key_visible(item, curve is not None)
            if curve is not None:
                item.setData(*curve)
                set_pen(item, self.pen(STYLE[key], 2.5 if key == "none" else 2.0))
        shown = [c for c in r.curves.values()]
        xs = max(float(np.max(k)) for k, _ in shown) if shown else 1.0
        ys = np.concatenate([np.ravel(y) for _, y in shown]) if shown else np.zeros(1)
        steady_range(self.chart, (0, max(1.0, xs)),
                     held_span(self.chart, "y", float(np.min(ys)), float(np.max(ys))))
        rope = "" if r.state.plain_rope else " · " + fill(self.tr(
            "RoPE curve: %1, attention factor² included"), scaling_words(r.state))
        cut = "learned" in r.curves and len(r.curves["learned"][0]) < r.params.max_len     # MiniLM's 512 < max_len
        shared = fill(self.tr("max_len %1, d_model %2, base %3 from the shared controls; learned curve stops at "
                              "MiniLM's 512 positions") if cut else
                      self.tr("max_len %1, d_model %2, base %3 from the shared controls"),
                      str(r.params.max_len), str(r.params.d_model), number_text(r.params.base, 6))
        self.set_readout(r.learned_note + rope if r.learned_note else
                         rope.lstrip(" ·") + ("; " if rope else "") + shared)
