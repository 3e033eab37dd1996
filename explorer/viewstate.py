"""The base of every view's own frozen state: typed fields, validated with one-line messages. No Qt.

A view state is a frozen dataclass whose fields all have defaults; its type is taken from the default
(int, float, bool, str, tuple, or None for "optional number"). A subclass may name allowed ranges
(`RANGES = {"head_dim": (2, 256)}`) and choices (`CHOICES = {"pairing": ("interleaved", "half")}`).
Field names are the CLI's option names, so a scene's `"views": {"rope": {"head_dim": 128}}` reads
like the command line.
"""

from __future__ import annotations

import math
from dataclasses import MISSING, dataclass, fields, replace

from explorer.errors import InputError, require


def shown(value) -> str:
    """A user's value as it may appear in a one-line message: repr, at most 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


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

    def with_(self, **changes) -> "ViewState":
        """A new state with `changes` applied and validated; unknown names refused."""
        known = {f.name for f in fields(self)}
        extra = sorted(k for k in changes if k not in known)
        require(not extra, f"unknown setting(s) {', '.join(extra)}; "
                           f"allowed: {', '.join(sorted(known)) or 'none'}")
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
        require(not extra, f"unknown setting(s) {', '.join(extra)}; "
                           f"allowed: {', '.join(sorted(known)) or 'none'}")
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
        require(isinstance(value, bool), f"{name} must be true or false, not {shown(value)}")
    elif isinstance(default, int):
        require(isinstance(value, int) and not isinstance(value, bool),
                f"{name} must be a whole number, not {shown(value)}")
    elif isinstance(default, float) or (default is None and name in cls.RANGES):
        if value is None and default is None:
            return
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        require(ok and math.isfinite(value), f"{name} must be a finite number, not {shown(value)}")
    elif isinstance(default, str):
        require(isinstance(value, str), f"{name} must be text, not {shown(value)}")
    elif isinstance(default, tuple) or default is None:
        require(value is None or isinstance(value, tuple),
                f"{name} must be a list or null, not {shown(value)}")
    if name in cls.CHOICES:
        allowed = cls.CHOICES[name]
        require(value in allowed, f"{name} must be one of {', '.join(map(str, allowed))}; "
                                  f"got {shown(value)}")
    if lo is not None and value is not None and not isinstance(value, (tuple, str)):
        require(lo <= value <= hi, f"{name} must be between {lo:g} and {hi:g}; got {shown(value)}")


@dataclass(frozen=True)
class NoState(ViewState):
    """The state of a view without settings of its own."""
