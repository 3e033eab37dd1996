"""The ModelConfig fields one family has of its own (sliding layers, Gemma's score scale and soft cap, RoPE per
layer type, Granite's multipliers, Llama 4's, Ministral 3's and Hunyuan's extras, NoPE layers, pairing (ERNIE 4.5's
too)) and layer 0's RoPE settings: one place for a new family's hook. No Qt; read by explorer.backend.models.config."""

from __future__ import annotations

from explorer.backend.models import gemma_config, layer_attention
from explorer.backend.models.config_flags import clip_qkv
from explorer.backend.models.config_rope import rope_scaling_of
from explorer.backend.models.ernie4_5 import ERNIE_TYPES
from explorer.backend.models.exaone4 import exaone4_fields
from explorer.backend.models.family_tables import GEMMA_FAMILIES, SINUSOID_FAMILIES
from explorer.backend.models.granite_config import granite_fields
from explorer.backend.models.hunyuan import HUNYUAN, hunyuan_fields
from explorer.backend.models.llama4 import llama4_fields
from explorer.backend.models.ministral3 import ministral3_fields
from explorer.backend.models.typed_rope import TYPED, type_ropes


def own_fields(cfg: dict, model_type: str, family: str, position: str, common: dict, dtype: str,
               runtime: str) -> tuple[dict, tuple, float]:
    """(own ModelConfig fields, (base, scaling, refusal) of layer 0's RoPE, embed_scale) of one config.json.

    `common` is model_config's shared fields (d_model, n_layers, n_heads, n_kv_heads, max_positions, ...); its
    "own" entry (the ALiBi families') is popped into the result. own always has nope_layers and
    rope_interleaved."""
    d, layers = common["d_model"], common["n_layers"]
    own = (exaone4_fields(cfg, layers) if model_type == "exaone4"          # its window's layers, NoPE full layers
           else layer_attention.window_fields(cfg, model_type, layers))
    own.update(common.pop("own", {}), **({"qkv_clip": clip_qkv(cfg)} if family in ("olmo", "olmoe") else {}))
    if family in ("gemma2", "gemma3"):
        own.update(gemma_config.gemma_fields(cfg, family))
    rope = (None, None, None)
    if model_type in TYPED:                              # Gemma 3, OLMo 3: one RoPE per layer type; layer 0's
        own["type_ropes"] = type_ropes(cfg, family, model_type, common["max_positions"], runtime)
        rope = next(r for r in own["type_ropes"] if r[0] == own["layer_types"][0])[1:]
    elif position == "rope":                             # (Falcon with alibi false: Llama's RoPE keys)
        rope = rope_scaling_of(cfg, family, common["max_positions"], runtime)
    scale = gemma_config.embed_scale(d, dtype) if family in GEMMA_FAMILIES else 1.0   # (OPT never scales)
    if family == "granite":                     # embedding_multiplier; attention_multiplier^-2
        own.update(granite_fields(cfg))
    if family in ("granite", "bart") or family in SINUSOID_FAMILIES:   # (XGLM's, M2M100's, BART's: sqrt(d_model)
        #                                                                when scale_embedding)
        scale = own.pop("embed_scale")
    if model_type == "llama4_text":              # pairs, NoPE layers, chunks, q/k norm after RoPE, temperature
        own.update(llama4_fields(cfg, layers))
    if model_type == "ministral3":               # its q scale after RoPE (Llama 4's curve, from position L0)
        own.update(ministral3_fields(cfg, common["max_positions"]))
    if model_type in HUNYUAN:                    # its folded NTK-alpha base; no head_dim: no attention
        own.update(hunyuan_fields(cfg))
    if model_type in ("smollm3", "cohere2"):
        own["nope_layers"] = layer_attention.nope_layers(cfg, layers, model_type, own.get("layer_types", ()))
    own.setdefault("nope_layers", ())
    # neighbouring pairs (2j, 2j + 1): GPT-J, Cohere, GLM-4, ERNIE 4.5 (its apply_rotary_pos_emb's repeat_interleave)
    own.setdefault("rope_interleaved", family in ("gptj", "cohere", "glm4") or model_type in ERNIE_TYPES)
    return own, rope, scale
