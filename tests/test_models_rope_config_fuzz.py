"""A checkpoint's RoPE settings at their extremes: the model opens or is refused, q and k are made or
refused, in one line each; never another exception, a traceback, a NaN blamed on the weights, or a
numpy warning. Each config below is one that a fuzz run (~42,000 configs, 2026-12-05) found escaping."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh

pytest.importorskip("transformers")
pytest.importorskip("torch")

DEEP = "[" * 600 + "1" + "]" * 600          # json reads it; a recursive check hit Python's stack limit
CASES = {
    "rope_theta 10**400": {"rope_parameters": {"rope_type": "default", "rope_theta": 10 ** 400}},
    "partial_rotary_factor 10**400": {"rope_parameters": {"rope_type": "default", "rope_theta": 500.0,
                                                          "partial_rotary_factor": 10 ** 400}},
    "rms_norm_eps 10**400": {"rms_norm_eps": 10 ** 400},
    "yarn, top-level L0 a string": {"rope_parameters": {"rope_type": "yarn", "rope_theta": 500.0},
                                    "original_max_position_embeddings": "abc"},
    "yarn, L0 a list": {"rope_parameters": {"rope_type": "yarn", "rope_theta": 500.0,
                                            "original_max_position_embeddings": [40]}},
    "yarn, beta_slow 1e-320": {"rope_parameters": {"rope_type": "yarn", "rope_theta": 500.0, "factor": 2,
                                                   "beta_slow": 1e-320}},
    "yarn, beta_fast 1e308": {"rope_parameters": {"rope_type": "yarn", "rope_theta": 500.0, "factor": 2,
                                                  "beta_fast": 1e308}},
    "dynamic, factor 1e300 past L0": {"max_position_embeddings": 2, "rope_parameters": {
        "rope_type": "dynamic", "rope_theta": 500.0, "factor": 1e300}},
    "dynamic, s < 0 by cancellation": {"max_position_embeddings": 97, "rope_parameters": {
        "rope_type": "dynamic", "rope_theta": 500.0, "factor": 1e20}},
    "linear, factor 1e-300 (inf in float32)": {"rope_parameters": {"rope_type": "linear", "rope_theta": 500.0,
                                                                   "factor": 1e-300}},
    "longrope, short factor 1e-300": {"rope_parameters": {"rope_type": "longrope", "rope_theta": 500.0,
                                                          "short_factor": [1e-300, 1, 1, 1],
                                                          "long_factor": [1, 1, 1, 1]}},
    "yarn, attention_factor 1e300": {"rope_parameters": {"rope_type": "yarn", "rope_theta": 500.0, "factor": 2,
                                                         "attention_factor": 1e300}},
    "a value nested 600 deep": {"rope_parameters": {"rope_type": "default", "rope_theta": 500.0,
                                                    "factor": "__DEEP__"}},
    "rope_theta 1e39 (past float32)": {"rope_parameters": {"rope_type": "default", "rope_theta": 1e39}},
}


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    folder = tmp_path_factory.mktemp("llama")
    mh.build("llama", folder)
    return folder


def _one_line(exc: InputError) -> None:
    text = str(exc)
    assert "\n" not in text and len(text) <= 600, text


@pytest.mark.parametrize("name", sorted(CASES))
def test_extreme_rope_settings_are_made_or_refused_in_one_line(name, base, tmp_path):
    cfg = {**json.loads((base / "config.json").read_text()), **CASES[name]}
    (tmp_path / "config.json").write_text(json.dumps(cfg).replace('"__DEEP__"', DEEP))
    for file in ("model.safetensors", "tokenizer.json"):
        (tmp_path / file).symlink_to(base / file)
    with warnings.catch_warnings():
        warnings.simplefilter("error")           # numpy's overflow warnings would reach the terminal
        try:
            model = open_model(tmp_path)
        except InputError as exc:
            _one_line(exc)
            return
        with model:
            ids = model.tokenize(mh.TEXT).ids
            assert np.isfinite(model.input_x(ids)).all()
            try:
                qk = model.layer0_qk(ids)
            except InputError as exc:
                _one_line(exc)
                return
    assert qk.finite and np.isfinite(qk.q_rot).all() and np.isfinite(qk.k_rot).all()


def test_an_attention_factor_that_overflows_q_dot_k_is_named_not_the_checkpoint(base, tmp_path):
    """A YaRN attention factor of 1e30 is finite in float32, and so are q and k, but q·k is not: the
    note blamed a healthy checkpoint ("the checkpoint is damaged"); it now names the setting."""
    from explorer.backend.models.finite import qk_note
    from explorer.errors import localized

    cfg = {**json.loads((base / "config.json").read_text()),
           "rope_parameters": {"rope_type": "yarn", "rope_theta": 500.0, "factor": 2, "attention_factor": 1e30}}
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    for file in ("model.safetensors", "tokenizer.json"):
        (tmp_path / file).symlink_to(base / file)
    with open_model(tmp_path) as model:
        tokenized = model.tokenize(mh.TEXT)
        with warnings.catch_warnings():
            warnings.simplefilter("error")       # no numpy overflow warning reaches the terminal
            qk = model.layer0_qk(tokenized.ids)
        assert not qk.finite and not qk.bad_tensors and not qk.bad_input
        note = localized(qk_note(model, qk, [t.text for t in tokenized.tokens], tokenized.ids), "en")
        assert note.startswith("q·k overflows float32: the RoPE attention factor 1e+30") and "damaged" not in note
