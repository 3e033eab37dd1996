"""CLI: files equal the formulas; bad input exits 2 with one line and leaves no file."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from explorer.backend.similarity import similarity_matmul
from explorer.commands.cli import main
from tests.test_backend_encodings import oracle


@pytest.mark.parametrize("layout", ["interleaved", "concat", "t2t"])
def test_export_pe_npy_equals_formula(tmp_path, layout):
    out = tmp_path / "pe.npy"
    assert main(["export", "pe", "--max-len", "33", "--d-model", "7", "--layout", layout,
                 "--dtype", "float64", "--device", "cpu", "-o", str(out)]) == 0
    np.testing.assert_allclose(np.load(out), oracle(33, 7, 1e4, layout), atol=1e-12)


def test_export_pe_csv_and_float_base(tmp_path):
    out = tmp_path / "pe.csv"
    assert main(["export", "pe", "--max-len", "9", "--d-model", "4", "--base", "2.5",
                 "-o", str(out)]) == 0
    got = np.loadtxt(out, delimiter=",")
    np.testing.assert_allclose(got, oracle(9, 4, 2.5, "interleaved"), atol=1e-6)


@pytest.mark.parametrize("metric", ["dot", "cosine"])
def test_export_similarity(tmp_path, metric):
    out = tmp_path / "s.npy"
    assert main(["export", "similarity", "--metric", metric, "--max-len", "40", "--d-model", "9",
                 "--dtype", "float64", "-o", str(out)]) == 0
    np.testing.assert_allclose(np.load(out), similarity_matmul(40, 9, metric=metric), atol=1e-9)


@pytest.mark.parametrize("argv,needle", [
    (["export", "pe", "--max-len", "10", "--d-model", "0", "-o", "X.npy"], "d_model"),
    (["export", "pe", "--max-len", "-1", "--d-model", "4", "-o", "X.npy"], "max_len"),
    (["export", "pe", "--max-len", "10", "--d-model", "4", "--base", "1", "-o", "X.npy"], "base"),
    (["export", "pe", "--max-len", "10", "--d-model", "4", "--base", "nan", "-o", "X.npy"], "base"),
    (["export", "pe", "--max-len", "10", "--d-model", "4", "-o", "X.txt"], ".npy"),
    (["export", "pe", "--max-len", "9000000", "--d-model", "8192", "-o", "X.npy"], "GiB"),
    (["export", "similarity", "--max-len", "100000", "--d-model", "4", "-o", "X.npy"], "GiB"),
    (["export", "pe", "--max-len", "ten", "--d-model", "4", "-o", "X.npy"], "invalid int"),
    (["export", "rope", "--head-dim", "7", "--max-len", "4", "-o", "X.npy"], "head_dim"),
    # its angles were made before any budget: 10^8 took 14.5 GB and a minute (fuzz helper)
    (["export", "rope", "--head-dim", "100000000", "--max-len", "8", "-o", "X.npy"], "from 2 to 65,536"),
    (["frobnicate"], "invalid choice"),
    # export input has no max_len: its rows and positions grow with the text (it said "max_len")
    (["export", "input", "--tokenizer", "char", "--text", "a" * 40000, "--d-model", "8192", "-o", "X.npy"],
     "1.8 GiB, more than the memory budget of 1.0 GiB; use a shorter text or a smaller d_model"),
    (["export", "input", "--tokenizer", "char", "--text", "a" * 24000, "--d-model", "8192", "-o", "X.npy"],
     "PE table would need 1.1 GiB, more than the memory budget of 1.0 GiB; use a shorter text or a smaller d_model"),
])
def test_bad_input_exit_2_one_line_no_file(tmp_path, monkeypatch, capsys, argv, needle):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_unwritable_folder(tmp_path, capsys):
    assert main(["export", "pe", "--max-len", "4", "--d-model", "4",
                 "-o", str(tmp_path / "missing" / "x.npy")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_tokens_json(capsys):
    assert main(["tokens", "Thanks for all the fish", "--tokenizer", "wordpiece", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ids"] == [101, 4283, 2005, 2035, 1996, 3869, 102]


def test_export_rope_alibi_rotation(tmp_path):
    assert main(["export", "alibi", "--heads", "8", "--max-len", "6", "-o", str(tmp_path / "a.npy")]) == 0
    a = np.load(tmp_path / "a.npy")
    assert a.shape == (8, 6, 6) and a[0, 0, 5] == pytest.approx(-5 / 2)
    assert main(["export", "offset-rotation", "--d-model", "8", "--offset", "3",
                 "-o", str(tmp_path / "r.npy")]) == 0
    r = np.load(tmp_path / "r.npy")
    pe = oracle(10, 8, 1e4, "interleaved")
    np.testing.assert_allclose(r @ pe[2], pe[5], atol=1e-12)
    assert main(["export", "rope", "--head-dim", "8", "--max-len", "5",
                 "-o", str(tmp_path / "q.npy")]) == 0
    q = np.load(tmp_path / "q.npy")
    assert q.shape == (5, 5) and q[0, 0] == pytest.approx(8.0)


def test_python_dash_m_entry_point(tmp_path):
    out = tmp_path / "pe.npy"
    proc = subprocess.run([sys.executable, "-m", "explorer", "export", "pe", "--max-len", "3",
                           "--d-model", "2", "-o", str(out)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_allclose(np.load(out), oracle(3, 2, 1e4, "interleaved"), atol=1e-6)


def test_help_says_a_bare_call_opens_the_window(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "with no command to open the window" in text and "export" in text


def test_export_without_kind_names_the_kinds(capsys):
    """Every kind, in the message and in `export --help` (both named only the first seven: not
    view, qk or rope-frequencies, registered later)."""
    from explorer.commands.cli import build_parser

    export = build_parser()._subparsers._group_actions[0].choices["export"]
    kinds = export._subparsers._group_actions[0].choices
    assert {"pe", "view", "qk", "rope-frequencies"} <= set(kinds)
    assert main(["export"]) == 2
    err = capsys.readouterr().err
    assert "required: kind" not in err and err.count("\n") == 1
    assert all(kind in err for kind in kinds)
    with pytest.raises(SystemExit):
        main(["export", "--help"])
    text = " ".join(capsys.readouterr().out.split()).replace("- ", "-")
    assert "KIND is one of " + ", ".join(kinds) in text and ".npz" in text


class _Unwritable:
    """A standard output whose writes fail as a closed pipe or a full disk does."""

    def __init__(self, error):
        self.error = error

    def write(self, text):
        raise self.error

    def flush(self):
        raise self.error

    def fileno(self):
        raise ValueError("no file")


def test_a_closed_pipe_ends_quietly_and_a_full_disk_in_one_line(monkeypatch, capsys):
    """`pe-explorer views --json | head` and `> /dev/full` were tracebacks."""
    import errno

    monkeypatch.setattr(sys, "stdout", _Unwritable(BrokenPipeError(errno.EPIPE, "Broken pipe")))
    assert main(["views", "--json"]) == 141
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(sys, "stdout", _Unwritable(OSError(errno.ENOSPC, "No space left on device")))
    assert main(["presets", "--json"]) == 2
    assert capsys.readouterr().err.strip() == "pe-explorer: error: No space left on device"


def test_render_to_a_full_disk_or_in_chinese_says_so_in_one_line(monkeypatch, capsys, tmp_path):
    """`render ... > /dev/full` was an "internal error" with exit 1, and render's refusals were
    English under --lang zh_CN (the other commands say them in --lang)."""
    import errno

    out = str(tmp_path / "r.png")
    assert main(["render", "--view", "heatmap", "--lang", "zh_CN", "--d-model", "0", "-o", out]) == 2
    assert capsys.readouterr().err.strip() == "pe-explorer render: error: d_model 必须在 1 到 8,192 之间；实际为 0"
    for args, words in ((["-o", str(tmp_path / "x.jpg")], "输出文件的扩展名必须是 .png 或 .svg"),
                        (["--size", "0x0", "-o", out], "--size 每边必须在 200 到 8000 像素之间")):
        assert main(["render", "--view", "heatmap", "--lang", "zh_CN", *args]) == 2
        assert words in capsys.readouterr().err
    monkeypatch.setattr(sys, "stdout", _Unwritable(OSError(errno.ENOSPC, "No space left on device")))
    assert main(["render", "--view", "heatmap", "--d-model", "8", "--max-len", "8", "-o", out]) == 2
    assert capsys.readouterr().err.strip() == "pe-explorer render: error: No space left on device"
    monkeypatch.setattr(sys, "stdout", _Unwritable(BrokenPipeError(errno.EPIPE, "Broken pipe")))
    assert main(["render", "--view", "heatmap", "--d-model", "8", "--max-len", "8", "-o", out]) == 141


@pytest.mark.parametrize("args", [["tokens", "位置 🐟"], ["export", "pe", "--max-len", "2", "--d-model", "2",
                                                           "-o", "位置.npy"]])
def test_an_ascii_or_closed_standard_output_ends_without_a_traceback(tmp_path, args):
    """Chinese tokens to an ASCII stream (a cp1252 redirect on Windows) raised UnicodeEncodeError
    after the work was done; a closed stdout (`>&-`, pythonw) an AttributeError on its flush."""
    import os

    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    proc = subprocess.run([sys.executable, "-m", "explorer", *args], capture_output=True, text=True,
                          cwd=tmp_path, env=env, encoding="ascii", errors="strict")
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert "\\u4f4d\\u7f6e" in proc.stdout                  # 位置, escaped
    closed = subprocess.run([sys.executable, "-c", "import sys, os; os.close(1); sys.stdout = None; "
                             "from explorer.commands.cli import main; sys.exit(main(sys.argv[1:]))", *args],
                            capture_output=False, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    assert closed.returncode == 0 and closed.stderr == "", closed.stderr


@pytest.mark.parametrize("view", ["tokens", "learned", "qk"])
def test_export_view_of_a_model_it_cannot_read_is_refused_not_written_empty(view, tmp_path, capsys):
    """The window shows why beside a fallback; `export view` wrote 16 empty arrays (tokens) or the
    fallback's (learned: MiniLM, qk: SmolLM2) with exit 0."""
    out = tmp_path / "v.npz"
    assert main(["export", "view", "--view", view, "--model", str(tmp_path / "nonexist"), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "nonexist does not exist" in err and "showing" not in err and err.count("\n") == 1
    assert not out.exists()


def test_sigterm_during_an_export_leaves_no_temp_file(tmp_path):
    """A `kill` while the CSV is written ends the command by an exception: the temp file beside
    the target is removed (a 74 MB one was left) and the exit status is 143."""
    import os
    import signal
    import time

    proc = subprocess.Popen([sys.executable, "-m", "explorer", "export", "similarity", "--max-len", "9000",
                             "--d-model", "64", "-o", str(tmp_path / "big.csv")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent)))
    for _ in range(1200):                           # until the temp file is being written (<= 60 s)
        if list(tmp_path.glob(".big.csv.*.tmp")) or proc.poll() is not None:
            break
        time.sleep(0.05)
    if proc.poll() is not None:
        pytest.skip("the export ended before its temp file was seen")
    proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert "Traceback" not in err and list(tmp_path.iterdir()) == []


def test_the_cli_and_the_api_refuse_a_table_in_the_same_words(tmp_path, monkeypatch, capsys):
    """`export pe` (through the device path) counted the table only and printed 9000000; the API
    counted half again and printed 9,000,000: 274.7 against 412.0 GiB for one request."""
    import explorer
    from explorer.errors import InputError

    monkeypatch.chdir(tmp_path)
    assert main(["export", "pe", "--max-len", "9000000", "--d-model", "8192", "-o", "X.npy"]) == 2
    err = capsys.readouterr().err
    with pytest.raises(InputError) as refused:
        explorer.sinusoidal(9_000_000, 8192)
    assert str(refused.value) in err and "9,000,000 x 8,192 PE table would need 412.0 GiB" in err


def test_export_input_over_budget_is_refused_before_any_row_is_made(tmp_path, monkeypatch, capsys):
    """The PE table's budget (6 bytes a cell) is stricter than the token rows' (4): it is checked
    first, so 24,000 tokens x 8192 are refused without the ~800 MB of rows made before (a review)."""
    def no_rows(*_a, **_k):
        raise AssertionError("token rows made before the refusal")

    monkeypatch.setattr("explorer.backend.embeddings.untrained_rows", no_rows)
    monkeypatch.chdir(tmp_path)
    argv = ["export", "input", "--tokenizer", "char", "--text", "a" * 24000, "--d-model", "8192", "-o", "X.npy"]
    assert main(argv) == 2
    assert "PE table would need 1.1 GiB" in capsys.readouterr().err and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args, advice", [
    (["similarity", "--max-len", "20000", "--d-model", "8192"], "choose a smaller max_len"),  # d_model does
    (["rope", "--max-len", "30000", "--head-dim", "128"], "choose a smaller max_len"),        # not size these
    (["offset-rotation", "--d-model", "100000", "--offset", "3"], "choose a smaller d_model"),  # no max_len
])
def test_a_refused_export_names_only_what_sizes_it(tmp_path, capsys, args, advice):
    assert main(["export", *args, "-o", str(tmp_path / "a.npy")]) == 2
    err = capsys.readouterr().err
    assert err.rstrip().endswith(advice) and "or d_model" not in err, err


@pytest.mark.parametrize("args, name", [
    (["export", "pe", "--max-len", "2", "--d-model", "2"], "x.npy/"),
    (["export", "pe", "--max-len", "2", "--d-model", "2"], "x.npy/."),
    (["export", "rope-frequencies", "--preset", "llama-3.1-8b"], "r.npz/"),
    (["export", "view", "--view", "heatmap"], "v.npz/"),
    (["render", "--view", "heatmap", "--d-model", "8", "--max-len", "8"], "p.png/"),
])
def test_an_output_path_ending_in_a_slash_is_refused_not_written_as_a_file(tmp_path, capsys, args, name):
    """`-o x.npy/` wrote a file x.npy: the slash (a folder) was dropped."""
    assert main([*args, "-o", str(tmp_path / name.split("/")[0]) + name[name.index("/"):]]) == 2
    assert "ends in a slash" in capsys.readouterr().err and not any(tmp_path.iterdir())
