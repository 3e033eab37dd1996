"""Where bundled resources live: the source tree, an installed wheel, or a PyInstaller bundle."""

from __future__ import annotations

import sys
from pathlib import Path


def resource_dir() -> Path:
    """The `resources/` folder (tokenizer files, fonts, translations, scenes)."""
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen) / "resources"
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "resources", here / "resources"):
        if candidate.is_dir():
            return candidate
    return here.parent / "resources"


def resource(*parts: str) -> Path:
    """Path of one bundled file, e.g. resource('fonts', 'x.otf')."""
    return resource_dir().joinpath(*parts)
