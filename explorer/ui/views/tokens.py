"""Tokenized sentence: text -> token chips -> one-hot x E -> E[ids] (x sqrt(d)) + PE = X, and the scale gauge.

Its inputs write the shared Params (`text_changed`, `tokenizer_changed`, `scale_changed`,
`source_changed`) and its own state (`state_edited`: the open sub-tab). Draws only; all numbers come
from the result.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QTabBar,
    QTabWidget,
)

from explorer.backend.pretrained import minilm_available
from explorer.backend.tokens import TOKENIZERS, available_tokenizers
from explorer.compute.tokens import PAGES
from explorer.errors import localized
from explorer.params import TEXT_LIMIT
from explorer.ui.eliding_combo import ElidingCombo
from explorer.ui.i18n import Retranslatable, current_language
from explorer.ui.views import token_model, token_pages
from explorer.ui.views.base import View
from explorer.ui.views.token_chips import notice_text
from explorer.ui.views.token_chips import CHIP_PARTIAL, CHIP_SPECIAL, CHIP_UNKNOWN, ChipStrip, chip_text
from explorer.ui.views.gauge_panel import GaugePanel
from explorer.ui.views.token_panels import MatrixRow, _swatch
from explorer.translations import fill

DEBOUNCE_MS = 200


class RoomyTabBar(QTabBar):
    """Tabs 4 px taller: an unselected tab sits 2 px lower, and its text rect cut off the
    underscore of "√d_model" ("√d model")."""

    def tabSizeHint(self, index: int):  # noqa: N802 (Qt name)
        hint = super().tabSizeHint(index)
        hint.setHeight(hint.height() + 4)
        return hint


class TokensView(Retranslatable, View):
    title = "tokens"
    text_changed = Signal(str)           # debounced text for Params.text
    tokenizer_changed = Signal(str)      # cl100k / wordpiece / char for Params.tokenizer
    scale_changed = Signal(bool)         # for Params.scale_embedding
    source_changed = Signal(str)         # for Params.embedding_source (untrained / minilm)
    state_edited = Signal(object)        # {"page": ...}: the open sub-tab, the view's own state

    def __init__(self, parent=None):
        super().__init__(parent)
        self.source = "untrained"
        self.explain.setTextFormat(Qt.TextFormat.RichText)      # the X formula's subscripts (header_text)
        line = self.fontMetrics().lineSpacing()
        self.text_box = QPlainTextEdit()
        self.text_box.setFixedHeight(line * 3 + 14)
        self.tokenizer_box = ElidingCombo()
        for key in TOKENIZERS:
            self.tokenizer_box.addItem(key, key)
        self.tokenizer_box.addItem("", token_model.OWN_TOKENIZER)   # a model's own: shown, never chosen
        self.tokenizer_box.model().item(len(TOKENIZERS)).setEnabled(False)
        self.source_box = ElidingCombo()
        self.source_box.addItem("untrained", "untrained")
        self.source_box.addItem("MiniLM", "minilm")
        self.source_box.addItem("model", "model")        # the opened model (File → Open model…)
        for box in (self.tokenizer_box, self.source_box):      # a long model name must not widen the view
            box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            box.setMinimumContentsLength(18)
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
        self.model_note = QLabel("")
        self.model_note.setWordWrap(True)
        self.model_note.setStyleSheet("color: #225; font-style: italic;")
        self.model_note.hide()
        self.box.addWidget(self.model_note)
        self.chips = ChipStrip()
        self.box.addWidget(self.chips)
        self.legend = QLabel("")
        self.legend.setWordWrap(True)       # one line where it fits; two in F11 beside the panel
        self.box.addWidget(self.legend)
        self.pages = QTabWidget()
        self.pages.setTabBar(RoomyTabBar())
        self.pages.setDocumentMode(True)   # no framed pane: it made each grab of a page ~3x dearer
        self.lookup = MatrixRow(("×", "="), position_rows=(True, False, True), binary_first=True)
        self.sum = MatrixRow(("+", "="), position_rows=(True, True, True), own_scale=(1,))
        self.gauge = GaugePanel()
        for w in (self.lookup, self.sum, self.gauge):
            self.pages.addTab(w, "")
        self.pages.setCurrentIndex(1)
        self._drawn: set[int] = set()        # sub-pages drawn for the current result
        self.pages.currentChanged.connect(self._on_page_changed)
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
        self.explain.setText(token_model.header_text(self.result))     # the paper's X, or the model's own
        self.text_box.setPlaceholderText(self.tr("Type a sentence: English, 中文, mixed, emoji …"))
        self.tokenizer_label.setText(self.tr("Tokenizer"))
        self.source_label.setText(self.tr("Embedding table"))
        self.scale_box.setText(self.tr("× √d_model"))
        channel = self.tr("channel")
        self.lookup.set_x_labels((self.tr("token id"), channel, channel))
        self.sum.set_x_labels((channel, channel, channel))
        labels = {"cl100k": self.tr("cl100k_base BPE (GPT-4)"),
                  "wordpiece": self.tr("WordPiece (BERT, MiniLM)"),
                  "char": self.tr("characters"),
                  "qwen": self.tr("Qwen2.5 BPE (Chinese-friendly)")}
        reasons = available_tokenizers()
        for i in range(len(TOKENIZERS)):          # (the last entry, a model's own, is set per result)
            key = self.tokenizer_box.itemData(i)
            self.tokenizer_box.setItemText(i, labels.get(key, key))
            _enable_item(self.tokenizer_box, i, reasons.get(key))
        self.source_box.setItemText(1, self.tr("trained all-MiniLM-L6-v2 (d = 384)"))
        _enable_item(self.source_box, 1, minilm_available())
        token_model.set_model_item(self.source_box, self.result.params if self.result is not None else None)
        self.pages.setTabText(0, self.tr("Lookup: one-hot × E"))
        self.pages.setTabText(1, token_model.sum_page_name(self.result))
        self.pages.setTabText(2, token_model.gauge_page_name(self.result))
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
            self._show_notice(fill(self.tr("The text has %1 characters; at most %2 can be tokenized. "
                                      "Shorten it to see its tokens."), f"{len(text):,}", f"{TEXT_LIMIT:,}"))
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
        token_model.show_what_was_used(self.tokenizer_box, self.scale_box, result)
        self.pages.setTabText(1, token_model.sum_page_name(result))
        self.explain.setText(token_model.header_text(result))
        self.pages.setTabText(2, token_model.gauge_page_name(result))
        self._show_notice(notice_text(result))
        self.model_note.setText(token_model.model_text(result))
        self.model_note.setVisible(bool(self.model_note.text()))
        self.chips.fill(result)
        if result.error:
            for panel in (self.lookup, self.sum):
                panel.clear()
            self.gauge.clear()
            return
        self._drawn = set()
        self._draw_page(self.pages.currentIndex())

    def _on_page_changed(self, index: int) -> None:
        self._draw_page(index)
        self.state_edited.emit({"page": PAGES[index]})

    def show_state(self, state, params=None) -> None:
        """Open the sub-tab the State names (signals blocked: nothing is written back)."""
        index = PAGES.index(state.page)
        if self.pages.currentIndex() != index:
            self.pages.blockSignals(True)
            self.pages.setCurrentIndex(index)
            self.pages.blockSignals(False)
            self._draw_page(index)

    def _draw_page(self, index: int) -> None:
        """Draw one sub-page (lookup, sum or gauge) for the current result; hidden pages wait
        until shown, so a slider step redraws only what is on screen."""
        result = self.result
        if result is None or result.error or index in self._drawn:
            return
        self._drawn.add(index)
        n, d = result.token_rows.shape
        labels = [chip_text(t) for t in result.tokens]
        page = self.pages.widget(index)
        if page is self.lookup:
            token_pages.draw_lookup(self.lookup, result, labels, n, d)
        elif page is self.sum:
            token_pages.draw_sum(self.sum, result, labels, n, d)
        else:
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
        # d first: a narrow box elides the end ("untrained, seed 0 (d = 8…" hid the width)
        self.source_box.setItemText(0, fill(self.tr("untrained, d = %2, seed %1"), str(p.seed),
                                            str(p.d_model)))
        token_model.set_model_item(self.source_box, p)

    # cursor and hover ----------------------------------------------------------------------------
    def set_cursor(self, pos: int | None) -> None:
        if pos is not None and (self.result is None or not 0 <= pos < self.result.n_shown):
            pos = None                     # past the tokens shown: no mark (an old one was left)
        if pos is None:
            self.chips.blockSignals(True)
            self.chips.setCurrentRow(-1)
            self.chips.blockSignals(False)
            self.sum.mark_row(None)
            self.lookup.mark_row(None)
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
        self.readout.setText(fill(self.tr("position %1 “%2”, channel %3: E·scale = %4  +  PE = %5  =  X = %6"),
                                  str(pos), chip_text(r.tokens[pos]), str(ch), f"{r.scaled_rows[pos, ch]:+.4f}",
                                  f"{r.pe_rows[pos, ch]:+.4f}", f"{r.x[pos, ch]:+.4f}"))
        self.hovered.emit(pos, ch)

    def set_colormap(self, name: str) -> None:
        self.lookup.set_colormap(name)
        self.sum.set_colormap(name)


def _enable_item(box: QComboBox, index: int, reason: str | None) -> None:
    item = box.model().item(index)
    item.setEnabled(reason is None)
    item.setToolTip(localized(reason, current_language()) if reason else "")
