"""Lecture features installed on the main window: the Lesson menu and deck stepping (clicker keys),
the caption bar, predict-then-reveal question cards, parameter animation, the formula/code dock."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDockWidget,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from explorer import scenes
from explorer.ui.animation import AnimationBar, Animator
from explorer.ui.deck_player import CaptionBar
from explorer.ui.file_actions import apply_scene
from explorer.ui.formula_panel import FormulaPanel
from explorer.ui.reveal import QuestionCard

NEXT_KEYS = (Qt.Key.Key_PageDown, Qt.Key.Key_Space, Qt.Key.Key_Right)
PREV_KEYS = (Qt.Key.Key_PageUp, Qt.Key.Key_Left)
REVEAL_KEYS = (Qt.Key.Key_R, Qt.Key.Key_Return, Qt.Key.Key_Enter)
CLICKER_KEYS = (Qt.Key.Key_PageDown, Qt.Key.Key_PageUp)
# widgets that use arrows / Space / letters themselves: only the clicker keys step past them
TYPING = (QLineEdit, QTextEdit, QPlainTextEdit, QAbstractSpinBox, QAbstractSlider, QComboBox)
TEXT_ENTRY = (QLineEdit, QTextEdit, QPlainTextEdit, QAbstractSpinBox)   # where Esc may mean "undo typing"


class Lecture(QObject):
    """Owns the deck, its caption, the question card, the animator and the formula dock."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.deck: list = []
        self.index = 0
        self._before = None          # the window's State when the lesson began, given back at its end
        self.caption = CaptionBar()
        self.caption.step_requested.connect(self.step)
        self.caption_dock = self._dock("lessonDock", self.caption, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.caption_dock.hide()
        self.caption_dock.installEventFilter(self)      # its close button ends the lesson
        self.card = QuestionCard(window.tabs)
        self.card.revealed.connect(lambda: self.hide_action.setChecked(False))
        self.card.revealed.connect(self.caption.show_answer)
        self.animator = Animator(window)
        self.animation_bar = AnimationBar(self.animator)
        window.addToolBar(Qt.ToolBarArea.BottomToolBarArea, self.animation_bar)
        self.animation_bar.hide()
        self.formula_dock = FormulaPanel(window)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.formula_dock)
        self.formula_dock.hide()
        self._build_menu()
        window.tabs.currentChanged.connect(self._on_tab_changed)
        window.view_built.connect(lambda _name, view: self._show_intro(view))
        self._listening = False
        self.card.revealed.connect(self._listen)
        window.destroyed.connect(self._uninstall)

    def _listen(self) -> None:
        """Hear the application's keys only while a lesson runs or a card covers the plot: an
        application-wide filter is a Python call for every event of every widget (~60 a frame)."""
        wanted = bool(self.deck) or not self.card.isHidden()
        app = QApplication.instance()
        if wanted != self._listening and app is not None:
            (app.installEventFilter if wanted else app.removeEventFilter)(self)
            self._listening = wanted

    def _uninstall(self, *_) -> None:
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)
        self._listening = False

    def shutdown(self) -> None:
        """The window is closing: pause any sweep and stop listening to the application's keys."""
        self.animator.pause()
        self._uninstall()

    def _dock(self, name: str, widget: QWidget, area) -> QDockWidget:
        dock = QDockWidget(self.window)
        dock.setObjectName(name)
        dock.setWidget(widget)
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetClosable
                         | QDockWidget.DockWidgetFeature.DockWidgetMovable)
        self.window.addDockWidget(area, dock)
        return dock

    def _action(self, text: str, slot, keys: str | None = None, checkable: bool = False,
                shown_keys: str = "") -> QAction:
        act = QAction(text + (f"\t{shown_keys}" if shown_keys else ""), self.window)
        act.setCheckable(checkable)
        if keys:
            act.setShortcut(QKeySequence(keys))
        act.triggered.connect(lambda checked=False: slot(checked) if checkable else slot())
        self.window.addAction(act)
        self.menu.addAction(act)
        return act

    def _build_menu(self) -> None:
        w = self.window
        self.menu = w.menuBar().addMenu(QCoreApplication.translate("Lecture", "&Lesson"))
        self.start_action = self._action(QCoreApplication.translate("Lecture", "Start built-in lesson"),
                                         self.start_builtin)
        self.next_action = self._action(QCoreApplication.translate("Lecture", "Next scene"), lambda: self.step(+1),
                                        shown_keys="PgDown, Space, →")
        self.prev_action = self._action(QCoreApplication.translate("Lecture", "Previous scene"), lambda: self.step(-1),
                                        shown_keys="PgUp, ←")
        # the docks' titles first: a dock's setWindowTitle renames its toggle action too (the caption bar's
        # menu item had read "Lesson", the formula panel's "Formula and code")
        self.formula_dock.setWindowTitle(QCoreApplication.translate("Lecture", "Formula and code"))
        self.caption_dock.setWindowTitle(QCoreApplication.translate("Lecture", "Lesson"))
        self.caption_action = self.caption_dock.toggleViewAction()
        self.caption_action.setText(QCoreApplication.translate("Lecture", "Show caption bar"))
        self.caption_action.triggered.connect(lambda shown: None if shown else self.end())
        self.menu.addAction(self.caption_action)
        self.end_action = self._action(QCoreApplication.translate("Lecture", "End lesson"), self.end,
                                       shown_keys="Esc")
        self.menu.addSeparator()
        self.hide_action = self._action(QCoreApplication.translate("Lecture", "Hide plot behind a question card"),
                                        self.set_hidden, checkable=True,
                                        shown_keys=QCoreApplication.translate("Lecture", "R / Enter: reveal"))
        self.menu.addSeparator()
        self.play_action = self._action(QCoreApplication.translate("Lecture", "Play / pause animation"),
                                        self.toggle_animation, keys="Ctrl+P")
        self.anim_bar_action = self.animation_bar.toggleViewAction()
        self.anim_bar_action.setText(QCoreApplication.translate("Lecture", "Show animation controls"))
        self.menu.addAction(self.anim_bar_action)
        self.formula_action = self.formula_dock.toggleViewAction()
        self.formula_action.setText(QCoreApplication.translate("Lecture", "Formula and code panel"))
        self.formula_action.setShortcut(QKeySequence("Ctrl+F"))
        w.addAction(self.formula_action)
        self.menu.addAction(self.formula_action)

    # deck ---------------------------------------------------------------------------------------
    def set_deck(self, deck, index: int = 0) -> None:
        """Load an ordered list of scenes and show scene `index`."""
        if not deck:
            return
        if not self.deck:
            self._before = self.window.controller.state
        self.deck = list(deck)
        for view in self.window.views.values():     # the views built so far; later ones on build
            self._show_intro(view)
        self.caption_dock.show()
        self.go(index)

    def start_builtin(self) -> None:
        self.set_deck(scenes.builtin_deck())

    def go(self, index: int) -> None:
        """Show scene `index` (clamped to the deck): params, view, cursor, caption, question."""
        if not self.deck:
            return
        self.index = max(0, min(len(self.deck) - 1, index))
        scene = self.deck[self.index]
        self.animator.pause()
        apply_scene(self.window, scene)
        self.caption.show_scene(scene, self.index, len(self.deck), answer_hidden=scene.question is not None)
        if scene.question is not None:
            self.card.cover(scene)
            self.hide_action.setChecked(True)
        else:
            self.card.reveal()
        self._listen()

    def step(self, direction: int) -> None:
        if self.deck:
            self.go(self.index + direction)

    def end(self) -> None:
        """Leave the lesson (End lesson, Esc, or closing the caption bar): no deck, caption or card,
        and the window as it was before the lesson began. Hiding the caption left the deck stepping
        unseen under the arrow keys, and the last scene's State was saved as the user's own."""
        if not self.deck:
            return
        self.deck = []
        self.animator.pause()
        self.card.reveal()
        self.caption_dock.hide()
        self.caption.show_scene(None, 0, 0)      # shown again: "No lesson loaded", not the last scene
        before, self._before = self._before, None
        for view in self.window.views.values():
            self._show_intro(view)
        self._listen()
        if before is not None:
            self.window.controller.set_state(before)

    def _show_intro(self, view) -> None:
        """A view's own introduction is hidden during a lesson: the caption says what the scene shows,
        and in F11 at 1280 x 800 the two together left plots 25-70 px high."""
        intro = getattr(view, "explain", None)
        if intro is not None:
            intro.setVisible(not self.deck)

    def keep_before(self, state) -> None:
        """The State to give back when this lesson ends (a window rebuilt for another language)."""
        if self.deck:
            self._before = state

    def keep_colormap(self, name: str) -> None:
        """A colour map the user picks during a lesson is theirs (a projector's choice, not the
        lesson's): it stays after the lesson and over a language switch."""
        if self.deck and self._before is not None:
            self._before = replace(self._before, colormap=name)

    def state_to_keep(self):
        """The State the window saves: during a lesson, the one from before it."""
        return self._before if self.deck and self._before is not None else self.window.controller.state

    @property
    def scene(self):
        return self.deck[self.index] if self.deck else None

    # question card ------------------------------------------------------------------------------
    def set_hidden(self, hidden: bool) -> None:
        """Menu toggle: cover the current view (with the scene's question if it has one)."""
        if hidden:
            scene = self.scene if self.scene is not None and self.scene.question is not None else None
            self.card.cover(scene)
            if scene is not None:            # its answer is held back again
                self.caption.show_scene(scene, self.index, len(self.deck), answer_hidden=True)
        else:
            self.card.reveal()
        self.hide_action.setChecked(self.card.covering)
        self._listen()

    def _on_tab_changed(self, *_) -> None:
        if self.card.covering:
            self.card.raise_()

    # animation ----------------------------------------------------------------------------------
    def toggle_animation(self) -> None:
        self.animation_bar.show()
        self.animator.toggle()

    # keys ---------------------------------------------------------------------------------------
    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if obj is self.caption_dock and event.type() == QEvent.Type.Close:
            self.end()
            return False
        if event.type() != QEvent.Type.KeyPress or not isinstance(obj, QWidget):
            return False
        if obj.window() is not self.window or event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return False
        key = event.key()
        focus = QApplication.focusWidget() or obj
        typing = isinstance(focus, TYPING)
        if self.card.covering and key in REVEAL_KEYS and not typing:
            self.card.reveal()
            return True
        if not self.deck or event.isAutoRepeat():
            return False
        if key == Qt.Key.Key_Escape and not isinstance(focus, TEXT_ENTRY):   # sliders, closed combos:
            # Esc is not theirs
            self.end()
            return True
        if key not in NEXT_KEYS + PREV_KEYS:
            return False
        if key not in CLICKER_KEYS and (typing or (key == Qt.Key.Key_Space
                                                   and isinstance(focus, QAbstractButton))):
            return False
        self.step(+1 if key in NEXT_KEYS else -1)
        return True
