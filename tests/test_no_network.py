"""Offline: the window, the tokenizers, the CLI exports and the self-test run with networking blocked.

A fresh subprocess (so nothing is already loaded) blocks the network three ways: socket creation
patched to raise, an audit hook refusing connect/getaddrinfo, and every proxy variable pointed at
a closed local port. Any attempt is recorded and fails the test, even if the code swallowed it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = textwrap.dedent("""
    import json, os, socket, sys
    attempts = []

    def audit(event, args):
        if event in ("socket.connect", "socket.getaddrinfo", "socket.gethostbyname", "urllib.Request",
                     "http.client.connect"):
            attempts.append(f"{event} {args!r}"[:200])
            raise OSError(f"network blocked by the test: {event}")

    sys.addaudithook(audit)

    class NoSocket(socket.socket):
        def __init__(self, *args, **kwargs):
            attempts.append("socket.socket()")
            raise OSError("network blocked by the test: socket.socket")

    socket.socket = NoSocket
    socket.create_connection = NoSocket
    out, tmp = {}, sys.argv[1]

    from explorer.backend import tokens
    out["tokenizers"] = {n: len(tokens.tokenize("Thanks for all the fish 谢谢 🐟", n)) for n in tokens.TOKENIZERS}

    from explorer.commands.cli import main
    out["export_pe"] = main(["export", "pe", "--max-len", "16", "--d-model", "8", "-o", tmp + "/pe.npy"])
    for name in ("cl100k", "wordpiece"):
        argv = ["export", "input", "--text", "位置编码 positional", "--tokenizer", name, "--d-model", "16",
                "-o", f"{tmp}/x_{name}.npy"]
        out["export_input_" + name] = main(argv)

    from PySide6.QtCore import QSettings
    from explorer.ui.app import make_app
    from explorer.ui.main_window import MainWindow
    app = make_app()
    win = MainWindow(settings=QSettings(tmp + "/settings.ini", QSettings.Format.IniFormat))
    win.show()
    out["window_idle"] = win.controller.wait_idle(20000)
    out["views_drawn"] = sum(v.result is not None for v in win.views.values())
    win.close()

    from explorer.commands.selftest import run_self_test
    lines = []
    out["selftest"] = run_self_test(out=lines.append)
    out["selftest_lines"] = lines
    out["attempts"] = attempts
    print("RESULT " + json.dumps(out))
""")

PROXY = "http://127.0.0.1:9"      # the discard port: nothing listens


def test_everything_runs_offline(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen", NO_PROXY="", no_proxy="",
               HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path / "cache"))
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        env[var] = PROXY
    for var in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "TIKTOKEN_CACHE_DIR"):
        env.pop(var, None)                            # the app must be offline by itself
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-3000:]
    line = [x for x in proc.stdout.splitlines() if x.startswith("RESULT ")][-1]
    got = json.loads(line[len("RESULT "):])
    assert got["attempts"] == [], got["attempts"]
    assert all(n > 0 for n in got["tokenizers"].values()), got["tokenizers"]
    assert got["export_pe"] == 0 and got["export_input_cl100k"] == 0 and got["export_input_wordpiece"] == 0
    assert (tmp_path / "pe.npy").is_file() and (tmp_path / "x_wordpiece.npy").is_file()
    assert got["window_idle"] and got["views_drawn"] >= 1
    assert got["selftest"] == 0, got.get("selftest_lines")


def test_the_blocker_blocks(tmp_path):
    """The harness itself: a real connection attempt is caught and recorded."""
    probe = SCRIPT.split("out, tmp = ")[0] + textwrap.dedent("""
        import urllib.request
        try:
            urllib.request.urlopen("http://example.com", timeout=2)
        except Exception as exc:
            print("caught", type(exc).__name__)
        print("RESULT " + json.dumps(attempts))
    """)
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, HTTP_PROXY=PROXY, http_proxy=PROXY))
    attempts = json.loads(proc.stdout.split("RESULT ")[-1])
    assert attempts, proc.stdout + proc.stderr
