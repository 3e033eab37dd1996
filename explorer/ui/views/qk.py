"""RoPE with real weights: a model's layer-0 q and k for the sentence, rotated, and their logits per head."""

from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QLabel

from explorer.compute import qk as data
from explorer.ui.i18n import Retranslatable, current_language
from explorer.ui.views.thick_curve import add_line
from explorer.ui.views.tick_room import whole_ticks
from explorer.ui.views.base import SteadyLabel, cell_under
from explorer.ui.views.titles import equal_width, set_title
from explorer.ui.views.ranges import held_span, set_extent, steady_range, symmetric_levels
from explorer.ui.views.panel_view import PALETTE, PanelView, set_pen
from explorer.errors import localized
from explorer.translations import fill, layer_list, number_text
from explorer.ui.views.rope_words import rope_parts
from explorer.ui.views import qk_words

WHOLE_TICKS = 12           # distance spans up to this get a tick at every whole m − n
MIN_DATA_PX = 90           # each panel's data area at least this high, else the canvas draws smaller (fitting_canvas)


class QkView(Retranslatable, PanelView):
    title = "qk"

    def __init__(self, parent=None):
        super().__init__(data.QkState(), parent)
        self.head_label = QLabel()
        self.controls.addWidget(self.head_label)
        self.head_box = self.spin("", 0, 1023, self.state.head, "head")
        self.head_info = SteadyLabel(wrap=False)     # changes with every head
        self.controls.addWidget(self.head_info)
        self.causal_box = self.check("", self.state.causal, "causal")
        self.note = QLabel("")
        self.note.setWordWrap(True)
        self.note.hide()
        self.box.insertWidget(2, self.note)
        self.canvas.min_data_px = MIN_DATA_PX        # (every plot below: fitting_canvas)
        self.q_img = self.image(0, 0, "", "")
        self.k_img = self.image(0, 2, "", "")
        self.rot_img = self.image(0, 4, "", "")
        self.plain_img = self.image(1, 0, "", "")
        for panel in (self.rot_img, self.plain_img):
            panel.plot.setAspectLocked(True)
        for col, panel in ((0, self.q_img), (2, self.k_img)):
            self.canvas.ci.layout.setColumnStretchFactor(col, 1)   # q and k alike, whatever their titles
            equal_width(panel.plot, 200)
        self.position_axes = (self.q_img.plot.getAxis("left"), self.k_img.plot.getAxis("left"),
                              *(p.plot.getAxis(a) for p in (self.rot_img, self.plain_img)
                                for a in ("left", "bottom")))
        self.dist = self.plot(1, 2, "m − n", "", "", colspan=4, whole_x=True)
        self.dist.addLine(x=0, pen=pg.mkPen("#bbbbbb", width=1))
        self.legend(self.dist)
        self.curve_rot = add_line(self.dist, name="RoPE")
        self.curve_plain = add_line(self.dist, name="plain")
        self.canvas.scene().sigMouseMoved.connect(self._on_moved)
        self.retranslate_ui()

    def _legend_text(self, kind: str) -> None:
        """The distance chart's legend: with / without what puts position in (qk_words.legend)."""
        legend = self.dist.legend
        if legend is not None:
            for sample, label in legend.items:
                text = qk_words.legend(kind, sample.item is self.curve_rot)
                if label.text != text:        # (each draw calls this: a LabelItem's setText re-lays out)
                    label.setText(text)

    def retranslate_ui(self) -> None:
        kind = _kind(self.result) if self.result is not None and not self.result.error else "rope"
        self.explain.setText(qk_words.explain(kind))
        self.head_label.setText(self.tr("head"))
        self.causal_box.setText(self._causal_text(None))
        self.causal_box.setToolTip(self.tr("A decoder's attention at query m reads only keys n ≤ m (in a "
                                           "sliding-window layer, only the latest ones; in a chunked layer, "
                                           "those of its own chunk): the logits of the other keys are hidden "
                                           "(blank), and the mean logit at each distance m − n is taken over "
                                           "the pairs it reads."))
        ch, pos = self.tr("channel"), self.tr("position")
        for panel, x, y in ((self.q_img, ch, pos), (self.k_img, ch, pos), (self.rot_img, self.tr("key n"),
                            self.tr("query m")), (self.plain_img, self.tr("key n"), self.tr("query m"))):
            panel.plot.setLabel("bottom", x)
            panel.plot.setLabel("left", y)
        self.dist.setLabel("left", self.tr("mean logit"))
        self._legend_text(kind)
        if self.result is not None:
            self.draw(self.result)

    def draw(self, r) -> None:
        if r.error:
            reason = fill(self.tr("Nothing to show: %1"), localized(r.error, current_language()))
            self.note.setText(f'<b style="color:#a33">{reason}</b>')
            self.note.show()
            for panel in (self.q_img, self.k_img, self.rot_img, self.plain_img):
                panel.clear()
            self.curve_rot.setData([], [])
            self.curve_plain.setData([], [])
            self.head_info.setText("")
            self.explain.setText(qk_words.explain("rope"))
            self._legend_text("rope")
            self.causal_box.setText(self._causal_text(None))
            self.set_readout(" ")
            return
        self.note.setVisible(bool(r.note))
        if r.note_kind == "failed":
            self.note.setText(fill(self.tr("%1 could not be read: showing SmolLM2-135M instead. (%2)"), r.requested,
                                   localized(r.reason, current_language())))
        else:
            self.note.setText(localized(r.note, current_language()))
        if r.warning:           # NaN / inf in the model: named in red above the note
            plain = html.escape(self.note.text()) if r.note else ""
            warning = html.escape(localized(r.warning, current_language()))
            self.note.setText(f'<b style="color:#a33">{warning}</b>' + (f"<br>{plain}" if plain else ""))
            self.note.show()
        self.causal_box.setText(self._causal_text(r.window, r.chunk) if not r.encoder else
                                self.tr("nothing masked: an encoder's every query reads every key"))
        self.causal_box.setEnabled(not r.encoder)
        self.causal_box.blockSignals(True)              # an encoder: shown unticked, the State's choice kept for
        self.causal_box.setChecked(r.masked)            # the next decoder
        self.causal_box.blockSignals(False)
        self.quiet_range(self.head_box, self.head_box.minimum(), max(r.n_heads - 1, 0))
        self.quiet_set(self.head_box, r.head)
        h, n, hd = r.head, r.n_shown, r.head_dim
        info = fill(self.tr("of %1 (reads kv head %2 of %3) · %4"), str(r.n_heads), str(int(r.kv_head[h])),
                    str(r.n_kv_heads), r.model_name)
        if r.sinks.size and np.isfinite(r.sink_share[h]):     # GPT-OSS: the softmax's extra slot of this head
            info += " · " + fill(self.tr("sink logit %1 (on average %2% of a query's weights)"),
                                 f"{float(r.sinks[h]):+.3f}", f"{100 * float(r.sink_share[h]):.0f}")
        elif r.sinks.size:          # (a non-finite sink or logit: the model's warning names it)
            info += " · " + fill(self.tr("sink logit %1"), f"{float(r.sinks[h]):+.3f}")
        if r.alibi:                 # BLOOM: this head's ALiBi slope
            info += " · " + fill(self.tr("ALiBi slope %1"), f"{float(r.slopes[h]):.4g}")
        kind = _kind(r)
        self.explain.setText(qk_words.explain(kind))
        self._legend_text(kind)
        self.head_info.setText(info)
        self.head_info.setToolTip(self.tr(
            "The sink logit is a learned score of no key: each query's softmax weighs it beside the logits, so "
            "its weights over the keys add up to less than 1 (the rest goes to no token).") if r.sinks.size else "")
        # cell i is drawn over [i - 1/2, i + 1/2): the ticks of a 5-token sentence read 0 .. 4 on
        # its rows' centres (from 0, "5" stood on the last row's far edge, a position it lacks)
        qk_levels = symmetric_levels(np.concatenate([r.q[h].ravel(), r.k[h].ravel()]))
        self.q_img.show(r.q[h], -0.5, -0.5, hd, n, qk_levels)
        self.k_img.show(r.k[h], -0.5, -0.5, hd, n, qk_levels)
        levels = symmetric_levels(np.concatenate([r.shown.ravel(), r.shown_plain.ravel()]))
        self.rot_img.show(r.shown, -0.5, -0.5, n, n, levels)     # masked keys (causal): NaN, blank
        self.plain_img.show(r.shown_plain, -0.5, -0.5, n, n, levels)
        for panel, w in ((self.q_img, hd), (self.k_img, hd), (self.rot_img, n), (self.plain_img, n)):
            set_extent(panel.plot, (-0.5, w - 0.5), (-0.5, max(n, 1) - 0.5))
        for axis in self.position_axes:   # positions 0 .. n - 1 only, as many as fit the axis at its
            whole_ticks(axis, n)          # font: no "position 0.5", none in the aspect-locked margin
        for panel, text in zip((self.q_img, self.k_img, self.rot_img, self.plain_img), qk_words.titles(kind, r)):
            set_title(panel.plot, text, size="9pt")
        set_title(self.dist, self.tr("mean logit against distance m − n (pairs with the same m − n)"),
                  size="9pt")
        reach = min(r.window or n, r.chunk or n)                       # m - n below it can be read
        seen = slice(max(n - 1, 0) if r.masked else 0,           # causal: m - n >= 0 only, and
                     n - 1 + reach if r.masked else None)        # < the sliding window or chunk
        distance = r.distance[seen]
        rot, plain = ((r.by_distance_read, r.by_distance_plain_read) if r.masked else  # the pairs read
                      (r.by_distance, r.by_distance_plain))               # (a chunk's cut is one of pairs)
        self.curve_rot.setData(distance, rot[h][seen])
        set_pen(self.curve_rot, self.pen(PALETTE[0]))
        self.curve_plain.setData(distance, plain[h][seen])
        set_pen(self.curve_plain, self.pen(PALETTE[1]))
        both = np.concatenate([rot[h][seen], plain[h][seen]])
        whole = bool(len(distance)) and distance[-1] - distance[0] <= WHOLE_TICKS   # a short sentence:
        if getattr(self, "_whole_ticks", None) != whole:                       # no "m − n = 0.5" ticks
            self._whole_ticks = whole
            axis = self.dist.getAxis("bottom")
            axis.setTickSpacing(1, 1) if whole else axis.setTickSpacing()
        if len(distance) and both.size:   # nice ends: the axes redraw only when these move
            steady_range(self.dist, x=(float(distance[0]), float(distance[-1])),
                         y=held_span(self.dist, "y", float(np.nanmin(both)), float(np.nanmax(both))))
        shown = (self.tr("1 token") if n == 1 else fill(self.tr("%1 tokens"), str(n))) if n == r.n_total \
            else fill(self.tr("the first %1 of %2 tokens"), str(n), str(r.n_total))
        rope = number_text(r.rope_base, 6) + "".join(
            self.tr(", ") + part for part in rope_parts(r.rope_label, r.rotary_fraction, r.longrope_factors,
                                                        r.neighbour_pairs, r.yarn_unrounded, r.decoupled_rope,
                                                        r.mrope, r.still_pairs))
        attention = ([fill(self.tr("a sliding window of %1 tokens"), f"{r.window:,}")] if r.window is not None
                     else []) + ([fill(self.tr("chunks of %1 tokens"), f"{r.chunk:,}")] if r.chunk is not None
                                 else []) + ([self.tr("one sink logit per head")] if r.sinks.size else [])
        if attention:                                  # how the layer masks and weighs, apart from its RoPE
            rope += fill(self.tr("; attention: %1"), self.tr(", ").join(attention))
        if r.nope_layers:                              # layer 0 turns; these do not (EXAONE 4.0's full ones)
            rope += fill(self.tr("; no RoPE in layer %1") if len(r.nope_layers) == 1 else
                         self.tr("; no RoPE in layers %1"), layer_list(r.nope_layers))
        if kind != "rope":
            self.set_readout(qk_words.readout(kind, r, shown))
            return
        self.set_readout(fill(self.tr("%1: layer 0, %2 heads, head_dim %3, RoPE base %4; %5"), r.model_name,
                              str(r.n_heads), str(hd), rope, shown))

    def _causal_text(self, window: int | None, chunk: int | None = None) -> str:
        """The causal box's label: what it masks, the layer's sliding window or chunks included."""
        if chunk is not None:
            return fill(self.tr("causal, in chunks of %1 (mask future keys and the keys of earlier chunks)"),
                        f"{chunk:,}")
        if window is None:
            return self.tr("causal (mask future keys)")
        return fill(self.tr("causal, sliding window of %1 (mask future keys and keys %1 or more tokens back)"),
                    f"{window:,}")

    def _on_moved(self, scene_pos) -> None:
        r = self.result
        if r is None or r.error:
            return
        n = r.n_shown
        for panel, values in ((self.rot_img, r.logits), (self.plain_img, r.logits_plain)):
            cell = cell_under(panel.plot, scene_pos, n, n, centred=True)
            if cell:
                m, k = cell
                h = r.head
                text = fill(qk_words.hover(_kind(r)), str(m), r.tokens[m], str(k), r.tokens[k], str(m - k),
                            f"{r.logits[h, m, k]:+.3f}", f"{r.logits_plain[h, m, k]:+.3f}")
                if r.masked and k > m:
                    text += " " + self.tr("(masked: the key comes after the query)")
                elif r.masked and r.window is not None and m - k >= r.window:
                    text += " " + fill(self.tr("(masked: the key is %1 or more tokens back, outside layer 0's "
                                               "sliding window)"), f"{r.window:,}")
                elif r.masked and r.chunk is not None and k // r.chunk != m // r.chunk:
                    text += " " + fill(self.tr("(masked: the key is in an earlier chunk of %1 tokens than the "
                                               "query)"), f"{r.chunk:,}")
                self.set_readout(text)
                return


def _kind(r) -> str:
    """How the shown model puts position into attention: "rope", "alibi" (a bias), "relative" (T5's bias per bucket),
    "learned" (rows in X), "sinusoidal" (XGLM's computed rows in X) or "sinusoidal_ids" (M2M100's encoder's, at
    position ids made from the tokens); qk_words has each one's words."""
    sinusoidal = "sinusoidal_ids" if r.encoder else "sinusoidal"
    return ("alibi" if r.alibi else "relative" if r.relative else (sinusoidal if r.sinusoidal else "learned")
            if r.learned else "rope")
