"""`pe-explorer render`: draw any view (or a whole deck) headless to PNG/SVG, for slides.

    pe-explorer render --view NAME [--d-model D --max-len N --base B --layout L --metric M ...
                       | --scene FILE] -o FILE.png|svg [--dpi N] [--lang en|zh_CN] [--size WxH]
    pe-explorer render --deck FILE -o DIR [--format png|svg] [--dpi N] [--lang ..] [--size WxH]

The real main window is built (with throw-away settings), never shown on screen; --size is the
view's size in screen pixels and --dpi scales it (96 = 1:1). Bad input: exit code 2 and one line.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from explorer.errors import InputError, require

PROG = "pe-explorer render"
SIZE_RANGE = (200, 8000)
DEFAULT_SIZE = "1280x800"
DEFAULT_DPI = 144.0
WAIT_MS = 120_000
PARAM_FLAGS = {"d_model": int, "max_len": int, "base": float, "layout": str, "metric": str,
               "dtype": str, "text": str, "tokenizer": str, "seed": int}
PARAM_HELP = {
    "d_model": ("D", "embedding width, 1 to 8192 (default 128)"),
    "max_len": ("N", "number of positions, 1 to 10,000,000 (default 256)"),
    "base": ("B", "the 10000 of the paper (any value > 1; default 10000)"),
    "layout": ("L", "channel layout: interleaved (the paper, default), concat or t2t"),
    "metric": ("M", "position similarity: cosine (default) or dot"),
    "dtype": ("T", "float32 (default) or float64"),
    "text": ("TEXT", "the sentence of the tokens view"),
    "tokenizer": ("NAME", "cl100k (default), wordpiece or char"),
    "seed": ("S", "seed of the untrained embedding table E (default 0): the same seed gives the "
                  "same table, so pictures can be redrawn exactly"),
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        raise InputError(message)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description="Render a view or a deck of scenes to image files, "
                                       "without opening a window. The parameter flags override "
                                       "a --scene's values; the defaults are the app's.")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--scene", metavar="FILE", help="a scene .json (params, view, cursor)")
    src.add_argument("--deck", metavar="FILE",
                     help="a deck .json (or 'builtin' for the lesson deck); -o is a folder")
    from explorer.catalogue import NAMES

    p.add_argument("--view", metavar="NAME", help="the view to draw: " + ", ".join(NAMES))
    for name, kind in PARAM_FLAGS.items():
        metavar, text = PARAM_HELP[name]
        p.add_argument("--" + name.replace("_", "-"), type=kind, dest=name, default=None,
                       metavar=metavar, help=text)
    p.add_argument("--preset", metavar="NAME", default=None,
                   help="a model preset (see `pe-explorer presets`); flags override its values")
    p.add_argument("--cursor", type=int, default=None, help="position to mark")
    p.add_argument("-o", "--output", required=True, help="FILE.png / FILE.svg, or a folder (--deck)")
    p.add_argument("--format", default=None, metavar="png|svg",
                   help="image type for --deck: png (default) or svg (one picture takes its -o suffix)")
    p.add_argument("--dpi", type=float, default=DEFAULT_DPI, help="96 = screen size (PNG only)")
    p.add_argument("--lang", default="en", metavar="en|zh_CN", help="language of the picture: en (default) or zh_CN")
    p.add_argument("--size", default=DEFAULT_SIZE, help="view size WxH in screen pixels")
    return p


def parse_size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d{1,6})\s*[xX×]\s*(\d{1,6})\s*", text or "")
    require(m is not None, f"--size must look like 1280x800, not {text!r}")
    w, h = int(m.group(1)), int(m.group(2))
    lo, hi = SIZE_RANGE
    require(lo <= w <= hi and lo <= h <= hi,
            f"--size must be between {lo} and {hi} pixels a side; got {w}x{h}")
    return w, h


def plan(args) -> list:
    """[(Scene, Path)] for every image to write; raises InputError before anything is drawn."""
    from explorer import catalogue
    from explorer.paths import resource
    from explorer.scenes import BUILTIN_DECK, load_deck, load_scene, make_scene
    from explorer.state import State
    from explorer.ui.export import IMAGE_SUFFIXES, check_dpi

    check_dpi(args.dpi)
    require(args.lang in ("en", "zh_CN"), f"--lang must be en or zh_CN, not {args.lang!r}")
    overrides = {k: getattr(args, k) for k in PARAM_FLAGS if getattr(args, k) is not None}
    out = Path(args.output)
    if args.deck:
        args.format = args.format or "png"
        require(args.format in ("png", "svg"), f"--format must be png or svg, not {args.format!r}")
        path = resource(*BUILTIN_DECK) if args.deck == "builtin" else Path(args.deck)
        scenes = load_deck(path)
        require(not out.exists() or out.is_dir(), f"-o must be a folder for --deck; {out} is a file")
        folder = out.parent if str(out.parent) else Path(".")
        require(folder.is_dir(), f"cannot create {out}: the folder {folder} does not exist")
    else:
        base = load_scene(args.scene) if args.scene else None
        require(base is not None or args.view, "give --view NAME (or --scene FILE, or --deck FILE)")
        suffix = out.suffix.lower()
        require(suffix in IMAGE_SUFFIXES, f"the output must end in .png or .svg, not {str(out)!r}")
        require(args.format is None or f".{args.format}" == suffix,
                f"--format {args.format} does not match the output {out.name}: one picture is "
                f"written as its name's suffix says (name it .{args.format}, or drop --format)")
        folder = out.parent if str(out.parent) else Path(".")
        require(folder.is_dir(), f"cannot write {out}: the folder {folder} does not exist")
        require(os.access(folder, os.W_OK), f"cannot write {out}: the folder {folder} is read-only")
        require(not out.is_dir(), f"cannot write {out}: it is a folder")
        scenes = [base] if base else [None]
    jobs = []
    for i, scene in enumerate(scenes):
        state = scene.state if scene else State()
        if args.preset is not None:
            from explorer.presets_state import apply_preset

            state = apply_preset(state, args.preset)
        if overrides:
            try:
                state = state.with_params(**overrides)   # a cursor past a shorter table is dropped
            except TypeError as exc:
                raise InputError(str(exc)) from None
        if args.view:
            state = replace(state, view=catalogue.entry(args.view).name)
        if args.cursor is not None:
            state = replace(state, cursor=args.cursor)
        scene = make_scene(state)
        target = out / f"{i + 1:02d}_{state.view}.{args.format}" if args.deck else out
        jobs.append((scene, target))
    return jobs


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
