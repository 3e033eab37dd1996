"""A tab bar whose squeezed tabs stay readable: then it scrolls, rather than showing "R…" for RoPE."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QTabBar

KEPT_CHARACTERS = 4     # a squeezed tab keeps this many characters + "…" ("Simi…", "真实 R…")
WHOLE_UP_TO = 6         # names this short never shrink ("RoPE", "ALiBi", "Tokens", "热力图")


def squeezed_text(text: str) -> str:
    """What a tab may shrink to: the whole name when short, else its first characters and "…"."""
    return text if len(text) <= WHOLE_UP_TO else text[:KEPT_CHARACTERS].rstrip() + "…"


class ReadableTabBar(QTabBar):
    """Qt squeezes elided tabs to two characters and "…" ("R…", "A…" at 1.5x with the panel shown);
    here a tab gives up no more than squeezed_text allows, and scroll arrows take over past that."""

    def minimumTabSizeHint(self, index: int) -> QSize:  # noqa: N802 (Qt's name)
        hint = self.tabSizeHint(index)                  # the whole name, with padding
        text = self.tabText(index)
        metrics = self.fontMetrics()
        saved = metrics.horizontalAdvance(text) - metrics.horizontalAdvance(squeezed_text(text))
        return QSize(hint.width() - max(0, saved), hint.height())
