"""Write a tiny transformers Nemotron as llama.cpp's conversion/nemotron.py (`NemotronModel`) writes it.

TextModel.set_gguf_parameters' keys (block count, context / embedding / feed-forward lengths, head counts, the
freq base, key / value length from head_dim), then NemotronModel's: `attention.layer_norm_epsilon` from norm_eps,
rope.dimension_count = int(partial_rotary_factor x hidden_size) // num_attention_heads, rope scaling type none;
modify_tensors: every *norm.weight + 1, nothing permuted. Names from gguf-py's own TensorNameMap for
MODEL_ARCH.NEMOTRON; 1-D tensors F32, 2-D F16 or Q8_0 (tests/gguf_fixtures.add_weight). The vocabulary is
tests/gguf_fixtures.py's byte-level one (the published files' SentencePiece one is another test's matter).
"""

from __future__ import annotations

import numpy as np

from tests import gguf_fixtures as fx


def write_nemotron(path, model, qtype: str = "F16", edit=None) -> dict[str, np.ndarray]:
    """Write `model` (a NemotronForCausalLM) as a nemotron GGUF; the stored float32 arrays by GGUF name. edit(writer,
    stored), if given, damages the file before it is written (gguf_fixtures.finish_file)."""
    import gguf

    cfg = model.config
    rope = cfg.rope_parameters
    w = gguf.GGUFWriter(str(path), "nemotron")
    fx.add_shape_metadata(w, cfg)
    w.add_rope_freq_base(rope["rope_theta"])
    w.add_key_length(cfg.head_dim)
    w.add_value_length(cfg.head_dim)
    w.add_layer_norm_eps(cfg.norm_eps)
    w.add_rope_dimension_count(int(rope["partial_rotary_factor"] * cfg.hidden_size) // cfg.num_attention_heads)
    w.add_rope_scaling_type(gguf.RopeScalingType.NONE)
    fx.add_byte_vocabulary(w)
    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.NEMOTRON, cfg.num_hidden_layers)
    stored = {}
    for hf, arr in fx.hf_weights(model).items():
        name = names.get_name(hf if hf.startswith("lm_head.") else "model." + hf, try_suffixes=(".weight", ".bias"))
        assert name is not None, hf
        if hf.endswith("norm.weight"):                 # NemotronModel.modify_tensors: LayerNorm1P's + 1
            arr = (arr + 1).astype(np.float32)
        stored[name] = fx.add_weight(w, name, arr, qtype)
    return fx.finish_file(w, stored, edit)


def held_model(model, stored: dict[str, np.ndarray]):
    """A copy of `model` holding what the file holds (`stored`, by GGUF name: gguf's own dequantization of Q8_0
    blocks), each norm weight's + 1 taken off again: the model llama.cpp runs, in transformers."""
    import copy

    import gguf
    import torch

    held = copy.deepcopy(model)
    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.NEMOTRON, model.config.num_hidden_layers)
    state = {}
    for hf in held.state_dict():
        arr = stored[names.get_name(hf, try_suffixes=(".weight", ".bias"))]
        state[hf] = torch.from_numpy(arr - np.float32(1) if hf.endswith("norm.weight") else arr)
    held.load_state_dict(state)
    return held
