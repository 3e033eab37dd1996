"""`pe-explorer --self-test`: open the window offscreen and check what a bare machine can break.

One line per check ("ok  ...", "FAIL ...", "--  ..." for information), then a verdict; returns 0
when every check passed, 1 otherwise (the failed checks are named on the last line). Works from
a source checkout and from the frozen PyInstaller program, where `resources/build_info.json`
(written by packaging/build.py) also says what this build must contain (torch, MiniLM).
"""

from __future__ import annotations

import json
import os
import platform
import sys
import tempfile
from pathlib import Path

from explorer.commands.selftest_pixels import blank_grab, changed_fraction, image_colours

SENTENCE = "Attention is all you need. 位置编码 gives every token its place."
MIN_COLOURS = 16          # a drawn view has many distinct colours; a blank one a handful of greys
MIN_CHANGED = 0.01        # share of a view's pixels that must differ from the same view left empty
                          # (measured: 3% for two thin curves, 20-70% for heatmaps)


class _Report:
    """Collects check results and prints them as they come."""

    def __init__(self, out):
        self.out = out
        self.failed: list[str] = []
        self.passed = 0

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        self.out(f"{'ok  ' if ok else 'FAIL'} {name}" + (f": {detail}" if detail else ""))
        if ok:
            self.passed += 1
        else:
            self.failed.append(name)
        return ok

    def info(self, name: str, detail: str) -> None:
        self.out(f"--   {name}: {detail}")

    def guard(self, name: str, fn) -> None:
        """Run fn(self); an exception fails the check `name` with its type and message."""
        try:
            fn(self)
        except Exception as exc:  # noqa: BLE001 - the self-test reports, it never crashes
            self.check(name, False, f"{type(exc).__name__}: {exc}")


def build_info() -> dict:
    """What packaging/build.py recorded about this frozen build ({} from a source checkout)."""
    from explorer.paths import resource

    path = resource("build_info.json")
    if not getattr(sys, "frozen", False) or not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def _check_environment(r: _Report) -> None:
    import numpy
    import PySide6

    from explorer import __version__

    frozen = "frozen (PyInstaller)" if getattr(sys, "frozen", False) else "from source"
    r.info("program", f"pe-explorer {__version__}, {frozen}, Python {platform.python_version()}, "
                      f"PySide6 {PySide6.__version__}, numpy {numpy.__version__}, "
                      f"Qt platform {os.environ.get('QT_QPA_PLATFORM', '?')}")
    info = build_info()
    if info:
        r.info("build", ", ".join(f"{k} {v}" for k, v in sorted(info.items())))


def _check_device(r: _Report) -> None:
    import numpy as np

    from explorer.backend.device import choose_device, torch_installed
    from explorer.backend.encodings import sinusoidal_pe
    from explorer.backend.torch_ops import full_pe

    has_torch = torch_installed()
    choice = choose_device("auto")
    r.info("torch", "available" if has_torch else "not available (the numpy backend serves every view)")
    expected = build_info().get("torch")
    r.check("device", expected is None or has_torch == expected,
            f"{choice.name} ({choice.reason})" + ("" if expected is None else
                                                  f"; this build should {'include' if expected else 'exclude'} torch"))
    table, used = full_pe(64, 32, device="auto")                        # (64, 32)
    error = float(np.abs(table.astype(np.float64) - sinusoidal_pe(64, 32, dtype="float64")).max())
    r.check("full-size PE", used == choice.name and error < 1e-5, f"64 x 32 on {used}, max error {error:.1e}")


def _check_minilm(r: _Report) -> None:
    from explorer.backend.pretrained import minilm_available, minilm_tables

    reason = minilm_available()
    if reason is not None:
        if build_info().get("minilm") == "all":
            r.check("MiniLM tables", False, reason)
        else:
            r.info("MiniLM tables", f"unavailable: {reason}")
        return
    t = minilm_tables()
    r.check("MiniLM tables", t.word.shape == (t.vocab_size, t.d_model) and t.position.shape[1] == t.d_model,
            f"word {t.word.shape}, position {t.position.shape}")


def _check_fonts(r: _Report) -> None:
    from explorer.ui.fonts import (
        chinese_renders,
        cjk_family,
        font_files,
        font_problem,
        register_fonts,
    )

    files = font_files()
    r.check("font files", bool(files), ", ".join(p.name for p in files) or "none found")
    families = register_fonts()
    r.check("fonts registered", bool(families), ", ".join(families) or (font_problem() or "none"))
    cjk = cjk_family()
    r.check("CJK font", cjk is not None, cjk or "no bundled family covers 位置编码")
    ok, why = chinese_renders()
    r.check("Chinese glyphs render", ok, why)
    ok, why = chinese_renders(text="PEtoken")
    r.check("Latin glyphs render", ok, why)


def _check_translations(r: _Report) -> None:
    from PySide6.QtCore import QLibraryInfo, QTranslator

    from explorer.ui.i18n import qm_path

    ours = QTranslator()
    loaded = ours.load(str(qm_path("zh_CN")))
    word = ours.translate("Catalogue", "PE heatmap") if loaded else ""
    r.check("Chinese translation", loaded and bool(word) and word != "PE heatmap",
            f"{qm_path('zh_CN').name}: 'PE heatmap' -> {word!r}")
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    qtbase = QTranslator()
    r.check("Qt's own Chinese strings", qtbase.load("qtbase_zh_CN", qt_dir), f"qtbase_zh_CN.qm in {qt_dir}")


def _check_tokenizers(r: _Report) -> None:
    from explorer.backend.tokens import available_tokenizers, tokenize

    must = {"cl100k", "char"}                 # ship with every build (tiktoken + bundled rank file)
    if build_info().get("minilm") in ("all", "tokenizer"):
        must.add("wordpiece")
    for name, reason in available_tokenizers().items():
        if reason is not None:
            if name in must:
                r.check(f"tokenizer {name}", False, reason)
            else:
                r.info(f"tokenizer {name}", f"unavailable: {reason}")
            continue
        try:
            toks = tokenize(SENTENCE, name)
            spans = all(0 <= t.start <= t.end <= len(SENTENCE) for t in toks.tokens)
            r.check(f"tokenizer {name}", len(toks) > 0 and spans,
                    f"{len(toks)} tokens, ids {toks.ids[:6].tolist()}...")
        except Exception as exc:  # noqa: BLE001 - report any failure as a FAIL line
            r.check(f"tokenizer {name}", False, f"{type(exc).__name__}: {exc}")


def _check_window(r: _Report, tmp: Path) -> None:
    from PySide6.QtCore import QCoreApplication, QSettings

    from explorer.ui.main_window import MainWindow

    settings = QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings)
    messages: list[str] = []
    win.controller.message.connect(messages.append)
    try:
        win.resize(1280, 800)
        win.show()
        if hasattr(win, "check_actions"):      # the check view diagnoses a table, as explorer.show(x)
            from explorer.api import sinusoidal
            from explorer.compute.check import remember_array

            win.check_actions.show_source(remember_array(sinusoidal(64, 32)))
        for index, name in enumerate(win.views):          # every tab (its view is made when shown)
            win.tabs.setCurrentIndex(index)
            view = win.views[name]
            QCoreApplication.processEvents()
            idle = win.controller.wait_idle(20000)
            QCoreApplication.processEvents()
            image = view.grab().toImage()
            colours, chromatic = image_colours(image)
            changed = changed_fraction(image, blank_grab(view, win.colormap))
            drawn = view.result is not None
            missing = getattr(view.result, "error", "") if name == "qk" else ""
            if missing:                    # no RoPE model installed: the view says how to get one
                r.check(f"view {name}", "pip install" in missing, "no model with RoPE installed: " + missing)
                continue
            r.check(f"view {name}", idle and drawn and colours >= MIN_COLOURS and changed >= MIN_CHANGED,
                    f"{colours} colours, {chromatic} not grey, {changed:.0%} of pixels differ from the empty view"
                    + ("" if drawn else ", no result arrived") + ("" if idle else ", compute timed out"))
        errors = [m for m in messages if m]
        r.check("no compute errors", not errors, "; ".join(errors[:3]) or "none reported")
        _check_export(r, win.views[next(iter(win.views))], tmp)
    finally:
        win.controller.wait_idle(5000)
        win.close()
        win.deleteLater()
        QCoreApplication.processEvents()


def _check_export(r: _Report, view, tmp: Path) -> None:
    """The File menu's export: a PNG at 2x screen DPI (read back, not blank) and an SVG."""
    from PySide6.QtGui import QImage

    from explorer.ui.export import export_view_png, export_view_svg

    path = export_view_png(view, tmp / "view.png", dpi=192)
    back = QImage(str(path))
    colours, _ = image_colours(back)
    r.check("export PNG", not back.isNull() and back.width() >= 2 * view.width() - 2 and colours >= MIN_COLOURS,
            f"{path.name} {back.width()}x{back.height()} at 192 dpi, {path.stat().st_size} bytes, {colours} colours")
    svg = export_view_svg(view, tmp / "view.svg")
    text = svg.read_text(encoding="utf-8")
    r.check("export SVG", "<svg" in text and len(text) > 1000, f"{svg.name} {len(text)} characters")


def run_self_test(out=print) -> int:
    """Run every check, print one line each through `out`; 0 when all passed, else 1."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    r = _Report(out)
    r.guard("environment", _check_environment)
    r.guard("device", _check_device)
    r.guard("tokenizers", _check_tokenizers)
    r.guard("MiniLM tables", _check_minilm)
    try:
        from explorer.ui.app import make_app

        make_app()
    except Exception as exc:  # noqa: BLE001 - report any failure as a FAIL line
        r.check("Qt application", False, f"{type(exc).__name__}: {exc}")
    else:
        r.guard("fonts", _check_fonts)
        r.guard("translations", _check_translations)
        with tempfile.TemporaryDirectory(prefix="pe-explorer-selftest-") as tmp:
            r.guard("window", lambda rep: _check_window(rep, Path(tmp)))
    if r.failed:
        out(f"self-test FAILED: {', '.join(r.failed)} ({r.passed} passed)")
        return 1
    out(f"self-test passed: {r.passed} checks")
    return 0


if __name__ == "__main__":
    sys.exit(run_self_test())
