"""`pe-explorer render`: headless PNG/SVG of any view or deck; bad input -> exit 2, one line, no file."""

import json
import struct
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from explorer.params import Params
from explorer.commands.render import render_main
from explorer.scenes import make_scene, save_deck, save_scene

SMALL = ["--size", "400x300", "--dpi", "96"]


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def png_pixels(path):
    from PySide6.QtGui import QImage

    image = QImage(str(path)).convertToFormat(QImage.Format.Format_RGB32)
    ptr = image.constBits()
    return np.frombuffer(ptr, np.uint8, image.sizeInBytes()).reshape(image.height(), -1).copy()


@pytest.fixture
def drawn(monkeypatch):
    """Records (view name, the Params its result was computed for, cursor shown) per image."""
    import explorer.ui.export as export

    seen, real = [], export.export_view_image

    def spy(view, path, dpi=96):
        cursor = getattr(view, "cursor_line", None)
        seen.append((view.title, view.result.params,
                     cursor.value() if cursor is not None and cursor.isVisible() else None))
        return real(view, path, dpi)

    monkeypatch.setattr(export, "export_view_image", spy)
    return seen


def test_render_a_view_with_params(qapp, tmp_path, capsys, drawn):
    out = tmp_path / "h.png"
    rc = render_main(["--view", "heatmap", "--d-model", "64", "--max-len", "100", "--base", "500",
                      "--layout", "concat", "--cursor", "7", "-o", str(out),
                      "--size", "500x320", "--dpi", "192"])
    assert rc == 0, capsys.readouterr().err
    assert png_size(out) == (1000, 640)
    assert str(out) in capsys.readouterr().out
    # pair 32 does not exist at d 64 (pairs 0 ... 31): the new width keeps the chosen pairs that do
    assert drawn == [("heatmap", Params(d_model=64, max_len=100, base=500.0, layout="concat",
                                        curve_pairs=(0, 4, 16)), 7.5)]
    pixels = png_pixels(out)
    assert len(np.unique(pixels.reshape(-1, 4)[::97], axis=0)) > 30    # a drawn heatmap


def test_both_languages_render_and_differ(qapp, tmp_path, capsys):
    from explorer.ui.i18n import current_language

    en, zh = tmp_path / "en.png", tmp_path / "zh.png"
    assert render_main(["--view", "curves", "-o", str(en), "--lang", "en"] + SMALL) == 0
    assert render_main(["--view", "curves", "-o", str(zh), "--lang", "zh_CN"] + SMALL) == 0
    assert png_size(en) == png_size(zh) == (400, 300)
    assert not np.array_equal(png_pixels(en), png_pixels(zh))        # the labels changed
    assert current_language() == "en"                                 # translator restored


def test_render_a_scene_file_with_an_override(qapp, tmp_path, capsys, drawn):
    scene = make_scene(Params(d_model=32, max_len=64, metric="dot"), "similarity", 5)
    path = save_scene(tmp_path / "s.json", scene)
    out = tmp_path / "a.png"
    assert render_main(["--scene", str(path), "--d-model", "8", "-o", str(out)] + SMALL) == 0
    assert png_size(out) == (400, 300)
    # d 8 has pairs 0 ... 3: of the scene's 0, 4, 16, 32 only 0 is kept
    assert drawn == [("similarity", Params(d_model=8, max_len=64, metric="dot", curve_pairs=(0,)), None)]


def test_render_a_deck_into_a_folder_without_carrying_state(qapp, tmp_path, capsys, drawn):
    deck = [make_scene(Params(d_model=16, max_len=40), "heatmap", 3),
            make_scene(Params(d_model=16, max_len=40, curve_pairs=(0, 2)), "curves"),
            make_scene(Params(d_model=16, max_len=30), "heatmap")]
    path = save_deck(tmp_path / "d.json", deck)
    out = tmp_path / "slides"
    assert render_main(["--deck", str(path), "-o", str(out), "--format", "svg"] + SMALL) == 0
    assert sorted(p.name for p in out.iterdir()) == ["01_heatmap.svg", "02_curves.svg",
                                                     "03_heatmap.svg"]
    assert all(ET.parse(p).getroot().tag.endswith("svg") for p in out.iterdir())
    assert drawn == [("heatmap", deck[0].params, 3.5), ("curves", deck[1].params, None),
                     ("heatmap", deck[2].params, None)]      # scene 1's cursor is not kept


def test_renders_free_their_hidden_window_and_replaced_views(qapp, tmp_path, capsys):
    """No event loop runs in a render, so deleteLater alone deleted nothing: each render kept its
    hidden window (~1,400 widgets) and a deck every view it replaced, until the process ended."""
    from PySide6.QtWidgets import QApplication

    deck = [make_scene(Params(d_model=16, max_len=40), name) for name in ("heatmap", "curves", "similarity",
                                                                          "heatmap", "curves", "similarity")]
    path = save_deck(tmp_path / "d.json", deck)
    counts = []
    for run in range(3):
        assert render_main(["--deck", str(path), "-o", str(tmp_path / f"out{run}")] + SMALL) == 0
        counts.append(len(QApplication.allWidgets()))
    assert counts[2] - counts[1] < 600, counts       # a kept window alone is ~1,400 widgets


def test_a_deck_that_fails_partway_leaves_no_slides_and_keeps_the_old_ones(qapp, tmp_path, capsys,
                                                                           monkeypatch):
    """Slides are drawn into a staging folder and moved into place at the end: a failure on slide 2
    left slide 1 behind (beside, or instead of, an earlier run's), or a new empty folder."""
    import explorer.ui.export as export

    deck = [make_scene(Params(d_model=16, max_len=40), "heatmap"),
            make_scene(Params(d_model=16, max_len=40), "curves")]
    path = save_deck(tmp_path / "d.json", deck)
    real, calls = export.export_view_image, []

    def fails_second(view, out, dpi=96):
        calls.append(out)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(view, out, dpi)

    monkeypatch.setattr(export, "export_view_image", fails_second)
    new = tmp_path / "new"
    assert render_main(["--deck", str(path), "-o", str(new)] + SMALL) == 2     # the system's words, exit 2
    assert capsys.readouterr().err.strip() == "pe-explorer render: error: No space left on device"
    assert len(calls) == 2 and not new.exists()
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "01_heatmap.png").write_bytes(b"an earlier run's slide")
    calls.clear()
    assert render_main(["--deck", str(path), "-o", str(kept)] + SMALL) == 2
    assert sorted(p.name for p in kept.iterdir()) == ["01_heatmap.png"]
    assert (kept / "01_heatmap.png").read_bytes() == b"an earlier run's slide"
    monkeypatch.setattr(export, "export_view_image", real)
    assert render_main(["--deck", str(path), "-o", str(kept)] + SMALL) == 0
    assert sorted(p.name for p in kept.iterdir()) == ["01_heatmap.png", "02_curves.png"]
    assert png_size(kept / "01_heatmap.png") == (400, 300)


def window_view_names(settings):
    from explorer.ui.main_window import MainWindow

    win = MainWindow(settings=settings)
    try:
        return list(win.views)
    finally:
        win.controller.wait_idle()
        win.deleteLater()


def test_render_the_builtin_deck_in_chinese(qapp, tmp_path, capsys, settings):
    from explorer.scenes import builtin_deck

    names = window_view_names(settings)
    first = {}                          # one scene per view: a fresh window per scene costs ~1 s
    for scene in builtin_deck():
        if scene.view in names:
            first.setdefault(scene.view, scene)
    scenes = list(first.values())
    assert len(scenes) >= 3
    deck = save_deck(tmp_path / "deck.json", scenes)
    out = tmp_path / "lesson"
    assert render_main(["--deck", str(deck), "-o", str(out), "--lang", "zh_CN",
                        "--size", "800x600", "--dpi", "24"]) == 0, capsys.readouterr().err
    files = sorted(out.iterdir())
    assert [f.name.split("_", 1)[1] for f in files] == [f"{s.view}.png" for s in scenes]
    assert all(png_size(p) == (200, 150) for p in files)


def test_every_builtin_deck_view_is_in_the_window(qapp, settings):
    from explorer.scenes import builtin_deck

    names = window_view_names(settings)
    missing = sorted({s.view for s in builtin_deck()} - set(names))
    assert not missing


def _bad_scene(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"version": 1, "params": {"d_model": "big"}}))
    return str(path)


BAD = [   # (argv builder, words in the one error line)
    (lambda t: ["--view", "spiral", "-o", f"{t}/x.png"], "unknown view"),
    (lambda t: ["--view", "heatmap", "--d-model", "0", "-o", f"{t}/x.png"], "d_model"),
    (lambda t: ["--view", "heatmap", "--d-model", "abc", "-o", f"{t}/x.png"], "--d-model"),
    (lambda t: ["--view", "heatmap", "--layout", "spiral", "-o", f"{t}/x.png"], "layout"),
    (lambda t: ["--view", "heatmap", "--metric", "l2", "-o", f"{t}/x.png"], "metric"),
    (lambda t: ["--view", "heatmap", "--cursor", "999", "-o", f"{t}/x.png"], "cursor"),
    (lambda t: ["--scene", f"{t}/none.json", "-o", f"{t}/x.png"], "does not exist"),
    (lambda t: ["--scene", _bad_scene(t), "-o", f"{t}/x.png"], "missing key"),
    (lambda t: ["--view", "heatmap", "-o", f"{t}/x.jpg"], ".png or .svg"),
    (lambda t: ["--view", "heatmap", "-o", f"{t}/nodir/x.png"], "does not exist"),
    (lambda t: ["--view", "heatmap", "-o", f"{t}/x.png", "--size", "big"], "--size"),
    (lambda t: ["--view", "heatmap", "-o", f"{t}/x.png", "--size", "10x10"], "--size"),
    (lambda t: ["--view", "heatmap", "-o", f"{t}/x.png", "--dpi", "5000"], "dpi"),
    (lambda t: ["--view", "heatmap", "-o", f"{t}/x.png", "--lang", "fr"], "--lang"),
    (lambda t: ["-o", f"{t}/x.png"], "--view"),
    (lambda t: ["--view", "heatmap"], "-o"),
    (lambda t: ["--view", "heatmap", "-o", f"{t}/x.png", "--bogus"], "--bogus"),
    (lambda t: ["--deck", f"{t}/none.json", "-o", f"{t}/out"], "does not exist"),
    (lambda t: ["--deck", "builtin", "-o", f"{t}/out", "--format", "gif"], "--format"),
    # a PNG was written under the name while --format said svg
    (lambda t: ["--view", "heatmap", "-o", f"{t}/x.png", "--format", "svg"], "does not match"),
    (lambda t: ["--deck", "builtin", "--scene", "x.json", "-o", f"{t}/out"], "not allowed"),
    # the shipped lesson deck given where one scene goes: said so, with where a deck goes
    (lambda t: ["--scene", _builtin_deck_file(), "-o", f"{t}/x.png"], "is a deck (a list of “scenes”), not one scene"),
]


def _builtin_deck_file() -> str:
    from explorer.paths import resource
    from explorer.scenes import BUILTIN_DECK

    return str(resource(*BUILTIN_DECK))


@pytest.mark.parametrize("argv,words", BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_bad_input_exits_2_with_one_line_and_no_file(qapp, tmp_path, capsys, argv, words):
    rc = render_main(argv(tmp_path))
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert rc == 2, captured
    assert len(lines) == 1 and lines[0].startswith("pe-explorer render: error:"), captured.err
    assert words in lines[0]
    assert "Traceback" not in captured.err + captured.out
    assert not any(p.suffix in (".png", ".svg") for p in tmp_path.rglob("*"))
    assert not (tmp_path / "out").exists()


def test_unwritable_output_folder_exits_2(qapp, tmp_path, capsys, monkeypatch):
    import explorer.commands.render as render

    real = render.os.access
    monkeypatch.setattr(render.os, "access", lambda p, mode: False if mode == render.os.W_OK
                        else real(p, mode))
    rc = render_main(["--view", "heatmap", "-o", str(tmp_path / "x.png")])
    assert rc == 2 and "read-only" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_a_failed_write_exits_2_and_keeps_the_old_image(qapp, tmp_path, capsys, monkeypatch):
    from explorer import fileio

    out = tmp_path / "x.png"
    out.write_bytes(b"old slide")

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fileio.os, "replace", broken_replace)
    rc = render_main(["--view", "curves", "-o", str(out)] + SMALL)
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and "No space left" in err[0]
    assert out.read_bytes() == b"old slide"
    assert [p.name for p in tmp_path.iterdir()] == ["x.png"]


def test_help_exits_0(qapp, capsys):
    assert render_main(["--help"]) == 0
    assert "--deck" in capsys.readouterr().out


def test_render_help_lists_every_view_and_the_choices(capsys):
    """--help names every view of the window and the allowed values of the choice flags."""
    import pytest as _pytest

    from explorer.catalogue import NAMES as VIEW_NAMES
    from explorer.commands.render import build_parser
    from explorer.ui.views.registry import VIEW_CLASSES

    assert tuple(VIEW_CLASSES) == VIEW_NAMES     # the window's tabs are the catalogue's views
    with _pytest.raises(SystemExit):
        build_parser().parse_args(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    for word in (*VIEW_NAMES, "interleaved", "concat", "t2t", "cosine", "dot", "float64",
                 "wordpiece", "char", "zh_CN", "seed of the untrained embedding table"):
        assert word in text, word


def test_a_scene_whose_model_cannot_be_read_is_drawn_with_a_note(qapp, tmp_path, capsys):
    """The view falls back (and says so in the picture); the command said nothing, so a script
    rendering slides could not tell. Now one note on stderr names the reason; the file is written."""
    from dataclasses import replace

    from explorer.state import State

    state = replace(State().with_params(model=str(tmp_path / "no_such_model")), view="qk")
    save_scene(tmp_path / "scene.json", make_scene(state))
    assert render_main(["--scene", str(tmp_path / "scene.json"), "-o", str(tmp_path / "qk.png")] + SMALL) == 0
    err = capsys.readouterr().err
    assert (tmp_path / "qk.png").stat().st_size > 0
    assert err.count("\n") == 1 and "qk.png does not show what was asked" in err and "does not exist" in err
    assert render_main(["--view", "qk", "-o", str(tmp_path / "fine.png")] + SMALL) == 0
    assert capsys.readouterr().err == ""


def test_a_deck_over_a_folder_named_like_a_slide_writes_nothing(qapp, tmp_path, capsys):
    """A folder where a slide goes is found before drawing (it stopped the moves after slide 1 and
    exited 1 with "internal error: IsADirectoryError"; the README says a deck is all or nothing)."""
    out = tmp_path / "out"
    (out / "02_curves.png").mkdir(parents=True)
    deck = [make_scene(Params(max_len=64), "heatmap", 1), make_scene(Params(max_len=64), "curves", 1)]
    save_deck(tmp_path / "deck.json", deck)
    rc = render_main(["--deck", str(tmp_path / "deck.json"), "-o", str(out)])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "02_curves.png exists and is not a file" in err, err
    assert sorted(p.name for p in out.iterdir()) == ["02_curves.png"]

