"""Read a .npz for the check: every member's .npy header first, the chosen member's values on load().

A damaged archive is said in one line of ours, known by the exception's type: zipfile's and zlib's own
words are English ("Bad CRC-32 for file 'pe.npy'") and had reached the Chinese window as they were.
"""

from __future__ import annotations

import errno
import zipfile
import zlib
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from explorer.backend.diagnose import loading
from explorer.backend.diagnose.read_errors import TRUNCATED
from explorer.errors import InputError, msg, require


def read_npz(p: Path) -> dict:
    """name -> loading.Stored for each array of a .npz, read from the members' headers only."""
    not_zip = msg("cannot read %1 as .npz: it is not a zip archive (np.savez writes one), or its end is cut "
                  "off (an unfinished copy or download?)", p)
    if not zipfile.is_zipfile(p):
        raise InputError(not_zip)
    try:
        archive = zipfile.ZipFile(p)
    except zipfile.BadZipFile:          # its directory at the end: where is_zipfile does not look
        raise InputError(not_zip) from None
    out: dict = {}
    with archive as z:
        for info in z.infolist():
            if info.filename.endswith(".npy"):
                with _member(z, info, p) as f:     # a small member is read whole here: its CRC too
                    shape, dtype = loading.npy_header(f, p)
                out[info.filename[:-4]] = loading.Stored(shape, dtype, lambda m=info.filename: _values(p, m))
    require(out, "%1 holds no .npy array", p)
    return out


def _values(p: Path, member: str) -> np.ndarray:
    from numpy.lib import format as npy

    with zipfile.ZipFile(p) as z, _member(z, z.getinfo(member), p) as f:
        return npy.read_array(f, allow_pickle=False)


@contextmanager
def _member(z: zipfile.ZipFile, info: zipfile.ZipInfo, p: Path):
    """The open member `info`; InputError naming it when it is damaged: its local header (on opening),
    its CRC-32 (zipfile's only BadZipFile while reading), its deflated data (zlib) or their end."""
    try:
        f = z.open(info)
    except (zipfile.BadZipFile, ValueError, OSError) as exc:  # ValueError: a negative offset; OSError: seek's EINVAL
        if isinstance(exc, OSError) and exc.errno != errno.EINVAL:    # the disk's own error: said as the system
            raise                                                      # says it
        raise InputError(_damaged(p, msg("archive member %1 is damaged (its header does not match the "
                                         "archive's directory)", info.filename))) from exc
    except NotImplementedError:
        raise InputError(_damaged(p, msg("archive member %1 is packed with a compression method that cannot be "
                                         "read here (np.savez and np.savez_compressed use stored or deflated "
                                         "members)", info.filename))) from None
    try:
        with f:
            yield f
    except zipfile.BadZipFile:
        raise InputError(_damaged(p, msg("archive member %1 is damaged (CRC check failed: a broken copy or "
                                         "download?)", info.filename))) from None
    except zlib.error:
        raise InputError(_damaged(p, msg("archive member %1 is damaged (its compressed data cannot be "
                                         "unpacked)", info.filename))) from None
    except EOFError:
        raise InputError(_damaged(p, TRUNCATED)) from None


def _damaged(p: Path, reason) -> str:
    return msg("cannot read %1 as %2: %3", p, ".npz", reason)
