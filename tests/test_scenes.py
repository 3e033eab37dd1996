"""Scenes and decks: round trips, the built-in lesson deck, and every kind of bad file refused."""

import json
import os
import pickle
import re

import pytest

from explorer import fileio
from explorer.errors import InputError
from explorer.params import Params
from explorer.scenes import (CORE_VIEWS, LANGS, MAX_FILE_BYTES, builtin_deck, load_deck,
                             load_scene, make_scene, save_deck, save_scene, scene_from_dict)

CJK = re.compile(r"[\u4e00-\u9fff]")


def good() -> dict:
    return {"version": 1, "params": Params(d_model=64, max_len=50).to_dict(), "view": "curves",
            "cursor": 7, "title": {"en": "Pairs", "zh_CN": "频率对"},
            "explain": {"en": "Fast and slow", "zh_CN": "快与慢"}}


def write(tmp_path, content, name="s.json"):
    path = tmp_path / name
    if isinstance(content, (dict, list)):
        content = json.dumps(content, ensure_ascii=False)
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def test_round_trip_keeps_every_field(tmp_path):
    scene = make_scene(Params(d_model=32, max_len=77, base=500.0, layout="concat",
                              metric="dot", text="谢谢所有的鱼", tokenizer="cl100k",
                              curve_pairs=(1, 3)),
                       "similarity", 12, {"en": "T", "zh_CN": "标题"},
                       {"en": "E", "zh_CN": "解释"}, {"en": "Q?", "zh_CN": "问？"})
    path = save_scene(tmp_path / "a.json", scene)
    raw = path.read_bytes()
    assert "谢谢所有的鱼".encode() in raw          # readable UTF-8, not \u escapes
    back = load_scene(path)
    assert back == scene
    assert back.params.curve_pairs == (1, 3) and back.question is not None
    assert back.text("title", "zh_CN") == "标题" and back.text("question", "en") == "Q?"
    assert json.loads(raw)["version"] == 2


def test_scene_without_question_and_null_cursor(tmp_path):
    data = good() | {"cursor": None}
    scene = load_scene(write(tmp_path, data))
    assert scene.cursor is None and scene.question is None
    assert scene.text("question", "en") == ""
    out = scene.to_dict()              # written as version 2: only what differs from the defaults
    assert out["version"] == 2 and out["params"] == {"d_model": 64, "max_len": 50}
    assert out["cursor"] is None and "question" not in out and scene_from_dict(out) == scene


def test_deck_round_trip_and_bare_scene_as_deck(tmp_path):
    a = scene_from_dict(good())
    b = scene_from_dict(good() | {"view": "heatmap", "cursor": None})
    assert load_deck(save_deck(tmp_path / "d.json", [a, b])) == [a, b]
    assert load_deck(write(tmp_path, good())) == [a]


def _big_int_file():
    return '{"version": 1, "params": {"d_model": ' + "9" * 5000 + "}}"


BAD = [   # (file content, words the message must contain)
    (b"\x80\x81\xfe\xff" * 50, "not UTF-8"),
    (bytes(range(256)) * 4, "not UTF-8"),
    (pickle.dumps({"version": 1}), "not UTF-8"),
    ("", "not valid JSON"),
    ("{'version': 1}", "not valid JSON"),
    ("[1, 2, 3]", "JSON object, not array"),
    ('"just text"', "JSON object"),
    ("[" * 100_000 + "]" * 100_000, "cannot be read: lists or objects are nested too deeply to be read"),
    (_big_int_file(), "cannot be read: it holds a whole number of more than 4,300 digits"),   # not Python's words
    ("null", "must be a JSON object, not null"),                                 # not "NoneType"
    ('"a\x01b"', "inside a text in double quotes at line 1, column 3"),         # ours, not json's "at at line"
    ('{"version": 1, "params": {"base": 1e999}}', "too large"),
    ('{"version": 1, "params": {"base": NaN}}', "NaN"),
    ('{"version": 1, "version": 1}', "'version'"),
    ({k: v for k, v in good().items() if k != "version"}, "version"),
    (good() | {"version": 3}, "version 3"),
    (good() | {"version": "1"}, "version"),
    (good() | {"version": True}, "version"),
    ({k: v for k, v in good().items() if k != "title"}, "title"),
    ({k: v for k, v in good().items() if k != "params"}, "params"),
    (good() | {"colour": "red"}, "colour"),
    (good() | {"view": 3}, "view"),
    (good() | {"view": "../../etc"}, "view"),
    (good() | {"cursor": "7"}, "cursor"),
    (good() | {"cursor": True}, "cursor"),
    (good() | {"cursor": 50}, "cursor"),
    (good() | {"cursor": -1}, "cursor"),
    (good() | {"cursor": 10 ** 30}, "cursor"),
    (good() | {"params": [1, 2]}, "params"),
    (good() | {"params": good()["params"] | {"d_model": "64"}}, "d_model"),
    (good() | {"params": good()["params"] | {"d_model": 10 ** 300}}, "d_model"),
    (good() | {"params": good()["params"] | {"max_len": 64.5}}, "max_len"),
    (good() | {"params": good()["params"] | {"layout": "spiral"}}, "layout"),
    (good() | {"params": good()["params"] | {"warp": 9}}, "warp"),
    (good() | {"params": good()["params"] | {"text": ["a"]}}, "text"),
    (good() | {"params": good()["params"] | {"curve_pairs": "0,1"}}, "curve_pairs"),
    (good() | {"params": good()["params"] | {"curve_pairs": [[0]]}}, "curve pair"),
    (good() | {"title": "hello"}, "title"),
    (good() | {"title": {"en": "x"}}, "zh_CN"),
    (good() | {"title": {"en": "x", "zh_CN": "y", "fr": "z"}}, "fr"),
    (good() | {"explain": {"en": 5, "zh_CN": "y"}}, "explain.en"),
    (good() | {"explain": {"en": "x" * 5000, "zh_CN": "y"}}, "explain.en"),
    (good() | {"question": {"en": "x"}}, "question"),
]


@pytest.mark.parametrize("content,words", BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_bad_scene_file_is_refused_with_a_named_reason(tmp_path, content, words):
    path = write(tmp_path, content)
    with pytest.raises(InputError) as info:
        load_scene(path)
    message = str(info.value)
    assert words in message, message
    assert "Traceback" not in message and len(message) < 400


def test_question_null_means_no_question():
    assert scene_from_dict(good() | {"question": None}) == scene_from_dict(good())
    assert scene_from_dict(good() | {"question": {"en": "?", "zh_CN": "？"}}).question


def test_files_over_one_megabyte_missing_files_and_folders_are_refused(tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_FILE_BYTES + 1))
    with pytest.raises(InputError, match="bytes"):
        load_scene(big)
    with pytest.raises(InputError, match="does not exist"):
        load_scene(tmp_path / "nope.json")
    with pytest.raises(InputError, match="not a file"):
        load_scene(tmp_path)


def test_a_pickle_is_never_unpickled(tmp_path):
    marker = tmp_path / "pwned"

    class Evil:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    with pytest.raises(InputError):
        load_scene(write(tmp_path, pickle.dumps(Evil(), protocol=0), "evil.json"))
    assert not marker.exists()


def test_deck_errors_name_the_scene_number(tmp_path):
    deck = {"version": 1, "scenes": [good(), good(), good() | {"cursor": "x"}]}
    with pytest.raises(InputError, match=r"scene 3: .cursor"):
        load_deck(write(tmp_path, deck))
    for bad, words in (({"version": 1, "scenes": []}, "1 to"),
                       ({"version": 1, "scenes": {}}, "list"),
                       ({"version": 1, "scenes": [good()], "extra": 1}, "extra"),
                       ({"scenes": [good()]}, "version")):
        with pytest.raises(InputError, match=words):
            load_deck(write(tmp_path, bad))


def test_save_scene_is_atomic_old_file_survives_a_failed_write(tmp_path, monkeypatch):
    path = tmp_path / "keep.json"
    old = save_scene(path, scene_from_dict(good())).read_bytes()

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fileio.os, "replace", broken_replace)
    with pytest.raises(InputError, match="No space left"):
        save_scene(path, scene_from_dict(good() | {"view": "heatmap"}))
    assert path.read_bytes() == old
    assert sorted(os.listdir(tmp_path)) == ["keep.json"]      # no temp file left behind


def test_save_scene_refuses_other_suffixes_and_missing_folders(tmp_path):
    scene = scene_from_dict(good())
    with pytest.raises(InputError, match=r"\.json"):
        save_scene(tmp_path / "a.txt", scene)
    with pytest.raises(InputError, match="does not exist"):
        save_scene(tmp_path / "no" / "a.json", scene)


def _known_views() -> set:
    from explorer import catalogue

    assert set(CORE_VIEWS) <= set(catalogue.NAMES)
    return set(catalogue.NAMES)


def test_builtin_deck_follows_the_lesson_in_both_languages():
    deck = builtin_deck()
    assert len(deck) >= 8
    for i, scene in enumerate(deck):
        assert scene.view in _known_views(), (i, scene.view)
        assert scene.params == Params.from_dict(scene.params.to_dict())
        for field in ("title", "explain"):
            en, zh = scene.text(field, "en"), scene.text(field, "zh_CN")
            assert len(en) > 10 if field == "explain" else en, (i, field)
            assert CJK.search(zh), (i, field, zh)
            assert en != zh
        if scene.question is not None:
            assert all(scene.text("question", lang) for lang in LANGS)
    order = ["token ID", "one-hot", "sinusoidal formula", "multi-scale", "rotation",
             "position similarity", "√d_model", "learned positions", "RoPE"]
    text = [(s.text("title", "en") + " " + s.text("explain", "en")) for s in deck]
    where = [next(i for i, t in enumerate(text) if word.lower() in t.lower()) for word in order]
    assert where == sorted(where), dict(zip(order, where))
    assert sum(s.question is not None for s in deck) >= 3


@pytest.mark.parametrize("views, params, words", [
    ({"similarity": {"zoom": [0, 10 ** 400]}}, {}, "zoom must stay within 10,000,000"),
    ({"curves": {"zoom": [0, 10 ** 12]}}, {}, "zoom must stay within 10,000,000"),
    ({"frequencies": {"factor": 10 ** 400}}, {}, "factor must be a finite number"),
    ({"rope": {"base": -10 ** 400}}, {}, "base must be a finite number"),
    ({"check": {"source": "a\x00b.npy"}}, {}, "source must be a file path (one line"),
    ({"check": {"source": "\ud800.npy"}}, {}, "source must be a file path (one line"),
    ({"check": {"source": "x" * 5000 + ".npy"}}, {}, "at most 4,096 characters"),
    ({"check": {"key": "a\x00"}}, {}, "key must be an array's name"),
    ({}, {"model": "a\x00b"}, "model must be a folder, a .gguf file"),
])
def test_version_2_scenes_found_by_fuzzing_are_refused_in_one_line(tmp_path, views, params, words):
    """Found by a helper's fuzz: a 400-digit number in a decimal view field raised OverflowError
    (render: 'internal error', exit 1); a NUL byte or a lone surrogate in a path raised ValueError /
    UnicodeEncodeError when the view read it; a 5,000-character source came back as a 5,000-character
    message; a zoom of 10^400 crashed the drawing."""
    scene = {"version": 2, "view": "heatmap", "views": views}
    if params:
        scene["params"] = params
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scene, ensure_ascii=True))
    with pytest.raises(InputError) as info:
        load_scene(path)
    message = str(info.value)
    assert words in message and "\n" not in message and len(message) < 400, message
