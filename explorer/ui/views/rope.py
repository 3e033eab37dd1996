"""RoPE: the rope type's scaling (per-pair frequencies, regimes, channel axis, score before/after) and
the rotation page (rotated q/k, the two pairings and their permutation, context extension)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QTabWidget

from explorer.compute import rope as data
from explorer.compute.rope_settings import with_rope_type
from explorer.ui.views.thick_curve import add_line
from explorer.ui.views.ranges import held_span, set_extent, steady_range, symmetric_levels
from explorer.ui.views.panel_view import GREY, PALETTE, TITLE_SIZE, PanelView, line_label_font, set_pen
from explorer.ui.views.rope_scaling_panels import ScalingControls, ScalingPanels
from explorer.translations import fill, number_text
from explorer.ui.views.fitting_canvas import FittingCanvas, screen_px
from explorer.ui.views.titles import set_title
from explorer.ui.views.control_row import ControlRow


class RopeView(PanelView):
    title = "rope"

    def __init__(self, parent=None):
        super().__init__(data.RopeState(), parent)
        self.explain.setText(self.tr(
            "RoPE rotates each channel pair of q and k by position × θᵢ, so q(m)·k(n) depends only on "
            "m − n. RoFormer pairs channels (2i, 2i+1); LLaMA-style rotate-half pairs (i, i + d/2): "
            "the same maths with channels permuted by P. Long-context models rescale θᵢ (rope type); Gemma 4's "
            "p-RoPE switches the slowest pairs off."))
        s = self.state
        self.head_box = self.spin(self.tr("head_dim"), 2, 512, s.head_dim, "head_dim")
        self.head_box.setSingleStep(2)
        self.base_box = self.dspin(self.tr("RoPE base"), *type(s).RANGES["base"], s.base, "base", 0, 1000.0)
        self.pair_box = self.combo(self.tr("pairing"),
                                   ((self.tr("interleaved (RoFormer)"), "interleaved"),
                                    (self.tr("rotate-half (LLaMA-style)"), "half")),
                                   s.pairing, "pairing")
        self.type_box = self.combo(self.tr("rope type"), (
            (self.tr("default"), "default"), (self.tr("linear (position interpolation)"), "linear"),
            (self.tr("dynamic NTK"), "dynamic"), ("YaRN", "yarn"), ("LongRoPE", "longrope"),
            ("Llama 3", "llama3"), (self.tr("p-RoPE (proportional)"), "proportional")), s.rope_type, "rope_type")
        self.type_label = self.controls.itemAt(self.controls.count() - 2).widget()
        for widget in (self.type_label, self.type_box):     # it heads the scaling row (built below)
            self.controls.removeWidget(widget)
        for box, chars in ((self.type_box, 9), (self.pair_box, 11)):   # long items must not widen the view
            box.setSizeAdjustPolicy(box.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            box.setMinimumContentsLength(chars)
        self.pair_box.grow_to_items()        # ... but where its line has room, they show whole
        self.scale_box = self.dspin(self.tr("extension factor s"), 1.0, 64.0, s.scale, "scale", 2, 0.5)
        self.scale_label = self.controls.itemAt(self.controls.count() - 2).widget()
        self.scale_row = ControlRow()        # the rope type and its parameters: wraps like the row above
        self.box.insertLayout(self.box.indexOf(self.canvas), self.scale_row)
        self.params_boxes = ScalingControls(self, self.scale_row, self.set_state,
                                            (self.type_label, self.type_box))
        rotation = self.canvas
        self.box.removeWidget(rotation)
        self.pages = QTabWidget()
        # document mode: no framed pane (Fusion's pane frame made every grab of the page ~3x dearer)
        self.pages.setDocumentMode(True)
        self.scaling_canvas = FittingCanvas()
        self.scaling_canvas.ci.layout.setVerticalSpacing(10)
        self.pages.addTab(rotation, self.tr("Rotation and pairing"))       # in the order of data.PAGES
        self.pages.addTab(self.scaling_canvas, self.tr("Scaling (rope type)"))
        self.box.insertWidget(self.box.indexOf(self.readout), self.pages, 1)
        self.pages.currentChanged.connect(
            lambda i: self.set_state(page=data.PAGES[i]) if data.PAGES[i] != self.state.page else None)
        self.canvas = self.scaling_canvas
        self.panels = ScalingPanels(self)
        self.canvas = rotation
        self._build_rotation()

    def _build_rotation(self) -> None:
        ch, pos = self.tr("channel"), self.tr("position")
        # short titles: "rotated q (random vector)" with 4-digit positions (max_len 8192) left the
        # row 11 px wider than its canvas in F11 at 1280 x 800
        self.q_img = self.image(0, 0, ch, pos, self.tr("rotated random q"))
        self.k_img = self.image(0, 2, ch, pos, self.tr("rotated random k"))
        self.perm = self.image(0, 4, self.tr("rotate-half channel"), self.tr("interleaved channel"),
                               self.tr("P: x_half = x_interleaved · P"), "CET-L1", reverse=True)
        self.score = self.plot(1, 0, "m − n", "q(m)·k(n)", self.tr("score against distance"), colspan=3,
                               whole_x=True)
        self.legend(self.score)
        self.s_ones = add_line(self.score, name=self.tr("all-ones q, k"))
        self.s_rand = add_line(self.score, name=self.tr("random q, k"))
        # the qualifier is in the title: "score (all-ones)" as the y label ran past the chart's
        # ~70-90 px of height in F11 at 1280 x 800 (into the x label, in Chinese)
        self.ext = self.plot(1, 3, "m − n", "q(m)·k(n)", self.tr("context extension by s (all-ones q, k)"),
                             colspan=3, whole_x=True)
        self.legend(self.ext, columns=2)
        self.variant_items = {
            "original": add_line(self.ext, name=self.tr("original θ")),
            "interpolation": add_line(self.ext, name=self.tr("position interpolation θ/s")),
            "ntk": add_line(self.ext, name=self.tr("NTK-aware base")),
        }
        self.trained_line = pg.InfiniteLine(angle=90, pen=pg.mkPen(GREY, width=1.5), movable=False,
                                            label="max_len", labelOpts={"position": 0.9, "color": "#444444"})
        self.ext.addItem(self.trained_line, ignoreBounds=True)
        self.track_resizes(self.perm.plot.getViewBox())

    def visible_region(self) -> tuple[int, int, int, int, int, int]:
        """(0, 0, 0, 0, rows_px, cols_px): the screen pixels of P's panel; the compute reduces P to them
        (compute.permutation), so that no row of P is lost in the drawing."""
        return (0, 0, 0, 0, *screen_px(self.perm.plot.getViewBox()))

    # state ------------------------------------------------------------------------------------
    def set_state(self, **changes) -> None:
        if "head_dim" in changes and changes["head_dim"] % 2:   # RoPE needs pairs: keep it even
            changes["head_dim"] += 1
            self.quiet_set(self.head_box, changes["head_dim"])
        if "rope_type" in changes:       # clear what the new type does not read, fill what it needs
            max_len = self.params.max_len if self.params is not None else 256
            changes = {**changes, **with_rope_type(self.state, changes["rope_type"], max_len),
                       "page": "scaling"}
        super().set_state(**changes)
        self.show_state(self.state)      # a refused value: the controls go back to the kept state

    def show_state(self, state, params=None) -> None:
        super().show_state(state, params)
        self.params_boxes.show_state(state)
        self.scale_box.setVisible(state.page == "rotation")
        self.scale_label.setVisible(state.page == "rotation")
        index = data.PAGES.index(state.page)
        if self.pages.currentIndex() != index:
            self.pages.blockSignals(True)
            self.pages.setCurrentIndex(index)
            self.pages.blockSignals(False)

    def set_line_scale(self, scale: float) -> None:
        self.scaling_canvas.ci.layout.setVerticalSpacing(10 * scale)
        super().set_line_scale(scale)

    # drawing ----------------------------------------------------------------------------------
    def draw(self, r) -> None:
        """Draw the open page only (the page is in the state: switching pages brings a new result)."""
        if r.state.page == "scaling":
            self.panels.draw(r)
        else:
            self._draw_rotation(r)
        self.set_readout(self.panels.readout(r) if r.state.page == "scaling" else self._rotation_text(r))

    def _draw_rotation(self, r) -> None:
        hd = r.state.head_dim
        rows = len(r.positions)
        step = int(r.positions[1] - r.positions[0]) if rows > 1 else 1
        for panel, img in ((self.q_img, r.q), (self.k_img, r.k)):
            panel.show(img, 0, 0, hd, rows * step, symmetric_levels(img))
            set_extent(panel.plot, (0, hd), (0, rows * step))
        side = r.permutation.shape[0] * r.perm_step       # hd, or whole cells of perm_step channels
        self.perm.show(r.permutation, 0, 0, side, side, (0.0, 1.0))
        set_extent(self.perm.plot, (0, side), (0, side))
        # reduced to the panel's pixels, each cell the max of its block: say so where the ones are
        set_title(self.perm.plot, self.tr("P: x_half = x_interleaved · P") if r.perm_step == 1 else
                  fill(self.tr("P, %1 channels per cell"), str(r.perm_step)), size=TITLE_SIZE)
        self.s_ones.setData(r.delta, r.score_ones)
        set_pen(self.s_ones, self.pen(PALETTE[0]))
        self.s_rand.setData(r.delta, r.score_random)
        set_pen(self.s_rand, self.pen(PALETTE[1], 1.5))
        for i, (name, item) in enumerate(self.variant_items.items()):
            y = r.variants.get(name)
            item.setVisible(y is not None)
            if y is not None:
                item.setData(r.ext_delta, y)
                set_pen(item, self.pen(PALETTE[(i + 2) % len(PALETTE)]))
        self.trained_line.setPos(r.params.max_len)
        line_label_font(self.trained_line)
        # steady ranges: autorange every frame moved the y range a little and redrew both charts' axes
        scores = np.concatenate([r.score_ones, r.score_random])
        steady_range(self.score, (float(r.delta[0]), float(r.delta[-1])),
                     held_span(self.score, "y", float(scores.min()), float(scores.max())))
        shown = [y for y in r.variants.values() if y is not None]
        ext = np.concatenate(shown) if shown else np.zeros(1)
        steady_range(self.ext, (0.0, max(float(r.ext_delta[-1]), float(r.params.max_len))),
                     held_span(self.ext, "y", float(ext.min()), float(ext.max())))

    def _rotation_text(self, r) -> str:
        ntk = "—" if r.ntk_base is None else number_text(r.ntk_base, 6)
        pairing = {"interleaved": self.tr("interleaved"), "half": self.tr("rotate-half")}.get(r.state.pairing,
                                                                                             r.state.pairing)
        return fill(self.tr("head_dim %1, base %2, pairing %3; s = %4: interpolation divides θ by s, "
                            "NTK-aware uses base %5 (fastest pair unchanged, slowest θ/s)"),
                    str(r.state.head_dim), number_text(r.state.base, 6), pairing, f"{r.state.scale:g}", ntk)
