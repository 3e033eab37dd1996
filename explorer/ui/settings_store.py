"""What the window remembers between runs: the whole State (as a version-2 scene dict, the colour map in
it) and the window geometry, in QSettings; the UI language (explorer.ui.i18n) is kept in the same store."""

from __future__ import annotations

import json
from dataclasses import replace

from explorer import catalogue
from explorer.errors import InputError
from explorer.state import COLORMAPS, State

SETTINGS_ORG, SETTINGS_APP = "pe-explorer", "pe-explorer"     # Linux: ~/.config/pe-explorer/pe-explorer.conf
OLD_LANGUAGE_ORG = "PE Explorer"    # where the language alone was kept before: ~/.config/PE Explorer/...


def user_settings():
    """The user's own settings store: the State, the window geometry and the UI language."""
    from PySide6.QtCore import QSettings

    return QSettings(SETTINGS_ORG, SETTINGS_APP)


def old_language_settings():
    """The store older versions kept the UI language in (apart from the rest): read once, when the user's
    store has no language yet (explorer.ui.i18n), never written, never deleted."""
    from PySide6.QtCore import QSettings

    return QSettings(OLD_LANGUAGE_ORG, SETTINGS_APP)


def load_state(settings) -> State | None:
    """The saved State; the defaults when nothing was saved; None when what was saved is unreadable.
    Older saves still open: version 1 held the bare Params dict under "params" and the open tab's index
    under "tab"; before the colour map was part of the State it was kept under "colormap"."""
    from explorer.ui.model_actions import default_state

    raw = settings.value("state") or settings.value("params")
    if not raw:
        return kept_colormap(settings, default_state())
    try:
        data = json.loads(str(raw))
        if not ("params" in data or "views" in data):       # version 1: the Params alone, and the tab
            data = {"params": data, **_tab_of_version_1(settings)}
        if "colormap" in data and data["colormap"] not in COLORMAPS:   # a bad name costs only itself
            data = {k: v for k, v in data.items() if k != "colormap"}
        state = State.from_dict(data, "saved settings")
        return state if "colormap" in data else kept_colormap(settings, state)
    except (InputError, ValueError, TypeError, AttributeError, RecursionError):
        return None     # (a file nested 100,000 deep is a RecursionError in json.loads)


def _tab_of_version_1(settings) -> dict:
    """{"view": name} for a version-1 save's tab index (the tabs were in catalogue order), else {}."""
    try:
        index = int(settings.value("tab", -1))
    except (TypeError, ValueError):
        return {}
    return {"view": catalogue.NAMES[index]} if 0 <= index < len(catalogue.NAMES) else {}


def kept_colormap(settings, state: State) -> State:
    """state with the colour map an older save kept beside the State, when it is one of COLORMAPS (the
    name goes to pyqtgraph, which reads a file of that name from its own folder: a hand-edited
    "../../etc/passwd" read that file, and a name it lacks stopped the window from starting)."""
    name = settings.value("colormap", "")
    return replace(state, colormap=name) if isinstance(name, str) and name in COLORMAPS else state


def save_state(settings, state: State, geometry) -> None:
    from explorer.compute.check import MEMORY_PREFIX

    if state.views["check"].source.startswith(MEMORY_PREFIX):    # explorer.show's array lives in this
        state = state.with_view_state("check", source="", key="")  # process only (a lesson's kept State)
    for old in ("params", "tab", "colormap"):      # what older versions kept beside the State
        settings.remove(old)
    settings.setValue("state", json.dumps(state.to_dict()))
    settings.setValue("geometry", geometry)
    settings.sync()
