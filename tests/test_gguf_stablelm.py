"""GGUF files of StableLM (llama.cpp's `stablelm`) against the transformers StableLmForCausalLM they came from.

Each tiny random model is written as convert_hf_to_gguf.py's StableLMModel writes it (tests/gguf_converter_writer.py:
gguf-py's TensorNameMap, no permutation - llama.cpp turns stablelm with NEOX RoPE -, no rope freq base, so
llama.cpp's 10,000, rope.dimension_count = int(partial_rotary_factor x head_dim), the LayerNorm epsilon, and each
layer's per-head q/k LayerNorm weights stacked into one (heads, head_dim) attn_q_norm / attn_k_norm). F16 files
hold float16-rounded weights exactly, so X, layer-0 q/k after RoPE and the causal softmax equal the model's own.
"""

from __future__ import annotations

import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import gguf_arch_writer as aw
from tests import gguf_converter_writer as gw
from tests import models_helpers as mh

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2]


def _written(tmp_path, edit=None, **settings):
    rope = {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.5}   # (none written)
    torch_model = aw.fp16_random_model("stablelm", tmp_path / "hf", 23,
                                       dict(mh.FAMILIES["stablelm"], rope_parameters=rope, **settings))
    gw.write_converted(tmp_path / "m.gguf", torch_model, "stablelm", edit=edit)
    return torch_model


@pytest.mark.parametrize("settings", [{}, {"qk_layernorm": False, "use_qkv_bias": False}])
@pytest.mark.parametrize("ids", [IDS, IDS * 4], ids=["12 tokens", "48 tokens"])
def test_x_rotated_qk_and_attention_equal_transformers(tmp_path, settings, ids):
    """With the per-head q/k norms (stacked in the file) and q/k/v biases, or neither; 4 of each head's 8
    channels turn (rope.dimension_count 4)."""
    torch_model = _written(tmp_path, **settings)
    reader = gguf.GGUFReader(str(tmp_path / "m.gguf"))
    shapes = {t.name: tuple(int(x) for x in t.shape) for t in reader.tensors}
    qk_norms = settings.get("qk_layernorm", True)
    assert shapes.get("blk.0.attn_q_norm.weight") == ((8, 4) if qk_norms else None)      # ne: (head_dim, heads)
    with open_model(str(tmp_path / "m.gguf")) as model:
        cfg = model.config
        assert (cfg.family, cfg.rope_dim, cfg.qk_norm, cfg.qk_bias, cfg.rope_base) == (
            "stablelm", 4, qk_norms, settings.get("use_qkv_bias", True), 10000.0)
        mh.assert_layer0_as_transformers(model, torch_model, "stablelm", ids)


def _one_k_norm_head(w, stored):
    """A stacked k norm of one head where the model has 2 kv heads."""
    gw.replace_tensor(w, stored, "blk.0.attn_k_norm.weight", stored["blk.0.attn_k_norm.weight"][:1].copy(),
                      float32=True)


def test_a_stacked_norm_of_the_wrong_shape_is_refused_in_one_line(tmp_path):
    _written(tmp_path, edit=_one_k_norm_head)
    with pytest.raises(InputError, match=r"tensor blk\.0\.attn_k_norm\.weight has shape \[8, 1\], expected "
                                         r"\[8, 2\]") as info:
        open_model(str(tmp_path / "m.gguf"))
    assert "\n" not in str(info.value)


def _without(*names):
    def edit(w, stored):
        for name in names:
            gw.replace_tensor(w, stored, name)
    return edit


@pytest.mark.parametrize("missing", ["blk.0.attn_q_norm.weight", "blk.0.attn_q.bias"])
def test_a_k_norm_or_bias_without_its_q_twin_is_refused(tmp_path, missing):
    """Found by a helper's attack: the file's q norm (or q bias) alone decided whether k had one, so a k
    norm without a q norm was dropped. StableLM has both or neither; such a file is refused by name."""
    _written(tmp_path, edit=_without(missing))
    with pytest.raises(InputError, match=f"tensor {missing} is missing") as info:
        open_model(str(tmp_path / "m.gguf"))
    assert "\n" not in str(info.value)


def test_a_key_length_other_than_the_heads_split_is_refused(tmp_path):
    """llama.cpp's stablelm sizes its heads embedding_length / head_count (8 here), whatever key_length says."""
    _written(tmp_path, edit=lambda w, stored: w.add_key_length(16))
    with pytest.raises(InputError, match=r"stablelm\.attention\.key_length is 16; llama\.cpp's stablelm takes "
                                         r"embedding_length / head_count \(32 / 4\)") as info:
        open_model(str(tmp_path / "m.gguf"))
    assert "\n" not in str(info.value)
