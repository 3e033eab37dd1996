"""The tokens view's parts for an opened model: the sum page's panels, the source entry, the note on X.

Strings are in the "TokensView" translation context, like the rest of the view.
"""

from __future__ import annotations

import html

import numpy as np
from PySide6.QtCore import QCoreApplication

from explorer.backend.models.family_tables import SINUSOID_FAMILIES
from explorer.ui.views.ranges import symmetric_levels
from explorer.translations import fill

OWN_TOKENIZER = "own"      # the tokenizer box's last entry: an opened model's own tokenizer


def draw_sum(row, r, labels, n: int, scaled: np.ndarray, levels) -> None:
    """E[ids] (x the model's scale), what the model adds for position, and X as layer 0 gets it."""
    e_title = (QCoreApplication.translate("TokensView", "E[ids] (not scaled)") if r.scale == 1.0 else
               fill(QCoreApplication.translate("TokensView", "E[ids] × embedding_multiplier %1"), f"{r.scale:.4g}")
               if r.by_multiplier else
               fill(QCoreApplication.translate("TokensView", "E[ids] × √d = %1"), f"{r.scale:.4g}"))
    if r.position == "rope":
        p_title = QCoreApplication.translate("TokensView", "nothing added (RoPE)")
    elif r.position == "alibi":
        p_title = QCoreApplication.translate("TokensView", "nothing added (ALiBi)")
    elif r.position == "relative":
        p_title = QCoreApplication.translate("TokensView", "nothing added (T5: a relative bias in attention)")
    elif r.family == "bert" and r.padding_idx is not None:     # RoBERTa's rows from pad_token_id + 1
        p_title = fill(QCoreApplication.translate("TokensView", "positions from row %1 + token type"),
                       str(r.padding_idx + 1))
    elif r.family == "bert":
        p_title = QCoreApplication.translate("TokensView", "learned position + token type")
    elif r.family in ("opt", "bart"):                           # (BART's table from row 2: models.bart)
        p_title = fill(QCoreApplication.translate("TokensView", "positions[2 … %1] (offset 2)"), str(n + 1))
    elif r.family == "xglm":                                   # computed from config.json (models.xglm)
        p_title = fill(QCoreApplication.translate("TokensView", "sinusoidal PE[2 … %1] (t2t, from config)"), str(n + 1))
    elif r.family == "m2m_100":                        # from row pad_token_id + 1, a pad token row pad_token_id
        p_title = fill(QCoreApplication.translate("TokensView", "sinusoidal PE from row %1 (t2t, from config)"),
                       str(r.padding_idx + 1))
    else:
        p_title = fill(QCoreApplication.translate("TokensView", "learned positions[0 … %1]"), str(max(n - 1, 0)))
    x_title = (QCoreApplication.translate("TokensView", "X = LayerNorm(sum)") if r.family in ("bert", "distilbert",
                                                                                                "bart")
               else QCoreApplication.translate("TokensView", "X = LayerNorm(E)") if r.family == "bloom"
               else QCoreApplication.translate("TokensView", "X into layer 0"))
    pe_levels = symmetric_levels(r.pe_rows) if np.any(r.pe_rows) else (-1.0, 1.0)   # the middle: own scale
    if r.position == "learned":
        p_title += fill(QCoreApplication.translate("TokensView", ": own scale ±%1"), f"{pe_levels[1]:g}")
    row.set_titles((e_title, p_title, x_title))
    row.set_bar_label(shared_bar_label(r.scale != 1.0, f"{r.scale:.4g}" if r.by_multiplier else "√d"))
    levels = symmetric_levels(np.concatenate([scaled.ravel(), r.x.ravel()]))       # E and X share the bar
    positions = [str(i) for i in (r.position_ids if r.padding_idx is not None else range(n))]   # RoBERTa: rows
    for i, (data, lv) in enumerate(((scaled, levels), (r.pe_rows, pe_levels), (r.x, levels))):
        row.show(i, data, lv, y_ticks=positions if i == 1 else labels)
    row.say(1, nothing_added(r))
    row.align_axes()


def nothing_added(r) -> str:
    """What a model that adds nothing to E for position does instead, for the sum row's middle panel; ""
    where it adds a row."""
    if r.position == "rope":
        return QCoreApplication.translate("TokensView", "Nothing is added to E: RoPE rotates q and k inside "
                                          "attention.")
    if r.position == "alibi":
        return QCoreApplication.translate("TokensView", "Nothing is added to E: ALiBi lowers each attention "
                                          "score by the tokens' distance.")
    if r.position == "relative":
        return QCoreApplication.translate("TokensView", "Nothing is added to E: T5 adds a learned bias per "
                                          "distance to the attention scores.")
    return ""


def shared_bar_label(scaled: bool, factor: str = "√d") -> str:
    """The label of the sum row's right-hand bar: it colours E[ids] (x √d, or x Granite's multiplier,
    `factor`) and X, not PE."""
    return fill(QCoreApplication.translate("TokensView", "%1 and X"), f"E·{factor}" if scaled else "E")


def set_model_item(box, p) -> None:
    """The source box's third entry: the opened model's name, enabled only when one is open."""
    from explorer.compute.models import display_name

    spec = p.model if p is not None else ""
    box.setItemText(2, fill(QCoreApplication.translate("TokensView", "opened model: %1"), display_name(spec))
                    if spec else QCoreApplication.translate("TokensView", "a model (File → Open model…)"))
    item = box.model().item(2)
    item.setEnabled(bool(spec))
    item.setToolTip("" if spec else QCoreApplication.translate("TokensView", "Open a model first: File → Open model…"))


def header_text(r) -> str:
    """The view's first line (rich text): the paper's X = E[ids]·√d_model + PE, or, for an opened model or
    MiniLM, the X of that table as the formula panel writes it (formulas_tokens.x_line)."""
    from explorer.compute.formulas_tokens import x_line

    if r is None or r.error or r.source == "untrained":
        return html.escape(QCoreApplication.translate(
            "TokensView", "Text → tokens → token IDs → rows of the embedding table E → X = E[ids]·√d_model + PE, "
            "the first layer's input. Looking a row up is the same as multiplying a one-hot matrix by E."), quote=False)
    return fill(html.escape(QCoreApplication.translate(
        "TokensView", "Text → tokens → token IDs → rows of the embedding table E → %1, the first layer's input "
        "(%2's own). Looking a row up is the same as multiplying a one-hot matrix by E."), quote=False), x_line(r),
        html.escape(r.model_name if r.source == "model" else "all-MiniLM-L6-v2", quote=False))


def model_text(r) -> str:
    """What X is for an opened model (shown above the chips, not as a warning); "" otherwise."""
    if r.source != "model" or r.error:
        return ""
    text = fill(QCoreApplication.translate(
        "TokensView", "%1's own tokenizer and rows; X is exactly what its first layer receives."), r.model_name)
    if r.position == "rope":
        text += " " + fill(QCoreApplication.translate(
            "TokensView", "%1 adds nothing for position at the input: position enters inside attention, "
            "where RoPE rotates q and k (see the “Real RoPE” tab)."), r.model_name)
    elif r.family == "xglm":
        text += " " + fill(QCoreApplication.translate(
            "TokensView", "%1's positions are the sinusoidal table itself, not a trained one: fairseq's [sin | cos] "
            "halves (the “t2t” layout), ω_i = 10000^(−i/(d/2 − 1)), computed from config.json (the checkpoint does "
            "not store it); position p reads row p + 2, and E is scaled by √d_model (scale_embedding): X = "
            "E·√d + PE, as in the paper."), r.model_name)
    elif r.family == "m2m_100":                   # its encoder (models.m2m100)
        text += " " + fill(QCoreApplication.translate(
            "TokensView", "%1's encoder is shown (the decoder is not read). Its positions are the sinusoidal table "
            "itself, not a trained one: fairseq's [sin | cos] halves (the “t2t” layout), computed from config.json "
            "(the checkpoint does not store it); the text reads rows from %2 (pad_token_id + 1) on, a padding token "
            "row %3 (all zeros) without moving the tokens after it on, as RoBERTa's; E is scaled by √d_model: X = "
            "E·√d + PE."), r.model_name, str(r.padding_idx + 1), str(r.padding_idx))
    elif r.family == "bart":                      # its encoder (models.bart)
        text += " " + fill(QCoreApplication.translate(
            "TokensView", "%1's encoder is shown (the decoder is not read). Its positions are a trained table read "
            "from row 2: position p reads row p + 2 (an offset of 2, as OPT's), pad tokens included. X is the "
            "LayerNorm of the sum (layernorm_embedding): X = LayerNorm(%2 + P[p + 2])."), r.model_name,
            f"E·{r.scale:.4g}" if r.scale != 1.0 else "E")
    elif r.padding_idx is not None:
        text += " " + fill(QCoreApplication.translate(
            "TokensView", "Its positions start at row %1 of the table (pad_token_id + 1), not 0, and a padding "
            "token reads row %2 without moving the tokens after it on: the middle panel names the rows read."),
            str(r.padding_idx + 1), str(r.padding_idx))
    elif r.position == "alibi" and r.family == "bloom":
        text += " " + fill(QCoreApplication.translate(
            "TokensView", "%1 adds nothing for position at the input (X is the LayerNorm of E): position "
            "enters inside attention, where ALiBi adds a penalty growing with distance to each head's scores "
            "(see the “Real RoPE” and “ALiBi” tabs)."), r.model_name)
    elif r.position == "relative":                # T5: X is E itself, its encoder's input
        text += " " + fill(QCoreApplication.translate(
            "TokensView", "%1 (its encoder) adds nothing for position at the input (X is E itself, not scaled): "
            "position enters inside attention, where each head adds a learned bias for the bucket of n − m (key "
            "minus query) to its scores (see the “Real RoPE” and “ALiBi” tabs). No table limits the text's length."), r.model_name)
    elif r.position == "alibi":                   # MPT, Falcon: X is E itself
        text += " " + fill(QCoreApplication.translate(
            "TokensView", "%1 adds nothing for position at the input (X is E itself): position enters inside "
            "attention, where ALiBi adds a penalty growing with distance to each head's scores (see the “Real "
            "RoPE” and “ALiBi” tabs)."), r.model_name)
    return text


def show_what_was_used(tokenizer_box, scale_box, r) -> None:
    """MiniLM and an opened model bring their own tokenizer and scaling: the (disabled) boxes show
    those, not the untrained table's settings (cl100k and a ticked × √d_model stood over a model
    that cuts its own tokens and does not scale)."""
    if r.source == "untrained":
        return
    own = tokenizer_box.findData(OWN_TOKENIZER)
    tokenizer_box.setItemText(own, fill(QCoreApplication.translate("TokensView", "%1 (its own)"), r.tokenizer)
                              if r.source == "model" else "")
    for box in (tokenizer_box, scale_box):
        box.blockSignals(True)
    tokenizer_box.setCurrentIndex(own if r.source == "model" else max(0, tokenizer_box.findData(r.tokenizer)))
    scale_box.setChecked(r.scale != 1.0 and not r.by_multiplier)      # (Granite's multiplier is not √d)
    for box in (tokenizer_box, scale_box):
        box.blockSignals(False)


def sum_page_name(r) -> str:
    """The sum page's tab: the paper's X = E·√d + PE, or what a trained table's X is: E plus its
    learned positions (MiniLM, GPT-2, BERT), or E alone for a RoPE model (√d: Gemma's scale; Granite's
    embedding_multiplier as a number)."""
    if r is None or r.error or r.source == "untrained":
        return QCoreApplication.translate("TokensView", "X = E·√d + PE")
    if r.source == "model" and r.position == "rope" and r.by_multiplier:
        return fill(QCoreApplication.translate("TokensView", "X = E·%1 (RoPE adds nothing here)"), f"{r.scale:.4g}")
    if r.source == "model" and r.position == "alibi":
        return (QCoreApplication.translate("TokensView", "X = LayerNorm(E) (ALiBi adds nothing here)")
                if r.family == "bloom" else QCoreApplication.translate("TokensView", "X = E (ALiBi adds nothing here)"))
    if r.source == "model" and r.position == "relative":
        return QCoreApplication.translate("TokensView", "X = E (T5's relative bias adds nothing here)")
    if r.source == "model" and r.position == "rope":
        return (QCoreApplication.translate("TokensView", "X = E·√d (RoPE adds nothing here)") if r.scale != 1.0
                else QCoreApplication.translate("TokensView", "X = E (RoPE adds nothing here)"))
    if r.source == "model" and r.family == "bart":                      # BartEncoder's layernorm_embedding
        return (QCoreApplication.translate("TokensView", "X = LayerNorm(E·√d + positions)") if r.scale != 1.0
                else QCoreApplication.translate("TokensView", "X = LayerNorm(E + positions)"))
    if r.source == "model" and r.family in ("bert", "distilbert"):      # the panel: X = LayerNorm(sum)
        return (QCoreApplication.translate("TokensView", "X = LayerNorm(E + positions + type)") if r.family == "bert"
                else QCoreApplication.translate("TokensView", "X = LayerNorm(E + positions)"))
    if r.source == "model" and r.family in SINUSOID_FAMILIES:   # fairseq's sinusoidal table, from config
        return (QCoreApplication.translate("TokensView", "X = E·√d + sinusoidal PE") if r.scale != 1.0
                else QCoreApplication.translate("TokensView", "X = E + sinusoidal PE"))
    return QCoreApplication.translate("TokensView", "X = E + learned positions")


def adds_nothing(r) -> bool:
    """An opened model that adds no position to X (RoPE, ALiBi, T5's relative bias): the gauge's angle is 0."""
    return r is not None and not r.error and r.source == "model" and r.position in ("rope", "alibi", "relative")


def gauge_page_name(r) -> str:
    """The gauge page's tab: "why √d_model" where X = E·√d + PE (the untrained table, MiniLM beside it, XGLM's and
    M2M100's sinusoids); an opened model that adds nothing, or adds its positions to E not scaled (GPT-2, BERT),
    uses no √d_model to balance the two, and its tab says what it does instead."""
    if adds_nothing(r):
        return QCoreApplication.translate("TokensView", "Scale gauge: no position added to X")
    if r is not None and not r.error and r.source == "model" and r.scale == 1.0:
        return QCoreApplication.translate("TokensView", "Scale gauge: E and position, not scaled")
    return QCoreApplication.translate("TokensView", "Scale gauge: why √d_model")


def angle_note(r) -> str:
    """The line on the gauge's angle plot in place of its empty 0-90° grid for a model that adds nothing to X, in
    short lines (split at "\\n": the plot is half the view wide, and F11 draws it 1.5x); "" otherwise."""
    if not adds_nothing(r):
        return ""
    if r.position == "relative":                      # T5: models.t5_bias, the Real RoPE view's relative bias
        return QCoreApplication.translate(
            "GaugePanel", "T5 adds no position to X:\nthe angle is 0 for every token;\nposition enters as a bias\n"
            "on the attention logits (Real RoPE tab)")
    if r.position == "alibi":
        return QCoreApplication.translate(
            "GaugePanel", "An ALiBi model adds no position to X:\nthe angle is 0 for every token;\nposition enters as "
            "a distance penalty\non the attention logits\n(Real RoPE and ALiBi tabs)")
    return QCoreApplication.translate(
        "GaugePanel", "A RoPE model adds no position to X:\nthe angle is 0 for every token;\nposition enters by "
        "rotating q and k\nin attention (Real RoPE tab)")


def gauge_note(r) -> str:
    """The note under the gauge: the paper's √d reasoning, or what an opened model does instead."""
    model = r is not None and r.source == "model"
    if model and r.position == "rope":
        return QCoreApplication.translate(
            "GaugePanel", "A RoPE model adds nothing to E at the input, so X = E (times the model's own scale, if "
            "any) and the angle is 0°: position acts inside attention, where q and k are rotated (the Real RoPE tab).")
    if model and r.position == "relative":                                                          # T5
        return QCoreApplication.translate(
            "GaugePanel", "A T5 model adds nothing to E at the input, so X = E and position turns nothing here: "
            "0°. Position acts inside attention, where each head adds a learned bias for the bucket "
            "of n − m (key minus query) to its scores (the Real RoPE and ALiBi tabs).")
    if model and r.position == "alibi" and r.family != "bloom":                                     # MPT, Falcon
        return QCoreApplication.translate(
            "GaugePanel", "An ALiBi model adds nothing to E at the input, so X = E and position turns nothing "
            "here: 0°. Position acts inside attention, where each head adds a penalty growing with "
            "distance to its scores (the Real RoPE and ALiBi tabs).")
    if model and r.position == "alibi":
        return QCoreApplication.translate(
            "GaugePanel", "An ALiBi model adds nothing to E at the input, so position turns nothing here: 0°. "
            "(X is the LayerNorm of E, which centres and rescales each row; the gauge measures only "
            "what position adds.) Position acts inside attention, where each head adds a penalty "
            "growing with distance to its scores (the Real RoPE and ALiBi tabs).")
    if model and r.family in SINUSOID_FAMILIES:   # the paper's recipe in a real model: E x √d + sinusoids
        return fill(QCoreApplication.translate(
            "GaugePanel", "%1 does what the paper does: E times √d_model plus a sinusoidal row (fairseq's, of "
            "length √(d/2)). The bars compare the two and how far the position turns X away from E."), r.model_name)
    if model and r.family == "bart":             # BART, mBART: trained rows, E x √d when scale_embedding
        return fill(QCoreApplication.translate(
            "GaugePanel", "%1 adds its trained position row to E (E times √d_model where config.json sets "
            "scale_embedding, as mBART does), then a LayerNorm (layernorm_embedding): the model learned its tables at "
            "the sizes it uses. The bars compare the two rows and how far the position turns X away from E."),
            r.model_name)
    if model:                                    # GPT-2, BERT, OPT, ...: trained rows, nothing scaled
        return fill(QCoreApplication.translate(
            "GaugePanel", "%1 adds its trained position row to E, not scaled (BERT-style models add a token-type "
            "row too, then a LayerNorm): the model learned both tables at the sizes it uses, so the paper's √d_model "
            "question does not arise. The bars compare the two rows and how far the position turns X away from E."),
            r.model_name)
    return QCoreApplication.translate(
        "GaugePanel", "A sinusoidal PE row has length √(d/2). nn.Embedding starts at N(0, 1), so |E| ≈ √d already "
        "and ×√d makes PE a small nudge; with small weights (about 1/√d each, e.g. Xavier init) "
        "×√d brings |E| up to the size of PE. Trained MiniLM rows have |E| ≈ 1 and no scaling.")
