"""BERT-family encoders: BERT's positions from row 0, RoBERTa's (roberta, xlm-roberta, camembert) from
padding_idx + 1, and DistilBERT's config. No Qt.

transformers 5.25's RobertaEmbeddings (XLM-RoBERTa's and CamemBERT's are copies of it) makes the position ids
from the token ids (create_position_ids_from_input_ids): a token that is not the padding token reads row
padding_idx + (how many such tokens up to it), a padding token row padding_idx. With pad_token_id 1 a text reads
rows 2, 3, ...: a table of 514 rows serves 512 tokens (as OPT's offset of 2).
"""

from __future__ import annotations

import numpy as np

from explorer.backend.models.config_flags import aliased_int, positive_int
from explorer.errors import require, shown

ROBERTA = ("roberta", "xlm-roberta", "camembert")       # RobertaEmbeddings' positions (model_type)


def bert_positions(cfg: dict, model_type: str, table_rows: int) -> tuple[int, int | None]:
    """(position_offset, padding_idx) of a BERT-family config.json: (0, None) for BERT, (pad_token_id + 1,
    pad_token_id) for RoBERTa's; its position_embedding_type must be "absolute" (transformers 5 reads no other,
    a checkpoint trained with relative positions has them inside attention)."""
    kind = cfg.get("position_embedding_type", "absolute")
    require(kind == "absolute", "config.json: %1 position_embedding_type %2 is not supported (only 'absolute')",
            model_type, repr(kind))
    if model_type not in ROBERTA:
        return 0, None
    pad = cfg.get("pad_token_id", 1)                    # (RobertaConfig's default)
    require(type(pad) is int and 0 <= pad < table_rows - 1,
            "config.json: %1's pad_token_id must be a whole number from 0 to %2 (its positions start at "
            "pad_token_id + 1, in a table of max_position_embeddings %3 rows), not %4", model_type, table_rows - 2,
            table_rows, shown(pad))
    return pad + 1, pad


def position_ids(offset: int, padding_idx: int | None, ids: np.ndarray) -> np.ndarray:
    """The position table's row of each token; (n,) int64. BERT, OPT: offset .. offset + n - 1; RoBERTa: a
    padding token row padding_idx, the others padding_idx + 1, + 2, ... counting the tokens that are not."""
    if padding_idx is None:
        return np.arange(offset, offset + ids.shape[0], dtype=np.int64)
    real = ids != padding_idx                                                 # (n,)
    return np.where(real, np.cumsum(real) + padding_idx, padding_idx).astype(np.int64)


def distilbert_common(cfg: dict) -> tuple[int, int, dict]:
    """(d, heads, the ModelConfig fields) of a DistilBERT config.json as DistilBertConfig reads it: dim, n_layers,
    n_heads (hidden_size, num_hidden_layers, num_attention_heads are its attribute_map's other names of them, set
    after them), the class's defaults where config.json is silent. Its embeddings and layers have LayerNorms of eps
    1e-12 (fixed in modeling_distilbert), no norm before attention, q_lin / k_lin with biases."""
    d = aliased_int(cfg, "hidden_size", "dim", default=768)
    heads = aliased_int(cfg, "num_attention_heads", "n_heads", default=12)
    return d, heads, {"d_model": d, "n_layers": aliased_int(cfg, "num_hidden_layers", "n_layers", default=6),
                      "n_heads": heads, "n_kv_heads": heads,
                      "max_positions": positive_int(cfg, "max_position_embeddings", default=512), "norm_eps": 1e-12,
                      "qk_bias": True, "pre_norm": False, "word_embed_proj_dim": d}
