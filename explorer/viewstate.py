"""The base of every view's own frozen state: typed fields, validated with one-line messages. No Qt.

A view state is a frozen dataclass whose fields all have defaults; its type is taken from the default
(int, float, bool, str, tuple, or None for "optional number"). A subclass may name allowed ranges
(`RANGES = {"head_dim": (2, 256)}`) and choices (`CHOICES = {"pairing": ("interleaved", "half")}`).
Field names are the CLI's option names, so a scene's `"views": {"rope": {"head_dim": 128}}` reads
like the command line.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields, replace

from explorer.backend.encodings import finite_number
from explorer.errors import InputError, msg, require, shown

ZOOM_LIMIT = 10_000_000   # the largest max_len (params.MAX_LEN_RANGE): no zoom reaches further


@dataclass(frozen=True)
class ViewState:
    """A view's own settings (empty for views that have none)."""

    RANGES = {}    # field -> (lo, hi) inclusive
    CHOICES = {}   # field -> allowed values

    def __post_init__(self) -> None:
        for f in fields(self):
            _check_field(type(self), f.name, _default(f), getattr(self, f.name))

    def fit(self, params) -> "ViewState":
        """This state kept valid for new shared Params (e.g. a position inside a shorter table)."""
        return self

    def unzoomed(self) -> "ViewState":
        """This state without a zoom (the table changed size: a view shows all of it again)."""
        return self

    def with_(self, **changes) -> "ViewState":
        """A new state with `changes` applied and validated; unknown names refused."""
        known = {f.name for f in fields(self)}
        extra = sorted(k for k in changes if k not in known)
        require(not extra, "unknown setting(s) %1; allowed: %2", ", ".join(extra),
                           ", ".join(sorted(known)) or msg("none"))
        return replace(self, **changes)

    def to_dict(self, only_changed: bool = False) -> dict:
        """Plain JSON-able dict (tuples as lists); only_changed: just what differs from the defaults."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if only_changed and value == _default(f):
                continue
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, data) -> "ViewState":
        """Validate a dict of settings (missing keys take the defaults); InputError naming the key."""
        require(isinstance(data, dict), "a view's settings must be a JSON object")
        known = {f.name: f for f in fields(cls)}
        extra = sorted(shown(k) for k in data if k not in known)
        require(not extra, "unknown setting(s) %1; allowed: %2", ", ".join(extra),
                           ", ".join(sorted(known)) or msg("none"))
        values = {}
        for name, value in data.items():
            if isinstance(value, list) and isinstance(_default(known[name]), (tuple, type(None))):
                value = tuple(value)
            values[name] = value
        try:
            return cls(**values)
        except TypeError as exc:        # a wrong type that slipped past the checks
            raise InputError(str(exc)) from None

    @classmethod
    def field_specs(cls) -> list[dict]:
        """[{"name", "default", "type", "range"?, "choices"?}] for `pe-explorer views --json`."""
        out = []
        for f in fields(cls):
            d = _default(f)
            spec = {"name": f.name, "default": list(d) if isinstance(d, tuple) else d,
                    "type": "number or null" if d is None else type(d).__name__}
            if f.name in cls.RANGES:
                spec["range"] = list(cls.RANGES[f.name])
            if f.name in cls.CHOICES:
                spec["choices"] = list(cls.CHOICES[f.name])
            out.append(spec)
        return out


def _default(f):
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return f.default_factory()
    return None


def _check_field(cls, name: str, default, value) -> None:
    """InputError naming `name` when value is not of its default's kind or outside its range."""
    lo, hi = cls.RANGES.get(name, (None, None))
    if isinstance(default, bool):
        require(isinstance(value, bool), "%1 must be true or false, not %2", name, shown(value))
    elif isinstance(default, int):
        require(isinstance(value, int) and not isinstance(value, bool),
                "%1 must be a whole number, not %2", name, shown(value))
    elif isinstance(default, float) or (default is None and name in cls.RANGES):
        if value is None and default is None:
            return
        ok = isinstance(value, (int, float)) and finite_number(value)   # a 400-digit int is not
        require(ok, "%1 must be a finite number, not %2", name, shown(value))
    elif isinstance(default, str):
        require(isinstance(value, str), "%1 must be text, not %2", name, shown(value))
    elif isinstance(default, tuple) or default is None:
        require(value is None or isinstance(value, tuple),
                "%1 must be a list or null, not %2", name, shown(value))
    if name in cls.CHOICES:
        allowed = cls.CHOICES[name]
        require(value in allowed, "%1 must be one of %2; got %3", name, ", ".join(map(str, allowed)),
                                  shown(value))
    if lo is not None and value is not None and not isinstance(value, (tuple, str)):
        require(lo <= value <= hi, "%1 must be between %2 and %3; got %4", name, f"{lo:g}", f"{hi:g}",
                                   shown(value))


@dataclass(frozen=True)
class NoState(ViewState):
    """The state of a view without settings of its own."""


@dataclass(frozen=True)
class ZoomState(ViewState):
    """A zoomable view's shown region: positions [pos0, pos1) and, for the heatmap, channels
    [ch0, ch1) as (pos0, pos1) or (pos0, pos1, ch0, ch1); () shows the whole table."""

    zoom: tuple = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        z = self.zoom
        require(len(z) in (0, 2, 4) and all(isinstance(v, int) and not isinstance(v, bool) for v in z),
                "zoom must be [] or [pos0, pos1] or [pos0, pos1, ch0, ch1] (whole numbers), not %1", shown(z))
        require(all(v <= ZOOM_LIMIT for v in z), "zoom must stay within %1 positions and channels, not %2",
                f"{ZOOM_LIMIT:,}", shown(z))
        require(all(0 <= z[i] < z[i + 1] for i in range(0, len(z), 2)),
                "zoom must name non-empty ranges from 0 up (pos0 < pos1, ch0 < ch1), not %1", shown(z))

    def fit(self, params) -> "ZoomState":
        """The zoom clipped to the table; () when nothing of it is left or it covers everything."""
        if not self.zoom:
            return self
        limits = (params.max_len, params.d_model)
        z = list(self.zoom)
        for i in range(0, len(z), 2):
            hi = limits[i // 2]
            z[i], z[i + 1] = min(z[i], hi - 1), min(z[i + 1], hi)
        whole = all((z[i], z[i + 1]) == (0, limits[i // 2]) for i in range(0, len(z), 2))
        z = () if whole else tuple(z)
        return self if z == self.zoom else ZoomState(z)

    def unzoomed(self) -> "ZoomState":
        return self if not self.zoom else ZoomState()

    @staticmethod
    def of_region(pos0: int, pos1: int, ch0: int, ch1: int, params, channels: bool) -> "ZoomState":
        """The zoom of a shown region (clipped to the table; () when it shows all of it)."""
        pos0 = min(max(0, int(pos0)), params.max_len - 1)
        z = (pos0, min(max(pos0 + 1, int(pos1)), params.max_len))
        if channels:
            ch0 = min(max(0, int(ch0)), params.d_model - 1)
            z += (ch0, min(max(ch0 + 1, int(ch1)), params.d_model))
        return ZoomState(z).fit(params)
