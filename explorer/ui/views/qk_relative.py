"""The Real RoPE view's words for a T5 model (explorer.compute.qk: QkResult.relative): its encoder's layer-0 logits
with and without its relative position bias, nothing rotated, q·k not scaled. Strings in the view's "QkView" context.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from explorer.translations import fill


def explain() -> str:
    """The view's explanation for T5."""
    return QCoreApplication.translate(
        "QkView", "A real model's first layer: x_m (the input X of the Tokens view, the token's row alone) goes "
        "through T5's norm (RMS, no bias) and W_q, W_k. This model uses a relative position bias: nothing turns q "
        "or k; each head h adds a learned number b_h of the bucket of n − m to the logit q(m)·k(n), which T5 does "
        "not divide by √head_dim. Nearby distances have a bucket each, longer ones share log-spaced buckets, and "
        "keys before and after the query have their own. Without the bias, the same weights see no position at all.")


def legend(with_it: bool) -> str:
    """The distance chart's legend entry of the curve with (or without) the bias."""
    return (QCoreApplication.translate("QkView", "with the relative bias") if with_it
            else QCoreApplication.translate("QkView", "without the relative bias"))


def titles(head: int) -> tuple[str, str, str, str]:
    """(q's, k's, the logits', the plain logits') panel titles."""
    return (fill(QCoreApplication.translate("QkView", "q(m), head %1 (relative bias: not rotated)"), str(head)),
            QCoreApplication.translate("QkView", "k(n) (relative bias: not rotated)"),
            QCoreApplication.translate("QkView", "logits q(m)·k(n) (not scaled) + relative bias"),
            QCoreApplication.translate("QkView", "the same without the relative bias"))


def readout(r, shown: str) -> str:
    """The readout line: the encoder's layer 0, its heads and bucket settings."""
    buckets, distance = r.relative_buckets
    return fill(QCoreApplication.translate(
        "QkView", "%1: encoder layer 0, %2 heads, head_dim %3, relative position bias in %4 buckets (max distance "
        "%5), q·k not scaled; %6"), r.model_name, str(r.n_heads), str(r.head_dim), str(buckets), str(distance), shown)


def hover() -> str:
    """The cell readout's template: query, key, distance, the logit with and without the bias."""
    return QCoreApplication.translate(
        "QkView", "query %1 “%2”, key %3 “%4” (m − n = %5): logit %6 with the relative bias, %7 without")
