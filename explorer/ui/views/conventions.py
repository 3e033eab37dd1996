"""Layout conventions: interleaved / concat / t2t side by side, the permutation, the similarity check."""

from __future__ import annotations

from explorer.compute import conventions as data
from explorer.ui.views.ranges import set_extent, symmetric_levels
from explorer.ui.views.panel_view import TITLE_SIZE, PanelView
from explorer.ui.views.fitting_canvas import screen_px
from explorer.ui.views.titles import set_title
from explorer.translations import fill


class ConventionsView(PanelView):
    title = "conventions"

    def __init__(self, parent=None):
        super().__init__(data.ConventionsState(), parent)
        self.explain.setText(self.tr(
            "Three published channel orders of the same sinusoids. Concat is interleaved with its "
            "channels permuted (matrix P), so every dot product is unchanged; t2t spaces its "
            "frequencies differently, so its similarities differ."))
        self.check_line = self.readout
        ch, pos = self.tr("channel"), self.tr("position")
        self.pe = {
            "interleaved": self.image(0, 0, ch, pos, self.tr("interleaved (paper)"), bar=False),
            "concat": self.image(0, 2, ch, pos, self.tr("concat (TF tutorial)"), bar=False),
            "t2t": self.image(0, 4, ch, pos, self.tr("t2t / fairseq")),
        }
        self.perm = self.image(1, 0, self.tr("concat channel"), self.tr("interleaved channel"),
                               self.tr("P: interleaved → concat"), "CET-L1", bar=False, reverse=True)
        self.sim = self.image(1, 2, self.tr("position q"), self.tr("position p"),
                              self.tr("S interleaved = S concat"))
        self.diff = self.image(1, 4, self.tr("position q"), self.tr("position p"),
                               self.tr("S t2t − S interleaved"))
        self.canvas.ci.layout.setRowStretchFactor(0, 1)
        self.canvas.ci.layout.setRowStretchFactor(1, 1)
        self.track_resizes(self.perm.plot.getViewBox())

    def visible_region(self) -> tuple[int, int, int, int, int, int]:
        """(0, 0, 0, 0, rows_px, cols_px): the screen pixels of P's panel; the compute reduces P to them
        (compute.permutation), so that no row of P is lost in the drawing."""
        return (0, 0, 0, 0, *screen_px(self.perm.plot.getViewBox()))

    def draw(self, r) -> None:
        p = r.params
        for lay, panel in self.pe.items():
            img = r.pe[lay]
            panel.show(img, 0, 0, img.shape[1] * r.ch_step, img.shape[0] * r.pos_step, (-1.0, 1.0))
            set_extent(panel.plot, (0, img.shape[1] * r.ch_step), (0, img.shape[0] * r.pos_step))
        side = r.permutation.shape[0] * r.perm_step
        self.perm.show(r.permutation, 0, 0, side, side, (0.0, 1.0))
        set_extent(self.perm.plot, (0, side), (0, side))
        # reduced to the panel's pixels, each cell the max of its block: say so where the ones are
        set_title(self.perm.plot, self.tr("P: interleaved → concat") if r.perm_step == 1 else
                  fill(self.tr("P, %1 channels per cell"), str(r.perm_step)), size=TITLE_SIZE)
        comp = r.comparison
        span = comp.rows * comp.step
        s = comp.matrices["interleaved"]
        self.sim.show(s, 0, 0, span, span, symmetric_levels(s))
        self.diff.show(r.diff_t2t, 0, 0, span, span, symmetric_levels(r.diff_t2t))
        for panel in (self.sim, self.diff):
            set_extent(panel.plot, (0, span), (0, span))
        metric = self.tr("cosine") if p.metric == "cosine" else self.tr("dot product")
        text = fill(self.tr("interleaved vs concat similarity (%1): max |diff| = %2 (a channel permutation "
                            "keeps dot products; table check %3); vs t2t: max |diff| = %4"), metric,
                    f"{comp.diff_concat:.3g}", f"{comp.permutation_error:.3g}", f"{comp.diff_t2t:.3g}")
        if r.ch_step > 1 or r.pos_step > 1 or comp.step > 1:
            # block means blend an interleaved sin/cos pair into one colour and lower the peaks
            text += "; " + fill(self.tr("each pixel is a mean: PE over %1 channels × %2 positions, S over "
                                        "%3 × %3 positions"), str(r.ch_step), str(r.pos_step), str(comp.step))
        self.set_readout(text)
