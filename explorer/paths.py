"""Where bundled resources live: inside the installed package, the source tree, or a PyInstaller bundle.

The repository keeps its data in the top-level `resources/` folder; an install puts it inside the
package as `explorer/resources` (setup.py maps it), read with importlib.resources. A source checkout
run without installing, and the frozen program, have the folder beside the code instead.
"""

from __future__ import annotations

import sys
from importlib import resources as importlib_resources
from pathlib import Path


def resource_dir() -> Path:
    """The resources folder (tokenizer files, fonts, translations, scenes, presets)."""
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen) / "resources"
    installed = Path(str(importlib_resources.files("explorer") / "resources"))
    if installed.is_dir():
        return installed
    return Path(__file__).resolve().parent.parent / "resources"   # a source tree or editable install


def resource(*parts: str) -> Path:
    """Path of one bundled file, e.g. resource('fonts', 'x.otf')."""
    return resource_dir().joinpath(*parts)
