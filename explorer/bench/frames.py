"""Frames in the real window offscreen, the plain path beside each, and the floor of this machine.

For each view and size: 3 untimed warm-up steps (the first frames after a tab switch or a size change
fill caches), then `steps` base-slider steps, each timed from the slider change to rendered pixels
(the view's grab(): one render). Then the plain path for the same view and size (explorer.bench.plain:
full arrays, one thread, setImage/plot with autoLevels, grab) for at most steps / 2 steps, stopping
after PLAIN_SECONDS once 3 steps are in (or 1, when a step takes over a second: the ratio is then
large and its precision moot). The floor: one empty redraw plus one screen-filling image
(setImage with fixed levels), each grabbed at the size of a view, 60 times each at the start and
15 times before each series (its row's `floor_ms`: on a shared machine the load changes within a run,
so each row is compared with the floor of its own moment).
"""

from __future__ import annotations

import gc
import os
import time

import numpy as np

from explorer.bench.timing import stats, timed

SIZES = ((512, 512), (2048, 1024), (32768, 1024), (8192, 4096))   # (max_len, d_model)
WARM_UP = 3          # untimed steps before each series (tab switch / new size: pixmaps, caches)
LOCAL_FLOOR_REPEAT = 15  # floor steps before each series
PLAIN_SECONDS = 3.0  # the plain series stops after this long (at least 3 steps)


def open_window():
    """(app, window): the main window with fresh settings, shown once for its layout, settled."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings

    from explorer.ui.app import make_app
    from explorer.ui.main_window import MainWindow

    app = make_app()
    settings = QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "pe-explorer", "bench")
    settings.clear()
    window = MainWindow(settings=settings, freeze_gc=True)   # as run_app's window
    window.resize(1400, 900)
    window.show()
    app.processEvents()
    _settle(app)
    # Hidden after layout: a visible offscreen window repaints itself inside processEvents as well,
    # so each step would render twice. Hidden, grab() is the one render of the frame.
    window.hide()
    return app, window


def _settle(app) -> None:
    """Let start-up finish before timing: the device probe imports torch on a pool thread (1-2 s)
    after the first frame, and while it holds the GIL every frame is slower."""
    from PySide6.QtCore import QThreadPool

    t = time.perf_counter()
    while time.perf_counter() - t < 1.0:
        app.processEvents()
        time.sleep(0.01)
    QThreadPool.globalInstance().waitForDone(30_000)
    app.processEvents()


def floor_row(width: int, height: int, repeat: int = 60) -> dict:
    """The cheapest honest frame here: an empty plot redrawn plus a screen-filling image drawn."""
    import pyqtgraph as pg

    empty = pg.PlotWidget()
    empty.resize(width, height)
    empty.show()
    full = pg.PlotWidget()
    full.resize(width, height)
    item = pg.ImageItem()
    full.addItem(item)
    full.show()
    rng = np.random.default_rng(0)
    images = [rng.uniform(-1, 1, (height, width)).astype(np.float32) for _ in range(2)]
    item.setImage(images[0], autoLevels=False, levels=(-1, 1))
    full.grab()
    empty.grab()
    e = stats(timed(lambda i: empty.grab(), repeat))
    f = stats(timed(lambda i: (item.setImage(images[i % 2], autoLevels=False, levels=(-1, 1)),
                               full.grab()), repeat))
    for w in (empty, full):
        _dispose(w)
    return {"p50_ms": round(e["p50_ms"] + f["p50_ms"], 2), "empty_redraw_p50_ms": e["p50_ms"],
            "image_p50_ms": f["p50_ms"], "width": width, "height": height}


def _dispose(widget) -> None:
    """Delete a widget now and collect its arrays, so a later measurement does not pay for them."""
    from PySide6.QtCore import QCoreApplication, QEvent

    widget.close()
    widget.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()


def view_names(window) -> list[str]:
    """Every tab's view name in tab order; `window.view_classes` (name -> class) when the window
    builds its views lazily, else `window.views`."""
    return list(getattr(window, "view_classes", None) or window.views)


def show_view(app, window, name: str):
    """Switch to the view's tab (building it, when the window builds lazily); the view widget."""
    window.tabs.setCurrentIndex(view_names(window).index(name))
    app.processEvents()
    return window.views.get(name) or window.tabs.currentWidget()


# Views whose result does not read the shared base: the bench steps a control of their own instead
# (view field, value of step i); the check view reads no control at all (its table is the user's).
OWN_CONTROL = {"rope": ("base", lambda i: 10000.0 + 25.0 * i), "alibi": ("heads", lambda i: 1 + i % 64),
               "qk": ("head", lambda i: i % 9)}
NOT_MOVED = ("check",)      # frames timed (a redraw), no plain path: nothing the sliders change
BENCH_MODEL = {"qk": "smollm2"}   # the shipped model, when installed: the qk view needs one


def stepped_control(window, name: str):
    """(control kind, a function value -> None that moves it): the base slider, or the view's own."""
    from explorer import catalogue

    if name in OWN_CONTROL and "base" not in catalogue.entry(name).reads:
        field, value_of = OWN_CONTROL[name]
        return field, lambda v: window.controller.update_view(name, **{field: value_of(v)})
    return "base", window.controls.base.slider.setValue


def view_series(app, window, name: str, n: int, d: int, steps: int) -> dict:
    """Control change -> rendered pixels for one view at one size (the base slider, or the view's
    own control when it does not read the base)."""
    view = window.views.get(name) or window.tabs.currentWidget()
    window.controller.update(max_len=n, d_model=d, base=10000.0, model=_bench_model(name))
    window.controller.wait_idle()
    app.processEvents()
    control, set_value = stepped_control(window, name)
    start = window.controls.base.slider.value() if control == "base" else 100
    gc.collect()                          # start each series without garbage from the last

    splits = []

    def move(value):
        t0 = time.perf_counter()
        set_value(value)
        window.controller.wait_idle()
        t1 = time.perf_counter()
        view.grab()
        splits.append(frame_split(window.controller.frame_times, t0, t1, time.perf_counter()))

    for i in range(WARM_UP):              # untimed, above start: values the series never reuses
        move(start + 1 + i)
    _let_layout_settle(app, window)       # a panel the new size re-laid out is computed again (debounced)
    del splits[:]
    times = timed(lambda i: move(start - 1 - (i % 40) if i % 80 < 40 else start - 40 + (i % 40)),
                  steps)
    return {"view": name, "max_len": n, "d_model": d, "control": control, **stats(times),
            "split_ms": split_medians(splits)}


def _let_layout_settle(app, window, ms: float = 80.0) -> None:
    """Run the event loop for `ms` and wait for the worker: a size change re-lays out the view's panels,
    and the recompute at their new pixels (View.track_resizes, debounced 30 ms) belongs to the size
    change, not to the first timed step."""
    t = time.perf_counter()
    while (time.perf_counter() - t) * 1e3 < ms:
        app.processEvents()
        time.sleep(0.005)
    window.controller.wait_idle()
    app.processEvents()


SPLIT = ("to_job", "job", "back", "set_result", "grab")   # the parts of a frame, in order


def frame_split(stamps: dict, t0: float, idle: float, drawn: float) -> dict | None:
    """One frame's parts in ms from the controller's stamps (Controller.frame_times) and the bench's
    own (t0: the control moved; idle: the job's result handled; drawn: grab() done): to_job = control
    -> job started on the worker (the GUI's work and the thread hop), job = the compute, back = job
    done -> its result on the GUI thread, set_result = the views' set_result, grab = the render.
    None when the step started no job (a cached result) or a stamp is missing."""
    keys = ("submit", "job_start", "job_end", "drawn_start", "drawn_end")
    if any(k not in stamps for k in keys) or stamps["submit"] < t0:
        return None
    s = [stamps[k] for k in keys]
    return {"to_job": (s[1] - t0) * 1e3, "job": (s[2] - s[1]) * 1e3, "back": (s[3] - s[2]) * 1e3,
            "set_result": (s[4] - s[3]) * 1e3, "grab": (drawn - idle) * 1e3}


def split_medians(splits: list) -> dict:
    """The median of each part over the frames that have a split ({} when none has)."""
    got = [s for s in splits if s is not None]
    return {k: round(float(np.median([s[k] for s in got])), 2) for k in SPLIT} if got else {}


def _bench_model(name: str) -> str:
    """The model a view is timed with ("" for none, or when the shipped one is not installed)."""
    if name not in BENCH_MODEL:
        return ""
    from explorer.backend.models.shipped import smollm2_path

    return BENCH_MODEL[name] if smollm2_path() is not None else ""


def plain_series(window, name: str, n: int, d: int, steps: int) -> dict | None:
    """The plain path for the same view and size (explorer.bench.plain), timed the same way; None
    where its full arrays do not fit in this machine's memory (10,000,000 x 8,192: 153 GiB)."""
    from explorer.bench.plain import plain_panels
    from explorer.bench.plain_canvas import PlainCanvas

    view = window.views.get(name) or window.tabs.currentWidget()
    params = window.controller.params
    size = view.size()
    try:
        panels, kind = plain_panels(name, params, view)      # untimed: builds the canvas
    except MemoryError:
        return None
    canvas = PlainCanvas(panels, size.width(), size.height())
    canvas.draw(panels)
    del panels
    gc.collect()
    times, t_end = [], time.perf_counter() + PLAIN_SECONDS
    for i in range(max(3, steps // 2)):
        p = params.with_(base=float(params.base) + 1.0 + i)
        t = time.perf_counter()
        canvas.draw(plain_panels(name, p, view)[0])
        times.append((time.perf_counter() - t) * 1e3)
        if time.perf_counter() > t_end and (i >= 2 or times[-1] > 1e3 * PLAIN_SECONDS / 3):
            break                         # enough: >= 3 steps, or a step that alone took > 1 s
    canvas.close()
    _dispose(canvas.widget)
    return {"view": name, "max_len": n, "d_model": d, "kind": kind, **stats(times)}


def frame_rows(steps: int = 60, views: list[str] | None = None, sizes=SIZES,
               plain: bool = True, log=None) -> tuple[list[dict], list[dict], dict]:
    """(frames, plain rows, floor) for every view and size."""
    app, window = open_window()
    first = window.tabs.currentWidget()
    size = (max(200, first.width()), max(200, first.height()))
    floor = floor_row(*size)
    local = []                        # a short floor before each series: the load of that moment
    frames, plains = [], []
    for name in views or view_names(window):
        show_view(app, window, name)
        for n, d in sizes:
            local.append(floor_row(*size, repeat=LOCAL_FLOOR_REPEAT)["p50_ms"])
            frames.append({**view_series(app, window, name, n, d, steps), "floor_ms": local[-1]})
            row = plain_series(window, name, n, d, steps) if plain and name not in NOT_MOVED else None
            if row is not None:
                plains.append(row)
            if log is not None:
                log(frames[-1], row)
        if _bench_model(name):
            window.controller.update(model="")
            window.controller.wait_idle()
    window.close()
    if local:
        floor["series_p50_ms"] = round(float(np.median(local)), 2)
    return frames, plains, floor
