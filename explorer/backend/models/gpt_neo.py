"""GPT-Neo (EleutherAI/gpt-neo-125m, 1.3B, 2.7B), as transformers 5.25's models/gpt_neo runs it. No Qt.

GPTNeoModel.forward: X = wte[ids] + wpe[0..n-1], nothing scaled (as GPT-2). GPTNeoBlock: ln_1, a LayerNorm
(layer_norm_epsilon), before attention; GPTNeoSelfAttention: q_proj, k_proj, v_proj without bias (attn.attention.*),
head_dim = hidden_size / num_heads (a ValueError where it does not divide), and _attn takes q·k as the logits with
NO division by sqrt(head_dim) (score_scalar 1 here). GPTNeoConfig.expand_attention_types_params turns
attention_types ([[["global", "local"], 12]] by default) into one type a layer, which validate_architecture wants
num_layers long (a config.json's own attention_layers, as save_pretrained writes it, is set after that expansion
and wins: configuration_utils.py's PreTrainedConfig.__post_init__ ends with setattr of the remaining keys). A "local"
layer's mask is bias ^ tril(bias, -window_size): tril(bias) keeps keys n <= m, and tril(., -w) the keys n <= m - w,
so the query m reads m - window_size < n <= m, the sliding window of layer_attention ("sliding_attention" here;
"global" is "full_attention"). llama.cpp has no GPT-Neo architecture (gguf-py/gguf/constants.py's MODEL_ARCH lists
GPT2, GPTJ and GPTNEOX, no GPT-Neo, so convert_hf_to_gguf.py cannot write one): no GGUF file of it is read.
"""

from __future__ import annotations

from explorer.backend.models.bloom import MAX_HEADS
from explorer.backend.models.config_flags import aliased_int, positive_int
from explorer.backend.models.layer_attention import MAX_LAYERS, MAX_WINDOW
from explorer.errors import require, shown

# GPTNeoConfig's defaults (configuration_gpt_neo.py) where config.json is silent
DEFAULT_ATTENTION_TYPES = [[["global", "local"], 12]]
DEFAULT_WINDOW = 256
DEFAULT_VOCAB = 50257
KINDS = {"global": "full_attention", "local": "sliding_attention"}


def attention_layers(cfg: dict) -> tuple[str, ...]:
    """config.json's attention_types expanded as GPTNeoConfig.expand_attention_types_params does: each item
    [[type, ...], times] repeats its types `times` times; (global | local, ...)."""
    given = cfg.get("attention_types")
    given = DEFAULT_ATTENTION_TYPES if given is None else given
    require(isinstance(given, list), "config.json: attention_types must be a list of [[types], times], not %1",
            shown(given))
    out: list[str] = []
    for item in given:
        ok = (isinstance(item, list) and len(item) == 2 and isinstance(item[0], list)
              and type(item[1]) is int and item[1] >= 0)
        require(ok, "config.json: attention_types must be a list of [[types], times], not %1", shown(item))
        require(all(isinstance(t, str) and t in KINDS for t in item[0]),
                "config.json: attention_types names %1; GPT-Neo's layers are global or local", shown(item[0]))
        require(len(out) + len(item[0]) * item[1] <= MAX_LAYERS, "config.json: attention_types expands to more "
                "than %1 layers", f"{MAX_LAYERS:,}")
        out.extend(item[0] * item[1])
    return tuple(out)


def gpt_neo_fields(cfg: dict) -> dict:
    """ModelConfig's fields of a GPTNeoConfig config.json (attribute_map: num_attention_heads and num_hidden_layers
    win over num_heads and num_layers); "own": each layer's type, the window and the unscaled logits."""
    d = positive_int(cfg, "hidden_size", default=2048)
    heads = aliased_int(cfg, "num_attention_heads", "num_heads", default=16)
    layers = aliased_int(cfg, "num_hidden_layers", "num_layers", default=24)
    require(heads <= MAX_HEADS, "config.json: num_heads is %1; at most %2 heads are read", heads, f"{MAX_HEADS:,}")
    require(d % heads == 0, "config.json: hidden_size %1 is not divisible by num_heads %2", d, heads)
    kinds = attention_layers(cfg)
    saved = cfg.get("attention_layers")          # (save_pretrained writes it; loaded, it replaces the expansion)
    if saved is not None:
        require(isinstance(saved, list) and all(isinstance(t, str) and t in KINDS for t in saved),
                "config.json: attention_layers must list global or local for each layer, not %1", shown(saved))
        kinds = tuple(saved)
    require(saved is None or len(kinds) == layers, "config.json: attention_layers lists %1 layers; num_layers is %2",
            len(kinds), layers)
    require(len(kinds) == layers, "config.json: attention_types expands to %1 layers; num_layers is %2",
            len(kinds), layers)
    window = cfg.get("window_size", DEFAULT_WINDOW)
    require(type(window) is int and 1 <= window <= MAX_WINDOW, "config.json: window_size must be a whole number "
            "from 1 to 2^31 - 1, not %1", shown(window))
    own = {"layer_types": tuple(KINDS[k] for k in kinds), "sliding_window": window, "score_scalar": 1.0}
    return {"d_model": d, "n_layers": layers, "n_heads": heads, "n_kv_heads": heads,
            "max_positions": positive_int(cfg, "max_position_embeddings", default=2048),
            "norm_eps": cfg.get("layer_norm_epsilon", 1e-5), "qk_bias": False, "pre_norm": True,
            "word_embed_proj_dim": d, "own": own}
