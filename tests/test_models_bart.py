"""BART and mBART checkpoints (model_type "bart", "mbart") against transformers' BartConfig / MBartConfig and
BartModel, BartForConditionalGeneration, MBartForConditionalGeneration: the app shows the ENCODER.

X = layernorm_embedding(embed_tokens[ids] x embed_scale + embed_positions[p + 2]) (BartEncoder.forward; embed_scale
sqrt(d_model) when scale_embedding, else 1); BART's layer 0 reads X itself (post-norm BartEncoderLayer), mBART's
through self_attn_layer_norm first (pre-norm MBartEncoderLayer); q·k x head_dim^-0.5 (BartAttention.scaling), nothing
masked. Every parameter, LayerNorm weights and biases included, is random (tests/models_helpers.save_random).
"""

from __future__ import annotations

import numpy as np
import pytest
from safetensors import safe_open

from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
TEXT = "the cat sat on the mat and the dog sat on the cat"
TINY = dict(mh.FAMILIES["bart"])           # (the family checks of tests/test_models_families.py run it too)
CLASSES = {"bart": ("BartConfig", "BartForConditionalGeneration"), "bart_model": ("BartConfig", "BartModel"),
           "mbart": ("MBartConfig", "MBartForConditionalGeneration")}

# facebook/bart-large-cnn's config.json as a Rust test quotes it ("Parse the actual config.json content", search tool's
# code corpus file id 31223771938, no repository named): 12 + 12 layers, 16 heads, d_model 1024, vocab 50264,
# max_position_embeddings 1024, scale_embedding false, pad 1 (a printed BartForConditionalGeneration in
# itsadrita/Bart-text-summarizer's README.md shows its tables: Embedding(50264, 1024),
# BartLearnedPositionalEmbedding(1026, 1024)); facebook/mbart-large-cc25's as PaddleNLP's
# MBART_PRETRAINED_INIT_CONFIGURATION gives it (file id 585315325): vocab 250027, scale_embedding true. Only the keys
# the encoder's input needs are kept.
BART_LARGE = {"model_type": "bart", "d_model": 1024, "encoder_layers": 12, "encoder_attention_heads": 16,
              "max_position_embeddings": 1024, "vocab_size": 50264, "scale_embedding": False, "pad_token_id": 1}
MBART_CC25 = {"model_type": "mbart", "d_model": 1024, "encoder_layers": 12, "encoder_attention_heads": 16,
              "max_position_embeddings": 1024, "vocab_size": 250027, "scale_embedding": True, "pad_token_id": 1}


def _built(kind, tmp_path, seed=3, **settings):
    config_name, model_name = CLASSES[kind]
    config = getattr(tf, config_name)(**{**TINY, **settings})
    config._attn_implementation = "eager"
    torch.manual_seed(seed)
    return mh.save_random(getattr(tf, model_name)(config).eval(), tmp_path)


def _encoder(torch_model):
    return torch_model.get_encoder()


def _run(torch_model, ids):
    """(X after layernorm_embedding, layer 0's q_proj and k_proj outputs (n, d), the layer's attention (H, n, n))."""
    encoder, got = _encoder(torch_model), {}

    def keep(key):
        def hook(module, args, out):
            got[key] = out[0].detach().numpy().copy()
        return hook

    attn = encoder.layers[0].self_attn
    hooks = [encoder.layernorm_embedding.register_forward_hook(keep("x")),
             attn.q_proj.register_forward_hook(keep("q")), attn.k_proj.register_forward_hook(keep("k"))]
    try:
        with torch.no_grad():
            out = encoder(input_ids=torch.as_tensor(np.asarray(ids)[None, :]), output_attentions=True)
    finally:
        for h in hooks:
            h.remove()
    return got["x"], got["q"], got["k"], out.attentions[0][0].numpy()


def _softmax(logits):
    logits = np.asarray(logits, np.float64)
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@pytest.mark.parametrize("given, klass", [(BART_LARGE, "BartConfig"), (MBART_CC25, "MBartConfig"),
                                          ({"model_type": "bart"}, "BartConfig"),
                                          ({"model_type": "mbart"}, "MBartConfig")])
def test_the_published_configs_and_a_silent_one_are_read_as_transformers_reads_them(given, klass):
    cfg = model_config(given)
    hf = getattr(tf, klass)(**{k: v for k, v in given.items() if k != "model_type"})
    assert (cfg.family, cfg.position, cfg.d_model, cfg.n_layers, cfg.n_heads, cfg.n_kv_heads) == (
        "bart", "learned", hf.d_model, hf.encoder_layers, hf.encoder_attention_heads, hf.encoder_attention_heads)
    assert (cfg.head_dim, cfg.max_positions, cfg.vocab_size) == (
        hf.d_model // hf.encoder_attention_heads, hf.max_position_embeddings, hf.vocab_size)
    assert cfg.embed_scale == (np.sqrt(hf.d_model) if hf.scale_embedding else 1.0)
    assert (cfg.position_offset, cfg.padding_idx, cfg.computed_positions) == (2, None, False)
    assert cfg.qk_bias and cfg.layer_norms and cfg.norm_eps == 1e-5
    assert cfg.pre_norm == (klass == "MBartConfig")
    alias = model_config({"model_type": "bart", "hidden_size": 64, "num_hidden_layers": 3, "num_attention_heads": 8})
    assert (alias.d_model, alias.n_layers, alias.n_heads) == (64, 3, 8)                     # attribute_map


def test_fairseqs_keys_left_in_published_files_change_nothing(tmp_path):
    """bart-large-cnn's config.json says normalize_before false and extra_pos_embeddings 0, mbart-large-cc25's
    normalize_before true: BartConfig and MBartConfig read neither, the classes fix the norms' places and the offset
    of 2; an mBART file saying normalize_before false is still pre-norm, as transformers runs it."""
    for model_type, pre in (("bart", False), ("mbart", True)):
        for said in (True, False):
            cfg = model_config({**TINY, "model_type": model_type, "normalize_before": said, "extra_pos_embeddings": 0,
                                "add_final_layer_norm": said})
            assert (cfg.pre_norm, cfg.position_offset) == (pre, 2)
    config = tf.MBartConfig(**mh.FAMILIES["mbart"], normalize_before=False)
    config._attn_implementation = "eager"
    torch.manual_seed(2)
    torch_model = mh.save_random(tf.MBartForConditionalGeneration(config).eval(), tmp_path)
    ids = [3, 4, 5, 6, 7]
    _, q, _, _ = _run(torch_model, ids)
    with open_model(tmp_path) as model:
        assert model.config.pre_norm
        np.testing.assert_allclose(model.layer0_qk(ids).q, q.reshape(5, 4, 8).transpose(1, 0, 2), rtol=0, atol=1e-5)


@pytest.mark.parametrize("kind", ["bart", "bart_model", "mbart"])
def test_the_checkpoint_names_and_the_position_table_from_row_2(kind, tmp_path):
    torch_model = _built(kind, tmp_path)
    with safe_open(tmp_path / "model.safetensors", "np") as f:
        names = set(f.keys())
    prefix = "" if kind == "bart_model" else "model."
    for name in ("shared.weight", "encoder.embed_positions.weight", "encoder.layernorm_embedding.weight",
                 "encoder.layernorm_embedding.bias", "encoder.layers.0.self_attn.q_proj.bias",
                 "encoder.layers.0.self_attn_layer_norm.weight"):
        assert prefix + name in names
    assert prefix + "encoder.embed_tokens.weight" not in names                      # tied to shared
    table = _encoder(torch_model).embed_positions.weight.detach().numpy()            # (42, 32)
    with open_model(tmp_path) as model:
        assert model.config.position_offset == 2 and model.positions().shape == (40, 32)
        np.testing.assert_array_equal(model.positions(), table[2:])
        np.testing.assert_array_equal(model.positions_of([5, 1, 1, 7]), table[2:6])       # pads take positions
        np.testing.assert_array_equal(model.rows([3, 4]), torch_model.get_input_embeddings().weight.detach()
                                      .numpy()[[3, 4]])


@pytest.mark.parametrize("kind, settings", [("bart", {}), ("bart", {"scale_embedding": True}),
                                            ("bart_model", {}), ("mbart", {}), ("mbart", {"scale_embedding": True}),
                                            ("bart", {"tie_word_embeddings": False})])
def test_x_q_k_and_logits_equal_the_encoders(kind, settings, tmp_path):
    """X is the encoder's output of layernorm_embedding; q and k are layer 0's q_proj / k_proj (after mBART's
    self_attn_layer_norm); the logits are q·k x head_dim^-0.5, whose softmax, nothing masked, is the encoder's
    attention; without the rows it is the encoder's with its position table zeroed."""
    torch_model = _built(kind, tmp_path, **settings)
    ids = [7, 1, 9, 3, 5, 12, 4, 9, 2, 1]
    x, q, k, attention = _run(torch_model, ids)
    if settings.get("tie_word_embeddings") is False:                 # the encoder's own table, not shared
        own = _encoder(torch_model).embed_tokens.weight.detach().numpy()
        assert not np.array_equal(own, torch_model.model.shared.weight.detach().numpy())
    with open_model(tmp_path) as model:
        assert model.config.embed_scale == (np.sqrt(32) if settings.get("scale_embedding") else 1.0)
        np.testing.assert_allclose(model.input_x(ids), x, rtol=0, atol=1e-5)
        qk = model.layer0_qk(ids)
        heads = lambda a: a.reshape(len(ids), 4, 8).transpose(1, 0, 2)                 # (H, n, hd)
        np.testing.assert_allclose(qk.q, heads(q), rtol=0, atol=1e-5)
        np.testing.assert_allclose(qk.k, heads(k), rtol=0, atol=1e-5)
        want = np.einsum("hmd,hnd->hmn", heads(q), heads(k)) * _encoder(torch_model).layers[0].self_attn.scaling
        assert _encoder(torch_model).layers[0].self_attn.scaling == 8 ** -0.5
        np.testing.assert_allclose(qk.logits, want, rtol=0, atol=1e-4)
        np.testing.assert_allclose(_softmax(qk.logits), attention, rtol=0, atol=1e-5)
        bare = model.layer0_qk(model.input_x(ids, positions=False))
        with torch.no_grad():
            _encoder(torch_model).embed_positions.weight.zero_()
        x0, _, _, without = _run(torch_model, ids)
        np.testing.assert_allclose(model.input_x(ids, positions=False), x0, rtol=0, atol=1e-5)
        np.testing.assert_allclose(_softmax(bare.logits), without, rtol=0, atol=1e-5)
        assert not np.allclose(without, attention, atol=1e-3)


def test_the_tokens_and_learned_results_and_the_exports(tmp_path, capsys):
    from explorer.commands.cli import main
    from explorer.compute import model_tokens, models
    from explorer.compute.learned import learned
    from explorer.params import Params

    torch_model = _built("mbart", tmp_path / "m", scale_embedding=True)
    spec = str(tmp_path / "m")
    table = _encoder(torch_model).embed_positions.weight.detach().numpy()
    try:
        r = model_tokens.for_model(Params(model=spec, embedding_source="model", text=TEXT))
        assert not r.error and r.family == "bart" and r.position == "learned" and r.scale == pytest.approx(np.sqrt(32))
        ids = [t.id for t in r.tokens]
        n = len(ids)
        np.testing.assert_array_equal(r.position_ids, np.arange(2, n + 2))
        np.testing.assert_array_equal(r.pe_rows, table[2:n + 2])
        np.testing.assert_allclose(r.x, _run(torch_model, ids)[0], rtol=0, atol=1e-5)
        lr = learned(Params(model=spec))
        assert not lr.note_kind and not lr.computed and lr.first_row == 2 and lr.total_rows == 40
        np.testing.assert_array_equal(lr.learned, table[2:])
    finally:
        models.forget(spec)
    out = tmp_path / "p.npy"
    assert main(["export", "learned-pe", "--model", spec, "-o", str(out)]) == 0, capsys.readouterr()
    np.testing.assert_array_equal(np.load(out), table[2:])
    xs = tmp_path / "x.npy"
    assert main(["export", "input", "--model", spec, "--text", TEXT, "-o", str(xs)]) == 0, capsys.readouterr()
    np.testing.assert_allclose(np.load(xs), _run(torch_model, ids)[0], rtol=0, atol=1e-5)


@pytest.mark.parametrize("edit, says", [
    ({"d_model": 30}, r"^config\.json: d_model 30 is not divisible by encoder_attention_heads 4$"),
    ({"d_model": "32"}, r"^config\.json: d_model must be a positive integer, not '32'$"),
    ({"encoder_attention_heads": 0}, r"^config\.json: encoder_attention_heads must be a positive integer, not 0$"),
    ({"max_position_embeddings": 2.5}, r"^config\.json: max_position_embeddings must be a positive integer, not "),
    ({"scale_embedding": "true"}, r"^config\.json: scale_embedding must be true or false, not 'true'$"),
])
def test_bad_configs_are_refused_in_one_line(edit, says):
    with pytest.raises(InputError, match=says) as info:
        model_config({**TINY, "model_type": "bart", **edit})
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("suffix, change, says", [
    ("encoder.embed_positions.weight", lambda a: a[:30], r"^the position table encoder\.embed_positions\.weight "
     r"has 30 rows; config\.json's max_position_embeddings 40 needs 42 \(BART reads position p from row p \+ 2\)$"),
    ("encoder.embed_positions.weight", lambda a: a[:, :16], r"^the position table has shape \(42, 16\); "),
    ("encoder.layernorm_embedding.bias", lambda a: a[:16], r"^encoder\.layernorm_embedding\.bias has shape \(16,\)"),
    ("encoder.layernorm_embedding.weight", lambda a: None, r"^the checkpoint has no tensor "
     r"'encoder\.layernorm_embedding\.weight'"),
])
def test_a_damaged_checkpoint_is_refused_at_open_in_one_line(suffix, change, says, tmp_path):
    _built("bart", tmp_path)
    mh.rewrite_tensor(tmp_path, suffix, change)
    with pytest.raises(InputError, match=says) as info:
        with open_model(tmp_path):
            pass
    assert "\n" not in str(info.value)


def test_a_text_longer_than_max_position_embeddings_is_refused(tmp_path):
    _built("bart", tmp_path)
    with open_model(tmp_path) as model:
        with pytest.raises(InputError, match=r"^41 tokens is longer than the model's 40 learned positions"):
            model.input_x([3] * 41)
        assert model.input_x([3] * 40).shape == (40, 32)


@pytest.mark.parametrize("kind, edit", [("bart", {}), ("mbart", {"scale_embedding": True})])
def test_the_formulas_and_code_say_what_the_encoder_does(kind, edit, tmp_path):
    """The Tokens formula and code: LayerNorm of E (x √d_model when scaled) + P[pos + 2]; the Real RoPE formula: x
    as that LayerNorm, q and k from x itself (BART, post-norm) or from norm(x) (mBART, pre-norm), / √head_dim."""
    from explorer.compute import models
    from explorer.compute.code import code_for
    from explorer.compute.formulas import _tokens
    from explorer.compute.qk_formula import qk_lines
    from explorer.params import Params

    _built(kind, tmp_path, **edit)
    params = Params(model=str(tmp_path), embedding_source="model", text=TEXT)
    scaled = bool(edit)
    try:
        e = "E[id<sub>pos</sub>]" + ("·5.6569 (√d_model)" if scaled else "")
        assert _tokens(params, 0, "en")[0] == f"X<sub>pos</sub> = LayerNorm({e} + P[pos + 2])"
        code = code_for("tokens", params)
        assert (" x 5.65685 (sqrt(d_model))" in code) == scaled
        assert "+ its learned positions from row 2, then LayerNorm (layernorm_embedding), its encoder's input" in code
        lines = qk_lines(Params(model=str(tmp_path), text=TEXT), closing="each pair turns")
        x = "norm(x<sub>m</sub>)" if kind == "mbart" else "x<sub>m</sub>"
        assert lines[0].startswith(f"q<sub>m</sub> = W<sub>q</sub> {x},")
        assert lines[1] == ("x<sub>m</sub> = LayerNorm(" + ("√32·" if scaled else "") + "E[id<sub>m</sub>] + P[m + 2])")
        assert lines[2] == "logit(m, n) = q<sub>m</sub> · k<sub>n</sub> / √head_dim (√8)"
    finally:
        models.forget(str(tmp_path))


def _mbart_style_tokenizer(mbart50: bool):
    """tokenizer.json(path) writer: the test words, two Chinese words, </s> (id 2), zh_CN (60) and en_XX (61), with the
    post-processor transformers' tokenizers set for the source language: MBart50Tokenizer.set_src_lang_special_tokens
    (tokenization_mbart50.py: prefix [lang code], suffix [</s>]) or MBartTokenizer's (tokenization_mbart.py: no
    prefix, suffix [</s>, lang code])."""
    from tokenizers import Tokenizer, models, pre_tokenizers, processors

    def write(path):
        vocab = {"[UNK]": 0, **{w: i + 3 for i, w in enumerate(mh.WORDS)}, "位置": 40, "编码": 41, "</s>": 2,
                 "zh_CN": 60, "en_XX": 61}
        tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
        tok.pre_tokenizer = pre_tokenizers.Whitespace()
        tok.add_special_tokens(["</s>", "zh_CN", "en_XX"])
        tok.post_processor = processors.TemplateProcessing(
            single=["zh_CN", "$A", "</s>"] if mbart50 else ["$A", "</s>", "zh_CN"],
            special_tokens=[("</s>", 2), ("zh_CN", 60)])
        tok.save(str(path))
    return write


@pytest.mark.parametrize("mbart50", [True, False])
def test_a_chinese_text_with_the_folders_language_code_and_eos_which_take_positions(mbart50, tmp_path):
    """The folder's own tokenizer.json, post-processor included: the language code and </s> are special tokens of
    the text and take positions (rows 2, 3, ... in order, whatever they are); X is the encoder's on those ids."""
    config = tf.MBartConfig(**mh.FAMILIES["mbart"])
    config._attn_implementation = "eager"
    torch.manual_seed(5)
    torch_model = mh.save_random(tf.MBartForConditionalGeneration(config).eval(), tmp_path,
                                 tokenizer=_mbart_style_tokenizer(mbart50))
    with open_model(tmp_path) as model:
        tokens = model.tokenize("位置 编码").tokens
        assert [t.text for t in tokens] == (["zh_CN", "位置", "编码", "</s>"] if mbart50
                                            else ["位置", "编码", "</s>", "zh_CN"])
        assert [t.special for t in tokens] == ([True, False, False, True] if mbart50 else [False, False, True, True])
        ids = [t.id for t in tokens]
        table = _encoder(torch_model).embed_positions.weight.detach().numpy()
        np.testing.assert_array_equal(model.positions_of(ids), table[2:6])
        np.testing.assert_allclose(model.input_x(ids), _run(torch_model, ids)[0], rtol=0, atol=1e-5)


@pytest.mark.parametrize("family, x", [
    ("bart", "X<sub>pos</sub> = LayerNorm(E[id<sub>pos</sub>] + P[pos]), pos = 0 … "),
    ("bert", "X<sub>pos</sub> = LayerNorm(E[id<sub>pos</sub>] + P[pos] + T[0]), pos = 0 … "),
    ("gpt2", "X<sub>pos</sub> = E[id<sub>pos</sub>] + P[pos], pos = 0 … ")])
def test_the_learned_views_formula_writes_the_models_own_sum(family, x, tmp_path):
    """The Learned view's X line as families.input_x makes X (the Tokens view's): BART's layernorm_embedding of the
    sum, BERT's LayerNorm with token type 0, GPT-2's plain sum (it had written E + P[pos] for all three)."""
    from explorer.compute import models
    from explorer.compute.formulas_views import learned_lines
    from explorer.params import Params

    mh.build(family, tmp_path)
    try:
        assert learned_lines(Params(model=str(tmp_path)), 0, "en")[0].startswith(x)
    finally:
        models.forget(str(tmp_path))
