"""GGUF files of Phi-2 (llama.cpp's `phi2`) against the transformers PhiForCausalLM they came from.

Each tiny random model is written as convert_hf_to_gguf.py's Phi2Model writes it (tests/gguf_converter_writer.py:
gguf-py's TensorNameMap, no rope freq base, the LayerNorm epsilon, rope.dimension_count from the fraction).
The first Phi-2 checkpoints had one mixer.Wqkv, which the converter stores as attn_qkv (rows q, k, v, and
its bias); llama.cpp's phi2 graph reads either layout, and so does PE Explorer. F16 files hold
float16-rounded weights exactly, so X, layer-0 q/k after RoPE and the causal softmax equal the model's own.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import gguf_arch_writer as aw
from tests import gguf_converter_writer as gw
from tests import gguf_fixtures as fx
from tests import models_helpers as mh

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2]
# llama.cpp's phi2: kv heads = heads, no q/k LayerNorms, and no freq base written: 10,000 (Phi-2's own)
PHI_2_LIKE = dict(mh.FAMILIES["phi"], num_key_value_heads=4, qk_layernorm=False, rope_theta=10000.0)


def _written(tmp_path, fraction: float = 0.5, edit=None):
    torch_model = aw.fp16_random_model("phi", tmp_path / "hf", 11, dict(PHI_2_LIKE, partial_rotary_factor=fraction))
    gw.write_converted(tmp_path / "m.gguf", torch_model, "phi2", edit=edit)
    return torch_model


def _fused(w, stored):
    """The first Phi-2 layout: attn_q / attn_k / attn_v of every layer as one attn_qkv (rows q, k, v)."""
    for layer in range(2):
        for part in ("weight", "bias"):
            names = [f"blk.{layer}.attn_{x}.{part}" for x in "qkv"]
            rows = [stored.pop(name) for name in names]
            for tensors in w.tensors:
                for name in names:
                    tensors.pop(name, None)
            name = f"blk.{layer}.attn_qkv.{part}"
            stored[name] = fx.add_weight(w, name, np.concatenate(rows), "F16")


@pytest.mark.parametrize("layout", ["attn_q / attn_k / attn_v", "one attn_qkv (mixer.Wqkv)"])
@pytest.mark.parametrize("ids", [IDS, IDS * 3], ids=["12 tokens", "36 tokens"])
def test_x_rotated_qk_and_attention_equal_transformers(tmp_path, layout, ids):
    torch_model = _written(tmp_path, edit=_fused if "attn_qkv" in layout else None)
    in_file = {t.name for t in gguf.GGUFReader(str(tmp_path / "m.gguf")).tensors}
    assert ("blk.0.attn_qkv.weight" in in_file) == ("attn_qkv" in layout) != ("blk.0.attn_q.weight" in in_file)
    with open_model(str(tmp_path / "m.gguf")) as model:
        c = model.config
        assert (c.family, c.head_dim, c.rope_dim, c.partial_rotary_factor, c.qk_bias) == ("phi", 8, 4, 0.5, True)
        mh.assert_layer0_as_transformers(model, torch_model, "phi", ids)


def test_a_whole_head_turning_is_read_as_such_not_as_phi_configs_default_half(tmp_path):
    """rope.dimension_count = head_dim: the fraction 1 is written into the config (PhiConfig's default,
    where none is given, is 0.5)."""
    torch_model = _written(tmp_path, fraction=1.0)
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert (model.config.rope_dim, model.config.partial_rotary_factor) == (8, 1.0)
        mh.assert_layer0_as_transformers(model, torch_model, "phi", IDS)


def test_a_phi2_file_without_its_layernorm_epsilon_is_refused(tmp_path):
    _written(tmp_path, edit=fx.without_keys("phi2.attention.layer_norm_epsilon"))
    with pytest.raises(InputError, match=r"^[^\n]*metadata phi2\.attention\.layer_norm_epsilon is missing$"):
        open_model(str(tmp_path / "m.gguf"))


def _dropping(*names):
    def run(w, stored):
        for tensors in w.tensors:
            for name in names:
                tensors.pop(name, None)
    return run


def _adding_zero_qkv(w, stored):
    for layer in range(2):
        for part, rows in (("weight", (96, 32)), ("bias", (96,))):         # (4 + 2 x 4) heads of 8
            w.add_tensor(f"blk.{layer}.attn_qkv.{part}", np.zeros(rows, np.float32))


@pytest.mark.parametrize("edit, match", [
    (_dropping("blk.0.attn_norm.bias"), r"tensor blk\.0\.attn_norm\.bias is missing"),
    # found by a helper's attack: a later layer's missing bias was read as zeros, and a layer with both
    # layouts used its attn_qkv (llama.cpp's loader refuses both files)
    (_dropping("blk.1.attn_q.bias"), r"tensor blk\.1\.attn_q\.bias is missing"),
    (_adding_zero_qkv, r"layer 0 holds both attn_qkv and attn_q / attn_k / attn_v"),
])
def test_a_phi2_file_missing_a_bias_or_with_both_layouts_is_refused(tmp_path, edit, match):
    _written(tmp_path, edit=edit)
    with pytest.raises(InputError, match=rf"^[^\n]*{match}[^\n]*$"):
        open_model(str(tmp_path / "m.gguf"))


def test_a_fused_layer_missing_its_bias_is_refused_by_its_gguf_name(tmp_path):
    def fused_without_bias(w, stored):
        _fused(w, stored)
        _dropping("blk.1.attn_qkv.bias")(w, stored)

    _written(tmp_path, edit=fused_without_bias)
    with pytest.raises(InputError, match=r"^[^\n]*tensor blk\.1\.attn_qkv\.bias is missing$"):
        open_model(str(tmp_path / "m.gguf"))


def test_a_phi_folders_stray_qkv_proj_is_not_read(tmp_path):
    """Found by a helper's attack: a Hugging Face Phi folder with a qkv_proj beside q_proj (transformers
    reports it unexpected and ignores it) had its q and k read from the stray tensor."""
    from safetensors.numpy import load_file, save_file

    torch_model = mh.build("phi", tmp_path)
    tensors = load_file(tmp_path / "model.safetensors")
    tensors["model.layers.0.self_attn.qkv_proj.weight"] = np.zeros((64, 32), np.float32)   # (4 + 2 x 2) x 8
    save_file(tensors, tmp_path / "model.safetensors", metadata={"format": "pt"})
    with open_model(tmp_path) as model:
        mh.assert_layer0_as_transformers(model, torch_model, "phi", model.tokenize(mh.TEXT).ids)
