"""The tokens view's lookup and sum pages drawn from a result (an opened model's sum: token_model.draw_sum).

Strings are in the "TokensView" translation context, like the rest of the view.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QCoreApplication

from explorer.translations import fill
from explorer.ui.views import token_model
from explorer.ui.views.ranges import symmetric_levels


def draw_lookup(row, result, labels, n: int, d: int) -> None:
    """one-hot × E rows = E[ids]: the sentence's ids named, their unused neighbours left unlabelled."""
    used = result.column_used                                              # (k,)
    # the sentence's ids are named; their unused neighbours (context) are left unlabelled, so a
    # thinned axis never names a neighbour under the sentence's column
    ids = [str(int(c)) if u else "" for c, u in zip(result.columns, used)]
    title = (fill(QCoreApplication.translate(
                 "TokensView", "one-hot (%1 × %2 ids:<br>the sentence's %3 and their neighbours)"), str(n),
                 str(len(ids)), str(int(used.sum()))) if not used.all() else
             fill(QCoreApplication.translate("TokensView", "one-hot (%1 × %2 used ids)"), str(n), str(len(ids))))
    row.set_titles((title,
                    fill(QCoreApplication.translate("TokensView", "E rows of those ids (%1 × %2)"), str(len(ids)),
                         str(d)),
                    QCoreApplication.translate("TokensView", "E[ids]: the sentence's rows")))
    e_levels = symmetric_levels(result.table_rows)
    row.show(0, result.one_hot, (0.0, 1.0), x_ticks=ids, y_ticks=labels, binary=True)
    row.show(1, result.table_rows, e_levels, y_ticks=ids)
    row.show(2, result.token_rows, e_levels, y_ticks=labels)
    row.align_axes()


def draw_sum(row, result, labels, n: int, d: int) -> None:
    """E[ids] (× √d), PE (or MiniLM's learned positions) on its own scale, and X; a model's: token_model."""
    scaled = result.scaled_rows                                            # (n, d)
    levels = symmetric_levels(np.concatenate([scaled.ravel(), result.pe_rows.ravel(), result.x.ravel()]))
    if result.source == "model":
        token_model.draw_sum(row, result, labels, n, scaled, levels)
        return
    pe_levels = symmetric_levels(result.pe_rows)      # its own scale: ±1 beside ±50 is one pale block
    trained = result.source == "minilm"
    e_title = (QCoreApplication.translate("TokensView", "word embedding E[ids]") if trained else
               fill(QCoreApplication.translate("TokensView", "E[ids] × √%1 = %2"), str(d), f"{result.scale:.1f}")
               if result.scale != 1.0 else QCoreApplication.translate("TokensView", "E[ids] (not scaled)"))
    row.set_titles((e_title,
                    (QCoreApplication.translate("TokensView", "learned position + token type") if trained
                     else fill(QCoreApplication.translate("TokensView", "PE[0 … %1]"), str(max(n - 1, 0))))
                    + fill(QCoreApplication.translate("TokensView", ": own scale ±%1"), f"{pe_levels[1]:g}"),
                    QCoreApplication.translate("TokensView", "X (LayerNorm follows)") if trained
                    else QCoreApplication.translate("TokensView", "X, the input")))
    row.set_bar_label(token_model.shared_bar_label(result.scale != 1.0 and not trained))
    positions = [str(i) for i in range(n)]
    for i, data in enumerate((scaled, result.pe_rows, result.x)):
        row.show(i, data, pe_levels if i == 1 else levels,
                 y_ticks=positions if i == 1 else labels)
    row.align_axes()
