"""GGUF files of OLMo 2 (llama.cpp's `olmo2`) against the transformers Olmo2ForCausalLM they came from.

Each tiny random model is written as convert_hf_to_gguf.py's Olmo2Model writes it (tests/gguf_converter_writer.py:
gguf-py's TensorNameMap, no permutation: llama.cpp turns olmo2 with NEOX RoPE). The file has no attn_norm (OLMo 2
normalises after attention) and q/k norms as wide as all of q's and k's heads. F16 files hold float16-rounded
weights exactly, so X, layer-0 q/k after RoPE and the causal softmax equal the model's own.
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


def _written(tmp_path, edit=None):
    torch_model = aw.fp16_random_model("olmo2", tmp_path / "hf", 19, mh.FAMILIES["olmo2"])
    gw.write_converted(tmp_path / "m.gguf", torch_model, "olmo2", edit=edit)
    return torch_model


@pytest.mark.parametrize("ids", [IDS, IDS * 4], ids=["12 tokens", "48 tokens"])
def test_x_rotated_qk_and_attention_equal_transformers(tmp_path, ids):
    torch_model = _written(tmp_path)
    names = {t.name for t in gguf.GGUFReader(str(tmp_path / "m.gguf")).tensors}
    assert "blk.0.attn_norm.weight" not in names and "blk.0.post_attention_norm.weight" in names
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert (model.config.family, model.config.pre_norm, model.config.qk_norm) == ("olmo2", False, True)
        mh.assert_layer0_as_transformers(model, torch_model, "olmo2", ids)


def _narrow_q_norm(w, stored):
    """A per-head (Qwen3-wide) q norm where OLMo 2's spans all heads."""
    gw.replace_tensor(w, stored, "blk.0.attn_q_norm.weight", stored["blk.0.attn_q_norm.weight"][:8].copy())


def _biases(w, stored):
    """q/k biases, which llama.cpp's olmo2 has no tensor for (it refuses the file)."""
    for part, rows in (("q", 32), ("k", 16)):
        fx.add_weight(w, f"blk.0.attn_{part}.bias", np.full(rows, 3.0, np.float32), "F16")


def _half_turned(w, stored):
    w.add_rope_dimension_count(4)


@pytest.mark.parametrize("edit, match", [
    (_narrow_q_norm, r"tensor blk\.0\.attn_q_norm\.weight has shape \[8\], expected \[32\]"),
    # found by a helper's attack: both were read, where llama.cpp refuses the file (an unknown tensor) or
    # aborts (olmo2.cpp asserts n_rot == head_dim)
    (_biases, r"tensor blk\.0\.attn_q\.bias is not part of an olmo2 file"),
    (_half_turned, "olmo2.rope.dimension_count is 4; llama.cpp's olmo2 turns the whole head"),
    (lambda w, stored: w.add_key_length(16), "olmo2.attention.key_length is 16; llama.cpp's olmo2 takes")])
def test_bad_olmo2_files_are_refused_in_one_line(tmp_path, edit, match):
    _written(tmp_path, edit=edit)
    with pytest.raises(InputError, match=match) as info:
        open_model(str(tmp_path / "m.gguf"))
    assert "\n" not in str(info.value)
