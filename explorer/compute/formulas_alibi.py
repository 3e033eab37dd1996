"""The formula panel's lines for the ALiBi view (HTML): the score, the slope rule for the head count, the slopes the
view shows (the opened ALiBi model's, named, or the formula's) and the heads drawn. No Qt."""

from __future__ import annotations

from explorer import catalogue
from explorer.backend.alibi import power_of_2_below, slopes
from explorer.compute.alibi import shown_heads
from explorer.compute.formulas import num
from explorer.params import Params
from explorer.translations import QT_TRANSLATE_NOOP, fill, translate

TEXT = {  # key -> English (translations in resources/i18n/zh_CN.json, context "Formulas")
    "alibi": QT_TRANSLATE_NOOP("Formulas", "no position vectors: a fixed penalty per distance"),
    "alibi_low": QT_TRANSLATE_NOOP("Formulas", "the largest power of 2 up to the head count"),
    "alibi_extra": QT_TRANSLATE_NOOP("Formulas",
                                     "the other heads take every other slope of 2L heads: the authors' rule"),
    "heads": QT_TRANSLATE_NOOP("Formulas", "heads"),
    # the view's titles and slope axis count heads from 0, m_h's h counts from 1 (as the Distance line says)
    "drawn": QT_TRANSLATE_NOOP("Formulas", "ALiBi heads %1 (from 0) are h = %2 of %3 (from 1)"),
    "drawn_one": QT_TRANSLATE_NOOP("Formulas", "ALiBi head %1 (from 0) is h = %2 of %3 (from 1)"),
    "alibi_model": QT_TRANSLATE_NOOP("Formulas", "the slopes of %1's %2 heads, as its attention puts them on the "
                                                 "logits"),
    "alibi_falcon": QT_TRANSLATE_NOOP("Formulas", "Falcon: slope and position rounded to bfloat16, ÷ √head_dim"),
    # T5 in this view's spelling (query i, key j), not the Real RoPE view's m, n
    "t5_model": QT_TRANSLATE_NOOP("Formulas", "no slopes: %1's %2 heads each add a learned bias per bucket of j − i, "
                                              "as its encoder's layer 0 makes it for every layer"),
    "t5_buckets": QT_TRANSLATE_NOOP("Formulas", "%1 buckets, half for keys after the query (j > i); %2 distances each "
                                                "way have one of their own, longer ones share log-spaced buckets up "
                                                "to %3, and all from there on the last"),
}


def _a(key: str, lang: str) -> str:
    return translate("Formulas", TEXT[key], lang)


def alibi_lines(params: Params, state, lang: str) -> list[str]:
    """_alibi for the slopes the view shows: the opened ALiBi model's (named, Falcon's rounding said) or the
    formula's for the state's heads."""
    r = catalogue.entry("alibi").run(params, state)
    if r.family == "t5":                         # its learned bias, no slopes (compute.alibi_t5)
        return _t5(params, r, lang)
    if not r.model_name:
        return _alibi(len(r.slopes), lang)
    out = _alibi(len(r.slopes), lang, r.slopes)
    out.insert(2, fill(_a("alibi_model", lang), r.model_name, str(len(r.slopes))))
    if r.family == "falcon":      # before "m = ...", the slopes on the logits
        out.insert(len(out) - 2, "m<sub>h</sub> → bf16(m<sub>h</sub>) / √head_dim, j → bf16(j): "
                   + _a("alibi_falcon", lang))
    return out


def _alibi(heads: int, lang: str, m=None) -> list[str]:
    """ALiBi's score and slopes for `heads` heads, with the authors' rule where heads is no power of 2
    (the largest power of 2 below, L, then every other slope of 2L heads), the slopes themselves (`m`, a model's,
    when given), and the drawn heads' h."""
    m = slopes(heads) if m is None else m                                     # (H,)
    low = power_of_2_below(heads)
    out = ["score<sub>h</sub>(i, j) = q<sub>i</sub> · k<sub>j</sub> − m<sub>h</sub> |i − j|", _a("alibi", lang)]
    if low == heads:
        out.append(f"m<sub>h</sub> = 2<sup>−8h/{heads}</sup>, h = 1 … {heads} ({_a('heads', lang)} = {heads})")
    else:
        out.append(f"m<sub>h</sub> = 2<sup>−8h/{low}</sup>, h = 1 … {low} "
                   f"(L = {low}: {_a('alibi_low', lang)} {heads})")
        out.append(f"m<sub>{low}+j</sub> = 2<sup>−4(2j−1)/{low}</sup>, j = 1 … {heads - low} "
                   f"({_a('alibi_extra', lang)})")
    shown = ", ".join(num(v, 4) for v in m[:4]) + (f", … {num(m[-1], 4)}" if heads > 4 else "")
    out.append(f"m = {shown}")
    drawn = shown_heads(heads)                                                # the heads whose bias is drawn
    out.append(fill(_a("drawn" if len(drawn) > 1 else "drawn_one", lang), ", ".join(map(str, drawn)),
                    ", ".join(str(h + 1) for h in drawn), heads))
    return out


def _t5(params: Params, r, lang: str) -> list[str]:
    """An opened T5's score, what its heads add, and its bucket rule, in the ALiBi view's i, j (transformers'
    T5Attention.compute_bias: relative_position = memory_position - context_position, key j minus query i;
    _relative_position_bucket: num_buckets // 2 a side, max_exact = num_buckets // 4)."""
    from explorer.compute import models

    buckets, distance = models.open_config(params.model).relative_buckets
    return ["score<sub>h</sub>(i, j) = q<sub>i</sub> · k<sub>j</sub> + b<sub>h</sub>(bucket(j − i))",
            fill(_a("t5_model", lang), r.model_name, str(len(r.head_bias))),
            fill(_a("t5_buckets", lang), str(buckets), str(buckets // 4), str(distance))]
