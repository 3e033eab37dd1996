"""Full-size exports written in row blocks, with progress and cancel (the GUI's long exports).

The file is written atomically: a cancel or a failure leaves no file and any old one intact.
"""

from __future__ import annotations

import os
from typing import Callable

import numpy as np

from explorer.backend.budget import check_budget
from explorer.backend.encodings import sinusoidal_pe
from explorer.backend.similarity import similarity_blocks
from explorer.errors import InputError, msg
from explorer.fileio import atomic_writer, check_array_path

KINDS = ("pe", "similarity")
BLOCK_ELEMENTS = 1 << 20        # ~1M values a block: a progress step every few tens of ms


class Cancelled(InputError):
    """The user stopped the export; nothing was written."""


def full_shape(kind: str, params) -> tuple[int, int]:
    """(rows, cols) of the full table."""
    if kind not in KINDS:
        raise InputError(msg("export kind must be one of %1, not %2", ", ".join(KINDS), repr(kind)))
    return (params.max_len, params.d_model if kind == "pe" else params.max_len)


def _rows(kind: str, params, start: int, count: int) -> np.ndarray:
    """Rows start .. start+count-1 of the full table, in params.dtype; (count, cols)."""
    if kind == "pe":
        return sinusoidal_pe(count, params.d_model, params.base, params.layout, params.dtype,
                             start=start)
    block = similarity_blocks(start, 0, 1, count, params.max_len, params.d_model, params.base,
                              params.layout, params.metric)
    return block.astype(params.dtype)


def export_full(kind: str, params, path: str | os.PathLike,
                progress: Callable[[float], None] | None = None,
                cancelled: Callable[[], bool] | None = None) -> tuple[int, int]:
    """Write the full PE table or similarity matrix to path (.npy/.csv); returns its shape.

    progress(fraction) is called after each block; cancelled() returning True stops with
    `Cancelled`. Refused (InputError naming the size) above the memory budget, like the CLI.
    """
    suffix = check_array_path(path)
    rows, cols = full_shape(kind, params)
    itemsize = np.dtype(params.dtype).itemsize
    check_budget(rows * cols, itemsize, "a %1 x %2 %3", rows, cols,
                                        msg("PE table") if kind == "pe" else msg("similarity matrix"))
    step = max(1, BLOCK_ELEMENTS // max(cols, 1))
    with atomic_writer(path) as fh:
        if suffix == ".npy":
            header = {"descr": np.lib.format.dtype_to_descr(np.dtype(params.dtype)),
                      "fortran_order": False, "shape": (rows, cols)}
            np.lib.format.write_array_header_1_0(fh, header)
        fmt = "%.9g" if params.dtype == "float32" else "%.17g"
        for start in range(0, rows, step):
            if cancelled is not None and cancelled():
                raise Cancelled("export cancelled; no file was written")
            block = np.ascontiguousarray(_rows(kind, params, start, min(step, rows - start)))
            if suffix == ".npy":
                fh.write(block.tobytes())
            else:
                np.savetxt(fh, block, delimiter=",", fmt=fmt)
            if progress is not None:
                progress(min(1.0, (start + len(block)) / rows))
    return rows, cols
