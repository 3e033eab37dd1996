"""Check my table: your table | the reference it matches or should match | the difference, the
diagnosis line and the one-line PyTorch fix. Draws the worker's CheckResult; computes nothing."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QDoubleSpinBox, QLabel, QPushButton, QStackedWidget

from explorer.compute import check as data
from explorer.ui.views.thick_curve import add_curve, list_in_legend
from explorer.ui.views.base import cache_axes
from explorer.ui.views.titles import equal_width, set_title
from explorer.ui.views.ranges import nice_levels, set_extent
from explorer.ui.views.panel_view import PALETTE, TITLE_SIZE, PanelView, decade_ticks, set_pen
from explorer.translations import fill
from explorer.errors import localized
from explorer.ui.i18n import current_language
from explorer.ui.views.fitting_canvas import FittingCanvas
from explorer.ui.views.empty_note import EmptyNote

MATCH_COLOUR, MISTAKE_COLOUR, ERROR_COLOUR = "#1a7f37", "#b35900", "#c0392b"


def _diagnosed(r) -> bool:
    """A known mistake was found ("unknown": the data matches nothing known, which is no diagnosis)."""
    return any(m.id != "unknown" for m in r.mistakes)


class CheckView(PanelView):
    title = "check"
    open_requested = Signal()       # the Open… button: the window's File → Check my table…

    def __init__(self, parent=None):
        super().__init__(data.CheckState(), parent)
        s = self.state
        self.open_button = QPushButton(self.tr("Open a table…"))
        self.open_button.setToolTip(self.tr("File → Check my table… (Ctrl+K)"))
        self.open_button.clicked.connect(self.open_requested.emit)
        self.controls.addWidget(self.open_button)
        self.kind_box = self.combo(self.tr("it is"), (
            (self.tr("guess"), ""), (self.tr("a PE table"), "pe"),
            (self.tr("a RoPE cos/sin cache"), "rope_cache"), (self.tr("an inv_freq vector"), "inv_freq")),
            s.kind, "kind")
        self.pairing_box = self.combo(self.tr("pairing should be"), (
            (self.tr("any"), ""), (self.tr("half: cat(freqs, freqs)"), "half"),
            (self.tr("interleaved: repeat_interleave"), "interleaved")), s.pairing, "pairing")
        self.base_box = QDoubleSpinBox()
        self.base_box.setRange(0.0, 1e15)
        self.base_box.setDecimals(0)
        self.base_box.setSpecialValueText(self.tr("any"))
        self.base_box.setKeyboardTracking(False)
        self.base_box.valueChanged.connect(
            lambda v: self.set_state(base=float(v) if v > 1 else None))
        self._add(self.tr("base should be"), self.base_box)
        self.source_line = QLabel("")
        self.source_line.setTextFormat(Qt.TextFormat.PlainText)      # a file's name, never markup
        self.source_line.setObjectName("checkSource")
        self.summary_line = QLabel("")
        self.summary_line.setObjectName("checkSummary")
        self.summary_line.setWordWrap(True)
        self.summary_line.setTextFormat(Qt.TextFormat.RichText)
        self.summary_line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.fix_line = QLabel("")
        self.fix_line.setObjectName("checkFix")
        self.fix_line.setWordWrap(True)
        self.fix_line.setTextFormat(Qt.TextFormat.PlainText)
        self.fix_line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hint = QLabel(self._hint_text())
        self.hint.setObjectName("checkHint")
        self.hint.setWordWrap(True)
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._size_own_fonts()
        self.curves_canvas = FittingCanvas()
        self.box.removeWidget(self.canvas)
        self.stack = QStackedWidget()
        for page in (self.hint, self.canvas, self.curves_canvas):
            self.stack.addWidget(page)
        at = self.box.indexOf(self.readout)
        for i, widget in enumerate((self.source_line, self.summary_line, self.fix_line)):
            self.box.insertWidget(at + i, widget)
        self.box.insertWidget(at + 3, self.stack, 1)
        self._build_images()
        self._build_curves()
        self._size_own_fonts()
        self._show_empty("")

    def _size_own_fonts(self) -> None:
        """The fix line in the fixed-width font and the empty view's hint at 1.3x, both at the view's
        own size (they kept the size they were made with through every presentation scale)."""
        size = self.font().pointSizeF()
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        mono.setPointSizeF(size)
        self.fix_line.setFont(mono)
        hint_font = QFont(self.font())
        hint_font.setPointSizeF(size * 1.3)
        self.hint.setFont(hint_font)
        for note in getattr(self, "notes", ()):
            note.set_font(self.font())

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt name)
        super().changeEvent(event)
        if event.type() == event.Type.FontChange and hasattr(self, "hint"):
            self._size_own_fonts()

    def _hint_text(self) -> str:
        return self.tr(
            "No table to check yet.\n\nFile → Check my table… (Ctrl+K) opens a .npy, .npz, "
            ".safetensors, .csv, .pt or .pth file holding a PE table, a RoPE cache of cos and sin or an "
            "inv_freq vector.\nFrom Python: explorer.show(x) with a numpy array, a torch tensor or "
            "a PositionalEncoding module.")

    def _build_images(self) -> None:
        ch, pos = self.tr("channel"), self.tr("position")
        self.mine = self.image(0, 0, ch, pos, self.tr("your table"))
        self.ref = self.image(0, 2, ch, pos, self.tr("the reference"))
        self.diff = self.image(0, 4, ch, pos, self.tr("difference: yours − reference"))
        layout = self.canvas.ci.layout
        for col, panel in zip((0, 2, 4), (self.mine, self.ref, self.diff)):
            layout.setColumnStretchFactor(col, 1)     # three equal panels, whatever their titles
            equal_width(panel.plot, 200)
        self.ref_note, self.diff_note = EmptyNote(self.ref.plot, self.ref.bar), EmptyNote(self.diff.plot, self.diff.bar)

    def _build_curves(self) -> None:
        c = self.curves_canvas
        self.freq_plot = c.addPlot(row=0, col=0)
        self.diff_plot = c.addPlot(row=0, col=1)
        for item, y_label, title in (
                (self.freq_plot, self.tr("θᵢ (log scale)"), self.tr("your inv_freq and the reference")),
                (self.diff_plot, self.tr("yours − reference"), self.tr("difference"))):
            item.setLabel("bottom", self.tr("frequency index i"))
            item.setLabel("left", y_label)
            item.setMenuEnabled(False)
            set_title(item, title, size=TITLE_SIZE)
            cache_axes(item)
        self.freq_plot.setLogMode(y=True)
        decade_ticks(self.freq_plot.getAxis("left"))
        self.legend(self.freq_plot)
        self.ref_curve = add_curve(self.freq_plot, [], [], name=self.tr("reference"))
        self.mine_curve = add_curve(self.freq_plot, [], [], name=self.tr("yours"))
        self.diff_curve = add_curve(self.diff_plot, [], [])
        self.curve_note = EmptyNote(self.diff_plot)
        self.notes = (self.ref_note, self.diff_note, self.curve_note)

    # state ------------------------------------------------------------------------------------
    def show_state(self, state, params=None) -> None:
        super().show_state(state, params)
        self.base_box.blockSignals(True)
        self.base_box.setValue(state.base or 0.0)
        self.base_box.blockSignals(False)

    # drawing ----------------------------------------------------------------------------------
    def _show_empty(self, error: str) -> None:
        self.stack.setCurrentWidget(self.hint)
        self.source_line.setText("")
        self.fix_line.setText("")
        self.summary_line.setText(_html(localized(error, current_language())))    # a path may hold "<"
        self.summary_line.setStyleSheet(f"color: {ERROR_COLOUR};" if error else "")
        self.summary_line.setVisible(bool(error))
        self.source_line.setVisible(False)
        self.fix_line.setVisible(False)
        self.set_readout("")

    def draw(self, r) -> None:
        if not r.kind:
            self._show_empty(r.error)
            return
        self.source_line.setText(self._source_text(r))
        self.source_line.setVisible(True)
        if r.match:
            words, colour = _html(r.summary), MATCH_COLOUR
        else:
            lines = [m.message for m in r.mistakes] or [r.summary]
            words = (fill(self.tr("Mistake: %1"), _html(lines[0])) if _diagnosed(r) else   # "matches no
                     _html(lines[0][:1].upper() + lines[0][1:]))                          # known …" as is
            words += "".join("<br>" + fill(self.tr("also: %1"), _html(t)) for t in lines[1:])
            colour = MISTAKE_COLOUR
        self.summary_line.setText(f"<b>{words}</b>")
        self.summary_line.setStyleSheet(f"color: {colour};")
        self.summary_line.setVisible(True)
        self.fix_line.setText(fill(self.tr("Fix (PyTorch): %1"), r.fix) if r.fix else "")
        self.fix_line.setVisible(bool(r.fix))
        if r.table.ndim == 1:
            self._draw_curves(r)
        else:
            self._draw_images(r)
        self.set_readout(self._error_text(r))

    def _source_text(self, r) -> str:
        kinds = {"pe": self.tr("PE table"), "rope_cache": self.tr("RoPE cos/sin cache"),
                 "inv_freq": self.tr("inv_freq vector")}
        shape = " × ".join(str(n) for n in r.shape) if len(r.shape) > 1 else f"({r.shape[0]},)"
        return fill(self.tr("%1: %2, %3 (as analysed)"), r.name, kinds.get(r.kind, r.kind), shape)

    def _error_text(self, r) -> str:
        sep = self.tr("; ")
        if r.reference is None:
            text = (self.tr("no reference: your data is all zeros, which equals every table times 0, so none is "
                            "chosen") if data.all_zero(r.mistakes)
                    else self.tr("no reference: every pair turns at the same frequency, so there is no base to "
                                 "draw the right inv_freq from") if data.one_frequency(r.mistakes)
                    else self.tr("no reference: the data fits no known table"))
        elif r.match:
            text = fill(self.tr("max |yours − reference| = %1 (a match allows %2)"), f"{r.max_difference:.3g}",
                        f"{r.tolerance:.3g}")
        elif _diagnosed(r):
            text = fill(self.tr("max |yours − reference| = %1; the diagnosis explains your data to %2 "
                                "(a match allows %3)"),
                        f"{r.max_difference:.3g}", f"{r.max_error:.3g}", f"{r.tolerance:.3g}")
        else:                  # nothing diagnosed: the nearest fit is all there is to compare with
            text = fill(self.tr("max |yours − reference| = %1; the nearest fit is off by %2 (a match allows %3)"),
                        f"{r.max_difference:.3g}", f"{r.max_error:.3g}", f"{r.tolerance:.3g}")
        if r.clipped_peak:
            text += sep + fill(self.tr("your table's colours span ±%1, from the 99.5th percentile of |value| "
                                       "(a few values reach %2)"), f"{nice_levels(r.table_limit)[1]:.3g}",
                               f"{r.clipped_peak:.3g}")
        if r.difference_clipped:
            text += sep + fill(self.tr("the difference's colours span ±%1 likewise (a few values reach %2)"),
                               f"{self._difference_levels(r)[1]:.3g}", f"{r.difference_clipped:.3g}")
        zeros = r.zeros
        if zeros and r.convention.get("rope_type") == "proportional":
            text += sep + fill(self.tr("%1 frequencies are 0, not drawn on the log axis (p-RoPE's pairs that do "
                                       "not turn)"), f"{zeros:,}")
        elif zeros:
            text += sep + (self.tr("1 value is 0, not drawn on the log axis") if zeros == 1 else
                           fill(self.tr("%1 values are 0, not drawn on the log axis"), f"{zeros:,}"))
        if r.negatives:     # drawn by size they had looked like the reference's
            text += sep + (self.tr("1 value is negative, not drawn on the log axis") if r.negatives == 1 else
                           fill(self.tr("%1 values are negative, not drawn on the log axis"), f"{r.negatives:,}"))
        drawn = r.table.size
        total = int(np.prod(r.shape))
        if drawn < total:
            text += sep + fill(self.tr("%1 of %2 values drawn (evenly spaced rows and columns, exact values)"),
                               f"{drawn:,}", f"{total:,}")
        return text

    def _draw_images(self, r) -> None:
        self.stack.setCurrentWidget(self.canvas)
        rope = r.kind == "rope_cache"
        x_label = self.tr("dimension") if rope else self.tr("channel")
        rows, cols = r.shape
        panels = ((self.mine, r.table, nice_levels(r.table_limit)),
                  (self.ref, r.reference, nice_levels(r.reference_limit)),
                  (self.diff, r.difference, self._difference_levels(r)))
        for panel, values, levels in panels:
            panel.plot.setLabel("bottom", x_label)
            if values is None:
                panel.clear()
                continue
            panel.show(values, 0, 0, cols, rows, levels)
            set_extent(panel.plot, (0, cols), (0, rows))
        self.ref_note.say("" if r.reference is not None else self.tr("all zeros: equals\nevery table × 0,\nnone is "
                          "chosen") if data.all_zero(r.mistakes) else self.tr("your data fits\nno known table"))
        self.diff_note.say("" if r.difference is not None else self._no_difference(r))   # (setLabel shows axes)
        unknown = any(m.id == "unknown" for m in r.mistakes)
        title = self.tr("the reference it matches") if r.match else \
            self.tr("the nearest right table") if unknown else self.tr("the right table")
        set_title(self.ref.plot, title if r.reference is not None else self.tr("no reference"),
                  size=TITLE_SIZE)

    def _no_difference(self, r) -> str:
        return (self.tr("nothing to compare:\nno reference is chosen\nfor all zeros") if data.all_zero(r.mistakes)
                else self.tr("nothing to compare:\nno base to draw\na reference from") if data.one_frequency(r.mistakes)
                else self.tr("nothing to compare:\nno reference fits\nyour data"))

    @staticmethod
    def _difference_levels(r) -> tuple[float, float]:
        """The difference on the scale of the tolerance at least: a match looks pale."""
        return nice_levels(r.difference_limit, floor=max(r.tolerance, 1e-15))

    def _draw_curves(self, r) -> None:
        self.stack.setCurrentWidget(self.curves_canvas)
        i = r.rows.astype(np.float64)
        self.mine_curve.setData(i, _positive(r.table))
        set_pen(self.mine_curve, self.pen(PALETTE[1], 3.0))
        if r.reference is not None:
            self.ref_curve.setData(i, _positive(r.reference))
            self.diff_curve.setData(i, r.difference)
        else:
            self.ref_curve.setData([], [])
            self.diff_curve.setData([], [])
        named = [(self.ref_curve, self.tr("reference"))] if r.reference is not None else []   # (not an empty one)
        list_in_legend(self.freq_plot.legend, named + [(self.mine_curve, self.tr("yours"))])
        set_pen(self.ref_curve, self.pen("#bbbbbb", 8.0))
        set_pen(self.diff_curve, self.pen(PALETTE[0]))
        self.freq_plot.enableAutoRange()
        self.diff_plot.enableAutoRange()
        self.curve_note.say("" if r.reference is not None else self._no_difference(r))   # (its own fixed range)


def _positive(values: np.ndarray) -> np.ndarray:
    """The values a log axis can show: a value <= 0 is left out (NaN; the readout counts them). An exact 0
    is p-RoPE's pairs that do not turn; a negative one had been drawn as |value|, like the reference."""
    return np.where(values > 0, values, np.nan)


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
