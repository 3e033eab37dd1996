"""Tokenized sentence: text -> token chips -> one-hot x E -> E[ids] (x sqrt(d)) + PE = X, and the scale gauge.

The view owns three inputs the lead writes into Params (`text_changed`, `tokenizer_changed`,
`scale_changed`) and one it keeps itself: the embedding source, which picks `self.compute_fn`
(compute_tokens.tokens or compute_tokens.tokens_minilm). Draws only; all numbers come from the result.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFontMetrics
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from explorer import compute_tokens
from explorer.backend.pretrained import minilm_available
from explorer.backend.tokens import TOKENIZERS, available_tokenizers
from explorer.params import TEXT_LIMIT
from explorer.ui.i18n import Retranslatable
from explorer.ui.views.base import CURSOR_PEN, View, symmetric_levels

DEBOUNCE_MS = 200
CHIP_SPECIAL = QColor("#fdd9a0")    # [CLS], [SEP]
CHIP_PARTIAL = QColor("#f6c6d8")    # incomplete UTF-8 bytes, shown as hex
CHIP_UNKNOWN = QColor("#d0d0d0")    # [UNK]
CHIP_PLAIN = QColor("#dcebf7")


class TokensView(Retranslatable, View):
    title = "tokens"
    compute_fn = staticmethod(compute_tokens.for_params)
    text_changed = Signal(str)           # debounced text for Params.text
    tokenizer_changed = Signal(str)      # cl100k / wordpiece / char for Params.tokenizer
    scale_changed = Signal(bool)         # for Params.scale_embedding
    source_changed = Signal(str)         # untrained / minilm (view-local; the view recomputes itself)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.source = "untrained"
        line = self.fontMetrics().lineSpacing()
        self.text_box = QPlainTextEdit()
        self.text_box.setFixedHeight(line * 3 + 14)
        self.tokenizer_box = QComboBox()
        for key in TOKENIZERS:
            self.tokenizer_box.addItem(key, key)
        self.source_box = QComboBox()
        self.source_box.addItem("untrained", "untrained")
        self.source_box.addItem("MiniLM", "minilm")
        self.scale_box = QCheckBox()
        self.tokenizer_label, self.source_label = QLabel(), QLabel()
        form = QGridLayout()
        form.setVerticalSpacing(2)
        form.addWidget(self.tokenizer_label, 0, 0)
        form.addWidget(self.tokenizer_box, 0, 1)
        form.addWidget(self.source_label, 1, 0)
        form.addWidget(self.source_box, 1, 1)
        form.addWidget(self.scale_box, 2, 1)
        top = QHBoxLayout()
        top.addWidget(self.text_box, 3)
        top.addLayout(form, 2)
        self.box.addLayout(top)
        self.notice = QLabel("")
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("color: #a33; font-weight: bold;")
        self.notice.hide()
        self.box.addWidget(self.notice)
        self.chips = QListWidget()
        self.chips.setFlow(QListWidget.Flow.LeftToRight)
        self.chips.setWrapping(True)
        self.chips.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.chips.setSpacing(2)
        self.chips.setFixedHeight(line * 4 + 26)            # two rows of chips, then it scrolls
        self.chips.setSelectionMode(QListWidget.SelectionMode.SingleSelection)
        self.box.addWidget(self.chips)
        self.legend = QLabel("")
        self.box.addWidget(self.legend)
        self.pages = QTabWidget()
        self.lookup = MatrixRow(("×", "="), position_rows=(True, False, True), binary_first=True)
        self.sum = MatrixRow(("+", "="), position_rows=(True, True, True))
        self.gauge = GaugePanel()
        for w in (self.lookup, self.sum, self.gauge):
            self.pages.addTab(w, "")
        self.pages.setCurrentIndex(1)
        self.box.addWidget(self.pages, 1)
        self.box.addWidget(self.readout)
        self._timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._timer.timeout.connect(self._emit_text)
        self.text_box.textChanged.connect(self._timer.start)
        self.tokenizer_box.currentIndexChanged.connect(
            lambda _: self.tokenizer_changed.emit(self.tokenizer_box.currentData()))
        self.source_box.currentIndexChanged.connect(self._on_source_changed)
        self.scale_box.toggled.connect(self.scale_changed.emit)
        self.chips.currentRowChanged.connect(self._on_chip_selected)
        self.sum.hovered.connect(lambda _i, pos, ch: self._on_sum_hovered(pos, ch))
        self.retranslate_ui()

    # texts ---------------------------------------------------------------------------------------
    def retranslate_ui(self) -> None:
        self.explain.setText(self.tr(
            "Text → tokens → token IDs → rows of the embedding table E → X = E[ids]·√d_model + PE, "
            "the first layer's input. Looking a row up is the same as multiplying a one-hot matrix by E."))
        self.text_box.setPlaceholderText(self.tr("Type a sentence: English, 中文, mixed, emoji …"))
        self.tokenizer_label.setText(self.tr("Tokenizer"))
        self.source_label.setText(self.tr("Embedding table"))
        self.scale_box.setText(self.tr("× √d_model"))
        labels = {"cl100k": self.tr("cl100k_base BPE (GPT-4)"),
                  "wordpiece": self.tr("WordPiece (BERT, MiniLM)"),
                  "char": self.tr("characters")}
        reasons = available_tokenizers()
        for i in range(self.tokenizer_box.count()):
            key = self.tokenizer_box.itemData(i)
            self.tokenizer_box.setItemText(i, labels[key])
            _enable_item(self.tokenizer_box, i, reasons.get(key))
        self.source_box.setItemText(1, self.tr("trained all-MiniLM-L6-v2 (d = 384)"))
        _enable_item(self.source_box, 1, minilm_available())
        self.pages.setTabText(0, self.tr("Lookup: one-hot × E"))
        self.pages.setTabText(1, self.tr("X = E·√d + PE"))
        self.pages.setTabText(2, self.tr("Scale gauge: why √d_model"))
        self.legend.setText(
            self.tr("Chip: token, ID · position.") + "  " + _swatch(CHIP_SPECIAL, self.tr("special token"))
            + "  " + _swatch(CHIP_PARTIAL, self.tr("partial UTF-8 bytes (hex)")) + "  "
            + _swatch(CHIP_UNKNOWN, self.tr("unknown ([UNK])")) + "  " + self.tr("␣ = space"))
        if self.result is not None:
            self.set_result(self.result)

    # inputs --------------------------------------------------------------------------------------
    def _emit_text(self) -> None:
        text = self.text_box.toPlainText()
        if len(text) > TEXT_LIMIT:
            self._show_notice(self.tr("The text has %1 characters; at most %2 can be tokenized. "
                                      "Shorten it to see its tokens.")
                              .replace("%1", f"{len(text):,}").replace("%2", f"{TEXT_LIMIT:,}"))
            return
        self.text_changed.emit(text)

    def _on_source_changed(self, _index: int) -> None:
        """The source is a Params field: emit it; the controller recomputes and redraws."""
        self.source = self.source_box.currentData()
        self.tokenizer_box.setEnabled(self.source == "untrained")
        self.source_changed.emit(self.source)

    def _show_notice(self, text: str) -> None:
        self.notice.setText(text)
        self.notice.setVisible(bool(text))

    # drawing -------------------------------------------------------------------------------------
    def set_result(self, result) -> None:
        self.result = result
        p = result.params
        self._sync_inputs(p)
        self._show_notice(self._notice_text(result))
        self._fill_chips(result)
        if result.error:
            for panel in (self.lookup, self.sum):
                panel.clear()
            self.gauge.clear()
            return
        n, d = result.token_rows.shape
        labels = [_chip_text(t) for t in result.tokens]
        ids = [str(int(c)) for c in result.columns]
        self.lookup.set_titles((self.tr("one-hot (%1 × %2 used ids)").replace("%1", str(n))
                                .replace("%2", str(len(ids))),
                                self.tr("E rows of those ids (%1 × %2)").replace("%1", str(len(ids)))
                                .replace("%2", str(d)),
                                self.tr("E[ids]: the sentence's rows")))
        e_levels = symmetric_levels(result.table_rows)
        self.lookup.show(0, result.one_hot, (0.0, 1.0), x_ticks=ids, y_ticks=labels, binary=True)
        self.lookup.show(1, result.table_rows, e_levels, y_ticks=ids)
        self.lookup.show(2, result.token_rows, e_levels, y_ticks=labels)
        scaled = result.scaled_rows                                            # (n, d)
        levels = symmetric_levels(np.concatenate([scaled.ravel(), result.pe_rows.ravel(), result.x.ravel()]))
        trained = result.source == "minilm"
        e_title = (self.tr("word embedding E[ids]") if trained else
                   self.tr("E[ids] × √%1 = %2").replace("%1", str(d)).replace("%2", f"{result.scale:.1f}")
                   if result.scale != 1.0 else self.tr("E[ids] (not scaled)"))
        self.sum.set_titles((e_title,
                             self.tr("learned position + token type") if trained
                             else self.tr("sinusoidal PE[0 … %1], all within ±1").replace("%1", str(max(n - 1, 0))),
                             self.tr("X (LayerNorm follows)") if trained else self.tr("X, the input")))
        positions = [str(i) for i in range(n)]
        for i, data in enumerate((scaled, result.pe_rows, result.x)):
            self.sum.show(i, data, levels, y_ticks=positions if i == 1 else labels)
        self.sum.align_axes()
        self.lookup.align_axes()
        self.gauge.show(result, labels)

    def _sync_inputs(self, p) -> None:
        if not self._timer.isActive() and self.text_box.toPlainText() != p.text:
            self.text_box.blockSignals(True)
            self.text_box.setPlainText(p.text)
            self.text_box.blockSignals(False)
        self.source = p.embedding_source
        self.tokenizer_box.setEnabled(self.source == "untrained")
        for box, value in ((self.tokenizer_box, p.tokenizer), (self.scale_box, p.scale_embedding),
                           (self.source_box, p.embedding_source)):
            box.blockSignals(True)
            if isinstance(box, QComboBox):
                box.setCurrentIndex(max(0, box.findData(value)))
            else:
                box.setChecked(value)
            box.blockSignals(False)
        self.scale_box.setEnabled(self.source == "untrained")
        self.source_box.setItemText(0, self.tr("untrained, seed %1 (d = %2)").replace("%1", str(p.seed))
                                    .replace("%2", str(p.d_model)))

    def _notice_text(self, r) -> str:
        n, limit, total = r.n_shown, r.limit, r.n_total
        if r.error:
            return self.tr("Nothing to show: %1").replace("%1", r.error)
        lines = []
        if r.limit_kind == "max_len":
            lines.append(self.tr(
                "The text has %1 tokens but the position table stops at max_len = %2. As the seeds say, "
                "either extend the table (raise max_len) or stop the sequence (shorten the text). "
                "Shown: the first %3 tokens only.").replace("%1", str(total)).replace("%2", str(limit))
                .replace("%3", str(n)))
        elif r.limit_kind == "learned":
            lines.append(self.tr(
                "The text has %1 tokens but MiniLM learned only %2 positions. A learned table cannot be "
                "extended without training, so the sequence must stop here. Shown: the first %3 tokens "
                "only.").replace("%1", str(total)).replace("%2", str(limit)).replace("%3", str(n)))
        elif r.limit_kind == "view":
            lines.append(self.tr("The text has %1 tokens; this view shows the first %2.")
                         .replace("%1", str(total)).replace("%2", str(n)))
        if r.source == "minilm" and r.params.tokenizer != "wordpiece":
            lines.append(self.tr("MiniLM has rows only for WordPiece IDs, so the text was cut with WordPiece."))
        return "\n".join(lines)

    def _fill_chips(self, r) -> None:
        self.chips.blockSignals(True)
        self.chips.clear()
        for pos, tok in enumerate(r.tokens):
            item = QListWidgetItem(f"{_chip_text(tok)}\n{tok.id} · p{pos}")
            item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            colour = (CHIP_SPECIAL if tok.special else CHIP_PARTIAL if tok.partial
                      else CHIP_UNKNOWN if tok.text == "[UNK]" else CHIP_PLAIN)
            item.setBackground(colour)
            item.setForeground(QColor("black"))
            tip = self.tr("position %1, ID %2, characters %3–%4").replace("%1", str(pos)) \
                .replace("%2", str(tok.id)).replace("%3", str(tok.start)).replace("%4", str(tok.end))
            if tok.partial:
                tip += "\n" + self.tr("incomplete UTF-8 bytes of “%1”").replace(
                    "%1", r.params.text[tok.start:tok.end])
            item.setToolTip(tip)
            self.chips.addItem(item)
        self.chips.blockSignals(False)

    # cursor and hover ----------------------------------------------------------------------------
    def set_cursor(self, pos: int) -> None:
        if self.result is None or not 0 <= pos < self.result.n_shown:
            return
        self.chips.blockSignals(True)
        self.chips.setCurrentRow(pos)
        self.chips.blockSignals(False)
        self.sum.mark_row(pos)
        self.lookup.mark_row(pos)

    def _on_chip_selected(self, row: int) -> None:
        if row >= 0:
            self.sum.mark_row(row)
            self.lookup.mark_row(row)
            self.cursor_moved.emit(row)

    def _on_sum_hovered(self, pos: int, ch: int) -> None:
        r = self.result
        if r is None or r.error or not (0 <= pos < r.n_shown and 0 <= ch < r.d_model):
            return
        self.readout.setText(self.tr("position %1 “%2”, channel %3: E·scale = %4  +  PE = %5  =  X = %6")
                             .replace("%1", str(pos)).replace("%2", _chip_text(r.tokens[pos]))
                             .replace("%3", str(ch)).replace("%4", f"{r.scaled_rows[pos, ch]:+.4f}")
                             .replace("%5", f"{r.pe_rows[pos, ch]:+.4f}").replace("%6", f"{r.x[pos, ch]:+.4f}"))
        self.hovered.emit(pos, ch)

    def set_colormap(self, name: str) -> None:
        self.lookup.set_colormap(name)
        self.sum.set_colormap(name)


def _chip_text(tok) -> str:
    """Token text with visible spaces; hex bytes of partial tokens kept as they are."""
    if tok.partial:
        return tok.text
    return tok.text.replace(" ", "␣") if tok.text else "∅"


def _key(title: str, entries) -> str:
    """Plot title with coloured squares naming the bars."""
    parts = [f'<span style="color:{c}">■</span>&nbsp;{t}' for c, t in entries]
    return f"{title}: " + " &nbsp; ".join(parts)


def _swatch(colour: QColor, text: str) -> str:
    return f'<span style="background:{colour.name()}">&nbsp;&nbsp;&nbsp;</span>&nbsp;{text}'


def _enable_item(box: QComboBox, index: int, reason: str | None) -> None:
    item = box.model().item(index)
    item.setEnabled(reason is None)
    item.setToolTip(reason or "")



class MatrixRow(pg.GraphicsLayoutWidget):
    """Three heatmaps in a row with operator signs between them ("×", "=") and one shared colour bar."""

    hovered = Signal(int, int, int)      # (panel, row, column)

    def __init__(self, ops: tuple[str, str], position_rows=(True, True, True), binary_first=False,
                 cmap: str = "CET-D1"):
        super().__init__()
        self.plots, self.images, self.lines = [], [], []
        self.position_rows = position_rows
        self.binary_first = binary_first
        for i in range(3):
            plot = self.addPlot(row=0, col=2 * i, axisItems={"left": LabelAxis("left"),
                                                             "bottom": LabelAxis("bottom")})
            plot.invertY(True)
            plot.setMenuEnabled(False)
            plot.hideButtons()
            image = pg.ImageItem()
            plot.addItem(image)
            line = pg.InfiniteLine(angle=0, pen=CURSOR_PEN, movable=False)
            line.hide()
            plot.addItem(line, ignoreBounds=True)
            self.plots.append(plot)
            self.images.append(image)
            self.lines.append(line)
            if i < 2:
                sign = pg.LabelItem(ops[i], size="22pt")
                self.addItem(sign, row=0, col=2 * i + 1)
                self.ci.layout.setColumnStretchFactor(2 * i + 1, 0)
            self.ci.layout.setColumnStretchFactor(2 * i, 4)
        if binary_first:
            self.images[0].setColorMap(pg.ColorMap([0.0, 1.0], [(255, 255, 255), (20, 20, 20)]))
        coloured = self.images[1:] if binary_first else self.images
        self.bar = pg.ColorBarItem(values=(-1, 1), colorMap=pg.colormap.get(cmap), interactive=False,
                                   width=16)
        self.bar.setImageItem(coloured)
        self.addItem(self.bar, row=0, col=6)
        self.scene().sigMouseMoved.connect(self._on_moved)

    def set_titles(self, titles) -> None:
        for plot, title in zip(self.plots, titles):
            plot.setTitle(title, size="10pt")

    def show(self, i: int, data: np.ndarray, levels, x_ticks=None, y_ticks=None, binary=False) -> None:
        """Draw data (rows x cols) in panel i; tick labels for rows/columns when few enough."""
        rows, cols = data.shape if data.size else (0, 0)
        image, plot = self.images[i], self.plots[i]
        image.setImage(data if data.size else np.zeros((1, 1), np.float32), autoLevels=False, levels=levels)
        image.setRect(0, 0, max(cols, 1), max(rows, 1))
        if not (binary and self.binary_first) and data.size:
            self.bar.setLevels(levels)
        _ticks(plot.getAxis("left"), y_ticks, rows)
        _ticks(plot.getAxis("bottom"), x_ticks, cols)
        plot.setRange(xRange=(0, max(cols, 1)), yRange=(0, max(rows, 1)), padding=0)

    def align_axes(self) -> None:
        """Give every left axis the widest one's width, so the three panels line up."""
        axes = [plot.getAxis("left") for plot in self.plots]
        width = max(a.label_width() for a in axes)
        for a in axes:
            a.setWidth(width)

    def clear(self) -> None:
        for image, plot in zip(self.images, self.plots):
            image.clear()
            plot.setTitle("")

    def mark_row(self, pos: int) -> None:
        for line, is_pos in zip(self.lines, self.position_rows):
            if is_pos:
                line.setPos(pos + 0.5)
                line.show()

    def set_colormap(self, name: str) -> None:
        self.bar.setColorMap(pg.colormap.get(name))

    def _on_moved(self, scene_pos) -> None:
        for i, plot in enumerate(self.plots):
            vb = plot.getViewBox()
            if vb.sceneBoundingRect().contains(scene_pos) and self.images[i].image is not None:
                pt = vb.mapSceneToView(scene_pos)
                self.hovered.emit(i, int(np.floor(pt.y())), int(np.floor(pt.x())))
                return


def _ticks(axis, labels, count: int, centre: float = 0.5) -> None:
    """Name rows/columns with labels (as many as fit), or plain numbers when labels is None."""
    axis.set_labels(labels[:count] if labels is not None and count else None, centre)


class LabelAxis(pg.AxisItem):
    """An axis that names rows/columns (token texts, vocabulary ids), thinned to what fits in its pixels."""

    def __init__(self, orientation: str):
        super().__init__(orientation)
        self.labels: list[str] | None = None
        self.centre = 0.5
        self._px = 12.0

    def set_labels(self, labels, centre: float = 0.5) -> None:
        self.labels = list(labels) if labels else None
        self.centre = centre
        fm = QFontMetrics(self.style.get("tickFont") or self.font())
        if self.labels and self.orientation in ("left", "right"):
            self._px = fm.height() + 1.0
        elif self.labels:
            self._px = max(fm.horizontalAdvance(t) for t in self.labels) + 6.0
        self.picture = None
        self.update()

    def label_width(self) -> int:
        """Pixels the labels need (plain numbers: a default)."""
        if not self.labels:
            return 40
        fm = QFontMetrics(self.style.get("tickFont") or self.font())
        return max(fm.horizontalAdvance(t) for t in self.labels) + 14

    def tickValues(self, minVal, maxVal, size):
        if not self.labels:
            return super().tickValues(minVal, maxVal, size)
        minVal, maxVal = sorted((minVal, maxVal))                                 # inverted y comes reversed
        per_row = size / max(maxVal - minVal, 1e-9)                              # pixels per row
        step = max(1, math.ceil(self._px / max(per_row, 1e-9)))
        lo = max(0, math.ceil(minVal - self.centre))
        hi = min(len(self.labels) - 1, math.floor(maxVal - self.centre))
        first = lo + (-lo) % step
        return [(float(step), [j + self.centre for j in range(first, hi + 1, step)])]

    def tickStrings(self, values, scale, spacing):
        if not self.labels:
            return super().tickStrings(values, scale, spacing)
        out = []
        for v in values:
            j = round(v - self.centre)
            out.append(self.labels[j] if 0 <= j < len(self.labels) else "")
        return out


class GaugePanel(Retranslatable, QWidget):
    """Per token: |E|, |E|·√d, |PE| as grouped bars, and the angle PE turns X away from E."""

    COLOURS = ("#0072B2", "#D55E00", "#009E73")

    def __init__(self, parent=None):
        super().__init__(parent)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        self.summary.setStyleSheet("font-weight: bold;")
        self.why = QLabel("")
        self.why.setWordWrap(True)
        self.canvas = pg.GraphicsLayoutWidget()
        self.norms = self.canvas.addPlot(row=0, col=0, axisItems={"bottom": LabelAxis("bottom")})
        self.angles = self.canvas.addPlot(row=0, col=1, axisItems={"bottom": LabelAxis("bottom")})
        self.canvas.ci.layout.setColumnStretchFactor(0, 1)
        self.canvas.ci.layout.setColumnStretchFactor(1, 1)
        for plot in (self.norms, self.angles):
            plot.setMenuEnabled(False)
            plot.hideButtons()
            plot.showGrid(y=True, alpha=0.3)
        box.addWidget(self.summary)
        box.addWidget(self.canvas, 1)
        box.addWidget(self.why)
        self.result = None
        self.labels: list[str] = []
        self.retranslate_ui()

    def retranslate_ui(self) -> None:
        self.norms.setLabel("left", self.tr("length"))
        self.angles.setLabel("left", self.tr("degrees"))
        self.why.setText(self.tr(
            "A sinusoidal PE row has length √(d/2). nn.Embedding starts at N(0, 1), so |E| ≈ √d already "
            "and ×√d makes PE a small nudge; with small weights (about 1/√d each, e.g. Xavier init) "
            "×√d brings |E| up to the size of PE. Trained MiniLM rows have |E| ≈ 1 and no scaling."))
        if self.result is not None:
            self.show(self.result, self.labels)

    def clear(self) -> None:
        for plot in (self.norms, self.angles):
            plot.clear()
        self.summary.setText("")

    def show(self, r, labels) -> None:
        """Draw the gauge of a TokensResult; labels name the tokens on the x axis."""
        self.result, self.labels = r, labels
        self.clear()
        n = r.n_shown
        x = np.arange(n, dtype=np.float64)
        trained = r.source == "minilm"
        names = ("|E|", "|E|·√d", self.tr("|position + type|") if trained else "|PE|")
        for k, values in enumerate((r.token_norm, r.scaled_norm, r.pe_norm)):
            self.norms.addItem(pg.BarGraphItem(x=x + (k - 1) * 0.27, height=values, width=0.25,
                                               brush=self.COLOURS[k], pen=None))
        self.norms.setTitle(_key(self.tr("lengths"), zip(self.COLOURS, names)), size="10pt")
        active_scaled = r.scale != 1.0
        key = []
        for k, (values, name, on) in enumerate((
                (r.angle_scaled, self.tr("with ×√d"), active_scaled),
                (r.angle_unscaled, self.tr("without ×√d"), not active_scaled))):
            colour = QColor(self.COLOURS[2 * k])
            colour.setAlpha(255 if on else 80)
            self.angles.addItem(pg.BarGraphItem(x=x + (k - 0.5) * 0.4, height=np.nan_to_num(values),
                                                width=0.38, brush=colour, pen=None))
            key.append((self.COLOURS[2 * k], name + (" ✔" if on else "")))
        self.angles.setTitle(_key(self.tr("angle (X, E)"), key), size="10pt")
        for plot in (self.norms, self.angles):
            _ticks(plot.getAxis("bottom"), labels, n, centre=0.0)
            plot.setXRange(-0.6, max(n, 1) - 0.4, padding=0)
        self.norms.enableAutoRange(axis="y")
        self.angles.setYRange(0, 90 if n else 1, padding=0.02)
        if n == 0:
            return
        med = {k: float(np.nanmedian(v)) for k, v in (("e", r.token_norm), ("s", r.scaled_norm),
                                                     ("p", r.pe_norm), ("a", r.angle_scaled),
                                                     ("u", r.angle_unscaled))}
        text = self.tr("d_model = %1, medians: |E| = %2, |E|·√d = %3, |PE| = %4. PE turns X away from E "
                       "by %5° with ×√d, by %6° without.")
        for key, value in (("%1", str(r.d_model)), ("%2", f"{med['e']:.3g}"), ("%3", f"{med['s']:.3g}"),
                           ("%4", f"{med['p']:.3g}"), ("%5", f"{med['a']:.1f}"), ("%6", f"{med['u']:.1f}")):
            text = text.replace(key, value)
        if trained:
            text += " " + self.tr("MiniLM does not multiply by √d; a LayerNorm follows the sum.")
        self.summary.setText(text)
