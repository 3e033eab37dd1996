"""The bundled CJK font: register it, make it the fallback for every UI font, check Chinese renders.

Call order at start: create the QApplication, then ``register_fonts()`` and ``apply_ui_font(app)``.
Code that builds its own QFont (plots, code panel) should pass it through ``with_cjk_fallback``.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import (QColor, QFont, QFontDatabase, QFontInfo, QGuiApplication, QImage,
                           QPainter)

from explorer.paths import resource

FONT_DIR = ("fonts",)
FONT_SUFFIXES = (".otf", ".ttf", ".ttc")
SAMPLE = "位置编码"
NO_GLYPH = ("\ue000", "\U0010ffff")  # private use / noncharacter: what a missing glyph looks like

_families: list[str] | None = None
_problem: str | None = None


def font_files() -> list:
    """Bundled font files under resources/fonts (sorted)."""
    folder = resource(*FONT_DIR)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in FONT_SUFFIXES)


def register_fonts() -> list[str]:
    """Register the bundled fonts with Qt once; return their family names ([] if none could be)."""
    global _families, _problem
    if _families is not None:
        return list(_families)
    if QGuiApplication.instance() is None:
        _problem = "no QGuiApplication yet: create the application before registering fonts"
        return []
    files = font_files()
    families: list[str] = []
    problems: list[str] = []
    for path in files:
        font_id = QFontDatabase.addApplicationFont(str(path))
        if font_id < 0:
            problems.append(f"Qt could not load the font file {path}")
            continue
        families += [f for f in QFontDatabase.applicationFontFamilies(font_id) if f not in families]
    if not files:
        problems.append(f"no font file (*.otf, *.ttf) in {resource(*FONT_DIR)}")
    _problem = "; ".join(problems) or None
    _families = families
    return list(families)


def font_problem() -> str | None:
    """Why registration found nothing (or partly failed); None when all is well."""
    return _problem


def cjk_family() -> str | None:
    """The bundled family that covers Simplified Chinese, or None."""
    for family in register_fonts():
        font = QFont(family)
        font.setStyleStrategy(QFont.StyleStrategy.NoFontMerging)
        if all(_has_glyph(font, ch) for ch in SAMPLE):
            return family
    return None


def _has_glyph(font: QFont, ch: str) -> bool:
    from PySide6.QtGui import QFontMetrics

    return QFontMetrics(font).inFontUcs4(ord(ch))


def with_cjk_fallback(font: QFont) -> QFont:
    """A copy of ``font`` whose family list ends with the bundled CJK family."""
    out = QFont(font)
    cjk = cjk_family()
    families = list(font.families()) or [font.family()]
    if cjk and cjk not in families:
        families.append(cjk)
    out.setFamilies(families)
    return out


def apply_ui_font(app: QGuiApplication, point_size: float | None = None) -> QFont:
    """Set the application font: the system sans first, the bundled CJK font as fallback."""
    register_fonts()
    base = QFont(app.font())
    if point_size is not None:
        base.setPointSizeF(float(point_size))
    font = with_cjk_fallback(base)
    cjk = cjk_family()
    if cjk:  # fonts made by name elsewhere (QFont("DejaVu Sans")) fall back to it too
        for family in {base.family(), "Sans Serif", "Monospace", "monospace", "sans-serif"}:
            if cjk.lower() not in [f.lower() for f in QFont.substitutes(family)]:
                QFont.insertSubstitution(family, cjk)
    if cjk and QFontInfo(font).family() == cjk:
        # the generic "Sans Serif" resolved to the CJK subset itself, whose "·", "‖", "×", "√" are
        # full-width (PE(p) · PE(q) spread out, ‖x‖ as grey bars): a Latin family goes first
        latin = latin_family()
        if latin:
            font.setFamilies([latin, *font.families()])
    app.setFont(font)
    return font


LATIN_FAMILIES = ("DejaVu Sans", "Noto Sans", "Liberation Sans", "Cantarell", "Arial", "Helvetica",
                  "Segoe UI")


def latin_family() -> str | None:
    """An installed Latin sans family with proportional maths signs, or None."""
    have = set(QFontDatabase.families())
    return next((f for f in LATIN_FAMILIES if f in have), None)


def _render(font: QFont, ch: str, size: int = 64) -> np.ndarray:
    """One character drawn black on white; returns grey levels (size, size), 0 = ink."""
    image = QImage(size, size, QImage.Format.Format_Grayscale8)
    image.fill(QColor(255, 255, 255))
    painter = QPainter(image)
    try:
        painter.setFont(font)
        painter.setPen(QColor(0, 0, 0))
        painter.drawText(image.rect(), Qt.AlignmentFlag.AlignCenter, ch)
    finally:
        painter.end()
    stride = image.bytesPerLine()
    data = np.frombuffer(image.constBits(), dtype=np.uint8, count=stride * size)
    return data.reshape(size, stride)[:, :size].copy()  # (size, size)


def chinese_renders(family: str | QFont | None = None, text: str = SAMPLE) -> tuple[bool, str]:
    """Draw ``text`` offscreen and check each character got a real glyph (ink, distinct, not tofu).

    With a family name the check is strict: only that family, no fallback to other fonts.
    Without it, the application font (and Qt's fallback) is used: what the user sees.
    A QFont is used as given.
    """
    if QGuiApplication.instance() is None:
        return False, "no QGuiApplication: cannot render text"
    if isinstance(family, QFont):
        font = QFont(family)
        who = "the font " + "/".join(font.families() or [font.family()])
    elif family is None:
        font = QFont(QGuiApplication.font())
        who = "the application font " + "/".join(font.families() or [font.family()])
    else:
        font = QFont(family)
        font.setStyleStrategy(QFont.StyleStrategy.NoFontMerging)
        who = f"font family {family!r}"
    font.setPixelSize(40)
    missing = [_render(font, ch) for ch in NO_GLYPH]  # each (64, 64)
    glyphs = [_render(font, ch) for ch in text]
    for ch, img in zip(text, glyphs):
        ink = int((img < 128).sum())
        if ink < 20:
            return False, f"{ch!r} drew no ink with {who} (empty glyph)"
        if any(np.array_equal(img, m) for m in missing):
            return False, f"{ch!r} drew the missing-glyph box with {who} (tofu)"
    for i in range(len(glyphs)):
        for j in range(i + 1, len(glyphs)):
            if np.array_equal(glyphs[i], glyphs[j]):
                return False, f"{text[i]!r} and {text[j]!r} drew the same image with {who} (tofu)"
    return True, f"{text!r} renders with {who}"
