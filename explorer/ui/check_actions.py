"""File → Check my table… (Ctrl+K): pick a file (and one of its arrays), read and diagnose it on a
worker thread with a busy dialog and Cancel, then show it in the check view. A file that cannot be
checked leaves the State as it was and says why in one status-bar line."""

from __future__ import annotations

import traceback
from dataclasses import replace

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QObject,
    QRunnable,
    Qt,
    QThreadPool,
    Signal,
)
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QInputDialog, QProgressDialog

from explorer import catalogue
from explorer.compute import check as data
from explorer.errors import InputError, error_text, internal_error, localized, msg
from explorer.translations import fill
from explorer.ui.gc_pauses import without_collections
from explorer.ui.idle_wait import wait_until_idle

VIEW = "check"
SHORTCUT = "Ctrl+K"
BUSY_AFTER_MS = 400          # the busy dialog appears only for a check that takes longer


class _Signals(QObject):
    done = Signal(int, object)      # (generation, ("choose", names) | ("ok", CheckState))
    failed = Signal(int, str)
    stage = Signal(int, str)


class _CheckJob(QRunnable):
    """Read the file (listing its arrays when no key is given) and diagnose it, off the GUI thread."""

    def __init__(self, generation: int, params, state, ask_key: bool, signals: _Signals, words: dict):
        super().__init__()
        self.generation, self.params, self.state = generation, params, state
        self.ask_key, self.signals, self.words = ask_key, signals, words
        self.setAutoDelete(True)

    @without_collections
    def run(self) -> None:
        try:
            if self.ask_key and not self.state.source.startswith(data.MEMORY_PREFIX):
                self.signals.stage.emit(self.generation, self.words["reading"])
                names = data.array_names(self.state.source)
                if len(names) > 1:
                    self.signals.done.emit(self.generation, ("choose", names))
                    return
            self.signals.stage.emit(self.generation, self.words["diagnosing"])
            result = catalogue.entry(VIEW).run(self.params, self.state)   # cached: the view reuses it
            if result.error:
                self.signals.failed.emit(self.generation, localized(result.error, self.state.lang))
            else:
                self.signals.done.emit(self.generation, ("ok", self.state))
        except InputError as exc:
            self.signals.failed.emit(self.generation, error_text(exc, self.state.lang))
        except MemoryError:
            self.signals.failed.emit(self.generation, localized(msg("not enough memory to check this file"),
                                                                self.state.lang))
        except Exception as exc:  # noqa: BLE001 - keep the window alive; one line for the user
            traceback.print_exc()
            self.signals.failed.emit(self.generation, internal_error(exc, self.state.lang))


class CheckActions(QObject):
    """The File menu's check action on `window`, and what explorer.show(x) calls (`show_source`)."""

    FILTERS = "*.npy *.npz *.safetensors *.csv *.pt *.pth"

    def __init__(self, window, menu):
        super().__init__(window)
        self.window = window
        self.last_dir = ""
        self.generation = 0
        self.busy = False
        self.dialog: QProgressDialog | None = None
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)
        self.signals = _Signals()
        self.signals.done.connect(self._on_done)
        self.signals.failed.connect(self._on_failed)
        self.signals.stage.connect(self._on_stage)
        self.action = QAction(self.tr("Check my &table…"), window)
        self.action.setShortcut(QKeySequence(SHORTCUT))
        self.action.triggered.connect(lambda _=False: self.open_file())
        actions = menu.actions()
        menu.insertAction(actions[1] if len(actions) > 1 else None, self.action)
        window.view_built.connect(self._on_view_built)       # views are made when first shown
        if window.views.built(VIEW):
            self._on_view_built(VIEW, window.views[VIEW])
        window.controller.state_changed.connect(self._on_state_changed)
        self._closing = False
        window.installEventFilter(self)
        self._sync_language()

    def _on_view_built(self, name: str, view) -> None:
        if name == VIEW:
            view.open_requested.connect(self.action.trigger)

    # the language of the diagnosis follows the UI's ------------------------------------------
    @staticmethod
    def ui_language() -> str:
        from explorer.ui.i18n import current_language

        lang = current_language()
        return lang if lang in data.CheckState.CHOICES["lang"] else "en"

    def _sync_language(self) -> None:
        state = self.window.controller.state.views[VIEW]
        if state.lang != self.ui_language():
            self.window.controller.update_view(VIEW, lang=self.ui_language())

    def _on_state_changed(self, old, new) -> None:
        if new.views[VIEW].lang != self.ui_language():
            self._sync_language()
        token = old.views[VIEW].source if old is not None else ""
        if token.startswith(data.MEMORY_PREFIX) and token != new.views[VIEW].source and not self._shown(token):
            data.forget_array(token)     # another file opened over explorer.show's array: nothing shows it

    # opening -------------------------------------------------------------------------------
    def open_file(self, path: str | None = None, key: str | None = None) -> None:
        """Ask for a file (unless given), then check it on the worker; key None: ask which array
        when the file holds several."""
        if path is None:
            path, _ = QFileDialog.getOpenFileName(
                self.window, self.tr("Check my table"), self.last_dir,
                fill(self.tr("Tables (%1);;All files (*)"), self.FILTERS))
            if not path:
                return
            self.last_dir = path.rsplit("/", 1)[0] + "/" if "/" in path else ""
        current = self.window.controller.state.views[VIEW]
        self._start(replace(current, source=str(path), key=key or "", lang=self.ui_language()),
                    ask_key=key is None)

    def show_file(self, path: str, key: str | None, kind: str = "", base: float | None = None,
                  pairing: str = "") -> None:
        """explorer.show(path): the check tab on a file, read as File → Check my table reads it (key
        None: ask which array when it holds several), with what the data should be."""
        c = self.window.controller      # no file first: one that cannot be read leaves the view empty, not
        c.set_state(replace(c.state.with_view_state(VIEW, source="", key="", kind=kind or "", base=base,
                                                    pairing=pairing or ""), view=VIEW))   # on the last one
        self.open_file(path, key)

    def show_source(self, token: str, kind: str = "", base: float | None = None,
                    pairing: str = "") -> None:
        """Show data already registered (explorer.show): the check tab on it, computed by the view's
        worker like every view."""
        c = self.window.controller
        state = c.state.with_view_state(VIEW, source=token, key="", kind=kind or "", base=base,
                                        pairing=pairing or "", lang=self.ui_language())
        c.set_state(replace(state, view=VIEW))

    def _start(self, state, ask_key: bool) -> None:
        self.generation += 1
        self.busy = True
        self._open_dialog(state.source)
        words = {"reading": fill(self.tr("Reading %1…"), state.source),
                 "diagnosing": fill(self.tr("Diagnosing %1…"), state.source)}
        self.pool.start(_CheckJob(self.generation, self.window.controller.params, state, ask_key,
                                  self.signals, words))
        self._pending_state = state

    def _open_dialog(self, path: str) -> None:
        self._close_dialog()
        dialog = QProgressDialog(fill(self.tr("Reading %1…"), path), self.tr("Cancel"), 0, 0,
                                 self.window)
        dialog.setWindowTitle(self.tr("Check my table"))
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(BUSY_AFTER_MS)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.canceled.connect(self.cancel)
        dialog.setValue(0)
        self.dialog = dialog

    def _close_dialog(self) -> None:
        if self.dialog is not None:
            self.dialog.canceled.disconnect(self.cancel)
            self.dialog.close()
            self.dialog.deleteLater()
            self.dialog = None

    def cancel(self) -> None:
        """Drop the running check (it finishes unseen); the State stays as it was."""
        if not self.busy:
            return
        self.generation += 1
        self.busy = False
        self._close_dialog()
        self.window.statusBar().showMessage(self.tr("Check cancelled"), 5000)

    def _on_stage(self, generation: int, text: str) -> None:
        if generation == self.generation and self.dialog is not None:
            self.dialog.setLabelText(text)

    def _on_done(self, generation: int, outcome) -> None:
        if generation != self.generation:
            return
        self.busy = False
        self._close_dialog()
        what, value = outcome
        state = self._pending_state
        if what == "choose":
            name, ok = QInputDialog.getItem(
                self.window, self.tr("Check my table"),
                fill(self.tr("%1 holds several arrays. Which one?"), state.source),
                value, 0, False)
            if ok and name:
                self._start(replace(state, key=name), ask_key=False)
            return
        c = self.window.controller
        c.set_state(replace(replace(c.state, views=c.state.views.replace(VIEW, value)), view=VIEW))
        self.window.statusBar().showMessage(fill(self.tr("Checked %1"), value.source), 5000)

    def _on_failed(self, generation: int, text: str) -> None:
        if generation != self.generation:
            return
        self.busy = False
        self._close_dialog()
        self.window.statusBar().showMessage(" ".join(text.split()), 10000)

    def wait_idle(self, timeout_ms: int = 120000) -> bool:
        """Block until no check runs (tests); True when idle."""
        wait_until_idle(lambda: self.busy or self.pool.activeThreadCount(), timeout_ms)
        QCoreApplication.processEvents()
        return not self.busy

    # an array of explorer.show() is not saved for the next session, nor kept after its window ---
    def eventFilter(self, obj, event) -> bool:
        if obj is self.window and event.type() == QEvent.Type.Close:
            c = self.window.controller
            self._closing = True
            tokens = _sources(self.window)                  # (a lesson's kept State too)
            if c.state.views[VIEW].source.startswith(data.MEMORY_PREFIX):
                c.set_state(c.state.with_view_state(VIEW, source="", key=""))
            for token in tokens:
                if token.startswith(data.MEMORY_PREFIX) and not self._shown(token):
                    data.forget_array(token)   # (a language switch's new window shows it); else it stayed for good
        return False

    def _shown(self, token: str) -> bool:
        """True when an open window (this one, unless it is closing) shows the array `token`, now or when its
        lesson ends."""
        from PySide6.QtWidgets import QApplication

        return any(token in _sources(w) for w in QApplication.topLevelWidgets()
                   if getattr(w, "controller", None) is not None and not (w is self.window and self._closing))


def _sources(window) -> set[str]:
    """The check view's sources in `window`'s State and in the State its lesson gives back at its end."""
    kept = window.lecture.state_to_keep() if getattr(window, "lecture", None) is not None else window.controller.state
    return {s.views[VIEW].source for s in (window.controller.state, kept)}
