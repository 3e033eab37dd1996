"""Choose where full-size tensors are computed: cuda, then mps, then cpu; numpy when torch is absent.

torch is imported lazily (it costs 1-2 s), never at module import.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class DeviceChoice:
    """The device really used and why (shown in the UI)."""

    name: str          # "cuda", "mps", "cpu" (torch) or "numpy" (torch not installed)
    reason: str


def torch_installed() -> bool:
    """True when torch can be imported (without importing it)."""
    try:
        return importlib.util.find_spec("torch") is not None
    except (ImportError, ValueError):   # a broken import hook or a half-removed install
        return False


@lru_cache(maxsize=8)
def choose_device(requested: str = "auto") -> DeviceChoice:
    """Resolve 'auto'/'cpu'/'cuda'/'mps' to a working device, falling back to CPU with a reason."""
    if not torch_installed():
        return DeviceChoice("numpy", "torch is not installed: numpy computes everything on the CPU")
    try:
        import torch
    except Exception as exc:  # a broken install must not stop the app
        return DeviceChoice("numpy", f"torch failed to import ({exc}); using numpy on the CPU")
    if requested == "cpu":
        return DeviceChoice("cpu", "CPU chosen")
    tried = []
    for name in ("cuda", "mps") if requested == "auto" else (requested,):
        ok, why = _probe(torch, name)
        if ok:
            return DeviceChoice(name, f"{name} chosen" if requested != "auto" else f"{name} found")
        tried.append(f"{name}: {why}")
    return DeviceChoice("cpu", "using the CPU (" + "; ".join(tried) + ")")


def _probe(torch, name: str) -> tuple[bool, str]:
    """Can a tiny tensor op run on this device? (False, reason) otherwise."""
    try:
        if name == "cuda" and not torch.cuda.is_available():
            return False, "no CUDA GPU"
        if name == "mps" and not (getattr(torch.backends, "mps", None)
                                  and torch.backends.mps.is_available()):
            return False, "no Apple GPU"
        x = torch.ones(2, device=name)
        float((x + x).sum().cpu())
        return True, ""
    except Exception as exc:  # a GPU that errors falls back to the CPU
        return False, f"failed ({type(exc).__name__}: {exc})"


def to_numpy(x):
    """torch tensor (any device) or array -> numpy array."""
    if hasattr(x, "detach"):
        return x.detach().cpu().numpy()
    return x
