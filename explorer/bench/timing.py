"""Repeat-and-summarise helpers for the bench: wall-clock ms, p50 / p95 / min of many runs."""

from __future__ import annotations

import time

import numpy as np


def timed(fn, repeat: int) -> list[float]:
    """ms of each of `repeat` calls fn(i)."""
    times = []
    for i in range(repeat):
        t = time.perf_counter()
        fn(i)
        times.append((time.perf_counter() - t) * 1e3)
    return times


def stats(times: list[float]) -> dict:
    """{"p50_ms", "p95_ms", "min_ms", "n"}: the median is the figure, the minimum the least-loaded."""
    a = np.asarray(times, dtype=np.float64)
    return {"p50_ms": round(float(np.percentile(a, 50)), 2),
            "p95_ms": round(float(np.percentile(a, 95)), 2),
            "min_ms": round(float(a.min()), 2), "n": len(a)}


def cpu_model() -> str:
    """The CPU model from /proc/cpuinfo (Linux), with the core count; else the platform's name."""
    import os
    import platform

    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return f"{line.split(':', 1)[1].strip()} ({os.cpu_count()} cores)"
    except OSError:
        pass
    return f"{platform.processor() or platform.machine()} ({os.cpu_count()} cores)"


def load_average() -> list[float] | None:
    """The 1, 5 and 15 minute load averages (None where the system has none)."""
    import os

    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None
