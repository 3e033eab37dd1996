"""EXAONE 4.0 (model_type exaone4: EXAONE-4.0-1.2B, EXAONE-4.0-32B) against transformers 5.25's Exaone4Config and
Exaone4ForCausalLM (explorer.backend.models.exaone4).

What the tests pin down (modeling_exaone4.py): no norm before attention (Exaone4DecoderLayer's norms come after
attention and MLP, so a layer reads the residual stream); q_proj / k_proj, then q_norm / k_norm over each head, then
RoPE; RoPE only `if self.sliding_window is None or self.is_sliding` (Exaone4Attention.forward): with a window the
full layers are NoPE, without one every layer turns. Windows of 6 tokens on a 52-token text make the mask show."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from explorer.backend.models.config import model_config
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")

LLAMA3 = {"rope_type": "llama3", "factor": 16.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
          "original_max_position_embeddings": 8192}
# EXAONE-4.0-32B's config.json as TensorRT-LLM's Exaone4 test quotes it (EXAONE4_SINGLE_LAYER_CONFIG, found with the
# find_string tool on '"eos_token_id": 361,'), with the 64 layers and 4,096-token window its NOTEs say it cut to 4
EXAONE_32B = {"architectures": ["Exaone4ForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 1, "eos_token_id": 361,
              "head_dim": 128, "hidden_act": "silu", "hidden_size": 5120, "initializer_range": 0.02,
              "intermediate_size": 27392, "max_position_embeddings": 131072, "model_type": "exaone4",
              "num_attention_heads": 40, "num_hidden_layers": 64, "num_key_value_heads": 8, "pad_token_id": 0,
              "rms_norm_eps": 1e-05, "rope_scaling": dict(LLAMA3), "rope_theta": 1000000, "sliding_window": 4096,
              "sliding_window_pattern": 4, "tie_word_embeddings": False, "torch_dtype": "bfloat16",
              "transformers_version": "4.54.0.dev0", "use_cache": True, "vocab_size": 102400}
# EXAONE-4.0-1.2B's shape as Ollama's exaone4 parseConfig test quotes it ("exaone 4 top-level rope_scaling", found
# with find_string on '"sliding_window_pattern": "LLLG",'); that quote names neither sliding_window nor layer_types,
# which Exaone4Config cannot run without ("LLLG" is no number): the 1.2B has no window, every layer full
EXAONE_1_2B = {"architectures": ["Exaone4ForCausalLM"], "model_type": "exaone4", "hidden_size": 2048,
               "intermediate_size": 4096, "num_hidden_layers": 30, "num_attention_heads": 32, "num_key_value_heads": 8,
               "max_position_embeddings": 65536, "rms_norm_eps": 1e-5, "sliding_window_pattern": "LLLG",
               "rope_theta": 1000000, "rope_scaling": dict(LLAMA3), "vocab_size": 102400}
WITHOUT_WINDOW = {"sliding_window": None, "layer_types": ["full_attention"] * 30}
ROPE = {"rope_type": "llama3", "rope_theta": 700.0, "factor": 4.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
        "original_max_position_embeddings": 10}
TINY = dict(mh.SMALL, num_hidden_layers=4, num_key_value_heads=2, head_dim=12, rope_parameters=ROPE)


def _class_config(written: dict):
    return tf.Exaone4Config(**{k: v for k, v in written.items() if k not in ("model_type", "architectures")})


def test_the_class_defaults_read_as_transformers_reads_them():
    """Exaone4Config(): 4096 wide, 32 heads and 32 kv heads, a 4,096-token window on layers 0-2 of every 4, the 4th
    full and NoPE, base 10,000, eps 1e-5, 2048 positions; no norm before attention, q/k norms per head."""
    hf, cfg = mh.read_defaults(tf.Exaone4Config, "exaone4")
    assert cfg.layer_types == tuple(hf.layer_types) and cfg.layer_types[:4] == ("sliding_attention",) * 3 + (
        "full_attention",)
    assert [cfg.window_of(i) for i in range(4)] == [hf.sliding_window] * 3 + [None] == [4096] * 3 + [None]
    assert cfg.nope_layers == tuple(range(3, hf.num_hidden_layers, 4))
    assert (cfg.n_kv_heads, cfg.norm_eps, cfg.max_positions, cfg.rope_base) == (
        hf.num_key_value_heads, hf.rms_norm_eps, hf.max_position_embeddings, hf.rope_parameters["rope_theta"])
    assert (cfg.pre_norm, cfg.qk_norm, cfg.qk_bias, cfg.rope_interleaved) == (False, True, False, False)


def test_the_published_32b_and_1_2b_configs_open_with_their_layers_and_rope():
    """32B: layers 3, 7, ..., 63 full and NoPE, the others sliding over 4,096 tokens; 1.2B: no window, 30 full layers
    that all turn; both Llama 3 RoPE x16 from 8,192 at base 1e6, as Exaone4Config standardises them."""
    big = model_config(EXAONE_32B)
    ref = _class_config(EXAONE_32B)
    assert big.layer_types == tuple(ref.layer_types) and big.nope_layers == tuple(range(3, 64, 4))
    assert [big.window_of(i) for i in (0, 3, 62, 63)] == [4096, None, 4096, None]
    assert (big.d_model, big.n_heads, big.n_kv_heads, big.head_dim, big.dtype) == (5120, 40, 8, 128, "bfloat16")
    listed = {**EXAONE_32B, "sliding_window_pattern": "LLLG", "layer_types": list(ref.layer_types)}   # (unread then)
    assert model_config(listed).layer_types == tuple(_class_config(listed).layer_types) == big.layer_types
    small_written = {**EXAONE_1_2B, **WITHOUT_WINDOW}
    small, small_ref = model_config(small_written), _class_config(small_written)
    assert small.layer_types == tuple(small_ref.layer_types) == ("full_attention",) * 30
    assert (small.sliding_window, small.nope_layers, small.head_dim) == (None, (), 64)
    for cfg, hf in ((big, ref), (small, small_ref)):
        params = hf.rope_parameters
        assert (cfg.rope_base, cfg.rope_scaling.rope_type, cfg.rope_scaling.factor) == (
            params["rope_theta"], "llama3", params["factor"]) == (1e6, "llama3", 16.0)
        assert (cfg.rope_scaling.low_freq_factor, cfg.rope_scaling.high_freq_factor,
                cfg.rope_scaling.original_max_position_embeddings) == (1.0, 4.0, 8192)
        assert cfg.rope_type_label.startswith("llama3 ×16")


def _reference(torch_model, ids, layer: int) -> dict:
    """Layer `layer` of the torch model on ids: its input hidden state, q / k after q_norm / k_norm (H, n, hd),
    the q / k its eager attention receives (after RoPE, if any) and its attention weights."""
    module = importlib.import_module("transformers.models.exaone4.modeling_exaone4")
    original, got = module.eager_attention_forward, {}
    block = torch_model.model.layers[layer]

    def spy(att, q, k, *rest, **kw):
        out = original(att, q, k, *rest, **kw)
        if att.layer_idx == layer:
            got.update(q_rot=q[0].numpy().copy(), k_rot=k[0].numpy().copy(), weights=out[1][0].numpy().copy())
        return out

    def keep(key):
        def hook(mod, args, out):                     # (returns None: the output is left as it is)
            got.setdefault(key, out[0].detach().numpy().copy())
        return hook

    def keep_input(mod, args, kw):
        got.setdefault("x", (args[0] if args else kw["hidden_states"])[0].numpy().copy())

    hooks = [block.register_forward_pre_hook(keep_input, with_kwargs=True),
             block.self_attn.q_norm.register_forward_hook(keep("q")),
             block.self_attn.k_norm.register_forward_hook(keep("k"))]
    module.eager_attention_forward = spy
    try:
        with torch.no_grad():
            torch_model(input_ids=torch.as_tensor(np.asarray(ids)[None, :]))
    finally:
        module.eager_attention_forward = original
        for h in hooks:
            h.remove()
    return got


def same_layer(model, torch_model, ids, layer: int):
    """Layer `layer` of the opened model (layer 0 from ids, a later one from its real input) equals the torch
    model's: X (layer 0), q / k before and after RoPE, the attention weights; the opened model's qk."""
    ref = _reference(torch_model, ids, layer)
    if layer == 0:
        close(model.input_x(ids), ref["x"])
    qk = model.layer0_qk(ids if layer == 0 else ref["x"], layer=layer)
    close(qk.q, ref["q"])
    close(qk.k, ref["k"][qk.kv_head])
    close(qk.q_rot, ref["q_rot"])
    close(qk.k_rot, ref["k_rot"][qk.kv_head])
    close(mh.attention_of(qk), ref["weights"])
    return qk


def close(ours, ref, tol=1e-5):
    ref = np.asarray(ref, dtype=np.float64)
    np.testing.assert_allclose(ours, ref, rtol=0, atol=tol * max(1.0, float(np.abs(ref).max())))


@pytest.mark.parametrize("name, change, nope", [
    ("a 6-token window: layers 0-2 slide with RoPE, layer 3 full and NoPE", {"sliding_window": 6}, (3,)),
    ("no window (as the 1.2B): every layer full and turned", {"sliding_window": None,
                                                               "layer_types": ["full_attention"] * 4}, ()),
    ("a window, layer 0 full (NoPE) by layer_types", {"sliding_window": 6, "layer_types": [
        "full_attention", "sliding_attention", "sliding_attention", "full_attention"]}, (0, 3)),
])
def test_exaone4_layers_equal_transformers(tmp_path, name, change, nope):
    """X; q / k before RoPE (after the per-head norms, with no norm before attention); q / k after RoPE exactly as
    Exaone4Attention hands them to its attention, NoPE layers untouched; the attention weights (sliding window
    masks included), for layer 0 and the full layer 3, from the layer's own input hidden state."""
    config = tf.Exaone4Config(**{**TINY, **change})
    config._attn_implementation = "eager"
    torch.manual_seed(5)
    reference = mh.save_random(tf.Exaone4ForCausalLM(config).eval(), tmp_path)
    with open_model(tmp_path) as model:
        assert (model.config.family, model.config.nope_layers) == ("exaone4", nope)
        ids = model.tokenize(" ".join([mh.TEXT] * 4)).ids
        for layer in (0, 3):
            qk = same_layer(model, reference, ids, layer)
            assert np.array_equal(qk.q_rot, qk.q) == (layer in nope)          # NoPE: nothing turned
            assert qk.window == (6 if config.layer_types[layer] == "sliding_attention" else None)


@pytest.mark.parametrize("change, says", [
    ({"sliding_window": None}, "sliding_window is null and layer_types is missing"),
    ({"sliding_window_pattern": "LLLG"}, "sliding_window_pattern must be a whole number >= 1, not 'LLLG'"),
    ({"sliding_window_pattern": 0}, "sliding_window_pattern must be a whole number >= 1, not 0"),
])
def test_configs_exaone4config_cannot_make_layer_types_from_are_refused_in_one_line(change, says):
    """A null window or a pattern that is no positive number, without layer_types: Exaone4Config itself fails
    (ZeroDivisionError, TypeError), and PE Explorer refuses the config in one line."""
    written = {**TINY, "model_type": "exaone4", **change}
    with pytest.raises((ZeroDivisionError, TypeError)):
        _class_config(written)
    with pytest.raises(InputError, match=says) as info:
        model_config(written)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("change, says", [
    ({"layer_types": ["full_attention"] * 3}, "layer_types must list 4 of sliding_attention / full_attention"),
    ({"sliding_window": "4096"}, "sliding_window must be a whole number from 1 to 2\\^31 - 1 or null, not '4096'"),
    ({"num_key_value_heads": None}, "num_key_value_heads must be a positive integer, not null"),
    ({"num_key_value_heads": 3}, "num_attention_heads 4 is not a multiple of num_key_value_heads 3"),
    ({"rms_norm_eps": "1e-5"}, "rms_norm_eps must be a positive number"),
])
def test_bad_exaone4_fields_are_refused_in_one_line(change, says):
    with pytest.raises(InputError, match=says) as info:
        model_config({**TINY, "model_type": "exaone4", **change})
    assert "\n" not in str(info.value)


def test_a_null_window_beside_sliding_layers_opens_but_refuses_its_attention():
    """layer_types naming sliding layers with sliding_window null: transformers cannot build their mask; the
    model opens, layer q/k are refused."""
    cfg = model_config({**TINY, "model_type": "exaone4", "sliding_window": None,
                        "layer_types": ["sliding_attention"] * 3 + ["full_attention"]})
    assert cfg.nope_layers == () and "sliding_window is null beside sliding_attention layers" in str(
        cfg.attention_refusal)
