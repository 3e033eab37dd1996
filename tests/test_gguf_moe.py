"""GGUF files of Qwen2-MoE and Qwen3-MoE (llama.cpp's qwen2moe / qwen3moe) against transformers' own models.

Their embeddings and attention are Qwen2's / Qwen3's; the experts, the router and Qwen2-MoE's shared expert are
MLP tensors (3-D for the experts) that PE Explorer leaves unread. Written as llama.cpp's converter writes them
(tests/gguf_converter_writer.py), F16 files hold the float16-rounded weights exactly: X, rotated q / k and the
softmax of layer 0's logits equal the transformers model's own.
"""

from __future__ import annotations

import pytest

from explorer.backend.models.hf_folder import open_model
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
