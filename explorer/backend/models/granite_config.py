"""IBM Granite (model_type granite) configs: the two multipliers that make its layer 0 differ from Llama's.

As transformers 5 reads them (models/granite, configuration_granite.py and modeling_granite.py):
- GraniteModel multiplies the token embeddings by `embedding_multiplier` (default 1.0): X = E[ids] x m_e;
- GraniteAttention scales q·k by `attention_multiplier` (default 1.0) where Llama divides by
  sqrt(head_dim): kept here as the score scalar 1 / m_a^2, so that q·k / sqrt(it) = q·k x m_a;
- `residual_multiplier` and `logits_scaling` act after attention and at the output: never read here.
Zero or negative multipliers, which transformers would run (X = 0; every logit's sign flipped), are refused:
the score scalar keeps no sign, and no trained Granite has them.
"""

from __future__ import annotations

from explorer.backend.models.gemma_config import SANE
from explorer.errors import require, shown


def _multiplier(cfg: dict, key: str) -> float:
    value = cfg.get(key, 1.0)
    require(isinstance(value, (int, float)) and not isinstance(value, bool) and SANE[0] <= value <= SANE[1],
            "config.json: %1 must be a number from 1e-30 to 1e30, not %2", key, shown(value))
    return float(value)


def granite_fields(cfg: dict) -> dict:
    """{"embed_scale": embedding_multiplier, "score_scalar": attention_multiplier^-2}."""
    return {"embed_scale": _multiplier(cfg, "embedding_multiplier"),
            "score_scalar": 1.0 / _multiplier(cfg, "attention_multiplier") ** 2}
