"""The one State -> compute on a worker thread -> views.set_result(); stale results dropped.

Every control writes to the controller (`update` for shared Params, `update_view` for a view's own
settings, `set_state` for a whole scene); it replaces its frozen State, emits `state_changed(old, new)`
so the widgets follow (with their signals blocked), and asks the worker for the visible views whose
inputs changed. The worker runs `catalogue.entry(name).run(params, view_state, window)`.

One job runs at a time; while it runs, only the newest request waits (older ones are replaced), so a
fast slider drag never queues work. A result is shown only if it is newer than what the view already
shows (generation counter), so late results never overwrite fresh ones.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import replace
from typing import Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from explorer import catalogue
from explorer.compute.screen import Window
from explorer.errors import InputError, error_text, internal_error, localized, msg
from explorer.params import Params
from explorer.state import State
from explorer.ui.gc_pauses import without_collections
from explorer.ui.idle_wait import wait_until_idle


class _Signals(QObject):
    done = Signal(int, object)       # (generation, {view name: result})
    failed = Signal(int, str)


class _Aside(QRunnable):
    """A small task beside the views' jobs (the formula panel's texts); only the newest is shown."""

    def __init__(self, generation: int, fn: Callable[[], object], signals: "_AsideSignals"):
        super().__init__()
        self.generation, self.fn, self.signals = generation, fn, signals
        self.setAutoDelete(True)

    @without_collections
    def run(self) -> None:
        try:
            self.signals.done.emit(self.generation, self.fn())
        except BaseException:  # keep the window alive (a library's panic is a BaseException)
            traceback.print_exc()
            self.signals.done.emit(self.generation, _FAILED)


_FAILED = object()


class _AsideSignals(QObject):
    done = Signal(int, object)


def _ui_language() -> str:
    from explorer.ui.i18n import current_language

    return current_language()


class _Job(QRunnable):
    def __init__(self, generation: int, tasks: dict[str, Callable[[], object]], signals: _Signals,
                 times: dict | None = None):
        super().__init__()
        self.generation, self.tasks, self.signals = generation, tasks, signals
        self.times = {} if times is None else times     # where it stamps its start and end
        self.lang = _ui_language()          # a refusal is worded in the language the job began in
        self.setAutoDelete(True)

    @without_collections
    def run(self) -> None:
        try:
            self.times["job_start"] = time.perf_counter()
            out = {name: task() for name, task in self.tasks.items()}
            self.times["job_end"] = time.perf_counter()
            self.signals.done.emit(self.generation, out)
        except InputError as exc:
            self.signals.failed.emit(self.generation, error_text(exc, self.lang))
        except MemoryError:
            self.signals.failed.emit(self.generation, localized(msg(
                "not enough memory for this view; choose a smaller max_len or d_model"), self.lang))
        except BaseException as exc:  # keep the window alive; the message names the problem (a
            traceback.print_exc()        # Rust panic from pyo3 is a BaseException: it left the job unanswered)
            self.signals.failed.emit(self.generation, internal_error(exc, self.lang))


class Controller(QObject):
    """Owns the current State and the generation counter; feeds the visible views."""

    state_changed = Signal(object, object)   # (old State, new State)
    params_changed = Signal(object)          # Params (when the shared part changed)
    message = Signal(str)                    # a refusal or error, for the status bar
    results_shown = Signal(int)              # generation just drawn

    def __init__(self, views: dict, state: State | Params | None = None, parent=None):
        super().__init__(parent)
        self.views = views
        self.state = state if isinstance(state, State) else State(params=state or Params())
        self.visible: set[str] = set()
        self.generation = 0
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._signals = _Signals()
        self._signals.done.connect(self._on_done)
        self._signals.failed.connect(self._on_failed)
        self._busy = False
        self._pending: tuple[int, dict] | None = None
        # perf_counter stamps of the last job (submit, job_start, job_end, drawn_start, drawn_end):
        # the bench's split of a frame; a new dict per job, so a late job writes into its own
        self.frame_times: dict[str, float] = {}
        self._aside = _AsideSignals()
        self._aside.done.connect(self._on_aside_done)
        self._aside_generation = 0
        self._aside_callback: Callable | None = None
        self._aside_busy = False

    @property
    def params(self) -> Params:
        return self.state.params

    @property
    def cursor(self) -> int | None:
        return self.state.cursor

    # inputs --------------------------------------------------------------------------------
    def update(self, **changes) -> bool:
        """Apply changes to the shared Params; False (and a message) when they are refused."""
        try:
            new = self.state.with_params(**changes)
        except (InputError, TypeError) as exc:
            self.message.emit(error_text(exc, _ui_language()))
            return False
        self._replace(new)
        return True

    def update_view(self, name: str, **changes) -> bool:
        """Apply changes to one view's own settings; False (and a message) when refused."""
        try:
            new = self.state.with_view_state(name, **changes)
        except (InputError, TypeError) as exc:
            self.message.emit(error_text(exc, _ui_language()))
            return False
        self._replace(new)
        return True

    def set_state(self, state: State) -> None:
        """Show a whole State (a scene, the saved settings, a reset)."""
        self._replace(state)

    def set_params(self, params: Params) -> None:
        self._replace(replace(self.state, params=params,
                              cursor=self.cursor if self.cursor is None or self.cursor < params.max_len
                              else None))

    def set_view(self, name: str) -> None:
        """The open tab (part of the State: scenes restore it)."""
        if name != self.state.view:
            self._replace(replace(self.state, view=name), recompute=False)

    def _replace(self, new: State, recompute: bool = True) -> None:
        old = self.state
        if new == old:
            return
        self.state = new
        self.state_changed.emit(old, new)
        if new.params != old.params:
            self.params_changed.emit(new.params)
        if new.cursor != old.cursor:               # None: no cursor (a scene without one)
            for view in self.views.values():
                view.set_cursor(new.cursor)
        if recompute:
            changed = new.views.changed_views(old.views)
            self.refresh(None if new.params != old.params else
                         [n for n in self.visible if n in changed])

    def set_visible(self, names) -> None:
        self.visible = set(names)
        self.refresh()

    def refresh(self, names=None) -> None:
        """Recompute the visible views (or `names`) for the current State and view windows."""
        names = [n for n in (self.visible if names is None else names)
                 if n in self.views and n in catalogue.VIEWS
                 and not getattr(self.views[n], "unbuilt", False)]    # a view that could not be made
        if not names:
            return
        self.generation += 1
        tasks = {}
        for name in names:
            entry = catalogue.VIEWS[name]
            window = self._window_of(name) if entry.windowed else None
            tasks[name] = (lambda e=entry, p=self.params, s=self.state.views[name], w=window:
                           e.run(p, s, w))
        self._submit(self.generation, tasks)

    def _window_of(self, name: str) -> Window:
        """The view's zoom from the State, at the pixel size the view has on screen."""
        *_, rows, cols = self.views[name].visible_region()
        return catalogue.zoom_window(self.params, self.state.views[name], rows, cols)

    # worker plumbing ------------------------------------------------------------------------
    def _submit(self, generation: int, tasks: dict) -> None:
        if self._busy:
            if self._pending is not None:
                old = self._pending[1]          # its views still need drawing: merge
                tasks = {**old, **tasks}
            self._pending = (generation, tasks)
            return
        self._busy = True
        self.frame_times = {"submit": time.perf_counter()}
        self._pool.start(_Job(generation, tasks, self._signals, self.frame_times))

    def _next(self) -> None:
        self._busy = False
        if self._pending is not None:
            generation, tasks = self._pending
            self._pending = None
            self._submit(generation, tasks)

    def _on_done(self, generation: int, results: dict) -> None:
        self.frame_times["drawn_start"] = time.perf_counter()
        try:
            for name, result in results.items():
                view = self.views[name]
                if generation > view.generation:
                    view.generation = generation
                    try:
                        view.set_result(result)
                        if self.cursor is not None:     # (None: its lines were hidden when it
                            view.set_cursor(self.cursor)  # became None, not again each frame)
                    except Exception as exc:    # a view that cannot draw this result: say so,
                        traceback.print_exc()   # and keep the others and the worker going
                        self.message.emit(internal_error(exc, _ui_language()))
        finally:
            self.frame_times["drawn_end"] = time.perf_counter()
            self._next()    # else _busy stayed set and no later change was ever computed
        self.results_shown.emit(generation)

    def _on_failed(self, generation: int, text: str) -> None:
        self.message.emit(text)
        self._next()

    def run_aside(self, fn: Callable[[], object], callback: Callable[[object], None]) -> None:
        """Run fn on the worker thread and hand its value to callback on the GUI thread; a newer
        request makes an older one's value be dropped."""
        self._aside_generation += 1
        self._aside_callback = callback
        self._aside_busy = True
        self._pool.start(_Aside(self._aside_generation, fn, self._aside))

    def _on_aside_done(self, generation: int, value) -> None:
        if generation == self._aside_generation:
            self._aside_busy = False
            if self._aside_callback is not None and value is not _FAILED:
                self._aside_callback(value)

    def wait_idle(self, timeout_ms: int = 10000) -> bool:
        """Block until no job runs or waits (tests, bench, export); True when idle."""
        return wait_until_idle(
            lambda: self._busy or self._pending is not None or self._aside_busy, timeout_ms)

    # cursor ----------------------------------------------------------------------------------
    def set_cursor(self, pos: int) -> None:
        if not 0 <= pos < self.params.max_len:
            return
        if pos == self.cursor:
            for view in self.views.values():
                view.set_cursor(pos)
            return
        self._replace(replace(self.state, cursor=pos), recompute=False)
