"""Language choice, the Chinese translator, switching at run time, and the translations tool's merge."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, QSettings
from PySide6.QtWidgets import QLabel

from explorer.paths import resource
from explorer.ui import i18n

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def english(qapp):
    """Every test starts and ends in English."""
    i18n.install_translator(qapp, "en")
    yield qapp
    i18n.install_translator(qapp, "en")


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


def load_tool():
    spec = importlib.util.spec_from_file_location("translations_tool", ROOT / "tools" / "translations.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_available_languages():
    assert i18n.available_languages() == ["en", "zh_CN"]
    assert i18n.language_name("zh_CN") == "简体中文"


@pytest.mark.parametrize("name, expected", [
    ("zh_CN", "zh_CN"), ("zh_TW", "zh_CN"), ("zh_HK", "zh_CN"), ("zh_SG", "zh_CN"),
    ("en_US", "en"), ("de_DE", "en"), ("ja_JP", "en"), ("C", "en"),
])
def test_system_locale_choice(name, expected):
    assert i18n.system_language(QLocale(name)) == expected


def test_saved_setting_wins_over_locale(settings):
    assert i18n.choose_language(settings, QLocale("en_US")) == "en"
    assert i18n.choose_language(settings, QLocale("zh_CN")) == "zh_CN"
    i18n.save_language("zh_CN", settings)
    assert i18n.choose_language(settings, QLocale("en_US")) == "zh_CN"
    i18n.save_language("en", settings)
    assert i18n.choose_language(settings, QLocale("zh_CN")) == "en"


def test_unavailable_saved_language_falls_back_to_locale(settings):
    i18n.save_language("fr_FR", settings)
    assert i18n.saved_language(settings) is None
    assert i18n.choose_language(settings, QLocale("zh_TW")) == "zh_CN"


def test_chinese_translator_loads_and_translates(english):
    assert QCoreApplication.translate("Glossary", "positional encoding") == "positional encoding"
    assert i18n.install_translator(english, "zh_CN")
    assert i18n.current_language() == "zh_CN"
    assert QCoreApplication.translate("Glossary", "positional encoding") == "位置编码"
    assert i18n.term("token") == "词元"
    assert i18n.term("heatmap") == "热力图"
    assert i18n.install_translator(english, "en")
    assert i18n.term("token") == "token"


def test_every_glossary_entry_is_in_the_compiled_qm(english):
    table = json.loads(resource("i18n", "zh_CN.json").read_text(encoding="utf-8"))
    assert i18n.install_translator(english, "zh_CN")
    for source in i18n.TERMS:
        assert table["Glossary"][source], source
        assert QCoreApplication.translate("Glossary", source) == table["Glossary"][source]


def test_qt_standard_dialog_strings_are_chinese_too(english):
    assert i18n.install_translator(english, "zh_CN")
    if QCoreApplication.translate("QPlatformTheme", "Cancel") == "Cancel":
        pytest.skip("this PySide6 ships no qtbase_zh_CN.qm")
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "取消"


def test_unknown_language_is_refused_and_leaves_english(english):
    assert not i18n.install_translator(english, "xx_XX")
    assert i18n.current_language() == "en"
    assert i18n.term("token") == "token"


def test_switching_twice_does_not_stack_translators(english):
    for _ in range(3):
        assert i18n.install_translator(english, "zh_CN")
    assert len(i18n._installed) <= 2
    i18n.install_translator(english, "en")
    assert i18n._installed == []


class _Label(i18n.Retranslatable, QLabel):
    def __init__(self):
        super().__init__()
        self.calls = 0
        self.retranslate_ui()

    def retranslate_ui(self):
        self.calls += 1
        self.setText(i18n.term("similarity"))


def test_widgets_retranslate_on_language_change(english, qtbot):
    label = _Label()
    qtbot.addWidget(label)
    assert label.text() == "similarity"
    i18n.install_translator(english, "zh_CN")
    qtbot.waitUntil(lambda: label.text() == "相似度", timeout=2000)
    i18n.install_translator(english, "en")
    qtbot.waitUntil(lambda: label.text() == "similarity", timeout=2000)
    assert label.calls >= 3


TS = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context><name>Glossary</name>
  <message><source>heatmap</source><translation type="unfinished"></translation></message>
</context>
<context><name>Panel</name>
  <message><source>Heatmap</source><translation type="unfinished"></translation></message>
  <message><source>Position {pos}</source><translation type="unfinished"></translation></message>
  <message><source>Base</source><comment>frequency base</comment><translation type="unfinished"></translation></message>
  <message><source>%1 is outside %2</source><translation type="unfinished"></translation></message>
  <message><source>Not yet</source><translation type="unfinished"></translation></message>
</context>
</TS>
"""


def test_tool_merge_fills_flags_missing_and_placeholder_errors(tmp_path):
    tool = load_tool()
    ts = tmp_path / "x.ts"
    ts.write_text(TS, encoding="utf-8")
    table = {
        "Glossary": {"heatmap": "热力图"},
        "Panel": {"Position {pos}": "位置 {p}", "Base ## frequency base": "基数", "%1 is outside %2": "%1 超出 %2",
                  "Gone": "已删除"},
    }
    missing, bad, seen = tool.merge(ts, table)
    assert missing == [("Panel", "Not yet")]
    assert len(bad) == 1 and "Position {pos}" in bad[0]
    assert ("Panel", "Base ## frequency base") in seen
    assert tool.stale_entries(table, seen) == ["Panel: 'Gone'"]
    text = ts.read_text(encoding="utf-8")
    assert text.startswith('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>')
    assert text.count("热力图") == 2  # the glossary also fills "Heatmap" in Panel
    assert "基数" in text and "%1 超出 %2" in text


def test_tool_finds_qt_linguist_tools():
    tool = load_tool()
    assert Path(tool.qt_tool("lupdate")).is_file()
    assert Path(tool.qt_tool("lrelease")).is_file()
