"""The built-in lesson's texts say what the views show (issue #17): token IDs quoted in a scene's
explanation are the ones its tokenizer gives for its sentence."""

import re

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
