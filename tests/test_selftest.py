"""The self-test: passes here, names what fails, and passes with torch hidden (the lite profile)."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Wraps every import finder so that `torch` (and its helpers) look uninstalled: find_spec -> None,
# `import torch` -> ModuleNotFoundError, exactly as on a machine without torch.
HIDE_TORCH = textwrap.dedent("""
    import sys
    BLOCKED = {"torch", "torchgen", "functorch"}
    class _Hide:
        def __init__(self, finder):
            self.finder = finder
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                return None
            find = getattr(self.finder, "find_spec", None)
            return find(name, path, target) if find else None
        def __getattr__(self, attr):
            return getattr(self.finder, attr)
    sys.meta_path[:] = [_Hide(f) for f in sys.meta_path]
""")


def _run(code: str, timeout: int = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-c", code], check=False, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)


def test_self_test_passes_in_process(qapp, monkeypatch, tmp_path):
    from explorer.commands.selftest import run_self_test

    lines: list[str] = []
    assert run_self_test(out=lines.append) == 0, "\n".join(lines)
    assert lines[-1].startswith("self-test passed")
    assert all(line.startswith(("ok   ", "--   ", "self-test")) for line in lines), lines
    names = [line[5:].split(":")[0] for line in lines if line.startswith("ok")]
    for needed in ("view heatmap", "view curves", "view similarity", "tokenizer cl100k", "tokenizer char",
                   "Chinese glyphs render", "CJK font", "export PNG", "device"):
        assert needed in names, (needed, names)


def test_self_test_names_what_failed(qapp, monkeypatch):
    from explorer.backend import tokens
    from explorer.commands.selftest import run_self_test
    from explorer.ui.views.heatmap import HeatmapView

    real = tokens.available_tokenizers
    monkeypatch.setattr(tokens, "available_tokenizers",
                        lambda: {**real(), "cl100k": "the rank file is missing (test)"})

    def keep_but_draw_nothing(self, result):
        self.result = result

    monkeypatch.setattr(HeatmapView, "set_result", keep_but_draw_nothing)  # a view that stays blank
    lines: list[str] = []
    assert run_self_test(out=lines.append) == 1
    assert "FAIL tokenizer cl100k: the rank file is missing (test)" in lines
    blank = [line for line in lines if line.startswith("FAIL view heatmap")]
    assert blank and "0% of pixels differ from the empty view" in blank[0], lines
    assert not any(line.startswith("FAIL view") for line in lines if line not in blank)
    assert lines[-1].startswith("self-test FAILED: tokenizer cl100k, view heatmap")


def test_blank_picture_is_told_apart_from_a_drawn_one(qapp):
    from PySide6.QtGui import QColor, QImage

    from explorer.commands.selftest_pixels import changed_fraction, image_colours

    blank = QImage(64, 32, QImage.Format.Format_RGB32)
    blank.fill(QColor(255, 255, 255))
    assert image_colours(blank) == (1, 0)
    drawn = blank.copy()
    for x in range(64):
        for y in range(16):
            drawn.setPixelColor(x, y, QColor(2 * x, 0, 200))
    colours, chromatic = image_colours(drawn)
    assert colours == 65 and chromatic == 64      # 64 gradient colours + white
    assert changed_fraction(blank, blank) == 0.0
    assert changed_fraction(blank, drawn) == pytest.approx(0.5)


def test_no_module_imports_torch_at_import_time():
    code = textwrap.dedent("""
        import importlib, pkgutil, sys, explorer
        names = [m.name for m in pkgutil.walk_packages(explorer.__path__, "explorer.")
                 if not m.name.endswith("__main__")]
        for name in names:
            importlib.import_module(name)
            assert "torch" not in sys.modules, f"importing {name} imported torch"
        print(len(names), "modules")
    """)
    done = _run(code)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split()[0]) > 20


def test_self_test_passes_without_torch():
    code = HIDE_TORCH + textwrap.dedent("""
        import importlib, pkgutil, explorer
        for m in pkgutil.walk_packages(explorer.__path__, "explorer."):
            if not m.name.endswith("__main__"):
                importlib.import_module(m.name)       # every module imports without torch
        try:
            import torch
        except ModuleNotFoundError:
            pass
        else:
            raise SystemExit("torch was not hidden")
        from explorer.commands.selftest import run_self_test
        code = run_self_test()
        assert "torch" not in sys.modules
        sys.exit(code)
    """)
    done = _run(code)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "torch: not available" in done.stdout
    assert "ok   device: numpy" in done.stdout
    assert "ok   view heatmap" in done.stdout and "self-test passed" in done.stdout
