"""The Learned view draws its tables as block means at its panels' pixels (compute.screen.block_means):
a nearest-pixel downscale of a 512 x 384 table into a ~330 x 130 panel dropped rows and columns and
aliased the fast channels into false curved bands."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.encodings import sinusoidal_pe
from explorer.compute import learned as learned_module
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
    n, d = r.shape                                                     # MiniLM's 512 x 384
    # the closed form's block means: those of the exact table, and of the float32 one to its rounding
    exact = sinusoidal_pe(n, d, 500.0, "interleaved", "float64")
    np.testing.assert_allclose(r.shown_sinusoidal.data, _loop_means(exact, 4, 2), atol=2e-6)
    np.testing.assert_allclose(r.shown_sinusoidal.data, _loop_means(r.sinusoidal, 4, 2), atol=1e-4)
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


@pytest.mark.parametrize("n, d, layout, px", [(512, 384, "interleaved", (130, 330)),
                                               (2048, 1024, "concat", (130, 330)),
                                               (100, 64, "t2t", (33, 50)), (96, 32, "interleaved", (24, 24)),
                                               (37, 12, "t2t", (5, 4)), (300, 10, "concat", (300, 7))])
def test_the_sinusoidal_cosine_block_means_by_closed_form_are_the_textbook_matrix_means(n, d, layout, px):
    """cosine_block_means (a profile over p - q, gathered) against the means of PE @ PE.T / norms,
    block by block, for unequal steps with and without a common factor."""
    from explorer.backend.similarity import cosine_block_means, similarity_matmul
    from explorer.compute.screen import block_step

    rs, cs = block_step(n, px[0]), block_step(n, px[1])
    got = cosine_block_means(rs, cs, n // rs, n // cs, d, 500.0, layout)
    want = _loop_means(similarity_matmul(n, d, 500.0, layout, "cosine"), rs, cs)
    assert got.dtype == np.float32 and got.shape == want.shape
    np.testing.assert_allclose(got, want, atol=2e-6)


def test_an_unpaired_sine_has_no_closed_form_block_means_and_the_view_takes_the_matrix_means():
    from dataclasses import replace

    from explorer.backend.similarity import cosine_block_means, similarity_matrix
    from explorer.compute.learned import _shown_sim_sinusoidal

    assert cosine_block_means(4, 2, 10, 20, 385, 10000.0, "interleaved") is None
    assert cosine_block_means(4, 2, 10, 20, 1, 10000.0, "interleaved") is None        # no pair at all
    sim = similarity_matrix(50, 7, 700.0, "interleaved", "cosine", np.float32)        # d = 7: odd
    odd = replace(learned(Params(base=700.0)), sinusoidal_of=(50, 7, 700.0, "interleaved"), sim_sinusoidal=sim)
    shown = _shown_sim_sinusoidal(odd, 10, 20)
    np.testing.assert_allclose(shown.data, _loop_means(sim, 5, 3), atol=2e-6)
    assert (shown.height, shown.width) == (50, 48) and not shown.data.flags.writeable


def test_the_learned_view_draws_no_more_pixels_than_its_panels_and_follows_a_resize(window, qtbot):
    """In the window: each image holds at most its panel's pixels over the whole table, the hover
    readout still reads the exact cosine, and a larger window recomputes the images larger."""
    window.tabs.setCurrentIndex(list(window.views).index("learned"))
    assert window.controller.wait_idle()
    view = window.views["learned"]

    def fits() -> bool:
        for panel in view.tables + view.sims:
            rect = panel.plot.getViewBox().sceneBoundingRect()
            data = panel.image.image
            if not (data.shape[0] <= rect.height() + 1 and data.shape[1] <= rect.width() + 1):
                return False
        return True

    def sizes():
        assert fits()
        return [panel.image.image.shape for panel in view.tables + view.sims]

    # the tab's first layout can still move its panels after the first result (seen under load):
    # the view recomputes for the panels' final size
    qtbot.waitUntil(fits, timeout=5000)
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



def opened_as_model(monkeypatch, name: str, table: np.ndarray) -> None:
    """Any Params.model opens as a model `name` whose learned position table is `table` (n, d)."""
    from explorer.compute import models

    monkeypatch.setattr(learned_module, "_model_table",
                        lambda spec, stamp=(): (name, table, table.shape[0], "", "", 0, {}))
    monkeypatch.setattr(models, "normal_spec", lambda spec: spec)
    monkeypatch.setattr(models, "stamp", lambda spec: ())

@pytest.mark.parametrize("layout", ["interleaved", "t2t"])
def test_a_base_step_with_an_opt_sized_table_forms_no_sinusoidal_table(layout, monkeypatch):
    """An opened 2048 x 1024 table (OPT-350m's size): the sinusoidal picture comes by closed form
    (pe_screen) and the PCA's signs by sinusoid_sums, so the step never builds the (n, d) table
    (~3 ms, plus ~1 ms of its product). What it draws is what the table gives."""
    from explorer.compute.pca import pca

    table = (np.random.default_rng(4).standard_normal((2048, 1024)) * 0.1).astype(np.float32)
    opened_as_model(monkeypatch, "opt", table)
    r = learned(Params(base=3000.0, layout=layout, model="opt-sized.gguf"), Window(0, 1, 0, 1, 250, 480))
    assert "sinusoidal" not in vars(r)                                  # not made by the step
    assert r.shape == (2048, 1024) and r.learned is table
    exact = sinusoidal_pe(2048, 1024, 3000.0, layout, "float64")
    # interleaved: 4 channels a column, not 3 (whole sin/cos pairs: compute.screen.channel_step)
    cols, width = (256, 1024) if layout == "interleaved" else (480, 1023)          # 4 x 256, 3 x 341
    np.testing.assert_allclose(r.shown_sinusoidal.data, block_means(exact, 250, cols).data, atol=2e-6)
    assert (r.shown_sinusoidal.height, r.shown_sinusoidal.width) == (2043, width)   # 9 x 227
    coords, var = pca(r.sinusoidal)                                     # the table's own PCA, signs too
    np.testing.assert_allclose(r.pca_sinusoidal, coords, atol=1e-3 * np.abs(coords).max())
    np.testing.assert_allclose(r.var_sinusoidal, var, rtol=1e-4)
    assert r.sinusoidal.shape == (2048, 1024) and not r.sinusoidal.flags.writeable


def test_the_benchs_table_step_is_the_views_step_with_that_table_open(monkeypatch):
    """explorer.bench's Learned rows time beside_table: the same result the view gets for an opened
    model with that table (here 1024 x 768, GPT-2's size), image for image."""
    from explorer.bench.backend import LEARNED_PANEL, learned_cases
    from explorer.compute.learned import beside_table

    assert {(n, d) for n, d, _ in learned_cases().values()} == {(1024, 768), (2048, 1024)}
    table = (np.random.default_rng(5).standard_normal((1024, 768)) * 0.1).astype(np.float32)
    opened_as_model(monkeypatch, "gpt", table)
    p = Params(base=777.0, layout="concat", model="gpt-sized.gguf")
    view = learned(p, Window(0, 1, 0, 1, *LEARNED_PANEL))
    bench = beside_table(table, p, *LEARNED_PANEL)
    for name in ("shown_sinusoidal", "shown_sim_sinusoidal", "shown_learned", "shown_sim_learned"):
        a, b = getattr(view, name), getattr(bench, name)
        assert (a.height, a.width) == (b.height, b.width)
        np.testing.assert_array_equal(a.data, b.data)
    for name in ("pca_sinusoidal", "pca_learned"):     # warm-started iterations: equal to their residual
        a, b = getattr(view, name), getattr(bench, name)
        np.testing.assert_allclose(a, b, atol=1e-5 * np.abs(a).max())


def test_the_learned_colour_limit_and_peak_come_with_the_result():
    """The view had taken the table's max |value| itself (and the percentile through a property, on the GUI
    thread); both are worked out once per table on the worker (the architecture review, stop 53)."""
    from explorer.compute.learned import learned
    from explorer.params import Params

    r = learned(Params())
    if r.learned is None:
        pytest.skip("MiniLM's tables are not installed")
    size = np.abs(r.learned)
    assert r.learned_peak == float(size.max()) and r.learned_level == float(np.percentile(size, 99.5))
    assert 0 < r.learned_level < r.learned_peak
    again = learned(Params(base=777.0))          # another base: the same table, the same numbers
    assert (again.learned_level, again.learned_peak) == (r.learned_level, r.learned_peak)
