"""The bench's own pieces: the plain paths compute what the views show, the summaries, start-up.

No timings are asserted: the bench is the measure; these check that it measures the right things.
"""

import os
from pathlib import Path

import numpy as np
import pytest

from explorer.backend.encodings import sinusoidal_pe
from explorer.backend.similarity import similarity_matmul
from explorer.bench import plain
from explorer.bench.report import parse_sizes, ratio_rows
from explorer.bench.timing import cpu_model, stats
from explorer.params import Params

P = Params(max_len=64, d_model=16)


def test_plain_heatmap_is_the_full_table():
    (kind, img), = plain.heatmap(P, None)
    assert kind == "image"
    np.testing.assert_array_equal(img, sinusoidal_pe(64, 16, P.base, P.layout, "float32"))


@pytest.mark.parametrize("metric", ["dot", "cosine"])
def test_plain_similarity_is_the_matmul_and_its_first_row(metric):
    p = P.with_(metric=metric)
    (k1, s), (k2, lines) = plain.similarity(p, None)
    want = similarity_matmul(64, 16, p.base, p.layout, metric, "float64")
    assert (k1, k2) == ("image", "curves")
    np.testing.assert_allclose(s, want, atol=1e-5)
    np.testing.assert_allclose(lines[0][1], want[0], atol=1e-5)


def test_plain_curves_draw_every_chosen_pair_at_every_position():
    p = P.with_(curve_pairs=(0, 3))
    (_, lines), = plain.curves(p, None)
    pe = sinusoidal_pe(64, 16, p.base, p.layout, "float32")
    assert len(lines) == 4 and all(len(x) == 64 for x, _ in lines)
    np.testing.assert_array_equal(lines[0][1], pe[:, 0])          # pair 0 in the first lane
    np.testing.assert_array_equal(lines[2][1], pe[:, 6] - 2.5)    # sin of pair 3, second lane
    np.testing.assert_array_equal(lines[3][1], pe[:, 7] - 2.5)


def test_plain_rope_scores_match_the_backend_profile():
    from explorer.backend import rope

    panels = plain.rope_view(P, None)
    (delta, ones_score), (_, random_score) = panels[3][1]
    np.testing.assert_array_equal(delta, np.arange(-63, 64))
    for kind, got in (("ones", ones_score), ("random", random_score)):
        want_delta, want = rope.score_vs_distance(64, 1e4, 63, kind)  # q(m).k(n), m - n = delta
        np.testing.assert_array_equal(want_delta, delta)
        np.testing.assert_allclose(got, want, atol=2e-4 * np.abs(want).max())


@pytest.mark.parametrize("name", sorted(set(plain.PLAIN) - {"tokens"}))
def test_every_plain_path_gives_finite_full_size_panels(name):
    panels = plain.PLAIN[name](P, None)
    assert panels
    for kind, data, *_ in panels:
        if kind == "image":
            a = np.asarray(data)
            assert a.ndim == 2 and a.size and np.isfinite(a[~np.isnan(a)]).all()
        else:
            assert kind == "curves" and all(len(x) == len(y) and len(x) for x, y in data)


def test_plain_images_are_full_size_up_to_the_caps():
    big = Params(max_len=9000, d_model=8)
    (_, img), _ = plain.similarity(big, None)
    assert img.shape == (plain.MATRIX_CAP, plain.MATRIX_CAP)
    (_, table), = plain.heatmap(big, None)
    assert table.shape == (9000, 8)


def test_ratio_rows_wants_30_for_heatmap_and_similarity_from_8192():
    frames = [{"view": v, "max_len": n, "d_model": 64, "p50_ms": 10.0}
              for v in ("heatmap", "curves") for n in (2048, 8192)]
    plains = [{**f, "p50_ms": 50.0, "kind": "full"} for f in frames]
    rows = ratio_rows(frames, plains, floor_ms=4.0)
    assert [r["wanted"] for r in rows] == [1.0, 30.0, 1.0, 1.0]
    assert all(r["ratio"] == 5.0 and r["floors"] == 2.5 for r in rows)


def test_parse_sizes_and_stats():
    assert parse_sizes("512x512, 8192X4096") == ((512, 512), (8192, 4096))
    assert parse_sizes("512x512,,512x512,") == ((512, 512),)          # as --views: empty parts skipped
    s = stats([5.0, 1.0, 3.0, 2.0, 4.0])
    assert (s["p50_ms"], s["min_ms"], s["n"]) == (3.0, 1.0, 5)
    assert cpu_model().strip()


@pytest.mark.parametrize("argv, words", [
    (["--sizes", "12x"], "'12x' is not max_len x d_model"),
    (["--sizes", "0x512"], "max_len must be between 1 and 10,000,000; got 0"),
    (["--sizes", "512x9000"], "d_model must be between 1 and 8,192; got 9,000"),
    (["--views", "layouts"], "no view layouts; the views are heatmap, curves"),
    (["--views", ","], "no view (empty)"),
])
def test_bad_bench_arguments_are_one_line_and_exit_2_before_measuring(argv, words, capsys):
    from explorer.bench.report import main

    with pytest.raises(SystemExit) as stop:
        main(argv + ["--backend-only", "--no-startup"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
    assert len([ln for ln in err.splitlines() if "error:" in ln]) == 1


def test_startup_child_may_write_bytecode_and_the_first_launch_is_reported_apart(monkeypatch, tmp_path):
    """A machine with PYTHONDONTWRITEBYTECODE would compile the whole project at every timed start;
    a user's Python writes the bytecode once. The first launch is still shown, on its own."""
    from explorer.bench import startup
    from explorer.bench.report import _startup_text

    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    env = startup.child_env("offscreen", str(tmp_path), {"DISPLAY": ":5"})
    assert "PYTHONDONTWRITEBYTECODE" not in env
    assert (env["QT_QPA_PLATFORM"], env["XDG_CONFIG_HOME"], env["DISPLAY"]) == ("offscreen", str(tmp_path), ":5")
    assert env["PYTHONPATH"].split(os.pathsep)[0] == str(Path(startup.__file__).resolve().parents[2])
    times = iter([1900.0, 1100.0, 1300.0, 1200.0])
    monkeypatch.setattr(startup, "measure_once", lambda platform, extra=None: next(times))
    monkeypatch.setattr(startup, "_xvfb", lambda: (None, None))
    rows = startup.startup_rows(repeat=3)
    assert rows["first_launch_ms"] == 1900.0 and rows["offscreen_ms"] == [1100.0, 1300.0, 1200.0]
    assert rows["window_visible_ms"] == 1200.0
    text = _startup_text(rows)
    assert "window visible 1200 ms" in text and "before them" in text and "1900 ms" in text


@pytest.mark.slow
def test_startup_probe_sees_the_real_window_offscreen():
    from explorer.bench.startup import measure_once

    assert measure_once("offscreen") > 0


def test_mirror_draws_what_a_view_shows(qtbot):
    """A view without a plain recipe is mirrored: its own image and curve data, in panel order."""
    from explorer.ui.views.similarity import SimilarityView
    from tests import compute_ns as compute

    view = SimilarityView()
    qtbot.addWidget(view)
    view.show()
    result = compute.similarity(P, compute.Window.full(P, 64, 64))
    view.set_result(result)
    panels = plain.mirror(view)
    kinds = [k for k, *_ in panels]
    assert kinds.count("image") == 1 and "curves" in kinds
    image = next(d for k, d, *_ in panels if k == "image")
    np.testing.assert_array_equal(image, result.image)
    lines = next(d for k, d, *_ in panels if k == "curves" and len(d[0][0]) == len(result.profile_k))
    np.testing.assert_array_equal(lines[0][1], result.profile_f)


def test_views_that_do_not_read_the_base_are_stepped_by_a_control_they_read():
    from explorer import catalogue
    from explorer.bench import frames

    for name, (field, value_of) in frames.OWN_CONTROL.items():
        entry = catalogue.entry(name)
        assert "base" not in entry.reads, name
        assert field in entry.state_type.__dataclass_fields__, (name, field)
        values = {value_of(i) for i in range(40)}
        assert len(values) > 1
        for v in values:                       # every stepped value is one the view accepts
            entry.state_type(**{field: v})
    moved = {e.name for e in catalogue.ENTRIES if "base" in e.reads} | set(frames.OWN_CONTROL)
    assert moved | set(frames.NOT_MOVED) == set(catalogue.NAMES)


def test_a_frames_split_adds_up_from_the_stamps():
    """frame_split turns the controller's stamps and the bench's into the frame's parts; a step that
    started no job (its result was cached) has none."""
    from explorer.bench.frames import frame_split, split_medians

    stamps = {"submit": 10.0002, "job_start": 10.0005, "job_end": 10.0025, "drawn_start": 10.0026,
              "drawn_end": 10.0030}
    got = frame_split(stamps, 10.0, 10.0031, 10.0051)
    want = {"to_job": 0.5, "job": 2.0, "back": 0.1, "set_result": 0.4, "grab": 2.0}
    assert got.keys() == want.keys() and all(abs(got[k] - want[k]) < 1e-6 for k in want)
    assert frame_split(stamps, 10.001, 10.0031, 10.0051) is None        # an older job's stamps
    assert frame_split({"submit": 10.0002}, 10.0, 10.0031, 10.0051) is None
    assert split_medians([None, got, None]) == {k: round(v, 2) for k, v in want.items()}
    assert split_medians([None]) == {}


def test_the_controller_stamps_each_job_in_order(qtbot):
    """Controller.frame_times: submit <= job start <= job end <= drawn start <= drawn end, for the
    job that drew the view (the bench's split reads them)."""
    from explorer.ui.controller import Controller

    class View:
        generation = 0
        drawn = None

        def set_result(self, result):
            self.drawn = result

        def set_cursor(self, pos):
            pass

        def visible_region(self):
            return 0, 64, 0, 16, 64, 16

    view = View()
    c = Controller({"heatmap": view}, P)
    c.set_visible(["heatmap"])
    assert c.wait_idle()
    c.update(base=777.0)
    assert c.wait_idle() and view.drawn.params.base == 777.0
    t = c.frame_times
    order = [t[k] for k in ("submit", "job_start", "job_end", "drawn_start", "drawn_end")]
    assert order == sorted(order) and order[-1] - order[0] < 30.0


def test_sizes_beyond_this_machines_memory_leave_out_the_full_table_and_the_plain_path(monkeypatch):
    """--sizes 10000000x8192 is within the sliders: the bench times the view and leaves out what the
    textbook way cannot allocate (a 153 GiB table) instead of ending in a traceback."""
    from types import SimpleNamespace

    from explorer.bench import frames
    from explorer.bench.backend import _cases
    from explorer.bench.report import _frame_table

    assert "pe full float32" in _cases(512, 512)
    assert "pe full float32" not in _cases(10_000_000, 8192)

    def too_big(*_):
        raise MemoryError("Unable to allocate 153. GiB")

    monkeypatch.setattr(plain, "plain_panels", too_big)
    view = SimpleNamespace(size=lambda: None)
    window = SimpleNamespace(views={"heatmap": view}, controller=SimpleNamespace(params=P))
    assert frames.plain_series(window, "heatmap", 10_000_000, 8192, 4) is None
    row = {"view": "heatmap", "max_len": 10_000_000, "d_model": 8192, "p50_ms": 7.5, "p95_ms": 7.6}
    table = _frame_table([row], [], ratio_rows([row], [], 4.0))
    assert "heatmap      10000000x8192     7.5 / 7.6" in table
    assert "do not fit in this machine's memory" in table
    assert "memory" not in _frame_table([row], [], ratio_rows([row], [], 4.0), plain_run=False)  # --no-plain


def test_mirror_leaves_out_scatter_dots_beside_curves(qtbot):
    """Real RoPE's one-token dots (a ScatterPlotItem beside its curves) stopped the whole bench with
    an AttributeError: a scatter item has no xData."""
    import pyqtgraph as pg
    from PySide6.QtWidgets import QWidget, QVBoxLayout

    host = QWidget()
    qtbot.addWidget(host)
    canvas = pg.GraphicsLayoutWidget()
    QVBoxLayout(host).addWidget(canvas)
    plot = canvas.addPlot()
    plot.plot([0.0, 1.0, 2.0], [1.0, 2.0, 0.5])
    plot.addItem(pg.ScatterPlotItem(x=[0.0], y=[1.0]))
    host.show()
    panels = plain.mirror(host)
    assert [k for k, *_ in panels] == ["curves"]
    np.testing.assert_array_equal(panels[0][1][0][1], [1.0, 2.0, 0.5])
