"""GGUF files of the text models of Qwen2-VL / Qwen2.5-VL (llama.cpp's `qwen2vl`), Qwen3-VL (`qwen3vl`) and
Qwen3-VL-MoE (`qwen3vlmoe`) in Hugging Face terms. No Qt.

Sources (ggml-org/llama.cpp):
- conversion (convert_hf_to_gguf.py): `Qwen2VLModel(TextModel)`, MODEL_ARCH.QWEN2VL, registered for both
  Qwen2VLForConditionalGeneration and Qwen2_5_VLForConditionalGeneration: TextModel's keys, and mrope_section
  padded with zeros to four as rope.dimension_sections ([16, 24, 24, 0] for the published models); the vision
  tower is left out; q/k stored as Hugging Face has them, q/k/v biases. `Qwen3VLTextModel(Qwen3Model)`
  (MODEL_ARCH.QWEN3VL) and `Qwen3VLMoeTextModel(Qwen3MoeModel)` (QWEN3VLMOE): Qwen3's keys and tensors (per-head
  attn_q_norm / attn_k_norm), the same padded sections, n_deepstack_layers (vision features the graph adds to
  a layer's output: after layer 0's attention).
- src/llama-model.cpp, llama_model_rope_type: QWEN2VL MROPE, QWEN3VL and QWEN3VLMOE IMROPE; src/models/qwen2vl.cpp,
  qwen3vl.cpp, qwen3vl-moe.cpp: rope.dimension_sections required, n_rot == head size asserted, RMSNorm, q/k
  (Qwen3-VL: normalised per head) turned by ggml_rope_multi.
- src/llama-graph.cpp, llm_graph_input_pos::set_input: text tokens get positions (p, p, p, 0).
- ggml/src/ggml-cpu/ops.cpp (ggml_mrope_cache_init, rotate_pairs): pair i of n_rot / 2 (rotate-half, as NEOX)
  turns at base^(-2i / n_rot) by the position its sector s = i mod sum(sections) picks: M-RoPE t, h, w, e in
  runs of sections[0..3]; the interleaved one (IMROPE) h where s % 3 == 1 and s < 3 sections[1], w where
  s % 3 == 2 and s < 3 sections[2], t where s % 3 == 0 and s < 3 sections[0], else e. A text token's pairs turn as
  plain RoPE (what transformers computes: qwen_vl.py) except those that take e, which is 0 for text: llama.cpp
  leaves them unturned. Qwen3-VL's published [24, 20, 20] over 64 pairs gives pairs 61 and 62 to e (transformers'
  apply_interleaved_mrope leaves them to t, the token's position): the file opens as llama.cpp runs it, those
  pairs at frequency 0 (ModelConfig.still_pairs), and the UI says so.
"""

from __future__ import annotations

import numpy as np

from explorer.backend.models.qwen_vl import STILL_PAIRS
from explorer.errors import require, shown

VL_ARCHS = ("qwen2vl", "qwen3vl", "qwen3vlmoe")
INTERLEAVED = ("qwen3vl", "qwen3vlmoe")          # IMROPE


def sections_of(fields: dict, arch: str, where: str) -> list[int]:
    """{arch}.rope.dimension_sections: four whole numbers >= 0, not all 0 (llama.cpp requires the key)."""
    key = f"{arch}.rope.dimension_sections"
    value = fields.get(key)
    require(value is not None, "%1: metadata %2 is missing", where, key)
    ok = isinstance(value, (list, np.ndarray)) and len(value) == 4 and all(
        isinstance(v, (int, np.integer)) and not isinstance(v, bool) and 0 <= v < 1 << 31 for v in value)
    require(ok and sum(int(v) for v in value) > 0, "%1: metadata %2 is %3; it must list four whole numbers >= 0, "
                                                    "not all 0", where, key,
            shown(value.tolist() if isinstance(value, np.ndarray) else value))
    return [int(v) for v in value]


def fourth_position_pairs(sections: list[int], n_pairs: int, interleaved: bool) -> list[int]:
    """The pairs (of n_pairs) that ggml's M-RoPE (or IMROPE) turns by the fourth position, e."""
    s0, s1, s2, _ = sections
    out = []
    for i in range(n_pairs):
        s = i % sum(sections)
        if interleaved:
            e = not (s % 3 == 1 and s < 3 * s1 or s % 3 == 2 and s < 3 * s2 or s % 3 == 0 and s < 3 * s0)
        else:
            e = s >= s0 + s1 + s2
        if e:
            out.append(i)
    return out


def qwen_vl_config(fields: dict, arch: str, config: dict, where: str) -> None:
    """Note in config (STILL_PAIRS) the pairs of each head that llama.cpp leaves unturned for a text token, where
    transformers turns them by its position; none where the sections give no pair the fourth position, so that
    llama.cpp turns text as plain RoPE over the whole head. Its model_type stays the text model's."""
    sections = sections_of(fields, arch, where)
    pairs = fourth_position_pairs(sections, config["head_dim"] // 2, arch in INTERLEAVED)
    if pairs:
        config[STILL_PAIRS] = pairs
