"""The maths never imports Qt: backend, params, compute and errors load without PySide6/pyqtgraph.

Checked in a fresh interpreter (the test process itself has Qt loaded) and, when the import-linter
CLI is installed, by the contract in pyproject.toml.
"""

from __future__ import annotations

import json
import os
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXTRA_QT_FREE = ("scenes", "fileio", "paths", "catalogue", "state", "viewstate", "blas", "translations",
                 "presets_state", "api", "allocator")  # headless
FORBIDDEN = ("PySide6", "shiboken6", "pyqtgraph", "superqt", "explorer.ui")


def qt_free_modules() -> list[str]:
    """Every module of explorer.backend, plus params, compute, errors (and other Qt-free helpers)."""
    import explorer.backend

    import explorer.compute

    names = ["explorer.backend." + m.name for m in pkgutil.iter_modules(explorer.backend.__path__)]
    names += ["explorer.compute." + m.name for m in pkgutil.iter_modules(explorer.compute.__path__)]
    extra = [f"explorer.{m}" for m in EXTRA_QT_FREE if (ROOT / "explorer" / f"{m}.py").is_file()]
    return sorted(names) + ["explorer.params", "explorer.errors"] + extra


def test_backend_imports_no_qt():
    modules = qt_free_modules()
    code = ("import importlib, json, sys\n"
            f"for m in {modules!r}:\n    importlib.import_module(m)\n"
            "print(json.dumps(sorted(sys.modules)))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    loaded = json.loads(proc.stdout.strip().splitlines()[-1])
    bad = [m for m in loaded if m.split(".")[0] in FORBIDDEN or m.startswith("explorer.ui")]
    assert not bad, f"Qt reached the maths: {bad[:10]}"
    assert len(modules) >= 8 and "explorer.backend.encodings" in loaded


def test_the_check_can_fail():
    """Sanity: the same check sees Qt when a UI module is imported."""
    code = "import sys, explorer.ui.controller; print('PySide6' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen"))
    assert proc.stdout.strip() == "True", proc.stderr


# beside this interpreter (a venv's bin/, also when it is not activated), else on PATH
LINT_IMPORTS = (shutil.which("lint-imports", path=os.path.dirname(sys.executable))
                or shutil.which("lint-imports"))


@pytest.mark.skipif(LINT_IMPORTS is None, reason="import-linter is not installed")
def test_import_linter_contract():
    proc = subprocess.run([LINT_IMPORTS], capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "broken" in proc.stdout and "0 broken" in proc.stdout
