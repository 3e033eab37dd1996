"""Atomic file writes: a temp file beside the target, fsync, rename. The old file survives a failure."""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from explorer.errors import InputError, link_loop, msg, os_reason, require

ARRAY_SUFFIXES = (".npy", ".csv")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def atomic_writer(path: str | os.PathLike):
    """`with atomic_writer(p) as fh:` write to a temp file beside p; on leaving the block it is
    fsynced and renamed over p. Any exception (a cancel too) removes the temp file and leaves the
    old p intact; OS errors become an InputError with a readable reason."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():                  # a loop of links is no folder either: said as what it is
        loop = link_loop(folder)
        require(loop is None, "cannot write %1: %2", target, loop)
        raise InputError(msg("cannot write %1: the folder %2 does not exist", target, folder))
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())   # mkstemp makes 0600; a saved file gets normal modes
        os.replace(tmp, target)
        tmp = None
    except PermissionError:
        raise InputError(msg("cannot write %1: permission denied (is the folder read-only?)", target))
    except OSError as exc:
        raise InputError(msg("cannot write %1: %2", target, os_reason(exc)))
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """Write data to path atomically; InputError with a readable reason when it cannot."""
    with atomic_writer(path) as fh:
        fh.write(data)
    return Path(path)


def write_array(fh, array: np.ndarray, suffix: str, header: str = "") -> None:
    """Write an array to the open binary file fh as .npy or .csv (2-D; a 3-D array as stacked 2-D
    blocks; header: a '# ...' first line of a .csv). Streamed: a CSV row at a time, so a table near
    the memory budget is not held a second (and, as text, a third) time in memory."""
    if suffix == ".npy":
        np.save(fh, array, allow_pickle=False)
    elif suffix == ".csv":
        flat = array.reshape(-1, array.shape[-1]) if array.ndim > 2 else np.atleast_2d(array)
        fmt = "%.9g" if array.dtype == np.float32 else "%.17g"
        if header:
            fh.write(("# " + header.replace("\n", " ") + "\n").encode("utf-8"))
        np.savetxt(fh, flat, delimiter=",", fmt=fmt)
    else:
        raise InputError(msg("unknown file type %1: use one of %2", repr(suffix), ", ".join(ARRAY_SUFFIXES)))


def refuse_folder_name(path: str | os.PathLike) -> None:
    """InputError for an output file named like a folder: "x.npy/" or "x.npy/." (Path() drops the
    slash and the dot, and the file was written as x.npy)."""
    text = str(path)
    if text.endswith(("/", os.sep, "/.", os.sep + ".")):
        raise InputError(msg("output file %1 ends in a slash, which names a folder: give a file name",
                             repr(text)))


def check_array_path(path: str | os.PathLike) -> str:
    """The suffix (.npy/.csv) of an array file path; InputError for any other."""
    suffix = Path(path).suffix.lower()
    refuse_folder_name(path)
    if suffix not in ARRAY_SUFFIXES:
        raise InputError(msg("output file must end in %1, not %2", " or ".join(ARRAY_SUFFIXES), repr(str(path))))
    return suffix


def save_array(path: str | os.PathLike, array: np.ndarray, header: str = "") -> Path:
    """Write array to path (.npy or .csv by suffix), atomically, streamed (see write_array)."""
    suffix = check_array_path(path)
    with atomic_writer(path) as fh:
        write_array(fh, array, suffix, header)
    return Path(path)
