"""Automatic garbage collection never runs inside a worker thread's job: a collection started there
could finalize Qt objects (a closed window's widgets in a cycle) off the GUI thread, which crashed
the test suite once (a segfault in 'Garbage-collecting' on the controller's worker)."""

from __future__ import annotations

import gc
import threading

from explorer.ui import check_actions, controller, device_probe, gc_pauses, model_actions


def test_paused_while_any_worker_runs_and_restored_after_the_last():
    assert gc.isenabled()
    inside, release = threading.Event(), threading.Event()

    def worker():
        with gc_pauses.collections_paused():
            inside.set()
            release.wait(5)

    t = threading.Thread(target=worker)
    t.start()
    assert inside.wait(5)
    with gc_pauses.collections_paused():            # a second, overlapping worker
        assert not gc.isenabled()
    assert not gc.isenabled()                       # the first still runs
    release.set()
    t.join(5)
    assert gc.isenabled()


def test_a_process_that_turned_collection_off_keeps_it_off():
    gc.disable()
    try:
        with gc_pauses.collections_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_every_worker_runnable_runs_with_collection_paused():
    for cls in (controller._Job, controller._Aside, model_actions._Load, device_probe._Probe,
                check_actions._CheckJob):
        assert getattr(cls.run, "__wrapped__", None) is not None, cls.__name__


def test_the_controllers_jobs_compute_with_collection_paused(window, qtbot):
    from explorer import catalogue

    seen = []
    entry = catalogue.VIEWS["heatmap"]
    real = entry.run

    def run(params, state=None, win=None):
        seen.append(gc.isenabled())
        return real(params, state, win)

    object.__setattr__(entry, "run", run)
    try:
        window.controller.update(base=777.0)
        assert window.controller.wait_idle()
    finally:
        object.__delattr__(entry, "run")        # the class's run again (not a bound copy that would
        #                                         shadow a later patch of the class)
    assert seen and not any(seen)
    qtbot.waitUntil(gc.isenabled, timeout=5000)   # once the worker has left its job
