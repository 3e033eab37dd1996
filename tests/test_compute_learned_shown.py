"""The Learned view draws its tables as block means at its panels' pixels (compute.screen.block_means):
a nearest-pixel downscale of a 512 x 384 table into a ~330 x 130 panel dropped rows and columns and
aliased the fast channels into false curved bands."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.compute.learned import learned
from explorer.compute.screen import Window, block_means
from explorer.params import Params


def _loop_means(a, rs, cs):
    """Each whole rs x cs block's mean, one block at a time (the independent reference)."""
    rows, cols = a.shape[0] // rs, a.shape[1] // cs
    return np.array([[a[r * rs:(r + 1) * rs, c * cs:(c + 1) * cs].astype(np.float64).mean()
                      for c in range(cols)] for r in range(rows)])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape, px", [((512, 384), (130, 330)), ((1024, 768), (300, 700)),
                                       ((37, 11), (5, 4)), ((512, 512), (512, 512)), ((9, 9), (1, 1)),
                                       ((512, 384), (512, 100)), ((512, 384), (100, 384))])
def test_block_means_are_the_means_of_whole_blocks(shape, px, dtype):
    a = np.random.default_rng(2).standard_normal(shape).astype(dtype)
    shown = block_means(a, *px)
    rs, cs = -(-shape[0] // px[0]), -(-shape[1] // px[1])
    assert shown.data.shape[0] <= px[0] and shown.data.shape[1] <= px[1]
    assert (shown.height, shown.width) == (shape[0] // rs * rs, shape[1] // cs * cs)
    np.testing.assert_allclose(shown.data, _loop_means(a, rs, cs), rtol=0, atol=2e-6)
    assert shown.data.dtype == np.float32 and not shown.data.flags.writeable
    fits = shown.data.shape == shape and dtype == np.float32
    assert np.shares_memory(shown.data, a) == fits                          # a fitting table: no copy
    assert a.flags.writeable                                                 # and the caller's is left as it was


def test_learned_result_draws_at_the_windows_pixels():
    p = Params(base=500.0)
    r = learned(p, Window(0, 1, 0, 1, 130, 330))
    n, d = r.sinusoidal.shape                                          # MiniLM's 512 x 384
    np.testing.assert_allclose(r.shown_sinusoidal.data, _loop_means(r.sinusoidal, 4, 2), atol=2e-6)
    np.testing.assert_allclose(r.shown_sim_sinusoidal.data, _loop_means(r.sim_sinusoidal, 4, 2), atol=2e-6)
    assert (r.shown_sinusoidal.height, r.shown_sinusoidal.width) == (n, d)
    if r.learned is not None:
        np.testing.assert_allclose(r.shown_learned.data, _loop_means(r.learned, 4, 2), atol=2e-6)
        # the trained side is worked out once per panel size, not at every base step
        assert learned(Params(base=501.0), Window(0, 1, 0, 1, 130, 330)).shown_learned is r.shown_learned
    # cached on the pixels alone: the window's extent follows max_len / d_model, not read here
    assert learned(p, Window(0, 4096, 0, 64, 130, 330)) is r
    big = learned(p)                                                   # 800 x 1000: the tables fit
    np.testing.assert_array_equal(big.shown_sinusoidal.data, big.sinusoidal)
    np.testing.assert_array_equal(big.shown_sim_sinusoidal.data, big.sim_sinusoidal)


def test_the_learned_view_draws_no_more_pixels_than_its_panels_and_follows_a_resize(window, qtbot):
    """In the window: each image holds at most its panel's pixels over the whole table, the hover
    readout still reads the exact cosine, and a larger window recomputes the images larger."""
    window.tabs.setCurrentIndex(list(window.views).index("learned"))
    assert window.controller.wait_idle()
    view = window.views["learned"]

    def sizes():
        out = []
        for panel in view.tables + view.sims:
            rect = panel.plot.getViewBox().sceneBoundingRect()
            data = panel.image.image
            assert data.shape[0] <= rect.height() + 1 and data.shape[1] <= rect.width() + 1
            out.append(data.shape)
        return out

    small = sizes()
    r = view.result
    n, d = r.sinusoidal.shape
    assert view.tables[1].image.mapRectToParent(view.tables[1].image.boundingRect()).height() == pytest.approx(
        r.shown_sinusoidal.height)
    assert small[1][0] < n                          # the 512 positions do not fit this panel
    view._show_pair(10, 20)
    assert f"{r.sim_sinusoidal[10, 20]:+.3f}" in view.readout.text()
    window.resize(1900, 1060)
    qtbot.waitUntil(lambda: sizes()[1][0] > small[1][0], timeout=5000)
    assert window.controller.wait_idle()


def test_a_resize_recomputes_the_heatmap_at_its_new_pixels_and_keeps_its_zoom(window, qtbot):
    """F11 or a window resize: the heatmap is computed again for its new size (it stayed at the old
    resolution until the next slider move), and the State keeps 'the whole table' (no zoom)."""
    c = window.controller
    c.update(max_len=4096, d_model=64)
    window.tabs.setCurrentIndex(list(window.views).index("heatmap"))
    assert c.wait_idle()
    rows = window.views["heatmap"].result.image.shape[0]
    assert rows < 4096                              # block means: more positions than pixel rows
    window.resize(1900, 1060)
    qtbot.waitUntil(lambda: window.views["heatmap"].result.image.shape[0] > rows, timeout=5000)
    assert c.state.views["heatmap"].zoom == ()
