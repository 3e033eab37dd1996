"""python -m explorer.bench [--json] [--steps N] [--backend-only]: a benchmark, not a test.

Backend: PE and similarity at screen size (closed forms) and full size (the textbook path).
Frames: the real window offscreen, after start-up has settled (the device probe's torch import);
for each view and size, 3 untimed warm-up steps (the first frames after a tab switch or a size
change fill caches: 20-50 ms once), then >= 60 base-slider steps, each timed from the slider change
to rendered pixels (the view's grab(): one render of the view). The textbook path (full PE, matmul
similarity, full-resolution setImage, grab) is timed beside it.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import time

from explorer.blas import single_threaded_blas

single_threaded_blas()     # as the app runs (before numpy loads): see cli.single_threaded_blas

import numpy as np  # noqa: E402

SIZES = ((512, 512), (2048, 1024), (32768, 1024), (8192, 4096))   # (max_len, d_model)
CORE_VIEWS = ("heatmap", "curves", "similarity")   # the ones with a textbook path to compare
WARM_UP = 3   # untimed steps before each series (tab switch / new size: pixmaps, glyphs, caches)


def _timed(fn, repeat: int) -> tuple[float, float]:
    times = []
    for i in range(repeat):
        t = time.perf_counter()
        fn(i)
        times.append((time.perf_counter() - t) * 1e3)
    return float(np.percentile(times, 50)), float(np.percentile(times, 95))


def backend_rows(repeat: int = 5) -> list[dict]:
    from explorer.compute import heatmap, similarity
    from explorer.compute.screen import Window
    from explorer.backend.encodings import sinusoidal_pe
    from explorer.backend.similarity import similarity_matmul
    from explorer.params import Params

    rows = []
    for n, d in SIZES:
        p = Params(max_len=n, d_model=d)
        win = Window.full(p, 800, 1000)
        cases = {
            "pe screen": lambda i: heatmap.heatmap.__wrapped__(p.with_(base=1e4 + i), win),
            "similarity screen": lambda i: similarity.similarity.__wrapped__(p.with_(base=1e4 + i), win),
            "pe full float32": lambda i: sinusoidal_pe(n, d, 1e4 + i),
        }
        if n <= 8192:
            cases["similarity full (matmul)"] = lambda i: similarity_matmul(n, min(d, 512), 1e4 + i,
                                                                           dtype="float32")
        for name, fn in cases.items():
            p50, p95 = _timed(fn, repeat if "full" not in name else 2)
            rows.append({"what": name, "max_len": n, "d_model": d, "p50_ms": round(p50, 2),
                         "p95_ms": round(p95, 2)})
    return rows


def frame_rows(steps: int = 60, views: list[str] | None = None) -> tuple[list[dict], list[dict]]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings

    from explorer.ui.app import make_app
    from explorer.ui.main_window import MainWindow

    app = make_app()
    settings = QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "pe-explorer", "bench")
    settings.clear()
    window = MainWindow(settings=settings)
    window.resize(1400, 900)
    window.show()
    app.processEvents()
    _settle(app)
    # Shown once for its layout, then hidden: a visible offscreen window repaints itself inside
    # processEvents as well, so each step would render twice. Hidden, the grab() is the one render
    # of the frame, as on a screen where the result is painted once.
    window.hide()
    frames, textbook = [], []
    for name in views or list(window.views):
        window.tabs.setCurrentIndex(list(window.views).index(name))
        view = window.views[name]
        for n, d in SIZES:
            window.controller.update(max_len=n, d_model=d, base=10000.0)
            window.controller.wait_idle()
            app.processEvents()
            slider = window.controls.base.slider
            start = slider.value()
            gc.collect()                  # start each series without garbage from the last

            def move(value):
                slider.setValue(value)
                window.controller.wait_idle()
                view.grab()

            for i in range(WARM_UP):      # untimed, above start: values the series never reuses
                move(start + 1 + i)
            p50, p95 = _timed(lambda i: move(start - 1 - (i % 40) if i % 80 < 40
                                             else start - 40 + (i % 40)), steps)
            frames.append({"view": name, "max_len": n, "d_model": d, "p50_ms": round(p50, 2),
                           "p95_ms": round(p95, 2)})
            if name in CORE_VIEWS:
                textbook.append(_textbook(app, name, n, d, max(3, steps // 20)))
    window.close()
    return frames, textbook


def _settle(app) -> None:
    """Let start-up finish before timing: 0.8 s after the first frame the device probe imports
    torch on a pool thread (1-2 s), and while it holds the GIL every frame is slower."""
    from PySide6.QtCore import QThreadPool

    t = time.perf_counter()
    while time.perf_counter() - t < 1.0:
        app.processEvents()
        time.sleep(0.01)
    QThreadPool.globalInstance().waitForDone(30_000)
    app.processEvents()


def _dispose(widget) -> None:
    """Delete a widget now and collect its arrays, so a later measurement does not pay for them."""
    import gc

    from PySide6.QtCore import QCoreApplication, QEvent

    widget.close()
    widget.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()


def _textbook(app, name: str, n: int, d: int, repeat: int) -> dict:
    """Full matrices, matmul similarity, full-resolution setImage, grab()."""
    import pyqtgraph as pg

    from explorer.backend.encodings import sinusoidal_pe

    widget = pg.PlotWidget()
    widget.resize(1000, 800)
    item = pg.ImageItem()
    widget.addItem(item)
    widget.show()

    def run(i):
        pe = sinusoidal_pe(n, d, 1e4 + i)
        if name == "similarity":
            img = pe @ pe.T if n <= 8192 else pe[:8192] @ pe[:8192].T
        elif name == "curves":
            curve = widget.plot(np.arange(n), pe[:, 0])
            img = None
        else:
            img = pe[:32767]
        if img is not None:
            item.setImage(img, autoLevels=True)
        widget.grab()
        if name == "curves":
            widget.removeItem(curve)

    p50, p95 = _timed(run, repeat)
    _dispose(widget)
    return {"view": name, "max_len": n, "d_model": d, "p50_ms": round(p50, 1),
            "p95_ms": round(p95, 1)}


def _table(rows: list[dict], key: str) -> str:
    lines = [f"{key:<26} {'max_len':>8} {'d_model':>8} {'p50 ms':>8} {'p95 ms':>8}"]
    for r in rows:
        lines.append(f"{r[key]:<26} {r['max_len']:>8} {r['d_model']:>8} {r['p50_ms']:>8.2f} "
                     f"{r['p95_ms']:>8.2f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m explorer.bench")
    ap.add_argument("--json", action="store_true", help="print JSON instead of tables")
    ap.add_argument("--steps", type=int, default=60, help="slider steps per view and size")
    ap.add_argument("--backend-only", action="store_true", help="skip the window frames")
    ap.add_argument("--views", help="comma-separated view names (default: every tab)")
    args = ap.parse_args(argv)
    out = {"backend": backend_rows()}
    if not args.backend_only:
        views = args.views.split(",") if args.views else None
        out["frames"], out["textbook"] = frame_rows(max(1, args.steps), views)
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print("Backend\n" + _table(out["backend"], "what"))
    if "frames" in out:
        print("\nFrames: slider change -> rendered pixels\n" + _table(out["frames"], "view"))
        print("\nTextbook path (full matrices, matmul, full-resolution image)\n"
              + _table(out["textbook"], "view"))
        print("\nSpeed-up (textbook p50 / frame p50)")
        core = [f for f in out["frames"] if f["view"] in CORE_VIEWS]
        for f, t in zip(core, out["textbook"]):
            print(f"  {f['view']:<11} {f['max_len']:>6} x {f['d_model']:<5} "
                  f"{t['p50_ms'] / max(f['p50_ms'], 1e-3):7.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
