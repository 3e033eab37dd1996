"""GGUF files of DeepSeek-V2 / V3 (llama.cpp's `deepseek2`: V2, V2-Lite, V3, R1), as
convert_hf_to_gguf.py's `DeepseekV2Model` (conversion/deepseek.py) writes them and llama.cpp's deepseek2 graph
(src/models/deepseek2.cpp) runs them. No Qt.

- Keys: `attention.q_lora_rank` (absent for V2-Lite, whose q is `attn_q`), `attention.kv_lora_rank`,
  `rope.dimension_count` (the rope part, 64), and a head's q / k width `attention.key_length_mla` and v width
  `value_length_mla`. Files from before llama.cpp's MLA rework have neither (llama.cpp's is_mla(): both set and
  non-zero) and give them as `key_length` / `value_length`; the newer files' `key_length` is kv_lora_rank + rope,
  the compressed MQA head's. The converter writes `head_count_kv` 1 (MLA as one shared latent); every head still
  has its own k.
- Tensors: `attn_q` or `attn_q_a` / `attn_q_a_norm` / `attn_q_b`, `attn_kv_a_mqa`, `attn_kv_a_norm`, and k's nope
  rows as `attn_kv_b` (older files) or, in an is_mla file, `attn_k_b` ((heads, kv_lora_rank, nope), kv_b_proj's k
  rows transposed, beside `attn_v_b`). No biases: llama.cpp loads none and refuses a file with them. No
  permutation: llama.cpp turns the rope part with its NORM RoPE, neighbouring pairs, as DeepSeek's own
  checkpoints are laid out.
- YaRN: `rope.scaling.yarn_log_multiplier` is 0.1 x mscale_all_dim (the converter's "legacy" factor). llama.cpp
  sets the rotation's magnitude to 1 (get_mscale(factor, m) / get_mscale(factor, m), m = mscale_all_dim for
  deepseek2) and multiplies every logit by (1 + 0.1 mscale_all_dim ln factor)^2 (kq_scale): transformers' own
  reading of a config whose mscale and mscale_all_dim are both mscale_all_dim. A YaRN file without the key is
  refused (llama.cpp before its PR 17945 refuses it too; later builds scale the logits by (1 + 0.1 ln factor)^2
  and the rotation by 1 + 0.1 ln factor, as no Hugging Face DeepSeek does), and so is linear scaling or a YaRN
  factor below 1 (llama.cpp's deepseek2 would scale its logits by their 1 + 0.1 ln factor as well).
"""

from __future__ import annotations

import numpy as np

from explorer.backend.encodings import finite_number
from explorer.backend.models.gguf_archs import meta_int, require_tensor_shapes
from explorer.backend.models.gguf_header import Header
from explorer.errors import require, shown

ARCH = "deepseek2"
NAMES = {"attn_q_a": "self_attn.q_a_proj", "attn_q_a_norm": "self_attn.q_a_layernorm", "attn_q_b": "self_attn.q_b_proj",
         "attn_kv_a_mqa": "self_attn.kv_a_proj_with_mqa", "attn_kv_a_norm": "self_attn.kv_a_layernorm",
         "attn_kv_b": "self_attn.kv_b_proj", "attn_k_b": "self_attn.k_b_proj", "attn_v_b": "self_attn.v_b_proj"}


def is_mla(fields: dict) -> bool:
    """llama.cpp's hparams.is_mla(): both attention.key_length_mla and value_length_mla set and non-zero. Such a file
    holds k's nope rows as attn_k_b; the others (from before llama.cpp's MLA rework) as attn_kv_b."""
    values = [fields.get(f"{ARCH}.attention.{k}_length_mla") for k in ("key", "value")]
    return all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) and v > 0 for v in values)


def deepseek_config(fields: dict, config: dict, kind: str, where: str) -> None:
    """config's MLA keys (DeepseekV2Config's names) from a deepseek2 file's metadata, in place; "kv_b_layout" says
    which tensor holds k's nope rows ("k_b" or "kv_b", as llama.cpp decides by is_mla)."""
    mla = is_mla(fields)
    suffix = "_mla" if mla else ""
    rope = meta_int(fields, f"{ARCH}.rope.dimension_count", where)
    head = meta_int(fields, f"{ARCH}.attention.key_length{suffix}", where)
    v = meta_int(fields, f"{ARCH}.attention.value_length{suffix}", where, low=0)
    require(rope % 2 == 0 and rope <= head, "%1: metadata %2.rope.dimension_count is %3; it must be even and at most "
                                            "a head's q / k width %4", where, ARCH, rope, head)
    # linear scaling: llama.cpp's deepseek2 then also scales its logits by (1 + 0.1 ln factor)^2, as no DeepSeek does
    require(kind in ("none", "yarn"), "%1: rope scaling %2 in a deepseek2 file: llama.cpp's deepseek2 then scales "
                                      "its logits in a way PE Explorer does not model (none and yarn are read)",
            where, repr(kind))
    q_lora = (meta_int(fields, f"{ARCH}.attention.q_lora_rank", where)
              if f"{ARCH}.attention.q_lora_rank" in fields else None)
    config.update(q_lora_rank=q_lora, kv_lora_rank=meta_int(fields, f"{ARCH}.attention.kv_lora_rank", where),
                  qk_rope_head_dim=rope, qk_nope_head_dim=head - rope, v_head_dim=v,
                  num_key_value_heads=config["num_attention_heads"],     # (the file's 1: the shared latent)
                  attention_bias=False, kv_b_layout="k_b" if mla else "kv_b")
    for key in ("head_dim", "partial_rotary_factor"):                    # (the generic reading's, from key_length)
        config.pop(key, None)
    if kind == "yarn":
        key = f"{ARCH}.rope.scaling.yarn_log_multiplier"
        # (llama.cpp before its PR 17945 refuses such a file; later builds scale both rotation and logits by
        # 1 + 0.1 ln factor, as no DeepSeek model does)
        require(key in fields, "%1: metadata %2 is missing: llama.cpp's deepseek2 then scales its YaRN logits "
                               "otherwise than any DeepSeek model", where, key)
        log_mul = fields[key]
        require(isinstance(log_mul, (int, float)) and not isinstance(log_mul, bool) and finite_number(log_mul)
                and log_mul != 0, "%1: metadata %2 is %3; it must be a number other than 0", where, key, shown(log_mul))
        require(config["rope_scaling"]["factor"] >= 1, "%1: a YaRN factor below 1 in a deepseek2 file: llama.cpp "
                "then scales its logits in a way PE Explorer does not model", where)
        m = float(log_mul) / 0.1                             # mscale_all_dim (the converter wrote 0.1 x it)
        config["rope_scaling"].update(mscale=m, mscale_all_dim=m)


def check_mla_layer0(header: Header, config: dict, where: str) -> None:
    """The layer-0 tensors the Real RoPE view reads exist with the shapes the config implies (GGUF ne = (in, out)):
    q's projection(s), the latent's, its norm, and k's nope rows as attn_kv_b or attn_k_b."""
    d, heads = config["hidden_size"], config["num_attention_heads"]
    nope, rope, v = config["qk_nope_head_dim"], config["qk_rope_head_dim"], config["v_head_dim"]
    kv_lora, q_lora = config["kv_lora_rank"], config["q_lora_rank"]
    want = {"output_norm.weight": (d,), "blk.0.attn_norm.weight": (d,),
            "blk.0.attn_kv_a_mqa.weight": (d, kv_lora + rope), "blk.0.attn_kv_a_norm.weight": (kv_lora,)}
    if q_lora is None:
        want["blk.0.attn_q.weight"] = (d, heads * (nope + rope))
    else:
        want.update({"blk.0.attn_q_a.weight": (d, q_lora), "blk.0.attn_q_a_norm.weight": (q_lora,),
                     "blk.0.attn_q_b.weight": (q_lora, heads * (nope + rope))})
    if config["kv_b_layout"] == "kv_b":
        want["blk.0.attn_kv_b.weight"] = (kv_lora, heads * (nope + v))
    else:
        want["blk.0.attn_k_b.weight"] = (nope, kv_lora, heads)
    for name in ("blk.0.attn_q.bias", "blk.0.attn_q_a.bias", "blk.0.attn_kv_a_mqa.bias"):   # (llama.cpp's deepseek2
        require(name not in header.tensors, "%1: tensor %2 is not read by llama.cpp's deepseek2, which refuses "
                                            "the file", where, name)                        # loads no bias)
    require_tensor_shapes(header, want, where)
