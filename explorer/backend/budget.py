"""Memory budget: refuse a request whose arrays would not fit, naming the size."""

from __future__ import annotations

from explorer.errors import InputError

DEFAULT_BUDGET_BYTES = 1 << 30  # 1 GiB


def human_bytes(n: float) -> str:
    """1536 -> '1.5 KiB'."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} PiB"


def check_budget(n_elements: int, itemsize: int, what: str,
                 budget: int = DEFAULT_BUDGET_BYTES) -> None:
    """Raise InputError when n_elements * itemsize exceeds budget."""
    size = int(n_elements) * int(itemsize)
    if size > budget:
        raise InputError(
            f"{what} would need {human_bytes(size)}, more than the memory budget of "
            f"{human_bytes(budget)}; choose a smaller max_len or d_model")
