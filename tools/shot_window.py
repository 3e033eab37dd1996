"""What the screenshot tools share: waiting for the window's start-up device probe."""

from __future__ import annotations


def wait_for_device_probe(app, window, timeout_ms: int = 20000) -> None:
    """Process events until the start-up device probe has shown its text ("In use: CPU", not
    "checking…"; the text re-lays out the control panel) or timeout_ms have passed."""
    from PySide6.QtCore import QElapsedTimer, QThread

    shown = []
    window.device_probe.shown.connect(lambda *_: shown.append(1))
    timer = QElapsedTimer()
    timer.start()
    while not shown and timer.elapsed() < timeout_ms:
        app.processEvents()
        QThread.msleep(10)
    app.processEvents()
