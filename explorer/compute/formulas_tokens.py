"""The Tokens view's formula lines (the formula panel) and its X formula (the view's header), with the
current numbers (HTML). No Qt. Every number is the TokensResult's own (explorer.compute.tokens /
model_tokens); see explorer.compute.formulas.
"""

from __future__ import annotations

import html
import math

from explorer.backend.models.family_tables import LAYER_NORM_SUMS, SINUSOID_FAMILIES
from explorer.compute import tokens
from explorer.compute.formulas import _w, num
from explorer.params import Params

SHOWN_ROWS = 12            # position ids written out on the formula panel's line; more end in " …"


def pad_rule(pad: int, sub: str, zero_row: bool = False) -> str:
    """The row r of a RoBERTa-style model's token `sub`, as transformers' create_position_ids_from_input_ids
    (modeling_roberta.py; M2M100's in modeling_m2m_100.py) makes it: pad + the number of tokens up to it that
    are not the pad token, and a pad token row pad itself (zero_row: M2M100's sinusoidal row pad is zero)."""
    r, i = f"r<sub>{sub}</sub>", f"id<sub>{sub}</sub>"
    zero = f", PE[{pad}] = 0" if zero_row else ""
    return f"{r} = {pad} + #{{n ≤ {sub} : id<sub>n</sub> ≠ {pad}}} ({i} = {pad}: {r} = {pad}{zero})"


def x_line(r) -> str:
    """X as the result's source makes it: the paper's E·√d + PE (untrained), MiniLM's sum, or the opened
    model's own (its scale, the rows it adds, its LayerNorm; RoBERTa's and M2M100's rows r<sub>pos</sub>
    from the tokens, see pad_rule)."""
    if r.source == "minilm":
        return "X<sub>pos</sub> = W<sub>word</sub>[id<sub>pos</sub>] + P[pos] + T[0]"
    if r.source == "model" and not r.error:      # the opened model's own scale and positions
        named = (" (embedding_multiplier)" if r.by_multiplier                 # (BART's: scale_embedding)
                 else " (√d_model)" if r.family in (*SINUSOID_FAMILIES, "bart") else " (√hidden)")
        scale = "" if r.scale == 1.0 else f"·{num(r.scale, 5)}" + named
        added = {"bert": " + P[pos] + T[0]", "opt": " + P[pos + 2]", "bart": " + P[pos + 2]",  # (XGLM's: computed,
                 "xglm": " + PE<sub>t2t</sub>[pos + 2]"}.get(r.family, " + P[pos]")                #  models.xglm)
        if r.padding_idx is not None:           # RoBERTa's, M2M100's: the row each token reads (pad_rule)
            added = (" + PE<sub>t2t</sub>[r<sub>pos</sub>]" if r.family == "m2m_100"     # (computed)
                     else " + P[r<sub>pos</sub>] + T[0]")
        x = f"E[id<sub>pos</sub>]{scale}" + (added if r.position == "learned" else "")   # (RoPE, ALiBi: none)
        return (f"X<sub>pos</sub> = LayerNorm({x})" if r.family in (*LAYER_NORM_SUMS, "bloom")
                else f"X<sub>pos</sub> = {x}")
    scale = "·√d" if r.params.scale_embedding else ""
    return f"X<sub>pos</sub> = E[id<sub>pos</sub>]{scale} + PE(pos)"


def rows_line(r) -> str:
    """The position ids a RoBERTa-style model reads for this text (r.position_ids, the panel's), after the rule
    that makes them; "" for every other result."""
    if r.source != "model" or r.error or r.padding_idx is None or r.position != "learned":
        return ""
    ids = ", ".join(str(int(i)) for i in r.position_ids[:SHOWN_ROWS])
    more = " …" if len(r.position_ids) > SHOWN_ROWS else ""
    return f"{pad_rule(r.padding_idx, 'pos', r.family == 'm2m_100')}: r = {ids}{more}"


def position_length(r, p: int) -> str:
    """The cursor line's name of the length of what is added for position p: |PE(p)| (the paper's, XGLM's and
    M2M100's computed sinusoids), |P[p]| (a trained table: MiniLM's, a learned-position model's), "" where nothing
    is added (RoPE, ALiBi, T5: the line said |PE(0)| = 0)."""
    if r.source == "model" and not r.error and r.position != "learned":
        return ""
    trained = r.source == "minilm" or (r.source == "model" and r.family not in SINUSOID_FAMILIES)
    if rows_line(r):                      # RoBERTa's, M2M100's: the row r_p the token reads
        return f"|P[r<sub>{p}</sub>]|" if trained else f"|PE<sub>t2t</sub>[r<sub>{p}</sub>]|"
    return f"|P[{p}]|" if trained else f"|PE({p})|"


def tokens_lines(params: Params, cursor: int, lang: str) -> list[str]:
    """The formula panel's Tokens lines: X, [the rows read,] the tokens, and the cursor's lengths."""
    r = tokens.for_params(params)
    out = [x_line(r)]
    if r.source == "minilm":
        out.append(_w("minilm", lang))
    elif rows_line(r):
        out.append(rows_line(r))
    elif r.source != "model" or r.error:
        out.append(f"d = {params.d_model}, √d = {num(math.sqrt(params.d_model), 5)} — "
                   + _w("scale_on" if params.scale_embedding else "scale_off", lang))
    shown = ", ".join(f"{html.escape(repr(t.text), quote=False)}→{t.id}"      # (escaped: RoBERTa's "<s>" had
                      for t in r.tokens[:8])                                  # struck the line through)
    out.append(f"{_w('tokens', lang)} ({html.escape(r.tokenizer)}): {shown}" + (" …" if r.n_shown > 8 else ""))
    if r.n_shown:
        p = min(cursor, r.n_shown - 1)
        row = (f"r<sub>{p}</sub> = {int(r.position_ids[p])}, " if rows_line(r) else "")
        out.append(f"pos = {p}: |E[{r.tokens[p].id}]|·{num(r.scale, 4)} = {num(r.token_norm[p] * r.scale, 4)}"
                   + (f", {row}{position_length(r, p)} = {num(r.pe_norm[p], 4)}" if position_length(r, p) else ""))
    return out
