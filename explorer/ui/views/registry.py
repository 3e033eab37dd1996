"""The UI's one registry: view name (from the Qt-free catalogue) -> widget class, and translated titles."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from explorer import catalogue
from explorer.ui.views.alibi import AlibiView
from explorer.ui.views.check import CheckView
from explorer.ui.views.conventions import ConventionsView
from explorer.ui.views.curves import CurvesView
from explorer.ui.views.distance import DistanceView
from explorer.ui.views.frequencies import FrequenciesView
from explorer.ui.views.heatmap import HeatmapView
from explorer.ui.views.learned import LearnedView
from explorer.ui.views.offset import OffsetView
from explorer.ui.views.precision import PrecisionView
from explorer.ui.views.rope import RopeView
from explorer.ui.views.similarity import SimilarityView
from explorer.ui.views.tokens import TokensView

VIEW_CLASSES = {
    "heatmap": HeatmapView, "curves": CurvesView, "similarity": SimilarityView, "tokens": TokensView,
    "learned": LearnedView, "conventions": ConventionsView, "offset": OffsetView,
    "frequencies": FrequenciesView, "rope": RopeView, "alibi": AlibiView, "distance": DistanceView,
    "precision": PrecisionView,
    "check": CheckView,
}
assert tuple(VIEW_CLASSES) == catalogue.NAMES, "the UI registry and the catalogue list different views"


def tab_title(name: str) -> str:
    """The translated title of one view (its English title is in the catalogue)."""
    return QCoreApplication.translate("Catalogue", catalogue.entry(name).title)


def make_views() -> dict:
    """One widget per catalogue view, in catalogue order, each told its name."""
    views = {}
    for name in catalogue.NAMES:
        view = VIEW_CLASSES[name]()
        view.name = name
        views[name] = view
    return views
