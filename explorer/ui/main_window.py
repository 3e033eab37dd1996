"""The main window: control panel + tabbed views + menus. Composes; computes nothing."""

from __future__ import annotations

import json

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow, QScrollArea, QTabWidget

from explorer import compute
from explorer.errors import InputError
from explorer.params import Params, parse_pairs, pick_pairs
from explorer.ui.controller import Controller
from explorer.ui.controls import ControlPanel
from explorer.ui.device_probe import DeviceProbe
from explorer.ui.file_actions import FileActions
from explorer.ui.lecture import Lecture
from explorer.ui.presentation import Presenter
from explorer.ui.views.curves import CurvesView
from explorer.ui.views.extra import EXTRA_VIEWS, tab_title
from explorer.ui.views.heatmap import HeatmapView
from explorer.ui.views.learned import LearnedView
from explorer.ui.views.similarity import SimilarityView
from explorer.ui.views.tokens import TokensView

SETTINGS_ORG, SETTINGS_APP = "pe-explorer", "pe-explorer"
# Ctrl+1 ... Ctrl+9, then Ctrl+0 for the tenth view; Ctrl+Tab reaches every view
TAB_KEYS = tuple(f"Ctrl+{i}" for i in range(1, 10)) + ("Ctrl+0",)


class MainWindow(QMainWindow):
    language_requested = Signal(str)

    def __init__(self, settings: QSettings | None = None, parent=None):
        super().__init__(parent)
        self.settings = settings or QSettings(SETTINGS_ORG, SETTINGS_APP)
        self.setWindowTitle(self.tr("PE Explorer: token embeddings + positional encodings"))
        self.views = {"heatmap": HeatmapView(), "curves": CurvesView(),
                      "similarity": SimilarityView(), "tokens": TokensView(),
                      "learned": LearnedView()}
        self.tabs = QTabWidget()
        self.tab_names = {"heatmap": self.tr("PE heatmap"), "curves": self.tr("Frequency curves"),
                          "similarity": self.tr("Position similarity"),
                          "tokens": self.tr("Tokens"), "learned": self.tr("Learned positions")}
        for name, (cls, _title) in EXTRA_VIEWS.items():
            self.views[name] = cls()
            self.tab_names[name] = tab_title(name)
        short = self._short_tab_names()
        for name, view in self.views.items():
            self.tabs.addTab(view, short.get(name, self.tab_names[name]))
            self.tabs.setTabToolTip(self.tabs.count() - 1, self.tab_names[name])
        # all twelve tabs stay on screen at 1280 px (no scroll arrows): long names are elided,
        # their full names in the tooltip and the View menu
        self.tabs.setUsesScrollButtons(False)
        self.tabs.setElideMode(Qt.TextElideMode.ElideRight)
        self.setCentralWidget(self.tabs)
        self.controls = ControlPanel()
        scroll = QScrollArea()
        scroll.setWidget(self.controls)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.controls_scroll = scroll
        self.dock = QDockWidget(self.tr("Controls"))
        self.dock.setObjectName("controlsDock")
        self.dock.setWidget(scroll)
        self.dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                              | QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.set_panel_scale(1.0)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.dock)
        self.controller = Controller(self.views, self._load_params())
        self.colormap = str(self.settings.value("colormap", "CET-D1"))
        self._window_timer = QTimer(self, singleShot=True, interval=30)
        self._build_menus()
        self.presenter = Presenter(self)
        self.lecture = Lecture(self)
        self._connect()
        self.controls.set_params(self.controller.params)
        self.controls.set_colormap(self.colormap)
        self._on_colormap_changed(self.colormap)
        self.tabs.setCurrentIndex(int(self.settings.value("tab", 0) or 0))
        geometry = self.settings.value("geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(1280, 800)
        self._on_tab_changed()

    def _short_tab_names(self) -> dict[str, str]:
        """Tab labels short enough for all twelve at 1280 px; the View menu keeps the full names."""
        return {"heatmap": self.tr("Heatmap"), "curves": self.tr("Curves"),
                "similarity": self.tr("Similarity"), "learned": self.tr("Learned"),
                "conventions": self.tr("Layouts"), "offset": self.tr("Offset"),
                "distance": self.tr("Distance")}

    def step_tab(self, step: int) -> None:
        """Ctrl+Tab / Ctrl+Shift+Tab: the next / previous view, wrapping round."""
        self.tabs.setCurrentIndex((self.tabs.currentIndex() + step) % self.tabs.count())

    def set_panel_scale(self, scale: float) -> None:
        """Keep the control panel as wide as its (scaled) contents need, and no wider."""
        # Qt paints a dock's title in the theme's small title font unless the dock's own font
        # differs from the application font; a style-strategy flag makes it differ, same look
        title = QFont(self.font())
        title.setStyleStrategy(QFont.StyleStrategy.PreferQuality)
        self.dock.setFont(title)
        self.controls.adjustSize()
        self.controls_scroll.setMinimumWidth(self.controls.minimumSizeHint().width() + 20)
        self.controls_scroll.setMaximumWidth(int(340 * scale))

    # set-up -----------------------------------------------------------------------------------
    def _build_menus(self) -> None:
        quit_action = QAction(self.tr("&Quit"), self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        file_menu.addAction(quit_action)
        self.file_actions = FileActions(self, file_menu)
        view_menu = self.menuBar().addMenu(self.tr("&View"))
        view_menu.addAction(self.dock.toggleViewAction())
        for i, name in enumerate(self.views):
            act = QAction(self.tab_names[name], self)
            if i < len(TAB_KEYS):
                act.setShortcut(QKeySequence(TAB_KEYS[i]))
            act.triggered.connect(lambda _=False, i=i: self.tabs.setCurrentIndex(i))
            view_menu.addAction(act)
        view_menu.addSeparator()
        for text, keys, step in ((self.tr("Next view"), "Ctrl+Tab", +1),
                                 (self.tr("Previous view"), "Ctrl+Shift+Tab", -1)):
            act = QAction(text, self)
            act.setShortcuts([QKeySequence(keys), QKeySequence("Ctrl+PgDown" if step > 0
                                                               else "Ctrl+PgUp")])
            act.triggered.connect(lambda _=False, step=step: self.step_tab(step))
            view_menu.addAction(act)
        self.reset_action = QAction(self.tr("&Reset settings"), self)
        self.reset_action.triggered.connect(self.reset)
        settings_menu = self.menuBar().addMenu(self.tr("&Settings"))
        settings_menu.addAction(self.reset_action)
        language_menu = settings_menu.addMenu(self.tr("&Language"))
        from explorer.ui import i18n

        for lang in i18n.available_languages():
            act = QAction(i18n.language_name(lang), self)
            act.triggered.connect(lambda _=False, lang=lang: self.language_requested.emit(lang))
            language_menu.addAction(act)

    def _connect(self) -> None:
        c = self.controller
        self.controls.changed.connect(self._on_controls_changed)
        self.controls.colormap_changed.connect(self._on_colormap_changed)
        self.controls.reset_requested.connect(self.reset)
        c.params_changed.connect(self.controls.set_params)
        c.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self._window_timer.timeout.connect(lambda: c.refresh())
        for view in self.views.values():
            view.cursor_moved.connect(c.set_cursor)
            view.window_changed.connect(self._window_timer.start)
        self.views["heatmap"].hovered.connect(self._on_heatmap_hovered)
        self.views["similarity"].hovered.connect(self._on_similarity_hovered)
        self.views["curves"].pairs_requested.connect(self._on_pairs_requested)
        tv = self.views["tokens"]
        tv.text_changed.connect(lambda text: c.update(text=text))
        tv.tokenizer_changed.connect(lambda name: c.update(tokenizer=name))
        tv.scale_changed.connect(lambda on: c.update(scale_embedding=on))
        tv.source_changed.connect(lambda source: c.update(embedding_source=source))
        self.controls.set_device_text(self.tr("Device: checking…"))
        self.device_probe = DeviceProbe(self)
        self.device_probe.shown.connect(self.controls.set_device_text)
        c.params_changed.connect(self._on_params_for_device)
        # torch loads lazily: probe after the first frame is on screen
        QTimer.singleShot(800, self, lambda: self.device_probe.probe(c.params.device))

    # slots -------------------------------------------------------------------------------------
    def _on_params_for_device(self, params: Params) -> None:
        if params.device != getattr(self, "_probed_device", None):
            self._probed_device = params.device
            self.device_probe.probe(params.device)

    def _on_controls_changed(self, changes: dict) -> None:
        if "d_model" in changes:   # keep the drawn pairs meaningful for the new width
            changes["curve_pairs"] = tuple(i for i in self.controller.params.curve_pairs
                                           if i < (changes["d_model"] + 1) // 2) or (0,)
        if not self.controller.update(**changes):
            field = next(iter(changes))
            self.controls.set_params(self.controller.params)
            self.controls.show_error(field, self.statusBar().currentMessage())

    def _on_colormap_changed(self, name: str) -> None:
        self.colormap = name
        for view in self.views.values():
            view.set_colormap(name)

    def _on_tab_changed(self, *_):
        name = list(self.views)[self.tabs.currentIndex()]
        self.controller.set_visible([name])

    def _on_pairs_requested(self, mode: str, text: str) -> None:
        d = self.controller.params.d_model
        try:
            pairs = parse_pairs(text, d) if mode == "manual" else pick_pairs(mode, d)
        except InputError as exc:
            self.views["curves"].set_readout(str(exc))
            return
        self.views["curves"].set_readout(" ")
        self.controller.update(curve_pairs=pairs)

    def _on_heatmap_hovered(self, pos: int, ch: int) -> None:
        try:   # the picture under the mouse may be one step behind a shrinking max_len / d_model
            value, w, wavelength = compute.pe_value(self.controller.params, pos, ch)
        except InputError:
            return
        self.views["heatmap"].set_readout(
            self.tr("position %1, channel %2: PE = %3   w = %4   wavelength 2π/w = %5 positions")
            .replace("%1", str(pos)).replace("%2", str(ch)).replace("%3", f"{value:+.6f}")
            .replace("%4", f"{w:.4g}").replace("%5", f"{wavelength:.4g}"))
        self.controller.set_cursor(pos)

    def _on_similarity_hovered(self, p: int, q: int) -> None:
        params = self.controller.params
        try:
            value = compute.similarity_value(params, p, q)
        except InputError:
            return
        self.views["similarity"].set_readout(
            self.tr("p = %1, q = %2, offset k = %3: %4 = %5")
            .replace("%1", str(p)).replace("%2", str(q)).replace("%3", str(q - p))
            .replace("%4", params.metric).replace("%5", f"{value:+.6g}"))
        self.controller.set_cursor(p)

    # settings ----------------------------------------------------------------------------------
    def _load_params(self) -> Params:
        raw = self.settings.value("params")
        if raw:
            try:
                return Params.from_dict(json.loads(str(raw)))
            except (InputError, ValueError, TypeError):
                self.statusBar().showMessage(self.tr("Saved settings were unreadable; "
                                                     "defaults restored"), 8000)
        return Params()

    def save_settings(self) -> None:
        self.settings.setValue("params", json.dumps(self.controller.params.to_dict()))
        self.settings.setValue("colormap", self.colormap)
        self.settings.setValue("tab", self.tabs.currentIndex())
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.sync()

    def reset(self) -> None:
        """Forget saved settings and return to the defaults."""
        self.settings.clear()
        self.controller.set_params(Params())
        self._on_colormap_changed("CET-D1")
        self.controls.set_colormap("CET-D1")
        self.statusBar().showMessage(self.tr("Settings reset to defaults"), 5000)

    def closeEvent(self, event) -> None:
        self.save_settings()
        self.lecture.shutdown()          # stop the sweep, drop the application-wide key filter
        self.controller.wait_idle(3000)
        super().closeEvent(event)
