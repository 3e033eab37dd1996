"""The formula panel's lines for the RoPE view's scaling page: the rope type's θ′ with the current numbers (HTML).
No Qt. The numbers are explorer.backend.rope_scaling's / rope_types' (transformers' ROPE_INIT_FUNCTIONS, float64),
read from the page's own cached result (explorer.compute.rope_scaled.scaled_view).
"""

from __future__ import annotations

import math

from explorer.backend.rope_types import dynamic_scale, yarn_bounds, yarn_ramp
from explorer.compute.formulas import num
from explorer.compute.rope_scaled import scaled_view
from explorer.translations import QT_TRANSLATE_NOOP, fill, translate

TEXT = {  # key -> English (translations in resources/i18n/zh_CN.json, context "Formulas")
    "extrapolated": QT_TRANSLATE_NOOP("Formulas", "extrapolated"),     # the regimes, as the scaling page
    "between": QT_TRANSLATE_NOOP("Formulas", "between"),               # names them
    "interpolated": QT_TRANSLATE_NOOP("Formulas", "interpolated"),
    "rescaled": QT_TRANSLATE_NOOP("Formulas", "rescaled"),
    "not rotated": QT_TRANSLATE_NOOP("Formulas", "not rotated"),
    "unscaled": QT_TRANSLATE_NOOP("Formulas", "rope type default: no scaling"),
    "pi": QT_TRANSLATE_NOOP("Formulas", "position m turns as m / s did (position interpolation)"),
    "unturned": QT_TRANSLATE_NOOP("Formulas", "channels %1 … %2 do not turn"),
    "scores": QT_TRANSLATE_NOOP("Formulas", "cos and sin × a: every score × a<sup>2</sup> = %1"),
    "given": QT_TRANSLATE_NOOP("Formulas", "attention_factor given"),
    "no_trunc": QT_TRANSLATE_NOOP("Formulas", "not truncated"),
    "context": QT_TRANSLATE_NOOP("Formulas", "context"),
    "guard": QT_TRANSLATE_NOOP("Formulas", "low = high: transformers adds 0.001 to high (no division by 0)"),
}


def _w(key: str, lang: str) -> str:
    return translate("Formulas", TEXT[key], lang)


def _pair(prof, lang: str) -> str:
    """One worked pair: the first in the blend band, else the middle one that turns."""
    between = [i for i, r in enumerate(prof.regime) if r == "between"]
    i = between[0] if between else max(prof.rotated_pairs // 2, 0)
    return (f"i = {i}: θ<sub>{i}</sub> = {num(prof.inv_freq_before[i], 4)} → θ′<sub>{i}</sub> = "
            f"<b>{num(prof.inv_freq_after[i], 4)}</b>, λ = 2π/θ: {num(prof.wavelength_before[i], 5)} → "
            f"{num(prof.wavelength_after[i], 5)} ({_w(prof.regime[i], lang)})")


def _yarn(scaling, prof, dim: int, base: float, lang: str) -> list[str]:
    _, low, high = yarn_ramp(scaling, dim, base)
    raw_low, raw_high = yarn_bounds(scaling, dim, base)          # before the clamp to 0 … dim − 1
    fast, slow = scaling.yarn_betas
    trunc = scaling.truncate is not False
    lo, hi = (("⌊", "⌋"), ("⌈", "⌉")) if trunc else (("", ""), ("", ""))
    s, l0, a = prof.factor, prof.original_context, prof.attention_factor
    if scaling.attention_factor is not None:
        att = f"a = {num(a, 6)} ({_w('given', lang)})"
    elif scaling.mscale and scaling.mscale_all_dim:
        att = (f"a = (0.1·{num(scaling.mscale)}·ln s + 1) / (0.1·{num(scaling.mscale_all_dim)}·ln s + 1) "
               f"= {num(a, 6)}")
    else:
        att = f"a = 0.1 ln s + 1 = 0.1 ln {num(s)} + 1 = {num(a, 6)}" if s > 1 else f"a = {num(a, 6)}"
    low_text = f"{lo[0]}{dim} ln({l0} / (2π·{num(fast)})) / (2 ln {num(base)}){lo[1]}"
    high_text = f"{hi[0]}… (2π·{num(slow)}) …{hi[1]}"
    if raw_low != low:                                           # the clamp bites: written as the code does it
        low_text = f"max({low_text}, 0) = max({num(raw_low, 5)}, 0)"
    if raw_high != high:
        high_text = f"min({high_text}, {dim - 1}) = min({num(raw_high, 5)}, {dim - 1})"
    top, guard = (f"{num(high, 5)} + 0.001", f"; {_w('guard', lang)}") if low == high else (num(high, 5), "")
    return [f"θ′<sub>i</sub> = (1 − γ<sub>i</sub>) θ<sub>i</sub> + γ<sub>i</sub> θ<sub>i</sub> / s, "
            f"γ<sub>i</sub> = clip((i − {num(low, 5)}) / ({top} − {num(low, 5)}), 0, 1), s = {num(s)}{guard}",
            f"low = {low_text} = {num(low, 5)}, high = {high_text} = {num(high, 5)}"
            + ("" if trunc else f" ({_w('no_trunc', lang)})") + f"; {att}"]


def _type_lines(state, prof, dim: int, lang: str) -> list[str]:
    scaling, base, kind = state.scaling(), state.base, prof.rope_type
    s, l0 = prof.factor, prof.original_context
    if kind == "default":
        return [f"θ′<sub>i</sub> = θ<sub>i</sub> — {_w('unscaled', lang)}"]
    if kind == "linear":
        return [f"θ′<sub>i</sub> = θ<sub>i</sub> / s, s = {num(s)} — {_w('pi', lang)}"]
    if kind == "proportional":
        n, hd = prof.rotated_pairs, prof.head_dim
        frac = num(state.partial_rotary_factor)
        return [f"θ′<sub>i</sub> = θ<sub>i</sub> / s (i &lt; {n} = ⌊{frac} · {hd} / 2⌋), "
                f"θ′<sub>i</sub> = 0 (i ≥ {n}: {_w('not rotated', lang)}), s = {num(s)}"]
    if kind == "dynamic":
        scale = dynamic_scale(scaling, state.seq_len, state.max_position_embeddings)
        length = max(state.seq_len or l0, l0)
        new_base = base * scale ** (dim / (dim - 2))
        return [f"θ′<sub>i</sub> = b′<sup>−2i/{dim}</sup>, b′ = b · (s·L/L<sub>0</sub> − (s − 1))"
                f"<sup>{dim}/{dim - 2}</sup>, s = {num(scaling.factor)}",
                f"L<sub>0</sub> = {l0}, L = max(seq_len, L<sub>0</sub>) = {length}: b′ = {num(base)} · "
                f"{num(scale, 6)}<sup>{dim}/{dim - 2}</sup> = <b>{num(new_base, 6)}</b>"]
    if kind == "yarn":
        return _yarn(scaling, prof, dim, base, lang)
    if kind == "llama3":
        near, far = prof.band_wavelengths
        lf, hf = scaling.low_freq_factor, scaling.high_freq_factor
        return [f"θ′<sub>i</sub> = θ<sub>i</sub> (λ<sub>i</sub> &lt; L<sub>0</sub>/{num(hf)} = {num(near, 6)}), "
                f"θ<sub>i</sub> / s (λ<sub>i</sub> &gt; L<sub>0</sub>/{num(lf)} = {num(far, 6)}), "
                f"(1 − σ<sub>i</sub>) θ<sub>i</sub> / s + σ<sub>i</sub> θ<sub>i</sub>",
                f"σ<sub>i</sub> = (L<sub>0</sub>/λ<sub>i</sub> − {num(lf)}) / ({num(hf)} − {num(lf)}), "
                f"λ<sub>i</sub> = 2π/θ<sub>i</sub>, s = {num(s)}, L<sub>0</sub> = {l0}"]
    # longrope
    long = state.seq_len is not None and state.seq_len > scaling.original_max_position_embeddings
    f = scaling.long_factor if long else scaling.short_factor
    which = (f"long_factor (seq_len {state.seq_len} &gt; L<sub>0</sub>)" if long
             else f"short_factor (seq_len {state.seq_len if state.seq_len else '—'} ≤ L<sub>0</sub>)")
    att = (f"a = {num(prof.attention_factor, 6)} ({_w('given', lang)})" if scaling.attention_factor is not None
           else f"a = √(1 + ln s / ln L<sub>0</sub>) = √(1 + ln {num(s)} / ln {l0}) = "
                f"{num(prof.attention_factor, 6)}"
           if s > 1 else f"a = {num(prof.attention_factor, 6)}")
    return [f"θ′<sub>i</sub> = θ<sub>i</sub> / f<sub>i</sub>, f = {which}: "
            f"f<sub>0</sub> … f<sub>{len(f) - 1}</sub> = {num(f[0], 4)} … {num(f[-1], 4)}",
            f"s = {num(s)}, L<sub>0</sub> = {l0}; {att}"]


def scaling_lines(params, lang: str, state) -> list[str]:
    """The scaling page's lines for the RoPE view's state (a RopeState with page "scaling")."""
    hd, base = state.head_dim, state.base
    r = scaled_view(params.max_len, hd, base, state.pairing, state.scaling(), state.seq_len,
                    state.max_position_embeddings)
    prof = r.profile
    dim = prof.rotary_dim
    top = "dim" if prof.rope_type == "proportional" else "rotary_dim"
    first = (f"θ<sub>i</sub> = {num(base)}<sup>−2i/{dim}</sup>, i = 0 … {dim // 2 - 1}; head_dim = {hd}, "
             f"{top} = {dim}")
    if dim < hd:
        first += "; " + fill(_w("unturned", lang), dim, hd - 1)
    out = [first] + _type_lines(state, prof, dim, lang) + [_pair(prof, lang)]
    counts = ", ".join(f"{_w(name, lang)} {c}" for name, c in prof.counts().items() if c)
    tail = counts
    if prof.original_context is not None:
        context = (f"{prof.original_context}" if prof.extended_context in (None, prof.original_context)
                   else f"{prof.original_context} → {prof.extended_context}")
        tail = f"{_w('context', lang)} {context}; {counts}"
    if not math.isclose(prof.attention_factor, 1.0):
        tail += "; " + fill(_w("scores", lang), num(prof.attention_factor ** 2, 5))
    return out + [tail]
