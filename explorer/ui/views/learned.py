"""Learned vs sinusoidal positions: MiniLM's trained 512 x 384 table beside sinusoidal PE at d = 384.

Top: the two tables as heatmaps (positions x channels). Bottom: their cosine position-similarity
matrices. The sinusoidal one depends only on the offset (constant diagonals); the learned one need not.
"""

from __future__ import annotations

import pyqtgraph as pg

from explorer.backend.pretrained import INSTALL_HINT
from explorer.errors import localized
from explorer.ui.i18n import Retranslatable, current_language
from explorer.ui.views.base import CURSOR_PEN, Caption, ImagePlot, View, cell_under, line_at
from explorer.ui.views.titles import set_title
from explorer.ui.views.pca_row import PcaRow
from explorer.translations import fill, number_text
from explorer.ui.views.fitting_canvas import FittingCanvas


WASH_OUT = 2.0     # a peak over this many times the 99.5th percentile would wash the colours out (said so)


class LearnedView(Retranslatable, View):
    title = "learned"

    def __init__(self, parent=None):
        super().__init__(parent)
        self._shown_learned = None     # the learned images drawn (they do not change with Params)
        self._extent = None
        self.note = Caption("")           # the missing-weights message, or how the colours are scaled (a Caption:
        #                                   "|value|" kept whole)
        self.note.setWordWrap(True)
        self.box.addWidget(self.note)
        self.canvas = FittingCanvas()
        self.tables = (ImagePlot(self.canvas, 0, 0, "", ""), ImagePlot(self.canvas, 0, 2, "", ""))
        self.sims = (ImagePlot(self.canvas, 1, 0, "", ""), ImagePlot(self.canvas, 1, 2, "", ""))
        self.set_line_scale(1.0)
        for panel in self.tables + self.sims:
            panel.plot.hideButtons()
        self.lines = []
        for panel in self.tables + self.sims:
            line = pg.InfiniteLine(angle=0, pen=CURSOR_PEN, movable=False)
            line.hide()
            panel.plot.addItem(line, ignoreBounds=True)
            self.lines.append(line)
        self.box.addWidget(self.canvas, 5)
        self.track_resizes(self.tables[1].plot.getViewBox())
        self.pca = PcaRow()
        self.box.addWidget(self.pca, 3)
        self.box.addWidget(self.readout)
        self.canvas.scene().sigMouseMoved.connect(self._on_moved)
        self.retranslate_ui()

    def retranslate_ui(self) -> None:
        self.explain.setText(self.tr(
            "Left: the opened model's position table (a trained one; XGLM's and M2M100's: the sinusoidal one it "
            "computes), else MiniLM's learned one. "
            "Right: sinusoidal PE at the same d (computed). Middle: cosine similarity of every pair of "
            "positions; sinusoidal similarity depends only on the offset (constant diagonals), and a learned "
            "table stops where training stopped. Bottom: every position row projected on its table's first "
            "principal components (PCA), coloured by position."))
        for panel in self.tables:
            panel.plot.setLabel("bottom", self.tr("channel"))
            panel.plot.setLabel("left", self.tr("position"))
        for panel in self.sims:
            panel.plot.setLabel("bottom", self.tr("position q"))
            panel.plot.setLabel("left", self.tr("position p"))
        if self.result is not None:
            self.set_result(self.result)

    def set_result(self, result) -> None:
        self.result = result
        n, d = result.shape
        p = result.params
        layout = {"interleaved": self.tr("interleaved"), "concat": self.tr("concat")}.get(p.layout, p.layout)
        set_title(self.tables[1].plot, fill(self.tr("sinusoidal PE, d = %1, base %2, %3"), str(d),
                                            number_text(p.base, 6), layout))
        set_title(self.sims[1].plot, self.tr("cosine similarity, sinusoidal"))
        self._draw(self.tables[1], result.shown_sinusoidal, (-1.0, 1.0))
        self._draw(self.sims[1], result.shown_sim_sinusoidal, (-1.0, 1.0))
        if result.learned is None:
            self.note.setText(fill(self.tr("MiniLM's learned positions are not installed, so only the "
                                         "sinusoidal side is shown. Install them with: %1"), INSTALL_HINT))
            self.note.setText(f'<b style="color:#a33">{self.note.text()}</b>')
            self._shown_learned = None
            for panel in (self.tables[0], self.sims[0]):
                panel.clear()
                set_title(panel.plot, self.tr("learned positions: not installed"))
        else:
            m, top = result.learned_level, result.learned_peak        # once per table, on the worker
            if result.shown_learned is not self._shown_learned:   # a new table or panel size
                self._shown_learned = result.shown_learned
                self._draw(self.tables[0], result.shown_learned, (-m, m))
                self._draw(self.sims[0], result.shown_sim_learned, (-1.0, 1.0))
            set_title(self.tables[0].plot, fill(self.tr("sinusoidal positions computed from config (%1, %2 × %3)")
                                                if result.computed else self.tr("learned positions (%1, %2 × %3)"),
                                                result.source, str(n), str(d)))
            text = "" if result.computed else fill(   # (XGLM's sinusoids: ±1, nothing to wash out)
                self.tr("Learned table colours span ±%1, the 99.5th percentile of |value|: a few channels reach %2 "
                        "and would wash the picture out.") if top > WASH_OUT * m else    # (MiniLM's: 1.87 / 0.073)
                self.tr("Learned table colours span ±%1, the 99.5th percentile of |value| (the largest reaches %2)."),
                f"{m:.3g}", f"{top:.3g}")
            if result.total_rows > n:
                text += " " + (fill(self.tr("Only the first of its %1 positions is shown."), str(result.total_rows))
                               if n == 1 else fill(self.tr("The first %1 of its %2 positions are shown."),
                                                   str(n), str(result.total_rows)))
            if result.computed and result.first_row == 2:   # XGLM's, NLLB's: from config.json (models.xglm, m2m100)
                text += " " + fill(self.tr("%1's position table is not stored in the checkpoint: it is computed from "
                                           "config.json (d_model, max_position_embeddings, pad_token_id) as the model "
                                           "computes it, fairseq's sinusoids: [sin | cos] halves (the “t2t” layout), "
                                           "ω_i = 10000^(−i/(d/2 − 1)), and position p reads row p + 2. With the t2t "
                                           "layout and base 10000 the right-hand table is this one, two rows earlier "
                                           "(it starts at row 0)."),
                                   result.source)
            elif result.first_row and not result.computed:   # OPT's offset of 2, RoBERTa's pad_token_id + 1
                text += " " + fill(self.tr("Position 0 is the stored table's row %1 (OPT, BART: an offset of 2, "
                                           "position p reads row p + 2; RoBERTa: pad_token_id + 1), so the table is "
                                           "shown from there: the rows before it hold no position (RoBERTa's padding "
                                           "token reads row pad_token_id)."),
                                   str(result.first_row))
            if result.note_kind == "rope":
                text = fill(self.tr("%1 has no learned position table (RoPE acts inside attention): showing "
                               "MiniLM's."), result.requested) + " " + text
            elif result.note_kind == "alibi":
                text = fill(self.tr("%1 has no learned position table (ALiBi biases its attention scores): "
                                    "showing MiniLM's."), result.requested) + " " + text
            elif result.note_kind == "relative":      # T5
                text = fill(self.tr("%1 has no learned position table (T5 adds a relative bias to its attention "
                                    "scores): showing MiniLM's."), result.requested) + " " + text
            elif result.note_kind == "failed":
                text = fill(self.tr("%1: showing MiniLM's table instead."),   # the reason names the model
                            localized(result.reason, current_language())) + " " + text
            self.note.setText(text.strip())
            set_title(self.sims[0].plot, fill(self.tr("cosine similarity, %1's table"), result.source)
                      if result.computed else self.tr("cosine similarity, learned"))
        self.pca.draw(result, result.source if result.computed else self.tr("learned"), self.tr("sinusoidal"))
        if (n, d) != self._extent:
            self._extent = (n, d)
            for panel in self.tables:
                panel.plot.setRange(xRange=(0, d), yRange=(0, n), padding=0)
            for panel in self.sims:
                panel.plot.setRange(xRange=(0, n), yRange=(0, n), padding=0)

    @staticmethod
    def _draw(panel, shown, levels) -> None:
        """A table's block means (compute.screen.block_means) over the part of the table they cover."""
        panel.show(shown.data, 0, 0, shown.width, shown.height, levels)

    def visible_region(self) -> tuple[int, int, int, int, int, int]:
        """(0, 0, 0, 0, rows_px, cols_px): the pixels of one image panel (the four are alike); the
        compute draws the tables at that size."""
        rect = self.tables[1].plot.getViewBox().sceneBoundingRect()
        return 0, 0, 0, 0, max(1, int(rect.height())), max(1, int(rect.width()))

    def set_cursor(self, pos: int | None) -> None:
        if pos is not None and (self.result is None or not 0 <= pos < self.result.shape[0]):
            pos = None                   # none, or past the rows shown: no mark (an old one was left)
        for line in self.lines:
            line_at(line, pos)

    def set_line_scale(self, scale: float) -> None:
        """Room between the two rows for the colour bars' end labels ("-1.0" above "1.0"),
        which are drawn centred on the bars' ends."""
        self.canvas.ci.layout.setVerticalSpacing(6 * scale)

    def set_colormap(self, name: str) -> None:
        self.pca.set_colormap(name)
        for panel in self.tables + self.sims:
            panel.set_colormap(name)

    def _on_moved(self, scene_pos) -> None:
        r = self.result
        if r is None:
            return
        n = r.shape[0]
        for panel in self.sims:
            cell = cell_under(panel.plot, scene_pos, n, n)
            if cell:
                self._show_pair(*cell)
                return

    def _show_pair(self, i: int, j: int) -> None:
        r = self.result
        learned = (f"{r.sim_learned[i, j]:+.3f}" if r.sim_learned is not None else "—")
        self.readout.setText(fill(self.tr("p = %1, q = %2 (offset %3): cosine learned %4, sinusoidal %5"), str(i),
                                  str(j), str(j - i), learned, f"{r.sim_sinusoidal[i, j]:+.3f}"))
        self.hovered.emit(i, j)
