"""The Tokens view with an opened model (a second visual review): its header writes the model's own X (the formula
panel's line), and the paper's again once the model is closed; a BLOOM's (ALiBi) middle panel says what happens
instead of a row added to E, in the text colour; RoBERTa's and M2M100's formula lines give the position ids the
model reads when a pad token is inside the text, as transformers' create_position_ids_from_input_ids makes them.

Tiny random checkpoints written with transformers' own classes (tests/models_helpers, test_models_roberta).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from tests import models_helpers as mh
from tests.test_ui_models import open_and_wait, show

pytest.importorskip("transformers")
torch = pytest.importorskip("torch")

PAPER = "X = E[ids]·√d_model + PE"


def test_the_header_writes_the_opened_models_x_and_the_papers_once_it_is_closed(window, tmp_path):
    from tests.test_models_bloom import _build

    mh.build("gpt2", tmp_path / "gpt2")
    _build(tmp_path / "bloom", heads=6)
    window.controller.update(text=mh.TEXT)
    view = show(window, "tokens")
    assert PAPER in view.explain.text()
    open_and_wait(window, tmp_path / "gpt2")
    view = show(window, "tokens")
    header = view.explain.text()
    assert "X<sub>pos</sub> = E[id<sub>pos</sub>] + P[pos]," in header and PAPER not in header
    assert "(gpt2's own)" in header
    from explorer.compute.formulas import formula_html                  # the formula panel's line, the same

    assert "X<sub>pos</sub> = E[id<sub>pos</sub>] + P[pos]</p>" in formula_html("tokens", window.controller.params)
    open_and_wait(window, tmp_path / "bloom")                  # X = LayerNorm(E): nothing added for position
    header = show(window, "tokens").explain.text()
    assert "X<sub>pos</sub> = LayerNorm(E[id<sub>pos</sub>])," in header and "P[pos]" not in header
    window.model_actions.no_model()
    window.controller.wait_idle()
    view = show(window, "tokens")
    assert view.result.source == "untrained" and PAPER in view.explain.text() and "LayerNorm" not in view.explain.text()


def test_a_bloom_middle_panel_says_what_alibi_does_in_the_text_colour(window, tmp_path):
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    from tests.test_models_bloom import _build

    _build(tmp_path / "bloom", heads=6)
    mh.build("gpt2", tmp_path / "gpt2")
    window.controller.update(text=mh.TEXT)
    open_and_wait(window, tmp_path / "bloom")
    view = show(window, "tokens")
    window.grab()
    note = view.sum.notes[1]
    assert note.text.isVisible() and note.words == (
        "Nothing is added to E: ALiBi lowers each attention score by the tokens' distance.")
    assert note.text.textItem.defaultTextColor() == QApplication.palette().color(QPalette.ColorRole.WindowText)
    assert view.sum.images[1].image is None and not view.sum.own_bars[1].isVisible()       # no pale box, no ±1 bar
    plot = view.sum.plots[1]
    screen = plot.getViewBox().getViewWidget().mapFromScene(plot.getViewBox().sceneBoundingRect()).boundingRect()
    assert note.text.textItem.document().size().width() <= screen.width()              # wrapped inside the panel
    view.set_cursor(2)
    assert not view.sum.lines[1].isVisible() and view.sum.lines[0].isVisible()          # no cursor line over it
    open_and_wait(window, tmp_path / "gpt2")                                            # a learned row again
    view = show(window, "tokens")
    assert not note.text.isVisible() and view.sum.images[1].image is not None and view.sum.own_bars[1].isVisible()


def _rows_written(line: str) -> list[int]:
    """The position ids a formula line writes out after "r = "."""
    return [int(x) for x in re.search(r": r = ([\d, ]+)", line).group(1).split(", ")]


def test_robertas_formula_reads_the_rows_transformers_makes_for_a_pad_inside_the_text(tmp_path):
    from transformers.models.roberta.modeling_roberta import RobertaEmbeddings

    from explorer.compute import model_tokens, models
    from explorer.compute.formulas import formula_html
    from explorer.compute.formulas_tokens import tokens_lines
    from explorer.compute.qk_formula import qk_lines
    from explorer.params import Params
    from tests.test_models_roberta import build

    build("roberta", tmp_path)
    text = "the cat <pad> sat <pad> on"
    params = Params(model=str(tmp_path), embedding_source="model", text=text)
    try:
        r = model_tokens.for_model(params)
        ids = torch.as_tensor([[t.id for t in r.tokens]])
        assert (ids == 1).sum() == 2                                                     # two <pad> inside it
        want = RobertaEmbeddings.create_position_ids_from_input_ids(ids, 1)[0].tolist()
        lines = tokens_lines(params, 3, "en")
        assert lines[0] == "X<sub>pos</sub> = LayerNorm(E[id<sub>pos</sub>] + P[r<sub>pos</sub>] + T[0])"
        assert _rows_written(lines[1]) == want == r.position_ids.tolist()                  # the panel's rows
        assert lines[1].startswith("r<sub>pos</sub> = 1 + #{n ≤ pos : id<sub>n</sub> ≠ 1}")
        assert f"r<sub>3</sub> = {want[3]}," in lines[-1] and want[3] == 1                # the cursor on a <pad>
        assert "): '&lt;s&gt;'→0, 'the'→4, 'cat'→5, '&lt;pad&gt;'→1, " in lines[2]          # as text, not tags
        assert "P[pos + 2]" not in formula_html("tokens", params)
        qk = qk_lines(Params(model=str(tmp_path), text=text))
        assert qk[1].startswith("x<sub>m</sub> = LayerNorm(E[id<sub>m</sub>] + P[r<sub>m</sub>] + T[0]), r<sub>m</sub>")
    finally:
        models.forget(str(tmp_path))


def test_m2m100s_formula_reads_the_rows_transformers_makes_for_a_pad_inside_the_text(tmp_path):
    from transformers.models.m2m_100.modeling_m2m_100 import M2M100SinusoidalPositionalEmbedding

    from explorer.compute import model_tokens, models
    from explorer.compute.formulas_tokens import tokens_lines
    from explorer.params import Params

    mh.build("m2m_100", tmp_path, seed=6)
    text = "cat the sat the on the mat"                  # the test tokenizer's "the" is id 1, the pad id
    params = Params(model=str(tmp_path), embedding_source="model", text=text)
    try:
        r = model_tokens.for_model(params)
        ids = torch.as_tensor([[t.id for t in r.tokens]])
        assert (ids == 1).sum() == 3
        want = M2M100SinusoidalPositionalEmbedding.create_position_ids_from_input_ids(ids, 1)[0].tolist()
        lines = tokens_lines(params, 0, "en")
        assert lines[0].endswith(" + PE<sub>t2t</sub>[r<sub>pos</sub>]") and "pos + 2" not in lines[0]
        assert _rows_written(lines[1]) == want == r.position_ids.tolist()
        assert "PE[1] = 0" in lines[1]
    finally:
        models.forget(str(tmp_path))


def test_a_long_texts_rows_end_in_an_ellipsis(tmp_path):
    from explorer.compute import model_tokens, models
    from explorer.compute.formulas_tokens import SHOWN_ROWS, tokens_lines
    from explorer.params import Params
    from tests.test_models_roberta import build

    build("roberta", tmp_path)
    params = Params(model=str(tmp_path), embedding_source="model", text=" ".join(["cat"] * 15))
    try:
        r = model_tokens.for_model(params)
        line = tokens_lines(params, 0, "en")[1]
        assert line.endswith(" …") and _rows_written(line) == r.position_ids[:SHOWN_ROWS].tolist()
        np.testing.assert_array_equal(r.position_ids, np.arange(2, 2 + r.n_shown))
    finally:
        models.forget(str(tmp_path))


@pytest.mark.parametrize("family, length", [("gpt2", "|P[0]| = "), ("llama", ""), ("roberta", "|P[r<sub>0</sub>]| = ")])
def test_the_cursor_line_names_what_is_added_for_position(family, length, tmp_path):
    """The formula panel's cursor line: |P[p]| of a trained table, |P[r_p]| of the row RoBERTa reads, nothing for a
    model that adds nothing (a RoPE or ALiBi model's line had read |PE(0)| = 0); the paper's |PE(p)| without one."""
    from explorer.compute import models
    from explorer.compute.formulas_tokens import tokens_lines
    from explorer.params import Params
    from tests.test_models_roberta import build

    build("roberta", tmp_path) if family == "roberta" else mh.build(family, tmp_path)
    try:
        last = tokens_lines(Params(model=str(tmp_path), embedding_source="model", text="the cat"), 0, "en")[-1]
        assert "PE(" not in last and (length in last if length else "|P" not in last)
    finally:
        models.forget(str(tmp_path))
    assert "|PE(0)| = " in tokens_lines(Params(text="the cat"), 0, "en")[-1]
