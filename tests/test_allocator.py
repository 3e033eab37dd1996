"""explorer.allocator: a freed frame's memory is reused by the next frame, not faulted in again."""

from __future__ import annotations

import subprocess
import sys

import pytest

from explorer.allocator import keep_freed_memory

# one screen-size PE frame at 8192 x 4096 (745 x 819 pixels), twelve times; prints page faults a frame
FRAMES = r"""
import resource, sys
from explorer.allocator import keep_freed_memory
if sys.argv[1] == "keep":
    keep_freed_memory()
from explorer.backend.pe_screen import pe_screen
frame = lambda i: pe_screen(0, 11, 745, 0, 5, 819, 4096, 1e4 + i)
frame(0)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for i in range(12):
    frame(i + 1)
print((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 12)
"""


def _faults_per_frame(mode: str) -> float:
    out = subprocess.run([sys.executable, "-c", FRAMES, mode], capture_output=True, text=True,
                         check=True, timeout=120)
    return float(out.stdout.split()[-1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt: Linux only")
def test_freed_frames_are_not_faulted_in_again():
    kept, default = _faults_per_frame("keep"), _faults_per_frame("default")
    # glibc's own thresholds map ~1,700 pages afresh every frame (4 ms of system time); a frame
    # needs ~1,500 pages in all, so "kept" is a small fraction of that
    assert default > 500, f"the default allocator faulted only {default} pages a frame"
    assert kept < 200, f"{kept} page faults a frame with the thresholds fixed"   # ~50: new cache entries


def test_elsewhere_it_does_nothing(monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    assert keep_freed_memory() is False
