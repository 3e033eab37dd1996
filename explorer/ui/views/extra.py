"""The "beyond the paper" views (issue #5), for the main window's tabs.

EXTRA_VIEWS: name -> (view class, tab title). Titles are marked for translation in the context
"ExtraViews": show them with `tab_title(name)` (QCoreApplication.translate at run time).
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from explorer.ui.views.alibi import AlibiView
from explorer.ui.views.conventions import ConventionsView
from explorer.ui.views.distance import DistanceView
from explorer.ui.views.frequencies import FrequenciesView
from explorer.ui.views.offset import OffsetView
from explorer.ui.views.precision import PrecisionView
from explorer.ui.views.rope import RopeView

EXTRA_VIEWS = {
    "conventions": (ConventionsView, QT_TRANSLATE_NOOP("ExtraViews", "Layout conventions")),
    "offset": (OffsetView, QT_TRANSLATE_NOOP("ExtraViews", "Relative offset")),
    "frequencies": (FrequenciesView, QT_TRANSLATE_NOOP("ExtraViews", "Frequencies")),
    "rope": (RopeView, QT_TRANSLATE_NOOP("ExtraViews", "RoPE")),
    "alibi": (AlibiView, QT_TRANSLATE_NOOP("ExtraViews", "ALiBi")),
    "distance": (DistanceView, QT_TRANSLATE_NOOP("ExtraViews", "Distance chart")),
    "precision": (PrecisionView, QT_TRANSLATE_NOOP("ExtraViews", "Precision")),
}


def tab_title(name: str) -> str:
    """The translated tab title of one extra view."""
    return QCoreApplication.translate("ExtraViews", EXTRA_VIEWS[name][1])
