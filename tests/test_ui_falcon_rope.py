"""An opened rotary Falcon (alibi false) in the real window: the status names its RoPE base, the Tokens view says
RoPE adds nothing at the input, and the Real RoPE view draws its q, k and logits after RoPE as layer0_qk makes
them, with no ALiBi words."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from tests import models_helpers as mh
from tests.test_models_falcon import _build as build_falcon
from tests.test_ui_models import open_and_wait, show

pytest.importorskip("transformers")
pytest.importorskip("torch")


def test_a_rotary_falcon_in_the_window(window, tmp_path):
    build_falcon(tmp_path / "falcon", "new", heads=6, alibi=False, rope_theta=700.0)
    window.controller.update(text=mh.TEXT)
    open_and_wait(window, tmp_path / "falcon")
    status = window.statusBar().currentMessage()
    assert "RoPE base 700" in status and "ALiBi" not in status
    view = show(window, "tokens")
    assert view.result.position == "rope" and "RoPE" in view.model_note.text()
    np.testing.assert_array_equal(view.result.x, view.result.token_rows)            # word_embeddings[ids] only
    view = show(window, "qk")
    r = view.result
    assert (r.error, r.alibi, r.n_heads) == ("", False, 6)
    assert view.q_img.plot.titleLabel.text.startswith("q(m) after RoPE")
    assert view.k_img.plot.titleLabel.text == "k(n) after RoPE"
    assert "ALiBi" not in view.explain.text() + view.rot_img.plot.titleLabel.text + view.readout.text()
    with open_model(tmp_path / "falcon") as model:
        want = model.layer0_qk(model.tokenize(mh.TEXT).ids)
    for got, ref in ((r.q, want.q_rot), (r.k, want.k_rot), (r.q_plain, want.q), (r.logits, want.logits)):
        np.testing.assert_allclose(got, ref, atol=1e-6)
    view.head_box.setValue(4)                       # 6 heads on 2 kv heads: head 4 reads kv head 1
    window.controller.wait_idle()
    assert "reads kv head 1 of 2" in view.head_info.text()
    np.testing.assert_allclose(view.result.logits[4], want.logits[4], atol=1e-6)
