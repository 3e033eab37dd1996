"""explorer.check(path) and explorer.show(path): a user's file, read as `pe-explorer check FILE` reads it.

A path string had been taken for data: explorer.check("pe.npy") said "the data must hold real numbers, not
<U6 values"."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import numpy as np
import pytest

import explorer
from explorer.errors import InputError
from tests.test_ui_check import rope_cos_cache, shown_windows  # noqa: F401 - the fixture


@pytest.fixture
def tables(tmp_path):
    """(a .npy of a float16 PE table, a .npz holding a right and a doubled table)."""
    pe = explorer.sinusoidal(64, 32)
    np.save(tmp_path / "pe.npy", pe.astype(np.float16))
    np.savez(tmp_path / "two.npz", right=pe, doubled=2 * pe)
    return tmp_path / "pe.npy", tmp_path / "two.npz"


def test_a_path_is_read_as_the_command_line_reads_it(tables):
    npy, npz = tables
    for path in (str(npy), npy):                                   # a str or a pathlib.Path
        got = explorer.check(path)
        assert got.match and got.convention["dtype"] == "float16"  # the file's storage, as the CLI says
        assert got.summary == explorer.check(np.load(npy)).summary          # the same as its array
    cli = subprocess.run([sys.executable, "-m", "explorer", "check", str(npy), "--json"], capture_output=True,
                         text=True)
    assert cli.returncode == 0 and '"match": true' in cli.stdout
    doubled = explorer.check(npz, key="doubled")
    assert doubled.match and doubled.convention["scale"] == pytest.approx(2.0)
    assert explorer.check(npz, key="right").convention["scale"] == pytest.approx(1.0)


def test_bad_paths_and_keys_are_one_line_naming_the_api_argument(tables, tmp_path):
    npy, npz = tables
    with pytest.raises(InputError) as several:
        explorer.check(str(npz))
    assert "choose one with key=NAME" in str(several.value) and "\n" not in str(several.value)
    cli = subprocess.run([sys.executable, "-m", "explorer", "check", str(npz)], capture_output=True, text=True)
    assert cli.returncode == 2 and "choose one with --key NAME" in cli.stderr        # the CLI's own option
    for bad, words in ((tmp_path / "gone.npy", "no such file"), ("", "the file path is empty"),
                       (pathlib.Path(tmp_path), "must end in")):
        with pytest.raises(InputError, match=words):
            explorer.check(bad)
    with pytest.raises(InputError, match="not a file path"):
        explorer.check(np.load(npy), key="right")
    with pytest.raises(InputError) as zh:
        explorer.check(str(npz), lang="zh_CN")
    assert "key=NAME" in str(zh.value)   # the English line; the window and lang= translate it
    from explorer.errors import error_text

    assert "请用 key=NAME 选择其中一个" in error_text(zh.value, "zh_CN")


def test_show_opens_the_check_view_on_a_file(shown_windows, tables):  # noqa: F811
    npy, npz = tables
    window = explorer.show(npz, key="doubled", base=10000.0, block=False)
    assert window.check_actions.wait_idle() and window.controller.wait_idle()
    state = window.controller.state
    assert state.view == "check"
    assert (state.views["check"].source, state.views["check"].key) == (str(npz), "doubled")
    assert state.views["check"].base == 10000.0
    r = window.views["check"].result
    assert r.match and r.shape == (64, 32) and r.convention["scale"] == pytest.approx(2.0)
    with pytest.raises(InputError, match="not a file path"):
        explorer.show(rope_cos_cache(), key="cos", block=False)


def test_hostile_paths_and_keys_are_one_line(tables, tmp_path):
    """From the hostile-input review of stop 53: a name too long and a folder that cannot be entered raised a
    raw OSError; bytes paths were read as data; a list key, 0 or 100,000 characters gave library errors."""
    npy, npz = tables
    for bad, words in (("x" * 300 + ".npy", "File name too long"), (str(npz), "choose one with key=NAME")):
        with pytest.raises(InputError) as got:
            explorer.check(bad)
        assert words in str(got.value) and "\n" not in str(got.value)
    assert explorer.check(str(npy).encode()).match                      # a bytes path is a path
    for key in (["right"], 0, ""):
        with pytest.raises(InputError, match="key must name an array of the file"):
            explorer.check(npz, key=key)
    with pytest.raises(InputError) as got:
        explorer.check(npz, key="z" * 100_000)
    assert len(str(got.value)) < 200 and "has no array" in str(got.value)


def test_show_refuses_a_bad_path_before_opening_a_window(shown_windows, tables):  # noqa: F811
    npy, npz = tables
    for path, key, words in ((str(npy).replace("pe.npy", "p\ne.npy"), None, "source must be a file path"),
                             (npz, "a" * 5000, "key must be an array's name")):
        with pytest.raises(InputError, match=words):
            explorer.show(path, key=key, block=False)
    assert shown_windows == []                                            # no window was left behind


def test_show_of_an_unreadable_file_does_not_show_the_last_one(shown_windows, tables, tmp_path):  # noqa: F811
    """The check tab had kept the file checked last (from the settings) when explorer.show(path) could not
    read its file; a missing file opened a window at all. From the review of stop 53's changes."""
    npy, npz = tables
    first = explorer.show(npy, block=False)
    assert first.check_actions.wait_idle() and first.controller.wait_idle()
    assert first.controller.state.views["check"].source == str(npy)
    bad = tmp_path / "bad.npy"
    bad.write_bytes(b"not an array at all")
    window = explorer.show(bad, block=False)
    assert window.check_actions.wait_idle() and window.controller.wait_idle()
    assert window.controller.state.views["check"].source in ("", str(bad))
    assert window.views["check"].result is None or not window.views["check"].result.match
    with pytest.raises(InputError, match="no such file"):
        explorer.show(tmp_path / "missing.npy", block=False)
    assert len(shown_windows) == 2


def test_an_empty_path_is_said_to_be_empty(shown_windows, capsys):  # noqa: F811
    """explorer.check("") and explorer.show("") answered "a table file must end in .npy, ..., not ''", quoting
    a name the user never gave (the API review); the command line's `check ""` too."""
    from explorer.commands.cli import main
    from explorer.errors import error_text

    said = "the file path is empty: give a table file ending in .npy, .npz, .safetensors, .csv, .pt, .pth"
    for call in (explorer.check, lambda path: explorer.show(path, block=False)):
        for empty in ("", b""):
            with pytest.raises(InputError) as got:
                call(empty)
            assert str(got.value) == said
    assert error_text(got.value, "zh_CN").startswith("文件路径是空的")
    assert shown_windows == []                                            # refused before any window
    assert main(["check", ""]) == 2 and capsys.readouterr().err.strip() == f"pe-explorer: error: {said}"


def test_a_loop_of_symbolic_links_is_named_in_one_line(shown_windows, tmp_path, capsys):  # noqa: F811
    """`ln -s loop.npy loop.npy`: the readers said the system's English "Too many levels of symbolic links"
    (untranslated), and where they asked is_file() first, that the file is missing ("has no config.json",
    "the folder ... does not exist"); each now says that the path is a loop of links (the review)."""
    from explorer.commands.cli import main
    from explorer.compute.check import CheckState, check_view
    from explorer.errors import error_text
    from explorer.params import Params

    for name in ("loop.npy", "loop.json", "loop.gguf", "out"):
        (tmp_path / name).symlink_to(name)
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "config.json").symlink_to("config.json")
    loop = tmp_path / "loop.npy"
    said = "the path runs into a loop of symbolic links and cannot be resolved"
    for call in (explorer.check, lambda path: explorer.show(path, block=False)):
        with pytest.raises(InputError) as got:
            call(loop)
        assert str(got.value) == f"cannot read {loop}: {said}"
        assert error_text(got.value, "zh_CN") == f"无法读取 {loop}：路径陷入了符号链接的循环，无法解析"
    assert shown_windows == []
    for spec, where in ((tmp_path / "loop.gguf", "cannot open the model"),
                        (tmp_path / "model", "cannot read")):           # its config.json: "has no config.json"
        with pytest.raises(InputError) as got:
            explorer.open_model(spec)
        assert str(got.value).startswith(where) and str(got.value).endswith(said)
    assert check_view(Params(), CheckState(source=str(loop))).error == f"cannot read {loop}: {said}"  # the window
    for argv in (["check", str(loop)],
                 ["render", "--scene", str(tmp_path / "loop.json"), "-o", str(tmp_path / "x.png")],
                 ["export", "pe", "--max-len", "4", "--d-model", "4", "-o", str(tmp_path / "out" / "pe.npy")]):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert err.endswith(said) and "\n" not in err, err
