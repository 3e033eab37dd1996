"""Freed memory kept for the next frame instead of handed back to the system (glibc only).

A frame's temporaries are a few MB each (at 8192 x 4096 the heatmap's angle grids and image are
1-4 MB). glibc serves blocks above its mmap threshold (128 kB at first, raised as blocks are freed)
with fresh mappings, and trims the heap top once more than twice that is free, so each frame
faulted its pages in again: 1,700 page faults and 4.2 ms of system time per screen-size PE at
8192 x 4096 (6.8 ms in all; 3.7 ms without them). With fixed thresholds the pages stay mapped and
the next frame reuses them. Memory stays flat: what is kept is at most what one frame used.
"""

from __future__ import annotations

import ctypes
import sys

M_TRIM_THRESHOLD = -1          # mallopt's parameter numbers (glibc malloc.h)
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 << 20      # blocks below this come from the heap (glibc's upper limit on 64-bit)
TRIM_THRESHOLD = 128 << 20     # the heap top is handed back only beyond this much free memory


def keep_freed_memory() -> bool:
    """Fix glibc's thresholds (see the module docstring); False where there is no glibc."""
    if not sys.platform.startswith("linux"):
        return False
    try:    # the C library the interpreter runs on (find_library would start ldconfig)
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):       # no mallopt (not glibc): nothing to do
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD,
                                                                              TRIM_THRESHOLD))
