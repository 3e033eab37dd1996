"""BART (facebook/bart-base, bart-large, bart-large-cnn) and mBART (mbart-large-cc25, mbart-large-50 and its
many-to-many translation models), as transformers 5.25's models/bart and models/mbart run their ENCODER. No Qt.

A learned position table read from row 2, as OPT's. modeling_bart.py: BartLearnedPositionalEmbedding.__init__ makes
max_position_embeddings + 2 rows (offset 2) and its forward reads row p + 2 for position p = arange(cache_length,
cache_length + n), cache_length 0 in the encoder (BartEncoder.forward passes none): positions come from the text's
length, not from its tokens, so a pad token takes a position as any other. BartEncoder.__init__: embed_tokens is
BartScaledWordEmbedding (nn.Embedding x embed_scale, sqrt(d_model) when scale_embedding, else 1.0); its forward:
X = layernorm_embedding(embed_tokens(ids) + embed_positions(...)), an nn.LayerNorm (eps 1e-5, fixed) over the sum.
BartEncoderLayer is post-norm: self_attn reads X itself (its self_attn_layer_norm comes after the residual);
MBartEncoderLayer (modeling_mbart.py) is pre-norm: self_attn_layer_norm (nn.LayerNorm, eps 1e-5) before self_attn,
and MBartEncoder adds a final layer_norm after the last layer, which layer 0 never sees. BartAttention (MBartAttention
is a copy): q_proj, k_proj with bias, q·k x scaling = head_dim^-0.5, head_dim = d_model / encoder_attention_heads (a
ValueError where it does not divide), nothing masked (create_bidirectional_mask, no padding here).

BartModel / MBartModel tie encoder.embed_tokens to shared (_tied_weights_keys): save_pretrained writes
model.shared.weight alone; an untied checkpoint's model.encoder.embed_tokens.weight is read first, as from_pretrained
does (M2M100's rule, models.m2m100). The encoder's own table is encoder.embed_positions.weight (the decoder has its
own); layer 0's norm and q/k carry M2M100's encoder's names (models.m2m100's m2m100_norm_names, m2m100_qk_names).
BartConfig (configuration_bart.py) and MBartConfig (configuration_mbart.py) have the same defaults: d_model 1024,
encoder_layers 12, encoder_attention_heads 16, max_position_embeddings 1024, vocab_size 50265, pad_token_id 1,
scale_embedding false; attribute_map: hidden_size, num_hidden_layers, num_attention_heads are d_model, encoder_layers,
encoder_attention_heads. fairseq's keys that published files still carry (normalize_before, add_final_layer_norm,
normalize_embedding, extra_pos_embeddings) are read by neither class: the norms' places and the offset are the
classes' own, so they are not read here either. llama.cpp has no BART or mBART architecture (gguf-py/gguf/
constants.py's MODEL_ARCH_NAMES, a recent copy in the search tool's code corpus, file id 57692108481, has T5's and
none of BART's): no GGUF file of it is read.
"""

from __future__ import annotations

import math

from explorer.backend.models.config_flags import aliased_int, flag
from explorer.backend.models.m2m100 import encoder_shape
from explorer.errors import require

DEFAULTS = {"d_model": 1024, "encoder_layers": 12, "encoder_attention_heads": 16, "max_position_embeddings": 1024,
            "vocab_size": 50265}                                         # BartConfig's (MBartConfig's the same)
OFFSET = 2                  # BartLearnedPositionalEmbedding.offset: the table has max_position_embeddings + 2 rows
EMBED_NAMES = ("encoder.embed_tokens.weight", "shared.weight")   # the encoder's own table first (see above)
POSITIONS = "encoder.embed_positions.weight"
INPUT_NORM = (("encoder.layernorm_embedding.weight",), ("encoder.layernorm_embedding.bias",))
PRE_NORM_TYPES = ("mbart",)         # MBartEncoderLayer: self_attn_layer_norm before self_attn


def bart_fields(cfg: dict) -> dict:
    """ModelConfig's fields of a BartConfig / MBartConfig config.json (its encoder); "own": the embedding scale and
    the token table's names."""
    d, heads, layers = encoder_shape(cfg, DEFAULTS)
    positions = aliased_int(cfg, None, "max_position_embeddings", default=DEFAULTS["max_position_embeddings"])
    scale = math.sqrt(d) if flag(cfg, "scale_embedding", False) else 1.0    # BartEncoder.__init__'s embed_scale
    return {"d_model": d, "n_layers": layers, "n_heads": heads, "n_kv_heads": heads, "max_positions": positions,
            "norm_eps": 1e-5, "qk_bias": True, "pre_norm": cfg.get("model_type") in PRE_NORM_TYPES,
            "word_embed_proj_dim": d, "own": {"embed_scale": scale, "embed_names": EMBED_NAMES}}


def check_bart_table(cfg, rows: int) -> None:
    """InputError unless the stored position table has max_position_embeddings + 2 rows, as BartEncoder makes it."""
    require(rows == cfg.max_positions + OFFSET, "the position table %1 has %2 rows; config.json's "
            "max_position_embeddings %3 needs %4 (BART reads position p from row p + 2)", POSITIONS, rows,
            cfg.max_positions, cfg.max_positions + OFFSET)

