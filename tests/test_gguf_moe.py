"""GGUF files of Qwen2-MoE and Qwen3-MoE (llama.cpp's qwen2moe / qwen3moe) against transformers' own models.

Their embeddings and attention are Qwen2's / Qwen3's; the experts, the router and Qwen2-MoE's shared expert are
MLP tensors (3-D for the experts) that PE Explorer leaves unread. Written as llama.cpp's converter writes them
(tests/gguf_converter_writer.py), F16 files hold the float16-rounded weights exactly: X, rotated q / k and the
softmax of layer 0's logits equal the transformers model's own.
"""

from __future__ import annotations

import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import gguf_arch_writer as aw
from tests import gguf_converter_writer as gw
from tests import models_helpers as mh

pytest.importorskip("gguf")
pytest.importorskip("transformers")
pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2]


@pytest.mark.parametrize("arch, family", [("qwen2moe", "qwen2_moe"), ("qwen3moe", "qwen3_moe")])
def test_moe_files_read_as_transformers_runs_them(arch, family, tmp_path):
    torch_model = mh.build(family, tmp_path / "hf", seed=3)
    aw.fp16_exact(torch_model)
    stored = gw.write_converted(tmp_path / "m.gguf", torch_model, arch)
    assert stored["blk.0.ffn_gate_exps.weight"].ndim == 3            # the experts are in the file, unread
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert (model.config.model_type, model.config.qk_norm) == (family, family == "qwen3_moe")
        assert not any("exps" in name or "gate_inp" in name for name in model.tensors.names())
        mh.assert_layer0_as_transformers(model, torch_model, family, IDS)


def test_an_olmoe_file_reads_as_llama_cpp_runs_it(tmp_path):
    """llama.cpp's olmoe (olmoe.cpp): an RMSNorm before attention, RMSNorms over all of q's and k's channels, no
    clamp (the converter carries no clip_qkv), one kv head per head (k's norm is sized n_embd); the experts are
    in the file, unread. Equal to transformers' OlmoeForCausalLM without clip_qkv."""
    torch_model = aw.fp16_random_model("olmoe", tmp_path / "hf", 5, dict(mh.FAMILIES["olmoe"], num_key_value_heads=4,
                                                                         clip_qkv=None))
    gw.write_converted(tmp_path / "m.gguf", torch_model, "olmoe")
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert (model.config.model_type, model.config.qk_norm, model.config.qkv_clip) == ("olmoe", True, None)
        mh.assert_layer0_as_transformers(model, torch_model, "olmoe", IDS)


def test_an_olmoe_file_with_fewer_kv_heads_is_refused(tmp_path):
    torch_model = aw.fp16_random_model("olmoe", tmp_path / "hf", 5, dict(mh.FAMILIES["olmoe"], clip_qkv=None))
    gw.write_converted(tmp_path / "m.gguf", torch_model, "olmoe")
    with pytest.raises(InputError, match="2 kv heads for 4 heads; llama.cpp's olmoe has one kv head per head"):
        open_model(str(tmp_path / "m.gguf"))
