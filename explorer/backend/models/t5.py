"""T5 (t5-small, t5-base, flan-t5-*, T5EncoderModel checkpoints), as transformers 5.25's models/t5 runs its encoder.
No Qt.

configuration_t5.py's T5Config: d_model 512, d_kv 64, num_heads 8, num_layers 6, relative_attention_num_buckets 32,
relative_attention_max_distance 128, layer_norm_epsilon 1e-6, vocab_size 32128 by default; its attribute_map names
hidden_size, num_attention_heads, num_hidden_layers and head_dim as other names of d_model, num_heads, num_layers and
d_kv (set after them: they win). modeling_t5.py: T5Stack.forward takes X = embed_tokens(ids) (the shared table,
`shared.weight`), nothing added and nothing scaled. T5LayerSelfAttention: T5LayerNorm (x * rsqrt(mean(x²) + eps) *
weight: an RMS norm, no mean, no bias), then T5Attention's q, k (nn.Linear without bias, inner_dim = num_heads *
d_kv, which need not be d_model) and scores q·k NOT divided by sqrt(d_kv) (self.scaling = 1.0: T5 folds it into its
initialisation), plus position_bias: layer 0 (has_relative_attention_bias) makes it with compute_bias from its
relative_attention_bias table (num_buckets, num_heads); later layers reuse it. The encoder is bidirectional
(is_decoder false): nothing is masked. The app shows the encoder stack (encoder.block.*), whether the folder holds a
T5ForConditionalGeneration or a T5EncoderModel (both save shared.weight and encoder.*).
"""

from __future__ import annotations

from explorer.backend.models.bloom import MAX_HEADS
from explorer.backend.models.config_flags import aliased_int, positive_int
from explorer.backend.models.config_rope import _float
from explorer.errors import require

DEFAULTS = {"d_model": 512, "d_kv": 64, "num_heads": 8, "num_layers": 6, "relative_attention_num_buckets": 32,
            "relative_attention_max_distance": 128, "layer_norm_epsilon": 1e-6}       # T5Config's
# no position table and no trained length limits a text (the bias saturates past max_distance): the app's own
# longest text (explorer.presets_state.MAX_LEN_LIMIT, the window's max_len range) is T5's context here
NO_POSITION_LIMIT = 32768
EMBED = "shared.weight"
PRE = "encoder.block.{layer}.layer.0."                   # T5Block.layer[0]: T5LayerSelfAttention
BIAS_OF = PRE + "SelfAttention.relative_attention_bias.weight"          # (num_buckets, num_heads)
BIAS = BIAS_OF.format(layer=0)


# MT5Config's (configuration_mt5.py; modeling_mt5.py: T5's layers and tensor names): 8 layers of 6 heads
MT5_DEFAULTS = {**DEFAULTS, "num_layers": 8, "num_heads": 6}
# UMT5Config's (configuration_umt5.py, class UMT5Config: d_model 512, d_kv 64, num_layers 8, num_heads 6, 32 buckets,
# max distance 128, layer_norm_epsilon 1e-6; its attribute_map T5Config's)
UMT5_DEFAULTS = {**DEFAULTS, "num_layers": 8, "num_heads": 6}


def mt5_fields(cfg: dict) -> dict:
    """t5_fields of an MT5Config config.json (google/mt5-*: model_type "mt5"), MT5Config's defaults."""
    return t5_fields(cfg, MT5_DEFAULTS)


def umt5_fields(cfg: dict) -> dict:
    """t5_fields of a UMT5Config config.json (google/umt5-*: model_type "umt5"), UMT5Config's defaults. modeling_umt5.py
    runs T5's encoder under T5's tensor names (UMT5Stack.embed_tokens tied to shared.weight, UMT5LayerSelfAttention's
    layer_norm and SelfAttention q, k: no biases, UMT5Attention.scaling 1.0, its _relative_position_bucket T5's rule),
    but every layer's UMT5LayerSelfAttention has has_relative_attention_bias=True: a table of its own (bias_name)."""
    return t5_fields(cfg, UMT5_DEFAULTS)


def t5_fields(cfg: dict, defaults: dict = DEFAULTS) -> dict:
    """ModelConfig's fields of a T5Config config.json; "own": q·k not scaled, and (num_buckets, max_distance) of
    its relative bias. InputError in one line for buckets or a distance its bucket rule cannot use."""
    d = aliased_int(cfg, "hidden_size", "d_model", default=defaults["d_model"])
    heads = aliased_int(cfg, "num_attention_heads", "num_heads", default=defaults["num_heads"])
    require(heads <= MAX_HEADS, "config.json: num_heads is %1; at most %2 heads are read", heads, f"{MAX_HEADS:,}")
    head_dim = aliased_int(cfg, "head_dim", "d_kv", default=defaults["d_kv"])
    buckets = positive_int(cfg, "relative_attention_num_buckets", default=defaults["relative_attention_num_buckets"])
    distance = positive_int(cfg, "relative_attention_max_distance",
                            default=defaults["relative_attention_max_distance"])
    check_buckets(buckets, distance)
    return {"d_model": d, "n_layers": aliased_int(cfg, "num_hidden_layers", "num_layers",
                                                  default=defaults["num_layers"]),
            "n_heads": heads, "n_kv_heads": heads, "head_dim": head_dim, "max_positions": NO_POSITION_LIMIT,
            "norm_eps": _float(cfg.get("layer_norm_epsilon", defaults["layer_norm_epsilon"]), "layer_norm_epsilon"),
            "qk_bias": False,
            "pre_norm": True, "word_embed_proj_dim": d,
            "own": {"score_scalar": 1.0, "relative_buckets": (buckets, distance)}}


def check_buckets(buckets: int, distance: int) -> None:
    """The encoder's (bidirectional) bucket rule, T5Attention._relative_position_bucket: half the buckets for each
    direction, of which max_exact = buckets // 4 are exact distances and the rest log-spaced from max_exact to
    max_distance by log(d / max_exact) / log(max_distance / max_exact). It needs max_exact >= 1 (else a division by
    0, and NaN buckets) and max_distance > max_exact (else a log of 1 or less below the division)."""
    require(buckets >= 4, "config.json: relative_attention_num_buckets is %1; an encoder's bucket rule needs at "
            "least 4 (half for each direction, a quarter of exact distances)", buckets)
    require(distance > buckets // 4, "config.json: relative_attention_max_distance %1 must exceed the %2 exact "
            "distances of relative_attention_num_buckets %3 (its log buckets run from there to it)", distance,
            buckets // 4, buckets)


def bias_name(cfg, layer: int = 0) -> str:
    """The relative_attention_bias a layer adds: layer 0's in T5 and mT5 (T5Stack passes its position_bias on to
    the later layers), the layer's own in UMT5 (UMT5Attention.compute_bias in every layer, modeling_umt5.py)."""
    return BIAS_OF.format(layer=layer) if cfg.model_type == "umt5" else BIAS


def t5_qk_names(layer: int) -> dict[str, str]:
    """Layer's q and k weights (T5Attention's nn.Linear q, k: (num_heads * d_kv, d_model), no bias)."""
    pre = PRE.format(layer=layer) + "SelfAttention."
    return {"q": pre + "q.weight", "q_bias": pre + "q.bias", "k": pre + "k.weight", "k_bias": pre + "k.bias"}


def t5_norm_name(layer: int) -> str:
    """Layer's T5LayerNorm before self-attention (a weight only)."""
    return PRE.format(layer=layer) + "layer_norm.weight"


def check_t5_tables(cfg, reader) -> None:
    """InputError at open when layer 0's relative_attention_bias is missing or not (num_buckets, num_heads)."""
    from explorer.backend.models.families import need

    shape = tuple(reader.shape(need(reader, BIAS)))
    buckets = cfg.relative_buckets[0]
    require(shape == (buckets, cfg.n_heads), "%1 has shape %2; config.json says (%3, %4): "
            "relative_attention_num_buckets, num_heads", BIAS, shape, buckets, cfg.n_heads)
