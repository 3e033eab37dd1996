"""How a command ends when the process is told to stop or cannot write its output: SIGTERM as an
exception (temp files removed, exit 143), a standard output that has gone pointed at /dev/null,
text its encoding cannot hold escaped."""

from __future__ import annotations

import os
import sys


def exit_on_terminate() -> None:
    """SIGTERM (a `kill`, a closed terminal session) ends a command as Ctrl+C does: by an exception,
    so a half-written output's temp file is removed (it was left beside the target). Exit status
    143, as a shell gives a process ended by SIGTERM. The window maps it to closing (ui/app.py)."""
    import signal

    def terminate(*_):
        raise SystemExit(128 + signal.SIGTERM)

    try:
        signal.signal(signal.SIGTERM, terminate)
    except ValueError:          # not the main thread (main() called from a worker): leave it
        pass


def tolerant_streams() -> None:
    """Standard output and error write what their encoding cannot hold as escapes (\\u4f4d): tokens
    of "位置" to an ASCII or cp1252 stream (a Windows redirect) raised UnicodeEncodeError after the
    work was done."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError, OSError):   # None (pythonw, a closed stdout), a capture
            pass


def drop_stdout() -> None:
    """Point a standard output that cannot be written at /dev/null, so the interpreter's last
    flush at exit has nothing to fail on (a stdout that still writes is left alone)."""
    if sys.stdout is None:          # started without one (`>&-`, pythonw): print() writes nothing
        return
    try:
        sys.stdout.flush()
        return
    except OSError:
        pass
    try:
        fd = sys.stdout.fileno()
    except (OSError, ValueError):   # not a real file (a test's capture)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)
