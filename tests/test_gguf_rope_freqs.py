"""Llama 3.x GGUFs: `rope_freqs.weight` (llama.cpp's per-pair divisors of theta_i) -> the model's own RoPE.

The factors are written from transformers' llama3 RoPE (ROPE_INIT_FUNCTIONS["llama3"]: default inv_freq divided
by llama3 inv_freq), as llama.cpp's LlamaModel.generate_extra_tensors writes them. Opened, the model's rotated
q/k equal transformers' LlamaModel with that rope_scaling to 1e-5: as llama3 parameters when they are Llama 3.x's
(1, 4, 8192), as the factors themselves (a longrope with equal short/long factors, attention factor 1) otherwise.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.gguf_rope_freqs import llama_cpp_factors
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import gguf_arch_writer as aw
from tests import models_helpers as mh

pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2, 11, 12, 13, 14, 15, 16, 18, 19]
SCALINGS = {
    "llama3.1": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                 "original_max_position_embeddings": 8192},
    "llama3.2": {"factor": 32.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                 "original_max_position_embeddings": 8192},
    "other": {"factor": 16.0, "low_freq_factor": 2.0, "high_freq_factor": 8.0,
              "original_max_position_embeddings": 4096},
}


def close(ours, ref, tol=1e-5):
    ref = np.asarray(ref, dtype=np.float64)
    np.testing.assert_allclose(ours, ref, rtol=0, atol=tol * max(1.0, float(np.abs(ref).max())))


def llama3_model(scaling: dict, seed: int = 2):
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(seed)
    params = {"rope_type": "llama3", "rope_theta": 500000.0, **scaling}
    config = LlamaConfig(**{**mh.SMALL, "num_key_value_heads": 2, "head_dim": 16, "rope_parameters": params})
    config._attn_implementation = "eager"
    model = LlamaForCausalLM(config).eval()
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0.0, 0.5)
    aw.fp16_exact(model)
    return model


def transformers_factors(model) -> np.ndarray:
    """default inv_freq / llama3 inv_freq, both from transformers' ROPE_INIT_FUNCTIONS; (head_dim/2,)."""
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    scaled, _ = ROPE_INIT_FUNCTIONS["llama3"](model.config, "cpu")
    plain = 1.0 / (500000.0 ** (torch.arange(0, 16, 2, dtype=torch.int64).float() / 16))
    return (plain / scaled).numpy().astype(np.float32)


@pytest.mark.parametrize("name", sorted(SCALINGS))
def test_rope_freqs_give_transformers_llama3_rope(name, tmp_path):
    torch_model = llama3_model(SCALINGS[name])
    factors = transformers_factors(torch_model)
    assert 1.0 in factors and factors.max() == SCALINGS[name]["factor"] and np.any((factors > 1)
                                                                                   & (factors < factors.max()))
    s = SCALINGS[name]
    np.testing.assert_allclose(factors, llama_cpp_factors(5e5, 16, s["factor"], s["low_freq_factor"],
                                                          s["high_freq_factor"],
                                                          s["original_max_position_embeddings"]), rtol=1e-6)
    path = tmp_path / "m.gguf"
    aw.write_family_gguf(path, torch_model, "llama", "F16", rope_freqs=factors)
    ref = mh.capture(torch_model, "llama", IDS)
    with open_model(str(path)) as model:
        params = model.config.rope_parameters
        if name == "other":
            assert params["rope_type"] == "longrope" and params["attention_factor"] == 1.0
            np.testing.assert_array_equal(params["short_factor"], factors)
        else:
            assert params == {"rope_type": "llama3", "rope_theta": 500000.0, **SCALINGS[name]}
        inv, scale = model.rope_inv_freq(len(IDS))
        np.testing.assert_allclose(inv, 1.0 / (5e5 ** (np.arange(0, 16, 2) / 16)) / factors, rtol=1e-6)
        assert scale == 1.0
        qk = model.layer0_qk(IDS)
        close(qk.q_rot, ref["q_rot"])
        close(qk.k_rot, ref["k_rot"][qk.kv_head])


def test_without_rope_freqs_the_rotation_differs(tmp_path):
    """The same file without the factors rotates with plain RoPE: the tensor is what makes it Llama 3."""
    torch_model = llama3_model(SCALINGS["llama3.1"])
    path = tmp_path / "m.gguf"
    aw.write_family_gguf(path, torch_model, "llama", "F16")
    ref = mh.capture(torch_model, "llama", IDS)
    with open_model(str(path)) as model:
        assert model.config.rope_parameters["rope_type"] == "default"
        assert not np.allclose(model.layer0_qk(IDS).q_rot, ref["q_rot"], atol=1e-4)


def test_all_ones_are_plain_rope(tmp_path):
    torch_model = llama3_model(SCALINGS["llama3.1"])
    path = tmp_path / "m.gguf"
    aw.write_family_gguf(path, torch_model, "llama", "F16", rope_freqs=np.ones(8, np.float32))
    with open_model(str(path)) as model:
        assert model.config.rope_parameters["rope_type"] == "default"


@pytest.mark.parametrize("arch,factors,match", [
    ("llama", np.ones(6, np.float32) * 2, r"tensor rope_freqs\.weight has 6 factors; RoPE rotates 8 pairs$"),
    ("llama", np.array([1, 2, 0, 4, 4, 4, 4, 4], np.float32), r"rope_freqs\.weight must hold finite factors > 0$"),
    ("qwen2", np.ones(8, np.float32) * 2,
     r"rope_freqs\.weight is only read in a 'llama', 'llama4', 'exaone4' or 'apertus' file"),
])
def test_bad_rope_freqs_are_refused(tmp_path, arch, factors, match):
    torch_model = llama3_model(SCALINGS["llama3.1"])
    path = tmp_path / "m.gguf"
    aw.write_family_gguf(path, torch_model, arch, "F16", rope_freqs=factors)
    with pytest.raises(InputError, match=match) as info:
        open_model(str(path))
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("name", ["llama3.1", "llama3.2"])
def test_real_llama3_shapes_recover_their_parameters(name):
    """Llama 3.1 8B / 3.2 1B shapes (head_dim 128 / 64, theta 500,000): the factors transformers implies, as
    llama.cpp stores them (float32), give back exactly the llama3 rope_scaling of config.json."""
    from transformers import LlamaConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    from explorer.backend.models.gguf_rope_freqs import rope_scaling_from_factors

    head_dim = 128 if name == "llama3.1" else 64
    params = {"rope_type": "llama3", "rope_theta": 500000.0, **SCALINGS[name]}
    config = LlamaConfig(hidden_size=32 * head_dim, num_attention_heads=32, head_dim=head_dim,
                         max_position_embeddings=131072, rope_parameters=params)
    scaled, _ = ROPE_INIT_FUNCTIONS["llama3"](config, "cpu")
    plain = 1.0 / (500000.0 ** (torch.arange(0, head_dim, 2, dtype=torch.int64).float() / head_dim))
    factors = (plain / scaled).numpy().astype(np.float32)
    got = rope_scaling_from_factors(factors, 500000.0, head_dim, 131072, "x.gguf")
    assert got == {"rope_type": "llama3", **SCALINGS[name]}
