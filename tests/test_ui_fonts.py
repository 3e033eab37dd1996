"""The bundled CJK font registers, Chinese renders offscreen, and the tofu check catches a missing font."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PySide6.QtGui import QFont, QFontDatabase, QFontMetrics

from explorer.paths import resource
from explorer.ui import fonts

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT.parent / "shared" / "seeds"
FAMILY = "Noto Sans SC PE Subset"
HAN = re.compile(r"[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]")
NOT_IN_SUBSET = "龘靐齉爩"  # rare hanzi outside GB2312 level 1: the subset has no glyph for them


def strict(family: str) -> QFont:
    font = QFont(family)
    font.setStyleStrategy(QFont.StyleStrategy.NoFontMerging)
    return font


def test_font_file_is_bundled_small_and_licensed():
    files = fonts.font_files()
    assert [f.name for f in files] == ["NotoSansSC-PESubset-Regular.otf"]
    assert 500_000 < files[0].stat().st_size < 3_200_000
    licence = resource("fonts", "LICENSE-OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert "2.004" in resource("fonts", "README.md").read_text(encoding="utf-8")


def test_register_is_idempotent_and_finds_cjk(qapp):
    first = fonts.register_fonts()
    again = fonts.register_fonts()
    assert first == again == [FAMILY]
    assert fonts.font_problem() is None
    assert fonts.cjk_family() == FAMILY
    assert QFontDatabase.families().count(FAMILY) == 1


def test_bundled_family_alone_renders_chinese(qapp):
    fonts.register_fonts()
    ok, why = fonts.chinese_renders(FAMILY)
    assert ok, why


def test_application_font_falls_back_to_cjk(qapp):
    before = QFont(qapp.font())
    named = QFont(before.family())  # a font made by name, no explicit family list
    try:
        font = fonts.apply_ui_font(qapp, point_size=15)
        assert font.families()[-1] == FAMILY
        # the system family stays first, unless it resolved to the CJK subset itself: then a
        # Latin family goes before it (the subset's "·" and "‖" are full-width)
        assert font.families()[0] in (before.family(), fonts.latin_family())
        from PySide6.QtGui import QFontMetrics
        metrics = QFontMetrics(font)
        assert metrics.horizontalAdvance("·") < metrics.horizontalAdvance("中") / 2
        assert qapp.font().pointSizeF() == pytest.approx(15)
        ok, why = fonts.chinese_renders()
        assert ok, why
        # A font made by name elsewhere also reaches the CJK glyphs through the substitution table.
        assert FAMILY.lower() in [f.lower() for f in QFont.substitutes(before.family())]
        ok, why = fonts.chinese_renders(named)
        assert ok, why
    finally:
        qapp.setFont(before)


def test_tofu_is_detected_when_the_font_lacks_the_glyphs(qapp):
    fonts.register_fonts()
    for ch in NOT_IN_SUBSET:
        assert not QFontMetrics(strict(FAMILY)).inFontUcs4(ord(ch))
    ok, why = fonts.chinese_renders(FAMILY, text=NOT_IN_SUBSET)
    assert not ok
    assert "tofu" in why or "no ink" in why
    # Latin text in the same font passes, so the check is not simply always False.
    assert fonts.chinese_renders(FAMILY, text="PE=sin")[0]


def test_a_latin_only_system_font_fails_the_check(qapp):
    latin = next((f for f in QFontDatabase.families()
                  if f != FAMILY and not QFontMetrics(strict(f)).inFontUcs4(ord("位"))
                  and QFontMetrics(strict(f)).inFontUcs4(ord("A"))), None)
    if latin is None:
        pytest.skip("every installed family covers CJK")
    ok, why = fonts.chinese_renders(latin)
    assert not ok, why


def test_identical_glyphs_are_not_accepted(qapp):
    fonts.register_fonts()
    ok, why = fonts.chinese_renders(FAMILY, text="位位")
    assert not ok and "same image" in why


def test_missing_font_folder_gives_empty_list_and_reason(qapp, monkeypatch, tmp_path):
    monkeypatch.setattr(fonts, "resource", lambda *parts: tmp_path.joinpath(*parts))
    monkeypatch.setattr(fonts, "_families", None)
    monkeypatch.setattr(fonts, "_problem", None)
    assert fonts.register_fonts() == []
    assert "no font file" in fonts.font_problem()
    assert fonts.cjk_family() is None


def test_unreadable_font_file_is_reported(qapp, monkeypatch, tmp_path):
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "broken.otf").write_bytes(b"not a font")
    monkeypatch.setattr(fonts, "resource", lambda *parts: tmp_path.joinpath(*parts))
    monkeypatch.setattr(fonts, "_families", None)
    monkeypatch.setattr(fonts, "_problem", None)
    assert fonts.register_fonts() == []
    assert "could not load" in fonts.font_problem()


def _chars_in(paths) -> set[str]:
    found: set[str] = set()
    for path in paths:
        found.update(HAN.findall(path.read_text(encoding="utf-8")))
    return found


def test_subset_covers_translations_and_seeds(qapp):
    """Fails when new Chinese text uses a character the subset lacks: rerun tools/subset_font.py."""
    fonts.register_fonts()
    table = json.loads(resource("i18n", "zh_CN.json").read_text(encoding="utf-8"))
    needed = {ch for entries in table.values() for text in entries.values() for ch in HAN.findall(text)}
    needed |= _chars_in(resource("i18n").glob("*.ts"))
    if SEEDS.is_dir():
        needed |= _chars_in(SEEDS.glob("*.txt"))
    assert len(needed) > 30
    metrics = QFontMetrics(strict(FAMILY))
    missing = sorted(ch for ch in needed if not metrics.inFontUcs4(ord(ch)))
    assert not missing, f"bundled font lacks {''.join(missing)}: rerun tools/subset_font.py"


def test_without_the_bundled_font_chinese_is_tofu_and_with_it_renders(tmp_path):
    """In a fresh process: before registration Chinese fails (on a machine with no CJK font), after it renders."""
    import os
    import subprocess
    import sys

    script = (
        "from PySide6.QtWidgets import QApplication\n"
        "from PySide6.QtGui import QFont, QFontDatabase, QFontMetrics\n"
        "from explorer.ui import fonts\n"
        "app = QApplication([])\n"
        "def covers(f):\n"
        "    font = QFont(f); font.setStyleStrategy(QFont.StyleStrategy.NoFontMerging)\n"
        "    return QFontMetrics(font).inFontUcs4(ord('位'))\n"
        "print('system-cjk' if any(covers(f) for f in QFontDatabase.families()) else 'no-system-cjk')\n"
        "print(fonts.chinese_renders()[0])\n"
        "fonts.register_fonts(); fonts.apply_ui_font(app)\n"
        "print(fonts.chinese_renders()[0])\n"
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", script], env=env, cwd=tmp_path, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    system, before, after = out.stdout.split()
    assert after == "True"
    if system == "no-system-cjk":
        assert before == "False"
