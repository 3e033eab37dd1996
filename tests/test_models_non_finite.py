"""A checkpoint with NaN or infinite weights: what it gives is still shown, and one line names where.

References: numpy's own isfinite (for the counts), transformers' forward pass of the same damaged
torch model (X keeps its NaN in the same cells), and the tensors written into the checkpoint.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.finite import bad_rows, count_non_finite, listed
from explorer.commands.cli import main
from explorer.compute.learned import learned
from explorer.compute.model_tokens import for_model
from explorer.compute.qk import qk_view
from explorer.errors import localized
from explorer.params import Params
from tests import models_helpers as mh

pytest.importorskip("transformers")
torch = pytest.importorskip("torch")

CAT = mh.WORDS.index("cat") + 1          # the WordLevel id of "cat"


@pytest.fixture(scope="module")
def damaged(tmp_path_factory):
    """{name: (folder, torch model)}: Llama with NaN in the row of "cat" and +inf in W_q[0, 0];
    Llama with only the inf weight; GPT-2 with NaN in position row 3; an intact Llama."""
    root = tmp_path_factory.mktemp("non_finite")
    out = {}
    for name, family in (("llama_rows", "llama"), ("llama_weight", "llama"), ("gpt2_pos", "gpt2"),
                         ("llama_ok", "llama")):
        model = mh.build(family, root / name, seed=7)
        with torch.no_grad():
            if name == "llama_rows":
                model.model.embed_tokens.weight[CAT, :5] = float("nan")
            if name in ("llama_rows", "llama_weight"):
                model.model.layers[0].self_attn.q_proj.weight[0, 0] = float("inf")
            if name == "gpt2_pos":
                model.transformer.wpe.weight[3, 1] = float("nan")
        model.save_pretrained(root / name)
        out[name] = (root / name, model)
    return out


def test_counts_equal_numpys_isfinite():
    rng = np.random.default_rng(0)
    for dtype in (np.float32, np.float64, np.float16):
        a = rng.standard_normal((40, 24)).astype(dtype)
        assert count_non_finite(a) == 0 and bad_rows(a).size == 0
        a[rng.integers(0, 40, 6), rng.integers(0, 24, 6)] = rng.choice([np.nan, np.inf, -np.inf], 6)
        assert count_non_finite(a) == np.count_nonzero(~np.isfinite(a))
        np.testing.assert_array_equal(bad_rows(a), np.flatnonzero(~np.isfinite(a).all(axis=1)))
    big = np.full(4, 3e38, np.float32)           # finite, but its float32 sum overflows
    assert count_non_finite(big) == 0 and count_non_finite(np.arange(5)) == 0
    assert count_non_finite(np.zeros((0, 3))) == 0
    assert listed(range(2)) == "0, 1" and listed(range(7)) == "0, 1, 2, … (+4)"


def test_tokens_keep_the_nan_of_the_model_and_name_the_token(damaged):
    folder, model = damaged["llama_rows"]
    text = "the cat sat on the cat"
    r = for_model(Params(model=str(folder), embedding_source="model", text=text))
    assert not r.error
    ids = [mh.WORDS.index(w) + 1 for w in text.split()]
    want = mh.capture(model, "llama", ids)["x"]                               # transformers' own X
    np.testing.assert_allclose(r.x, want, atol=1e-6)                          # NaN in the same cells
    assert np.isnan(r.x[1]).any() and np.isnan(r.x[5]).any()
    note = str(r.warning)
    assert "NaN or infinite" in note and f"'cat' (id {CAT})" in note
    assert note.count("'cat'") == 1                                            # one name per token id
    ok = for_model(Params(model=str(damaged["llama_ok"][0]), embedding_source="model", text=text))
    assert ok.warning == ""


def test_learned_positions_with_nan_fall_back_to_minilm_and_say_which_rows(damaged):
    folder, _ = damaged["gpt2_pos"]
    r = learned(Params(model=str(folder)))
    assert r.note_kind == "failed" and r.source == "all-MiniLM-L6-v2"
    assert "NaN or infinite" in r.reason and "(positions 3)" in r.reason
    assert np.isfinite(r.var_learned).all()


def test_qk_names_the_weight_and_the_token(damaged):
    r = qk_view(Params(model=str(damaged["llama_rows"][0]), text=mh.TEXT))
    assert not r.error
    note = str(r.warning)
    assert "layers.0.self_attn.q_proj.weight" in note and f"'cat' (id {CAT})" in note
    r = qk_view(Params(model=str(damaged["llama_weight"][0]), text=mh.TEXT))
    assert "layers.0.self_attn.q_proj.weight" in str(r.warning) and "'cat'" not in str(r.warning)
    assert qk_view(Params(model=str(damaged["llama_ok"][0]), text=mh.TEXT)).warning == ""


@pytest.mark.parametrize("kind,name,expect", [
    ("input", "llama_rows", f"'cat' (id {CAT})"),
    ("qk", "llama_weight", "q_proj.weight"),
    ("learned-pe", "gpt2_pos", "position rows 3"),
    ("input", "gpt2_pos", "position rows 3"),
])
def test_cli_exports_what_the_model_gives_with_a_note(damaged, capsys, tmp_path, kind, name, expect):
    out = tmp_path / ("f.npz" if kind == "qk" else "f.npy")
    argv = ["export", kind, "--model", str(damaged[name][0]), "-o", str(out)]
    if kind != "learned-pe":
        argv += ["--text", "the cat sat on the mat"]
    assert main(argv) == 0
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.startswith("note: NaN or infinite values") and expect in err
    data = np.load(out)
    arrays = [data[k] for k in data.files] if kind == "qk" else [data]
    assert any(count_non_finite(a) for a in arrays)                           # written as the model has it
    assert "RuntimeWarning" not in err


def test_cli_says_nothing_for_an_intact_model(damaged, capsys, tmp_path):
    folder = damaged["llama_ok"][0]
    for kind, suffix in (("input", ".npy"), ("qk", ".npz")):
        assert main(["export", kind, "--model", str(folder), "--text", mh.TEXT, "-o",
                     str(tmp_path / f"f{suffix}")]) == 0
        assert capsys.readouterr().err == ""


def test_views_show_the_warning_and_scale_colours_by_the_finite_values(window, damaged):
    from explorer.ui.views.ranges import symmetric_levels

    folder = damaged["llama_rows"][0]
    window.controller.update(model=str(folder), embedding_source="model", text=mh.TEXT)
    window.tabs.setCurrentIndex(list(window.views).index("qk"))
    window.controller.wait_idle()
    view = window.views["qk"]
    assert "q_proj.weight" in view.note.text() and view.note.isVisible()
    r = view.result
    h = r.head
    finite = np.concatenate([r.q[h].ravel(), r.k[h].ravel()])
    finite = finite[np.isfinite(finite)]
    assert symmetric_levels(finite) == symmetric_levels(np.concatenate([r.q[h].ravel(), r.k[h].ravel()]))
    assert view.q_img.image.levels is not None and np.isfinite(view.q_img.image.levels).all()
    assert tuple(view.q_img.image.levels) == symmetric_levels(finite) != (-1.0, 1.0)
    window.tabs.setCurrentIndex(list(window.views).index("tokens"))
    window.controller.wait_idle()
    tokens = window.views["tokens"]
    assert localized(tokens.result.warning, "en") in tokens.notice.text()
    assert tokens.notice.isVisible()


def test_fallback_lines_name_the_reason_once_in_the_ui_language(qtbot, damaged, settings):
    """A model that cannot be shown: each view says why in Chinese, with the fallback named once; the
    CLI's refusal is the reason alone."""
    from PySide6.QtWidgets import QApplication

    from explorer.backend.models.shipped import smollm2_missing
    from explorer.commands.views import refusal_of
    from explorer.ui import i18n
    from explorer.ui.main_window import MainWindow
    from tests.conftest import close_and_delete

    folder = damaged["gpt2_pos"][0]
    r = learned(Params(model=str(folder)))
    assert refusal_of(r) == r.reason and "; showing" not in refusal_of(r)
    app = QApplication.instance()
    assert i18n.install_translator(app, "zh_CN")
    try:
        window = MainWindow(settings=settings)
        try:
            window.controller.update(model=str(folder))
            window.tabs.setCurrentIndex(list(window.views).index("learned"))
            window.controller.wait_idle()
            text = window.views["learned"].note.text()
            assert "NaN" in text and "改为显示 MiniLM" in text and "showing" not in text and text.count("MiniLM") == 1
            if smollm2_missing() is None:
                window.controller.update(model=str(folder.parent / "missing"))
                window.tabs.setCurrentIndex(list(window.views).index("qk"))
                window.controller.wait_idle()
                text = window.views["qk"].note.text()
                assert "无法读取" in text and text.count("SmolLM2") == 1 and "showing" not in text
        finally:
            window.controller.wait_idle()
            close_and_delete(window)
    finally:
        i18n.install_translator(app, "en")


def test_cli_note_is_in_the_language_of_lang(damaged, capsys, tmp_path):
    """`--lang zh_CN` says the note in Chinese, as it says the error lines (it had stayed English)."""
    out = tmp_path / "f.npy"
    assert main(["--lang", "zh_CN", "export", "learned-pe", "--model", str(damaged["gpt2_pos"][0]),
                 "-o", str(out)]) == 0
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.startswith("note: 位置行 3") and "含有 NaN 或无穷大的值" in err, err
    assert "NaN or infinite" not in err
