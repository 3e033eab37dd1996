"""The control panel: sliders, typed entries and choices. It writes Params changes, nothing else."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFormLayout, QGroupBox, QLabel, QPushButton,
                               QVBoxLayout, QWidget)

from explorer.params import BASE_RANGE, D_MODEL_RANGE, MAX_LEN_RANGE, Params
from explorer.state import COLORMAPS
from explorer.ui.eliding_combo import ElidingCombo
from explorer.ui.i18n import current_language
from explorer.ui.slider_row import SliderRow
from explorer.translations import fill

SLIDER_MAX_LEN = 32768


class ControlPanel(QWidget):
    """Emits `changed(dict)` with the Params fields a user edited; `set_params` shows a Params."""

    changed = Signal(dict)
    preset_chosen = Signal(str)    # a model preset's name, "" for none
    colormap_changed = Signal(str)
    reset_requested = Signal()
    marks_changed = Signal()       # labels turned bold or italic (a preset): they may need more width

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        p = Params()
        self.d_model = SliderRow(self.tr("d_model (embedding width)"), 1, D_MODEL_RANGE[1],
                                 p.d_model, log=True)
        self.max_len = SliderRow(self.tr("max_len (positions)"), 1, SLIDER_MAX_LEN, p.max_len,
                                 log=True, type_range=MAX_LEN_RANGE)
        self.base = SliderRow(self.tr("base (10000 in the paper)"), 2, 1e6, p.base, log=True,
                              integer=False, type_range=BASE_RANGE, mark=10000)
        self.layout_box = self._combo(("interleaved", "concat", "t2t"), (
            self.tr("interleaved: sin, cos, sin, cos … (paper)"),
            self.tr("concat: all sin, then all cos (TF tutorial)"),
            self.tr("t2t: concat, tensor2tensor/fairseq frequencies")))
        self.dtype_box = self._combo(("float32", "float64"), ("float32", "float64"))
        self.device_box = self._combo(("auto", "cpu", "cuda", "mps"), (
            self.tr("auto"), "CPU", "CUDA", "MPS"))
        self.device_label = QLabel("")
        self.device_label.setWordWrap(True)
        self.metric_box = self._combo(("cosine", "dot"), (
            self.tr("cosine similarity"), self.tr("dot product")))
        self.cmap_box = self._combo(COLORMAPS, (
            self.tr("diverging (CET-D1)"), "viridis", "cividis", "inferno"))
        self.scale_box = QCheckBox(self.tr("multiply token embedding by √d_model"))
        self.reset_button = QPushButton(self.tr("Reset to defaults"))
        self.preset_box = self._preset_combo()
        self.preset_label = QLabel("")
        self._preset_shown = None        # (preset, overrides, language) the fonts and line show
        self.preset_label.setObjectName("presetLine")
        self.preset_label.setWordWrap(True)
        self.preset_label.hide()

        shape = QGroupBox(self.tr("Encoding"))
        lay = QVBoxLayout(shape)
        for row in (self.d_model, self.max_len, self.base):
            lay.addWidget(row)
        form = QFormLayout()
        form.addRow(self.tr("Layout"), self.layout_box)
        form.addRow(self.tr("Precision"), self.dtype_box)
        form.addRow(self.tr("Similarity"), self.metric_box)
        form.addRow(self.tr("Colour map"), self.cmap_box)
        form.addRow(self.tr("Device"), self.device_box)
        lay.addLayout(form)
        lay.addWidget(self.device_label)
        lay.addWidget(self.scale_box)
        model = QGroupBox(self.tr("Model preset"))     # not the opened model: that is in the File menu
        model.setToolTip(self.tr("The shape, positions and RoPE settings of a published model. "
                                 "File → Open model… opens a model's own files."))
        model_lay = QVBoxLayout(model)
        model_lay.addWidget(self.preset_box)
        model_lay.addWidget(self.preset_label)
        outer = QVBoxLayout(self)
        outer.addWidget(model)
        outer.addWidget(shape)
        outer.addStretch(1)
        outer.addWidget(self.reset_button)

        self.d_model.value_changed.connect(lambda v: self.changed.emit({"d_model": int(v)}))
        self.max_len.value_changed.connect(lambda v: self.changed.emit({"max_len": int(v)}))
        self.base.value_changed.connect(lambda v: self.changed.emit({"base": float(v)}))
        for key, box in (("layout", self.layout_box), ("dtype", self.dtype_box),
                         ("device", self.device_box), ("metric", self.metric_box)):
            box.currentIndexChanged.connect(
                lambda _i, k=key, b=box: self.changed.emit({k: b.currentData()}))
        self.cmap_box.currentIndexChanged.connect(
            lambda _i: self.colormap_changed.emit(self.cmap_box.currentData()))
        self.scale_box.toggled.connect(lambda on: self.changed.emit({"scale_embedding": on}))
        self.reset_button.clicked.connect(self.reset_requested)
        self.preset_box.currentIndexChanged.connect(
            lambda _i: self.preset_chosen.emit(self.preset_box.currentData()))

    def _preset_combo(self) -> QComboBox:
        from explorer.backend.presets import load_presets

        box = ElidingCombo()
        box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        box.setMinimumContentsLength(14)
        box.addItem(self.tr("none"), "")
        for name, preset in load_presets().items():
            box.addItem(f"{name} ({preset.title})" if preset.title != name else name, name)
        return box

    def show_preset(self, state) -> None:
        """The selector shows state.preset; the line under it what the preset set and what was changed
        since; changed shared controls are marked (their label in italics, the preset value as tip)."""
        from explorer.presets_state import preset_line, preset_overrides

        self.preset_box.blockSignals(True)
        self.preset_box.setCurrentIndex(max(0, self.preset_box.findData(state.preset)))
        self.preset_box.blockSignals(False)
        overrides = preset_overrides(state)
        shown = (state.preset, tuple(overrides), current_language())
        if shown == self._preset_shown:     # a slider step: fonts, tips and line as they are
            return
        self._preset_shown = shown
        changed = {f: old for where, f, old, _ in overrides if where == "params"}
        for key, widget in (("d_model", self.d_model.label), ("max_len", self.max_len.label),
                            ("scale_embedding", self.scale_box)):
            from_preset = bool(state.preset) and key not in changed
            font = QFont()     # only what is marked set: size and weight still follow the window
            if from_preset:    # (its scale, and high contrast's bold)
                font.setBold(True)
            if key in changed:
                font.setItalic(True)
            widget.setFont(font)
            widget.setToolTip(self.tr("from the preset") if from_preset else
                              fill(self.tr("preset value: %1"), str(changed[key]))
                              if key in changed else "")
        self.marks_changed.emit()
        if not state.preset:
            self.preset_label.hide()
            return
        text = fill(self.tr("from %1"), preset_line(state.preset, current_language()))
        if overrides:
            text += "\n" + fill(self.tr("changed since: %1"), ", ".join(
                f"{f} {old} → {new}" if where == "params" else f"{where}.{f} {old} → {new}"
                for where, f, old, new in overrides[:6]) + (" …" if len(overrides) > 6 else ""))
        self.preset_label.setText(text)
        self.preset_label.show()

    @staticmethod
    def _combo(keys, labels) -> QComboBox:
        box = ElidingCombo()
        # long item texts must not widen the panel: show ~14 characters, full text in the list
        box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        box.setMinimumContentsLength(14)
        for key, label in zip(keys, labels):
            box.addItem(label, key)
        return box

    def set_params(self, p: Params) -> None:
        """Model -> widgets, with signals blocked so nothing loops back."""
        for row, v in ((self.d_model, p.d_model), (self.max_len, p.max_len), (self.base, p.base)):
            row.set_value(v)
        for box, key in ((self.layout_box, p.layout), (self.dtype_box, p.dtype),
                         (self.device_box, p.device), (self.metric_box, p.metric)):
            box.blockSignals(True)
            box.setCurrentIndex(max(0, box.findData(key)))
            box.blockSignals(False)
        self.scale_box.blockSignals(True)
        self.scale_box.setChecked(p.scale_embedding)
        self.scale_box.blockSignals(False)

    def set_colormap(self, name: str) -> None:
        self.cmap_box.blockSignals(True)
        self.cmap_box.setCurrentIndex(max(0, self.cmap_box.findData(name)))
        self.cmap_box.blockSignals(False)

    def set_device_text(self, text: str) -> None:
        self.device_label.setText(text)

    def show_error(self, field: str, text: str) -> None:
        """Show a refusal under the row that caused it (or the device label)."""
        row = {"d_model": self.d_model, "max_len": self.max_len, "base": self.base}.get(field)
        if row is not None:
            row.show_message(text)
