"""DistilBERT checkpoints against transformers' own classes: X = LayerNorm(word + position) into layer 0 (no token
types), layer-0 q_lin / k_lin, and the stored position table, the one transformers loads (sinusoidal_pos_embds too).
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh
from tests.encoder_capture import capture_layer0, close

pytest.importorskip("transformers")
torch = pytest.importorskip("torch")


def build(folder, masked: bool, sinusoidal: bool):
    """A random tiny DistilBERT (ForMaskedLM: tensors named distilbert.*) saved into folder; the class. With
    sinusoidal_pos_embds its sinusoidal table is kept and then stored x 3, so the test sees which table is read."""
    import transformers as tf

    torch.manual_seed(5)
    config = tf.DistilBertConfig(dim=32, n_layers=2, n_heads=4, hidden_dim=48, max_position_embeddings=20,
                                 vocab_size=mh.VOCAB, sinusoidal_pos_embds=sinusoidal)
    model_class = tf.DistilBertForMaskedLM if masked else tf.DistilBertModel
    model = model_class(config).eval()
    with torch.no_grad():
        for name, p in model.named_parameters():
            if not (sinusoidal and "position_embeddings" in name):
                p.normal_(0.0, 0.5)
    model.save_pretrained(folder)
    mh.write_tokenizer(folder / "tokenizer.json")
    if sinusoidal:
        mh.rewrite_tensor(folder, "position_embeddings.weight", lambda a: a * 3.0)
    return model_class


def capture(torch_model, ids) -> dict:
    layer = torch_model.base_model.transformer.layer[0]
    return capture_layer0(torch_model, layer, layer.attention.q_lin, layer.attention.k_lin, ids)


@pytest.mark.parametrize("masked, sinusoidal", [(False, False), (True, False), (True, True)])
def test_x_layer0_qk_and_table_equal_transformers(masked, sinusoidal, tmp_path):
    model_class = build(tmp_path, masked, sinusoidal)
    reference = model_class.from_pretrained(tmp_path, attn_implementation="eager").eval()
    with open_model(tmp_path) as model:
        cfg = model.config
        assert (cfg.family, cfg.position, cfg.position_offset, cfg.max_positions, cfg.d_model, cfg.n_heads) == (
            "distilbert", "learned", 0, 20, 32, 4)
        table = reference.base_model.embeddings.position_embeddings.weight.detach().numpy()
        np.testing.assert_array_equal(model.positions(), table)             # the table transformers loaded
        ids = model.tokenize(mh.TEXT).ids
        ref = capture(reference, ids)
        close(model.input_x(ids), ref["x"])
        qk = model.layer0_qk(ids)
        n = len(ids)
        close(qk.q, ref["q"].reshape(n, 4, -1).transpose(1, 0, 2))
        close(qk.k, ref["k"].reshape(n, 4, -1).transpose(1, 0, 2))
        probs = np.exp(qk.logits - qk.logits.max(axis=-1, keepdims=True).astype(np.float64))
        close(probs / probs.sum(axis=-1, keepdims=True), ref["attention"])


@pytest.mark.parametrize("family", ["distilbert", "roberta", "bert"])
@pytest.mark.parametrize("suffix", ["embeddings.LayerNorm.weight", "embeddings.LayerNorm.bias"])
@pytest.mark.parametrize("change", [lambda a: a[:-1], lambda a: a[:0], lambda a: a.reshape(4, -1)])
def test_a_misshapen_embedding_layernorm_is_refused_at_open(family, suffix, change, tmp_path):
    """The LayerNorm that makes X, of the wrong width: one line at open (a shorter one had raised numpy's
    'operands could not be broadcast' ValueError from input_x)."""
    from tests.test_models_roberta import build as build_roberta

    {"distilbert": lambda: build(tmp_path, False, False), "roberta": lambda: build_roberta("roberta", tmp_path),
     "bert": lambda: mh.build("bert", tmp_path)}[family]()
    name = mh.rewrite_tensor(tmp_path, suffix, change)
    with pytest.raises(InputError, match=f"{name} has shape .*; config.json says width 32") as info:
        open_model(tmp_path)
    assert "\n" not in str(info.value)
