"""The RoPE view's scaling page: its parameter controls and its four panels (drawing only).

Panels: each pair's frequency before/after (dots coloured by regime), each pair's wavelength against
the original and the extended context (YaRN's ramp / llama3's band shaded), the channel axis (log10 θ
of each channel before/after: pairing and partial rotary, unrotated channels blank), and the all-ones
score q(m)·k(n) against distance before/after (attention factor included). Legends are the coloured
panel titles, so they never cover data.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QCheckBox, QDoubleSpinBox, QLabel, QSpinBox

from explorer.compute.rope_scaled import context_text
from explorer.compute.rope_settings import CONTEXT_MAX, fields_of
from explorer.ui.views.dots import Dots
from explorer.ui.views.rope_words import factor_text, regime_name, type_word
from explorer.ui.views.thick_curve import add_curve
from explorer.ui.views.titles import set_title
from explorer.ui.views.ranges import set_extent
from explorer.ui.views.panel_view import GREY, TITLE_SIZE, decade_ticks, line_label_font, set_pen
from explorer.translations import fill

translate = QCoreApplication.translate

REGIME_COLOURS = {"extrapolated": "#009E73", "between": "#E69F00", "interpolated": "#0072B2",
                  "rescaled": "#CC79A7", "not rotated": "#8c8c8c"}
BEFORE, AFTER = "#7f7f7f", "#D55E00"
UNSET = "—"


def _key(colour: str, text: str) -> str:
    return f"<span style='color:{colour}'>■ {text}</span>"


class ScalingControls:
    """Spin boxes for the rope type's parameters; only those the current type reads are shown.
    Optional fields show "—" at their minimum (unset); every edit goes to `send(**{field: value})`."""

    SPECS = (   # field, label, lo, hi, decimals, step, optional
        ("factor", "factor", 0.0, 1e4, 3, 1.0, True),
        ("original_max_len", "L₀", 1, 10_000_000, 0, 1024, False),
        ("max_position_embeddings", "context", 0, CONTEXT_MAX, 0, 1024, True),
        ("low_freq_factor", "low", 0.0, 1e3, 2, 0.5, False),
        ("high_freq_factor", "high", 0.0, 1e3, 2, 0.5, False),
        ("beta_fast", "beta_fast", 0.0, 1e3, 2, 1.0, True),
        ("beta_slow", "beta_slow", 0.0, 1e3, 2, 1.0, True),
        ("mscale", "mscale", 0.0, 1e3, 3, 0.1, True),
        ("mscale_all_dim", "mscale_all_dim", 0.0, 1e3, 3, 0.1, True),
        ("partial_rotary_factor", "rotary", 0.0, 1.0, 3, 0.05, False),
        ("seq_len", "length", 0, 10_000_000, 0, 1024, True),
    )
    ALWAYS = ("partial_rotary_factor",)
    EXTRA = {"dynamic": ("seq_len",), "longrope": ("seq_len", "max_position_embeddings"),
             "yarn": ("max_position_embeddings",), "llama3": ("max_position_embeddings",)}

    def __init__(self, owner, layout, send, first=None):
        self.send = send
        self.first = first          # (label, widget) placed before the boxes (the rope type choice)
        self.boxes, self.labels = {}, {}
        names = {"factor": translate("RopeScaling", "factor"), "context": translate("RopeScaling", "context"),
                 "rotary": translate("RopeScaling", "rotary"), "length": translate("RopeScaling", "length"),
                 "low": translate("RopeScaling", "low"), "high": translate("RopeScaling", "high")}
        tips = {"original_max_len": translate("RopeScaling",
                                              "original_max_position_embeddings: the pre-training context L₀"),
                "max_position_embeddings": translate("RopeScaling",
                                                     "max_position_embeddings: the context the model claims"),
                "low_freq_factor": "low_freq_factor", "high_freq_factor": "high_freq_factor",
                "partial_rotary_factor": translate("RopeScaling",
                                                   "partial_rotary_factor: the fraction of head_dim that rotates"),
                "seq_len": translate("RopeScaling",
                                     "the current sequence length (dynamic NTK rescales when it passes L₀)")}
        for key, label, lo, hi, decimals, step, optional in self.SPECS:
            box = QSpinBox(owner) if decimals == 0 else QDoubleSpinBox(owner)
            if decimals:
                box.setDecimals(decimals)
            box.setRange(lo, hi)
            box.setSingleStep(step)
            box.setKeyboardTracking(False)
            if optional:
                box.setSpecialValueText(UNSET)
            box.valueChanged.connect(lambda v, k=key, opt=optional, b=box: self._edited(k, v, opt, b))
            text = QLabel(names.get(label, label), owner)
            text.setToolTip(tips.get(key, key))
            box.setToolTip(tips.get(key, key))
            self.boxes[key], self.labels[key] = box, text
        # YaRN's truncate: the ramp's ends rounded to whole pairs (transformers' default), or not (GPT-OSS)
        self.truncate = QCheckBox(translate("RopeScaling", "truncate"), owner)
        self.truncate.setToolTip(QCoreApplication.translate(
            "RopeScaling", "YaRN's truncate: the ramp between beta_fast and beta_slow starts and ends at whole "
                           "pair indices (transformers' default); unticked, at the exact ones (GPT-OSS)"))
        self.truncate.toggled.connect(lambda on: self.send(truncate=on))
        self.layout = layout        # a ControlRow: every pair once, in order; the hidden ones take no room
        if first is not None:
            layout.add_pair(*first)
        for key in self.boxes:
            layout.add_pair(self.labels[key], self.boxes[key])
        layout.addWidget(self.truncate)

    def _edited(self, key, value, optional, box) -> None:
        if optional and value == box.minimum():
            value = None
        elif isinstance(box, QSpinBox):
            value = int(value)
        else:
            value = float(value)
        self.send(**{key: value})

    _placed = None      # the fields shown last (None: none yet)

    def show_state(self, state) -> None:
        shown = set(fields_of(state.rope_type)) | set(self.ALWAYS) | set(self.EXTRA.get(state.rope_type, ()))
        if shown != self._placed:   # showing other boxes re-lays out the whole window (a full
            self._place(shown)      # repaint), so only when the rope type shows other fields
        for key, box in self.boxes.items():
            value = getattr(state, key)
            box.blockSignals(True)
            box.setValue(box.minimum() if value is None else value)
            box.blockSignals(False)
        self.truncate.blockSignals(True)
        self.truncate.setChecked(state.truncate)
        self.truncate.blockSignals(False)

    def _place(self, shown: set) -> None:
        """Show the boxes of `shown` (after `first`, wrapping where the view is narrow), hide the others."""
        self._placed = shown
        for key, box in self.boxes.items():
            box.setVisible(key in shown)
            self.labels[key].setVisible(key in shown)
        self.truncate.setVisible("truncate" in shown)


class ScalingPanels:
    """The four panels on the owner's current canvas (an PanelView's plot/image helpers)."""

    def __init__(self, owner):
        self.owner = owner
        pair = translate("RopeScaling", "pair i")
        self.freq = owner.plot(0, 0, pair, translate("RopeScaling", "θᵢ (radians per position, log)"))
        self.freq.setLogMode(y=True)
        decade_ticks(self.freq.getAxis("left"))
        self.f_before = add_curve(self.freq, [], [])
        self.f_after = add_curve(self.freq, [], [])
        self.f_dots = Dots(size=6, pen=None)
        self.freq.addItem(self.f_dots)
        self.f_still = self._still_region(self.freq)
        self.wave = owner.plot(0, 1, pair, translate("RopeScaling", "wavelength 2π/θᵢ (positions, log)"), colspan=2)
        self.wave.setLogMode(y=True)
        decade_ticks(self.wave.getAxis("left"))
        self.band = pg.LinearRegionItem(orientation="horizontal", movable=False,
                                        brush=pg.mkBrush(230, 159, 0, 45), pen=pg.mkPen(None))
        self.ramp = pg.LinearRegionItem(orientation="vertical", movable=False,
                                        brush=pg.mkBrush(230, 159, 0, 45), pen=pg.mkPen(None))
        for item in (self.band, self.ramp):
            self.wave.addItem(item, ignoreBounds=True)
        self.w_before = add_curve(self.wave, [], [])
        self.w_after = add_curve(self.wave, [], [])
        self.w_dots = Dots(size=6, pen=None)
        self.wave.addItem(self.w_dots)
        self.w_still = self._still_region(self.wave)
        self.l0_line = pg.InfiniteLine(angle=0, pen=pg.mkPen(GREY, width=1.5, style=pg.QtCore.Qt.PenStyle.DashLine),
                                       movable=False, label="L₀", labelOpts={"position": 0.96, "color": "#444444"})
        self.ext_line = pg.InfiniteLine(angle=0, pen=pg.mkPen("#444444", width=1.5), movable=False,
                                        label=translate("RopeScaling", "extended"),
                                        labelOpts={"position": 0.06, "color": "#444444",
                                                   "anchors": [(0.5, 1), (0.5, 1)]})
        for line in (self.l0_line, self.ext_line):
            self.wave.addItem(line, ignoreBounds=True)
        self.channels = owner.image(1, 0, translate("RopeScaling", "channel (pairing, rotary fraction)"), "",
                                    "", "viridis")
        self.channels.plot.invertY(False)
        # the channels that do not turn: one run (partial rotary), two (proportional's rotate-half pairs)
        self.unrotated = [pg.LinearRegionItem(orientation="vertical", movable=False,
                                              brush=pg.mkBrush(150, 150, 150, 70), pen=pg.mkPen(GREY))
                          for _ in range(2)]
        self.unrotated_text = [pg.TextItem(translate("RopeScaling", "not rotated"),
                                           color="#444444", anchor=(0.5, 0.5)) for _ in range(2)]
        for item in self.unrotated + self.unrotated_text:
            self.channels.plot.addItem(item, ignoreBounds=True)
        self.channels.plot.getAxis("left").setTicks([[(0.5, translate("RopeScaling", "after")),
                                                      (1.5, translate("RopeScaling", "before"))]])
        self.score = owner.plot(1, 2, translate("RopeScaling", "distance m − n"), "q(m)·k(n)")
        self.s_before = add_curve(self.score, [], [])
        self.s_after = add_curve(self.score, [], [])
        self.s_l0 = pg.InfiniteLine(angle=90, pen=pg.mkPen(GREY, width=1.5, style=pg.QtCore.Qt.PenStyle.DashLine),
                                    movable=False, label="L₀", labelOpts={"position": 0.95, "color": "#444444"})
        self.s_ext = pg.InfiniteLine(angle=90, pen=pg.mkPen("#444444", width=1.5), movable=False,
                                     label=translate("RopeScaling", "extended"),
                                     labelOpts={"position": 0.85, "color": "#444444"})
        for line in (self.s_l0, self.s_ext):
            self.score.addItem(line, ignoreBounds=True)

    @staticmethod
    def _still_region(plot):
        """The shaded pairs that do not turn (proportional RoPE's frequency 0: nothing to draw on a log axis)."""
        region = pg.LinearRegionItem(orientation="vertical", movable=False, brush=pg.mkBrush(140, 140, 140, 55),
                                     pen=pg.mkPen(None))
        plot.addItem(region, ignoreBounds=True)
        return region

    def draw(self, r) -> None:
        o, s = self.owner, r.scaled
        p = s.profile
        i = np.arange(len(p.inv_freq_before))
        turn = p.rotated_pairs                        # the pairs past it have θ = 0: shaded, not drawn
        brushes = [pg.mkBrush(REGIME_COLOURS[name]) for name in p.regime[:turn]]
        before = translate("RopeScaling", "before")
        after = fill(translate("RopeScaling", "after (%1)"), type_word(p.rope_type))
        present = [n for n in REGIME_COLOURS if n in p.regime]
        regimes = " ".join(_key(REGIME_COLOURS[n], regime_name(n)) for n in present)
        self.f_before.setData(i, p.inv_freq_before)
        set_pen(self.f_before, o.pen(BEFORE, 2.0))
        self.f_after.setData(i[:turn], p.inv_freq_after[:turn])
        set_pen(self.f_after, o.pen(AFTER, 2.0))
        self.f_dots.setData(i[:turn], np.log10(p.inv_freq_after[:turn]), brush=brushes)
        set_title(self.freq, f"{_key(BEFORE, before)} {_key(AFTER, after)}", size=TITLE_SIZE)
        self.w_before.setData(i, p.wavelength_before)
        set_pen(self.w_before, o.pen(BEFORE, 2.0))
        self.w_after.setData(i[:turn], p.wavelength_after[:turn])
        set_pen(self.w_after, o.pen(AFTER, 2.0))
        self.w_dots.setData(i[:turn], np.log10(p.wavelength_after[:turn]), brush=brushes)
        for region in (self.f_still, self.w_still):
            region.setVisible(turn < len(i))
            region.setRegion((turn - 0.5, len(i) - 0.5))
        set_title(self.wave, translate("RopeScaling", "each pair against the context: ") + regimes, size=TITLE_SIZE)
        self._lines(p)
        self.band.setVisible(p.band_wavelengths is not None)
        if p.band_wavelengths is not None:
            self.band.setRegion([math.log10(w) for w in p.band_wavelengths])
        self.ramp.setVisible(p.ramp_pairs is not None)
        if p.ramp_pairs is not None:
            self.ramp.setRegion(p.ramp_pairs)
        logw = s.channel_log_w[::-1]                   # row 0 drawn at the bottom: after; top: before
        finite = logw[np.isfinite(logw)]
        levels = (float(finite.min()), float(finite.max())) if finite.size else (-1.0, 0.0)
        if levels[0] == levels[1]:
            levels = (levels[0] - 1, levels[1] + 1)
        hd = r.state.head_dim
        self.channels.show(logw, 0, 0, hd, 2, levels)
        set_extent(self.channels.plot, (0, hd), (0, 2))
        unrotated = sum(b - a for a, b in s.unrotated)
        for k, (region, text) in enumerate(zip(self.unrotated, self.unrotated_text)):
            region.setVisible(k < len(s.unrotated))
            text.setVisible(k < len(s.unrotated))
            if k < len(s.unrotated):
                a, b = s.unrotated[k]
                region.setRegion((a, b))
                text.setPos((a + b) / 2, 1.0 if p.rope_type != "proportional" else 0.5)
        title = (translate("RopeScaling", "log₁₀ θ per channel (rotate-half pairs)")
                 if r.state.pairing == "half" else
                 translate("RopeScaling", "log₁₀ θ per channel (interleaved pairs)"))
        if unrotated:
            title += " · " + fill(translate("RopeScaling", "%1 channels not rotated (grey)"), str(unrotated))
        set_title(self.channels.plot, title, size=TITLE_SIZE)
        self.s_before.setData(s.distance, s.score_before)
        set_pen(self.s_before, o.pen(BEFORE, 2.0))
        self.s_after.setData(s.distance, s.score_after)
        set_pen(self.s_after, o.pen(AFTER, 2.0))
        att = fill(translate("RopeScaling", "attention factor %1"), f"{p.attention_factor:.4g}")
        set_title(self.score, f"{_key(BEFORE, before)} {_key(AFTER, after)} · {att}", size=TITLE_SIZE)
        for plot in (self.freq, self.wave, self.score):
            plot.enableAutoRange()

    def _lines(self, p) -> None:
        for line, line_s, value in ((self.l0_line, self.s_l0, p.original_context),
                                    (self.ext_line, self.s_ext, p.extended_context)):
            # (a linear factor of 0.001 on 256 positions: an extended context of 0, no log10)
            show = value is not None and value > 0 and (line is self.l0_line or value != p.original_context)
            line.setVisible(show)
            line_s.setVisible(show)
            if show:
                line.setPos(math.log10(value))
                line_s.setPos(value)
                line_label_font(line)             # their labels at the presentation's text size
                line_label_font(line_s)

    def readout(self, r) -> str:
        p = r.scaled.profile
        counts = translate("RopeScaling", ", ").join(
            f"{regime_name(n)} {c}" for n, c in p.counts().items() if c)
        kind = type_word(p.rope_type) if r.state.truncate or p.rope_type != "yarn" else fill(
            translate("RopeScaling", "%1 (not truncated)"), p.rope_type)
        return fill(translate("RopeScaling", "rope type %1, factor %2, context %3, attention factor %4; %5 of %6 "
                                             "channels rotate (%7 pairs: %8)"),
                    kind, factor_text(p.factor, r.state.factor), context_text(p), f"{p.attention_factor:.6g}",
                    str(2 * p.rotated_pairs), str(p.head_dim), str(p.rotary_dim // 2), counts)
