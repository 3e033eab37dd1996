"""Saved settings that hold a pickled Python object are moved aside before anything reads them.

PySide6 stores a Python object in QSettings as `@Variant(...PySide::PyObjectWrapper...)`, a pickle, and
`QSettings.value()` unpickles it, for any key of the file's section once one key is read: a hand-edited
settings file could run code when the window starts. PE Explorer writes only text there, so such a file
is not its own; it is renamed to NAME.unsafe (kept, not deleted) and the window starts from the defaults.
(The Windows registry has no file to look at; this guards the ini files of Linux and the plists of macOS.)
"""

from __future__ import annotations

import os
from pathlib import Path

PICKLED = b"PyObjectWrapper"        # the type name in every pickled value's @Variant(...)
_moved: dict[str, str] = {}         # file -> where it went, this run: the window says so, whoever moved it


def without_pickles(settings) -> str:
    """Move `settings`' file aside when it holds a pickled value, then reload it (empty); the new name
    of the file, or "" when there was nothing to move (or no file to read)."""
    path = Path(settings.fileName())
    try:
        if PICKLED not in path.read_bytes():
            return ""
        aside = path.with_name(path.name + ".unsafe")
        os.replace(path, aside)
    except OSError:                  # no file yet, the registry, or unreadable: nothing read from it
        return ""
    settings.sync()                  # the file is gone: no key, nothing unpickled
    _moved[str(path)] = str(aside)
    return str(aside)


def moved_aside(settings) -> str:
    """Where `settings`' file was moved this run, by this check or an earlier one ("" if it was not): the
    language is read before the window opens, and the window is the one to say what happened (once)."""
    without_pickles(settings)
    return _moved.pop(str(Path(settings.fileName())), "")
