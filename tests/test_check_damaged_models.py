"""A damaged model file or table is refused in one line of ours, in English and in Chinese, exit code 2: a
safetensors header that is not UTF-8 (the library's "Error while deserializing header: invalid UTF-8 in header"),
a .csv that is not UTF-8 ("'utf-8' codec can't decode byte 0xff") or whose long row is separated by semicolons,
a config.json with a byte order mark, nested thousands deep or with a 5,000-digit number (json's and Python's
English), a tokenizer.json cut short, of another JSON kind or with a field the tokenizers library does not expect
(its Rust words: "EOF while parsing an object", "data did not match any variant of untagged enum ModelUntagged"),
and a GGUF file without a tokenizer ("the tokenizer type" was an English argument) had shown library English."""

from __future__ import annotations

import json
import shutil
import struct
from pathlib import Path

import numpy as np
import pytest

from explorer.commands.cli import main
from tests import gguf_fixtures as fx
from tests import models_helpers as mh

LIBRARY_WORDS = ("Error", "EOF", "codec", "decode", "untagged", "enum", "expected struct", "recursion", "Exceeds",
                 "BOM (", "utf-8-sig", "could not convert", "the tokenizer type")
TABLE = np.sin(np.arange(16)[:, None] * 0.1 * np.arange(1, 9)[None, :])       # (16, 8)


@pytest.fixture(scope="module")
def llama(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("good") / "llama"
    mh.build("llama", folder)
    return folder


def _said(capsys, argv: list[str], english: str, chinese: str) -> None:
    for lang, line in (("en", english), ("zh_CN", chinese)):
        assert main(argv + ["--lang", lang] if argv[0] == "check" else ["--lang", lang] + argv) == 2, (argv, lang)
        err = capsys.readouterr().err
        assert err == f"pe-explorer: error: {line}\n", err
        assert lang == "en" or not any(word in err for word in LIBRARY_WORDS), err


def _damaged_copy(good: Path, tmp_path: Path, name: str, change) -> tuple[Path, Path]:
    """(a copy of the model folder `good` whose file `name` holds change(its bytes), that file)."""
    folder = tmp_path / "m"
    shutil.copytree(good, folder)
    path = folder / name
    path.write_bytes(change(path.read_bytes()))
    return folder, path


def _qk(folder: Path, out: Path) -> list[str]:
    return ["export", "qk", "--model", str(folder), "--text", "the cat", "-o", str(out)]


def test_a_safetensors_table_whose_header_is_not_utf8(tmp_path, capsys):
    header = json.dumps({"pe": {"dtype": "F64", "shape": [16, 8], "data_offsets": [0, TABLE.nbytes]}}).encode()
    header = header.replace(b'"pe"', b'"p\xff"')
    path = tmp_path / "pe.safetensors"
    path.write_bytes(struct.pack("<Q", len(header)) + header + TABLE.tobytes())
    _said(capsys, ["check", str(path)], f"cannot read {path} as .safetensors: the header is not JSON",
          f"无法把 {path} 作为 .safetensors 读取：文件头不是 JSON")


def test_a_safetensors_table_whose_offsets_run_backwards(tmp_path, capsys):
    header = json.dumps({"pe": {"dtype": "F64", "shape": [16, 8], "data_offsets": [TABLE.nbytes, 0]}}).encode()
    path = tmp_path / "pe.safetensors"
    path.write_bytes(struct.pack("<Q", len(header)) + header + TABLE.tobytes())
    _said(capsys, ["check", str(path)],
          f"cannot read {path} as .safetensors: tensor 'pe' has bad data_offsets [1024, 0]",
          f"无法把 {path} 作为 .safetensors 读取：张量 'pe' 的 data_offsets [1024, 0] 无效")


def test_a_csv_that_is_not_utf8_names_its_first_bad_byte(tmp_path, capsys):
    path = tmp_path / "pe.csv"
    path.write_bytes(b"0.5,0.25\n0.125,\xff0.5\n")
    _said(capsys, ["check", str(path)],
          f"cannot read {path} as .csv: it is not UTF-8 text (byte 15 is not); a table file is text: numbers "
          "separated by commas",
          f"无法把 {path} 作为 .csv 读取：它不是 UTF-8 文本（第 15 字节不是）；表格文件应是文本：用逗号分隔的数")



def test_a_csv_cut_inside_a_character_names_the_characters_first_byte(tmp_path):
    """The file ends inside a UTF-8 character (its 3 bytes cut to 2): the byte named is the first of those,
    not the file's size (byte 10 of a 10-byte file), also across the 1 MiB blocks first_non_utf8 reads."""
    from explorer.backend.diagnose.read_errors import first_non_utf8

    path = tmp_path / "pe.csv"
    path.write_bytes(b"1,2\n3,4\n\xe4\xb8")
    assert first_non_utf8(path) == 8
    path.write_bytes(b"1,2\n" * 262144 + b"\xe4\xb8")
    assert first_non_utf8(path) == 4 * 262144
    path.write_bytes("1,2\n中".encode())
    assert first_non_utf8(path) == len("1,2\n中".encode())        # whole text: its size

def test_a_long_row_of_semicolons_is_said_as_a_short_one(tmp_path, capsys):
    """numpy cuts a long value short, its closing quote with it: the row had been shown in numpy's words."""
    path = tmp_path / "pe.csv"
    path.write_text("\n".join(";".join(["0.000000"] * 32) for _ in range(4)) + "\n")     # rows of 287 characters
    _said(capsys, ["check", str(path)],
          f"cannot read {path} as .csv: row 1 holds '0.000000;0.000000;0.000000;0.000000;...: the numbers must "
          "be separated by commas",
          f"无法把 {path} 作为 .csv 读取：第 1 行是 '0.000000;0.000000;0.000000;0.000000;...：数与数之间必须用逗号分隔")


CONFIGS = {   # how config.json is damaged -> the reason in English, in Chinese
    "bom": (lambda raw: b"\xef\xbb\xbf" + raw,
            "the file begins with a byte order mark (BOM); save it as UTF-8 without one at line 1, column 1",
            "第 1 行第 1 列：文件以字节顺序标记（BOM）开头；请另存为不带 BOM 的 UTF-8"),
    "deep": (lambda raw: b"[" * 100_000 + b"]" * 100_000, "lists or objects are nested too deeply to be read",
             "列表或对象嵌套过深，无法读取"),
    "digits": (lambda raw: b'{"a": ' + b"9" * 5000 + b"}", "it holds a whole number of more than 4,300 digits",
               "其中有一个超过 4,300 位的整数"),
}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_a_damaged_config_json(tmp_path, capsys, llama, name):
    change, english, chinese = CONFIGS[name]
    folder, config = _damaged_copy(llama, tmp_path, "config.json", change)
    _said(capsys, _qk(folder, tmp_path / "qk.npz"), f"{config} is not a valid config.json: {english}",
          f"{config} 不是有效的 config.json：{chinese}")


def _model_null(raw: bytes) -> bytes:
    data = json.loads(raw)
    data["model"] = None
    return json.dumps(data).encode()


TOKENIZERS = {
    "cut": (lambda raw: raw[:1], "a name in double quotes was expected (single quotes, or a comma too many before "
                                 "the closing brace?) at line 1, column 2",
            "第 1 行第 2 列：这里应是带双引号的名称（用了单引号，或者右花括号前多了一个逗号？）"),
    "list": (lambda raw: b"[1, 2]", "it must hold a JSON object", "它必须是一个 JSON 对象"),
    "latin1": (lambda raw: b"\xe9" + raw, "it is not UTF-8 text (byte 0)", "它不是 UTF-8 文本（第 0 字节）"),
    "model_null": (_model_null, None, None),
}


@pytest.mark.parametrize("name", sorted(TOKENIZERS))
def test_a_damaged_tokenizer_json(tmp_path, capsys, llama, name):
    change, english, chinese = TOKENIZERS[name]
    folder, path = _damaged_copy(llama, tmp_path, "tokenizer.json", change)
    if english is None:             # the tokenizers library's refusal: where, in our words
        column = path.read_text().index('"model": null') + len('"model": null') + 1
        english = ("it is JSON, but not a tokenizer the tokenizers library can read: a field of the wrong kind, or a "
                   f"type it does not know, at line 1, column {column}")
        chinese = f"它是 JSON，但不是 tokenizers 库能读取的分词器：第 1 行第 {column} 列的字段类型不对，或用了它不认识的类型"
    _said(capsys, _qk(folder, tmp_path / "qk.npz"), f"{path} is not a valid tokenizer.json: {english}",
          f"{path} 不是有效的 tokenizer.json：{chinese}")


def test_a_gguf_file_without_a_tokenizer(tmp_path, capsys):
    path = tmp_path / "m.gguf"
    fx.write_llama_gguf(path, fx.tiny_llama(), tokenizer=False)
    _said(capsys, _qk(path, tmp_path / "qk.npz"),
          f"{path}: metadata tokenizer.ggml.model is missing (the tokenizer type); the file has no usable tokenizer",
          f"{path}：缺少元数据 tokenizer.ggml.model（分词器类型）；该文件没有可用的分词器")
