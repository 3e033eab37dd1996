"""The main window: control panel + tabbed views + menus. Composes; computes nothing."""

from __future__ import annotations

import traceback
from dataclasses import replace
from functools import partial

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow, QScrollArea

from explorer.errors import InputError, error_text, internal_error
from explorer.params import Params
from explorer.state import State
from explorer.translations import fill
from explorer.ui.controller import Controller
from explorer.ui.controls import ControlPanel
from explorer.ui.device_probe import DeviceProbe
from explorer.ui.gc_pauses import freeze_long_lived
from explorer.ui.file_actions import FileActions
from explorer.ui.i18n import clear_keeping_language, current_language
from explorer.ui.lecture import Lecture
from explorer.ui.menus import build_view_and_settings_menus
from explorer.ui.model_actions import ModelActions, default_state
from explorer.ui.presentation import Presenter
from explorer.ui.settings_guard import moved_aside
from explorer.ui import settings_store
from explorer.ui.settings_store import kept_colormap, load_state, save_state
from explorer.ui.tab_bar import style_tab_bar, view_tabs
from explorer.ui.view_requests import keep_zoom, recompute_resized, set_curve_pairs
from explorer.ui.views.registry import LazyViews, UnbuiltView, make_view, short_tab_title, tab_title


class MainWindow(QMainWindow):
    language_requested = Signal(str)
    view_built = Signal(str, object)     # (name, view): a tab's view was just made (views are lazy)

    def __init__(self, settings: QSettings | None = None, parent=None, freeze_gc: bool = False):
        """freeze_gc: the app's own window (run_app, the bench) freezes long-lived objects out of
        the garbage collector after start-up and each model load (gc_pauses); tests' windows don't."""
        super().__init__(parent)
        self.freeze_gc = freeze_gc
        self._frozen_once = False          # the start-up freeze has been scheduled
        self.settings = settings or settings_store.user_settings()     # (the UI language lives there too)
        self.setWindowTitle(self.tr("PE Explorer: token embeddings + positional encodings"))
        self.views = LazyViews(self._build_view)   # each view is made when its tab is first shown
        self.tab_names = {name: tab_title(name) for name in self.views}
        self.tabs, self._pages = view_tabs({name: short_tab_title(name) for name in self.views},
                                           self.tab_names)
        self.style_tabs(1.0)
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
        self.controller = Controller(self.views, self._load_state())
        self._behind: set[str] = set()     # views whose own controls have not shown the State yet
        self._window_timer = QTimer(self, singleShot=True, interval=30)
        self._resize_timer = QTimer(self, singleShot=True, interval=30)
        self._build_menus()
        self.presenter = Presenter(self)
        self.lecture = Lecture(self)
        self._connect()
        self.controls.set_params(self.controller.params)
        self._on_state_changed(None, self.controller.state)
        self.tabs.setCurrentIndex(list(self.views).index(self.controller.state.view))
        geometry = self.settings.value("geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(1280, 800)
        self._on_tab_changed()

    def style_tabs(self, scale: float) -> None:
        """The tab bar at the presentation scale (tab_bar.style_tab_bar)."""
        style_tab_bar(self.tabs, scale)

    def step_tab(self, step: int) -> None:
        """Ctrl+Tab / Ctrl+Shift+Tab: the next / previous view, wrapping round."""
        self.tabs.setCurrentIndex((self.tabs.currentIndex() + step) % self.tabs.count())

    def set_panel_scale(self, scale: float) -> None:
        """Keep the control panel as wide as its (scaled) contents need, and no wider."""
        # Qt paints a dock's title in the theme's small title font unless the dock's own font
        # differs from the application font; a style-strategy flag makes it differ, same look
        title = QFont(self.font())
        title.setStyleStrategy(QFont.StyleStrategy.PreferQuality)
        for dock in self.findChildren(QDockWidget):   # the panel, the lesson's caption, the formulas
            dock.setFont(title)
        self.controls_scroll.setMaximumWidth(int(340 * scale))
        self.fit_panel_width()

    def fit_panel_width(self) -> None:
        """The panel at least as wide as its contents: a preset's bold "multiply token embedding by
        √d_model" widened them past the scroll area, which cut every box's right edge off."""
        self.controls.adjustSize()
        self.controls_scroll.setMinimumWidth(self.controls.minimumSizeHint().width() + 20)

    # set-up -----------------------------------------------------------------------------------
    def _build_menus(self) -> None:
        quit_action = QAction(self.tr("&Quit"), self)
        # the platform's quit keys; Windows has none (Alt+F4 closes windows there): Ctrl+Q, as the README says
        quit_action.setShortcuts(QKeySequence.keyBindings(QKeySequence.StandardKey.Quit)
                                 or [QKeySequence("Ctrl+Q")])
        quit_action.triggered.connect(self.close)
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        file_menu.addAction(quit_action)
        self.file_actions = FileActions(self, file_menu)
        self.model_actions = ModelActions(self, file_menu)
        from explorer.ui.check_actions import CheckActions

        self.check_actions = CheckActions(self, file_menu)    # File → Check my table… (Ctrl+K)
        build_view_and_settings_menus(self)

    def _connect(self) -> None:
        c = self.controller
        self.controls.changed.connect(self._on_controls_changed)
        self.controls.colormap_changed.connect(self._on_colormap_changed)
        self.controls.reset_requested.connect(self.reset)
        self.controls.preset_chosen.connect(self.choose_preset)
        self.controls.marks_changed.connect(self.fit_panel_width)
        c.params_changed.connect(self.controls.set_params)
        c.state_changed.connect(self._on_state_changed)
        c.message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        # a message longer than the bar (a refusal naming a long path, in F11) is cut: the whole of it on hover
        self.statusBar().messageChanged.connect(lambda text: self.statusBar().setToolTip(text))
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self._window_timer.timeout.connect(partial(keep_zoom, c, self.views))
        self._resize_timer.timeout.connect(partial(recompute_resized, c))
        self.controls.set_device_text(self.tr("Device: checking…"))
        self.device_probe = DeviceProbe(self)
        self.device_probe.shown.connect(self.controls.set_device_text)
        # start-up and each opened model leave long-lived objects: out of later full collections
        if self.freeze_gc:
            self.device_probe.shown.connect(self._freeze_long_lived_once)
            self.model_actions.loaded.connect(lambda *_: QTimer.singleShot(0, freeze_long_lived))
        c.params_changed.connect(self._on_params_for_device)
        # torch loads lazily: probe after the first frame is on screen
        QTimer.singleShot(800, self, self._first_device_probe)

    def _build_view(self, name: str):
        """Make the view of tab `name` on first use and wire it like every other (LazyViews calls this)."""
        try:
            view = make_view(name)
        except Exception as exc:        # a bug of ours: one line in its tab; the other tabs go on
            traceback.print_exc()
            view = UnbuiltView(name, internal_error(exc, current_language()))
        page = self._pages[name]
        page.layout().addWidget(view)
        if page.isVisible():     # laid out now, so its first result is computed at its real size
            view.show()
            page.layout().activate()
        self._wire_view(name, view)
        return view

    def _wire_view(self, name: str, view) -> None:
        """Signals, colour map, presentation scale, the State's settings and the cursor, for one view."""
        c = self.controller
        view.cursor_moved.connect(c.set_cursor)
        view.window_changed.connect(self._window_timer.start)
        view.resized.connect(self._resize_timer.start)
        if hasattr(view, "state_edited"):
            view.state_edited.connect(lambda changes, n=name: c.update_view(n, **changes))
        if name == "curves":
            view.pairs_requested.connect(partial(set_curve_pairs, c, self.views))
        elif name == "tokens":
            view.text_changed.connect(lambda text: c.update(text=text))
            view.tokenizer_changed.connect(lambda tok: c.update(tokenizer=tok))
            view.scale_changed.connect(lambda on: c.update(scale_embedding=on))
            view.source_changed.connect(lambda source: c.update(embedding_source=source))
        view.set_colormap(self.colormap)
        self.presenter.apply_to(view, new=True)
        if hasattr(view, "show_state"):
            view.show_state(c.state.views[name], c.params)
        if c.cursor is not None:
            view.set_cursor(c.cursor)
        self.view_built.emit(name, view)

    # slots -------------------------------------------------------------------------------------
    def _freeze_long_lived_once(self, *_) -> None:
        """After the first device answer (torch is imported by then), once per window."""
        if not self._frozen_once:
            self._frozen_once = True
            QTimer.singleShot(0, freeze_long_lived)

    def _first_device_probe(self) -> None:
        """The deferred start-up probe, unless a device was already probed since (it would be older)."""
        if self.device_probe.latest is None:
            self.device_probe.probe(self.controller.params.device)

    def _on_params_for_device(self, params: Params) -> None:
        if params.device != getattr(self, "_probed_device", None):
            self._probed_device = params.device
            self.device_probe.probe(params.device)

    def _on_controls_changed(self, changes: dict) -> None:
        if not self.controller.update(**changes):
            field = next(iter(changes))
            self.controls.set_params(self.controller.params)
            self.controls.show_error(field, self.statusBar().currentMessage())

    def choose_preset(self, name: str) -> None:
        """Every view's values from the model preset `name` ("": keep the values, forget the preset)."""
        from explorer.presets_state import apply_preset

        try:
            state = apply_preset(self.controller.state, name) if name else replace(self.controller.state,
                                                                                     preset="")
        except InputError as exc:
            self.statusBar().showMessage(error_text(exc, current_language()), 8000)
            self.controls.show_preset(self.controller.state)
            return
        self.controller.set_state(state)

    @property
    def colormap(self) -> str:
        """The colour map shown: the State's (scenes and render keep it)."""
        return self.controller.state.colormap

    def _on_colormap_changed(self, name: str) -> None:
        self.controller.set_state(replace(self.controller.state, colormap=name))
        self.lecture.keep_colormap(name)

    def _on_tab_changed(self, *_):
        name = list(self.views)[self.tabs.currentIndex()]
        self.views[name]                     # made now if this tab is shown for the first time
        self.controller.set_view(name)
        self.controller.set_visible([name])

    def _on_state_changed(self, old, new) -> None:
        """The open view's own controls show its part of the new State (signals blocked). A hidden
        view's catch up when its tab opens: every built view's, on every slider step, cost ~0.2 ms
        a step once all tabs had been opened (and more beside the Learned view)."""
        self.controls.show_preset(new)
        if old is None or new.colormap != old.colormap:
            self.controls.set_colormap(new.colormap)
            for view in self.views.values():
                view.set_colormap(new.colormap)
        for name, _view in self.views.items():         # the views made so far
            if old is None or old.views[name] != new.views[name] or old.params != new.params:
                self._behind.add(name)
        if new.view in self._behind:
            self._behind.discard(new.view)
            show = getattr(self.views[new.view], "show_state", None)
            if show is not None:
                show(new.views[new.view], new.params)
        if old is not None and new.view != old.view:
            index = list(self.views).index(new.view)
            if self.tabs.currentIndex() != index:
                self.tabs.setCurrentIndex(index)

    # settings ----------------------------------------------------------------------------------
    def _load_state(self) -> State:
        """The State saved by the last run, or the defaults (with a note when it was unreadable, or held a
        pickled object: that file is moved aside unread)."""
        aside = moved_aside(self.settings)
        if aside:
            self.statusBar().showMessage(fill(self.tr("Saved settings held a pickled Python object, which PE "
                                                      "Explorer never reads: moved to %1; defaults restored"),
                                              aside), 15000)
            return default_state()
        state = load_state(self.settings)
        if state is None:
            self.statusBar().showMessage(self.tr("Saved settings were unreadable; "
                                                 "defaults restored"), 8000)
            return kept_colormap(self.settings, default_state())
        return state

    def save_settings(self) -> None:
        save_state(self.settings, self.lecture.state_to_keep(), self.saveGeometry())

    def reset(self) -> None:
        """Forget saved settings and return to the defaults (a lesson running ends first: what it
        would give back at its end is no longer wanted); the saved language stays, as the window's does."""
        self.lecture.end()
        clear_keeping_language(self.settings)
        self.controller.set_state(replace(default_state(), view=self.controller.state.view))
        self.statusBar().showMessage(self.tr("Settings reset to defaults"), 5000)

    def closeEvent(self, event) -> None:
        self.save_settings()
        self.lecture.shutdown()          # stop the sweep, drop the application-wide key filter
        self.model_actions.shutdown()
        self.controller.wait_idle(3000)
        super().closeEvent(event)
