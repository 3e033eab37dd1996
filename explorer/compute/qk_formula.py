"""The Real RoPE view's formula lines, as the opened model computes layer 0's q, k and logits. No Qt.

Read from the model's config when the model is already open (the view opened it; the formula panel never
opens a checkpoint itself); the textbook Llama lines otherwise.
"""

from __future__ import annotations

from explorer.params import Params
from explorer.backend.models.hunyuan import HUNYUAN
from explorer.translations import QT_TRANSLATE_NOOP, fill, translate

GENERIC = ("q<sub>m</sub> = R(mθ) W<sub>q</sub> norm(x<sub>m</sub>), k<sub>n</sub> = R(nθ) W<sub>k</sub> "
           "norm(x<sub>n</sub>)", "logit(m, n) = q<sub>m</sub> · k<sub>n</sub> / √head_dim")


def _open_config(params: Params):
    """The ModelConfig of the model the Real RoPE view shows, when it is open already (and its files
    unchanged); else None."""
    from explorer.compute import models
    from explorer.compute.qk import DEFAULT_MODEL

    return models.open_config(params.model or DEFAULT_MODEL)


def _projection(cfg, side: str) -> str:
    """q's (or k's) path from x to the rotation: W x, its input norm, its q/k norm where the model has one, then
    its clamp to ±clip_qkv (OLMo, OLMoE, MPT)."""
    w, x = f"W<sub>{side}</sub>", "x<sub>m</sub>" if side == "q" else "x<sub>n</sub>"
    inner = f"{w} norm({x})" if cfg.pre_norm else f"{w} {x}"
    if cfg.qk_norm:
        inner = f"{side}_norm({inner})"
    if cfg.qkv_clip is not None:              # OLMo, OLMoE, MPT: clamped to ±clip_qkv after the projection
        inner = f"clamp({inner}, ±{cfg.qkv_clip:g})"
    return inner


def _learned_x(cfg) -> str:
    """x of a learned-position model as its embeddings make it (the Tokens view's X): E[id] + P[m] (GPT-2, GPT-Neo,
    GPT-BigCode), BERT's LayerNorm with the token-type row, OPT's table offset by 2, RoBERTa's and M2M100's rows
    r<sub>m</sub> from the tokens (formulas_tokens.pad_rule), XGLM's √d·E[id] + its sinusoidal row m + 2."""
    from explorer.compute.formulas_tokens import pad_rule

    e, p = "E[id<sub>m</sub>]", f"P[m + {cfg.position_offset}]" if cfg.position_offset else "P[m]"
    if cfg.family == "bert" and cfg.padding_idx is not None:     # RoBERTa's rows from the tokens, as M2M100's
        return f"x<sub>m</sub> = LayerNorm({e} + P[r<sub>m</sub>] + T[0]), {pad_rule(cfg.padding_idx, 'm')}"
    if cfg.family == "bert":
        return f"x<sub>m</sub> = LayerNorm({e} + {p} + T[0])"
    if cfg.family in ("distilbert", "bart"):      # (BART: its layernorm_embedding, E x √d when scale_embedding)
        scaled = f"√{cfg.d_model}·{e}" if cfg.embed_scale != 1.0 else e
        return f"x<sub>m</sub> = LayerNorm({scaled} + {p})"
    if cfg.computed_positions:     # XGLMModel, M2M100Encoder: embed_tokens x sqrt(d_model) + its sinusoidal rows
        scaled = f"√{cfg.d_model}·{e}" if cfg.embed_scale != 1.0 else e
        if cfg.padding_idx is not None:     # M2M100's position ids from the tokens (create_position_ids_from_input_ids)
            return f"x<sub>m</sub> = {scaled} + PE<sub>t2t</sub>[r<sub>m</sub>], {pad_rule(cfg.padding_idx, 'm', True)}"
        return f"x<sub>m</sub> = {scaled} + PE<sub>t2t</sub>[m + {cfg.position_offset}]"
    return f"x<sub>m</sub> = {e} + {p}"


def _mla_lines(cfg) -> list[str]:
    """DeepSeek's latent attention: q from x (or its low-rank pair), k's nope part from the shared latent c, and
    RoPE on the decoupled rope part only (k's the same for every head)."""
    x = "norm(x<sub>m</sub>)"
    q_in = (f"W<sub>q</sub> {x}" if cfg.mla.q_lora_rank is None
            else f"W<sub>q_b</sub> RMSNorm(W<sub>q_a</sub> {x})")
    return [f"q<sub>m</sub> = [q<sup>nope</sup><sub>m</sub> ; R(mθ) q<sup>rope</sup><sub>m</sub>] = {q_in}",
            "k<sub>n</sub> = [W<sub>kv_b</sub> RMSNorm(c<sub>n</sub>) ; R(nθ) k<sup>rope</sup><sub>n</sub>], "
            "[c<sub>n</sub> ; k<sup>rope</sup><sub>n</sub>] = W<sub>kv_a</sub> norm(x<sub>n</sub>)"]


def _logit(cfg, lang: str = "en") -> str:
    """The score line: / √head_dim, Gemma 2/3's / √query_pre_attn_scalar, Granite's x attention_multiplier,
    DeepSeek's x mscale² (YaRN's), then Gemma 2's soft cap; "not scaled" and the cap's words in `lang`."""
    unscaled = translate("Formulas", WORDS["not_scaled"], lang)
    qk = "logit(m, n) = q<sub>m</sub> · k<sub>n</sub>"
    if cfg.mla is not None:
        squared = (cfg.head_dim / cfg.score_scalar) ** 0.5
        line = f"{qk} / √head_dim (√{cfg.head_dim})"
        line += f" × mscale² ({squared:.6g})" if abs(squared - 1.0) > 1e-12 else ""
    elif cfg.family in ("granite", "mpt") and cfg.score_scalar:     # MPT: its attn_config.softmax_scale
        name = "attention_multiplier" if cfg.family == "granite" else "softmax_scale"
        line = f"{qk} × {name} ({cfg.score_scalar ** -0.5:.6g})"
    elif cfg.model_type == "gpt_bigcode" and cfg.score_scalar:     # its scale_attn_weights false: scaling 1.0
        line = f"{qk} ({fill(unscaled, 'scale_attn_weights false')})"
    elif cfg.model_type == "gpt_neo":                              # GPTNeoSelfAttention._attn: no scaling
        line = f"{qk} ({fill(unscaled, 'GPT-Neo')})"
    elif cfg.family == "t5":                                       # T5Attention's scaling 1.0
        line = f"{qk} ({fill(unscaled, 'T5')})"
    elif cfg.score_scalar:
        line = f"{qk} / √query_pre_attn_scalar (√{cfg.score_scalar:g})"
    else:
        line = f"{qk} / √head_dim (√{cfg.head_dim})"
    if cfg.attn_softcap is not None:
        line += fill(translate("Formulas", WORDS["softcap"], lang), f"{cfg.attn_softcap:g}")
    return line


WORDS = {   # the softmax line's words (rich text: "&lt;" is "<")
    "not_scaled": QT_TRANSLATE_NOOP("Formulas", "%1: not scaled"),      # (T5, GPT-Neo: q·k not divided by √d)
    "softcap": QT_TRANSLATE_NOOP("Formulas", ", then cap · tanh(logit / cap), cap = %1"),     # (Gemma 2)
    "window": QT_TRANSLATE_NOOP("Formulas", "keys m − %1 &lt; n ≤ m (a sliding window of %1)"),
    "causal": QT_TRANSLATE_NOOP("Formulas", "keys n ≤ m"),
    "chunk": QT_TRANSLATE_NOOP("Formulas", "keys n ≤ m of m's own chunk of %1 (⌊n / %1⌋ = ⌊m / %1⌋)"),
    "sinks": QT_TRANSLATE_NOOP("Formulas", "%1 and the head's sink logit s<sub>h</sub>"),
    "weights": QT_TRANSLATE_NOOP("Formulas", "weights(m, ·) = softmax of the logits over %1"),
    "alibi": QT_TRANSLATE_NOOP("Formulas", "nothing turns: head h adds m<sub>h</sub> (n − m) to its logits, slopes "
                                           "%1 … %2 (transformers adds m<sub>h</sub> n, or MPT's "
                                           "m<sub>h</sub> (n − L + 1) for L = max_seq_len: the same softmax)"),
    "q_scale": QT_TRANSLATE_NOOP("Formulas", "s<sub>m</sub> = 1 + %1 · ln(1 + ⌊m / %2⌋) scales query m after RoPE "
                                             "(Llama 4's position scale: 1 for the first %2 positions)"),
    "learned": QT_TRANSLATE_NOOP("Formulas", "nothing turns: the learned row P[m] is in x<sub>m</sub> before "
                                             "W<sub>q</sub> and W<sub>k</sub>, so the logit depends on m and n, "
                                             "not only on m − n; without it the same weights see no position"),
    "sinusoidal": QT_TRANSLATE_NOOP("Formulas", "nothing turns: the fixed sinusoidal row PE<sub>t2t</sub>[m + 2] "
                                                "(computed from config.json, not trained) is in x<sub>m</sub> before "
                                                "W<sub>q</sub> and W<sub>k</sub>, so the logit depends on m and n, "
                                                "not only on m − n; without it the same weights see no position"),
    "sinusoidal_ids": QT_TRANSLATE_NOOP("Formulas", "nothing turns: the fixed sinusoidal row PE<sub>t2t</sub>"
                                                    "[r<sub>m</sub>] (computed from config.json, not trained; "
                                                    "r<sub>m</sub> from the tokens) is in x<sub>m</sub> before "
                                                    "W<sub>q</sub> and W<sub>k</sub>, so the logit depends on m and "
                                                    "n, not only on m − n; without it the same weights see no "
                                                    "position; an encoder: nothing is masked"),
    "relative": QT_TRANSLATE_NOOP("Formulas", "nothing turns: head h adds its learned b<sub>h</sub> of the "
                                              "bucket of n − m: %1 buckets, half for keys after the query; %2 "
                                              "distances each way have one of their own, longer ones share "
                                              "log-spaced buckets up to %3, and all from there on the last (T5: no "
                                              "text is too long for it)"),
    "mla": QT_TRANSLATE_NOOP("Formulas", "only the rope part's channel pairs turn (each head's last %1 channels; "
                                         "the nope part carries no position); the score depends only on m − n"),
}


def _weights(cfg, lang: str) -> list[str]:
    """The softmax line of a layer 0 with a sliding window, chunks (Llama 4) or GPT-OSS's sinks (none for the
    others)."""
    window, chunk = cfg.window_of(0), cfg.chunk_of(0)
    if window is None and chunk is None and not cfg.attention_sinks:
        return []
    word = lambda key: translate("Formulas", WORDS[key], lang)            # noqa: E731
    keys = (fill(word("window"), str(window)) if window is not None else fill(word("chunk"), str(chunk))
            if chunk is not None else word("causal"))
    if cfg.attention_sinks:
        keys = fill(word("sinks"), keys)
    return [fill(word("weights"), keys)]


def qk_lines(params: Params, lang: str = "en", closing: str | None = None) -> list[str]:
    """The Real RoPE view's formula lines before RoPE's own: q and k, the logit, and where layer 0 has a
    sliding window or sinks, its softmax; then, when given, the closing words about RoPE (for DeepSeek's MLA
    its own: only the rope part turns)."""
    cfg = _open_config(params)
    mla = cfg is not None and cfg.position == "rope" and cfg.mla is not None
    alibi = cfg is not None and cfg.position == "alibi"
    learned = cfg is not None and cfg.position == "learned"
    relative = cfg is not None and cfg.position == "relative"
    if alibi or relative:                           # BLOOM, T5: no rotation, a bias on each head's logits
        lines = [f"q<sub>m</sub> = {_projection(cfg, 'q')}, k<sub>n</sub> = {_projection(cfg, 'k')}",
                 _logit(cfg, lang) + (" + b<sub>h</sub>(bucket(n − m))" if relative else " + m<sub>h</sub> (n − m)")]
    elif learned:                                   # GPT-2, BERT, OPT: the position row is in x, nothing turns
        lines = [f"q<sub>m</sub> = {_projection(cfg, 'q')}, k<sub>n</sub> = {_projection(cfg, 'k')}",
                 _learned_x(cfg), _logit(cfg, lang), *_weights(cfg, lang)]
    elif cfg is None or cfg.position != "rope":
        lines = list(GENERIC)
    elif mla:
        lines = [*_mla_lines(cfg), _logit(cfg, lang), *_weights(cfg, lang)]
    else:
        q, k = f"R(mθ) {_projection(cfg, 'q')}", f"R(nθ) {_projection(cfg, 'k')}"
        if cfg.qk_norm_after_rope and 0 not in cfg.nope_layers:     # Llama 4: RMS-normalised after RoPE, no weight
            q, k = f"qk_norm({q})", f"qk_norm({k})"
        elif cfg.model_type in HUNYUAN:                             # Hunyuan: each head's RMSNorm after RoPE
            q, k = f"q_norm({q})", f"k_norm({k})"
        scale = [] if cfg.q_scale is None else [fill(translate("Formulas", WORDS["q_scale"], lang),   # Ministral 3
                                                     f"{cfg.q_scale[1]:g}", str(cfg.q_scale[0]))]
        q = f"s<sub>m</sub> {q}" if scale else q
        lines = [f"q<sub>m</sub> = {q}, k<sub>n</sub> = {k}", *scale, _logit(cfg, lang), *_weights(cfg, lang)]
    if closing is not None and alibi:
        from explorer.backend.models.alibi_family import slopes_of

        slopes = slopes_of(cfg)
        lines.append(fill(translate("Formulas", WORDS["alibi"], lang), f"{slopes.max():.4g}", f"{slopes.min():.4g}"))
    elif closing is not None and relative:         # T5's bucket rule (models.t5_bias)
        buckets, distance = cfg.relative_buckets
        lines.append(fill(translate("Formulas", WORDS["relative"], lang), str(buckets), str(buckets // 4),
                          str(distance)))
    elif closing is not None and learned:           # (XGLM's rows: the sinusoidal table, computed)
        word = ("learned" if not cfg.computed_positions else "sinusoidal_ids" if cfg.padding_idx is not None
                else "sinusoidal")
        lines.append(translate("Formulas", WORDS[word], lang))
    elif closing is not None:
        lines.append(fill(translate("Formulas", WORDS["mla"], lang), str(cfg.mla.rope)) if mla else closing)
    return lines
