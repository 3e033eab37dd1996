"""The ALiBi view with an opened model: BLOOM's, MPT's and Falcon's heads and slopes and the bias images at the view's
strided positions equal transformers' own alibi tensors (Falcon's made in bfloat16 and divided by sqrt(head_dim));
a model without ALiBi, a model that cannot be opened or the box unticked give the formula's slopes, the first two
saying why; in the window the heads box greys out with the model's head count and comes back when unticked."""

from __future__ import annotations

import numpy as np
import pytest

from explorer import catalogue
from explorer.backend import alibi as formula
from explorer.compute.alibi import AlibiState, alibi_view, shown_heads
from explorer.errors import localized
from explorer.params import Params

pytest.importorskip("transformers")
torch = pytest.importorskip("torch")


def _expected(keys_bias: np.ndarray, shown: tuple, pos: np.ndarray, causal: bool) -> np.ndarray:
    """The images from a reference (H, n) per-key bias A: A[p_j] - A[p_i] at the strided positions, -|.| both ways
    or NaN after the query when causal."""
    a = keys_bias[list(shown)][:, pos]                                         # (S, rows)
    signed = a[:, None, :] - a[:, :, None]                                     # (S, rows, rows) key - query
    if not causal:
        return -np.abs(signed)
    return np.where(np.triu(np.ones(signed.shape[1:], bool), 1)[None], np.nan, signed)


@pytest.mark.parametrize("causal", [False, True])
def test_bloom_slopes_and_bias_are_build_alibi_tensors(tmp_path, causal):
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor

    from tests.test_models_bloom import _build

    _build(tmp_path / "bloom", heads=6)
    n = 700                                                                     # strided by 6: 117 rows
    r = alibi_view(Params(max_len=n, model=str(tmp_path / "bloom")), AlibiState(causal=causal))
    keys = build_alibi_tensor(torch.ones(1, n, dtype=torch.long), 6, torch.float32)[:, 0].numpy()    # (H, n) m_h j
    assert (r.model_name, r.family, r.reason, r.shown) == ("bloom", "bloom", "", shown_heads(6))
    np.testing.assert_array_equal(r.slopes, keys[:, 1])
    assert len(r.slopes) == 6 and r.state.heads == 8          # the model's heads, not the box's
    np.testing.assert_array_equal(r.positions, np.arange(0, n, 6))
    np.testing.assert_allclose(r.bias, _expected(keys, r.shown, r.positions, causal), rtol=1e-6, atol=1e-5)


def test_falcon_bias_is_made_in_bfloat16_over_sqrt_head_dim(tmp_path):
    from transformers.models.falcon.modeling_falcon import build_alibi_tensor

    from tests.test_models_falcon import _build

    _build(tmp_path / "falcon", "rw", heads=24)                                 # head_dim 8
    n = 2048                                                                    # past 256: positions round
    r = alibi_view(Params(max_len=n, model=str(tmp_path / "falcon")), AlibiState(causal=True))
    keys = build_alibi_tensor(torch.ones(1, n, dtype=torch.long), 24, torch.float32)[:, 0].numpy() / np.sqrt(8)
    assert (r.family, len(r.slopes), r.shown) == ("falcon", 24, shown_heads(24))
    np.testing.assert_allclose(r.slopes, keys[:, 1], rtol=1e-6)
    want = _expected(keys.astype(np.float32), r.shown, r.positions, True)
    np.testing.assert_allclose(r.bias, want, rtol=0, atol=1e-4)       # (float32 differences of keys' biases ~180)
    plain = _expected(r.slopes[:, None] * np.arange(n, dtype=np.float32)[None], r.shown, r.positions, True)
    assert np.nanmax(np.abs(r.bias - plain)) > 0.05                             # bfloat16 shows


def test_mpt_slopes_are_build_mpt_alibi_tensors(tmp_path):
    from transformers.models.mpt.modeling_mpt import build_mpt_alibi_tensor

    from tests.test_models_mpt import _build

    _build(tmp_path / "mpt", heads=12)
    n = 40
    r = alibi_view(Params(max_len=n, model=str(tmp_path / "mpt")))
    keys = build_mpt_alibi_tensor(12, n)[:, 0].numpy()                           # (H, n) m_h (j - n + 1)
    assert (r.family, len(r.slopes)) == ("mpt", 12)
    np.testing.assert_array_equal(r.slopes, keys[:, -2] * -1)
    np.testing.assert_allclose(r.bias, _expected(keys, r.shown, r.positions, False), rtol=1e-6, atol=1e-6)


def test_a_rope_model_a_bad_path_and_the_box_off_give_the_formula(tmp_path):
    from tests.test_models_bloom import _build

    r = alibi_view(Params(model="smollm2"), AlibiState(heads=12))
    assert r.model_name == "" and np.array_equal(r.slopes, formula.slopes(12))
    assert "uses RoPE, not ALiBi" in r.reason and "SmolLM2" in r.reason and r.note_kind == "rope"
    assert "不是 ALiBi" in localized(r.reason, "zh_CN")
    r = alibi_view(Params(model=str(tmp_path / "missing")), AlibiState(heads=3))
    assert r.model_name == "" and len(r.slopes) == 3 and "missing" in r.reason and "\n" not in r.reason
    assert r.note_kind == "failed"
    _build(tmp_path / "bloom", heads=4)
    r = alibi_view(Params(model=str(tmp_path / "bloom")), AlibiState(heads=5, model_slopes=False))
    assert (r.model_name, r.reason) == ("", "") and np.array_equal(r.slopes, formula.slopes(5))
    r = catalogue.entry("alibi").run(Params(model=str(tmp_path / "bloom")), AlibiState())
    assert r.model_name == "bloom" and len(r.slopes) == 4      # the worker's call reads the model


def test_the_window_greys_the_heads_box_with_the_models_count(window, qtbot, tmp_path):
    from tests.test_models_bloom import _build
    from tests.test_ui_models import open_and_wait, show

    view = show(window, "alibi")
    assert view.model_box.isHidden() and view.heads_box.isEnabled()         # no model open: no model's heads
    _build(tmp_path / "bloom", heads=16)
    open_and_wait(window, tmp_path / "bloom")
    view = show(window, "alibi")
    assert view.result.model_name == "bloom"
    assert (view.heads_box.value(), view.heads_box.isEnabled(), view.model_box.isVisible()) == (16, False, True)
    assert view.readout.text().startswith("bloom: 16 heads, slopes: ")
    assert "BLOOM's slopes" in view.readout.text()
    view.model_box.setChecked(False)                                           # the user's own 8 heads again
    window.controller.wait_idle()
    qtbot.waitUntil(lambda: view.result.model_name == "")
    assert (view.heads_box.value(), view.heads_box.isEnabled(), view.heads_box.maximum()) == (8, True, 64)
    assert view.readout.text().startswith("8 heads, slopes: 1/2")
    assert window.controller.state.views["alibi"].model_slopes is False
    view.heads_box.setValue(3)
    window.controller.wait_idle()
    qtbot.waitUntil(lambda: len(view.result.slopes) == 3)


@pytest.mark.parametrize("family", ["bloom", "falcon"])
def test_the_formula_panel_and_its_code_follow_the_models_slopes(tmp_path, family):
    """The code panel's bias (every head, every position) holds the view's images at its strided positions, for
    BLOOM's float32 slopes and Falcon's bfloat16 ones; the formula lines name the model (and Falcon's rounding)."""
    from explorer.compute import formulas
    from tests.test_models_bloom import _build as build_bloom
    from tests.test_models_falcon import _build as build_falcon

    (build_bloom(tmp_path / family, heads=12) if family == "bloom" else build_falcon(tmp_path / family, heads=12))
    p, state = Params(max_len=520, model=str(tmp_path / family)), AlibiState(heads=3)
    r = alibi_view(p, state)
    full = formulas.run_code(formulas.code_for("alibi", p, state))                  # (12, 520, 520)
    assert full.shape == (12, 520, 520) and r.model_name == family
    np.testing.assert_allclose(full[list(r.shown)][:, r.positions][:, :, r.positions], r.bias, rtol=1e-6, atol=1e-4)
    html = formulas.formula_html("alibi", p, 0, "en", state=state)
    assert f"the slopes of {family}'s 12 heads" in html and ("bfloat16" in html) == (family == "falcon")
    assert "h = 1, 5, 8, 12 of 12" in html
    assert f"{family} 的 12 个头的斜率" in formulas.formula_html("alibi", p, 0, "zh_CN", state=state)
    plain = formulas.run_code(formulas.code_for("alibi", p.with_(model=""), state))
    np.testing.assert_allclose(plain, formula.bias(3, 520), atol=1e-12)            # the formula's 3 heads
