"""Build the bundled CJK font: a subset of Noto Sans CJK SC (SIL OFL 1.1).

Build-time only (needs fontTools: ``pip install fonttools``; the app never imports it).

Source: Debian's ``fonts-noto-cjk`` package (upstream googlefonts/noto-cjk, version 2.004)::

    apt-get download fonts-noto-cjk && dpkg -x fonts-noto-cjk_*.deb /tmp/noto
    python tools/subset_font.py --source /tmp/noto/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc

Kept: ASCII, Latin-1, Greek, general punctuation, arrows and maths operators, CJK punctuation,
full-width forms, GB2312 level 1 (3,755 most common Simplified Chinese characters) and every CJK
character found in resources/ (translations, scenes), explorer/ (source) and the seeds.
The family is renamed (a modified OFL font should not pose as the original).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "fonts" / "NotoSansSC-PESubset-Regular.otf"
FAMILY = "Noto Sans SC PE Subset"
SOURCE_FAMILY = "Noto Sans CJK SC"
SEEDS = ROOT.parent / "shared" / "seeds"

RANGES = [  # (first, last) inclusive code points kept regardless of use
    (0x0020, 0x007E), (0x00A0, 0x00FF),  # ASCII, Latin-1
    (0x0391, 0x03C9),  # Greek (θ, π, ω in formulas)
    (0x2000, 0x206F), (0x2070, 0x209F),  # general punctuation, super/subscripts
    (0x2100, 0x214F), (0x2190, 0x21FF), (0x2200, 0x22FF),  # letterlike, arrows, maths
    (0x2460, 0x24FF), (0x2500, 0x257F), (0x25A0, 0x25FF),  # enclosed, box, shapes
    (0x3000, 0x303F), (0xFF00, 0xFFEF),  # CJK punctuation, full-width forms
]
TEXT_SUFFIXES = {".ts", ".json", ".txt", ".py", ".md", ".html"}
CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def gb2312_level1() -> set[str]:
    """The 3,755 level-1 hanzi of GB2312 (rows 0xB0..0xD7, the last row ends at 0xF9)."""
    chars = set()
    for hi in range(0xB0, 0xD8):
        for lo in range(0xA1, 0xFF):
            if hi == 0xD7 and lo > 0xF9:
                break
            chars.add(bytes([hi, lo]).decode("gb2312"))
    return chars


def used_chars(folders: list[Path]) -> set[str]:
    """Every CJK character in the text files under the given folders."""
    found: set[str] = set()
    for folder in folders:
        if not folder.exists():
            continue
        files = [folder] if folder.is_file() else folder.rglob("*")
        for path in files:
            if path.is_file() and path.suffix in TEXT_SUFFIXES:
                found.update(CJK.findall(path.read_text(encoding="utf-8", errors="ignore")))
    return found


def wanted_text(extra: list[Path]) -> str:
    """All characters the subset must contain."""
    chars = {chr(c) for lo, hi in RANGES for c in range(lo, hi + 1)}
    chars |= gb2312_level1()
    chars |= used_chars([ROOT / "resources", ROOT / "explorer", SEEDS, *extra])
    return "".join(sorted(chars))


def load_source(path: Path):
    """The SC face from a .ttc collection, or a single .otf."""
    from fontTools.ttLib import TTCollection, TTFont

    if path.suffix.lower() != ".ttc":
        return TTFont(path)
    for font in TTCollection(path).fonts:
        if font["name"].getDebugName(1) == SOURCE_FAMILY:
            return font
    raise SystemExit(f"{path}: no face named {SOURCE_FAMILY!r}")


def rename(font) -> None:
    """Give the subset its own family name (OFL: modified versions are renamed)."""
    table = font["name"]
    version = table.getDebugName(5) or ""
    names = {1: FAMILY, 3: f"{FAMILY};{version.split(';')[0]}", 4: FAMILY,
             6: FAMILY.replace(" ", "") + "-Regular", 16: FAMILY, 17: "Regular"}
    for rec in list(table.names):
        if rec.nameID in names:
            table.setName(names[rec.nameID], rec.nameID, rec.platformID, rec.platEncID, rec.langID)
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [names[6]]
        top = cff.topDictIndex[0]
        top.FullName = FAMILY
        top.FamilyName = FAMILY


def main(argv: list[str] | None = None) -> int:
    from fontTools import subset

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=Path, required=True, help="NotoSansCJK-Regular.ttc or an SC .otf")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--extra", type=Path, action="append", default=[], help="more text to cover")
    args = ap.parse_args(argv)

    font = load_source(args.source)
    font.recalcTimestamp = False  # same input, same bytes
    text = wanted_text(args.extra)
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = True
    sub = subset.Subsetter(options)
    sub.populate(text=text)
    sub.subset(font)
    rename(font)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    font.save(args.out)
    cmap = font.getBestCmap()
    size = args.out.stat().st_size
    print(f"{args.out}: {len(cmap)} code points, {size / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
