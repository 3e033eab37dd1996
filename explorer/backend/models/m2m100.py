"""M2M100 and NLLB-200 (facebook/m2m100_418M, 1.2B; nllb-200-distilled-600M, 1.3B, 3.3B), as transformers 5.25's
models/m2m_100 runs its ENCODER. No Qt.

An encoder whose positions are fairseq's sinusoidal table, XGLM's (explorer.backend.models.xglm.position_table: the
app's "t2t" layout, [sin | cos] halves, log(10000) / (d_model / 2 - 1), row padding_idx zeroed), read by position
ids made from the tokens. modeling_m2m_100.py: M2M100SinusoidalPositionalEmbedding.create_position_ids_from_input_ids
(a copy of RoBERTa's): a token that is not pad_token_id reads row padding_idx + (how many such tokens up to it), a
pad token row padding_idx (zero), as models.encoders.position_ids does for RoBERTa's learned table. Its __init__
makes max_position_embeddings + 2 rows (offset 2) with make_weights, a non-persistent buffer (nn.Buffer(...,
persistent=False)): no checkpoint stores it, the app computes it. Its forward grows the table (make_weights again)
when padding_idx + 1 + the text's length passes its rows; the app refuses a text of more than
max_position_embeddings tokens instead, as it does for XGLM (the model was trained on no longer one).

M2M100Encoder.__init__: embed_tokens is M2M100ScaledWordEmbedding (nn.Embedding x sqrt(d_model) when
scale_embedding, the default); its forward: X = embed_tokens(ids) + embed_positions(ids). M2M100EncoderLayer:
self_attn_layer_norm (nn.LayerNorm, eps 1e-5 fixed) before M2M100Attention: q_proj, k_proj with bias, q·k x
head_dim^-0.5, head_dim = d_model / encoder_attention_heads (a ValueError where it does not divide), nothing masked
(create_bidirectional_mask, no padding here). M2M100Model ties encoder.embed_tokens to shared (_tied_weights_keys):
save_pretrained writes model.shared.weight alone, a checkpoint that also stores model.encoder.embed_tokens.weight
with other values (tie_word_embeddings false) is read with its own, as from_pretrained does; here the encoder's
table is read where the checkpoint has one, else shared. M2M100Config (configuration_m2m_100.py): d_model 1024,
encoder_layers 12, encoder_attention_heads 16, max_position_embeddings 1024, vocab_size 128112, pad_token_id 1,
scale_embedding true; its attribute_map makes hidden_size, num_hidden_layers and num_attention_heads other names of
d_model, encoder_layers and encoder_attention_heads. llama.cpp has no M2M100 or NLLB architecture (gguf-py/gguf/
constants.py's MODEL_ARCH, convert_hf_to_gguf.py: no M2M100ForConditionalGeneration): no GGUF file of it is read.
"""

from __future__ import annotations

import math

from explorer.backend.models.bloom import MAX_HEADS
from explorer.backend.models.config_flags import aliased_int, flag
from explorer.errors import require, shown

DEFAULTS = {"d_model": 1024, "encoder_layers": 12, "encoder_attention_heads": 16, "max_position_embeddings": 1024,
            "vocab_size": 128112, "pad_token_id": 1}                                      # M2M100Config's
OFFSET = 2                  # M2M100SinusoidalPositionalEmbedding.offset: the table has max_position_embeddings + 2 rows
EMBED_NAMES = ("encoder.embed_tokens.weight", "shared.weight")   # the encoder's own table first (see above)
PRE = "encoder.layers.{layer}."


def encoder_shape(cfg: dict, defaults: dict) -> tuple[int, int, int]:
    """(d_model, heads, layers) of a fairseq-style encoder's config.json (M2M100Config's, BartConfig's attribute_map:
    hidden_size -> d_model, num_attention_heads -> encoder_attention_heads, num_hidden_layers -> encoder_layers),
    the class's `defaults` where it is silent; heads that divide d_model, at most MAX_HEADS."""
    d = aliased_int(cfg, "hidden_size", "d_model", default=DEFAULTS["d_model"])
    heads = aliased_int(cfg, "num_attention_heads", "encoder_attention_heads",
                        default=DEFAULTS["encoder_attention_heads"])
    layers = aliased_int(cfg, "num_hidden_layers", "encoder_layers", default=DEFAULTS["encoder_layers"])
    require(heads <= MAX_HEADS, "config.json: encoder_attention_heads is %1; at most %2 heads are read", heads,
            f"{MAX_HEADS:,}")
    require(d % heads == 0, "config.json: d_model %1 is not divisible by encoder_attention_heads %2", d, heads)
    return d, heads, layers


def m2m100_fields(cfg: dict) -> dict:
    """ModelConfig's fields of an M2M100Config config.json (its encoder); "own": the embedding scale, the zeroed
    row of the computed table, the pad token's row and the token table's names; "first_row": pad_token_id + 1."""
    d, heads, layers = encoder_shape(cfg, DEFAULTS)
    require(d // 2 != 1, "config.json: d_model %1 gives M2M100's sinusoidal table one frequency, which it cannot "
            "make (log(10000) / (d_model / 2 - 1) divides by zero)", d)
    positions = aliased_int(cfg, None, "max_position_embeddings", default=DEFAULTS["max_position_embeddings"])
    vocab = aliased_int(cfg, None, "vocab_size", default=DEFAULTS["vocab_size"])
    pad = cfg.get("pad_token_id", DEFAULTS["pad_token_id"])
    top = min(positions + OFFSET, vocab) - 1       # a row of the position table (get_embedding zeroes it) and of
    require(type(pad) is int and 0 <= pad <= top,  # the token table (nn.Embedding's padding_idx)
            "config.json: pad_token_id must be a whole number from 0 to %1 (M2M100 numbers its positions from "
            "it: a row of its position table of max_position_embeddings + 2 rows and of its token table), not %2",
            top, shown(pad))
    scale = math.sqrt(d) if flag(cfg, "scale_embedding", True) else 1.0       # M2M100Encoder.__init__'s embed_scale
    return {"d_model": d, "n_layers": layers, "n_heads": heads, "n_kv_heads": heads, "max_positions": positions,
            "norm_eps": 1e-5, "qk_bias": True, "pre_norm": True, "word_embed_proj_dim": d, "first_row": pad + 1,
            "own": {"embed_scale": scale, "sinusoid_pad": pad, "padding_idx": pad, "embed_names": EMBED_NAMES}}


def m2m100_norm_names(layer: int) -> tuple[str, str]:
    """Encoder layer's self_attn_layer_norm (weight, bias)."""
    pre = PRE.format(layer=layer) + "self_attn_layer_norm."
    return pre + "weight", pre + "bias"


def m2m100_qk_names(layer: int) -> dict[str, str]:
    """Encoder layer's M2M100Attention q_proj / k_proj weights and biases."""
    pre = PRE.format(layer=layer) + "self_attn."
    return {"q": pre + "q_proj.weight", "q_bias": pre + "q_proj.bias", "k": pre + "k_proj.weight",
            "k_bias": pre + "k_proj.bias"}
