"""The Tokens view's formula and code panels with an opened model: its own scale and positions (found by a
review: they showed the untrained table's √d_model code and formula for Granite's embedding_multiplier)."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.compute.code import code_for
from explorer.compute.formulas import formula_html
from explorer.params import Params
from tests import models_helpers as mh

pytest.importorskip("transformers")
pytest.importorskip("torch")


@pytest.mark.parametrize("family, formula", [("granite", "E[id<sub>pos</sub>]·3.5 (embedding_multiplier)"),
                                             ("gpt2", "X<sub>pos</sub> = E[id<sub>pos</sub>] + P[pos]"),
                                             ("bert", "LayerNorm(E[id<sub>pos</sub>] + P[pos] + T[0])"),
                                             ("llama", "X<sub>pos</sub> = E[id<sub>pos</sub>]</p>")])
def test_the_code_runs_to_the_models_x_and_the_formula_names_its_scale(tmp_path, family, formula):
    from explorer.backend.models.hf_folder import open_model

    mh.build(family, tmp_path)
    params = Params(model=str(tmp_path), embedding_source="model", text=mh.TEXT)
    assert formula in formula_html("tokens", params)
    code = code_for("tokens", params)
    assert "sqrt(d_model)" not in code
    namespace: dict = {}
    exec(compile(code, "<tokens code>", "exec"), namespace)       # the panel's code, as a user would run it
    with open_model(str(tmp_path)) as model:
        want = model.input_x(model.tokenize(mh.TEXT).ids)
    np.testing.assert_array_equal(namespace["result"], want)
