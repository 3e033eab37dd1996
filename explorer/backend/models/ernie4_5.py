"""ERNIE 4.5 (ERNIE-4.5-0.3B: model_type ernie4_5; ERNIE-4.5-21B-A3B, -300B-A47B: ernie4_5_moe): its own fields. No Qt.

As transformers 5.25's configuration_ernie4_5.py / modeling_ernie4_5.py (and the _moe twins, whose experts are in
the MLP only) read them. Llama's layout and attention (RMSNorm, q_proj / k_proj, GQA, 1 / sqrt(head_dim)) with:
- apply_rotary_pos_emb takes the first half of cos / sin and repeat_interleave(2)s it, and its rotate_half is
  GPT-J's (x[..., 0::2], x[..., 1::2]): pair j is channels (2j, 2j + 1), over the whole head, in float32;
- q/k/v biases when use_bias (default false; null: none, nn.Linear's bias=None);
- Ernie4_5Config: head_dim 128, 2 kv heads by default (null: hidden / heads, one kv head a head);
  Ernie4_5_MoeConfig has no head_dim field (its attention: getattr(config, "head_dim", hidden / heads)) and 4 kv
  heads, a null count it cannot run; both default to rope_theta 500,000 (default_theta), rms_norm_eps 1e-5 and
  131,072 positions (family_tables).
"""

from __future__ import annotations

from explorer.errors import require, shown

ERNIE_TYPES = ("ernie4_5", "ernie4_5_moe")


def ernie_qk_bias(cfg: dict) -> bool:
    """use_bias (bool | None in Ernie4_5Config: null builds no bias), refused unless true, false or null."""
    value = cfg.get("use_bias")
    require(value is None or type(value) is bool, "config.json: use_bias must be true, false or null, not %1",
            shown(value))
    return bool(value)
