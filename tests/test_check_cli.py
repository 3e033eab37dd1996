"""pe-explorer check FILE [--json]: every implementation of tests/check_implementations through a file
of each format; exit 0 / 1 / 2; bad input is one line on stderr."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from explorer.backend.diagnose import loading
from explorer.commands.cli import main
from tests.check_implementations import RIGHT, WRONG
from tests.check_reference import claimed_error

ROOT = Path(__file__).resolve().parent.parent
FORMATS = (".npy", ".pt", ".safetensors", ".npz", ".csv", ".pth")


def save(path: Path, tensor) -> Path:
    """Write tensor in the format of path's suffix (csv only for 2-D data, else .npy)."""
    if isinstance(tensor, torch.Tensor) and tensor.dtype == torch.bfloat16:
        path = path.with_suffix(".pt")                 # numpy has no bfloat16: torch keeps it
        torch.save(tensor, path)
        return path
    arr = tensor.detach().numpy() if isinstance(tensor, torch.Tensor) else np.asarray(tensor)
    suffix = path.suffix
    if suffix == ".csv" and (arr.ndim != 2 or arr.dtype == np.float16):
        path, suffix = path.with_suffix(".npy"), ".npy"
    if suffix == ".npy":
        np.save(path, arr)
    elif suffix == ".npz":
        np.savez(path, table=arr)
    elif suffix == ".csv":
        np.savetxt(path, arr, delimiter=",", fmt="%.9g")
    elif suffix == ".safetensors":
        from safetensors.numpy import save_file

        save_file({"table": np.ascontiguousarray(arr)}, str(path))
    else:
        torch.save(torch.from_numpy(np.ascontiguousarray(arr)), path)
    return path


def run_json(capsys, path, *extra) -> tuple[int, dict]:
    rc = main(["check", str(path), "--json", *extra])
    out = capsys.readouterr().out
    return rc, json.loads(out)


def cli_args(kwargs: dict) -> list[str]:
    return [a for k, v in kwargs.items() for a in (f"--{k}", str(v))]


@pytest.mark.parametrize("i,name", list(enumerate(sorted(RIGHT))))
def test_right_ones_exit_0(tmp_path, capsys, i, name):
    data = RIGHT[name][0]()
    if isinstance(data, torch.nn.Module):
        data = data.eval()(torch.zeros(1, 60, 32))
    path = save(tmp_path / f"x{FORMATS[i % len(FORMATS)]}", data)
    rc, out = run_json(capsys, path)
    assert rc == 0, out["summary"]
    assert set(out) >= {"kind", "match", "convention", "mistakes", "max_error"}
    assert out["match"] is True and out["mistakes"] == []
    assert out["kind"] in ("pe", "rope_cache", "inv_freq")
    assert 0 <= out["max_error"] <= out["tolerance"]


@pytest.mark.parametrize("i,name", list(enumerate(sorted(WRONG))))
def test_wrong_ones_exit_1(tmp_path, capsys, i, name):
    builder, mistake_id, kwargs = WRONG[name]
    path = save(tmp_path / f"x{FORMATS[i % len(FORMATS)]}", builder())
    rc, out = run_json(capsys, path, *cli_args(kwargs))
    assert rc == 1
    assert out["match"] is False
    assert [m["id"] for m in out["mistakes"]] == [mistake_id], out["summary"]
    assert all(m["message"] for m in out["mistakes"])


def test_text_report_names_the_fix(tmp_path, capsys):
    path = save(tmp_path / "swapped.npy", WRONG["sin_cos_swapped"][0]())
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "mistake sin_cos_swapped: sin and cos are swapped" in out
    assert "fix: pe[:, 0::2] = torch.sin(position * div_term)" in out


def test_csv_of_float16_values_gets_float16_tolerance(tmp_path, capsys):
    data = RIGHT["float16_storage"][0]().numpy()
    path = tmp_path / "pe.csv"
    np.savetxt(path, data.astype(np.float64), delimiter=",", fmt="%.9g")
    rc, out = run_json(capsys, path)
    assert rc == 0 and out["convention"]["dtype"] == "float16"


def test_npz_with_several_arrays_needs_key(tmp_path, capsys):
    cos, sin, _ = RIGHT["hf_llama_cos"][0].__globals__["hf_cos_cache"]()
    path = tmp_path / "cache.npz"
    np.savez(path, cos=cos.numpy(), sin=sin.numpy())
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "2 arrays (cos, sin): choose one with --key NAME" in err and err.count("\n") == 1
    rc, out = run_json(capsys, path, "--key", "sin")
    assert rc == 0 and out["convention"]["function"] == "sin" and out["key"] == "sin"


def test_state_dict_pt_is_read(tmp_path, capsys):
    module = RIGHT["seeds_module"][0]()
    path = tmp_path / "state.pt"
    torch.save(module.state_dict(), path)
    rc, out = run_json(capsys, path)
    assert rc == 0 and out["key"] == "pe" and "squeezed" in out["convention"]["orientation"]


def _bad_files(tmp_path: Path) -> list[tuple[Path, str]]:
    nan = np.ones((8, 4))
    nan[3, 1] = np.nan
    np.save(tmp_path / "nan.npy", nan)
    np.save(tmp_path / "empty.npy", np.zeros((0, 8)))
    np.save(tmp_path / "objects.npy", np.array([{"a": 1}, None], dtype=object), allow_pickle=True)
    torch.save(argparse.Namespace(pe=torch.zeros(4, 4)), tmp_path / "pickled.pt")
    torch.save(torch.zeros(4, 4, dtype=torch.complex64), tmp_path / "complex.pt")
    (tmp_path / "garbage.safetensors").write_bytes(b"\x00\x01 not a safetensors file")
    (tmp_path / "table.txt").write_text("1,2\n")
    np.save(tmp_path / "four_d.npy", np.ones((2, 3, 4, 5)))
    np.save(tmp_path / "scalar.npy", np.float32(3.0))
    np.save(tmp_path / "numpy_bytes.npy", np.ones((8, 4)))      # renamed: it was 'needs pickle'
    (tmp_path / "numpy_bytes.npy").rename(tmp_path / "numpy_bytes.pt")
    torch.save(torch.zeros(4, 4), tmp_path / "whole.pt")
    whole = (tmp_path / "whole.pt").read_bytes()
    (tmp_path / "cut.pt").write_bytes(whole[: len(whole) // 2])                 # an unfinished copy
    (tmp_path / "header_hit.pt").write_bytes(whole[:200] + b"\0" * 100 + whole[300:])  # a member's header
    (tmp_path / "random.pt").write_bytes(bytes(range(7, 250)) * 8)
    (tmp_path / "empty.pt").write_bytes(b"")
    (tmp_path / "ragged.csv").write_text("1,2,3\n4,5,6\n7,8\n")
    from safetensors.torch import save_file

    save_file({"pe": torch.zeros(16, 8)}, str(tmp_path / "whole.safetensors"))
    whole = (tmp_path / "whole.safetensors").read_bytes()
    (tmp_path / "cut.safetensors").write_bytes(whole[: len(whole) - 100])
    (tmp_path / "cut_header.safetensors").write_bytes(whole[:30])
    (tmp_path / "bad_json.safetensors").write_bytes((5).to_bytes(8, "little") + b"{abc}")
    (tmp_path / "empty.safetensors").write_bytes(b"")
    for name, entry in (("q7", {"dtype": "Q7", "shape": [2, 2]}), ("negative", {"dtype": "F32", "shape": [-2, 2]}),
                        ("text_shape", {"dtype": "F32", "shape": "ab"})):
        header = json.dumps({"pe": {**entry, "data_offsets": [0, 16]}}).encode()
        (tmp_path / f"{name}.safetensors").write_bytes(len(header).to_bytes(8, "little") + header + bytes(16))
    np.savez(tmp_path / "whole.npz", pe=np.zeros((16, 8)))
    whole = (tmp_path / "whole.npz").read_bytes()
    (tmp_path / "cut.npz").write_bytes(whole[: len(whole) // 2])
    (tmp_path / "random.npz").write_bytes(bytes(range(7, 250)) * 8)
    return [(tmp_path / "cut.safetensors", "shorter than its header says"),
            (tmp_path / "cut_header.safetensors", "shorter than its header says"),
            (tmp_path / "bad_json.safetensors", "the header is not JSON"),
            (tmp_path / "empty.safetensors", "the file is empty"),
            (tmp_path / "q7.safetensors", "its header names an unknown dtype Q7"),        # was "not valid JSON"
            (tmp_path / "negative.safetensors", "tensor 'pe' has a bad shape [-2, 2]"),
            (tmp_path / "text_shape.safetensors", "tensor 'pe' has a bad shape 'ab'"),
            (tmp_path / "cut.npz", "its end is cut off"), (tmp_path / "random.npz", "not a zip archive"),
            (tmp_path / "cut.pt", "damaged or cut short"), (tmp_path / "header_hit.pt", "damaged or cut short"),
            (tmp_path / "random.pt", "not a file torch.save wrote"), (tmp_path / "empty.pt", "the file is empty"),
            (tmp_path / "ragged.csv", "row 3 has 2 numbers and the rows before it 3"),
            (tmp_path / "numpy_bytes.pt", "is a NumPy .npy file, not a torch file"), (tmp_path / "nan.npy", "NaN"), (tmp_path / "empty.npy", "empty"),
            (tmp_path / "objects.npy", "cannot read"), (tmp_path / "pickled.pt", "needs pickle"),
            (tmp_path / "complex.pt", "complex"), (tmp_path / "garbage.safetensors", "does not start like one"),
            (tmp_path / "table.txt", "must end in"), (tmp_path / "four_d.npy", "shape"),
            (tmp_path / "scalar.npy", "more than one number"), (tmp_path / "missing.npy", "no such file")]


def test_bad_input_exit_2_one_line(tmp_path, capsys):
    for path, needle in _bad_files(tmp_path):
        assert main(["check", str(path)]) == 2, path
        err = capsys.readouterr().err
        assert err.startswith("pe-explorer: error: ") and err.count("\n") == 1, err
        assert needle in err and "Traceback" not in err, (path, err)


def test_bad_files_are_one_line_in_chinese_too(tmp_path, capsys):
    """Every line of _bad_files has its Chinese text (none falls back to English)."""
    for path, _ in _bad_files(tmp_path):
        assert main(["check", str(path), "--lang", "zh_CN"]) == 2, path
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err, (path, err)
        assert any("\u4e00" <= ch <= "\u9fff" for ch in err), (path, err)


def test_a_safetensors_file_is_read_from_its_header_and_only_the_chosen_tensor(tmp_path, capsys,
                                                                              monkeypatch):
    """A model.safetensors can be gigabytes of other tensors: --key reads one, and the file-size cap
    of the formats read whole does not apply (it did: load_file read every tensor)."""
    from safetensors.torch import save_file

    from explorer.backend.encodings import sinusoidal_pe

    monkeypatch.setattr(loading, "MAX_FILE_BYTES", 10_000)
    table = torch.from_numpy(sinusoidal_pe(16, 8, 10000.0, "interleaved", "float32"))
    save_file({"pe": table, "lm_head": torch.zeros(100, 100)}, str(tmp_path / "model.safetensors"))
    assert (tmp_path / "model.safetensors").stat().st_size > 40_000
    assert main(["check", str(tmp_path / "model.safetensors"), "--key", "pe"]) == 0
    assert "OK" in capsys.readouterr().out
    monkeypatch.setattr(loading, "MAX_VALUES", 1000)        # lm_head's 10,000 numbers: refused, by shape
    assert main(["check", str(tmp_path / "model.safetensors"), "--key", "lm_head"]) == 2
    assert "10,000 numbers" in capsys.readouterr().err


def test_huge_array_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(loading, "MAX_VALUES", 100)
    np.save(tmp_path / "big.npy", np.zeros((20, 20)))
    assert main(["check", str(tmp_path / "big.npy")]) == 2
    assert "at most 100" in capsys.readouterr().err


def test_claimed_match_is_in_the_file(tmp_path, capsys):
    data = RIGHT["tensor2tensor"][0]().numpy() * 3.0
    path = save(tmp_path / "t2t.safetensors", data)
    rc, out = run_json(capsys, path)
    assert rc == 0 and out["convention"]["scale"] == pytest.approx(3.0)

    class R:   # the claimed_error helper reads a Diagnosis-like object
        kind, convention = out["kind"], out["convention"]

    assert claimed_error(R, data) <= out["tolerance"]


def test_real_process_exit_codes(tmp_path):
    good = save(tmp_path / "good.npy", RIGHT["base_500"][0]())
    bad = save(tmp_path / "bad.npy", WRONG["positions_from_1"][0]())
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    codes = [subprocess.run([sys.executable, "-m", "explorer", "check", str(p), "--json"],
                            capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
             for p in (good, bad, tmp_path / "none.npy")]
    assert [c.returncode for c in codes] == [0, 1, 2]
    assert json.loads(codes[1].stdout)["mistakes"][0]["id"] == "positions_from_1"
    assert codes[2].stdout == "" and codes[2].stderr.count("\n") == 1


def test_chinese_report(tmp_path, capsys):
    path = save(tmp_path / "from1.npy", WRONG["positions_from_1"][0]())
    assert main(["check", str(path), "--lang", "zh_CN"]) == 1
    out = capsys.readouterr().out
    assert "不符合" in out and "位置从 1 开始" in out and "修正: position = torch.arange(0, max_len)" in out
    good = save(tmp_path / "good.npy", RIGHT["base_500"][0]())
    assert main(["check", str(good), "--lang", "zh_CN"]) == 0
    assert "符合：PE 表" in capsys.readouterr().out


def test_bfloat16_safetensors(tmp_path, capsys):
    from safetensors.torch import save_file

    save_file({"pe": RIGHT["bfloat16_storage"][0]()}, str(tmp_path / "bf.safetensors"))
    rc, out = run_json(capsys, tmp_path / "bf.safetensors")
    assert rc == 0 and out["convention"]["dtype"] == "bfloat16" and out["key"] == "pe"


@pytest.mark.parametrize("dtype", [torch.float8_e4m3fn, torch.float8_e5m2])
def test_float8_safetensors(tmp_path, capsys, dtype):
    """float8 has no numpy dtype (safetensors' numpy reader raised AttributeError: 'cannot read ...:
    module numpy has no attribute float8_e4m3fn'); read through torch, with float8's rounding as
    the tolerance: the seeds' table matches, a swapped one is named."""
    from safetensors.torch import save_file

    name = str(dtype).replace("torch.", "")
    for label, make in (("right", RIGHT["base_500"][0]), ("swapped", WRONG["sin_cos_swapped"][0])):
        save_file({"pe": torch.as_tensor(make()).float().to(dtype).contiguous()},
                  str(tmp_path / f"{label}.safetensors"))
    rc, out = run_json(capsys, tmp_path / "right.safetensors")
    assert rc == 0 and out["match"] and out["convention"]["dtype"] == name
    rc, out = run_json(capsys, tmp_path / "swapped.safetensors")
    assert rc == 1 and [m["id"] for m in out["mistakes"]] == ["sin_cos_swapped"]


def test_a_tensor_claiming_far_more_than_it_stores_is_refused_before_it_is_copied(tmp_path, capsys):
    """10 floats of storage seen as 100000 x 100000 (stride 0): the size is checked on the shape, before
    the float64 copy that would ask for 80 GB (it was a traceback, exit 1)."""
    path = tmp_path / "huge_view.pt"
    torch.save(torch.zeros(10).as_strided((100_000, 100_000), (0, 0)), path)
    assert path.stat().st_size < 10_000
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "10,000,000,000 numbers" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_the_api_checks_a_module_s_size_and_says_its_error_in_one_line():
    import explorer
    from explorer.errors import InputError

    class Reshapes(torch.nn.Module):
        def forward(self, x):
            return x.reshape(-1, 7)

    with pytest.raises(InputError, match="10,000,000,000 numbers"):
        explorer.check(Reshapes(), d_model=100_000, max_len=100_000)    # no 40 GB of zeros first
    with pytest.raises(InputError, match="d_model must be a whole number >= 1, not 0"):
        explorer.check(Reshapes(), d_model=0, max_len=10)
    with pytest.raises(InputError, match=r"the module failed on zeros \(1, 10, 8\): RuntimeError"):
        explorer.check(Reshapes(), d_model=8, max_len=10)


def _npz_with_members(path, members: dict) -> None:
    """A .npz written by hand: name -> the raw bytes of its .npy member."""
    import zipfile

    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, raw in members.items():
            z.writestr(name + ".npy", raw)


def _npy_bytes(array=None, header_shape=None) -> bytes:
    """A .npy's bytes; header_shape: a header that claims this shape over the array's few values."""
    import io

    from numpy.lib import format as npy

    buf = io.BytesIO()
    if header_shape is None:
        np.save(buf, array)
    else:
        npy.write_array_header_1_0(buf, {"descr": "<f8", "fortran_order": False, "shape": header_shape})
        buf.write(np.zeros(4).tobytes())
    return buf.getvalue()


def test_a_npz_is_read_from_its_headers_first_and_only_the_chosen_array_after(tmp_path, capsys):
    """A few KB can declare (or, compressed, hold) gigabytes: the size is refused from the header, and
    --key reads one member only (a damaged neighbour no longer stops it)."""
    from explorer.backend.encodings import sinusoidal_pe

    bomb = tmp_path / "bomb.npz"
    _npz_with_members(bomb, {"pe": _npy_bytes(header_shape=(100_000, 100_000))})
    assert main(["check", str(bomb)]) == 2
    assert "10,000,000,000 numbers" in capsys.readouterr().err
    table = sinusoidal_pe(64, 32, 10000.0, "interleaved", "float32")
    two = tmp_path / "two.npz"
    _npz_with_members(two, {"pe": _npy_bytes(table), "broken": _npy_bytes(table)[:-100]})
    assert main(["check", str(two), "--key", "pe"]) == 0
    assert "OK" in capsys.readouterr().out


def test_text_named_npy_is_not_a_pickle_and_a_folder_is_not_missing(tmp_path, capsys):
    """np.load's own message for text in a .npy suggested allow_pickle=True (unsafe advice)."""
    text = tmp_path / "table.npy"
    text.write_text("0.0,1.0\n0.84,0.54\n")
    assert main(["check", str(text)]) == 2
    err = capsys.readouterr().err
    assert "not a .npy array" in err and "pickle" not in err
    folder = tmp_path / "folder.npy"
    folder.mkdir()
    assert main(["check", str(folder)]) == 2
    assert "not a file" in capsys.readouterr().err


def test_a_blank_csv_is_one_line_without_numpy_s_warning(tmp_path, capsys):
    import warnings

    blank = tmp_path / "blank.csv"
    blank.write_text("\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert main(["check", str(blank)]) == 2
    assert [str(w.message) for w in caught] == []
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read" in err and "holds no numbers" in err


def _one_line_refusal(capsys, path, needle):
    assert main(["check", str(path)]) == 2, path
    err = capsys.readouterr().err
    assert err.startswith("pe-explorer: error: ") and err.count("\n") == 1, err
    assert needle in err and "Traceback" not in err, (path, err)


def test_a_truncated_npy_and_a_short_npz_member_are_one_line(tmp_path, capsys):
    """Only the headers were read under the error guard; the values were read later and numpy's
    ValueError came out as a traceback (found by a helper's fuzz)."""
    np.save(tmp_path / "t.npy", np.zeros((16, 8), np.float32))
    data = (tmp_path / "t.npy").read_bytes()
    (tmp_path / "t.npy").write_bytes(data[:-4])
    _one_line_refusal(capsys, tmp_path / "t.npy", "cannot read")
    import zipfile

    from numpy.lib import format as npy

    with zipfile.ZipFile(tmp_path / "t.npz", "w") as z, z.open("table.npy", "w") as f:
        npy.write_array_header_1_0(f, {"descr": "<f4", "fortran_order": False, "shape": (16, 9)})
        f.write(np.zeros((16, 8), np.float32).tobytes())
    _one_line_refusal(capsys, tmp_path / "t.npz", "cannot read")


@pytest.mark.filterwarnings("ignore:Sparse CSR tensor support:UserWarning")
@pytest.mark.filterwarnings("ignore:torch.quantize_per_tensor:UserWarning")
@pytest.mark.parametrize("make, needle", [
    (lambda: torch.eye(4).to_sparse(), "a sparse coo tensor cannot be checked"),
    (lambda: torch.eye(4).to_sparse_csr(), "a sparse csr tensor cannot be checked"),
    (lambda: torch.quantize_per_tensor(torch.eye(4), 0.1, 0, torch.qint8), "tensor.dequantize()"),
])
def test_sparse_and_quantized_tensors_are_one_line_from_a_file_and_the_api(tmp_path, capsys, make, needle):
    import explorer
    from explorer.errors import InputError

    torch.save(make(), tmp_path / "s.pt")
    _one_line_refusal(capsys, tmp_path / "s.pt", needle)
    with pytest.raises(InputError, match=needle.replace("(", ".").replace(")", ".")):
        explorer.check(make())


def test_a_meta_tensor_is_refused_in_one_line():
    import explorer
    from explorer.errors import InputError

    with pytest.raises(InputError, match="a meta tensor holds no values"):
        explorer.check(torch.ones(16, 8, device="meta"))


def test_a_header_of_2_to_the_64_values_is_too_large_not_empty(tmp_path, capsys):
    """np.prod of (2^32, 2^32) wraps around to 0: the file was said to hold no array."""
    with open(tmp_path / "h.npy", "wb") as f:
        from numpy.lib import format as npy

        npy.write_array_header_1_0(f, {"descr": "<f4", "fortran_order": False, "shape": (2**32, 2**32)})
    _one_line_refusal(capsys, tmp_path / "h.npy", "numbers; the check reads at most")


@pytest.mark.parametrize("values", [[1.0, 1e-300], [1e300, 1.0], [5e-324, 1.0], [1.0, 1e300]])
def test_an_inv_freq_spanning_600_decades_is_no_match_not_an_overflow(tmp_path, capsys, values):
    """exp(slope x h) overflowed (OverflowError) before its cap at 1e300, and w / w[0] warned for a
    denormal w[0] (a second line on stderr). Found by a helper's fuzz."""
    import warnings

    np.save(tmp_path / "w.npy", np.array(values))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert main(["check", str(tmp_path / "w.npy")]) == 1
    out = capsys.readouterr()
    assert out.err == "" and "max error" in out.out


def test_a_csv_over_the_limit_is_refused_before_numpy_parses_it(tmp_path, capsys, monkeypatch):
    """A CSV's numbers are counted from its first row and its lines first (a 600 MB file of zeros
    took 2.6 GB while numpy parsed it, then was refused): numpy is never called for one too big."""
    from explorer.backend.diagnose import loading

    row = ",".join(["0"] * 64) + "\n"
    rows = loading.MAX_VALUES // 64 + 1
    with open(tmp_path / "big.csv", "w") as f:
        f.write(row * rows)
    parsed = []
    monkeypatch.setattr(loading.np, "loadtxt", lambda *a, **k: parsed.append(1))
    _one_line_refusal(capsys, tmp_path / "big.csv", f"holds {rows * 64:,} numbers")
    assert parsed == []
    assert loading._csv_extent(tmp_path / "big.csv") == ((rows, 64), rows * 64)
    (tmp_path / "two.csv").write_text("1,2\n3,4")               # no final line break
    assert loading._csv_extent(tmp_path / "two.csv") == ((2, 2), 4)
    for first in ("#\n", "1\n"):                               # a short first row before a wide one
        with open(tmp_path / "wide.csv", "w") as f:
            f.write(first + ",".join(["0"] * (loading.MAX_VALUES + 1)) + "\n")
        _one_line_refusal(capsys, tmp_path / "wide.csv", f"holds {loading.MAX_VALUES + 2:,} numbers")
    assert parsed == []


def test_a_small_pt_that_unpacks_to_more_than_the_file_limit_is_refused_unread(tmp_path, capsys, monkeypatch):
    """torch.load reads each storage whole: a 1.5 MB deflated .pt held a 1.6 GB storage. The
    members' unpacked sizes are added up first (here the limit is lowered to 1 MB)."""
    import zipfile

    import torch

    from explorer.backend.diagnose import loading

    torch.save(torch.zeros(512, 1024), tmp_path / "plain.pt")             # a 2 MB storage
    with zipfile.ZipFile(tmp_path / "plain.pt") as src, \
            zipfile.ZipFile(tmp_path / "small.pt", "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(info.filename, src.read(info.filename))
    assert (tmp_path / "small.pt").stat().st_size < 100_000
    monkeypatch.setattr(loading, "MAX_FILE_BYTES", 1 << 20)
    monkeypatch.setattr(torch, "load", lambda *a, **k: pytest.fail("torch.load was called"))
    _one_line_refusal(capsys, tmp_path / "small.pt", "unpacks to")
