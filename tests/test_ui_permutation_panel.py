"""P on screen looks like a permutation in a short window: in 1280 x 520 at 1.5x (F11 without its full
screen) the Layouts view's P had 128 rows in 64 px and RoPE's 64 rows in 30 px; Qt's downscale kept every
other row, and the concat half (or a share of the rotate-half columns) drew empty. Now the compute reduces P
to the panel's pixels by block maxima (compute.permutation): every pixel row and column holds a 1."""

import numpy as np
import pytest
from PySide6.QtGui import QImage

from explorer.backend import layouts
from tests.conftest import window_in

DARK = 128     # P's ones are black, its zeros white (reversed CET-L1)


def drawn_p(view) -> np.ndarray:
    """The screen pixels of P's picture (grey levels, rows x columns) as the canvas draws them, less a
    pixel at each edge (where the axes meet the picture)."""
    canvas = view.perm.plot.getViewWidget()
    rect = canvas.mapFromScene(view.perm.image.sceneBoundingRect()).boundingRect().adjusted(1, 1, -1, -1)
    shot = canvas.viewport().grab().toImage().convertToFormat(QImage.Format.Format_Grayscale8)
    grey = np.array(shot.constBits(), dtype=np.uint8).reshape(shot.height(), shot.bytesPerLine())
    return grey[rect.top():rect.bottom() + 1, rect.left():rect.right() + 1]


def dark_rows_and_columns(pixels: np.ndarray) -> tuple[float, float]:
    """The shares of pixel rows and of pixel columns that hold a dark pixel."""
    dark = pixels < DARK
    return dark.any(axis=1).mean(), dark.any(axis=0).mean()


def settled(win, name: str) -> bool:
    """The view's result was computed for the pixels its P panel has now."""
    win.controller.wait_idle()
    view = win.views[name]
    r = view.result
    *_, rows, cols = view.visible_region()
    return r is not None and r.permutation.shape[0] <= min(rows, cols)


@pytest.mark.parametrize("name", ["conventions", "rope"])
def test_p_keeps_every_row_and_column_in_a_short_window_at_1_5x(qtbot, settings, name):
    with window_in("en", settings) as win:
        win.tabs.setCurrentIndex(list(win.views).index(name))
        qtbot.waitUntil(lambda: settled(win, name), timeout=10_000)
        view = win.views[name]
        d = view.result.permutation.shape[0]
        assert view.result.perm_step == 1 and d == (128 if name == "conventions" else 64)    # fits at 1280 x 800
        assert np.array_equal(view.perm.image.image, layouts.concat_permutation(d))
        assert "channels per cell" not in view.perm.plot.titleLabel.text
        win.dock.hide()                       # as F11 does, in a short window
        win.resize(1280, 520)
        win.presenter.set_scale(1.5)
        qtbot.waitUntil(lambda: settled(win, name) and view.result.perm_step > 1, timeout=10_000)
        qtbot.wait(100)
        r = view.result
        *_, rows, cols = view.visible_region()
        assert rows < d and r.permutation.shape[0] <= rows           # the panel is shorter than P: reduced
        assert view.perm._shown[0] is r.permutation                 # what ImagePlot.show drew last
        assert f"P, {r.perm_step} channels per cell" == view.perm.plot.titleLabel.text
        pixels = drawn_p(view)
        assert pixels.shape[0] >= r.permutation.shape[0] - 2 and pixels.shape[1] >= r.permutation.shape[1] - 2
        assert dark_rows_and_columns(pixels) == (1.0, 1.0)           # no empty pixel row or column
        win.controller.update(base=500.0)                           # a slider step: the same P is drawn
        win.controller.wait_idle()
        if name == "rope":
            win.controller.update_view("rope", base=500.0)
            win.controller.wait_idle()
        assert view.result.permutation is r.permutation
