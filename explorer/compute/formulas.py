"""The formula behind each view with the current numbers (HTML, English or Chinese); the PyTorch code
that computes what the view shows is in explorer.compute.code (re-exported here). No Qt here.

Formulas use HTML <sub>/<sup> (Qt rich text shows them); `lang` is "en" or "zh_CN".
"""

from __future__ import annotations

import math

import numpy as np

from explorer.compute import frequencies as frequency_data
from explorer.compute import heatmap, similarity
from explorer.backend.encodings import channel_counts, channel_is_cos, frequencies
from explorer.params import Params
from explorer.translations import QT_TRANSLATE_NOOP, fill, translate


TEXT = {  # key -> English (translations in resources/i18n/zh_CN.json, context "Formulas")
    "layout": QT_TRANSLATE_NOOP("Formulas", "layout"),
    "interleaved": QT_TRANSLATE_NOOP("Formulas", "interleaved"),     # the layouts' names, as the
    "concat": QT_TRANSLATE_NOOP("Formulas", "concat"),               # control panel writes them
    "metric": QT_TRANSLATE_NOOP("Formulas", "metric"),
    "cosine": QT_TRANSLATE_NOOP("Formulas", "cosine"),               # the metrics' names, as the control
    "dot": QT_TRANSLATE_NOOP("Formulas", "dot"),                     # panel's Similarity box writes them
    "at": QT_TRANSLATE_NOOP("Formulas", "At"),
    "channel": QT_TRANSLATE_NOOP("Formulas", "channel"),
    "pos": QT_TRANSLATE_NOOP("Formulas", "position"),
    "odd": QT_TRANSLATE_NOOP("Formulas", "odd d: the last sine channel has no cosine partner"),
    "pad": QT_TRANSLATE_NOOP("Formulas", "odd d: the last channel is zero padding"),
    "pair": QT_TRANSLATE_NOOP("Formulas", "pair"),
    "wavelength": QT_TRANSLATE_NOOP("Formulas", "wavelength"),
    "depends": QT_TRANSLATE_NOOP("Formulas", "depends only on the offset k = q − p"),
    "tokens": QT_TRANSLATE_NOOP("Formulas", "tokens"),
    "scale_on": QT_TRANSLATE_NOOP("Formulas", "E[id] is multiplied by √d"),
    "scale_off": QT_TRANSLATE_NOOP("Formulas", "no √d scaling"),
    "shortest": QT_TRANSLATE_NOOP("Formulas", "shortest"),
    "longest": QT_TRANSLATE_NOOP("Formulas", "longest"),
    "beyond": QT_TRANSLATE_NOOP("Formulas", "pairs longer than max_len"),
    "rot": QT_TRANSLATE_NOOP("Formulas", "one 2×2 rotation per frequency, independent of p"),
    "rope": QT_TRANSLATE_NOOP("Formulas",
                              "each channel pair is rotated by its position; the score depends only on m − n"),
    "other": QT_TRANSLATE_NOOP("Formulas", "This view compares variants built on the sinusoidal PE below."),
    #         (every view in the catalogue now has its own lines; "other" is left for a view added later)
    "minilm": QT_TRANSLATE_NOOP("Formulas", "trained MiniLM: word + learned position + token type"),
}


def _w(key: str, lang: str) -> str:
    return translate("Formulas", TEXT[key], lang)


def num(x: float, digits: int = 6) -> str:
    """A number as a person writes it: 10000, 0.5623, −0.6127 (true minus sign)."""
    if isinstance(x, (int, np.integer)) or (float(x).is_integer() and abs(x) < 1e15):
        text = str(int(x))
    else:
        text = f"{float(x):.{digits}g}"
    return text.replace("-", "−")


def _omega(params: Params, sub: str = "i") -> str:
    """ω_i as a formula for the layout."""
    b = num(params.base)
    if params.layout == "t2t":
        h = max(params.d_model // 2 - 1, 1)
        return f"ω<sub>{sub}</sub> = {b}<sup>−{sub}/{h}</sup>"
    return f"ω<sub>{sub}</sub> = 1 / {b}<sup>2{sub}/{params.d_model}</sup>"


def _pe_lines(params: Params) -> list[str]:
    d = params.d_model
    n_sin = channel_counts(d, params.layout)[0]
    if params.layout == "interleaved":
        lines = ["PE(pos, 2i) = sin(pos · ω<sub>i</sub>)", "PE(pos, 2i+1) = cos(pos · ω<sub>i</sub>)"]
    else:
        lines = ["PE(pos, i) = sin(pos · ω<sub>i</sub>)",
                 f"PE(pos, {n_sin} + i) = cos(pos · ω<sub>i</sub>)"]
    lines.append(_omega(params) + f", i = 0 … {max(n_sin - 1, 0)}")
    return lines


def _channel_note(params: Params, lang: str) -> str:
    d, lay = params.d_model, params.layout
    if d % 2 == 0:
        return ""
    return _w("pad" if lay == "t2t" else "odd", lang)


def _pair_index(params: Params, channel: int) -> int:
    n_sin = channel_counts(params.d_model, params.layout)[0]
    if params.layout == "interleaved":
        return channel // 2
    return channel if channel < n_sin else channel - n_sin


def _settings(params: Params, lang: str) -> str:
    return (f"d = {params.d_model}, base = {num(params.base)}, max_len = {params.max_len}, "
            f"{_w('layout', lang)}: {_w(params.layout, lang) if params.layout in TEXT else params.layout}")


def _heatmap(params: Params, cursor: int, channel: int, lang: str) -> list[str]:
    out = _pe_lines(params) + [_settings(params, lang)]
    channel = min(max(channel, 0), params.d_model - 1)
    value, w, lam = heatmap.pe_value(params, cursor, channel)
    i = _pair_index(params, channel)
    if w == 0:
        out.append(f"{_w('at', lang)} pos = {cursor}, {_w('channel', lang)} {channel}: PE = 0")
        return out
    fn = "cos" if channel_is_cos(params.d_model, params.layout)[channel] else "sin"
    out.append(f"{_w('at', lang)} pos = {cursor}, {_w('channel', lang)} {channel} (i = {i}): "
               f"ω<sub>{i}</sub> = {num(w, 4)}, PE({cursor}, {channel}) = {fn}({cursor} × {num(w, 4)}) "
               f"= {fn}({num(cursor * w, 5)}) = <b>{num(value, 4)}</b>; "
               f"{_w('wavelength', lang)} 2π/ω<sub>{i}</sub> = {num(lam, 4)}")
    return out


def _curves(params: Params, cursor: int, lang: str) -> list[str]:
    out = _pe_lines(params)[:2] + [_omega(params) + ", λ<sub>i</sub> = 2π / ω<sub>i</sub>",
                                   _settings(params, lang)]
    ws = frequencies(params.d_model, params.base, params.layout)             # (n_sin,)
    for i in params.curve_pairs[:6]:
        if i < len(ws):
            a = cursor * ws[i]
            out.append(f"i = {i}: ω<sub>{i}</sub> = {num(ws[i], 4)}, λ<sub>{i}</sub> = "
                       f"{num(2 * math.pi / ws[i], 5)}; pos = {cursor}: sin = {num(math.sin(a), 4)}, "
                       f"cos = {num(math.cos(a), 4)}")
    return out


def _similarity(params: Params, cursor: int, lang: str) -> list[str]:
    h = channel_counts(params.d_model, params.layout)[1]
    cos = params.metric == "cosine"
    out = ["S(p, q) = PE(p) · PE(q) = Σ<sub>i</sub> sin(pω<sub>i</sub>)sin(qω<sub>i</sub>) + "
           "cos(pω<sub>i</sub>)cos(qω<sub>i</sub>) = Σ<sub>i=0</sub><sup>" + str(max(h - 1, 0))
           + "</sup> cos((p − q)ω<sub>i</sub>)  — " + _w("depends", lang)]
    if cos:
        out.append(f"{_w('cosine', lang)}: S(p, q) / (|PE(p)| |PE(q)|),  |PE(p)|<sup>2</sup> = {h}")
    metric = _w(params.metric, lang) if params.metric in TEXT else params.metric
    out += [_omega(params), _settings(params, lang) + f", {_w('metric', lang)}: {metric}"]
    if params.d_model % 2 and params.layout != "t2t":
        out.append(_channel_note(params, lang) + ": + sin(pω)sin(qω)")
    for q in dict.fromkeys((cursor, min(cursor + 1, params.max_len - 1),
                            min(cursor + 10, params.max_len - 1))):
        out.append(f"S({cursor}, {q}) = <b>{num(similarity.similarity_value(params, cursor, q), 5)}</b>")
    return out


def _tokens(params: Params, cursor: int, lang: str) -> list[str]:
    """The Tokens view's lines (explorer.compute.formulas_tokens)."""
    from explorer.compute.formulas_tokens import tokens_lines

    return tokens_lines(params, cursor, lang)


def _view_lines(view: str, params: Params, cursor: int, lang: str, state, channel: int = 8) -> list[str]:
    if view == "frequencies":
        r = frequency_data.frequency_table(params)
        return [_omega(params), "λ<sub>i</sub> = 2π / ω<sub>i</sub>", _settings(params, lang),
                (f"{_w('shortest', lang)} λ = {num(r.shortest, 5)}, {_w('longest', lang)} λ = "
                 f"{num(r.longest, 5)}; {_w('beyond', lang)}: {r.beyond}")]
    if view == "offset":
        k = getattr(state, "offset", 16)
        p = getattr(state, "position", cursor)
        return ["PE(p + k) = R(k) · PE(p)",
                "R(k) = diag<sub>i</sub>( [[cos kω<sub>i</sub>, sin kω<sub>i</sub>], "
                "[−sin kω<sub>i</sub>, cos kω<sub>i</sub>]] ) — " + _w("rot", lang),
                "PE(p) · PE(p + k) = Σ<sub>i</sub> cos(kω<sub>i</sub>)",
                _omega(params), _settings(params, lang) + f", p = {p}, k = {k}"]
    if view == "rope" and getattr(state, "page", "rotation") == "scaling":
        from explorer.compute.formulas_rope import scaling_lines

        return scaling_lines(params, lang, state)
    if view == "rope":
        hd, b = getattr(state, "head_dim", 64), getattr(state, "base", 10000.0)
        return ["q′<sub>m</sub> = R(mθ) q, k′<sub>n</sub> = R(nθ) k",
                ("q′<sub>m</sub> · k′<sub>n</sub> = Re Σ<sub>i</sub> q<sub>i</sub> conj(k<sub>i</sub>) "
                 "e<sup>i(m−n)θ<sub>i</sub></sup>"), _w("rope", lang),
                f"θ<sub>i</sub> = {num(b)}<sup>−2i/{hd}</sup>, head_dim = {hd}, max_len = {params.max_len}"]
    if view == "alibi":
        from explorer.compute.formulas_alibi import alibi_lines

        return alibi_lines(params, state, lang)
    if view in ("learned", "conventions", "distance", "precision", "check"):
        from explorer.compute import formulas_views as views

        return {"learned": lambda: views.learned_lines(params, cursor, lang),
                "conventions": lambda: views.conventions_lines(params, cursor, channel, lang, state),
                "distance": lambda: views.distance_lines(params, cursor, lang, state),
                "precision": lambda: views.precision_lines(params, cursor, lang, state),
                "check": lambda: views.check_lines(params, lang, state)}[view]()
    if view == "qk":              # RoPE with a real model's layer-0 weights, as the opened model computes it
        from explorer.compute.qk_formula import qk_lines

        return qk_lines(params, lang, closing=_w("rope", lang))
    return [_w("other", lang)] + _pe_lines(params) + [_settings(params, lang)]


def formula_html(view: str, params: Params, cursor: int | None = None, lang: str = "en",
                 channel: int = 8, state=None) -> str:
    """The formula of `view` with the current numbers, as Qt rich text."""
    cursor = min(max(cursor or 0, 0), params.max_len - 1)
    if view == "heatmap":
        lines = _heatmap(params, cursor, channel, lang)
    elif view == "curves":
        lines = _curves(params, cursor, lang)
    elif view == "similarity":
        lines = _similarity(params, cursor, lang)
    elif view == "tokens":
        lines = _tokens(params, cursor, lang)
    else:
        lines = _view_lines(view, params, cursor, lang, state, channel)
    note = _channel_note(params, lang)
    if note and view in ("heatmap", "curves"):
        lines.append(note)
    body = "".join(f"<p style='margin:2px 0'>{line}</p>" for line in lines)
    return f"<div>{body}</div>"


def code_for(view: str, params: Params, state=None) -> str:
    """PyTorch code computing what `view` shows (see explorer.compute.code)."""
    from explorer.compute import code

    return code.code_for(view, params, state)


def run_code(text: str) -> np.ndarray:
    """Execute generated code in a fresh namespace and return its `result` array."""
    from explorer.compute import code

    return code.run_code(text)
