"""M2M100 / NLLB-200 checkpoints (model_type "m2m_100") against transformers' M2M100Config and
M2M100ForConditionalGeneration: the app shows the ENCODER.

Its positions are fairseq's sinusoidal table (XGLM's: [sin | cos] halves, log(10000) / (d/2 - 1), the app's "t2t"
layout, row pad_token_id zeroed), computed from config.json (a non-persistent buffer: save_pretrained writes no
position tensor), read at position ids made from the tokens: pad_token_id + 1 + the count of non-pad tokens, a pad
token row pad_token_id (M2M100SinusoidalPositionalEmbedding.create_position_ids_from_input_ids). The test tokenizer's
"the" is id 1, the pad id: every "the" reads the zero row and does not advance the others. The plain X, q/k and
attention checks run with every other family in tests/test_models_families.py.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from safetensors import safe_open

from explorer.backend.encodings import sinusoidal_pe
from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
TEXT = "the cat sat on the mat and the dog sat on the cat"

# facebook/nllb-200-distilled-600M's config.json, as a "trimmed copy" of it in the search tool's code corpus gives it
# (a C++ config test, file id 54854923115; a converter that pins it, file id 59063222718, transcribes the same values;
# the index names no repository for either). M2M100Config's own defaults are facebook/m2m100_418M's
# (configuration_m2m_100.py: @auto_docstring(checkpoint="facebook/m2m100_418M"); a release config quoted in a Swift
# test, file id 70102847802: d_model 1024, 12 + 12 layers, 16 heads, vocab_size 128112, pad_token_id 1).
NLLB_600M = {"architectures": ["M2M100ForConditionalGeneration"], "model_type": "m2m_100",
             "activation_function": "relu", "d_model": 1024, "encoder_layers": 12, "decoder_layers": 12,
             "encoder_attention_heads": 16, "decoder_attention_heads": 16, "encoder_ffn_dim": 4096,
             "decoder_ffn_dim": 4096, "vocab_size": 256206, "max_position_embeddings": 1024, "scale_embedding": True,
             "bos_token_id": 0, "pad_token_id": 1, "eos_token_id": 2, "decoder_start_token_id": 2}


def _built(tmp_path, **settings):
    config = tf.M2M100Config(**{**mh.FAMILIES["m2m_100"], **settings})
    config._attn_implementation = "eager"
    torch.manual_seed(3)
    return mh.save_random(tf.M2M100ForConditionalGeneration(config).eval(), tmp_path)


def _encode(torch_model, ids):
    with torch.no_grad():
        return torch_model.get_encoder()(input_ids=torch.as_tensor(np.asarray(ids)[None, :]), output_attentions=True,
                                         output_hidden_states=True)


def _softmax(logits):
    logits = np.asarray(logits, np.float64)
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_the_published_configs_and_a_silent_one_are_read_as_transformers_reads_them():
    for given in (NLLB_600M, {"model_type": "m2m_100"}):
        cfg = model_config(given)
        hf = tf.M2M100Config(**{k: v for k, v in given.items() if k != "model_type"})
        assert (cfg.family, cfg.position, cfg.d_model, cfg.n_layers, cfg.n_heads, cfg.n_kv_heads) == (
            "m2m_100", "learned", hf.d_model, hf.encoder_layers, hf.encoder_attention_heads,
            hf.encoder_attention_heads)
        assert (cfg.head_dim, cfg.max_positions, cfg.vocab_size) == (
            hf.d_model // hf.encoder_attention_heads, hf.max_position_embeddings, hf.vocab_size)
        assert cfg.embed_scale == np.sqrt(hf.d_model) and cfg.computed_positions
        assert (cfg.position_offset, cfg.padding_idx, cfg.sinusoid_pad) == (2, 1, 1)
        assert cfg.qk_bias and cfg.pre_norm and cfg.layer_norms and cfg.norm_eps == 1e-5
    assert model_config({"model_type": "m2m_100"}).vocab_size == 128112            # m2m100_418M's
    assert model_config({"model_type": "m2m_100", "scale_embedding": False}).embed_scale == 1.0
    alias = model_config({"model_type": "m2m_100", "hidden_size": 64, "num_hidden_layers": 3,
                          "num_attention_heads": 8})                              # attribute_map
    assert (alias.d_model, alias.n_layers, alias.n_heads) == (64, 3, 8)
    assert model_config({"model_type": "m2m_100", "pad_token_id": 0}).position_offset == 1


def test_the_checkpoint_stores_no_position_table_and_ties_the_encoders_embeddings(tmp_path):
    """save_pretrained writes model.shared.weight (the encoder's embed_tokens is tied to it) and model.encoder.*,
    no embed_positions (a non-persistent buffer): the folder opens all the same."""
    torch_model = _built(tmp_path)
    with safe_open(tmp_path / "model.safetensors", "np") as f:
        names = set(f.keys())
    assert "model.shared.weight" in names and "model.encoder.layers.0.self_attn.q_proj.bias" in names
    assert "model.encoder.embed_tokens.weight" not in names
    assert not [n for n in names if "position" in n]
    with open_model(tmp_path) as model:
        assert model.config.computed_positions and model.positions().shape == (40, 32)
        np.testing.assert_array_equal(model.rows([3, 4]), torch_model.model.shared.weight.detach().numpy()[[3, 4]])


def test_an_untied_checkpoint_reads_the_encoders_own_table(tmp_path):
    """tie_word_embeddings false: model.encoder.embed_tokens.weight is stored beside model.shared.weight with other
    values, and the encoder reads its own (as from_pretrained does)."""
    torch_model = _built(tmp_path, tie_word_embeddings=False)
    encoder_table = torch_model.model.encoder.embed_tokens.weight.detach().numpy()
    assert not np.array_equal(encoder_table, torch_model.model.shared.weight.detach().numpy())
    reloaded = tf.M2M100ForConditionalGeneration.from_pretrained(tmp_path, attn_implementation="eager").eval()
    with open_model(tmp_path) as model:
        ids = [3, 4, 5, 6]
        np.testing.assert_array_equal(model.rows(ids), encoder_table[ids])
        np.testing.assert_allclose(model.input_x(ids), _encode(reloaded, ids).hidden_states[0][0].numpy(),
                                   rtol=0, atol=1e-5)


@pytest.mark.parametrize("settings", [{}, {"pad_token_id": 5},
                                      {"d_model": 33, "encoder_attention_heads": 3, "decoder_attention_heads": 3}])
def test_the_position_rows_are_the_models_own_table_from_row_pad_plus_1(settings, tmp_path):
    """Rows pad_token_id + 1.. of M2M100SinusoidalPositionalEmbedding's weights, to the bit (an odd d_model ends in a
    zero column), and with pad_token_id 1 the app's t2t table from position 2."""
    torch_model = _built(tmp_path, **settings)
    weights = torch_model.model.encoder.embed_positions.weights.numpy()                # (42, d)
    first = settings.get("pad_token_id", 1) + 1
    with open_model(tmp_path) as model:
        assert model.config.position_offset == first
        np.testing.assert_array_equal(model.positions(7), weights[first:first + 7])
        if first == 2:
            np.testing.assert_array_equal(model.positions(), weights[2:])
            t2t = sinusoidal_pe(40, model.config.d_model, 10000.0, "t2t", "float32", start=2)
            np.testing.assert_allclose(model.positions(), t2t, rtol=0, atol=2e-6)


@pytest.mark.parametrize("pad", [1, 5])
def test_x_q_k_and_attention_equal_the_encoders_with_pad_tokens_inside(pad, tmp_path):
    """X is the encoder's hidden_states[0] (embed_tokens x sqrt(32) + the rows of position ids made from the tokens:
    each pad token row pad, zero, not advancing the others); q and k are q_proj / k_proj with their biases; the
    softmax of the logits, NOTHING masked, is the encoder's attention, and without the rows it is the encoder's with
    its table zeroed."""
    torch_model = _built(tmp_path, pad_token_id=pad)
    ids = [7, pad, 9, 3, pad, pad, 12, 4, 9, 2]
    with open_model(tmp_path) as model:
        out = _encode(torch_model, ids)
        np.testing.assert_allclose(model.input_x(ids), out.hidden_states[0][0].numpy(), rtol=0, atol=1e-6)
        rows = torch_model.model.encoder.embed_positions.weights.numpy()
        real = np.array(ids) != pad
        want_ids = np.where(real, np.cumsum(real) + pad, pad)
        np.testing.assert_array_equal(model.positions_of(ids), rows[want_ids])
        assert not model.positions_of(ids)[1].any()                                   # the pad token's zero row
        e = torch_model.model.shared.weight.detach().numpy()[ids]
        np.testing.assert_allclose(model.input_x(ids, positions=False), e * np.float32(np.sqrt(32)), rtol=1e-6)
        ref = mh.capture(torch_model, "m2m_100", ids)
        qk = model.layer0_qk(ids)
        q, k = (ref[s].reshape(len(ids), 4, -1).transpose(1, 0, 2) for s in ("q", "k"))     # (H, n, hd)
        np.testing.assert_allclose(qk.q, q, rtol=0, atol=1e-5)
        np.testing.assert_allclose(qk.k, k, rtol=0, atol=1e-5)
        np.testing.assert_allclose(_softmax(qk.logits), out.attentions[0][0].numpy(), rtol=0, atol=1e-5)
        bare = model.layer0_qk(model.input_x(ids, positions=False))
        with torch.no_grad():
            torch_model.model.encoder.embed_positions.weights.zero_()
        without = _encode(torch_model, ids).attentions[0][0].numpy()
        np.testing.assert_allclose(_softmax(bare.logits), without, rtol=0, atol=1e-5)
        assert not np.allclose(without, out.attentions[0][0].numpy(), atol=1e-3)


def test_the_tokens_view_shows_scaled_rows_the_rows_read_and_x(tmp_path):
    from explorer.compute import model_tokens, models
    from explorer.compute.code import code_for
    from explorer.compute.formulas import _tokens
    from explorer.params import Params

    torch_model = _built(tmp_path)
    params = Params(model=str(tmp_path), embedding_source="model", text=TEXT)
    try:
        r = model_tokens.for_model(params)
        assert not r.error and r.family == "m2m_100" and r.position == "learned" and r.padding_idx == 1
        assert r.scale == pytest.approx(np.sqrt(32)) and not r.by_multiplier
        ids = np.array([t.id for t in r.tokens])
        assert (ids == 1).sum() == 4                                                   # "the": the pad id
        real = ids != 1
        np.testing.assert_array_equal(r.position_ids, np.where(real, np.cumsum(real) + 1, 1))
        np.testing.assert_array_equal(r.pe_rows, torch_model.model.encoder.embed_positions.weights.numpy()[
            r.position_ids])
        np.testing.assert_allclose(r.x, _encode(torch_model, ids).hidden_states[0][0].numpy(), rtol=0, atol=1e-6)
        line = _tokens(params, 0, "en")[0]
        assert "(√d_model)" in line and "PE<sub>t2t</sub>[r<sub>pos</sub>]" in line and "T[0]" not in line
        code = code_for("tokens", params)
        assert "its sinusoidal table from row 2 (computed from config.json; a pad token reads row 1)" in code
    finally:
        models.forget(str(tmp_path))


def test_the_learned_view_shows_the_computed_table(tmp_path):
    from explorer.compute import models
    from explorer.compute.learned import learned
    from explorer.params import Params

    torch_model = _built(tmp_path)
    try:
        r = learned(Params(model=str(tmp_path)))
        assert not r.note_kind and r.computed and r.first_row == 2 and r.total_rows == 40
        assert r.embed_scale == pytest.approx(np.sqrt(32))
        np.testing.assert_array_equal(r.learned, torch_model.model.encoder.embed_positions.weights.numpy()[2:])
    finally:
        models.forget(str(tmp_path))


def test_export_learned_pe_writes_the_table_and_check_tells_fairseqs_start(tmp_path, capsys):
    from explorer.commands.cli import main

    torch_model = _built(tmp_path / "m", d_model=64, max_position_embeddings=300)
    out = tmp_path / "p.npy"
    assert main(["export", "learned-pe", "--model", str(tmp_path / "m"), "-o", str(out)]) == 0, capsys.readouterr()
    np.testing.assert_array_equal(np.load(out), torch_model.model.encoder.embed_positions.weights.numpy()[2:])
    import explorer

    r = explorer.check(np.load(out))
    assert (r.convention["layout"], r.convention["base"], r.convention["start"]) == ("t2t", 10000.0, 2)
    assert "a fairseq-style model (XGLM, M2M100, NLLB) reads row p + 2 for position p by design" in r.summary


def test_the_real_rope_view_shows_encoder_layer_0_unmasked_with_and_without_the_rows(tmp_path):
    from explorer.compute import models, qk
    from explorer.compute.qk_formula import qk_lines
    from explorer.params import Params

    torch_model = _built(tmp_path)
    params = Params(model=str(tmp_path), text=TEXT)
    try:
        r = qk.qk_view(params, qk.QkState(causal=True))
        assert not r.error and r.learned and r.sinusoidal and r.encoder and not r.masked and r.first_row == 2
        model = models.open_cached(str(tmp_path))
        ids = model.tokenize(TEXT).ids
        np.testing.assert_allclose(_softmax(r.logits), _encode(torch_model, ids).attentions[0][0].numpy(), rtol=0,
                                   atol=1e-5)
        assert not np.allclose(r.logits, r.logits_plain)
        lines = qk_lines(params, closing="each pair turns")
        assert lines[1] == ("x<sub>m</sub> = √32·E[id<sub>m</sub>] + PE<sub>t2t</sub>[r<sub>m</sub>], r<sub>m</sub> "
                            "= 1 + #{n ≤ m : id<sub>n</sub> ≠ 1} (id<sub>m</sub> = 1: r<sub>m</sub> = 1, PE[1] = 0)")
        assert lines[2] == "logit(m, n) = q<sub>m</sub> · k<sub>n</sub> / √head_dim (√8)"
        assert "fixed sinusoidal row PE<sub>t2t</sub>[r<sub>m</sub>]" in lines[-1] and "nothing is masked" in lines[-1]
        chinese = qk_lines(params, "zh_CN", closing="each pair turns")[-1]
        assert "PE<sub>t2t</sub>[r<sub>m</sub>]" in chinese and chinese != lines[-1]
    finally:
        models.forget(str(tmp_path))


@pytest.mark.parametrize("edit, says", [
    ({"d_model": 30}, r"^config\.json: d_model 30 is not divisible by encoder_attention_heads 4$"),
    ({"d_model": 2, "encoder_attention_heads": 1}, r"^config\.json: d_model 2 gives M2M100's sinusoidal table one "),
    ({"d_model": "32"}, r"^config\.json: d_model must be a positive integer, not '32'$"),
    ({"encoder_attention_heads": 0}, r"^config\.json: encoder_attention_heads must be a positive integer, not 0$"),
    ({"max_position_embeddings": 2.5}, r"^config\.json: max_position_embeddings must be a positive integer, not "),
    ({"pad_token_id": None}, r"^config\.json: pad_token_id must be a whole number from 0 to 41 .*, not None$"),
    ({"pad_token_id": 42}, r"^config\.json: pad_token_id must be a whole number from 0 to 41 "),
    ({"pad_token_id": -1}, r"^config\.json: pad_token_id must be a whole number from 0 to 41 "),
    ({"pad_token_id": 9, "vocab_size": 8}, r"^config\.json: pad_token_id must be a whole number from 0 to 7 "),
    ({"pad_token_id": True}, r"^config\.json: pad_token_id must be a whole number from 0 to 41 "),
    ({"scale_embedding": "true"}, r"^config\.json: scale_embedding must be true or false, not 'true'$"),
])
def test_bad_configs_are_refused_in_one_line(edit, says):
    with pytest.raises(InputError, match=says) as info:
        model_config({**mh.FAMILIES["m2m_100"], "model_type": "m2m_100", **edit})
    assert "\n" not in str(info.value)


def test_a_text_of_more_than_max_position_embeddings_real_tokens_is_refused(tmp_path):
    """The encoder was trained on max_position_embeddings positions (its forward would make more rows of its table,
    make_weights, but no checkpoint has seen them); pad tokens take no position, so they do not count."""
    _built(tmp_path)
    assert json.loads((tmp_path / "config.json").read_text())["max_position_embeddings"] == 40
    with open_model(tmp_path) as model:
        with pytest.raises(InputError, match=r"^41 tokens is longer than the model's 40 learned positions"):
            model.input_x([3] * 41)
        assert model.input_x([3] * 40 + [1] * 5).shape == (45, 32)                # 40 real tokens, 5 pads


def _nllb_style_tokenizer(legacy: bool):
    """tokenizer.json(path) writer: the test words plus eng_Latn (id 60) and </s> (id 2), with the post-processor
    transformers' NllbTokenizer.set_src_lang_special_tokens sets (tokenization_nllb.py): [eng_Latn, $A, </s>], or in
    its legacy_behaviour [$A, </s>, eng_Latn]."""
    from tokenizers import Tokenizer, models, pre_tokenizers, processors

    def write(path):
        vocab = {"[UNK]": 0, **{w: i + 3 for i, w in enumerate(mh.WORDS)}, "</s>": 2, "eng_Latn": 60}
        tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
        tok.pre_tokenizer = pre_tokenizers.Whitespace()
        tok.add_special_tokens(["</s>", "eng_Latn"])
        tok.post_processor = processors.TemplateProcessing(
            single=["$A", "</s>", "eng_Latn"] if legacy else ["eng_Latn", "$A", "</s>"],
            special_tokens=[("</s>", 2), ("eng_Latn", 60)])
        tok.save(str(path))
    return write


@pytest.mark.parametrize("legacy", [False, True])
def test_the_folders_tokenizer_adds_the_language_code_and_eos_which_take_positions(legacy, tmp_path):
    """The folder's own tokenizer.json, post-processor included (what a user sees for a sentence): the language
    code and </s> are special tokens of the text, and as real tokens (not pad) they take positions: the first word
    reads row 3 when eng_Latn comes first; X is the encoder's on those ids."""
    config = tf.M2M100Config(**mh.FAMILIES["m2m_100"])
    config._attn_implementation = "eager"
    torch.manual_seed(4)
    torch_model = mh.save_random(tf.M2M100ForConditionalGeneration(config).eval(), tmp_path,
                                 tokenizer=_nllb_style_tokenizer(legacy))
    with open_model(tmp_path) as model:
        tokens = model.tokenize("cat sat").tokens
        assert [t.text for t in tokens] == (["cat", "sat", "</s>", "eng_Latn"] if legacy
                                            else ["eng_Latn", "cat", "sat", "</s>"])
        assert [t.special for t in tokens] == ([False, False, True, True] if legacy else [True, False, False, True])
        ids = [t.id for t in tokens]
        rows = torch_model.model.encoder.embed_positions.weights.numpy()
        np.testing.assert_array_equal(model.positions_of(ids), rows[2:6])
        np.testing.assert_allclose(model.input_x(ids), _encode(torch_model, ids).hidden_states[0][0].numpy(),
                                   rtol=0, atol=1e-6)
