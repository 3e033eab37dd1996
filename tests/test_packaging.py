"""packaging/build.py: what ships is declared and checked; the lite program builds and passes its self-test."""

import importlib.util
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MB = 1024 * 1024


@pytest.fixture(scope="module")
def pe_build():
    pytest.importorskip("PyInstaller")
    spec = importlib.util.spec_from_file_location("pe_build", ROOT / "packaging" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_version_comes_from_the_package(pe_build):
    import explorer

    assert pe_build.version() == explorer.__version__


def test_plan_declares_resources_and_profiles_differ(pe_build, tmp_path):
    full = pe_build.plan("full", tmp_path / "full")
    lite = pe_build.plan("lite", tmp_path / "lite")
    for plan in (full, lite):
        dests = {(Path(src).name, dst) for src, dst in plan["datas"]}
        assert ("cl100k_base.tiktoken.gz", "resources/tokenizers") in dests
        assert ("pe_explorer_zh_CN.qm", "resources/i18n") in dests
        assert ("qtbase_zh_CN.qm", "PySide6/Qt/translations") in dests
        assert ("build_info.json", "resources") in dests
        assert any(name.endswith(".otf") and dst == "resources/fonts" for name, dst in dests)
        assert all(Path(src).is_file() for src, _ in plan["datas"])
        assert "explorer.commands.selftest" in plan["hiddenimports"]
        used = {"PySide6.QtCore", "PySide6.QtGui", "PySide6.QtWidgets", "PySide6.QtSvg", "PySide6.QtOpenGL",
                "PySide6.QtOpenGLWidgets", "PySide6.QtTest"}
        assert not used & set(plan["excludes"])
        assert "PySide6.QtQml" in plan["excludes"] and "PySide6.QtNetwork" in plan["excludes"]
    assert "torch" in lite["excludes"] and "torch" not in full["excludes"]
    assert (lite["info"]["torch"], full["info"]["torch"]) == (False, True)
    if full["info"]["minilm"] != "none":   # the 87 MB weights ship only in the full profile
        assert any(Path(s).name == "model.safetensors" for s, _ in full["datas"])
        assert not any(Path(s).name == "model.safetensors" for s, _ in lite["datas"])
        assert any(Path(s).name == "tokenizer.json" for s, _ in lite["datas"])


def test_missing_declared_file_stops_the_build(pe_build, tmp_path, monkeypatch):
    monkeypatch.setattr(pe_build, "REQUIRED_RESOURCES", pe_build.REQUIRED_RESOURCES + ("fonts/nowhere.ttf",))
    with pytest.raises(pe_build.BuildError, match="fonts/nowhere.ttf"):
        pe_build.plan("lite", tmp_path)
    monkeypatch.setattr(pe_build, "QT_TRANSLATIONS", ("qtbase_xx_XX.qm",))
    with pytest.raises(pe_build.BuildError, match="qtbase_xx_XX.qm"):
        pe_build.qt_translation_datas()
    with pytest.raises(pe_build.BuildError, match="profile must be one of"):
        pe_build.plan("huge", tmp_path)


@pytest.mark.slow
def test_lite_program_builds_and_passes_its_self_test(pe_build, tmp_path):
    out = pe_build.build("lite", tmp_path / "dist", tmp_path / "work", archive=True)
    assert out["archive_bytes"] < 100 * MB, f"lite archive is {out['archive_bytes'] / MB:.0f} MB"
    assert not (out["folder"] / "_internal" / "torch").exists()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["QT_QPA_PLATFORM"] = "offscreen"
    done = subprocess.run([str(out["exe"]), "--self-test"], cwd=tmp_path, env=env, capture_output=True, check=False,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "frozen (PyInstaller)" in done.stdout
    assert "profile lite" in done.stdout and "ok   device: numpy" in done.stdout
    assert "ok   Chinese glyphs render" in done.stdout and "self-test passed" in done.stdout
    version = subprocess.run([str(out["exe"]), "--version"], check=False, env=env, capture_output=True, text=True,
                             timeout=60)
    assert version.stdout.strip() == f"pe-explorer {pe_build.version()}"
