"""Shared view helpers: nice colour limits, axes kept as pixmaps, bars redrawn only on change."""

import numpy as np
import pytest
from PySide6.QtWidgets import QGraphicsItem

from explorer.ui.views.ranges import nice_ceil, symmetric_levels
from explorer.ui.views.registry import VIEW_CLASSES


@pytest.mark.parametrize("m, want", [(1.0, 1.0), (1.01, 1.2), (0.0031, 0.004), (512.0, 600.0),
                                     (7.9, 8.0), (8.2, 10.0), (2e-7, 2e-7), (99.0, 100.0)])
def test_nice_ceil(m, want):
    assert nice_ceil(m) == pytest.approx(want, rel=1e-12)


def test_symmetric_levels_round_up_and_stay_put_while_values_drift():
    assert symmetric_levels(np.array([-0.3, 2.2])) == (-2.5, 2.5)
    drifting = {symmetric_levels(np.array([1.0 + 0.01 * i])) for i in range(1, 15)}
    assert drifting == {(-1.2, 1.2)}                 # 1.01 .. 1.14: one colour bar, no redraws
    assert symmetric_levels(np.zeros(3)) == (-1e-12, 1e-12)
    assert symmetric_levels(np.array([np.nan])) == (-1.0, 1.0)
    assert symmetric_levels(np.array([])) == (-1.0, 1.0)


def test_views_cache_axes_and_skip_unchanged_colour_bars(qtbot, monkeypatch):
    view = VIEW_CLASSES["conventions"]()
    qtbot.addWidget(view)
    for panel in [*view.pe.values(), view.sim]:
        for axis in (panel.plot.getAxis("left"), panel.plot.getAxis("bottom"), panel.bar.axis):
            assert axis.cacheMode() == QGraphicsItem.CacheMode.DeviceCoordinateCache
    calls = []
    monkeypatch.setattr(view.sim.bar, "setLevels", lambda levels: calls.append(levels))
    img = np.ones((4, 4), np.float32)
    view.sim.show(img, 0, 0, 4, 4, (-2.0, 2.0))
    view.sim.show(img * 0.5, 0, 0, 4, 4, (-2.0, 2.0))
    view.sim.show(img, 0, 0, 4, 4, (-3.0, 3.0))
    assert calls == [(-2.0, 2.0), (-3.0, 3.0)]
