"""Regenerate the Chinese translation files from the source.

    python tools/translations.py           # lupdate -> merge resources/i18n/zh_CN.json -> lrelease
    python tools/translations.py --stub    # also add "" entries to zh_CN.json for new strings
    python tools/translations.py --check   # exit 1 listing untranslated strings, bad placeholders,
                                           # or a committed .ts/.qm that is out of date

Translations live in resources/i18n/zh_CN.json (context -> English source -> Chinese), the reviewable
source of truth; the .ts is generated from it and the code, the .qm compiled from the .ts.
Sources: every explorer/**/*.py (``self.tr``, ``QCoreApplication.translate``, ``QT_TRANSLATE_NOOP``);
the backend's refusals go into context "Errors": the literal template of every ``msg(...)``, and the
literal message of every ``require(ok, ...)``, ``InputError(...)`` and ``check_budget(n, size, ...)``
(see explorer/errors.py).
``--english`` lists the refusals still written as f-strings (shown in English in every language).
A string with a disambiguation comment is keyed "source ## comment". Strings equal (ignoring case) to
a "Glossary" entry take its translation unless their own context gives one.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "resources" / "i18n"
LANG = "zh_CN"
TS = I18N / f"pe_explorer_{LANG}.ts"
QM = I18N / f"pe_explorer_{LANG}.qm"
JSON = I18N / f"{LANG}.json"
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\d+|%n")


def qt_tool(name: str) -> str:
    """Path of pyside6-<name> (PySide6-Essentials ships lupdate and lrelease)."""
    candidates = [Path(sys.executable).parent / f"pyside6-{name}", shutil.which(f"pyside6-{name}")]
    try:
        import PySide6

        candidates.append(Path(PySide6.__file__).parent / name)
    except ImportError:
        pass
    for cand in candidates:
        if cand and Path(cand).is_file():
            return str(cand)
    raise SystemExit(f"pyside6-{name} not found: install PySide6-Essentials")


def sources() -> list[Path]:
    return sorted(p for p in (ROOT / "explorer").rglob("*.py") if "__pycache__" not in p.parts)


def extract(out_ts: Path) -> None:
    """Run lupdate on the source into a fresh .ts (no old translations, no locations)."""
    files = [str(p.relative_to(ROOT)) for p in sources()]
    cmd = [qt_tool("lupdate"), "-silent", "-no-obsolete", "-locations", "none",
           "-source-language", "en", "-target-language", LANG, *files, "-ts", str(out_ts)]
    subprocess.run(cmd, cwd=ROOT, check=True)


ERRORS = "Errors"
MESSAGE_CALLS = {"msg": 0, "require": 1, "InputError": 0,   # function -> index of its message argument
                 "check_budget": 2}


def _message_args(tree: ast.AST):
    """The message argument of each msg/require/InputError call in `tree`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            index = MESSAGE_CALLS.get(name)
            if index is not None and len(node.args) > index:
                yield node.args[index]


def error_messages() -> tuple[list[str], list[str]]:
    """(literal refusal templates in source order, "file:line" of refusals written as f-strings)."""
    found, english = {}, []
    for path in sources():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for arg in _message_args(tree):
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.setdefault(arg.value, None)
            elif isinstance(arg, ast.JoinedStr):
                english.append(f"{path.relative_to(ROOT)}:{arg.lineno}")
    return list(found), sorted(english, key=lambda s: (s.split(":")[0], int(s.split(":")[1])))


def add_error_context(ts_path: Path) -> None:
    """Append the refusal templates to the .ts lupdate wrote, as context "Errors"."""
    tree = ET.parse(ts_path)
    root = tree.getroot()
    context = next((c for c in root.iter("context") if c.findtext("name") == ERRORS), None)
    if context is None:
        context = ET.Element("context")
        ET.SubElement(context, "name").text = ERRORS
        names = [c.findtext("name") or "" for c in root.findall("context")]
        root.insert(sum(n < ERRORS for n in names), context)
    have = {m.findtext("source") for m in context.iter("message")}
    for text in sorted(error_messages()[0]):          # sorted: moving code leaves the .ts alone
        if text not in have:
            message = ET.SubElement(context, "message")
            ET.SubElement(message, "source").text = text
            ET.SubElement(message, "translation").set("type", "unfinished")
    tree.write(ts_path, encoding="utf-8", xml_declaration=True)


def key_of(message: ET.Element) -> str:
    source = message.findtext("source") or ""
    comment = message.findtext("comment")
    return f"{source} ## {comment}" if comment else source


def merge(ts_path: Path, table: dict) -> tuple[list, list[str], set]:
    """Fill the .ts from ``table``; return (untranslated, placeholder errors, keys seen)."""
    glossary = {k.lower(): v for k, v in table.get("Glossary", {}).items() if v}
    tree = ET.parse(ts_path)
    missing, bad, seen = [], [], set()
    for context in tree.getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            key, source = key_of(message), message.findtext("source") or ""
            seen.add((name, key))
            text = table.get(name, {}).get(key) or glossary.get(key.lower(), "")
            node = message.find("translation")
            node.attrib.pop("type", None)
            for child in list(node):
                node.remove(child)
            if not text:
                node.set("type", "unfinished")
                node.text = None
                missing.append((name, key))
                continue
            if sorted(PLACEHOLDER.findall(source)) != sorted(PLACEHOLDER.findall(text)):
                bad.append(f"{name}: {key!r} -> {text!r} (placeholders differ)")
            if message.get("numerus") == "yes":
                ET.SubElement(node, "numerusform").text = text
                node.text = None
            else:
                node.text = text
    ET.indent(tree, space="    ")
    body = ET.tostring(tree.getroot(), encoding="unicode")
    ts_path.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n",
                       encoding="utf-8")
    return missing, bad, seen


def compile_qm(ts_path: Path, qm_path: Path) -> None:
    subprocess.run([qt_tool("lrelease"), "-silent", "-nounfinished", str(ts_path), "-qm", str(qm_path)],
                   check=True)


def load_table(path: Path = JSON) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def build(work: Path, table: dict) -> tuple[Path, Path, list[str], list[str], set]:
    """Extract, merge and compile into ``work``; returns (ts, qm, missing, bad, seen)."""
    ts, qm = work / TS.name, work / QM.name
    extract(ts)
    add_error_context(ts)
    missing, bad, seen = merge(ts, table)
    compile_qm(ts, qm)
    return ts, qm, missing, bad, seen


def stale_entries(table: dict, seen: set) -> list[str]:
    """Translations whose source string no longer exists (Glossary entries are kept regardless)."""
    return [f"{ctx}: {key!r}" for ctx, entries in table.items() if ctx != "Glossary"
            for key in entries if (ctx, key) not in seen]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="fail on untranslated or out-of-date files")
    mode.add_argument("--english", action="store_true", help="list refusals written as f-strings")
    mode.add_argument("--stub", action="store_true", help="add empty entries for new strings to the JSON")
    args = ap.parse_args(argv)

    if args.english:
        english = error_messages()[1]
        print("\n".join(english + [f"{len(english)} refusal(s) only in English (f-strings)"]))
        return 0
    table = load_table()
    with tempfile.TemporaryDirectory() as tmp:
        ts, qm, missing, bad, seen = build(Path(tmp), table)
        for line in stale_entries(table, seen):
            print(f"note: unused translation {line}")
        if args.check:
            problems = [f"untranslated {c}: {k!r}" for c, k in missing] + bad
            if not TS.exists() or TS.read_bytes() != ts.read_bytes():
                problems.append(f"{TS.relative_to(ROOT)} is out of date: run python tools/translations.py")
            if not QM.exists() or QM.read_bytes() != qm.read_bytes():
                problems.append(f"{QM.relative_to(ROOT)} is out of date: run python tools/translations.py")
            for line in problems:
                print(line)
            print(f"{len(seen)} strings, {len(problems)} problem(s)")
            return 1 if problems else 0
        I18N.mkdir(parents=True, exist_ok=True)
        for made, path in ((ts, TS), (qm, QM)):
            # replaced whole, never rewritten in place: a running app or test run has the .qm mapped
            # into memory (QTranslator), and a file truncated under it crashed a test run (SIGSEGV)
            shutil.copyfile(made, path.with_name(path.name + ".new"))
            os.replace(path.with_name(path.name + ".new"), path)
    if args.stub:
        for ctx, key in sorted(missing):
            table.setdefault(ctx, {}).setdefault(key, "")
        JSON.write_text(json.dumps(table, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    for line in [f"{c}: {k!r}" for c, k in missing] + bad:
        print(f"todo: {line}")
    print(f"wrote {TS.relative_to(ROOT)}, {QM.relative_to(ROOT)}: {len(seen)} strings, "
          f"{len(missing)} untranslated, {len(bad)} placeholder problem(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
