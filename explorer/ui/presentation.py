"""Presentation mode for a projector: full screen, collapsible controls, 1x-3x font and line scale,
high contrast, a large readout. Installs its actions on the main window."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QColor, QFont, QKeySequence, QPalette
from PySide6.QtWidgets import QApplication, QLabel, QLayout, QWidget

from explorer.ui.indicators import scale_indicators
from explorer.ui.views.titles import rescale_labels, set_text_scale, text_scale
from explorer.translations import fill

SCALES = (1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0)


def base_point_size() -> float:
    """The application's font size at scale 1, remembered on the QApplication: a window rebuilt
    after a language switch (while the font is scaled) must not take 1.5x as its 1x."""
    app = QApplication.instance()
    size = app.property("peBasePointSize")
    if not size:
        size = QApplication.font().pointSizeF() or 10.0
        app.setProperty("peBasePointSize", float(size))
    return float(size)


def contrast_palette() -> QPalette:
    """Black text on white for every widget role (high contrast), in every colour group."""
    palette = QPalette(QApplication.palette())
    black, white = QColor("black"), QColor("white")
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText,
                 QPalette.ColorRole.ToolTipText, QPalette.ColorRole.PlaceholderText):
        palette.setColor(role, black)
    for role in (QPalette.ColorRole.Window, QPalette.ColorRole.Base, QPalette.ColorRole.AlternateBase,
                 QPalette.ColorRole.Button, QPalette.ColorRole.ToolTipBase):
        palette.setColor(role, white)
    return palette


def forget_size_hints(root) -> None:
    """Make every layout under `root` measure its widgets again. A hidden widget's layouts do not
    redo their sums when a font changes (the control panel in F11): back at 1x the panel's rows
    still wanted their 1.5x widths (the panel 419 px wide instead of 325, the view's tabs scrolled)."""
    for layout in root.findChildren(QLayout):
        layout.invalidate()
    for widget in root.findChildren(QWidget):
        widget.updateGeometry()


class Presenter(QObject):
    """Owns the presentation state of one main window."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.scale = 1.0
        self._presenting = False       # in F11
        self.high_contrast = False
        self.base_point_size = base_point_size()
        self._normal_geometry = None      # the window before F11, restored on leaving it
        self._scale_before = 1.0
        menu = window.menuBar().addMenu(self.tr("&Presentation"))
        self.full_action = self._action(self.tr("Presentation mode (full screen)"), "F11",
                                        self.toggle_presentation, checkable=True)
        self.bigger_action = self._action(self.tr("Larger text and lines"), "Ctrl+=",
                                          lambda: self.step_scale(+1))
        self.smaller_action = self._action(self.tr("Smaller text and lines"), "Ctrl+-",
                                           lambda: self.step_scale(-1))
        self.contrast_action = self._action(self.tr("High contrast"), "Ctrl+H",
                                            self.toggle_contrast, checkable=True)
        for act in (self.full_action, self.bigger_action, self.smaller_action,
                    self.contrast_action):
            menu.addAction(act)
        window.addAction(self._action("", "Ctrl++", lambda: self.step_scale(+1)))
        if text_scale() != 1.0 or QApplication.font().pointSizeF() != self.base_point_size:
            self.set_scale(1.0)     # an earlier window (or language switch) left the fonts scaled

    def _action(self, text: str, keys: str, slot, checkable: bool = False) -> QAction:
        act = QAction(text, self.window)
        act.setShortcut(QKeySequence(keys))
        act.setCheckable(checkable)
        act.triggered.connect(lambda *_: slot())
        self.window.addAction(act)
        return act

    def toggle_presentation(self) -> None:
        """F11: full screen without the control panel, and back."""
        if self.in_presentation():
            self.leave_presentation()
        else:
            self.enter_presentation()

    def in_presentation(self) -> bool:
        """In F11 (its own flag: Qt ticks the checkable action before its triggered slot runs, so the
        tick read as "already presenting" and F11 left at once, doing nothing)."""
        return self._presenting

    def enter_presentation(self) -> None:
        """Full screen, controls hidden, text and lines at least 1.5x."""
        w = self.window
        if self.in_presentation():
            return
        self._normal_geometry = (w.saveGeometry(), w.size())
        self._scale_before = self.scale
        self._presenting = True
        self.full_action.setChecked(True)
        w.dock.hide()
        if self.scale < 1.5:
            self.set_scale(1.5)
        w.showFullScreen()

    def leave_presentation(self) -> None:
        """Back to the scale and window size from before F11 (the panel fits at that scale)."""
        w = self.window
        if not self.in_presentation():
            return
        self._presenting = False
        self.full_action.setChecked(False)
        self.set_scale(self._scale_before)
        w.showNormal()
        w.dock.show()
        if self._normal_geometry is not None:
            geometry, size = self._normal_geometry
            w.restoreGeometry(geometry)
            w.resize(size)       # restoreGeometry clamps to the screen; the size is what was there

    def step_scale(self, direction: int) -> None:
        i = min(range(len(SCALES)), key=lambda j: abs(SCALES[j] - self.scale))
        self.set_scale(SCALES[max(0, min(len(SCALES) - 1, i + direction))])

    def set_scale(self, scale: float) -> None:
        """Scale the UI font, plot fonts and line widths by `scale` (1 to 3)."""
        self.scale = max(1.0, min(3.0, scale))
        set_text_scale(self.scale)
        size = self.base_point_size * self.scale
        font = QFont(QApplication.font())
        font.setPointSizeF(size)
        font.setBold(self.high_contrast)   # high contrast's bold is in the font, not a style sheet
        QApplication.setFont(font)         # (see toggle_contrast)
        self.window.setFont(font)
        # and on the tabs themselves: in a window built while the fonts were scaled (a language
        # switch during F11) the tab widget kept 1.5x after F11, and so did every view made later
        self.window.tabs.setFont(font)
        self.window.style_tabs(self.scale)
        forget_size_hints(self.window.controls)
        self.window.set_panel_scale(self.scale)
        scale_indicators(self.window, self.scale)   # the control panel's and the views' check boxes
        for view in self.window.views.values():     # views made later get it in apply_to
            self.apply_to(view)
        self.window.statusBar().showMessage(
            fill(self.tr("Scale %1×"), f"{self.scale:g}"), 2000)

    def apply_to(self, view, new: bool = False) -> None:
        """The current scale on one view: its fonts, line widths, axes and titles (new=True: a view
        just made, which is already drawn at 1x)."""
        if new and self.scale == 1.0 and not self.high_contrast:
            return
        font = QApplication.font()
        size = self.base_point_size * self.scale
        view.setFont(font)
        if new:
            scale_indicators(view, self.scale)
        view.set_line_scale(self.scale * (1.5 if self.high_contrast else 1.0))
        big = QFont(font)
        if self.scale > 1.0 or self.high_contrast:  # at 1x the readout is plain, as in a new window
            big.setPointSizeF(size * 1.3)
            big.setBold(True)
        view.readout.setFont(big)
        for label in view.findChildren(QLabel):   # a style sheet stops the view's font at the label (the Tokens
            if label.styleSheet():                # view's model note and notice stayed 1x in F11)
                label.setFont(font)
        for gv in view.findChildren(pg.GraphicsView):
            for item in gv.scene().items():
                if isinstance(item, pg.AxisItem):
                    item.setStyle(tickFont=font)
                    item.label.setFont(font)
                    if item.orientation in ("left", "right"):
                        item.setWidth(None)      # room for the larger tick labels
                elif (isinstance(item, pg.LabelItem) and item.text
                      and getattr(item, "_base_pt", None) is None):
                    item.setText(item.text, size=f"{size:.0f}pt")   # other plot titles
            rescale_labels(gv.scene())   # titles and signs keep their own proportions

    def toggle_contrast(self) -> None:
        """High contrast: pure black on white (the palette), bold text (set_scale's font), thicker
        lines. Not a style sheet: a sheet on the window pins every widget's font to the one it had
        when styled, so Ctrl+= left the control panel and the views' controls at their old size."""
        self.high_contrast = not self.high_contrast
        self.contrast_action.setChecked(self.high_contrast)
        self.window.setPalette(contrast_palette() if self.high_contrast else QApplication.palette())
        self.set_scale(self.scale)
