"""Params changes -> compute on a worker thread -> views.set_result(); stale results dropped.

One job runs at a time; while it runs, only the newest request waits (older ones are replaced),
so a fast slider drag never queues work. A result is shown only if it is newer than what the
view already shows (generation counter), so late results never overwrite fresh ones.
"""

from __future__ import annotations

import traceback
from typing import Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from explorer import compute
from explorer.errors import InputError
from explorer.params import Params


class _Signals(QObject):
    done = Signal(int, object)       # (generation, {view name: result})
    failed = Signal(int, str)


class _Job(QRunnable):
    def __init__(self, generation: int, tasks: dict[str, Callable[[], object]], signals: _Signals):
        super().__init__()
        self.generation, self.tasks, self.signals = generation, tasks, signals
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            out = {name: task() for name, task in self.tasks.items()}
            self.signals.done.emit(self.generation, out)
        except InputError as exc:
            self.signals.failed.emit(self.generation, str(exc))
        except MemoryError:
            self.signals.failed.emit(self.generation, "not enough memory for this view; "
                                                      "choose a smaller max_len or d_model")
        except Exception as exc:  # keep the window alive; the message names the problem
            traceback.print_exc()
            self.signals.failed.emit(self.generation, f"internal error: {type(exc).__name__}: {exc}")


class Controller(QObject):
    """Owns the current Params and the generation counter; feeds the visible views."""

    params_changed = Signal(object)  # Params
    message = Signal(str)            # a refusal or error, for the status bar
    results_shown = Signal(int)      # generation just drawn

    def __init__(self, views: dict, params: Params | None = None, parent=None):
        super().__init__(parent)
        self.views = views
        self.params = params or Params()
        self.visible: set[str] = set()
        self.generation = 0
        self.cursor: int | None = None
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._signals = _Signals()
        self._signals.done.connect(self._on_done)
        self._signals.failed.connect(self._on_failed)
        self._busy = False
        self._pending: tuple[int, dict] | None = None

    # inputs --------------------------------------------------------------------------------
    def update(self, **changes) -> bool:
        """Apply changes to Params; False (and a message) when they are refused."""
        try:
            new = self.params.with_(**changes)
        except (InputError, TypeError) as exc:
            self.message.emit(str(exc))
            return False
        if new == self.params:
            return True
        self.params = new
        self.params_changed.emit(new)
        self.refresh()
        return True

    def set_params(self, params: Params) -> None:
        self.params = params
        self.params_changed.emit(params)
        self.refresh()

    def set_visible(self, names) -> None:
        self.visible = set(names)
        self.refresh()

    def refresh(self, names=None) -> None:
        """Recompute the visible views (or `names`) for the current Params and view windows."""
        names = [n for n in (names or self.visible)
                 if getattr(self.views.get(n), "compute_fn", None) is not None]
        if not names:
            return
        self.generation += 1
        tasks = {}
        for name in names:
            view = self.views[name]
            window = self._window_of(view)
            fn = view.compute_fn
            tasks[name] = (lambda fn=fn, p=self.params, w=window: fn(p, w)) if window is not None \
                else (lambda fn=fn, p=self.params: fn(p))
        self._submit(self.generation, tasks)

    def _window_of(self, view):
        if not hasattr(view, "visible_region"):
            return None
        pos0, pos1, ch0, ch1, rows, cols = view.visible_region()
        if view.result is None or view.result.params.max_len != self.params.max_len \
                or view.result.params.d_model != self.params.d_model:
            return compute.Window.full(self.params, rows, cols)
        return compute.Window(pos0, pos1, ch0, ch1, rows, cols)

    # worker plumbing ------------------------------------------------------------------------
    def _submit(self, generation: int, tasks: dict) -> None:
        if self._busy:
            if self._pending is not None:
                old = self._pending[1]          # its views still need drawing: merge
                tasks = {**old, **tasks}
            self._pending = (generation, tasks)
            return
        self._busy = True
        self._pool.start(_Job(generation, tasks, self._signals))

    def _next(self) -> None:
        self._busy = False
        if self._pending is not None:
            generation, tasks = self._pending
            self._pending = None
            self._submit(generation, tasks)

    def _on_done(self, generation: int, results: dict) -> None:
        for name, result in results.items():
            view = self.views[name]
            if generation > view.generation:
                view.generation = generation
                view.set_result(result)
                if self.cursor is not None:
                    view.set_cursor(self.cursor)
        self._next()
        self.results_shown.emit(generation)

    def _on_failed(self, generation: int, text: str) -> None:
        self.message.emit(text)
        self._next()

    def wait_idle(self, timeout_ms: int = 10000) -> bool:
        """Block until no job runs or waits (tests, bench, export); True when idle."""
        from PySide6.QtCore import QCoreApplication, QElapsedTimer

        timer = QElapsedTimer()
        timer.start()
        while (self._busy or self._pending) and timer.elapsed() < timeout_ms:
            self._pool.waitForDone(5)
            QCoreApplication.processEvents()
        return not (self._busy or self._pending)

    # cursor ----------------------------------------------------------------------------------
    def set_cursor(self, pos: int) -> None:
        if not 0 <= pos < self.params.max_len:
            return
        self.cursor = pos
        for view in self.views.values():
            view.set_cursor(pos)
