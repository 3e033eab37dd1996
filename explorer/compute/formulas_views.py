"""The formula panel's lines for the Layouts, Distance, Precision, Check and Learned views, with the current
numbers (HTML). No Qt. Every number is the compute / backend functions' own (the view's cached result where
it has the number, else the backend function the view's result is made of); see explorer.compute.formulas.
"""

from __future__ import annotations

import html
import math

import numpy as np

from explorer.backend import layouts
from explorer.backend.alibi import power_of_2_below, slopes
from explorer.backend.dtype_rounding import PRECISIONS, collision_position
from explorer.backend.encodings import channel_counts, frequencies
from explorer.backend.models.family_tables import LAYER_NORM_SUMS
from explorer.backend.precision import pe_rounded
from explorer.backend.similarity import split_frequencies
from explorer.compute import distance as distance_data
from explorer.compute import learned as learned_data
from explorer.compute.check import all_zero, one_frequency
from explorer.compute.formulas import _omega, _w as _word, num
from explorer.errors import localized
from explorer.params import Params
from explorer.translations import QT_TRANSLATE_NOOP, fill, translate

TEXT = {  # key -> English (translations in resources/i18n/zh_CN.json, context "Formulas")
    "perm": QT_TRANSLATE_NOOP("Formulas", "a permutation keeps every dot product (P Pᵀ = I)"),
    "channel_to": QT_TRANSLATE_NOOP("Formulas", "interleaved channel %1 (%2, i = %3) is concat channel %4"),
    "max_diff": QT_TRANSLATE_NOOP("Formulas", "max |S<sub>concat</sub> − S<sub>interleaved</sub>| = %1, "
                                              "max |S<sub>t2t</sub> − S<sub>interleaved</sub>| = %2"),
    "t2t_apart": QT_TRANSLATE_NOOP("Formulas", "t2t spaces its frequencies differently"),
    "ones": QT_TRANSLATE_NOOP("Formulas", "all-ones q, k"),
    "scaled": QT_TRANSLATE_NOOP("Formulas", "rope type %1: θ′<sub>i</sub> and the attention factor a = %2"),
    # the ALiBi head box and the ALiBi view count heads from 0, the slope formula's h from 1 (as the paper)
    "rule": QT_TRANSLATE_NOOP("Formulas", "ALiBi head %1 (from 0) is h = %2 of %3 (from 1; the authors' rule for "
                                          "%3 heads)"),
    "head": QT_TRANSLATE_NOOP("Formulas", "ALiBi head %1 (from 0) is h = %2 of %3 (from 1)"),
    "mean_cos": QT_TRANSLATE_NOOP("Formulas", "mean over p of cos∠(P[p], P[p+k]), MiniLM's 512 × 384 table"),
    "compute": QT_TRANSLATE_NOOP("Formulas", "PE~: p, ω<sub>i</sub>, p·ω<sub>i</sub> and sin, cos each rounded "
                                             "to the dtype (computed in the dtype)"),
    "store": QT_TRANSLATE_NOOP("Formulas", "PE~: the float64 table rounded once to the dtype (stored in it)"),
    "collide": QT_TRANSLATE_NOOP("Formulas", "whole positions collide from 2<sup>mantissa bits + 1</sup>: %1"),
    "no_collide": QT_TRANSLATE_NOOP("Formulas", "a stored table never collides; first zero shown: %1"),
    "none": QT_TRANSLATE_NOOP("Formulas", "none"),
    "exact": QT_TRANSLATE_NOOP("Formulas", "exact (float64)"),
    "learned": QT_TRANSLATE_NOOP("Formulas", "learned"),
    "half": QT_TRANSLATE_NOOP("Formulas", "rotate-half"),                 # the RoPE pairings, as the
    "interleaved": QT_TRANSLATE_NOOP("Formulas", "interleaved (2i, 2i+1)"),  # check view's box names them
    "shown": QT_TRANSLATE_NOOP("Formulas", "%1 positions shown, train_max_len = %2 (beyond it: grey)"),
    "odd_term": QT_TRANSLATE_NOOP("Formulas", "odd d: + the unpaired sine's term"),
    "no_pair": QT_TRANSLATE_NOOP("Formulas", "d = %1 has no sine–cosine pair: the sum is empty"),
    "diff": QT_TRANSLATE_NOOP("Formulas", "D = T − R: your table T minus the reference R it matches or should "
                                          "match"),
    "open": QT_TRANSLATE_NOOP("Formulas", "No table yet: File → Check my table… (Ctrl+K)"),
    "refs": QT_TRANSLATE_NOOP("Formulas", "R: a PE table, a RoPE cos/sin cache or an inv_freq vector"),
    "allows": QT_TRANSLATE_NOOP("Formulas", "max |D| = %1 (a match allows %2)"),
    "no_ref": QT_TRANSLATE_NOOP("Formulas", "no reference fits; the nearest fit is off by %1"),
    "no_fit": QT_TRANSLATE_NOOP("Formulas", "no reference fits, and there is no nearest fit to measure against"),
    # zeros equal any reference times 0: the check refuses that fit (its error 0 read "the nearest fit is off by 0")
    "zeros": QT_TRANSLATE_NOOP("Formulas", "T is all zeros: it equals every reference times 0, so none is chosen"),
    "one_freq": QT_TRANSLATE_NOOP("Formulas", "every pair of T turns at one frequency: there is no base to read, so "
                                              "no reference R"),
    "largest": QT_TRANSLATE_NOOP("Formulas", "largest drawn |D|"),
    "expected": QT_TRANSLATE_NOOP("Formulas", "you expect"),
    "positions_from": QT_TRANSLATE_NOOP("Formulas", "positions from %1"),
    "trained": QT_TRANSLATE_NOOP("Formulas", "P is a trained table (%1: %2 × %3)"),
    "stored_row": QT_TRANSLATE_NOOP("Formulas", "%1's row pos + %2"),      # the table row of position pos
    # XGLM's: XGLMSinusoidalPositionalEmbedding.get_embedding, made from config.json (explorer.backend.models.xglm)
    "computed": QT_TRANSLATE_NOOP("Formulas", "P is not trained and not stored: %1 computes it from config.json "
                                              "(%2 × %3), fairseq's sinusoids [sin | cos] (the t2t layout), "
                                              "ω<sub>i</sub> = 10000<sup>−i/(d/2 − 1)</sup>"),
    "no_table": QT_TRANSLATE_NOOP("Formulas", "%1 has no learned position table: MiniLM's is shown"),
    "no_table_alibi": QT_TRANSLATE_NOOP("Formulas", "%1 has no learned position table (ALiBi biases its attention "
                                        "scores): MiniLM's is shown"),
    "not_shown": QT_TRANSLATE_NOOP("Formulas", "%1: MiniLM's is shown instead"),   # %1: why not the model's
    "beside": QT_TRANSLATE_NOOP("Formulas", "beside it: sinusoidal PE of the same size"),
}


def _w(key: str, lang: str) -> str:
    return translate("Formulas", TEXT[key], lang)


def _run(view: str, params: Params, state):
    """The view's result for params and state, from the same cache as the window's (catalogue.run)."""
    from explorer.catalogue import VIEWS

    return VIEWS[view].run(params, state)


def conventions_lines(params: Params, cursor: int, channel: int, lang: str, state) -> list[str]:
    d, b = params.d_model, params.base
    n_sin = channel_counts(d, "concat")[0]
    r = _run("conventions", params, state)
    comp = r.comparison
    t2t = params.with_(layout="t2t")
    channel = min(max(channel, 0), d - 1)
    concat = int(np.flatnonzero(layouts.concat_order(d) == channel)[0])
    w_int, w_t2t = frequencies(d, b, "interleaved"), frequencies(d, b, "t2t")
    i = 1 if len(w_t2t) > 1 else 0
    cat, inter = _word("concat", lang), _word("interleaved", lang)
    return [f"PE<sub>{cat}</sub> = PE<sub>{inter}</sub> · P, P[2i, i] = P[2i+1, {n_sin} + i] = 1 ({d} × {d})",
            f"S<sub>{cat}</sub> = PE P (PE P)<sup>T</sup> = PE PE<sup>T</sup> = S<sub>{inter}</sub> — "
            + _w("perm", lang),
            f"{_omega(params.with_(layout='interleaved'))}; t2t: {_omega(t2t)} — {_w('t2t_apart', lang)}: "
            f"ω<sub>{i}</sub> = {num(w_int[i], 4)} ({_word('interleaved', lang)}), "
            f"{num(w_t2t[i], 4) if len(w_t2t) else '—'} (t2t)",
            f"d = {d}, base = {num(b)}, max_len = {params.max_len}, {_word('metric', lang)}: "
            f"{_word(params.metric, lang)}; " + fill(_w("channel_to", lang), channel,
                                                      "cos" if channel % 2 else "sin", channel // 2, concat),
            fill(_w("max_diff", lang), num(comp.diff_concat, 3), f"<b>{num(comp.diff_t2t, 4)}</b>")]


def _layout(layout: str, lang: str) -> str:
    return _word(layout, lang) if layout in ("interleaved", "concat") else layout


def _alibi_line(state, lang: str) -> str:
    heads, h = state.heads, state.alibi_head
    m = float(slopes(heads)[h])
    low = power_of_2_below(heads)
    top, den = (h + 1, low) if h < low else (2 * (h - low) + 1, 2 * low)
    which = fill(_w("head" if low == heads else "rule", lang), h, h + 1, heads)
    return (f"f<sub>ALiBi</sub>(k) = e<sup>−m k</sup>, m = 2<sup>−8·{top}/{den}</sup> = {num(m, 5)}; {which}")


def distance_lines(params: Params, cursor: int, lang: str, state) -> list[str]:
    state = state if state is not None else distance_data.DistanceState()
    d, b, hd = params.d_model, params.base, state.head_dim
    h = len(split_frequencies(d, b, "interleaved")[0])
    k = min(max(cursor, 0), params.max_len - 1)
    sin = (f"(1/{h}) Σ<sub>i=0</sub><sup>{h - 1}</sup> cos(k ω<sub>i</sub>), "
           f"{_omega(params.with_(layout='interleaved'))}, d = {d}, base = {num(b)}" if h
           else "0: " + fill(_w("no_pair", lang), d))                          # d = 1: one unpaired sine
    out = [f"f<sub>sin</sub>(k) = {sin}"]
    rope = (f"f<sub>RoPE</sub>(k) = (2/{hd}) Σ<sub>i=0</sub><sup>{hd // 2 - 1}</sup> cos(k θ<sub>i</sub>), "
            f"θ<sub>i</sub> = {num(state.rope_base)}<sup>−2i/{hd}</sup> ({_w('ones', lang)})")
    if not state.plain_rope:
        from explorer.backend.rope_scaling import inv_frequencies

        got = inv_frequencies(hd, state.rope_base, state.scaling(), state.seq_len, state.max_position_embeddings)
        dim = 2 * len(got.inv_freq)
        rest = f" + {hd - dim}" if hd > dim else ""
        rope = (f"f<sub>RoPE</sub>(k) = (a<sup>2</sup> · 2 Σ<sub>i</sub> cos(k θ′<sub>i</sub>){rest}) / {hd}, "
                + fill(_w("scaled", lang), state.type_label(), num(got.attention_factor, 5)))
    out += [rope, _alibi_line(state, lang)]
    if state.learned and not isinstance(distance_data.learned_curve(), str):     # (a str: why it is missing)
        out.append(f"f<sub>{_w('learned', lang)}</sub>(k) = " + _w("mean_cos", lang))
    at = distance_data.factors_at(params, state, k)
    names = (("sinusoidal", "sin"), ("rope", "RoPE"), ("alibi", "ALiBi"), ("learned", _w("learned", lang)))
    out.append(f"k = {k}: " + ", ".join(f"f<sub>{label}</sub> = <b>{num(at[key], 4)}</b>"
                                        for key, label in names if key in at))
    return out


def precision_lines(params: Params, cursor: int, lang: str, state) -> list[str]:
    r = _run("precision", params, state)
    st, d, b, lay = r.state, params.d_model, params.base, params.layout
    p = min(max(cursor, 0), r.span - 1)
    w = frequencies(d, b, lay)
    n_cos = channel_counts(d, lay)[1]
    paired = float(np.sum(2 - 2 * np.cos(w[:n_cos])))
    odd = float(np.sum((2 * np.cos((p + 0.5) * w[n_cos:]) * np.sin(w[n_cos:] / 2)) ** 2))
    out = ["Δ(p) = ‖PE~(p+1) − PE~(p)‖, " + _w(st.mode, lang),
           (f"‖PE(p+1) − PE(p)‖<sup>2</sup> = Σ<sub>i</sub> (2 − 2 cos ω<sub>i</sub>) = {num(paired, 5)}"
            + (f" ({_w('odd_term', lang)})" if n_cos < len(w) else "")),
           f"{_omega(params)}, d = {d}, base = {num(b)}, {_word('layout', lang)}: {_layout(lay, lang)}; "
           + fill(_w("shown", lang), f"{r.span:,}", f"{st.train_max_len:,}")]
    if st.mode == "compute":
        out.append(fill(_w("collide", lang), ", ".join(
            f"{dt} 2<sup>{collision_position(dt).bit_length() - 1}</sup> = {collision_position(dt):,}"
            for dt in reversed(PRECISIONS))))
    else:
        first = [f"{dt} {c.first_collision if c.first_collision is not None else _w('none', lang)}"
                 for dt, c in r.curves.items()]
        out.append(fill(_w("no_collide", lang), ", ".join(first)))
    gaps = []
    for dt in PRECISIONS:
        rows = pe_rounded([p, p + 1], d, b, dt, st.mode, lay).astype(np.float64)      # (2, d)
        gaps.append(f"{dt} <b>{num(float(np.linalg.norm(rows[1] - rows[0])), 4)}</b>")
    out.append(f"p = {p}: Δ = " + ", ".join(gaps) + f"; {_w('exact', lang)} {num(math.sqrt(paired + odd), 4)}")
    return out


def _reference_line(r, lang: str) -> str:
    conv = r.convention
    base = num(conv.get("base", float("nan")))
    t = "θ′" if conv.get("rope_type", "default") != "default" else "θ"    # a scaled θ: R is θ′, not θ
    if r.kind == "inv_freq":
        hd = conv.get("head_dim", 2 * r.shape[0])
        return (f"R[i] = {t}<sub>i</sub>" + ("" if t == "θ′" else f" = {base}<sup>−2i/{hd}</sup>")
                + (f", θ<sub>i</sub> = {base}<sup>−2i/{hd}</sup>" if t == "θ′" else "")
                + f", i = 0 … {r.shape[0] - 1}" + _rope_type(conv))
    if r.kind == "rope_cache":
        hd = conv.get("head_dim", r.shape[-1])
        j = f"j mod {hd // 2}" if conv.get("pairing") == "half" else "⌊j/2⌋"
        return (f"R[m, j] = {conv.get('function', 'cos')}(m {t}<sub>{j}</sub>), θ<sub>i</sub> = "
                f"{base}<sup>−2i/{hd}</sup>, {_w(conv.get('pairing'), lang)}" + _rope_type(conv))
    d, lay = conv.get("d_model", r.shape[-1]), conv.get("layout", "interleaved")
    scale = conv.get("scale", 1.0)
    s = "" if scale == 1 else f"{num(scale, 5)} · "
    w = (f"{base}<sup>−i/{max(d // 2 - 1, 1)}</sup>" if lay == "t2t"
         else f"1 / {base}<sup>2i/{d}</sup>")
    sin = "2i" if lay == "interleaved" else "i"
    cos = "2i+1" if lay == "interleaved" else f"{channel_counts(d, lay)[0] if lay != 't2t' else d // 2} + i"
    return (f"R(pos, {sin}) = {s}sin(pos · ω<sub>i</sub>), R(pos, {cos}) = {s}cos(pos · ω<sub>i</sub>), "
            f"ω<sub>i</sub> = {w}, d = {d}, {_word('layout', lang)}: {_layout(lay, lang)}")


def _rope_type(conv: dict) -> str:
    """θ′'s rope type and its scalar parameters (factor, partial_rotary_factor, ...), as the summary names them."""
    kind = conv.get("rope_type", "default")
    if kind == "default":
        return ""
    params = conv.get("rope_params") or {}
    return f", rope_type = {kind}" + "".join(f", {k} = {num(v)}" for k, v in params.items()
                                             if isinstance(v, (int, float)) and not isinstance(v, bool))


def check_lines(params: Params, lang: str, state) -> list[str]:
    r = _run("check", params, state)
    out = [_w("diff", lang)]
    if not r.state.source:
        return out + [_w("refs", lang), _w("open", lang)]
    if r.error:                  # a Message: in the panel's language, as the view says it (a path in it
        return out + [html.escape(localized(r.error, lang), quote=False)]   # may hold "<" or "&")
    if r.reference is not None:
        out.append(_reference_line(r, lang))
    pairing = r.state.pairing and _w(r.state.pairing, lang)
    asked = [f"{n} = {num(v) if isinstance(v, float) else v}" for n, v in
             (("kind", r.state.kind), ("base", r.state.base), ("pairing", pairing)) if v not in ("", None)]
    start = r.convention.get("start", 0)
    out.append(f"T: {html.escape(r.name, quote=False)}, {' × '.join(map(str, r.shape))}, kind = {r.kind}"
               + (f", {fill(_w('positions_from', lang), start)}" if start else "")
               + (f"; {_w('expected', lang)}: {', '.join(asked)}" if asked else ""))
    if all_zero(r.mistakes):
        return out + [_w("zeros", lang)]
    if one_frequency(r.mistakes):
        return out + [_w("one_freq", lang)]
    if r.difference is None:             # an error of inf: nothing was fitted (an inv_freq not all positive, ...)
        return out + [fill(_w("no_ref", lang), num(r.max_error, 3)) if math.isfinite(r.max_error)
                      else _w("no_fit", lang)]
    out.append(fill(_w("allows", lang), f"<b>{num(r.max_difference, 4)}</b>", num(r.tolerance, 3)))
    flat = int(np.argmax(np.abs(r.difference)))
    if r.difference.ndim == 1:
        at, cell = f"[{int(r.rows[flat])}]", flat
    else:
        i, j = np.unravel_index(flat, r.difference.shape)
        at, cell = f"[{int(r.rows[i])}, {int(r.cols[j])}]", (i, j)
    out.append(f"{_w('largest', lang)}: T{at} = {num(r.table[cell], 5)}, R{at} = {num(r.reference[cell], 5)}, "
               f"D{at} = {num(r.difference[cell], 4)}")
    return out


def learned_lines(params: Params, cursor: int, lang: str) -> list[str]:
    r = learned_data.shown_table(params)
    n, d = r.shape
    source = "MiniLM" if r.source == "all-MiniLM-L6-v2" else r.source
    trained = (fill(_w("computed" if r.computed else "trained", lang), source, r.total_rows, d)
               if r.learned is not None else localized(r.error, lang))    # MiniLM's table unavailable: why
    if r.note_kind == "rope":
        trained += "; " + fill(_w("no_table", lang), r.requested)
    elif r.note_kind == "alibi":
        trained += "; " + fill(_w("no_table_alibi", lang), r.requested)
    elif r.note_kind == "failed":        # it did not open, or its table is unusable: the reason names it
        trained += "; " + fill(_w("not_shown", lang), html.escape(localized(r.reason, lang), quote=False))
    row = fill(_w("stored_row", lang), source, r.first_row)            # OPT's, RoBERTa's, XGLM's, M2M100's
    stored = f" (P[pos]: {row})" if r.first_row else ""
    if r.computed:                              # XGLM: position p reads row p + 2 of fairseq's sinusoidal table
        stored = f" (P[pos] = PE<sub>t2t</sub>(pos + {r.first_row}), {row})"
    e = f"E[id<sub>pos</sub>]·{num(r.embed_scale, 5)}" if r.embed_scale != 1.0 else "E[id<sub>pos</sub>]"   # (XGLM's)
    x = f"{e} + P[pos]" + (" + T[0]" if r.family == "bert" else "")          # BERT's token type 0 (the Tokens view's)
    x = f"LayerNorm({x})" if r.family in LAYER_NORM_SUMS else x
    out = [f"X<sub>pos</sub> = {x}, pos = 0 … {r.total_rows - 1}{stored}", trained,
           f"{_w('beside', lang)}: sin, cos(pos · ω<sub>i</sub>), {_omega(params.with_(d_model=d))}, "
           f"{_word('layout', lang)}: {_layout(params.layout, lang)}"]
    p = min(max(cursor, 0), n - 2)
    if n >= 2:
        sims = [f"cos∠(PE({p}), PE({p + 1})) = {num(float(r.sim_sinusoidal[p, p + 1]), 4)}"]
        if r.sim_learned is not None:
            sims.insert(0, f"cos∠(P[{p}], P[{p + 1}]) = <b>{num(float(r.sim_learned[p, p + 1]), 4)}</b>")
        out.append(", ".join(sims))
    return out
