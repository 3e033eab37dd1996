"""Scenes and decks: versioned JSON snapshots of what a lecturer shows. No Qt here.

Version 2 (written now) holds the whole State: {"version": 2, "params": {...}, "view": name,
"views": {name: {setting: value}}, "cursor": int | null, "colormap": name, "title": {"en", "zh_CN"},
"explain": {"en", "zh_CN"}, "question": {"en", "zh_CN"}}; every key but "version" may be left out, and
params / views name only what differs from the defaults, so a hand-written scene can be three lines. A
scene without "colormap" keeps the window's colour map (a saved scene names it, the default too).
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

from explorer.errors import InputError, json_reason, msg, os_reason, require
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
SCENE_KEYS = {"version", "params", "view", "views", "cursor", "title", "explain", "question", "preset", "colormap"}
V1_KEYS = SCENE_KEYS - {"views", "preset", "colormap"}
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
    colormap_given: bool = True     # False: the file names no colour map, and the window keeps its own (a
    #                                 hand-written scene or a bundled lesson does not override a lecturer's)

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
        if self.colormap_given:            # the default too: opened in a window of another map, it is shown
            out["colormap"] = self.state.colormap
        else:
            out.pop("colormap", None)
        if self.question is not None:
            out["question"] = dict(self.question)
        return out


def _texts(data, key: str, where: str) -> tuple[tuple[str, str], ...]:
    require(isinstance(data, dict), "%1: “%2” must be an object with the keys %3, not %4", where, key,
                                    " and ".join(LANGS), type(data).__name__)
    missing = [lang for lang in LANGS if lang not in data]
    extra = sorted(set(data) - set(LANGS))
    require(not missing, "%1: “%2” lacks the language(s) %3", where, key, ", ".join(missing))
    require(not extra, "%1: “%2” has unknown language(s) %3; allowed: %4", where, key, ", ".join(extra),
                       ", ".join(LANGS))
    for lang in LANGS:
        text = data[lang]
        require(isinstance(text, str), "%1: “%2.%3” must be text", where, key, lang)
        require(len(text) <= MAX_TEXT, "%1: “%2.%3” has %4 characters; at most %5 are allowed", where, key,
                                       lang, f"{len(text):,}", f"{MAX_TEXT:,}")
    return tuple((lang, data[lang]) for lang in LANGS)


def _short(message: str) -> str:
    """Cut huge numbers (and the whole message) so the message stays one readable line (a message
    left whole keeps its translation)."""
    cut = re.sub(r"[\d,]{30,}", lambda m: m.group()[:14] + "…", message)
    cut = cut if len(cut) <= 300 else cut[:299] + "…"
    return message if cut == message else cut


def _cut(message: str) -> str:
    """At most 300 characters (a message left whole keeps its translation)."""
    return message if len(message) <= 300 else message[:300]


def _version(data: dict, where: str) -> int:
    require("version" in data, "%1: the key “version” is missing", where)
    v = data["version"]
    require(isinstance(v, int) and not isinstance(v, bool),
            _cut(msg("%1: “version” must be a whole number, not %2", where, repr(v))))
    require(v in VERSIONS, _cut(msg("%1: version %2 is not supported; this program reads versions %3", where,
                                    v, " and ".join(map(str, VERSIONS)))))
    return v


def _json_kind(value) -> str:
    """What a parsed JSON value is, in JSON's words ("null", not Python's "NoneType")."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    return {dict: "object", list: "array", str: "string"}.get(type(value), "number")


def scene_from_dict(data, where: str = msg("scene")) -> Scene:
    """Validate a parsed scene (version 1 or 2); InputError naming the bad key (and `where` it is)."""
    require(isinstance(data, dict), "%1 must be a JSON object, not %2", where, _json_kind(data))
    version = _version(data, where)
    require("scenes" not in data, "%1 is a deck (a list of “scenes”), not one scene: "
            "`pe-explorer render --deck` draws a deck, and the window opens either", where)
    if version == 1:
        missing = sorted(V1_REQUIRED - set(data))
        require(not missing, "%1: missing key(s): %2", where, ", ".join(missing))
    extra = sorted(set(data) - (V1_KEYS if version == 1 else SCENE_KEYS))
    require(not extra, _cut(msg("%1: unknown key(s): %2", where, ", ".join(extra))))
    for key in ("params", "views"):
        require(data.get(key) is None or isinstance(data[key], dict),
                "%1: “%2” must be an object", where, key)
    try:
        state = State.from_dict({k: data[k] for k in ("params", "view", "views", "cursor", "preset", "colormap")
                                 if k in data},
                                where)
    except InputError as exc:
        raise InputError(_short(exc.args[0])) from None
    question = data.get("question")
    return Scene(state, _texts(data.get("title", dict(_BLANK)), "title", where),
                 _texts(data.get("explain", dict(_BLANK)), "explain", where),
                 None if question is None else _texts(question, "question", where), "colormap" in data)


def deck_from_dict(data, where: str = msg("deck")) -> list[Scene]:
    """Validate a parsed deck; every scene is checked, the message names its number."""
    require(isinstance(data, dict), "%1 must be a JSON object, not %2", where, _json_kind(data))
    _version(data, where)
    extra = sorted(set(data) - {"version", "scenes"})
    require(not extra, _cut(msg("%1: unknown key(s): %2", where, ", ".join(extra))))
    scenes = data.get("scenes")
    require(isinstance(scenes, list), "%1: “scenes” must be a list of scenes", where)
    require(0 < len(scenes) <= MAX_SCENES,
            "%1: “scenes” must hold 1 to %2 scenes; it has %3", where, MAX_SCENES, len(scenes))
    return [scene_from_dict(s, msg("%1: scene %2", where, i + 1)) for i, s in enumerate(scenes)]


def _no_duplicates(pairs: list) -> dict:
    keys = [k for k, _ in pairs]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    require(not dup, _cut(msg("the key(s) %1 appear twice in one object", ", ".join(map(repr, dup)))))
    return dict(pairs)


def _refuse_constant(name: str):
    raise InputError(msg("%1 is not a number JSON allows", name))


def _parse_float(text: str) -> float:
    value = float(text)
    require(math.isfinite(value), "the number %1 is too large", text[:40])
    return value


def read_json(path: str | os.PathLike, what: str):
    """Parse a JSON file of at most 1 MB; InputError on anything else, never a traceback."""
    p = Path(path)
    try:
        size = p.stat().st_size
        require(p.is_file(), "the %1 %2 is not a file", what, p)
        require(size <= MAX_FILE_BYTES, "the %1 %2 is %3 bytes; a %1 is at most %4 bytes", what, p,
                                        f"{size:,}", f"{MAX_FILE_BYTES:,}")
        raw = p.read_bytes()[:MAX_FILE_BYTES + 1]
    except FileNotFoundError:
        raise InputError(msg("the %1 %2 does not exist", what, p)) from None
    except PermissionError:
        raise InputError(msg("cannot read the %1 %2: permission denied", what, p)) from None
    except OSError as exc:
        raise InputError(msg("cannot read the %1 %2: %3", what, p, os_reason(exc))) from None
    require(len(raw) <= MAX_FILE_BYTES, "the %1 %2 is over %3 bytes", what, p, f"{MAX_FILE_BYTES:,}")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(msg("the %1 %2 is not UTF-8 text (byte %3); a %1 is a JSON file", what, p,
                             exc.start)) from None
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_float=_parse_float,
                          parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:          # json's words in ours ("Expecting value" was English)
        raise InputError(msg("the %1 %2 is not valid JSON: %3", what, p, json_reason(exc))) from None
    except InputError as exc:
        raise InputError(msg("the %1 %2: %3", what, p, exc)) from None
    except (ValueError, RecursionError) as exc:   # an over-long integer literal, deep nesting (json_reason)
        raise InputError(msg("the %1 %2 cannot be read: %3", what, p, json_reason(exc))) from None


def load_scene(path: str | os.PathLike) -> Scene:
    """Read and validate a scene file."""
    return scene_from_dict(read_json(path, msg("scene file")), msg("scene file %1", Path(path).name))


def load_deck(path: str | os.PathLike) -> list[Scene]:
    """Read and validate a deck file (a bare scene file is a one-scene deck)."""
    data = read_json(path, msg("deck file"))
    where = msg("deck file %1", Path(path).name)
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
    require(Path(path).suffix.lower() == ".json", "a scene file must end in .json, not %1", path)
    return atomic_write_bytes(path, scene_bytes(scene))


def save_deck(path: str | os.PathLike, scenes: list[Scene]) -> Path:
    """Write a deck file atomically."""
    require(Path(path).suffix.lower() == ".json", "a deck file must end in .json, not %1", path)
    data = {"version": VERSION, "scenes": [s.to_dict() for s in scenes]}
    return atomic_write_bytes(path, (json.dumps(data, ensure_ascii=False, indent=2) + "\n")
                              .encode("utf-8"))


def make_scene(params: Params | State, view: str | None = None, cursor: int | None = None,
               title: dict | None = None, explain: dict | None = None,
               question: dict | None = None) -> Scene:
    """A validated Scene from Python values: a whole State, or Params + view + cursor (missing texts
    become empty strings). A view or cursor given with a State replaces the State's."""
    blank = {lang: "" for lang in LANGS}
    if isinstance(params, State):
        state = {**params.to_dict(), "colormap": params.colormap}    # a whole State: its colour map too
        state.update({k: v for k, v in (("view", view), ("cursor", cursor)) if v is not None})
    else:
        state = {"params": params.to_dict(), "view": view, "cursor": cursor}
    data = {"version": VERSION, **state,
            "title": {**blank, **(title or {})}, "explain": {**blank, **(explain or {})}}
    if question is not None:
        data["question"] = {**blank, **question}
    return scene_from_dict(data)
