"""Qwen2-VL, Qwen2.5-VL, Qwen3-VL (and Qwen3-VL-MoE) checkpoints: their text model's config. No Qt.

As transformers 5.25 reads them (models/qwen2_vl, qwen2_5_vl, qwen3_vl, qwen3_vl_moe configuration_*.py and
modeling_*.py):
- the text model's settings are text_config (model_type "<outer>_text"); a Qwen2-VL / Qwen2.5-VL config.json
  without one (the Hub's, written by transformers 4.x) has them at the top level, beside vision_config;
- the text model is Qwen2's attention (q/k/v biases, head_dim = hidden / heads) for Qwen2-VL / Qwen2.5-VL and
  Qwen3's (per-head q_norm / k_norm, an explicit head_dim) for Qwen3-VL; Qwen3-VL-MoE's experts are in its MLP;
- M-RoPE: each pair of channels turns by one of three position ids (t, h, w) picked by mrope_section
  (Qwen3-VL interleaves them). A text-only prompt has t = h = w = the token's index (get_rope_index), so its
  rotation is plain RoPE at rope_theta over the whole head (rotate-half pairs); a 4.x "type": "mrope" is
  default RoPE (Qwen2VLTextConfig.convert_rope_params_to_dict). Images are never read or shown.
"""

from __future__ import annotations

from explorer.backend.models.gemma_config import text_settings
from explorer.errors import require, shown

VL = {"qwen2_vl": "qwen2_vl_text", "qwen2_5_vl": "qwen2_5_vl_text", "qwen3_vl": "qwen3_vl_text",
      "qwen3_vl_moe": "qwen3_vl_moe_text"}            # model_type -> its text model's
MROPE_TEXT = tuple(VL.values())                     # the text model types whose RoPE is M-RoPE
FLAT = ("qwen2_vl", "qwen2_5_vl")        # Qwen2VLConfig / Qwen2_5_VLConfig take top-level text keys (4.x files)
SPLIT = ("qwen2_vl_text", "qwen2_5_vl_text")        # their attention and RoPE split hidden / heads a head
# mrope_section where the rope settings have none (each class's rotary embedding's default)
DEFAULT_SECTION = {"qwen2_vl_text": [16, 24, 24], "qwen2_5_vl_text": [16, 24, 24],
                   "qwen3_vl_text": [24, 20, 20], "qwen3_vl_moe_text": [24, 20, 20]}
NOT_TEXT = ("vision_config", "text_config", "model_type", "architectures")
# a GGUF's config key (never a config.json's: read only for runtime "llama.cpp"): the pairs of each head that
# llama.cpp's M-RoPE turns by the fourth position, 0 for text (gguf_qwen_vl.fourth_position_pairs)
STILL_PAIRS = "llama_cpp_still_pairs"


def text_model_config(cfg: dict) -> dict:
    """A Qwen VL config's text model config (its text_config, or the top-level keys of a 4.x Qwen2-VL /
    Qwen2.5-VL file), model_type its text model's, the outer dtype where the inner has none, M-RoPE's keys
    checked and set aside (plain RoPE for text tokens); any other config as it is."""
    outer = cfg.get("model_type")
    if not isinstance(outer, str) or outer not in VL:              # (a list: unhashable)
        return cfg
    inner = cfg.get("text_config")
    if inner is None and outer in FLAT:       # __post_init__: the text config class's keys from the top level
        inner = {k: v for k, v in cfg.items() if k not in NOT_TEXT}
    return plain_rope({**text_settings(cfg, outer, inner), "model_type": VL[outer]})


def plain_rope(cfg: dict) -> dict:
    """cfg with its rope settings (rope_scaling, else rope_parameters, as transformers picks them) without
    mrope_section / mrope_interleaved, a 4.x "mrope" type read as default; the section is checked as the
    class's rotary embedding would use it. A head_dim of config.json's that Qwen2-VL's attention would not
    split is refused."""
    model_type = cfg["model_type"]
    key = "rope_scaling" if cfg.get("rope_scaling") else "rope_parameters"
    rope = cfg.get(key)
    if isinstance(rope, dict):
        rope = dict(rope)
        section = rope.pop("mrope_section", DEFAULT_SECTION[model_type])
        rope.pop("mrope_interleaved", None)
        if rope.get("rope_type", rope.get("type")) == "mrope" and model_type in SPLIT:
            rope.pop("type", None)
            rope["rope_type"] = "default"
        _check_section(cfg, model_type, section)
        cfg = {**cfg, key: rope}
    elif rope is None:
        _check_section(cfg, model_type, DEFAULT_SECTION[model_type])
    return cfg


def _check_section(cfg: dict, model_type: str, section) -> None:
    """Qwen2-VL's rotary embedding splits the head's head_dim / 2 frequencies by mrope_section (torch.split:
    whole numbers >= 0 adding up to it); Qwen3-VL's reads its entries 1 and 2 as counts of interleaved pairs."""
    if model_type not in SPLIT:
        require(isinstance(section, list) and len(section) >= 3 and all(type(s) is int for s in section),
                "config.json: mrope_section must list at least three whole numbers, not %1", shown(section))
        return
    require(isinstance(section, list) and all(type(s) is int and s >= 0 for s in section),
            "config.json: mrope_section must list whole numbers >= 0, not %1", shown(section))
    hidden, heads = cfg.get("hidden_size"), cfg.get("num_attention_heads")
    if not (type(hidden) is int and type(heads) is int and heads > 0 and hidden > 0):
        return                                            # (model_config refuses them in its own words)
    require(cfg.get("head_dim") in (None, hidden // heads),
            "config.json: head_dim %1 is not hidden_size / num_attention_heads (%2 / %3), the heads %4's "
            "attention splits", shown(cfg.get("head_dim")), hidden, heads, model_type)
    half = hidden // heads // 2
    require(sum(section) == half, "config.json: mrope_section %1 adds up to %2, not head_dim / 2 = %3: "
                                  "transformers' %4 cannot split its rotation so", shown(section),
            sum(section), half, model_type)
