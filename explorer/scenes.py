"""Scenes and decks: versioned JSON snapshots of what a lecturer shows. No Qt here.

Version 2 (written now) holds the whole State: {"version": 2, "params": {...}, "view": name,
"views": {name: {setting: value}}, "cursor": int | null, "title": {"en", "zh_CN"},
"explain": {"en", "zh_CN"}, "question": {"en", "zh_CN"}}; every key but "version" may be left out, and
params / views name only what differs from the defaults, so a hand-written scene can be three lines.
Version 1 files ({"version": 1, "params", "view", "cursor", "title", "explain"[, "question"]}, all
required) still open. A deck is {"version": 1 | 2, "scenes": [scene, ...]}. Files are JSON only (never
pickled), at most 1 MB; anything else is refused with an InputError naming the key.
"""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from explorer.errors import InputError, require
from explorer.fileio import atomic_write_bytes
from explorer.params import Params
from explorer.paths import resource
from explorer.state import State

VERSION = 2
VERSIONS = (1, 2)
MAX_FILE_BYTES = 1_000_000
MAX_TEXT = 4000                 # characters in one title / explanation / question
MAX_SCENES = 500
LANGS = ("en", "zh_CN")
CORE_VIEWS = ("heatmap", "curves", "similarity")
SCENE_KEYS = {"version", "params", "view", "views", "cursor", "title", "explain", "question", "preset"}
V1_KEYS = SCENE_KEYS - {"views", "preset"}
V1_REQUIRED = V1_KEYS - {"question"}
BUILTIN_DECK = ("scenes", "lesson_en_zh.json")
_BLANK = tuple((lang, "") for lang in LANGS)


@dataclass(frozen=True)
class Scene:
    """Everything needed to show one step of a lesson: the whole State and its texts."""

    state: State = field(default_factory=State)
    title: tuple[tuple[str, str], ...] = _BLANK       # ((lang, text), ...) for LANGS
    explain: tuple[tuple[str, str], ...] = _BLANK
    question: tuple[tuple[str, str], ...] | None = None

    @property
    def params(self) -> Params:
        return self.state.params

    @property
    def view(self) -> str:
        return self.state.view

    @property
    def cursor(self) -> int | None:
        return self.state.cursor

    def text(self, field: str, lang: str) -> str:
        """title / explain / question in `lang` (English when that language is missing)."""
        value = getattr(self, field)
        if value is None:
            return ""
        table = dict(value)
        return table.get(lang) or table.get("en", "")

    def to_dict(self) -> dict:
        out = {"version": VERSION, **self.state.to_dict(), "title": dict(self.title),
               "explain": dict(self.explain)}
        if self.question is not None:
            out["question"] = dict(self.question)
        return out


def _texts(data, key: str, where: str) -> tuple[tuple[str, str], ...]:
    require(isinstance(data, dict), f"{where}: “{key}” must be an object with the keys "
                                    f"{' and '.join(LANGS)}, not {type(data).__name__}")
    missing = [lang for lang in LANGS if lang not in data]
    extra = sorted(set(data) - set(LANGS))
    require(not missing, f"{where}: “{key}” lacks the language(s) {', '.join(missing)}")
    require(not extra, f"{where}: “{key}” has unknown language(s) {', '.join(extra)}; "
                       f"allowed: {', '.join(LANGS)}")
    for lang in LANGS:
        text = data[lang]
        require(isinstance(text, str), f"{where}: “{key}.{lang}” must be text")
        require(len(text) <= MAX_TEXT, f"{where}: “{key}.{lang}” has {len(text):,} characters; "
                                       f"at most {MAX_TEXT:,} are allowed")
    return tuple((lang, data[lang]) for lang in LANGS)


def _short(message: str) -> str:
    """Cut huge numbers (and the whole message) so the message stays one readable line."""
    message = re.sub(r"[\d,]{30,}", lambda m: m.group()[:14] + "…", message)
    return message if len(message) <= 300 else message[:299] + "…"


def _version(data: dict, where: str) -> int:
    require("version" in data, f"{where}: the key “version” is missing")
    v = data["version"]
    require(isinstance(v, int) and not isinstance(v, bool),
            f"{where}: “version” must be a whole number, not {v!r}"[:300])
    require(v in VERSIONS, f"{where}: version {v} is not supported; this program reads "
                           f"versions {' and '.join(map(str, VERSIONS))}"[:300])
    return v


def scene_from_dict(data, where: str = "scene") -> Scene:
    """Validate a parsed scene (version 1 or 2); InputError naming the bad key (and `where` it is)."""
    require(isinstance(data, dict), f"{where} must be a JSON object, not {type(data).__name__}")
    version = _version(data, where)
    if version == 1:
        missing = sorted(V1_REQUIRED - set(data))
        require(not missing, f"{where}: missing key(s): {', '.join(missing)}")
    extra = sorted(set(data) - (V1_KEYS if version == 1 else SCENE_KEYS))
    require(not extra, f"{where}: unknown key(s): {', '.join(extra)}"[:300])
    for key in ("params", "views"):
        require(data.get(key) is None or isinstance(data[key], dict),
                f"{where}: “{key}” must be an object")
    try:
        state = State.from_dict({k: data[k] for k in ("params", "view", "views", "cursor", "preset")
                                 if k in data},
                                where)
    except InputError as exc:
        raise InputError(_short(str(exc))) from None
    question = data.get("question")
    return Scene(state, _texts(data.get("title", dict(_BLANK)), "title", where),
                 _texts(data.get("explain", dict(_BLANK)), "explain", where),
                 None if question is None else _texts(question, "question", where))


def deck_from_dict(data, where: str = "deck") -> list[Scene]:
    """Validate a parsed deck; every scene is checked, the message names its number."""
    require(isinstance(data, dict), f"{where} must be a JSON object, not {type(data).__name__}")
    _version(data, where)
    extra = sorted(set(data) - {"version", "scenes"})
    require(not extra, f"{where}: unknown key(s): {', '.join(extra)}"[:300])
    scenes = data.get("scenes")
    require(isinstance(scenes, list), f"{where}: “scenes” must be a list of scenes")
    require(0 < len(scenes) <= MAX_SCENES,
            f"{where}: “scenes” must hold 1 to {MAX_SCENES} scenes; it has {len(scenes)}")
    return [scene_from_dict(s, f"{where}: scene {i + 1}") for i, s in enumerate(scenes)]


def _no_duplicates(pairs: list) -> dict:
    keys = [k for k, _ in pairs]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    require(not dup, f"the key(s) {', '.join(map(repr, dup))} appear twice in one object"[:300])
    return dict(pairs)


def _refuse_constant(name: str):
    raise InputError(f"{name} is not a number JSON allows")


def _parse_float(text: str) -> float:
    value = float(text)
    require(math.isfinite(value), f"the number {text[:40]} is too large")
    return value


def read_json(path: str | os.PathLike, what: str):
    """Parse a JSON file of at most 1 MB; InputError on anything else, never a traceback."""
    p = Path(path)
    try:
        size = p.stat().st_size
        require(p.is_file(), f"the {what} {p} is not a file")
        require(size <= MAX_FILE_BYTES, f"the {what} {p} is {size:,} bytes; a {what} is at most "
                                        f"{MAX_FILE_BYTES:,} bytes")
        raw = p.read_bytes()[:MAX_FILE_BYTES + 1]
    except FileNotFoundError:
        raise InputError(f"the {what} {p} does not exist") from None
    except PermissionError:
        raise InputError(f"cannot read the {what} {p}: permission denied") from None
    except OSError as exc:
        raise InputError(f"cannot read the {what} {p}: {exc.strerror or exc}") from None
    require(len(raw) <= MAX_FILE_BYTES, f"the {what} {p} is over {MAX_FILE_BYTES:,} bytes")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"the {what} {p} is not UTF-8 text (byte {exc.start}); "
                         f"a {what} is a JSON file") from None
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_float=_parse_float,
                          parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise InputError(f"the {what} {p} is not valid JSON: {exc.msg} at line {exc.lineno}, "
                         f"column {exc.colno}") from None
    except InputError as exc:
        raise InputError(f"the {what} {p}: {exc}") from None
    except (ValueError, RecursionError) as exc:   # over-long integer literals, deep nesting
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)[:120]
        raise InputError(f"the {what} {p} cannot be read: {reason}") from None


def load_scene(path: str | os.PathLike) -> Scene:
    """Read and validate a scene file."""
    return scene_from_dict(read_json(path, "scene file"), f"scene file {Path(path).name}")


def load_deck(path: str | os.PathLike) -> list[Scene]:
    """Read and validate a deck file (a bare scene file is a one-scene deck)."""
    data = read_json(path, "deck file")
    where = f"deck file {Path(path).name}"
    if isinstance(data, dict) and "scenes" not in data:
        return [scene_from_dict(data, where)]
    return deck_from_dict(data, where)


def builtin_deck() -> list[Scene]:
    """The lesson deck shipped in resources/scenes."""
    return load_deck(resource(*BUILTIN_DECK))


def scene_bytes(scene: Scene) -> bytes:
    return (json.dumps(scene.to_dict(), ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def save_scene(path: str | os.PathLike, scene: Scene) -> Path:
    """Write a scene file atomically (the old file survives a failure)."""
    require(Path(path).suffix.lower() == ".json", f"a scene file must end in .json, not {path!s}")
    return atomic_write_bytes(path, scene_bytes(scene))


def save_deck(path: str | os.PathLike, scenes: list[Scene]) -> Path:
    """Write a deck file atomically."""
    require(Path(path).suffix.lower() == ".json", f"a deck file must end in .json, not {path!s}")
    data = {"version": VERSION, "scenes": [s.to_dict() for s in scenes]}
    return atomic_write_bytes(path, (json.dumps(data, ensure_ascii=False, indent=2) + "\n")
                              .encode("utf-8"))


def make_scene(params: Params | State, view: str | None = None, cursor: int | None = None,
               title: dict | None = None, explain: dict | None = None,
               question: dict | None = None) -> Scene:
    """A validated Scene from Python values: a whole State, or Params + view + cursor (missing texts
    become empty strings)."""
    blank = {lang: "" for lang in LANGS}
    if isinstance(params, State):
        state = params.to_dict()
    else:
        state = {"params": params.to_dict(), "view": view, "cursor": cursor}
    data = {"version": VERSION, **state,
            "title": {**blank, **(title or {})}, "explain": {**blank, **(explain or {})}}
    if question is not None:
        data["question"] = {**blank, **question}
    return scene_from_dict(data)
