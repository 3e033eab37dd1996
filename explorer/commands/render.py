"""`pe-explorer render`: draw any view (or a whole deck) headless to PNG/SVG, for slides.

    pe-explorer render --view NAME [--d-model D --max-len N --base B --layout L --metric M ...
                       | --scene FILE] -o FILE.png|svg [--dpi N] [--lang en|zh_CN] [--size WxH]
    pe-explorer render --deck FILE -o DIR [--format png|svg] [--dpi N] [--lang ..] [--size WxH]

The real main window is built (with throw-away settings), never shown on screen; --size is the
view's size in screen pixels and --dpi scales it (96 = 1:1). Bad input: exit code 2 and one line.
"""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from explorer.commands.render_args import PROG, WAIT_MS, build_parser, parse_size, plan
from explorer.errors import InputError, require


def _quiet_qt():
    """Swallow Qt's log lines (the offscreen platform is chatty); returns the old handler."""
    from PySide6.QtCore import qInstallMessageHandler

    return qInstallMessageHandler(lambda *_: None)


def _fresh_view(window, name: str, width: int, height: int):
    """A new instance of the window's view `name` (no zoom, cursor or own controls carried over
    from an earlier scene), fed by the window's controller, never on screen, width x height."""
    from PySide6.QtCore import QEvent, Qt
    from PySide6.QtWidgets import QApplication

    old = window.views[name]
    view = type(old)()
    view.name = name
    window.views[name] = view            # the controller reads this same dict
    old.setParent(None)
    old.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)   # no event loop runs to do it
    view.set_colormap(window.colormap)
    view.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
    view.resize(width, height)
    view.show()
    QApplication.processEvents()
    if (view.width(), view.height()) != (width, height):
        least = view.minimumSizeHint()
        raise InputError(f"the {name} view needs at least {least.width()}x{least.height()} "
                         f"screen pixels; choose a larger --size (and a lower --dpi to keep "
                         f"the file small)")
    return view


def _show(window, scene, size, errors: list) -> object:
    """Draw the scene on a fresh view fed by the window's controller; returns the view."""
    from PySide6.QtWidgets import QApplication

    c = window.controller
    c.wait_idle(WAIT_MS)
    errors.clear()
    view = _fresh_view(window, scene.view, *size)
    c.set_state(replace(scene.state, cursor=None))
    if hasattr(view, "show_state"):      # its own controls show the scene's settings
        view.show_state(scene.state.views[scene.view], scene.params)
    c.set_visible([scene.view])
    for _ in range(2):   # the second pass computes at the final on-screen extent
        require(c.wait_idle(WAIT_MS), f"the {scene.view} view took longer than "
                                      f"{WAIT_MS // 1000} s to compute")
        QApplication.processEvents()
        c.refresh([scene.view])
    require(c.wait_idle(WAIT_MS), f"the {scene.view} view took too long to compute")
    result = getattr(view, "result", None)
    if errors and (result is None or getattr(result, "params", scene.params) != scene.params):
        raise InputError(errors[-1])
    require(result is not None, f"the {scene.view} view drew nothing")
    if scene.cursor is not None:
        c.set_cursor(scene.cursor)
    QApplication.processEvents()
    return view


def render_jobs(jobs: list, size: tuple[int, int], dpi: float, lang: str) -> list[Path]:
    """Draw each (scene, path) on a fresh view of one hidden main window; the written paths."""
    from PySide6.QtCore import QEvent, QSettings, qInstallMessageHandler
    from PySide6.QtWidgets import QApplication

    from explorer.commands.views import refusal_of
    from explorer.ui.app import make_app
    from explorer.ui.export import export_view_image
    from explorer.ui.i18n import current_language, install_translator

    app = make_app([PROG])
    previous = current_language()
    old_handler = _quiet_qt()
    written = []
    window = None
    try:
        require(install_translator(app, lang), f"the {lang} translation could not be loaded")
        with tempfile.TemporaryDirectory(prefix="pe-render-") as tmp:
            from explorer.ui.main_window import MainWindow

            settings = QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat)
            window = MainWindow(settings=settings)      # never shown
            missing = sorted({s.view for s, _ in jobs} - set(window.views))
            require(not missing, f"unknown view {', '.join(map(repr, missing))}; available: "
                                 f"{', '.join(window.views)}")
            errors: list[str] = []
            window.controller.message.connect(errors.append)
            for scene, path in jobs:
                view = _show(window, scene, size, errors)
                written.append(export_view_image(view, path, dpi))
                missed = refusal_of(view.result)     # the picture says so; a script reads stderr
                if missed:
                    print(f"note: {path.name} does not show what was asked: {missed} "
                          f"(the picture names what it shows instead)", file=sys.stderr)
                view.hide()
    finally:
        if window is not None:
            window.controller.wait_idle(3000)
            for view in window.views.values():
                if view.parent() is None:
                    view.deleteLater()
            window.deleteLater()
            QApplication.processEvents()
            # no event loop runs here, so deleteLater alone never deleted them: each render kept a
            # whole hidden window (~1,400 widgets, ~20 MB) until the process ended
            QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        install_translator(app, previous)
        if old_handler is not None:      # else keep Qt quiet until the program ends
            qInstallMessageHandler(old_handler)
    return written


def _headless() -> None:
    if os.environ.get("QT_QPA_PLATFORM"):
        return
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY")
                                                 or os.environ.get("WAYLAND_DISPLAY")):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"


def _render_deck(jobs: list, out: Path, size, args) -> list[Path]:
    """Every slide drawn into a staging folder inside `out`, then moved into place: a deck that
    fails on slide 5 leaves neither slides 1-4 nor a new empty folder behind."""
    import shutil

    for _scene, path in jobs:     # found before drawing: a slide that cannot replace what is there
        target = out / path.name  # (a folder of its name) would stop the moves half-way
        require(not target.exists() or target.is_file(),
                "%1 exists and is not a file; a slide cannot replace it", target)
    created = not out.exists()
    out.mkdir(exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".pe-render-", dir=out))
    try:
        drawn = render_jobs([(scene, staging / path.name) for scene, path in jobs], size, args.dpi,
                            args.lang)
        for path in drawn:
            os.replace(path, out / path.name)
        return [out / path.name for path in drawn]
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if created and not any(out.iterdir()):
            out.rmdir()


def render_main(argv: list[str] | None = None) -> int:
    """Entry point of `pe-explorer render ...`; returns the exit code (0 ok, 2 bad input)."""
    args = None
    try:
        args = build_parser().parse_args(argv)
        size = parse_size(args.size)
        jobs = plan(args)
        _headless()
        written = (_render_deck(jobs, Path(args.output), size, args) if args.deck
                   else render_jobs(jobs, size, args.dpi, args.lang))
        for path in written:
            print(f"wrote {path}")
        return 0
    except SystemExit as exc:          # --help
        return int(exc.code or 0)
    except InputError as exc:          # in the language of --lang, as the other commands
        from explorer.errors import error_text

        text = error_text(exc, getattr(args, "lang", None) or "en")
        print(f"{PROG}: error: {' '.join(text.split())}", file=sys.stderr)
        return 2
    except MemoryError:
        print(f"{PROG}: error: not enough memory; choose a smaller size, dpi or max_len",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:            # `... | head`: main() ends it quietly (141)
        raise
    except OSError as exc:             # a read-only folder, a full disk: the system's words, exit 2
        where = f": {exc.filename}" if exc.filename else ""
        print(f"{PROG}: error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug, not bad input: still one line, no traceback
        print(f"{PROG}: internal error: {type(exc).__name__}: {' '.join(str(exc).split())}",
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(render_main())
