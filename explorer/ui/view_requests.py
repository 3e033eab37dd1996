"""What a view's own requests do to the State: the open view's zoom after a zoom, pan or resize (and a
recompute at its new pixels), and the curves view's pairs. The main window connects them."""

from __future__ import annotations

from explorer import catalogue
from explorer.errors import InputError, error_text
from explorer.params import parse_pairs
from explorer.ui.i18n import current_language
from explorer.viewstate import ZoomState


def recompute_resized(controller) -> None:
    """The open view got another size (F11, a window resize): a view computed at its pixels is
    computed again at the new ones; its zoom (what it shows) stays as it was."""
    name = controller.state.view
    if catalogue.entry(name).windowed:
        controller.refresh([name])


def keep_zoom(controller, views) -> None:
    """A zoom, pan or resize of the open view: its zoom goes into the State (scenes keep it), and
    the view is recomputed for what it shows now."""
    name = controller.state.view
    if catalogue.entry(name).call != "window":
        controller.refresh()
        return
    pos0, pos1, ch0, ch1, _rows, _cols = views[name].visible_region()
    zoom = ZoomState.of_region(pos0, pos1, ch0, ch1, controller.params, channels=name == "heatmap").zoom
    if zoom == controller.state.views[name].zoom:
        controller.refresh([name])            # the same region at another pixel size
    else:
        controller.update_view(name, zoom=zoom)


def set_curve_pairs(controller, views, mode: str, text: str) -> None:
    """The curves view's pair request: a mode, or pairs typed by hand (a refusal in its readout)."""
    d = controller.params.d_model
    try:
        change = {"curve_pairs": parse_pairs(text, d)} if mode == "manual" else {"curve_mode": mode}
    except InputError as exc:
        views["curves"].set_readout(error_text(exc, current_language()))
        return
    views["curves"].set_readout(" ")
    controller.update(**change)       # a mode picks its pairs (State.with_params)
