"""The one translation table, Qt-free: resources/i18n/<lang>.json (context -> English -> translation).

The same file is compiled into the Qt translator (tools/translations.py -> .ts -> .qm) for widgets
(`self.tr`), and read here for text made outside Qt (the formula panel's text is made on the worker, the
CLI and headless renders have no translator). `fill` puts numbered arguments into a translated text.
"""

from __future__ import annotations

import json
import math
import re
from functools import lru_cache

from explorer.paths import resource

_ARG = re.compile(r"%(\d+)")


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - the name lupdate looks for
    """Mark `text` for translation in `context` (lupdate collects it); returns it unchanged."""
    return text


@lru_cache(maxsize=4)
def _table(lang: str) -> dict:
    path = resource("i18n", f"{lang}.json")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def translate(context: str, text: str, lang: str) -> str:
    """`text` in `lang` (English is the source; a missing entry falls back to the Glossary, then English)."""
    if lang == "en":
        return text
    table = _table(lang)
    return (table.get(context, {}).get(text) or table.get("Glossary", {}).get(text.lower())
            or text)


def list_separator(lang: str) -> str:
    """What separates the items of a list in a line of `lang`: Chinese's "，", else ", "."""
    return "，" if lang.startswith("zh") else ", "


def fill(text: str, *args) -> str:
    """Qt's "%1 … %N" arguments, put in one pass (so an argument containing "%2" is left alone)."""
    return _ARG.sub(lambda m: str(args[int(m.group(1)) - 1]) if 0 < int(m.group(1)) <= len(args)
                    else m.group(0), text)


def number_text(x, digits: int = 4) -> str:
    """`x` to `digits` significant figures; from 10,000 up to 10 million written out whole with
    thousands separators: a wavelength of "54,410 positions" rather than "5.441e+04" (54,437 reads
    "54,440", so a label that moves with a slider changes no more often than "%.4g" did). Beyond 10
    million the zeros would pose as digits ("4,545,000,000"): exponent form."""
    x = float(x)
    if x == 0 or not math.isfinite(x):
        return "0" if x == 0 else f"{x:g}"
    rounded = round(x, digits - 1 - math.floor(math.log10(abs(x))))
    if 1e4 <= abs(rounded) < 1e7:
        return f"{rounded:,.0f}"
    return f"{x:.{digits}g}"


def layer_list(layers, most: int = 4) -> str:
    """The first `most` layer numbers, comma-separated, with "…" when there are more: "3, 7, 11, 15, …"."""
    return ", ".join(str(n) for n in layers[:most]) + (", …" if len(layers) > most else "")
