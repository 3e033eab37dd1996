"""A tab bar whose squeezed tabs stay readable: then it scrolls, rather than showing "R…" for RoPE."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QApplication, QTabBar, QTabWidget, QVBoxLayout, QWidget

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
        # 3 px to spare: at exactly the squeezed text's width Qt elides one character more ("Fre…")
        return QSize(min(hint.width(), hint.width() - max(0, saved) + 3), hint.height())


def view_tabs(short: dict[str, str], full: dict[str, str]) -> tuple[QTabWidget, dict[str, QWidget]]:
    """A tab per view, named by its short title (the full one in the tooltip), each holding an empty
    page the view is put in when first shown; (the tab widget, name -> page).

    Every tab stays on screen at 1280 px up to 1.5x without the panel: long names are elided to no
    less than their first characters, their full names in the tooltip and the View menu; past that
    scroll arrows, rather than a tab bar wider than the screen."""
    tabs = QTabWidget()
    tabs.setTabBar(ReadableTabBar())
    pages = {}
    for name, title in short.items():
        page = QWidget()
        QVBoxLayout(page).setContentsMargins(0, 0, 0, 0)
        pages[name] = page
        tabs.addTab(page, title)
        tabs.setTabToolTip(tabs.count() - 1, full[name])
    tabs.setUsesScrollButtons(True)
    tabs.setElideMode(Qt.TextElideMode.ElideRight)
    return tabs, pages


def style_tab_bar(tabs: QTabWidget, scale: float) -> None:
    """Compact tabs at the presentation scale's size (a tab bar with a style sheet ignores setFont,
    so the size is in the sheet). The sheet sizes the bar's own font too: the bar elides its tab
    texts with that font, and without a size of its own it kept the font it was first styled with,
    1.5x in a window rebuilt during F11 (a language switch), so after F11 every Chinese tab read
    "热..." or "..."."""
    size = f"{QApplication.font().pointSizeF():.1f}pt"
    tabs.tabBar().setStyleSheet(f"QTabBar {{ font-size: {size}; }} "
                                f"QTabBar::tab {{ padding: {4 * scale:.0f}px {7 * scale:.0f}px; "
                                f"font-size: {size}; }}")
