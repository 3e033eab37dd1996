"""Block-wise full exports equal the one-shot arrays; cancel and budget leave no file."""

import numpy as np
import pytest

from explorer.backend import full_export
from explorer.backend.encodings import sinusoidal_pe
from explorer.backend.similarity import similarity_matrix
from explorer.errors import InputError
from explorer.params import Params


@pytest.mark.parametrize("suffix", [".npy", ".csv"])
def test_pe_in_blocks_equals_the_table(tmp_path, monkeypatch, suffix):
    monkeypatch.setattr(full_export, "BLOCK_ELEMENTS", 7 * 13)          # many uneven blocks
    p = Params(max_len=50, d_model=13, base=321.0, layout="concat", dtype="float32")
    path = tmp_path / f"pe{suffix}"
    seen = []
    assert full_export.export_full("pe", p, path, progress=seen.append) == (50, 13)
    got = np.load(path) if suffix == ".npy" else np.loadtxt(path, delimiter=",")
    np.testing.assert_allclose(got, sinusoidal_pe(50, 13, 321.0, "concat"), atol=1e-7)
    assert len(seen) > 3 and seen == sorted(seen) and seen[-1] == 1.0


def test_similarity_in_blocks(tmp_path, monkeypatch):
    monkeypatch.setattr(full_export, "BLOCK_ELEMENTS", 100)
    p = Params(max_len=40, d_model=9, metric="cosine", dtype="float64")
    full_export.export_full("similarity", p, tmp_path / "s.npy")
    np.testing.assert_allclose(np.load(tmp_path / "s.npy"),
                               similarity_matrix(40, 9, metric="cosine"), atol=1e-12)


def test_cancel_leaves_old_file_and_no_temp(tmp_path, monkeypatch):
    monkeypatch.setattr(full_export, "BLOCK_ELEMENTS", 64)
    path = tmp_path / "pe.npy"
    path.write_bytes(b"old")
    calls = []
    with pytest.raises(full_export.Cancelled):
        full_export.export_full("pe", Params(max_len=100, d_model=8), path,
                                cancelled=lambda: calls.append(1) or len(calls) > 3)
    assert path.read_bytes() == b"old" and sorted(tmp_path.iterdir()) == [path]


def test_over_budget_refused_naming_size(tmp_path):
    with pytest.raises(InputError, match="GiB"):
        full_export.export_full("similarity", Params(max_len=1_000_000, d_model=8),
                                tmp_path / "s.npy")
    assert list(tmp_path.iterdir()) == []
