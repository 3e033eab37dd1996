"""Which files this process holds open, for tests that check a refused or closed load left none.

Comparing counts failed now and then in the whole suite (34 == 35): a file an earlier test dropped,
or one another thread used, was closed while a load ran, and the count fell though the load left
nothing open. What matters is the files the load opened: every descriptor that is new, or now names
another file, after it."""

from __future__ import annotations

import gc
import os


def open_files() -> dict[str, str]:
    """Descriptor -> the file it names, for this process (after a collection: a model an earlier
    test dropped closes its file when collected)."""
    gc.collect()
    out = {}
    for fd in os.listdir("/proc/self/fd"):
        try:
            out[fd] = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:          # the listing's own descriptor, gone by now
            pass
    return out


def opened_since(before: dict[str, str]) -> dict[str, str]:
    """The descriptors open now that were not open, or named another file, at `before`."""
    return {fd: target for fd, target in open_files().items() if before.get(fd) != target}
