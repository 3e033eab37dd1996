"""An opened model's RoPE in words, in the UI's language: "yarn ×4 (64 → 256)", "rotary 0.75"."""

from __future__ import annotations

import math

from PySide6.QtCore import QCoreApplication

from explorer.translations import fill


def scaling_words(state) -> str:
    """A view state's rope type, factor and rotary fraction (RopeScalingFields) in the UI's language:
    "llama3 ×8", "proportional，旋转比例 0.25"."""
    return QCoreApplication.translate("RopeWords", ", ").join(
        rope_parts(state.type_label(), state.partial_rotary_factor))


def rope_parts(type_label: str, rotary_fraction: float, longrope_factors: str = "",
               neighbour_pairs: bool = False, yarn_unrounded: bool = False,
               decoupled: tuple[int, ...] = (), mrope: bool = False,
               still_pairs: tuple[int, ...] = ()) -> tuple[str, ...]:
    """The rope type's label when it has one (ModelConfig.rope_type_label), YaRN's unrounded ramp (truncate
    false), LongRoPE's factor set in use ("long" / "short"), the rotary fraction when not the whole head
    turns, MLA's decoupled rope part (first, last channel), GPT-J's pairing of neighbouring channels, and that a Qwen
    VL model's M-RoPE is plain RoPE for text tokens (but for the pairs llama.cpp leaves unturned: still_pairs);
    () for plain whole-head rotate-half RoPE. The caller joins them with its ", "."""
    parts = (type_label,) if type_label else ()
    if yarn_unrounded:
        parts += (QCoreApplication.translate("RopeWords", "not truncated"),)
    if longrope_factors == "long":
        parts += (QCoreApplication.translate("RopeWords", "long factors (text > L0)"),)
    elif longrope_factors == "short":
        parts += (QCoreApplication.translate("RopeWords", "short factors (text ≤ L0)"),)
    if rotary_fraction != 1.0:
        parts += (fill(QCoreApplication.translate("RopeWords", "rotary %1"), f"{rotary_fraction:g}"),)
    if decoupled:
        parts += (fill(QCoreApplication.translate("RopeWords", "RoPE on channels %1–%2 only (MLA; k's shared by all "
                                                               "heads)"), str(decoupled[0]), str(decoupled[1])),)
    if neighbour_pairs:
        parts += (QCoreApplication.translate("RopeWords", "pairs (2i, 2i+1)"),)
    if mrope and still_pairs:
        parts += (fill(QCoreApplication.translate("RopeWords", "M-RoPE: text tokens have t = h = w, but llama.cpp "
                                                               "leaves pairs %1 unturned (4th position 0)"),
                       ", ".join(map(str, still_pairs[:8])) + (", …" if len(still_pairs) > 8 else "")),)
    elif mrope:
        parts += (QCoreApplication.translate("RopeWords", "M-RoPE: text tokens have t = h = w, so plain RoPE"),)
    return parts


def type_word(rope_type: str) -> str:
    """A rope_type as the readout and legend name it: config.json's value ("linear", "yarn", ...), "default" in the
    UI's language (the Chinese readout read "rope 类型 default" beside the box's 默认)."""
    return QCoreApplication.translate("RopeWords", "default") if rope_type == "default" else rope_type


def regime_name(name: str) -> str:
    """A RoPE pair's regime under a scaling type, in the UI's language (the Scaling page's key)."""
    words = {"extrapolated": QCoreApplication.translate("RopeScaling", "extrapolated"),
             "between": QCoreApplication.translate("RopeScaling", "between"),
             "interpolated": QCoreApplication.translate("RopeScaling", "interpolated"),
             "rescaled": QCoreApplication.translate("RopeScaling", "rescaled"),
             "not rotated": QCoreApplication.translate("RopeScaling", "not rotated")}
    return words[name]


def factor_text(in_effect: float, chosen: float | None) -> str:
    """The factor as the readout names it: "4", or "4 (in effect: 13)" where the rope type turns the
    chosen factor into another (dynamic at a longer length), "32 (in effect)" where none was chosen
    (longrope: the ratio of the context lengths). The factor box shows the chosen one."""
    if chosen is None and math.isclose(in_effect, 1.0):      # the default type: nothing to say
        return "1"
    if chosen is None:
        return fill(QCoreApplication.translate("RopeScaling", "%1 (in effect)"), f"{in_effect:.4g}")
    if math.isclose(chosen, in_effect, rel_tol=1e-9):
        return f"{in_effect:.4g}"
    return fill(QCoreApplication.translate("RopeScaling", "%1 (in effect: %2)"), f"{chosen:.4g}",
                f"{in_effect:.4g}")
