"""Where a vertical axis's label breaks when it is longer than its axis (explorer.ui.views.label_room): at a
formula's own break points, and in lines of like length. Seen in F11 at 1280 x 800: Offset's "PE(p)·PE(p + k)"
wrapped as "PE(p)·PE(p +" over "k)", RoPE's "q(m)·k(n)" as "q(m)·k" over "(n)" and its "交错式通道" as
"交错式通" over "道"."""

import pyqtgraph as pg
import pytest

from explorer.ui.views.label_room import fit_label, formula_breaks

INVISIBLE = str.maketrans({"\u200b": None, "\u00a0": " "})


def lines_of(axis: pg.AxisItem) -> list[str]:
    """The label's lines as drawn, without the zero-width spaces (no-break spaces read as spaces)."""
    out = []
    block = axis.label.document().begin()
    while block.isValid():
        layout, text = block.layout(), block.text()
        for i in range(layout.lineCount()):
            line = layout.lineAt(i)
            out.append(text[line.textStart():line.textStart() + line.textLength()].translate(INVISIBLE).strip())
        block = block.next()
    return out


def axis_of(qtbot, label: str, length: float) -> pg.AxisItem:
    """A left axis `length` px long with `label` (pyqtgraph's own label item), fitted."""
    axis = pg.AxisItem("left")
    axis.setLabel(label)
    axis.resize(60, length)
    fit_label(axis)
    return axis


@pytest.mark.parametrize("label, lines", [
    ("PE(p)·PE(p + k)", ["PE(p)·", "PE(p + k)"]),
    ("q(m)·k(n)", ["q(m)·", "k(n)"]),
    ("交错式通道", ["交错式", "通道"]),
])
def test_a_long_label_breaks_where_a_reader_would(qtbot, label, lines):
    probe = axis_of(qtbot, label, 1000)
    whole = probe.label.boundingRect().width()
    assert lines_of(probe) == [label]                                  # room enough: one line
    axis = axis_of(qtbot, label, 0.8 * whole)                          # a little short: two lines
    assert lines_of(axis) == lines
    assert axis.label.boundingRect().width() <= 0.8 * whole + 1


def test_the_break_points_are_invisible():
    assert formula_breaks("PE(p)·PE(p + k)") == "PE(p)·\u200bPE(p\u00a0+\u00a0k)"
    assert formula_breaks("distance m − n") == "distance m\u00a0−\u00a0n"
    assert formula_breaks("a · b, 1 + 2 = 3") == "a · b, 1\u00a0+\u00a02 = 3"  # a spaced dot is a break already
