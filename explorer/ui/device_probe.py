"""Find out, off the GUI thread, which device full-size work really uses (importing torch takes
1-2 s, so it happens after the first frame), and say it in the control panel."""

from __future__ import annotations

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from explorer.backend.device import choose_device
from explorer.translations import fill
from explorer.ui.gc_pauses import without_collections


class _Signals(QObject):
    found = Signal(str, str, str)     # (requested, device name, reason)


class _Probe(QRunnable):
    def __init__(self, requested: str, signals: _Signals):
        super().__init__()
        self.requested, self.signals = requested, signals

    @without_collections
    def run(self) -> None:
        choice = choose_device(self.requested)
        try:
            self.signals.found.emit(self.requested, choice.name, choice.reason)
        except RuntimeError:     # the window closed while torch was loading: nobody to tell
            pass


class DeviceProbe(QObject):
    """probe(requested) -> later `shown(text)` with the device in use and why."""

    shown = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._signals = _Signals()
        self._signals.found.connect(self._on_found)
        self.latest = None

    def probe(self, requested: str) -> None:
        self.latest = requested
        QThreadPool.globalInstance().start(_Probe(requested, self._signals))

    def _on_found(self, requested: str, name: str, reason: str) -> None:
        if requested != self.latest:
            return                       # a newer choice is being probed
        label = {"numpy": "numpy (CPU)", "cpu": "CPU", "cuda": "CUDA GPU", "mps": "Apple GPU"}
        self.shown.emit(fill(self.tr("In use: %1. %2"), label.get(name, name), self._why(requested, name, reason)))

    def _why(self, requested: str, name: str, reason: str) -> str:
        """The backend's reason in the UI language; a failure's technical detail stays as it is."""
        if name == "numpy":
            return self.tr("torch is not installed, so numpy computes everything on the CPU.")
        if name == requested:
            return self.tr("Chosen in the Device box.")
        if name != "cpu":
            return self.tr("Found automatically.")
        if "failed" in reason:
            return fill(self.tr("The GPU failed, so the CPU is used: %1"), reason)
        if requested == "auto":
            return self.tr("No CUDA or Apple GPU was found.")
        return fill(self.tr("%1 is not available here, so the CPU is used."), requested.upper())
