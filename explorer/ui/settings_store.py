"""What the window remembers between runs: the whole State (as a version-2 scene dict), the colour map
and the window geometry, in QSettings."""

from __future__ import annotations

import json

from explorer.errors import InputError
from explorer.state import State


def load_state(settings) -> State | None:
    """The saved State; the defaults when nothing was saved; None when what was saved is unreadable.
    (A version-1 save holds the bare Params dict under "params".)"""
    from explorer.ui.model_actions import default_state

    raw = settings.value("state") or settings.value("params")
    if not raw:
        return default_state()
    try:
        data = json.loads(str(raw))
        return State.from_dict(data if "params" in data or "views" in data else {"params": data},
                               "saved settings")
    except (InputError, ValueError, TypeError, AttributeError, RecursionError):
        return None     # (a file nested 100,000 deep is a RecursionError in json.loads)


def load_colormap(settings, names: tuple[str, ...], default: str) -> str:
    """The saved colour map if it is one of `names`, else `default`: the name goes to pyqtgraph,
    which reads a file of that name from its own folder (a hand-edited "../../etc/passwd" read
    that file, and a name it lacks stopped the window from starting)."""
    name = settings.value("colormap", default)
    return name if isinstance(name, str) and name in names else default


def save_state(settings, state: State, colormap: str, geometry) -> None:
    settings.remove("params")
    settings.setValue("state", json.dumps(state.to_dict()))
    settings.setValue("colormap", colormap)
    settings.setValue("geometry", geometry)
    settings.sync()
