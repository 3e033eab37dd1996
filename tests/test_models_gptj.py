"""GPT-J checkpoints (model_type "gptj") against transformers' GPTJConfig and GPTJForCausalLM.

What differs from every other RoPE family here: the rotated channels are paired with their neighbours,
(2i, 2i + 1) (rotate_every_two, the RoFormer / Mesh Transformer JAX convention), not channel i with
i + rot/2 (rotate-half); only the first rotary_dim channels of each head turn; the base is 10,000 in the
model class itself (create_sinusoidal_positions). The plain X, q/k and RoPE checks run with every other
family in tests/test_models_families.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.attention import rotate
from explorer.backend.models.config import model_config
from explorer.errors import InputError
from tests import models_helpers as mh

tf = pytest.importorskip("transformers")
pytest.importorskip("torch")

# EleutherAI/gpt-j-6b in GPTJConfig's keys: 28 layers, 16 heads of 256 channels, 64 of them turning, 2048
# positions, vocabulary 50400 (the values TensorRT-LLM's checkpoint docs list for it)
GPT_J_6B = {"model_type": "gptj", "architectures": ["GPTJForCausalLM"], "n_embd": 4096, "n_head": 16,
            "n_layer": 28, "n_positions": 2048, "rotary_dim": 64, "layer_norm_epsilon": 1e-5,
            "vocab_size": 50400, "torch_dtype": "float16"}


def test_gpt_j_6b_config_turns_64_of_256_channels_at_base_10000():
    cfg = model_config(GPT_J_6B)
    assert (cfg.family, cfg.position, cfg.d_model, cfg.n_heads, cfg.head_dim, cfg.rope_dim) == (
        "gptj", "rope", 4096, 16, 256, 64)
    assert cfg.rope_base == 10000.0 and cfg.partial_rotary_factor == 0.25 and cfg.rope_interleaved
    assert (cfg.qk_bias, cfg.norm_eps, cfg.max_positions, cfg.rope_refusal) == (False, 1e-5, 2048, None)


@pytest.mark.parametrize("heads, head_dim, rotary", [(1, 46, 26), (3, 45, 26), (5, 47, 6), (7, 49, 2), (2, 96, 28)])
def test_any_even_rotary_dim_turns_exactly_that_many_channels(heads, head_dim, rotary):
    """rotary_dim / head_dim is kept as a fraction whose int(head_dim x p) is rotary_dim (26 / 46 x 46 is
    25.999...: read back as 24 turned channels)."""
    assert int(head_dim * (rotary / head_dim)) != rotary or head_dim == 96     # (the cases that need it)
    cfg = model_config({**GPT_J_6B, "n_embd": head_dim * heads, "n_head": heads, "rotary_dim": rotary})
    assert (cfg.head_dim, cfg.rope_dim) == (head_dim, rotary)


@pytest.mark.parametrize("rotary", [None, 0, 3, 258, "64", 64.0])
def test_a_rotary_dim_gpt_j_cannot_run_is_refused_in_one_line(rotary):
    with pytest.raises(InputError, match="rotary_dim must be an even whole number from 2 to head_dim 256"):
        model_config({**GPT_J_6B, "rotary_dim": rotary})


def test_gpt_js_other_key_names_are_read_as_gptj_config_maps_them():
    """Found by a helper's attack: GPTJConfig's attribute_map makes max_position_embeddings, hidden_size,
    num_attention_heads and num_hidden_layers other names of n_positions, n_embd, n_head and n_layer (set
    after them: they win); the length limit read n_positions alone. A bad epsilon is named as written."""
    renamed = {"model_type": "gptj", "hidden_size": 4096, "num_attention_heads": 16, "num_hidden_layers": 28,
               "max_position_embeddings": 20, "vocab_size": 50400}
    want = tf.GPTJConfig(**{k: v for k, v in renamed.items() if k != "model_type"})
    cfg = model_config(renamed)
    assert (cfg.d_model, cfg.n_heads, cfg.n_layers, cfg.max_positions) == (
        want.n_embd, want.n_head, want.n_layer, want.n_positions) == (4096, 16, 28, 20)
    assert model_config({**GPT_J_6B, "max_position_embeddings": 20}).max_positions == 20
    with pytest.raises(InputError, match="layer_norm_epsilon must be a positive number, not 'x'"):
        model_config({**GPT_J_6B, "layer_norm_epsilon": "x"})


def test_interleaved_pairs_turn_neighbours_as_rotate_every_two_does():
    """rotate(..., interleaved=True) equals transformers' own apply_rotary_pos_emb of GPT-J on the
    turned channels, and leaves the rest of the head as it was."""
    import torch
    from transformers.models.gptj.modeling_gptj import apply_rotary_pos_emb, create_sinusoidal_positions

    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 9, 16)).astype(np.float32)                   # (H, n, hd)
    rot = 6
    sincos = create_sinusoidal_positions(9, rot)                              # (n, rot): sin | cos
    sin, cos = sincos[None, :, : rot // 2], sincos[None, :, rot // 2:]
    turned = apply_rotary_pos_emb(torch.from_numpy(x[..., :rot].transpose(1, 0, 2))[None], sin, cos)
    want = turned[0].numpy().transpose(1, 0, 2)                               # (H, n, rot)
    inv_freq = 1.0 / (10000 ** (np.arange(0, rot, 2) / rot))
    got = rotate(x, inv_freq.astype(np.float32), interleaved=True)
    np.testing.assert_allclose(got[..., :rot], want, atol=1e-5)
    assert np.array_equal(got[..., rot:], x[..., rot:])
    assert not np.allclose(got[..., :rot], rotate(x, inv_freq.astype(np.float32))[..., :rot])   # not rotate-half


def test_a_gpt_j_folder_equals_transformers_layer_0(tmp_path):
    """X, q and k after RoPE and the causal softmax equal GPTJForCausalLM's own for 39 tokens; past its
    40 positions GPT-J has no sines to turn by (transformers: an IndexError), and q and k are refused."""
    from explorer.backend.models.hf_folder import open_model

    torch_model = mh.build("gptj", tmp_path, seed=7)
    with open_model(tmp_path) as model:
        assert model.config.rope_interleaved and model.config.rope_dim == 4
        ids = model.tokenize(" ".join([mh.TEXT] * 3)).ids
        mh.assert_layer0_as_transformers(model, torch_model, "gptj", ids)
        longer = model.tokenize(" ".join([mh.TEXT] * 4)).ids
        with pytest.raises(InputError, match="52 tokens is longer than GPT-J's table of 40 rotary positions"):
            model.layer0_qk(longer)
        assert model.input_x(longer).shape == (52, 32)            # X needs no position
    mh.rewrite_tensor(tmp_path, "h.0.ln_1.bias", lambda b: b[:1])         # (a helper's attack: broadcast)
    with open_model(tmp_path) as model:
        with pytest.raises(InputError, match=r"ln_1.bias has shape \(1,\), not \(32,\)"):
            model.layer0_qk(ids)
