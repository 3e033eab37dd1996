"""python -m explorer.bench [--json] [--steps N] [--views a,b] [--sizes NxD,...]: a benchmark, not a test.

What it prints (and `--json` carries):
- cpu: the CPU model (/proc/cpuinfo) and core count; load: the load average before and after;
- floor: one empty redraw plus one screen-filling image, grabbed, at the size of a view (p50 ms);
  every view's p50 should stay within 3x of it;
- startup: window visible from process start, fresh processes, offscreen and on X11 (DISPLAY, or a
  private Xvfb when installed): explorer.bench.startup;
- backend: screen-size PE and similarity (closed forms, the fast path, the plain block mean) and full
  size (the textbook path): explorer.bench.backend;
- frames: every view and size, slider change -> rendered pixels in the real window (offscreen), and
  beside each the plain path (full arrays, one thread, setImage/plot with autoLevels, grab):
  explorer.bench.frames and explorer.bench.plain; ratio = plain p50 / view p50 (>= 1: the view wins).
"""

from explorer.allocator import keep_freed_memory
from explorer.blas import single_threaded_blas

single_threaded_blas()     # as the app runs (before numpy loads): see explorer.blas
keep_freed_memory()        # as the app runs: see explorer.allocator

from explorer.bench.report import main

__all__ = ["main"]
