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


@pytest.mark.parametrize("label", ["position", "position p", "slope m_h", "frequency pair i"])
def test_a_word_longer_than_its_axis_is_drawn_smaller_never_broken(qtbot, label):
    """In a 1280 x 520 window at 1.5x Learned's "position" read "posi" over "tion": a word longer than its axis
    now stays whole and the label is drawn smaller, centred on the axis; at full size again where it fits."""
    probe = axis_of(qtbot, max(label.split(), key=len), 1000)
    word = probe.label.boundingRect().width()
    axis = axis_of(qtbot, label, 0.7 * word)
    got = lines_of(axis)
    assert " ".join(got) == label and all(set(line.split()) <= set(label.split()) for line in got), got  # whole words
    scale = axis.label.scale()
    assert 0.5 <= scale < 1 and axis.label.boundingRect().width() * scale <= 0.7 * word + 1
    axis.resizeEvent()
    drawn = axis.label.mapRectToParent(axis.label.boundingRect())
    assert drawn.top() >= -1 and drawn.bottom() <= axis.size().height() + 1                 # inside the axis
    assert abs(drawn.center().y() - axis.size().height() / 2) <= 1.5                      # and centred on it
    axis.resize(60, 1000)
    fit_label(axis)
    assert axis.label.scale() == 1.0 and lines_of(axis) == [label]


def lines(text: str, width: float) -> list[str]:
    """The lines Qt lays `text` out in at `width` px (QTextLayout: the line breaking a QLabel uses)."""
    from PySide6.QtGui import QFont, QTextLayout

    layout, out = QTextLayout(text, QFont()), []
    layout.beginLayout()
    while (line := layout.createLine()).isValid():
        line.setLineWidth(width)
        out.append(text[line.textStart():line.textStart() + line.textLength()])
    layout.endLayout()
    return out


def test_a_bar_opens_no_line_break():
    """"|value|" stays one unit in a wrapped text (keep_together): Qt's line breaking allows a break after a "|"
    (Unicode's class BA), and the Learned note read "… of |" over "value| (…)" at some widths."""
    from explorer.ui.views.labels import keep_together

    text = "Learned table colours span ±1.42, the 99.5th percentile of |value| (the largest reaches 1.69)."
    opened = lambda t, w: any(line.rstrip().endswith("|") and not line.rstrip().endswith("value|")
                              for line in lines(t, w))
    assert any(opened(text, w) for w in range(40, 600))                        # (Qt does break there)
    assert not any(opened(keep_together(text), w) for w in range(40, 600))
    assert keep_together("<b>a/b</b> <br/>") == "<b>a/\u2060b</b> <br/>"      # a tag's "/" left alone


def test_a_long_readout_in_a_short_window_keeps_the_views_text_size(qtbot):
    """A readout is 1.3x bold in presentation mode; in a short window (1280 x 520) a long one took three such lines
    under the Precision plot. There it is drawn at the view's text size (still bold); in a tall window, or when it
    fits on one line, at its own."""
    from PySide6.QtGui import QFont
    from PySide6.QtWidgets import QVBoxLayout, QWidget

    from explorer.ui.views.labels import SHORT_WINDOW, Readout

    view = QWidget()
    qtbot.addWidget(view)
    view.setFont(QFont(view.font().family(), 12))
    readout = Readout()
    QVBoxLayout(view).addWidget(readout)
    big = QFont(view.font())
    big.setPointSizeF(12 * 1.3)
    big.setBold(True)
    readout.setFont(big)
    view.resize(600, SHORT_WINDOW - 100)
    view.show()
    readout.setText("first position whose neighbour rounds to the same encoding: " * 3)
    qtbot.waitUntil(lambda: readout.label.font().pointSizeF() == 12)
    assert readout.label.font().bold()
    readout.setText("p = 3")                                                       # one line: its own size
    assert readout.label.font().pointSizeF() == pytest.approx(15.6)
    view.resize(600, SHORT_WINDOW + 100)
    readout.setText("first position whose neighbour rounds to the same encoding: " * 3)
    assert readout.label.font().pointSizeF() == pytest.approx(15.6)


def test_a_difference_of_two_terms_is_never_broken_across_lines(qtbot):
    """"j − i" stays on one line (keep_together: no-break spaces around a minus between two terms): the Chinese
    formula panel showed "j" over "− i" at some widths; the formula dock keeps it too."""
    from explorer.ui.views.labels import keep_together

    text = "偏置 b_h 按 j − i 所在的桶取值（键减查询），每个头各有一张表，最远的距离共用最后一个桶"
    split = lambda t, w: any(line.rstrip().endswith("j") or line.lstrip().startswith("−") for line in lines(t, w))
    assert any(split(text, w) for w in range(40, 600))                          # (Qt does break there)
    assert not any(split(keep_together(text), w) for w in range(40, 600))
    assert keep_together("a  − b, −3, x −y") == "a  − b, −3, x −y"            # only " − " between two terms


def test_the_formula_dock_keeps_bars_and_differences_together(qtbot, settings):
    from explorer.ui.formula_panel import FormulaPanel
    from explorer.ui.main_window import MainWindow

    window = MainWindow(settings=settings)
    qtbot.addWidget(window)
    panel = window.findChild(FormulaPanel)
    panel._show_texts(("pos = 0: |PE(0)| = 1, bucket(j − i)", "# code"))
    text = panel.formula.document().toRawText()           # (toPlainText turns a no-break space into a space)
    assert "|\u2060PE(0)|" in text and "j\u00a0−\u00a0i" in text
