"""The Real RoPE view's words by how the shown model puts position into attention (qk._kind): "rope" (q and k
turned), "alibi" (a slope per head on the logits: BLOOM, MPT, Falcon), "learned" (rows added to X: GPT-2, BERT,
OPT, ...), "sinusoidal" (XGLM's sinusoidal rows, computed from config.json, added to X), "sinusoidal_ids" (M2M100's /
NLLB's encoder's: the same table at position ids made from the tokens, from row pad_token_id + 1) and "relative" (T5's
learned bias per head and bucket of n − m, q·k not scaled). Strings in the view's "QkView" context.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from explorer.translations import fill

translate = QCoreApplication.translate

IN_X = ("learned", "sinusoidal", "sinusoidal_ids")   # the kinds whose position rows are in x itself (the plain
#                                                        logits: without)


def explain(kind: str) -> str:
    """The view's explanation."""
    if kind in IN_X:
        row = (translate("QkView", "the token's row times √d_model plus the model's sinusoidal row PE[m + 2] "
                                   "(fairseq's, computed from config.json, not trained)") if kind == "sinusoidal"
               else translate("QkView", "the token's row times √d_model plus the model's sinusoidal row of its "
                                        "position id (fairseq's, computed from config.json, not trained: pad_token_id "
                                        "+ 1 + the tokens before it that are not padding; a padding token reads row "
                                        "pad_token_id, all zeros)") if kind == "sinusoidal_ids"
               else translate("QkView", "the token's row plus the model's learned position row P[m]"))
        return fill(translate(
            "QkView", "A real model's first layer: x_m (the input X of the Tokens view) is %1; it goes through the "
            "input norm, where the model has one, and W_q, W_k. Nothing turns q or k: the position is inside x itself, "
            "so the logit q(m)·k(n)/√head_dim (or the model's own scale) depends on m and n, not only on m − n. "
            "Without the position rows, the same weights see no position at all."), row)
    if kind == "alibi":
        return translate(
            "QkView", "A real model's first layer: x_m (the input X of the Tokens view) goes through the input norm "
            "and W_q, W_k (with biases where the model has them). This model uses ALiBi: nothing turns q or k; each "
            "head h adds slope_h · (n − m) to the logit q(m)·k(n)/√head_dim (or the model's own scale), a "
            "penalty growing with the distance to earlier keys. Without the bias, the same weights see no "
            "position at all.")
    if kind == "relative":
        return translate(
            "QkView", "A real model's first layer: x_m (the input X of the Tokens view, the token's row alone) goes "
            "through T5's norm (RMS, no bias) and W_q, W_k. This model uses a relative position bias: nothing turns q "
            "or k; each head h adds a learned number b_h of the bucket of n − m to the logit q(m)·k(n), which T5 does "
            "not divide by √head_dim. Nearby distances have a bucket each, longer ones share log-spaced buckets, and "
            "keys before and after the query have their own. Without the bias, the same weights see no position at "
            "all.")
    return translate(
        "QkView", "A real model's first layer: x_m (the input X of the Tokens view) goes through the input norm, "
        "where the model has one, and W_q, W_k (biases or q/k norms as the model has them); RoPE turns each "
        "channel pair of q(m) and k(n) by m·θᵢ and n·θᵢ with the model's own θ, so the logit "
        "q(m)·k(n)/√head_dim (or the model's own scale) sees only m − n of the positions. Without rotation, "
        "the same weights see no position at all.")


def legend(kind: str, with_it: bool) -> str:
    """The distance chart's legend entry of the curve with (or without) what puts position in."""
    if kind == "relative":
        return (translate("QkView", "with the relative bias") if with_it
                else translate("QkView", "without the relative bias"))
    if kind == "alibi":
        return translate("QkView", "with the ALiBi bias") if with_it else translate("QkView", "without the ALiBi bias")
    if kind in IN_X:
        return (translate("QkView", "with the position rows") if with_it
                else translate("QkView", "without the position rows"))
    return translate("QkView", "with RoPE") if with_it else translate("QkView", "without rotation")


def titles(kind: str, r) -> tuple[str, str, str, str]:
    """(q's, k's, the logits', the plain logits') panel titles for head r.head."""
    h, root = str(r.head), f"{r.score_scalar:g}"    # head_dim, Gemma 2/3's query_pre_attn_scalar, Granite's ...
    if kind == "relative":
        return (fill(translate("QkView", "q(m), head %1 (relative bias: not rotated)"), h),
                translate("QkView", "k(n) (relative bias: not rotated)"),
                translate("QkView", "logits q(m)·k(n) (not scaled) + relative bias"),
                translate("QkView", "the same without the relative bias"))
    if kind == "alibi":
        return (fill(translate("QkView", "q(m), head %1 (ALiBi: not rotated)"), h),
                translate("QkView", "k(n) (ALiBi: not rotated)"),
                fill(translate("QkView", "logits q(m)·k(n)/√%1 + ALiBi bias"), root),
                translate("QkView", "the same without the ALiBi bias"))
    if kind in IN_X:
        score = "q(m)·k(n)" if r.score_scalar == 1.0 else f"q(m)·k(n)/√{root}"    # (GPT-Neo: not scaled)
        sinusoidal = kind in ("sinusoidal", "sinusoidal_ids")                     # (XGLM's, M2M100's: config)
        return (fill(translate("QkView", "q(m), head %1 (sinusoidal positions in x: not rotated)") if sinusoidal
                     else translate("QkView", "q(m), head %1 (learned positions: not rotated)"), h),
                translate("QkView", "k(n) (sinusoidal positions in x: not rotated)") if sinusoidal
                else translate("QkView", "k(n) (learned positions: not rotated)"),
                fill(translate("QkView", "logits %1, positions in x"), score),
                translate("QkView", "the same weights without the position rows"))
    logits = (fill(translate("QkView", "logits q(m)·k(n)/√%1, with RoPE"), root) if r.softcap is None else
              fill(translate("QkView", "logits %2·tanh(q(m)·k(n)/√%1/%2), with RoPE"), root, f"{r.softcap:g}"))
    return (fill(translate("QkView", "q(m) after RoPE, head %1"), h), translate("QkView", "k(n) after RoPE"), logits,
            translate("QkView", "the same without rotation"))


def hover(kind: str) -> str:
    """The cell readout's template: query, key, m − n, the logit with and without what puts position in."""
    if kind == "relative":
        return translate("QkView", "query %1 “%2”, key %3 “%4” (m − n = %5): logit %6 with the relative bias, "
                                   "%7 without")
    if kind == "alibi":
        return translate("QkView", "query %1 “%2”, key %3 “%4” (m − n = %5): logit %6 with the ALiBi bias, "
                                   "%7 without")
    if kind in IN_X:
        return translate("QkView", "query %1 “%2”, key %3 “%4” (m − n = %5): logit %6 with the position "
                                   "rows, %7 without")
    return translate("QkView", "query %1 “%2”, key %3 “%4” (m − n = %5): logit %6 with RoPE, %7 without")


def readout(kind: str, r, shown: str) -> str | None:
    """The readout line of a model without RoPE (None for RoPE's, which the view builds from its settings)."""
    common = (r.model_name, str(r.n_heads), str(r.head_dim))
    if kind == "relative":
        buckets, distance = r.relative_buckets
        return fill(translate("QkView", "%1: encoder layer 0, %2 heads, head_dim %3, relative position bias in %4 "
                                        "buckets (max distance %5), q·k not scaled; %6"),
                    *common, str(buckets), str(distance), shown)
    if kind == "alibi":
        return fill(translate("QkView", "%1: layer 0, %2 heads, head_dim %3, ALiBi slopes %4 … %5; %6"), *common,
                    f"{float(r.slopes.max()):.4g}", f"{float(r.slopes.min()):.4g}", shown)   # (6 heads: 1/2 5th)
    if kind == "sinusoidal_ids":                    # M2M100 / NLLB's encoder: rows from pad_token_id + 1
        return fill(translate("QkView", "%1: encoder layer 0, %2 heads, head_dim %3, sinusoidal positions computed "
                                        "from config, from row %4 (pad_token_id + 1); nothing masked; %5"),
                    *common, str(r.first_row), shown)
    if kind == "sinusoidal":
        return fill(translate("QkView", "%1: layer 0, %2 heads, head_dim %3, sinusoidal positions computed from "
                                        "config; %4"), *common, shown)
    if kind == "learned" and r.encoder:           # BERT's, RoBERTa's, BART's encoder: nothing masked
        return fill(translate("QkView", "%1: encoder layer 0, %2 heads, head_dim %3, learned positions from row %4; "
                                        "nothing masked; %5"), *common, str(r.first_row), shown)
    if kind == "learned":
        return fill(translate("QkView", "%1: layer 0, %2 heads, head_dim %3, learned positions; %4"), *common, shown)
    return None
