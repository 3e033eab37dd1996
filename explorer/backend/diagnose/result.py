"""What a check found: the Diagnosis (match, convention, mistakes, max error) and its tolerance."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

KINDS = ("pe", "rope_cache", "inv_freq")
EPS32 = float(np.finfo(np.float32).eps)
STORAGE_EPS = {"float16": 2.0 ** -10, "bfloat16": 2.0 ** -7, "float32": EPS32,
               "float64": float(np.finfo(np.float64).eps),
               "float8_e4m3fn": 2.0 ** -3, "float8_e5m2": 2.0 ** -2}   # 3 and 2 mantissa bits


@dataclass(frozen=True, slots=True)
class Mistake:
    """One named slip: id (e.g. 'sin_cos_swapped'), the sentence with its evidence, the PyTorch fix."""

    id: str
    message: str
    fix: str = ""


@dataclass(frozen=True)
class Diagnosis:
    """The answer of a check. table/reference/difference are (L, d) float64 in the analysed orientation
    (None for an inv_freq vector: then they are (h,)); reference is the correct convention the data
    matches or should match (for a mistake: the right formula with the fitted base, scale, layout)."""

    kind: str                       # "pe" | "rope_cache" | "inv_freq"
    match: bool                     # True: a known convention within `tolerance`
    convention: dict                # layout/pairing, base, scale, orientation, start, dtype, ...
    mistakes: tuple = ()            # Mistake, ...
    max_error: float = float("nan")  # max |data - best model| (the model of the mistake when one is named)
    tolerance: float = 0.0          # the largest error a match may have (storage dtype and length)
    table: np.ndarray | None = field(default=None, repr=False)
    reference: np.ndarray | None = field(default=None, repr=False)
    lang: str = "en"                # language of summary (the mistakes carry their own words)

    @property
    def difference(self) -> np.ndarray | None:
        """data - correct reference, same shape as table."""
        if self.table is None or self.reference is None:
            return None
        return self.table - self.reference

    @property
    def summary(self) -> str:
        """One line: what the data is, or the mistake found."""
        if self.match:
            return words("ok", self.lang, what=describe(self.kind, self.convention, self.lang),
                         err=self.max_error)
        sep = "；" if self.lang == "zh_CN" else "; "
        return sep.join(m.message for m in self.mistakes) or words("nothing", self.lang)

    @property
    def fix(self) -> str:
        """The one-line PyTorch fix of the first mistake ('' when there is none)."""
        return next((m.fix for m in self.mistakes if m.fix), "")

    def to_json(self) -> dict:
        """The --json object: kind, match, convention, mistakes [{id, message, fix}], max_error."""
        err = self.max_error
        return {"kind": self.kind, "match": bool(self.match), "convention": dict(self.convention),
                "mistakes": [{"id": m.id, "message": m.message, "fix": m.fix} for m in self.mistakes],
                "max_error": float(err) if np.isfinite(err) else None,
                "tolerance": float(self.tolerance), "summary": self.summary}


def tolerance(scale: float, dtype: str, max_angle: float) -> float:
    """Largest |data - reference| a match may have: rounding of the stored values (4 ulp of the
    storage dtype) plus the float32 angle p * w of a table computed in float32 (3 ulp of the largest
    angle |p w| in the table).
    """
    eps = STORAGE_EPS.get(dtype, EPS32)
    return abs(scale) * (4 * eps + 3 * EPS32 * max(1.0, max_angle)) + 1e-12


WORDS = {  # the convention in words; each entry (English, Chinese)
    "pe": ("PE table ({orientation}), {layout}", "PE 表（{orientation}），{layout}"),
    "layout": ("{layout} layout", "{layout} 排列"),
    "interleaved": ("interleaved layout", "交错排列"), "concat": ("concat layout", "拼接排列"),   # the
    #                                              control panel's names; t2t is a name in both
    "rope_cache": ("RoPE {function} cache ({orientation}), {pairing} pairing, head_dim {head_dim}",
                   "RoPE {function} 缓存（{orientation}），{pairing}，head_dim {head_dim}"),
    "inv_freq": ("RoPE inv_freq, head_dim {head_dim}", "RoPE inv_freq，head_dim {head_dim}"),
    "base": ("base {base:g}", "基数 {base:g}"),     # the check view's "基数应为" above it
    "start": ("positions from {start}", "位置从 {start} 开始"),
    "rope_type": ("rope_type {rope_type}", "rope_type {rope_type}"),
    "preset": ("as preset {preset}", "即预设 {preset}"),
    "scale": ("scale {scale:.6g}", "缩放 {scale:.6g}"),
    "dtype": ("stored as {dtype}", "存储为 {dtype}"),
    "ok": ("OK: {what}; max error {err:.3g}", "符合：{what}；最大误差 {err:.3g}"),
    "nothing": ("matches nothing known", "不符合任何已知约定"),
}


# the orientation of a table as diagnose() notes it ("(d, L): transposed", "1x60x32 squeezed to (L, d)"):
# its words, (English, Chinese)
ORIENTATION_WORDS = ((": transposed", "：转置"), (" squeezed to ", " 去掉长度为 1 的维后为 "))


def orientation_words(orientation: str, lang: str = "en") -> str:
    """convention["orientation"] in `lang` (it stays English in the convention, the CLI's --json)."""
    if lang == "zh_CN":
        for english, chinese in ORIENTATION_WORDS:
            orientation = orientation.replace(english, chinese)
    return orientation


def words(key: str, lang: str = "en", **values) -> str:
    """WORDS[key] in `lang` (en or zh_CN) with values filled in."""
    return WORDS[key][1 if lang == "zh_CN" else 0].format(**values)


def describe(kind: str, conv: dict, lang: str = "en") -> str:
    """The convention in words, e.g. 'PE table ((L, d)), interleaved layout, base 10000, positions from 0'."""
    sep = "，" if lang == "zh_CN" else ", "
    values = {k: conv.get(k) for k in ("function", "pairing", "head_dim")}
    if values["pairing"] in ("half", "interleaved"):    # in Chinese the RoPE page's 前后半配对 / 交错配对
        from explorer.backend.diagnose.messages import spec_word      # (messages imports this module)

        values["pairing"] = spec_word("pairing_" + values["pairing"], lang)
    layout = conv.get("layout")
    values["layout"] = words(layout if layout in ("interleaved", "concat") else "layout", lang, layout=layout)
    values["orientation"] = orientation_words(str(conv.get("orientation")), lang)
    parts = [words(kind, lang, **values)]
    parts.append(words("base", lang, base=conv.get("base", float("nan"))))
    if kind == "pe":
        parts.append(words("start", lang, start=conv.get("start")))
    else:
        parts.append(words("rope_type", lang, rope_type=conv.get("rope_type")))
        parts += [f"{k} {_shown(v)}" for k, v in conv.get("rope_params", {}).items()]
        if conv.get("preset"):
            parts.append(words("preset", lang, preset=conv["preset"]))
        if kind == "rope_cache" and conv.get("start"):
            parts.append(words("start", lang, start=conv.get("start")))
    scale = conv.get("scale", 1.0)
    if abs(scale - 1.0) > 1e-6:
        parts.append(words("scale", lang, scale=scale) + (" = sqrt(d_model)" if conv.get("scale_is_sqrt_d") else ""))
    parts.append(words("dtype", lang, dtype=conv.get("dtype")))
    return sep.join(parts)


def _shown(value) -> str:
    return f"{value:g}" if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)


def nice_number(x: float, candidates=(10000.0, 500000.0, 1000000.0, 100000.0, 500.0, 1000.0,
                                       10.0, 100.0, 50000.0, 20000.0, 160000.0)) -> list[float]:
    """x, the known bases near it and x rounded to 1..6 significant digits (for snapping a fit)."""
    out = [c for c in candidates if abs(c / x - 1) < 2e-2] if x > 0 else []
    for digits in range(1, 7):
        out.append(float(f"{x:.{digits}g}"))
    out.append(float(x))
    return list(dict.fromkeys(out))
