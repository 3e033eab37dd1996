"""Short garbage collections while sliders move: the long-lived objects are frozen out of them.

After start-up the process holds ~220,000 long-lived Python objects (Qt wrappers, numpy, torch,
tokenizers). A full (generation 2) collection walks every one of them: 130-150 ms measured on a
2-core machine, a visible hitch in a slider drag every few hundred frames. `gc.freeze()` moves the
objects alive at that moment into a permanent generation that collections skip, so later full
collections walk only what was made since. The window calls this once the device probe (which
imports torch) has answered, and again after each model opens (its tokenizer and tables). A language
switch (a new window) unfreezes first, so the old window's objects can be collected (on the GUI
thread: worker threads run with automatic collection paused, see collections_paused).
"""

from __future__ import annotations

import functools
import gc
import threading
from contextlib import contextmanager


def freeze_long_lived() -> int:
    """Collect what is garbage now, then freeze everything still alive; the frozen count."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


_pause_lock = threading.Lock()
_pauses = [0, False]            # [workers running, whether collection was on before the first]


@contextmanager
def collections_paused():
    """No automatic collection while a worker thread runs. One started there (any allocation can
    start one) could finalize Qt objects of a reference cycle - a closed window's widgets, as after
    a language switch - off the GUI thread, which crashes: seen in the test suite as a segfault in
    'Garbage-collecting' on the controller's worker. Concurrent workers count; the GUI thread's
    collections run as before between jobs."""
    with _pause_lock:
        if _pauses[0] == 0:
            _pauses[1] = gc.isenabled()
            gc.disable()
        _pauses[0] += 1
    try:
        yield
    finally:
        with _pause_lock:
            _pauses[0] -= 1
            if _pauses[0] == 0 and _pauses[1]:
                gc.enable()


def without_collections(run):
    """A QRunnable.run under collections_paused()."""
    @functools.wraps(run)
    def paused(self) -> None:
        with collections_paused():
            run(self)
    return paused
