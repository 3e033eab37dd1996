"""The UI's one registry: view name (from the Qt-free catalogue) -> widget class, and translated titles."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Callable

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from explorer import catalogue
from explorer.errors import require
from explorer.ui.views.alibi import AlibiView
from explorer.ui.views.base import View, one_rect_repaints, plain_tick_values
from explorer.ui.views.check import CheckView
from explorer.ui.views.conventions import ConventionsView
from explorer.ui.views.curves import CurvesView
from explorer.ui.views.distance import DistanceView
from explorer.ui.views.frequencies import FrequenciesView
from explorer.ui.views.heatmap import HeatmapView
from explorer.ui.views.learned import LearnedView
from explorer.ui.views.offset import OffsetView
from explorer.ui.views.precision import PrecisionView
from explorer.ui.views.qk import QkView
from explorer.ui.views.ranges import fixed_ranges
from explorer.ui.views.rope import RopeView
from explorer.ui.views.similarity import SimilarityView
from explorer.ui.views.tokens import TokensView

VIEW_CLASSES = {
    "heatmap": HeatmapView, "curves": CurvesView, "similarity": SimilarityView, "tokens": TokensView,
    "learned": LearnedView, "conventions": ConventionsView, "offset": OffsetView,
    "frequencies": FrequenciesView, "rope": RopeView, "alibi": AlibiView, "distance": DistanceView,
    "precision": PrecisionView, "qk": QkView,
    "check": CheckView,
}
assert tuple(VIEW_CLASSES) == catalogue.NAMES, "the UI registry and the catalogue list different views"


# tab labels short enough for every tab at 1280 px (the View menu and tooltips keep the full titles)
SHORT_TITLES = {"heatmap": QT_TRANSLATE_NOOP("MainWindow", "Heatmap"),
                "curves": QT_TRANSLATE_NOOP("MainWindow", "Curves"),
                "similarity": QT_TRANSLATE_NOOP("MainWindow", "Similarity"),
                "learned": QT_TRANSLATE_NOOP("MainWindow", "Learned"),
                "conventions": QT_TRANSLATE_NOOP("MainWindow", "Layouts"),
                "offset": QT_TRANSLATE_NOOP("MainWindow", "Offset"),
                "distance": QT_TRANSLATE_NOOP("MainWindow", "Distance"),
                "qk": QT_TRANSLATE_NOOP("MainWindow", "Real RoPE"),
                "check": QT_TRANSLATE_NOOP("MainWindow", "Check")}


def short_tab_title(name: str) -> str:
    """The translated tab label of one view: its short name, or its title when that is short."""
    if name in SHORT_TITLES:
        return QCoreApplication.translate("MainWindow", SHORT_TITLES[name])
    return tab_title(name)


def tab_title(name: str) -> str:
    """The translated title of one view (its English title is in the catalogue)."""
    return QCoreApplication.translate("Catalogue", catalogue.entry(name).title)


def make_view(name: str):
    """A new widget for catalogue view `name`, told its name."""
    view = VIEW_CLASSES[name]()
    view.name = name
    one_rect_repaints(view)
    plain_tick_values(view)
    fixed_ranges(view)
    return view


class UnbuiltView(View):
    """Stands in for a view whose widget could not be made (a bug of ours): its tab says why in one
    line, the other tabs go on, and the controller computes nothing for it."""

    unbuilt = True

    def __init__(self, name: str, reason: str):
        super().__init__()
        self.name = name
        self.explain.setText(reason)
        self.box.addStretch(1)

    def set_result(self, result) -> None:
        self.result = result


class LazyViews(Mapping):
    """name -> view widget for every catalogue view, each built the first time it is asked for (the
    window then shows in about a second instead of building twelve tabs of plots first).

    `views[name]` builds; `values()` / `items()` are the views built so far (what a loop that
    restyles or repaints needs); `built(name)` says whether one exists."""

    def __init__(self, build: Callable[[str], object], names=catalogue.NAMES):
        self._names, self._build, self._made = tuple(names), build, {}

    def __getitem__(self, name: str):
        if name not in self._made:
            if name not in self._names:
                raise KeyError(name)
            self._made[name] = self._build(name)
        return self._made[name]

    def __setitem__(self, name: str, view) -> None:
        """Replace a built view (the headless renderer draws each scene on a fresh one)."""
        require(name in self._names, f"unknown view {name!r}")
        self._made[name] = view

    def __iter__(self):
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def built(self, name: str) -> bool:
        return name in self._made

    def values(self):
        return [self._made[n] for n in self._names if n in self._made]

    def items(self):
        return [(n, self._made[n]) for n in self._names if n in self._made]
