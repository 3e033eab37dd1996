"""A damaged table file is refused in one line of ours, in the check's language: an old-format .pt cut
short (torch's "unexpected EOF, expected 427 more bytes", pickle's EOFError), garbage after a .pt's first
byte (the unpickler's "pop from empty list"), an .npz member whose bytes changed (zipfile's "Bad CRC-32
for file 'pe.npy'") had shown the library's English words, in the Chinese window too."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

import explorer
from explorer.commands.cli import main
from explorer.errors import InputError

ROOT = Path(__file__).resolve().parent.parent
TABLE = np.sin(np.arange(64)[:, None] * 0.01 * np.arange(1, 33)[None, :])    # (64, 32) numbers
LIBRARY_WORDS = ("EOF", "pop from empty", "CRC-32", "Bad ", "unexpected", "corrupt", "Error", "operand",
                 "not supported", "multi-line")


def _old_pt(path: Path) -> bytes:
    """The bytes of torch.save's format before torch 1.6 (a pickle stream, then the storages)."""
    torch.save(torch.from_numpy(TABLE), path, _use_new_zipfile_serialization=False)
    return path.read_bytes()


def cut_old_pt(path: Path, keep) -> None:
    whole = _old_pt(path)
    path.write_bytes(whole[: keep(len(whole))])


def garbage_pt(path: Path) -> None:
    path.write_bytes(b"\x80garbage, not a pickle stream" * 4)         # "pop from empty list"


def damaged_old_pt(path: Path) -> None:
    """torch's magic number, then a REDUCE with nothing to reduce, well before the file's end."""
    path.write_bytes(pickle.dumps(torch.serialization.MAGIC_NUMBER, protocol=2) + b"\x80\x02R" + bytes(64))


def _npz(path: Path) -> bytearray:
    np.savez(path, pe=TABLE)
    return bytearray(path.read_bytes())


def crc_npz(path: Path) -> None:
    data = _npz(path)                   # 16 KB of values, then the zip directory (about 100 bytes)
    middle = len(data) // 2
    data[middle: middle + 8] = b"\xff" * 8
    path.write_bytes(bytes(data))


def member_header_npz(path: Path) -> None:
    data = _npz(path)
    data[:4] = b"\0\0\0\0"              # the member's local header signature (PK\3\4); the directory intact
    path.write_bytes(bytes(data))


def method_npz(path: Path) -> None:
    """The member's compression method in the zip directory set to 99 (AES), which zipfile cannot unpack."""
    data = _npz(path)
    at = data.rfind(b"PK\x01\x02")                  # the directory's entry; its method at byte 10
    data[at + 10: at + 12] = (99).to_bytes(2, "little")
    path.write_bytes(bytes(data))


def npy_header(path: Path) -> None:
    """numpy's signature, then a header whose dict is broken (numpy: tokenize's "EOF in multi-line statement")."""
    np.save(path, TABLE)
    data = bytearray(path.read_bytes())
    data[20:23] = b"{[("
    path.write_bytes(bytes(data))


TRUNCATED = ("the file ends early (truncated: an unfinished copy or download?)",
             "文件提前结束了（被截断：复制或下载未完成？）")
CASES = {   # name -> (write it, the reason in English, in Chinese)
    "cut_in_storage.pt": (lambda p: cut_old_pt(p, lambda n: n // 2), *TRUNCATED),     # "unexpected EOF"
    "cut_in_pickle.pt": (lambda p: cut_old_pt(p, lambda n: 40), *TRUNCATED),
    "cut_in_magic.pt": (lambda p: cut_old_pt(p, lambda n: 9), *TRUNCATED),
    "garbage.pt": (garbage_pt,
                   "it is not a PyTorch tensor file (it does not begin as the files torch.save writes do)",
                   "它不是 PyTorch 张量文件（开头与 torch.save 写出的文件不同）"),
    "damaged.pt": (damaged_old_pt,
                   "the file is damaged: it begins as torch.save's files do, but what follows cannot be read",
                   "文件已损坏：开头与 torch.save 写出的文件相同，但后面的内容无法读取"),
    "crc.npz": (crc_npz, "archive member pe.npy is damaged (CRC check failed: a broken copy or download?)",
                "压缩包成员 pe.npy 已损坏（CRC 校验失败：复制或下载出错？）"),
    "member_header.npz": (member_header_npz,
                          "archive member pe.npy is damaged (its header does not match the archive's directory)",
                          "压缩包成员 pe.npy 已损坏（其头部与压缩包目录不符）"),
    "method.npz": (method_npz,
                   "archive member pe.npy is packed with a compression method that cannot be read here (np.savez "
                   "and np.savez_compressed use stored or deflated members)",
                   "压缩包成员 pe.npy 使用了这里无法读取的压缩方法（np.savez 和 np.savez_compressed 写出的成员是不压缩或 "
                   "deflate 压缩的）"),
    "header.npy": (npy_header,
                   "its header is damaged (it begins with numpy's signature, but the description of the array after "
                   "it cannot be read)", "它的头部已损坏（开头是 numpy 的签名，但其后对数组的描述无法读取）"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_cli_says_why_in_one_line_in_english_and_chinese(tmp_path, capsys, name):
    write, english, chinese = CASES[name]
    path = tmp_path / name
    write(path)
    suffix = path.suffix
    for lang, reason in (("en", english), ("zh_CN", chinese)):
        assert main(["check", str(path), "--lang", lang]) == 2, (name, lang)   # 2: bad input (commands/check.py)
        err = capsys.readouterr().err
        assert err.startswith("pe-explorer: error: ") and err.count("\n") == 1, err
        said = (f"cannot read {path} as {suffix}: " if lang == "en" else f"无法把 {path} 作为 {suffix} 读取：")
        assert err == f"pe-explorer: error: {said}{reason}\n", err
        assert not any(word in err for word in LIBRARY_WORDS), err


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_api_raises_the_same_line_and_says_it_in_chinese(tmp_path, name):
    write, english, chinese = CASES[name]
    path = tmp_path / name
    write(path)
    with pytest.raises(InputError) as caught:
        explorer.check(path)
    assert str(caught.value).endswith(": " + english)
    assert caught.value.localized("zh_CN").endswith("读取：" + chinese)


def test_the_right_files_of_both_formats_are_still_read(tmp_path):
    """The pickle stream is read through a memory map now; the values are the saved ones."""
    for protocol in (2, 3):
        path = tmp_path / f"old{protocol}.pt"
        torch.save({"pe": torch.from_numpy(TABLE)}, path, _use_new_zipfile_serialization=False,
                   pickle_protocol=protocol)
        table, _, key = _load(path)
        assert key == "pe" and np.array_equal(table, TABLE)
    np.savez_compressed(tmp_path / "good.npz", pe=TABLE)
    table, _, key = _load(tmp_path / "good.npz")
    assert key == "pe" and np.array_equal(table, TABLE)


def _load(path):
    from explorer.backend.diagnose import load_array

    return load_array(path)


def test_a_real_process_exits_2_without_a_traceback(tmp_path):
    paths = []
    for name in ("cut_in_storage.pt", "garbage.pt", "crc.npz"):
        CASES[name][0](tmp_path / name)
        paths.append(tmp_path / name)
    for path in paths:
        done = subprocess.run([sys.executable, "-m", "explorer", "check", str(path), "--lang", "zh_CN"],
                              capture_output=True, text=True, timeout=120, cwd=tmp_path,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)))
        assert done.returncode == 2 and done.stdout == "", done
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
        assert "无法把" in done.stderr and not any(word in done.stderr for word in LIBRARY_WORDS), done.stderr
