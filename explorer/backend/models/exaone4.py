"""EXAONE 4.0 (EXAONE-4.0-1.2B, EXAONE-4.0-32B; model_type exaone4): its layer types and its layers without RoPE.
No Qt.

As transformers 5.25's configuration_exaone4.py and modeling_exaone4.py read them (Exaone4Config.__post_init__,
Exaone4Attention.forward, Exaone4DecoderLayer.forward):
- no norm before attention: a layer reads the residual stream itself; its RMSNorms come after attention and after
  the MLP (post_attention_layernorm, post_feedforward_layernorm), as OLMo 2's do;
- q_proj / k_proj (no biases), then an RMSNorm of each head (q_norm / k_norm, head_dim wide), then rotate-half RoPE;
- "We use global NoPE for hybrid attention model": RoPE is applied only `if self.sliding_window is None or
  self.is_sliding`. With a window (EXAONE-4.0-32B: 4,096) the full_attention layers turn neither q nor k; without
  one (EXAONE-4.0-1.2B) every layer turns;
- layer_types, or else layer i slides where (i + 1) % sliding_window_pattern != 0 (window 4096 and pattern 4 by
  default). A null window sets the pattern to 0 (ZeroDivisionError) and a pattern such as "LLLG" is no number
  (TypeError): the class then cannot make layer types, and such a config.json must list them.
"""

from __future__ import annotations

from explorer.backend.models import layer_attention
from explorer.errors import require


def exaone4_fields(cfg: dict, n_layers: int) -> dict:
    """ModelConfig's sliding_window, layer_types, nope_layers (and attention_refusal) of an exaone4 config.json."""
    window = layer_attention.sliding_window(cfg, "exaone4")
    require(window is not None or cfg.get("layer_types") is not None,
            "config.json: sliding_window is null and layer_types is missing; Exaone4Config cannot make the layer "
            "types then")
    own = layer_attention.window_fields(cfg, "exaone4", n_layers)
    types = own["layer_types"]
    # Exaone4Attention: RoPE where sliding_window is None or the layer slides; the others are NoPE
    own["nope_layers"] = () if window is None else tuple(i for i, t in enumerate(types) if t != "sliding_attention")
    return own
