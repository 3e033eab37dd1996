"""RoPE: rotated q/k, the two pairings and their permutation, score against m − n, context extension."""

from __future__ import annotations

import pyqtgraph as pg

from explorer.compute import rope as data
from explorer.ui.views.base import symmetric_levels
from explorer.ui.views.extra_base import GREY, PALETTE, ExtraView, line_label_font


class RopeView(ExtraView):
    title = "rope"

    def __init__(self, parent=None):
        super().__init__(data.RopeState(), parent)
        self.explain.setText(self.tr(
            "RoPE rotates each channel pair of q and k by position × θᵢ, so q(m)·k(n) depends only on "
            "m − n. RoFormer pairs channels (2i, 2i+1); LLaMA-style rotate-half pairs (i, i + d/2): "
            "the same maths with channels permuted by P."))
        s = self.state
        self.head_box = self.spin(self.tr("head_dim"), 2, 256, s.head_dim, "head_dim")
        self.head_box.setSingleStep(2)
        self.base_box = self.dspin(self.tr("RoPE base"), 2.0, 1e7, s.base, "base", 0, 1000.0)
        self.pair_box = self.combo(self.tr("pairing"),
                                   ((self.tr("interleaved (RoFormer)"), "interleaved"),
                                    (self.tr("rotate-half (LLaMA-style)"), "half")),
                                   s.pairing, "pairing")
        self.scale_box = self.dspin(self.tr("extension factor s"), 1.0, 64.0, s.scale, "scale", 2, 0.5)
        self.controls.addStretch(1)
        ch, pos = self.tr("channel"), self.tr("position")
        self.q_img = self.image(0, 0, ch, pos, self.tr("rotated q (random vector)"))
        self.k_img = self.image(0, 2, ch, pos, self.tr("rotated k (random vector)"))
        self.perm = self.image(0, 4, self.tr("rotate-half channel"), self.tr("interleaved channel"),
                               self.tr("P: x_half = x_interleaved · P"), "CET-L1", reverse=True)
        self.score = self.plot(1, 0, "m − n", "q(m)·k(n)", self.tr("score against distance"), colspan=3)
        self.legend(self.score, (-10, 10))
        self.s_ones = self.score.plot([], [], name=self.tr("all-ones q, k"))
        self.s_rand = self.score.plot([], [], name=self.tr("random q, k"))
        self.ext = self.plot(1, 3, "m − n", self.tr("score (all-ones)"),
                             self.tr("context extension by s"), colspan=3)
        self.legend(self.ext, columns=2)
        self.variant_items = {
            "original": self.ext.plot([], [], name=self.tr("original θ")),
            "interpolation": self.ext.plot([], [], name=self.tr("position interpolation θ/s")),
            "ntk": self.ext.plot([], [], name=self.tr("NTK-aware base")),
        }
        self.trained_line = pg.InfiniteLine(angle=90, pen=pg.mkPen(GREY, width=1.5), movable=False,
                                            label="max_len", labelOpts={"position": 0.06, "color": "#444444"})
        self.ext.addItem(self.trained_line, ignoreBounds=True)

    def set_state(self, **changes) -> None:
        if "head_dim" in changes and changes["head_dim"] % 2:   # RoPE needs pairs: keep it even
            changes["head_dim"] += 1
            self.quiet_set(self.head_box, changes["head_dim"])
        super().set_state(**changes)

    def draw(self, r) -> None:
        hd = r.state.head_dim
        rows = len(r.positions)
        step = int(r.positions[1] - r.positions[0]) if rows > 1 else 1
        for panel, img in ((self.q_img, r.q), (self.k_img, r.k)):
            panel.show(img, 0, 0, hd, rows * step, symmetric_levels(img))
            panel.plot.setRange(xRange=(0, hd), yRange=(0, rows * step), padding=0)
        self.perm.show(r.permutation, 0, 0, hd, hd, (0.0, 1.0))
        self.perm.plot.setRange(xRange=(0, hd), yRange=(0, hd), padding=0)
        self.s_ones.setData(r.delta, r.score_ones)
        self.s_ones.setPen(self.pen(PALETTE[0]))
        self.s_rand.setData(r.delta, r.score_random)
        self.s_rand.setPen(self.pen(PALETTE[1], 1.5))
        for i, (name, item) in enumerate(self.variant_items.items()):
            y = r.variants.get(name)
            item.setVisible(y is not None)
            if y is not None:
                item.setData(r.ext_delta, y)
                item.setPen(self.pen(PALETTE[(i + 2) % len(PALETTE)]))
        self.trained_line.setPos(r.params.max_len)
        line_label_font(self.trained_line)
        self.score.enableAutoRange()
        self.ext.enableAutoRange()
        ntk = "—" if r.ntk_base is None else f"{r.ntk_base:.4g}"
        self.set_readout(
            self.tr("head_dim %1, base %2, pairing %3; s = %4: interpolation divides θ by s, "
                    "NTK-aware uses base %5 (fastest pair unchanged, slowest θ/s)")
            .replace("%1", str(hd)).replace("%2", f"{r.state.base:g}")
            .replace("%3", {"interleaved": self.tr("interleaved"),
                            "half": self.tr("rotate-half")}.get(r.state.pairing, r.state.pairing)).replace("%4", f"{r.state.scale:g}").replace("%5", ntk))
