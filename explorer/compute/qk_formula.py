"""The Real RoPE view's formula lines, as the opened model computes layer 0's q, k and logits. No Qt.

Read from the model's config when the model is already open (the view opened it; the formula panel never
opens a checkpoint itself); the textbook Llama lines otherwise.
"""

from __future__ import annotations

from explorer.params import Params

GENERIC = ("q<sub>m</sub> = R(mθ) W<sub>q</sub> norm(x<sub>m</sub>), k<sub>n</sub> = R(nθ) W<sub>k</sub> "
           "norm(x<sub>n</sub>)", "logit(m, n) = q<sub>m</sub> · k<sub>n</sub> / √head_dim")


def _open_config(params: Params):
    """The ModelConfig of the model the Real RoPE view shows, when it is open already (and its files
    unchanged); else None."""
    from explorer.compute import models
    from explorer.compute.qk import DEFAULT_MODEL

    return models.open_config(params.model or DEFAULT_MODEL)


def _projection(cfg, side: str) -> str:
    """q's (or k's) path from x to the rotation: W x, its input norm, its q/k norm where the model has one."""
    w, x = f"W<sub>{side}</sub>", "x<sub>m</sub>" if side == "q" else "x<sub>n</sub>"
    inner = f"{w} norm({x})" if cfg.pre_norm else f"{w} {x}"
    if cfg.qk_norm:
        inner = f"{side}_norm({inner})"
    return inner


def _logit(cfg) -> str:
    """The score line: / √head_dim, Gemma 2/3's / √query_pre_attn_scalar, Granite's x attention_multiplier,
    then Gemma 2's soft cap."""
    qk = "logit(m, n) = q<sub>m</sub> · k<sub>n</sub>"
    if cfg.family == "granite":
        line = f"{qk} × attention_multiplier ({cfg.score_scalar ** -0.5:.6g})"
    elif cfg.score_scalar:
        line = f"{qk} / √query_pre_attn_scalar (√{cfg.score_scalar:g})"
    else:
        line = f"{qk} / √head_dim (√{cfg.head_dim})"
    if cfg.attn_softcap is not None:
        line += f", then cap · tanh(logit / cap), cap = {cfg.attn_softcap:g}"
    return line


def qk_lines(params: Params) -> list[str]:
    """The first two lines of the Real RoPE view's formula: q and k, and the logit."""
    cfg = _open_config(params)
    if cfg is None or cfg.position != "rope":
        return list(GENERIC)
    return [f"q<sub>m</sub> = R(mθ) {_projection(cfg, 'q')}, k<sub>n</sub> = R(nθ) {_projection(cfg, 'k')}",
            _logit(cfg)]
