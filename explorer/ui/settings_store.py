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
    except (InputError, ValueError, TypeError, AttributeError):
        return None


def save_state(settings, state: State, colormap: str, geometry) -> None:
    settings.remove("params")
    settings.setValue("state", json.dumps(state.to_dict()))
    settings.setValue("colormap", colormap)
    settings.setValue("geometry", geometry)
    settings.sync()
