"""The words of a diagnosis: one template per mistake id (English and Chinese) and its PyTorch fix.

Templates use str.format fields filled with the evidence measured on the data. `LANGS` are the
languages; the Chinese text keeps every {field} of the English (tests check it).
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from contextvars import ContextVar

from explorer.backend.diagnose.result import Mistake

LANGS = ("en", "zh_CN")

TEMPLATES = {
    "exponent_i": (
        "frequencies fall as base^(-i/d), not base^(-2i/d): they fit base {fitted:g} = sqrt({base:g})",
        "频率按 base^(-i/d) 下降，而不是 base^(-2i/d)：拟合出的 base 是 {fitted:g} = sqrt({base:g})"),
    "exponent_doubled": (
        "frequencies fall as base^(-4i/d): 2i was used where i already steps over even channels; "
        "they fit base {fitted:g} = {base:g}^2",
        "频率按 base^(-4i/d) 下降：i 本身已经按偶数通道步进，又乘了 2；拟合出的 base 是 {fitted:g} = {base:g}^2"),
    "exponent_i_per_channel": (
        "each channel j has its own frequency base^(-j/d): the cosine channel 2i+1 does not share "
        "the frequency of the sine channel 2i (i used where 2i belongs), max error {err:.3g}",
        "每个通道 j 各用自己的频率 base^(-j/d)：余弦通道 2i+1 与正弦通道 2i 频率不同"
        "（该用 2i 的地方用了 i），最大误差 {err:.3g}"),
    "sin_cos_swapped": (
        "sin and cos are swapped: channel {col} starts at {first:.3g}, a cosine where the paper has a sine",
        "sin 与 cos 对调了：通道 {col} 从 {first:.3g} 开始，论文在这里是正弦，你的是余弦"),
    "positions_from_1": (
        "row 0 equals PE({start}): positions start at {start}, not 0",
        "第 0 行等于 PE({start})：位置从 {start} 开始，而不是从 0 开始"),
    # fairseq's sinusoids (t2t) from row 2: XGLM's and M2M100's own tables read row p + 2 for position p
    # (XGLMSinusoidalPositionalEmbedding.offset 2; M2M100's positions from padding_idx + 1 = 2), by design
    "positions_from_2_fairseq": (
        "row 0 equals PE({start}): positions start at {start}, not 0; a fairseq-style model (XGLM, M2M100, NLLB) "
        "reads row p + 2 for position p by design: its own table starts there",
        "第 0 行等于 PE({start})：位置从 {start} 开始，而不是从 0 开始；fairseq 风格的模型（XGLM、M2M100、NLLB）"
        "按设计让位置 p 读第 p + 2 行：它自己的表就从这里开始"),
    "wrong_sign": (
        "the exponent lost its minus sign: frequencies grow as base^(+2i/d) (pair 1 turns {w1:.4g} "
        "rad per position, faster than pair 0's 1 rad)",
        "指数少了负号：频率按 base^(+2i/d) 增长（第 1 对每个位置转 {w1:.4g} 弧度，比第 0 对的 1 弧度还快）"),
    "constant_freq": (
        "every pair turns at the same {w:.4g} rad per position: the exponent is 0 for every pair "
        "(integer division, e.g. arange(0, dim, 2) // dim), so there is no base to read",
        "每一对都以相同的 {w:.4g} 弧度/位置旋转：每一对的指数都是 0（整数除法，例如 arange(0, dim, 2) // dim），"
        "因此读不出 base"),
    "only_sin": (
        "only sines: the cosine channels {where}",
        "只有正弦：余弦通道{where}"),
    "dropout_on": (
        "about {pct:.0f}% zeros and the rest x {gain:.3g}: dropout p = {p:.2g} was on",
        "约 {pct:.0f}% 的值为零，其余乘了 {gain:.3g}：保存时 dropout（p = {p:.2g}）还开着"),
    "wrong_base": (
        "the base is {fitted:g}, not the {expected:g} asked for",
        "base 是 {fitted:g}，不是要求的 {expected:g}"),
    "wrong_pairing": (
        "the cache is laid out as {found}, but {expected} was asked for: {why}",
        "缓存按{found}排列，但要求的是{expected}：{why}"),
    "all_zero": (
        "every value is 0: nothing was written into it (a buffer made with torch.zeros and never "
        "filled, or the wrong tensor saved)",
        "所有值都是 0：里面什么也没写进去（用 torch.zeros 建好却从未填入，或保存错了张量）"),
    "wrong_channels": (
        "a {nearest}, except in {cols} (max error there {err:.3g} > {tol:.3g}; the other channels are "
        "within it){held}",
        "除{cols}外，是一张 {nearest}（这些通道的最大误差 {err:.3g} > {tol:.3g}；其余通道都在容差之内）{held}"),
    "unknown": (
        "matches no known convention or mistake (nearest: {nearest}, max error {err:.3g} > {tol:.3g})",
        "不符合任何已知约定或常见错误（最接近：{nearest}，最大误差 {err:.3g} > {tol:.3g}）"),
    # nothing could be fitted (an inv_freq with a value <= 0, a "cache" whose columns share no frequency):
    # no error to tell (it was "max error inf > ...")
    "unknown_unfit": (
        "matches no known convention or mistake ({why}), and there is no nearest fit to measure against",
        "不符合任何已知约定或常见错误（{why}），也没有可用来比较的最接近拟合"),
    "unknown_far": (
        "matches no known convention or mistake, and read as {orientation} no sinusoidal table comes "
        "close: the nearest fit ({nearest}) has an RMS error of {rms:.3g} against the table's own RMS of "
        "{size:.3g} (max error {err:.3g} > {tol:.3g})",
        "不符合任何已知约定或常见错误；按 {orientation} 读取时，也没有哪张正弦表与它接近：最接近的拟合"
        "（{nearest}）的均方根误差为 {rms:.3g}，而这张表本身的均方根值为 {size:.3g}"
        "（最大误差 {err:.3g} > {tol:.3g}）"),
}
PUBLIC_IDS = {"exponent_i_per_channel": "exponent_i", "unknown_far": "unknown",      # variants of one id
              "unknown_unfit": "unknown", "positions_from_2_fairseq": "positions_from_1"}

# the words that name a fit in "nearest: ..." (diagnose.pe_table._spec_words), (English, Chinese)
SPEC_WORDS = {
    "layout": ("{layout} sin/cos", "{layout} sin/cos"),
    "interleaved": ("interleaved", "交错"), "concat": ("concat", "拼接"), "t2t": ("t2t", "t2t"),
    "base": ("base {base:.6g}", "基数 {base:.6g}"),
    "start": ("positions from {start}", "位置从 {start} 起"),
    "swapped": ("swapped", "sin 与 cos 对调"), "sin_zero": ("sin zero", "只有 sin，其余为 0"),
    "sin_dup": ("sin dup", "sin 重复"),
    "per_channel": ("exponent per channel", "每个通道一个指数"),
    "plus": ("exponent without minus", "指数缺少负号"),
    "sep": (", ", "，"),
    # the nearest fit of a RoPE cache or inv_freq vector that matches nothing (no_shared: why none was fitted)
    "no_shared": ("no two columns share a frequency", "没有哪两列共用同一个频率"),
    "cache": ("{func} cache, base {base:.6g}", "{func} 缓存，基数 {base:.6g}"),
    "inv_freq": ("base {base:.6g}, factor {factor:.6g}", "基数 {base:.6g}，factor {factor:.6g}"),
    "proportional": ("proportional, base {base:.6g}, {turning} of {h} pairs turning",
                     "proportional（p-RoPE），基数 {base:.6g}，{h} 对中有 {turning} 对在旋转"),
    # a RoPE pairing by name (a cache's description, a wrong_pairing's found / expected): English keeps the
    # CLI's value names, Chinese the RoPE page's words
    "pairing_half": ("half", "前后半配对"), "pairing_interleaved": ("interleaved", "交错配对"),
    # why a cache's duplicated columns say its pairing (rope_cache: a wrong_pairing's "why")
    "pairs_half": ("cat(freqs, freqs) (rotate_half pairs i with i + d/2)",
                   "cat(freqs, freqs)（rotate_half 把 i 与 i + d/2 配成一对）"),
    "pairs_interleaved": ("repeat_interleave (pairs 2i, 2i+1)", "repeat_interleave（2i 与 2i+1 配成一对）"),
}


def spec_word(key: str, lang: str = "en", **values) -> str:
    """SPEC_WORDS[key] in `lang`, its values filled in."""
    return SPEC_WORDS[key][1 if lang == "zh_CN" else 0].format(**values)

FIXES = {
    "exponent_i": "div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))",
    "exponent_doubled": "div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))",
    "exponent_i_per_channel": "use one frequency per pair: div_term = torch.exp(torch.arange(0, d_model, 2)"
                              ".float() * (-math.log(10000.0) / d_model)) for both pe[:, 0::2] and pe[:, 1::2]",
    "sin_cos_swapped": "pe[:, 0::2] = torch.sin(position * div_term); pe[:, 1::2] = torch.cos(position * div_term)",
    "positions_from_1": "position = torch.arange(0, max_len).unsqueeze(1).float()",
    "positions_from_2_fairseq": "a model's own table: keep it (position p is row p + 2); a table of your own: "
                                "position = torch.arange(0, max_len).unsqueeze(1).float()",
    "wrong_sign": "div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))",
    "constant_freq": "inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2).float() / head_dim))",
    "only_sin": "pe[:, 1::2] = torch.cos(position * div_term)",
    "dropout_on": "module.eval() before calling it, or save the buffer itself: module.pe.squeeze(0)",
    "wrong_base": "inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2).float() / head_dim)) with the "
                  "model's rope_theta as base",
    "wrong_pairing": "match the cache to the rotation: emb = torch.cat((freqs, freqs), dim=-1) with "
                     "rotate_half, freqs.repeat_interleave(2, dim=-1) with interleaved pairs",
    "unknown": "",
    "unknown_far": "",
    "unknown_unfit": "",
}
# an all-zero table: fill it with what the thing it should have been holds
FIXES["all_zero"] = FIXES["sin_cos_swapped"]
FIXES["wrong_channels"] = FIXES["sin_cos_swapped"]     # every channel from the formula (concat / t2t: CAT_FIX)
CAT_FIX = "pe = torch.cat([torch.sin(position * div_term), torch.cos(position * div_term)], dim=-1)"
FILL_FIXES = {"pe": FIXES["sin_cos_swapped"], "inv_freq": FIXES["constant_freq"],
              "rope_cache": "freqs = torch.outer(positions, inv_freq); emb = torch.cat((freqs, freqs), "
                            "dim=-1); cos, sin = emb.cos(), emb.sin()"}

ONLY_SIN_WHERE = {"zero": ("are all zero (the cos line is missing)", "全为零（漏了 cos 那一行）"),
                  "sin": ("hold sines too (sin written twice)", "也是正弦（sin 写了两遍）")}


MAGNITUDES = ("err", "tol", "rms", "size", "first")   # evidence in the data's units (not ratios,
#                                                      bases or angles)
_UNIT: ContextVar[float] = ContextVar("unit", default=1.0)


@contextmanager
def told_in(unit: float):
    """Within it, mistake() tells every magnitude times `unit`: data with an extreme peak is fitted
    divided by it (explorer.backend.diagnose.diagnose), and its words keep the data's own units."""
    token = _UNIT.set(float(unit))
    try:
        yield
    finally:
        _UNIT.reset(token)


def mistake(mistake_id: str, lang: str = "en", **evidence) -> Mistake:
    """The Mistake for `mistake_id` with its evidence filled in, in language `lang`."""
    unit = _UNIT.get()
    if unit != 1.0:
        evidence = {k: v * unit if k in MAGNITUDES else v for k, v in evidence.items()}
    text = TEMPLATES[mistake_id][LANGS.index(lang) if lang in LANGS else 0]
    public_id = PUBLIC_IDS.get(mistake_id, mistake_id)
    return Mistake(public_id, text.format(**evidence), FIXES[mistake_id])


SLIP_BASES = (10000.0, 500000.0)   # the bases whose square root / square betrays an exponent slip


def base_slip(fitted: float, lang: str = "en") -> tuple[Mistake | None, float]:
    """(mistake, the base meant) when a fitted base is the square root of a usual base (i for 2i:
    exponent_i) or its square (2i for i: exponent_doubled); (None, fitted) otherwise."""
    for base in SLIP_BASES:
        if abs(fitted / math.sqrt(base) - 1) < 5e-3:
            return mistake("exponent_i", lang, fitted=fitted, base=base), base
        if abs(fitted / base ** 2 - 1) < 5e-3:
            return mistake("exponent_doubled", lang, fitted=fitted, base=base), base
    return None, fitted
