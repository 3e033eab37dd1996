"""Window visible from process start, measured in fresh processes (offscreen and on X11 / Xvfb).

The child is the real entry point (`explorer.commands.cli.main([])`, no arguments: open the window) with one
addition installed before it: an application event filter that notes the first paint of the main
window, lets that paint finish (a zero timer), prints the wall-clock time and ends the process at once
(os._exit: the device probe may still be importing torch on a pool thread; the user sees the window
long before that). The parent takes the time just before it starts the process, so the figure
includes the interpreter start, every import, the QApplication, the window and its first frame.

Bytecode: the child may write it (PYTHONDONTWRITEBYTECODE, set on some machines, is dropped for it), as
any `python` run does: pip leaves site-packages compiled, and an editable install or a checkout compiles
the project on its first run. The first launch, which writes any bytecode missing, is reported apart
(`first_launch_ms`); `window_visible_ms` is the median of the launches after it: every later start.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r"""
import os, sys, time
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow

app = QApplication(sys.argv[:1])

class FirstPaint(QObject):
    seen = False

    def eventFilter(self, obj, event):
        if not self.seen and event.type() == QEvent.Type.Paint and isinstance(obj, QMainWindow):
            self.seen = True
            QTimer.singleShot(0, self.done)
        return False

    def done(self):
        sys.stdout.write(f"VISIBLE {time.time():.6f}\n")
        sys.stdout.flush()
        os._exit(0)

probe = FirstPaint()
app.installEventFilter(probe)
from explorer.commands.cli import main
main([])
"""


def child_env(platform: str, config_home: str, env_extra: dict | None = None) -> dict:
    """The child's environment: this one, with the platform, fresh settings, the project first on
    the path, and bytecode writable (a user's Python writes it; PYTHONDONTWRITEBYTECODE would make
    every start compile the project anew)."""
    env = {**os.environ, "QT_QPA_PLATFORM": platform, "XDG_CONFIG_HOME": config_home,
           "PYTHONPATH": os.pathsep.join(p for p in [str(Path(__file__).resolve().parents[2]),
                                                      os.environ.get("PYTHONPATH", "")] if p),
           **(env_extra or {})}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def measure_once(platform: str, env_extra: dict | None = None, timeout: float = 60.0) -> float:
    """ms from process start to the main window's first painted frame, fresh settings."""
    with tempfile.TemporaryDirectory(prefix="pe-startup-") as tmp:
        env = child_env(platform, tmp, env_extra)
        t0 = time.time()
        proc = subprocess.run([sys.executable, "-c", CHILD], check=False, env=env, capture_output=True,
                              text=True, timeout=timeout)
        for line in proc.stdout.splitlines():
            if line.startswith("VISIBLE "):
                return (float(line.split()[1]) - t0) * 1e3
        raise RuntimeError(f"the window did not appear ({platform}): {proc.stderr.strip()[-300:]}")


def _xvfb() -> tuple[subprocess.Popen | None, str | None]:
    """(server, display): the current DISPLAY, else a private Xvfb when installed, else None."""
    if os.environ.get("DISPLAY"):
        return None, os.environ["DISPLAY"]
    if not shutil.which("Xvfb"):
        return None, None
    for n in range(90, 100):
        if not Path(f"/tmp/.X11-unix/X{n}").exists() and not Path(f"/tmp/.X{n}-lock").exists():
            server = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1920x1080x24", "-nolisten",
                                       "tcp"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for _ in range(100):
                if Path(f"/tmp/.X11-unix/X{n}").exists():
                    return server, f":{n}"
                time.sleep(0.05)
            server.kill()
            break
    return None, None


def startup_rows(repeat: int = 3) -> dict:
    """{"window_visible_ms": the worse platform's median, "first_launch_ms": the launch before them
    (it writes any bytecode missing), "offscreen_ms": [...], "x11_ms": [...] or "x11": a reason}."""
    out: dict = {}
    if getattr(sys, "frozen", False):      # a bundle cannot run `python -c`: time it from outside
        return {"window_visible_ms": None, "offscreen_ms": [], "x11": "not measured in a bundle"}
    try:
        out["first_launch_ms"] = round(measure_once("offscreen"), 1)
        offscreen = [measure_once("offscreen") for _ in range(repeat)]
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        return {"window_visible_ms": None, "offscreen_ms": [], "x11": f"offscreen failed: {exc}"}
    out["offscreen_ms"] = [round(t, 1) for t in offscreen]
    server, display = _xvfb()
    try:
        if display is None:
            out["x11"] = "no DISPLAY and no Xvfb (apt-get install xvfb xauth libxcb-icccm4 " \
                         "libxcb-keysyms1)"
        else:
            out["x11_ms"] = [round(measure_once("xcb", {"DISPLAY": display}), 1)
                             for _ in range(repeat)]
            out["x11_display"] = display if server is None else f"{display} (Xvfb)"
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        out["x11"] = str(exc)
    finally:
        if server is not None:
            server.terminate()
            server.wait(5)
    worst = max(statistics.median(offscreen), statistics.median(out.get("x11_ms", [0.0])))
    out["window_visible_ms"] = round(worst, 1)
    return out
