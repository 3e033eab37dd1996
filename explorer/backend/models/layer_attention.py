"""How each layer attends, as transformers' classes read config.json: which layers slide and how wide their
window is, which masks PE Explorer cannot show, and SmolLM3's layers without RoPE. No Qt.

A sliding layer's query m reads the keys n with m - window < n <= m: its `window` latest tokens, itself
included (transformers' masking_utils.sliding_window_overlay, kv_idx > q_idx - sliding_window; llama.cpp's
is_masked_swa, p1 - p0 >= n_swa masked). Per family (transformers 5.25's configuration_*.py and modeling_*.py):
- Mistral (MistralConfig's default window 4096; null: none), Mixtral, Phi-3 and StarCoder2 (default none):
  every layer, when config.json sets sliding_window; Qwen3-MoE every layer when use_sliding_window (default 4096).
- Gemma 2, Gemma 3, GPT-OSS, OLMo 3, Cohere 2 and EXAONE 4.0: the layers whose type is "sliding_attention"
  (`layer_types`, or the class's pattern: every 2nd layer full for Gemma 2 and GPT-OSS, every 4th for OLMo 3,
  every sliding_window_pattern-th (default 6; Cohere 2, EXAONE 4.0: 4) for Gemma 3, Cohere 2 and EXAONE 4.0);
  windows of 4096 (Gemma, OLMo 3, Cohere 2, EXAONE 4.0) and 128 (GPT-OSS) by default. Cohere 2's full layers
  turn no q or k (NoPE), nor do EXAONE 4.0's when it has a window (explorer.backend.models.exaone4).
- Qwen2, Qwen3, Qwen2-MoE and SmolLM3: no window unless use_sliding_window (default false); then the layers of
  `layer_types`, or the class's own: Qwen2 / Qwen3 the layers from max_window_layers (default 28) on, Qwen2-MoE
  every other layer below it (layer 0 among them), SmolLM3 its layers without RoPE.
Where transformers would mask differently from what PE Explorer draws, layer q/k are refused in one line (the
model still opens: its tokens and X need no attention): a null window beside sliding layers (transformers
cannot build their mask) and Gemma 3's use_bidirectional_attention (EmbeddingGemma: keys on both sides).
"""

from __future__ import annotations

from explorer.errors import msg, require, shown

LAYER_TYPES = ("sliding_attention", "full_attention")
MAX_LAYERS = 10_000      # layer types listed at most (2^31 layers took minutes and gigabytes; the deepest
#                          published models have ~100)
EVERY_LAYER = ("mistral", "mixtral", "phi3", "qwen3_moe", "starcoder2",   # by model_type: one window for all layers
               "ministral3")                                           # (Ministral3Config's default: none)
# by model_type: their sliding layers' window
BY_LAYER_TYPE = ("gemma2", "gemma3_text", "gpt_oss", "olmo3", "cohere2", "qwen2", "qwen3", "qwen2_moe", "smollm3",
                 "qwen2_vl_text", "qwen2_5_vl_text", "exaone4")
BY_USE = ("qwen2", "qwen3", "qwen2_moe", "qwen3_moe", "smollm3", "qwen2_vl_text",   # a window only with
          "qwen2_5_vl_text")                                                        # use_sliding_window
DEFAULT_WINDOW = {"mistral": 4096, "gemma2": 4096, "gemma3_text": 4096, "gpt_oss": 128, "olmo3": 4096, "cohere2": 4096,
                  "qwen2": 4096, "qwen3": 4096, "qwen2_moe": 4096, "qwen3_moe": 4096, "qwen2_vl_text": 4096,
                  "qwen2_5_vl_text": 4096, "exaone4": 4096}
FULL_EVERY = {"gemma2": 2, "gpt_oss": 2, "olmo3": 4}           # every n-th layer full (else sliding_window_pattern)
# sliding_window_pattern when config.json has none (else Gemma 3's 6)
PATTERN_DEFAULT = {"cohere2": 4, "exaone4": 4}
MAX_WINDOW = 2**31 - 1     # tokens (llama.cpp's n_swa is 32-bit; transformers overflows past 2^63)


def _flag(cfg: dict, key: str) -> bool:
    """A true / false key, false when absent or null (the classes that read these type them bool | None)."""
    value = cfg.get(key)
    require(value is None or type(value) is bool, "config.json: %1 must be true or false, not %2", key, shown(value))
    return bool(value)


def _max_window_layers(cfg: dict, default: int = 28) -> int:
    value = cfg.get("max_window_layers", default)    # (Qwen2-VL's and Qwen2.5-VL's text configs: 80)
    require(type(value) is int and value >= 0, "config.json: max_window_layers must be a whole number >= 0, "
                                               "not %1", shown(value))
    return value


def _class_pattern(cfg: dict, model_type: str, n_layers: int, window: int | None) -> list[bool]:
    """Which layers slide when config.json lists no layer_types, as each class's __post_init__ sets them."""
    if model_type in ("qwen2", "qwen3", "qwen2_vl_text", "qwen2_5_vl_text"):
        first = _max_window_layers(cfg, 28 if model_type in ("qwen2", "qwen3") else 80)
        return [window is not None and i >= first for i in range(n_layers)]
    if model_type == "qwen2_moe":
        below = _max_window_layers(cfg)
        return [window is not None and (i + 1) % 2 == 1 and i < below for i in range(n_layers)]
    if model_type == "smollm3":
        nope = set(nope_layers(cfg, n_layers))
        return [window is not None and i in nope for i in range(n_layers)]
    every = FULL_EVERY.get(model_type) or cfg.get("sliding_window_pattern", PATTERN_DEFAULT.get(model_type, 6))
    require(isinstance(every, int) and not isinstance(every, bool) and every >= 1,
            "config.json: sliding_window_pattern must be a whole number >= 1, not %1", shown(every))
    return [(i + 1) % every != 0 for i in range(n_layers)]


def layer_types(cfg: dict, model_type: str, n_layers: int, window: int | None = None) -> tuple[str, ...]:
    """Each layer's attention type: layer_types, or the class's pattern (window: the class's sliding_window
    after its use_sliding_window, which the Qwen and SmolLM3 patterns read)."""
    require(n_layers <= MAX_LAYERS, "config.json: num_hidden_layers is %1; layer types are read for at "
                                    "most %2 layers", n_layers, f"{MAX_LAYERS:,}")
    given = listed_layer_types(cfg, n_layers)
    if given is not None:
        return given
    sliding = _class_pattern(cfg, model_type, n_layers, window)
    return tuple("sliding_attention" if s else "full_attention" for s in sliding)


def listed_layer_types(cfg: dict, n_layers: int, allowed: tuple[str, ...] = LAYER_TYPES) -> tuple[str, ...] | None:
    """config.json's layer_types: n_layers names, each one of `allowed`; None where it has none."""
    given = cfg.get("layer_types")
    if given is None:
        return None
    require(isinstance(given, list) and len(given) == n_layers and all(t in allowed for t in given),
            "config.json: layer_types must list %1 of %2", n_layers, " / ".join(allowed))
    return tuple(given)


def token_span(cfg: dict, key: str, default: int | None) -> int | None:
    """config.json's `key` (default where it has none): a sliding window's or a chunk's tokens, 1 .. 2^31 - 1,
    or None."""
    value = cfg.get(key, default)
    require(value is None or type(value) is int and 1 <= value <= MAX_WINDOW,
            "config.json: %1 must be a whole number from 1 to 2^31 - 1 or null, not %2", key, shown(value))
    return value


def null_span_refusal(key: str, layer_type: str):
    """The refusal of layers of `layer_type` whose token span `key` is null: transformers cannot build their mask."""
    return msg("config.json: %1 is null beside %2 layers; transformers cannot build their mask", key, layer_type)


def sliding_window(cfg: dict, model_type: str) -> int | None:
    """config.json's sliding_window (the class's default where it has none): tokens a sliding layer's query
    reads, or None (no window; the Qwens and SmolLM3 without use_sliding_window)."""
    if model_type not in EVERY_LAYER + BY_LAYER_TYPE or model_type in BY_USE and not _flag(cfg, "use_sliding_window"):
        return None                 # (a saved Qwen2-MoE config says 0 then: its class's stand-in for none)
    return token_span(cfg, "sliding_window", DEFAULT_WINDOW.get(model_type))


def attention_refusal(cfg: dict, model_type: str, out: dict):
    """Why layer q/k cannot be shown masked as transformers masks them (a Message), or None."""
    if model_type == "gemma3_text" and _flag(cfg, "use_bidirectional_attention"):
        return msg("config.json: use_bidirectional_attention is true (EmbeddingGemma): its keys lie on both "
                   "sides of the query, which PE Explorer does not show")
    if "sliding_attention" in out.get("layer_types", ()) and out.get("sliding_window") is None:
        return null_span_refusal("sliding_window", "sliding_attention")
    return None


def window_fields(cfg: dict, model_type: str, n_layers: int) -> dict:
    """ModelConfig's layer_types, sliding_window and attention_refusal for the families that have them ({} for
    the others)."""
    window = sliding_window(cfg, model_type)
    out = {"sliding_window": window} if window is not None else {}
    if model_type in BY_LAYER_TYPE:
        out["layer_types"] = layer_types(cfg, model_type, n_layers, window)
    refusal = attention_refusal(cfg, model_type, out)
    return {**out, "attention_refusal": refusal} if refusal is not None else out


def nope_layers(cfg: dict, n_layers: int, model_type: str = "smollm3",
                layer_types: tuple[str, ...] = ()) -> tuple[int, ...]:
    """The layers without RoPE: Cohere 2's full layers (Cohere2Attention turns only sliding ones); SmolLM3's and
    Llama 4's where no_rope_layers holds 0, or (their class's default: when it is absent, for Llama 4 also when
    empty) every no_rope_layer_interval-th layer (default 4: layers 3, 7, ...)."""
    if model_type == "cohere2":
        return tuple(i for i, kind in enumerate(layer_types) if kind == "full_attention")
    require(n_layers <= MAX_LAYERS, "config.json: num_hidden_layers is %1; the layers without RoPE "
            "are read for at most %2 layers", n_layers, f"{MAX_LAYERS:,}")
    flags = cfg.get("no_rope_layers")
    if flags is None or model_type == "llama4_text" and flags == []:
        every = cfg.get("no_rope_layer_interval", 4)
        require(type(every) is int and every >= 1,
                "config.json: no_rope_layer_interval must be a whole number >= 1, not %1", shown(every))
        flags = [int((i + 1) % every != 0) for i in range(n_layers)]
    require(isinstance(flags, list) and len(flags) == n_layers and all(f in (0, 1) and type(f) is int for f in flags),
            "config.json: no_rope_layers must list %1 flags, 1 (RoPE) or 0 (none)", n_layers)
    return tuple(i for i, f in enumerate(flags) if f == 0)
