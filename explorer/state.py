"""One frozen snapshot of everything shown: shared Params, every view's own state, the open view, the
cursor, the colour map. Replaced, never mutated; the controller diffs old against new. No Qt here.

    state.params.max_len            the shared sliders
    state.views["rope"].head_dim    a view's own settings (a ViewState)
    state.view, state.cursor        the open tab, the marked position
    state.colormap                  the colour map of signed values (one of COLORMAPS)

`to_dict()` names only what differs from the defaults (a scene can be three lines); `from_dict`
fills missing keys with the defaults and refuses unknown ones by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from explorer import catalogue
from explorer.errors import InputError, msg, require, shown
from explorer.params import Params, pairs_for_width
from explorer.viewstate import ViewState

COLORMAPS = ("CET-D1", "viridis", "cividis", "inferno")   # CET-D1: diverging, perceptually uniform
DEFAULT_COLORMAP = COLORMAPS[0]


@dataclass(frozen=True, slots=True)
class ViewStates:
    """A frozen, hashable mapping view name -> its ViewState, one entry per catalogue view."""

    items: tuple[tuple[str, ViewState], ...] = field(
        default_factory=lambda: tuple(catalogue.default_states().items()))

    def __getitem__(self, name: str) -> ViewState:
        for key, value in self.items:
            if key == name:
                return value
        raise KeyError(name)

    def __iter__(self):
        return (key for key, _ in self.items)

    def replace(self, name: str, state: ViewState) -> "ViewStates":
        require(isinstance(state, catalogue.entry(name).state_type),
                "the %1 view keeps a %2", name, catalogue.entry(name).state_type.__name__)
        return ViewStates(tuple((k, state if k == name else v) for k, v in self.items))

    def changed_views(self, other: "ViewStates") -> set[str]:
        """Names whose state differs between self and other."""
        return {k for (k, a), (_, b) in zip(self.items, other.items) if a != b}


@dataclass(frozen=True, slots=True)
class State:
    """Everything shown; hashable, so it can key caches and be compared cheaply."""

    params: Params = field(default_factory=Params)
    views: ViewStates = field(default_factory=ViewStates)
    view: str = "heatmap"
    cursor: int | None = None
    preset: str = ""             # the model preset the values came from ("" none); see presets_state
    colormap: str = DEFAULT_COLORMAP    # how signed values are coloured (a scene rendered in it)

    def __post_init__(self) -> None:
        catalogue.entry(self.view)
        require(isinstance(self.colormap, str) and self.colormap in COLORMAPS,
                "“colormap” must be one of %1, not %2", ", ".join(COLORMAPS), shown(self.colormap))
        if self.preset != "":
            from explorer.backend.presets import get_preset

            require(isinstance(self.preset, str), "“preset” must be a preset name, not %1",
                                                         shown(self.preset))
            get_preset(self.preset)
        if self.cursor is not None:
            ok = isinstance(self.cursor, int) and not isinstance(self.cursor, bool)
            require(ok and 0 <= self.cursor < self.params.max_len,
                    "“cursor” must be a position in 0 .. %1, not %2", self.params.max_len - 1,
                    shown(self.cursor))

    def with_params(self, **changes) -> "State":
        """Shared parameters changed (validated); a cursor past a shrunk table is dropped. Curve pairs
        follow their mode: given pairs are "manual"; a new mode or d_model picks them anew
        (params.pairs_for_width)."""
        if "curve_pairs" in changes:
            changes.setdefault("curve_mode", "manual")
        elif "curve_mode" in changes or "d_model" in changes:
            d = changes.get("d_model", self.params.d_model)
            mode = changes.get("curve_mode", self.params.curve_mode)
            if isinstance(d, int) and not isinstance(d, bool) and isinstance(mode, str):
                changes["curve_pairs"] = pairs_for_width(self.params.curve_pairs, mode, max(1, d))
        params = self.params.with_(**changes)
        cursor = self.cursor if self.cursor is None or self.cursor < params.max_len else None
        resized = (params.max_len, params.d_model) != (self.params.max_len, self.params.d_model)
        views = ViewStates(tuple((k, (v.unzoomed() if resized else v).fit(params))
                                 for k, v in self.views.items))
        return replace(self, params=params, cursor=cursor, views=views)

    def with_view_state(self, name: str, **changes) -> "State":
        """One view's own settings changed (validated, unknown names refused)."""
        return replace(self, views=self.views.replace(name, self.views[name].with_(**changes)))

    def to_dict(self) -> dict:
        """{"params": changed params, "view", "views": {name: changed fields}, "cursor"}; with a preset
        also "preset", and "params"/"views" then name only what differs from the preset's values; with
        another colour map than the default, "colormap"."""
        base = _preset_base(self.preset)
        params = self.params.to_dict()
        ref = base.params.to_dict()
        views = {}
        for name in self.views:
            mine, theirs = self.views[name].to_dict(), base.views[name].to_dict()
            changed = {k: v for k, v in mine.items() if v != theirs[k]}
            if changed:
                views[name] = changed
        out = {"params": {k: v for k, v in params.items() if v != ref[k]}, "view": self.view,
               "views": views, "cursor": self.cursor}
        if self.preset:
            out["preset"] = self.preset
        if self.colormap != DEFAULT_COLORMAP:
            out["colormap"] = self.colormap
        return out

    @classmethod
    def from_dict(cls, data, where: str = msg("state")) -> "State":
        """Validate {"params"?, "view"?, "views"?, "cursor"?, "preset"?, "colormap"?}; InputError naming the
        bad key."""
        require(isinstance(data, dict), "%1 must be a JSON object", where)
        preset = data.get("preset", "") or ""
        try:
            base = _preset_base(preset)
        except InputError as exc:
            raise InputError(msg("%1: “preset”: %2", where, exc)) from None
        try:
            raw_params = data.get("params") or {}
            require(isinstance(raw_params, dict), "parameters must be a JSON object")
            params = Params.from_dict({**base.params.changed(), **raw_params})
        except (TypeError, InputError) as exc:
            raise InputError(msg("%1: “params”: %2", where, exc)) from None
        views = base.views
        raw = data.get("views") or {}
        require(isinstance(raw, dict), "%1: “views” must be an object: view name -> settings", where)
        for name, settings in raw.items():
            require(name in catalogue.VIEWS, "%1: “views” names an unknown view %2; the views are %3",
                                             where, shown(name), ", ".join(catalogue.NAMES))
            try:
                require(isinstance(settings, dict), "a view's settings must be a JSON object")
                merged = {**base.views[name].to_dict(only_changed=True), **settings}
                views = views.replace(name, catalogue.entry(name).state_type.from_dict(merged))
            except InputError as exc:
                raise InputError(msg("%1: “views.%2”: %3", where, name, exc)) from None
        view = data.get("view", "heatmap")
        require(isinstance(view, str) and view in catalogue.VIEWS,
                "%1: “view” must be one of %2, not %3", where, ", ".join(catalogue.NAMES), shown(view))
        views = ViewStates(tuple((k, v.fit(params)) for k, v in views.items))   # as with_params keeps them:
        try:                                         # a scene's offset p = 500 in a 64-row table is drawn at 63
            return cls(params, views, view, data.get("cursor"), preset, data.get("colormap", DEFAULT_COLORMAP))
        except InputError as exc:
            raise InputError(msg("%1: %2", where, exc)) from None


def _preset_base(name: str) -> State:
    """The default State with the preset `name` applied ("" : the defaults); InputError for unknown."""
    if not name:
        return _DEFAULT_STATE
    require(isinstance(name, str), "a preset is named by text, not %1", shown(name))
    from explorer.presets_state import apply_preset

    return apply_preset(State(), name)


_DEFAULT_STATE = State()
