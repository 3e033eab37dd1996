"""Memory budget: refuse a request whose arrays would not fit, naming the size."""

from __future__ import annotations

from explorer.errors import InputError, msg

DEFAULT_BUDGET_BYTES = 1 << 30  # 1 GiB


def human_bytes(n: float) -> str:
    """1536 -> '1.5 KiB'; beyond 1024 EiB '> 1024 EiB' (a size of 10^400 bytes had raised OverflowError in
    n / 1024, and its digits are no use to a reader)."""
    if n >= 1 << 70:
        return "> 1024 EiB"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"):
        if n < 1024 or unit == "EiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} EiB"


def check_budget(n_elements: int, itemsize: int, what: str, *args, budget: int = DEFAULT_BUDGET_BYTES,
                 advice: str | None = None) -> None:
    """Raise InputError when n_elements * itemsize exceeds budget; `what` names the array (a template with
    %1 .. %N when args are given, made into a message only when refused); `advice` (a msg) says what to
    make smaller when it is not max_len or d_model."""
    size = int(n_elements) * int(itemsize)
    if size > budget:
        if advice is None:
            raise InputError(
                msg("%1 would need %2, more than the memory budget of %3; choose a smaller max_len or d_model",
                    msg(what, *args), human_bytes(size), human_bytes(budget)))
        raise InputError(msg("%1 would need %2, more than the memory budget of %3; %4",
                             msg(what, *args), human_bytes(size), human_bytes(budget), advice))
