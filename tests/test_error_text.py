"""Refusals in the UI's language: msg() templates, their Chinese, and the window showing them.

The English text (str(exc), what the CLI prints) must stay exactly what it was; the Chinese comes from
context "Errors" of resources/i18n/zh_CN.json, which tools/translations.py fills from the source.
"""

from __future__ import annotations

import importlib.util
import json
import pickle
import re
import struct
from pathlib import Path

import pytest

from explorer.errors import InputError, Message, error_text, localized, message_of, msg, require
from explorer.paths import resource
from explorer.translations import translate

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = re.compile(r"%\d+")
HAN = re.compile(r"[\u4e00-\u9fff]")


def load_tool():
    spec = importlib.util.spec_from_file_location("translations_tool", ROOT / "tools" / "translations.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def errors_table() -> dict:
    return json.loads(resource("i18n", "zh_CN.json").read_text(encoding="utf-8")).get("Errors", {})


def refusal(fn, *args, **kwargs) -> InputError:
    with pytest.raises(InputError) as info:
        fn(*args, **kwargs)
    return info.value


# the mechanism ---------------------------------------------------------------------------------

def test_a_message_is_its_english_text_and_keeps_template_and_arguments():
    m = msg("%1 must be between %2 and %3; got %4", "d_model", 1, "8,192", "0")
    assert m == "d_model must be between 1 and 8,192; got 0" and isinstance(m, str)
    assert m.template == "%1 must be between %2 and %3; got %4" and m.args == ("d_model", 1, "8,192", "0")
    assert pickle.loads(pickle.dumps(m)) == m and pickle.loads(pickle.dumps(m)).template == m.template
    assert msg("%1 and %2", "50%2", "x") == "50%2 and x"                 # an argument's "%2" is left alone


def test_localized_translates_the_template_and_message_arguments_but_not_plain_ones():
    inner = msg("%1 is not a folder", "/tmp/x")
    outer = msg("%1: %2", msg("scene file %1", "a.json"), inner)
    assert str(outer) == "scene file a.json: /tmp/x is not a folder"
    assert localized(outer, "en") == str(outer)
    assert localized(outer, "zh_CN") == "场景文件 a.json：/tmp/x 不是文件夹"
    assert localized("parameters must be a JSON object", "zh_CN") == "参数必须是 JSON 对象"   # a plain literal
    assert localized("no such template here", "zh_CN") == "no such template here"          # English fallback
    assert localized(msg("%1 is not a folder", "none"), "zh_CN") == "none 不是文件夹"         # arguments stay


def test_error_text_of_an_input_error_and_of_other_exceptions():
    exc = refusal(require, False, msg("%1 does not exist", "/m.gguf"))
    assert str(exc) == "/m.gguf does not exist" and exc.localized("en") == str(exc)
    assert exc.localized("zh_CN") == error_text(exc, "zh_CN") == "/m.gguf 不存在"
    assert isinstance(message_of(exc), Message) and message_of(exc) == str(exc)
    assert error_text(TypeError("bad"), "zh_CN") == "bad"                  # not a refusal: as it is
    wrapped = msg("%1: %2", "state", exc)                                 # an exception as an argument
    assert localized(wrapped, "zh_CN") == "state：/m.gguf 不存在"


# the table ---------------------------------------------------------------------------------------

def test_every_refusal_template_has_chinese_with_the_same_placeholders():
    templates, _english = load_tool().error_messages()
    table = errors_table()
    assert len(templates) > 200                                           # the backend's refusals are found
    chinese = {t: translate("Errors", t, "zh_CN") for t in templates}    # "scene", "deck": the Glossary's
    problems = [t for t in templates if chinese[t] == t and t not in table
                or sorted(PLACEHOLDER.findall(t)) != sorted(PLACEHOLDER.findall(chinese[t]))]
    assert problems == []
    words = [t for t in templates if re.search(r"[a-z]{4}", re.sub(r"%\d+|“[^”]*”", "", t))]
    assert [t for t in words if not HAN.search(chinese[t])] == []      # prose is Chinese, key names stay
    assert {"scene", "deck"} <= set(templates) and table["%1 is not a folder"] == "%1 不是文件夹"


def test_no_refusal_the_window_can_show_is_english_only():
    """Every f-string refusal left is one the window never shows: the command line's own (explorer/commands),
    the Python API's argument checks (explorer.show / explorer.check), and an unknown view's name."""
    _templates, english = load_tool().error_messages()
    never_shown = ("explorer/commands/", "explorer/api.py", "explorer/ui/api_window.py",
                   "explorer/ui/views/registry.py")
    assert [where for where in english if not where.startswith(never_shown)] == []


# real refusals -------------------------------------------------------------------------------------

def both(exc: InputError, *args) -> str:
    """The Chinese text of exc; English stays str(exc); every argument appears in both."""
    zh = exc.localized("zh_CN")
    assert exc.localized("en") == error_text(exc, "en") == str(exc)
    assert HAN.search(zh) and not HAN.search(str(exc)), (zh, str(exc))
    for arg in args:
        assert str(arg) in zh and str(arg) in str(exc)
    return zh


def test_a_bad_d_model():
    from explorer.params import Params

    exc = refusal(Params, d_model=0)
    assert str(exc) == "d_model must be between 1 and 8,192; got 0"
    assert both(exc, "d_model", "8,192") == "d_model 必须在 1 到 8,192 之间；实际为 0"
    exc = refusal(Params, d_model="x")
    assert both(exc, "'x'").startswith("d_model 必须是 1 到 8,192 之间的整数")


def test_a_truncated_safetensors_folder(tmp_path):
    from explorer.backend.models.tensors import open_safetensors_folder

    header = json.dumps({"w": {"dtype": "F32", "shape": [4, 4], "data_offsets": [0, 64]}}).encode()
    path = tmp_path / "model.safetensors"
    path.write_bytes(struct.pack("<Q", len(header)) + header + bytes(60))       # 4 bytes short
    exc = refusal(open_safetensors_folder, tmp_path)
    assert str(exc) == (f"{path} is not a valid safetensors file: tensor 'w' ends at byte 64 beyond the data "
                        "(60 bytes); truncated?")
    zh = both(exc, path, "'w'", 64, 60)
    assert "不是有效的 safetensors 文件" in zh and "截断" in zh


def test_a_gguf_file_with_a_wrong_magic(tmp_path):
    pytest.importorskip("gguf")
    from explorer.backend.models.hf_folder import open_model

    path = tmp_path / "bad.gguf"
    path.write_bytes(b"NOPE" + bytes(60))
    exc = refusal(open_model, str(path))
    assert "not a GGUF file (it starts with b'NOPE', a GGUF file with b'GGUF')" in str(exc)
    assert "不是 GGUF 文件" in both(exc, "bad.gguf", "b'NOPE'")


def test_an_unsupported_model_type_and_a_missing_folder(tmp_path):
    from explorer.backend.models.config import SUPPORTED, model_config
    from explorer.backend.models.hf_folder import open_model

    exc = refusal(model_config, {"model_type": "mamba"}, "m")
    assert str(exc) == f"model_type 'mamba' is not supported; supported: {', '.join(SUPPORTED)}"
    assert both(exc, "'mamba'", ", ".join(SUPPORTED)).startswith("不支持 model_type 'mamba'")
    exc = refusal(open_model, str(tmp_path / "nowhere"))
    assert "不存在" in both(exc, tmp_path / "nowhere")


def test_a_scene_file_and_a_check_file(tmp_path):
    from explorer import scenes
    from explorer.backend.diagnose.loading import load_array

    path = tmp_path / "s.json"
    path.write_text('{"version": 2, "view": "nope"}', encoding="utf-8")
    exc = refusal(scenes.load_scene, path)
    assert str(exc).startswith("scene file s.json: “view” must be one of heatmap")
    assert both(exc, "s.json", "'nope'").startswith("场景文件 s.json：“view” 必须是 heatmap")
    exc = refusal(load_array, tmp_path / "t.txt")
    assert "表文件的扩展名必须是" in both(exc, "t.txt") and str(exc).startswith("a table file must end in .npy")



def _npy(shape=(100, 64)) -> bytes:
    import io

    import numpy as np

    out = io.BytesIO()
    np.save(out, np.ones(shape))
    return out.getvalue()


NUMPY_REFUSALS = [   # (file, its bytes, our English, our Chinese, numpy's words that must be gone)
    ("text.npy", b"not a numpy file at all", "it is not a .npy array: it does not begin with numpy's signature "
     "\\x93NUMPY (it begins with b'not a ')", "它不是 .npy 数组：开头不是 numpy 的签名", "magic string"),
    ("cut.npy", _npy()[:2000], "it holds 234 of the 6,400 values its header announces (cut short",
     "其头部声明有 6,400 个值，文件里只有 234 个（被截断", "Failed to read"),
    ("header_cut.npy", _npy()[:20], "it ends before its header or values do", "文件在头部或数值结束之前就结束了", "EOF"),
    ("letter.csv", b"1,2,3\n4,x,6\n", "row 2, column 2 holds 'x', which is not a number", "第 2 行第 2 列是 'x'，不是数",
     "could not convert"),
    ("header.csv", b"a,b\n1,2\n", "row 1, column 1 holds 'a', which is not a number", "第 1 行第 1 列是 'a'，不是数",
     "could not convert"),
    ("comma.csv", b"1,2,\n3,4,\n", "row 1, column 3 is empty", "第 1 行第 3 列是空的", "could not convert"),
    ("semicolons.csv", b"1;2\n3;4\n", "row 1 holds '1;2': the numbers must be separated by commas",
     "第 1 行是 '1;2'：数与数之间必须用逗号分隔", "could not convert"),
]


@pytest.mark.parametrize("name, content, english, chinese, numpy_words", NUMPY_REFUSALS,
                         ids=[case[0] for case in NUMPY_REFUSALS])
def test_numpys_words_for_a_table_file_it_cannot_read_are_ours(tmp_path, name, content, english, chinese,
                                                               numpy_words):
    """numpy's English reached the Chinese window inside "无法把 … 作为 .npy 读取：" ("the magic string is not
    correct", "could not convert string 'x' to float64 at row 1, column 2", which counts rows from 0)."""
    from explorer.backend.diagnose.loading import load_array

    path = tmp_path / name
    path.write_bytes(content)
    exc = refusal(load_array, path)
    zh = both(exc, path)
    assert english in str(exc) and chinese in zh, (str(exc), zh)
    assert numpy_words not in str(exc) and numpy_words not in zh



@pytest.mark.parametrize("content, english, chinese", [
    ("", ": the file is empty", "：文件是空的"),
    ('{"version": 2, "view": heatmap}', "a value is missing or is not JSON (a comma too many? Text goes in double "
     "quotes; true, false and null are lower case) at line 1, column 24", "第 1 行第 24 列：缺少值，或者值不是 JSON"),
    ('{"version": 2,}', "a name in double quotes was expected", "第 1 行第 15 列：这里应是带双引号的名称"),
    ('{"version": 2 "view": "heatmap"}', "a comma is missing between two items at line 1, column 15",
     "第 1 行第 15 列：两项之间缺少逗号"),
    ('{"version": 2} {}', "more text follows the end of the JSON value", "JSON 值结束后还有多余的内容"),
])
def test_jsons_words_for_a_file_it_cannot_parse_are_ours(tmp_path, content, english, chinese):
    """json's English ("Expecting value") reached the Chinese window inside "场景文件 … 不是有效的 JSON："
    and "config.json 不是有效的 config.json："; its usual complaints are said in messages of ours."""
    from explorer import scenes
    from explorer.backend.models.hf_folder import open_hf_folder

    path = tmp_path / "s.json"
    path.write_text(content, encoding="utf-8")
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "config.json").write_text(content, encoding="utf-8")
    for exc in (refusal(scenes.load_scene, path), refusal(open_hf_folder, folder)):
        zh = both(exc)
        assert english in str(exc) and chinese in zh, (str(exc), zh)
        assert not re.search(r"Expecting|Extra data|char \d", str(exc) + zh), (str(exc), zh)


# the window ------------------------------------------------------------------------------------------

@pytest.fixture
def chinese_window(qtbot, settings):
    """The real main window in Chinese (the translator installed before it is made, as at start-up)."""
    from PySide6.QtWidgets import QApplication

    from explorer.ui import i18n
    from explorer.ui.main_window import MainWindow
    from tests.conftest import close_and_delete

    app = QApplication.instance()
    assert i18n.install_translator(app, "zh_CN")
    try:
        win = MainWindow(settings=settings)
        win.resize(1200, 800)
        win.show()
        win.controller.wait_idle()
        try:
            yield win
        finally:
            win.controller.wait_idle()
            close_and_delete(win)
    finally:
        i18n.install_translator(app, "en")


def test_the_chinese_window_shows_a_bad_model_file_in_chinese(chinese_window, tmp_path):
    pytest.importorskip("gguf")
    path = tmp_path / "bad.gguf"
    path.write_bytes(b"NOPE" + bytes(60))
    failures = []
    chinese_window.model_actions.failed.connect(failures.append)
    chinese_window.model_actions.open_spec(str(path))
    assert chinese_window.model_actions.wait_idle()
    chinese_window.controller.wait_idle()
    shown = chinese_window.statusBar().currentMessage()
    assert shown.startswith("无法打开模型：") and "不是 GGUF 文件" in shown and "bad.gguf" in shown
    assert "not a GGUF file" not in shown and len(failures) == 1 and "不是 GGUF 文件" in failures[0]


def test_the_chinese_window_refuses_a_typed_value_in_chinese(chinese_window):
    before = chinese_window.controller.state
    assert not chinese_window.controller.update(d_model=0)
    assert chinese_window.controller.state == before
    assert chinese_window.statusBar().currentMessage() == "d_model 必须在 1 到 8,192 之间；实际为 0"
    assert not chinese_window.controller.update_view("heatmap", zoom=(5, 2))
    shown = chinese_window.statusBar().currentMessage()
    assert shown.startswith("zoom 必须给出从 0 起的非空范围") and "(5, 2)" in shown


def test_the_english_window_keeps_the_english_refusal(window):
    assert not window.controller.update(d_model=0)
    assert window.statusBar().currentMessage() == "d_model must be between 1 and 8,192; got 0"


def test_the_chinese_window_refuses_a_table_file_in_chinese(chinese_window, tmp_path):
    path = tmp_path / "table.npy"
    path.write_bytes(b"not a numpy file at all")
    chinese_window.check_actions.open_file(str(path))
    assert chinese_window.check_actions.wait_idle()
    chinese_window.controller.wait_idle()
    shown = chinese_window.statusBar().currentMessage()
    assert shown.startswith("无法把 ") and "table.npy" in shown and "作为 .npy 读取" in shown


def test_a_worker_refusal_is_worded_in_the_language_its_job_began_in(qapp, monkeypatch):
    from explorer.ui import controller

    def refuse():
        raise InputError(msg("%1 would need %2, more than the memory budget of %3; choose a smaller max_len or "
                             "d_model", msg("a %1 x %1 similarity matrix", 50000), "18.6 GiB", "1.0 GiB"))

    got = []
    signals = controller._Signals()
    signals.failed.connect(lambda generation, text: got.append((generation, text)))
    monkeypatch.setattr(controller, "_ui_language", lambda: "zh_CN")
    job = controller._Job(7, {"similarity": refuse}, signals)
    monkeypatch.setattr(controller, "_ui_language", lambda: "en")          # a switch after the job began
    job.run()
    assert got == [(7, ("50000 x 50000 的相似度矩阵 需要 18.6 GiB，超过了 1.0 GiB 的内存预算；"
                        "请选择更小的 max_len 或 d_model"))]
    controller._Job(8, {"similarity": refuse}, signals).run()
    assert got[1] == (8, ("a 50000 x 50000 similarity matrix would need 18.6 GiB, more than the memory budget "
                          "of 1.0 GiB; choose a smaller max_len or d_model"))
