"""GPT-BigCode checkpoints (model_type "gpt_bigcode": StarCoder, SantaCoder, WizardCoder) against transformers'
GPTBigCodeConfig and GPTBigCodeForCausalLM.

The plain X, q / k per head, learned table and attention checks (multi_query and not) run with every other family
in tests/test_models_families.py; here: the class's defaults and attribute_map, a published config.json,
scale_attn_weights false, and the damaged checkpoints refused in one line.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from explorer.backend.models.config import model_config
from explorer.backend.models.families import input_norm_names, qk_names
from explorer.backend.models.hf_folder import open_model
from explorer.compute.qk_formula import _logit
from explorer.errors import InputError
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")

# bigcode/gpt_bigcode-santacoder's config.json as mlc-ai/mlc-llm keeps it (python/mlc_llm/model/model_preset.py,
# MODEL_PRESETS["gpt_bigcode"]; the dropout and summary keys left out)
SANTACODER = {"activation_function": "gelu_pytorch_tanh", "architectures": ["GPTBigCodeForCausalLM"],
              "attention_softmax_in_fp32": True, "multi_query": True, "bos_token_id": 49152, "eos_token_id": 49152,
              "initializer_range": 0.02, "layer_norm_epsilon": 1e-05, "model_type": "gpt_bigcode", "n_embd": 2048,
              "n_head": 16, "n_inner": 8192, "n_layer": 24, "n_positions": 2048,
              "scale_attention_softmax_in_fp32": True, "scale_attn_weights": True,
              "transformers_version": "4.28.0.dev0", "use_cache": True, "vocab_size": 49280}


def _as_class_reads(written: dict):
    """(GPTBigCodeConfig of config.json's keys, model_config of them)."""
    hf = tf.GPTBigCodeConfig(**{k: v for k, v in written.items() if k != "model_type"})
    return hf, model_config(json.loads(json.dumps(written)))


def _check_as_class(hf, cfg) -> None:
    """cfg's widths, heads and scale are those of the class's attention module built from hf (GPTBigCodeAttention:
    its kv_heads from multi_query, its head_dim, its scaling, c_attn's bias)."""
    from transformers.models.gpt_bigcode.modeling_gpt_bigcode import GPTBigCodeAttention

    att = GPTBigCodeAttention(hf, layer_idx=0)
    assert (cfg.family, cfg.position, cfg.model_type) == ("gpt2", "learned", "gpt_bigcode")
    assert (cfg.d_model, cfg.n_layers, cfg.n_heads, cfg.n_kv_heads, cfg.max_positions, cfg.norm_eps) == (
        att.embed_dim, hf.num_hidden_layers, att.num_heads, att.kv_heads, hf.max_position_embeddings,
        hf.layer_norm_epsilon)
    assert cfg.head_dim == att.head_dim and cfg.n_heads // cfg.n_kv_heads == att.num_key_value_groups
    assert (cfg.score_scalar or cfg.head_dim) ** -0.5 == pytest.approx(att.scaling, rel=1e-12)
    assert (cfg.qk_bias, cfg.pre_norm, cfg.embed_scale) == (att.c_attn.bias is not None, True, 1.0)


def test_the_class_defaults_read_as_gptbigcodeconfig_has_them():
    """GPTBigCodeConfig(): 768 wide, 12 layers, 12 heads of 64, one kv head (multi_query), 1,024 positions, eps 1e-5."""
    hf = tf.GPTBigCodeConfig()
    cfg = model_config(json.loads(json.dumps(hf.to_dict())))
    _check_as_class(hf, cfg)
    assert (cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim, cfg.max_positions) == (768, 12, 1, 64, 1024)
    bare = model_config({"model_type": "gpt_bigcode", "vocab_size": 10})      # every other key the class's default
    assert (bare.d_model, bare.n_layers, bare.n_heads, bare.n_kv_heads, bare.max_positions, bare.norm_eps) == (
        768, 12, 12, 1, 1024, 1e-5)
    assert input_norm_names(cfg, 0) == ("h.0.ln_1.weight", "h.0.ln_1.bias")


def test_santacoders_published_config_reads_as_the_class_reads_it():
    """santacoder: 2,048 wide, 24 layers, 16 heads of 128 and one kv head, 2,048 positions, 49,280 tokens; its c_attn
    then has 2,048 + 2 x 128 rows, read in whole blocks."""
    hf, cfg = _as_class_reads(SANTACODER)
    _check_as_class(hf, cfg)
    assert (cfg.d_model, cfg.n_layers, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim) == (2048, 24, 16, 1, 128)
    assert (cfg.max_positions, cfg.vocab_size) == (2048, 49280)
    assert qk_names(cfg, 3) == {"qkv_rows": "h.3.attn.c_attn.weight", "qkv_fused_bias": "h.3.attn.c_attn.bias"}
    _, mha = _as_class_reads({**SANTACODER, "multi_query": False})
    assert mha.n_kv_heads == 16 and "qkv_heads" in qk_names(mha, 0)


@pytest.mark.parametrize("extra", [
    {"hidden_size": 64, "num_attention_heads": 2, "num_hidden_layers": 3, "max_position_embeddings": 80},
    {"num_key_value_heads": 4},                      # (its attention reads multi_query, never this key)
    {"multi_query": False, "num_key_value_heads": 1}, {"layer_norm_epsilon": 0.25}, {"scale_attn_weights": False}])
def test_attribute_map_names_and_kv_heads_read_as_the_class_reads_them(extra):
    """hidden_size, num_attention_heads, ... win over n_embd, n_head, ... (attribute_map); num_key_value_heads is
    not read: the attention's kv heads are multi_query's, whatever config.json says."""
    written = {"model_type": "gpt_bigcode", "vocab_size": 10, "n_embd": 32, "n_head": 4, "n_layer": 2,
               "n_positions": 40, **extra}
    hf, cfg = _as_class_reads(written)
    _check_as_class(hf, cfg)


def _build(folder, seed: int = 3, **extra):
    config = tf.GPTBigCodeConfig(**{**mh.FAMILIES["gpt_bigcode"], **extra})
    config._attn_implementation = "eager"
    torch.manual_seed(seed)
    return mh.save_random(tf.GPTBigCodeForCausalLM(config).eval(), folder)


def test_scale_attn_weights_false_leaves_q_k_unscaled_as_transformers_does(tmp_path):
    """scale_attn_weights false: scaling 1.0, the logits q·k themselves; softmax equals transformers' attentions."""
    torch_model = _build(tmp_path, scale_attn_weights=False)
    with open_model(tmp_path) as model:
        assert model.config.score_scalar == 1.0
        ids = model.tokenize(mh.TEXT).ids
        qk = model.layer0_qk(ids)
        np.testing.assert_allclose(qk.logits, np.einsum("hmd,hnd->hmn", qk.q, qk.k), rtol=1e-5, atol=1e-4)
        with torch.no_grad():
            out = torch_model(input_ids=torch.as_tensor(np.asarray(ids)[None]), output_attentions=True)
        want = out.attentions[0][0].numpy()                                   # (H, n, n)
        np.testing.assert_allclose(mh.attention_of(qk), want, rtol=0, atol=1e-5)
        assert "not scaled" in _logit(model.config)
    _build(tmp_path / "scaled")                      # (scale_attn_weights true, the default: / sqrt(head_dim))
    with open_model(tmp_path / "scaled") as model:
        assert _logit(model.config).endswith("/ √head_dim (√8)")


@pytest.mark.parametrize("suffix, change, match", [
    # GPT-2's square c_attn (3d rows) where multi_query makes d + 2 head_dim rows
    ("h.0.attn.c_attn.weight", lambda w: np.zeros((96, 32), np.float32), "has 96 rows; config.json says 32 q, 8 k"),
    ("h.0.attn.c_attn.bias", lambda b: b[:40], "c_attn.bias"),
    ("h.0.ln_1.bias", lambda b: b[:8], "ln_1.bias")])
def test_a_damaged_layer_0_is_refused_in_one_line(tmp_path, suffix, change, match):
    mh.assert_damaged_refused("gpt_bigcode", tmp_path, suffix, change, match)


@pytest.mark.parametrize("suffix, change, match", [
    ("wpe.weight", lambda w: None, "has no tensor 'wpe.weight'"),
    ("wpe.weight", lambda w: w[:, :16], "the position table has shape"),
    ("wte.weight", lambda w: w[:, :16], "the token table has shape")])
def test_damaged_tables_are_refused_at_open_in_one_line(tmp_path, suffix, change, match):
    mh.build("gpt_bigcode", tmp_path)
    mh.rewrite_tensor(tmp_path, suffix, change)
    with pytest.raises(InputError, match=match) as info:
        open_model(tmp_path)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("key, value", [("multi_query", "true"), ("scale_attn_weights", 1), ("n_head", 5),
                                        ("n_embd", 0)])
def test_bad_config_keys_are_refused_in_one_line(key, value):
    written = {**SANTACODER, key: value}
    with pytest.raises(InputError) as info:
        model_config(written)
    assert "\n" not in str(info.value) and (key in str(info.value) or "multiple" in str(info.value))


def test_a_text_longer_than_the_position_table_is_refused(tmp_path):
    _build(tmp_path)
    with open_model(tmp_path) as model:
        with pytest.raises(InputError, match="longer than the model's 40 learned positions"):
            model.input_x(model.tokenize(" ".join([mh.TEXT] * 4)).ids)
