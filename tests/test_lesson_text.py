"""The built-in lesson's texts say what the views show (issue #17): token IDs quoted in a scene's
explanation are the ones its tokenizer gives for its sentence."""

import re

import pytest

from explorer.backend.tokens import tokenize
from explorer.scenes import builtin_deck

ID_LIST = re.compile(r"w = \[([0-9, ]+)\]")


def test_quoted_token_ids_are_the_tokenizers():
    checked = 0
    for scene in builtin_deck():
        for lang, text in scene.explain:
            for match in ID_LIST.finditer(text):
                quoted = [int(v) for v in match.group(1).split(",")]
                shown = [int(i) for i in tokenize(scene.params.text, scene.params.tokenizer).ids]
                assert quoted == shown, (scene.title, lang, quoted, shown)
                checked += 1
    assert checked >= 2          # scene 1, English and Chinese


def test_the_sqrt_d_model_scene_names_the_table_it_draws():
    """Scene 10 said embedding entries are about 1/√d_model and that the scaling makes both parts
    comparable, beside an untrained N(0, 1) table whose scaled rows are 512 long against PE's 16.
    It now names that table; its rows are about √d_model long, as it says."""
    import numpy as np

    from explorer.compute.tokens import tokens

    scene = next(s for s in builtin_deck() if s.view == "tokens" and s.state.views["tokens"].page == "gauge")
    d = scene.params.d_model
    rows = tokens(scene.params).token_rows                                    # (n, d) unscaled E[ids]
    assert np.linalg.norm(rows, axis=1).mean() == pytest.approx(np.sqrt(d), rel=0.1)
    for lang, text in scene.explain:
        assert "N(0, 1)" in text and "√d_model" in text, lang
