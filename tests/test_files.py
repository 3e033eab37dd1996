"""Nothing lost: atomic writes refuse read-only folders and full disks with a message, keep the old
file byte for byte and leave no temp file behind. Scenes are JSON only and never unpickled.
"""

from __future__ import annotations

import errno
import os
import pickle

import numpy as np
import pytest

from explorer import fileio
from explorer.errors import InputError

OLD = b"the lecture's old export\n"


@pytest.fixture
def target(tmp_path):
    path = tmp_path / "out.npy"
    path.write_bytes(OLD)
    return path


def assert_untouched(path) -> None:
    assert path.read_bytes() == OLD
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name], "temp file left behind"


def test_read_only_folder_real(target):
    """A real 0555 folder (root ignores permissions: then only the simulated test below binds)."""
    folder = target.parent
    folder.chmod(0o555)
    try:
        if os.geteuid() == 0:
            pytest.skip("running as root: permissions do not stop writes (see the simulated test)")
        with pytest.raises(InputError, match="permission denied"):
            fileio.save_array(target, np.zeros(3))
        assert_untouched(target)
    finally:
        folder.chmod(0o755)


def test_read_only_folder_simulated(target, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(fileio.tempfile, "mkstemp", refuse)
    with pytest.raises(InputError, match=r"cannot write .*out\.npy: permission denied"):
        fileio.save_array(target, np.arange(4.0))
    assert_untouched(target)


def _enospc(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


class _FullDiskFile:
    """Wraps a real file; every write fails as on a full disk (after the temp file exists)."""

    def __init__(self, fh):
        self._fh = fh

    def write(self, data):
        _enospc()

    def __getattr__(self, name):
        return getattr(self._fh, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._fh.close()


@pytest.mark.parametrize("where", ["write", "fsync", "replace"])
def test_full_disk_keeps_old_file_and_cleans_up(target, monkeypatch, where):
    if where == "write":
        real_fdopen = os.fdopen
        monkeypatch.setattr(fileio.os, "fdopen", lambda *a, **k: _FullDiskFile(real_fdopen(*a, **k)))
    else:
        monkeypatch.setattr(fileio.os, where, _enospc)
    with pytest.raises(InputError) as info:
        fileio.save_array(target, np.arange(1000.0))
    msg = str(info.value)
    assert "No space left on device" in msg and "out.npy" in msg and "\n" not in msg
    assert_untouched(target)


def test_interrupted_write_leaves_no_temp(target, monkeypatch):
    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(fileio.os, "replace", interrupt)
    with pytest.raises(KeyboardInterrupt):
        fileio.save_array(target, np.arange(3.0))
    assert_untouched(target)


def test_missing_folder_and_bad_suffix(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        fileio.save_array(tmp_path / "nope" / "x.npy", np.zeros(2))
    with pytest.raises(InputError, match=r"\.npy or \.csv"):
        fileio.save_array(tmp_path / "x.pkl", np.zeros(2))
    assert list(tmp_path.iterdir()) == []


def test_success_replaces_and_round_trips(target):
    data = np.linspace(-1, 1, 12).reshape(3, 4)
    fileio.save_array(target, data)
    np.testing.assert_array_equal(np.load(target, allow_pickle=False), data)
    assert sorted(p.name for p in target.parent.iterdir()) == ["out.npy"]


def test_saving_streams_the_file_instead_of_building_it_in_memory(tmp_path):
    """A 2 MB table (5.6 MB as CSV text) is written without holding the file's bytes: the whole
    text was built in memory and copied once more (a table near the 1 GiB budget needed 3-5 GiB)."""
    import tracemalloc

    data = np.random.default_rng(0).standard_normal((5_000, 50))
    for name in ("x.csv", "x.npy"):
        tracemalloc.start()
        try:
            fileio.save_array(tmp_path / name, data)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert (tmp_path / name).stat().st_size >= data.nbytes and peak < 1_000_000, (name, peak)
    np.testing.assert_array_equal(np.load(tmp_path / "x.npy"), data)
    np.testing.assert_array_equal(np.loadtxt(tmp_path / "x.csv", delimiter=","), data)   # %.17g


def test_object_arrays_are_not_pickled(tmp_path):
    with pytest.raises((InputError, ValueError)):
        fileio.save_array(tmp_path / "x.npy", np.array([{"a": 1}], dtype=object))
    assert list(tmp_path.iterdir()) == []


# ---- scenes ---------------------------------------------------------------------------------------
from explorer import scenes  # noqa: E402
from explorer.params import Params  # noqa: E402


def test_scene_save_failure_keeps_old_scene(tmp_path, monkeypatch):
    path = tmp_path / "lesson.json"
    old = scenes.make_scene(Params(max_len=77), "heatmap", 5)
    scenes.save_scene(path, old)
    before = path.read_bytes()
    monkeypatch.setattr(fileio.os, "replace", _enospc)
    with pytest.raises(InputError, match="No space left"):
        scenes.save_scene(path, scenes.make_scene(Params(max_len=99), "curves", 1))
    assert path.read_bytes() == before and len(list(tmp_path.iterdir())) == 1
    monkeypatch.undo()
    assert scenes.load_scene(path).params.max_len == 77


def test_scene_files_are_never_unpickled(tmp_path, monkeypatch):
    class Boom:
        def __reduce__(self):
            return (os.system, ("echo pwned",))

    path = tmp_path / "evil.json"
    path.write_bytes(pickle.dumps(Boom()))

    def no_unpickling(*args, **kwargs):
        raise AssertionError("a scene was unpickled")

    monkeypatch.setattr(pickle, "loads", no_unpickling)
    monkeypatch.setattr(pickle, "load", no_unpickling)
    monkeypatch.setattr(np, "load", no_unpickling)
    with pytest.raises(InputError):
        scenes.load_scene(path)
