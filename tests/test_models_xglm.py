"""XGLM checkpoints (model_type "xglm") against transformers' XGLMConfig and XGLMForCausalLM.

A real model whose positions are the sinusoidal table: fairseq's [sin | cos] halves with log(10000) / (d/2 - 1) (the
app's "t2t" layout), position p at row p + 2, the row pad_token_id zeroed, computed from config.json (a
non-persistent buffer: save_pretrained writes no position tensor), and X = embed_tokens[ids] x sqrt(d_model) + those
rows. The plain X, q/k and attention checks run with every other family in tests/test_models_families.py.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from safetensors import safe_open

from explorer.backend.encodings import sinusoidal_pe
from explorer.backend.models import xglm
from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
TEXT = "the cat sat on the mat and the dog sat on the cat"

# facebook/xglm-1.7B's config.json as a conversion script in the search tool's code corpus quotes it ("Should match
# the config file from HF", file id 26992185356; the index names no repository): d_model 2048, 24 layers, 16 heads,
# 2,048 positions, pad_token_id 1, scale_embedding true. XGLMConfig's own defaults are facebook/xglm-564M's
# (configuration_xglm.py: @auto_docstring(checkpoint="facebook/xglm-564M"); d_model 1024, 24 layers, 16 heads).
XGLM_1_7B = {"activation_dropout": 0.0, "activation_function": "gelu", "architectures": ["XGLMForCausalLM"],
             "attention_dropout": 0.1, "attention_heads": 16, "bos_token_id": 0, "d_model": 2048,
             "decoder_start_token_id": 2, "dropout": 0.1, "eos_token_id": 2, "ffn_dim": 8192, "init_std": 0.02,
             "layerdrop": 0.0, "max_position_embeddings": 2048, "model_type": "xglm", "num_layers": 24,
             "pad_token_id": 1, "scale_embedding": True, "transformers_version": "4.26.1", "use_cache": True,
             "vocab_size": 256008}


def _built(tmp_path, **settings):
    config = tf.XGLMConfig(**{**mh.FAMILIES["xglm"], **settings})
    config._attn_implementation = "eager"
    torch.manual_seed(3)
    return mh.save_random(tf.XGLMForCausalLM(config).eval(), tmp_path)


def _run(torch_model, ids):
    with torch.no_grad():
        return torch_model(input_ids=torch.as_tensor(np.asarray(ids)[None, :]), output_attentions=True,
                           output_hidden_states=True)


def test_the_published_config_and_a_silent_one_are_read_as_transformers_reads_them():
    for given in (XGLM_1_7B, {"model_type": "xglm"}):
        cfg = model_config(given)
        hf = tf.XGLMConfig(**{k: v for k, v in given.items() if k != "model_type"})
        assert (cfg.family, cfg.position, cfg.d_model, cfg.n_layers, cfg.n_heads, cfg.n_kv_heads) == (
            "xglm", "learned", hf.d_model, hf.num_layers, hf.attention_heads, hf.attention_heads)
        assert (cfg.head_dim, cfg.max_positions, cfg.vocab_size) == (
            hf.d_model // hf.attention_heads, hf.max_position_embeddings, hf.vocab_size)
        assert cfg.embed_scale == np.sqrt(hf.d_model) and cfg.position_offset == 2 and cfg.sinusoid_pad == 1
        assert cfg.qk_bias and cfg.pre_norm and cfg.layer_norms and cfg.norm_eps == 1e-5
    assert model_config({"model_type": "xglm"}).d_model == 1024                 # the 564M's width
    assert model_config({"model_type": "xglm", "scale_embedding": False}).embed_scale == 1.0
    # attribute_map: hidden_size, num_hidden_layers, num_attention_heads are the same fields
    alias = model_config({"model_type": "xglm", "hidden_size": 64, "num_hidden_layers": 3, "num_attention_heads": 8})
    assert (alias.d_model, alias.n_layers, alias.n_heads) == (64, 3, 8)


def test_the_checkpoint_stores_no_position_table(tmp_path):
    """save_pretrained writes model.embed_tokens and model.layers.*, no embed_positions (a non-persistent
    buffer): the folder opens all the same."""
    _built(tmp_path)
    with safe_open(tmp_path / "model.safetensors", "np") as f:
        names = set(f.keys())
    assert "model.embed_tokens.weight" in names and "model.layers.0.self_attn.q_proj.bias" in names
    assert not [n for n in names if "position" in n]
    with open_model(tmp_path) as model:
        assert model.config.computed_positions and model.positions().shape == (40, 32)


@pytest.mark.parametrize("settings", [{}, {"pad_token_id": 5}, {"pad_token_id": None},
                                      {"d_model": 33, "attention_heads": 3}])
def test_the_position_rows_are_the_models_own_table_from_row_2(settings, tmp_path):
    """Rows 2.. of XGLMSinusoidalPositionalEmbedding's weights, to the bit (a pad_token_id of 5 zeroes position
    3's row, as the model does; an odd d_model ends in a zero column); and the app's t2t table from position 2."""
    torch_model = _built(tmp_path, **settings)
    weights = torch_model.model.embed_positions.weights.numpy()                       # (42, d)
    with open_model(tmp_path) as model:
        rows = model.positions()
        np.testing.assert_array_equal(rows, weights[2:])
        assert np.any(rows[3] != 0) == (settings.get("pad_token_id", 1) != 5)
        t2t = sinusoidal_pe(40, model.config.d_model, 10000.0, "t2t", "float32", start=2)
        if settings.get("pad_token_id") == 5:
            t2t[3] = 0.0
        np.testing.assert_allclose(rows, t2t, rtol=0, atol=2e-6)
        np.testing.assert_array_equal(model.positions(7), weights[2:9])


def test_without_torch_the_table_is_numpys_t2t_table(monkeypatch):
    """Where torch is not loaded the rows come from encodings.sinusoidal_pe's float32 t2t table: the last bits of
    sin(p ω) apart from torch's thousands of positions in (here 1e-4 at p = 2,049, d = 1,024)."""
    reference = tf.models.xglm.modeling_xglm.XGLMSinusoidalPositionalEmbedding.get_embedding(2050, 1024, 1).numpy()
    monkeypatch.setattr(xglm, "loaded_torch", lambda: None)
    rows = xglm.position_table(1024, np.arange(2, 2050), 1)
    np.testing.assert_allclose(rows, reference[2:], rtol=0, atol=3e-4)
    assert not np.array_equal(rows, reference[2:])          # (numpy's own sines: this path was taken)


def test_x_and_layer_0_equal_the_models_with_and_without_the_position_rows(tmp_path):
    """X is hidden_states[0] (embed_tokens x sqrt(32) + rows 2..); q and k are q_proj / k_proj with their biases;
    the softmax of the logits is the model's attention, and without the rows it is the model's with its table
    zeroed."""
    torch_model = _built(tmp_path)
    with open_model(tmp_path) as model:
        ids = model.tokenize(TEXT).ids
        ref, out = mh.capture(torch_model, "xglm", ids), _run(torch_model, ids)
        np.testing.assert_allclose(model.input_x(ids), out.hidden_states[0][0].numpy(), rtol=0, atol=1e-6)
        e = torch_model.model.embed_tokens.weight.detach().numpy()[ids]
        np.testing.assert_allclose(model.input_x(ids, positions=False), e * np.float32(np.sqrt(32)), rtol=1e-6)
        qk = model.layer0_qk(ids)
        q, k = (ref[s].reshape(len(ids), 4, -1).transpose(1, 0, 2) for s in ("q", "k"))    # (H, n, hd)
        np.testing.assert_allclose(qk.q, q, rtol=0, atol=1e-5)
        np.testing.assert_allclose(qk.k, k, rtol=0, atol=1e-5)
        np.testing.assert_allclose(mh.attention_of(qk), out.attentions[0][0].numpy(), rtol=0, atol=1e-5)
        bare = model.layer0_qk(model.input_x(ids, positions=False))
        with torch.no_grad():
            torch_model.model.embed_positions.weights.zero_()
        without = _run(torch_model, ids).attentions[0][0].numpy()
        np.testing.assert_allclose(mh.attention_of(bare), without, rtol=0, atol=1e-5)
        assert not np.allclose(without, out.attentions[0][0].numpy(), atol=1e-3)


def test_the_tokens_view_shows_scaled_rows_the_sinusoidal_rows_and_x(tmp_path):
    from explorer.compute import model_tokens, models
    from explorer.compute.formulas import _tokens
    from explorer.params import Params

    torch_model = _built(tmp_path)
    params = Params(model=str(tmp_path), embedding_source="model", text=TEXT)
    try:
        r = model_tokens.for_model(params)
        assert not r.error and r.family == "xglm" and r.position == "learned"
        assert r.scale == pytest.approx(np.sqrt(32)) and not r.by_multiplier
        ids = [t.id for t in r.tokens]
        n = len(ids)
        np.testing.assert_array_equal(r.token_rows, torch_model.model.embed_tokens.weight.detach().numpy()[ids])
        np.testing.assert_array_equal(r.pe_rows, torch_model.model.embed_positions.weights.numpy()[2:2 + n])
        np.testing.assert_array_equal(r.position_ids, np.arange(2, 2 + n))
        np.testing.assert_allclose(r.x, _run(torch_model, ids).hidden_states[0][0].numpy(), rtol=0, atol=1e-6)
        line = _tokens(params, 0, "en")[0]
        assert "(√d_model)" in line and "PE<sub>t2t</sub>[pos + 2]" in line
    finally:
        models.forget(str(tmp_path))


def test_the_learned_view_shows_the_computed_table_and_says_so(tmp_path):
    from explorer.compute import models
    from explorer.compute.formulas_views import learned_lines
    from explorer.compute.learned import learned
    from explorer.params import Params

    torch_model = _built(tmp_path)
    try:
        r = learned(Params(model=str(tmp_path)))
        assert not r.note_kind and r.computed and r.first_row == 2 and r.total_rows == 40
        np.testing.assert_array_equal(r.learned, torch_model.model.embed_positions.weights.numpy()[2:])
        lines = learned_lines(Params(model=str(tmp_path)), 0, "en")
        assert "PE<sub>t2t</sub>(pos + 2)" in lines[0] and "computes it from config.json" in lines[1]
        assert "P is a trained table" not in lines[1]
    finally:
        models.forget(str(tmp_path))


def test_export_learned_pe_writes_the_table_and_check_names_t2t_base_10000_from_position_2(tmp_path, capsys):
    from explorer.commands.cli import main

    torch_model = _built(tmp_path / "m", d_model=64, max_position_embeddings=300)
    out = tmp_path / "p.npy"
    assert main(["export", "learned-pe", "--model", str(tmp_path / "m"), "-o", str(out)]) == 0, capsys.readouterr()
    np.testing.assert_array_equal(np.load(out), torch_model.model.embed_positions.weights.numpy()[2:])
    import explorer

    r = explorer.check(np.load(out))
    assert (r.convention["layout"], r.convention["base"], r.convention["start"]) == ("t2t", 10000.0, 2)
    assert "row 0 equals PE(2): positions start at 2, not 0" in r.summary


def test_the_real_rope_view_shows_layer_0_with_and_without_the_rows_and_says_what_x_is(tmp_path):
    from explorer.compute import models, qk
    from explorer.compute.qk_formula import qk_lines
    from explorer.params import Params

    torch_model = _built(tmp_path)
    params = Params(model=str(tmp_path), text=TEXT)
    try:
        r = qk.qk_view(params, qk.QkState(causal=True))
        assert not r.error and not r.note and r.learned and not r.encoder and r.masked
        model = models.open_cached(str(tmp_path))
        ids = model.tokenize(TEXT).ids
        want = _run(torch_model, ids).attentions[0][0].numpy()
        np.testing.assert_allclose(mh.attention_of(model.layer0_qk(ids)), want, rtol=0, atol=1e-5)
        np.testing.assert_array_equal(r.logits, model.layer0_qk(ids).logits)
        assert not np.allclose(r.logits, r.logits_plain)
        lines = qk_lines(params, closing="each pair turns")
        assert lines[1] == "x<sub>m</sub> = √32·E[id<sub>m</sub>] + PE<sub>t2t</sub>[m + 2]"
        assert lines[2] == "logit(m, n) = q<sub>m</sub> · k<sub>n</sub> / √head_dim (√8)"
        assert "fixed sinusoidal row PE<sub>t2t</sub>[m + 2]" in lines[-1]
        chinese = qk_lines(params, "zh_CN", closing="each pair turns")[-1]
        assert "PE<sub>t2t</sub>[m + 2]" in chinese and chinese != lines[-1]
    finally:
        models.forget(str(tmp_path))


@pytest.mark.parametrize("edit, says", [
    ({"d_model": 30}, r"^config\.json: d_model 30 is not divisible by attention_heads 4$"),
    ({"d_model": 2, "attention_heads": 1}, r"^config\.json: d_model 2 gives XGLM's sinusoidal table one frequency"),
    ({"d_model": "32"}, r"^config\.json: d_model must be a positive integer, not '32'$"),
    ({"attention_heads": 0}, r"^config\.json: attention_heads must be a positive integer, not 0$"),
    ({"max_position_embeddings": 2.5}, r"^config\.json: max_position_embeddings must be a positive integer, not "),
    ({"pad_token_id": 42}, r"^config\.json: pad_token_id must be null or a whole number from 0 to 41 "),
    ({"pad_token_id": -1}, r"^config\.json: pad_token_id must be null or a whole number from 0 to 41 "),
    ({"scale_embedding": "true"}, r"^config\.json: scale_embedding must be true or false, not 'true'$"),
])
def test_bad_configs_are_refused_in_one_line(edit, says):
    with pytest.raises(InputError, match=says) as info:
        model_config({**mh.FAMILIES["xglm"], "model_type": "xglm", **edit})
    assert "\n" not in str(info.value)


def test_a_text_longer_than_max_position_embeddings_is_refused(tmp_path):
    """As the learned families: the model was trained on max_position_embeddings positions (XGLM's forward would
    make more rows of its table, make_weights, but no checkpoint has seen them)."""
    _built(tmp_path)
    config = json.loads((tmp_path / "config.json").read_text())
    assert config["max_position_embeddings"] == 40
    with open_model(tmp_path) as model:
        ids = model.tokenize(" ".join(["the cat"] * 21)).ids                          # 42 tokens
        with pytest.raises(InputError, match=r"^42 tokens is longer than the model's 40 learned positions"):
            model.input_x(ids)
        assert model.input_x(ids[:40]).shape == (40, 32)
