"""Presets of real models (resources/presets/models.json): sizes, position family, RoPE settings, sources.

Every number comes from the model's published configuration; each entry names where it was read
(`sources`) and says in `notes` what could not be found. load_presets() validates the whole file.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache

from explorer.backend.rope_scaling import (
    RopeFrequencies,
    RopeScaling,
    inv_frequencies,
    rotated_width,
)
from explorer.errors import InputError, msg, require

POSITION_FAMILIES = ("learned", "sinusoidal", "rope", "alibi", "none")
PAIRINGS = ("interleaved", "half")
_KEYS = ("title", "d_model", "n_heads", "n_kv_heads", "head_dim", "position", "context_length",
         "max_position_embeddings", "rope_theta", "rope_scaling", "rotary_fraction", "pairing",
         "embedding_scale", "vocab_size", "sources", "notes")


@dataclass(frozen=True)
class Source:
    """Where a preset's values were read: repository (or package), path, and what it says."""

    repo: str
    path: str
    what: str = ""
    commit: str | None = None


@dataclass(frozen=True)
class Preset:
    """One model; rope_* fields are None unless position == "rope"."""

    name: str
    title: str
    d_model: int
    n_heads: int
    n_kv_heads: int
    head_dim: int                      # DeepSeek-V3 (MLA): the rotated part, qk_rope_head_dim
    position: str                      # one of POSITION_FAMILIES
    context_length: int
    max_position_embeddings: int | None
    rope_theta: float | None
    rope_scaling: RopeScaling | None   # includes partial_rotary_factor = rotary_fraction
    rotary_fraction: float | None
    pairing: str | None                # "interleaved" (GPT-J, RoFormer), "half" (NeoX / Llama rotate_half)
    embedding_scale: float             # Gemma: sqrt(d_model); others 1
    vocab_size: int | None
    sources: tuple[Source, ...]
    notes: str

    @property
    def rotary_dim(self) -> int | None:
        """Channels per head the rotation spans, int(head_dim * rotary_fraction) (proportional: the whole
        head, its slow pairs at frequency 0); None without RoPE."""
        return None if self.rope_scaling is None else rotated_width(self.head_dim, self.rope_scaling)

    def frequencies(self, seq_len: int | None = None) -> RopeFrequencies:
        """inv_freq (rotary_dim/2,) and attention factor; InputError for a model without RoPE."""
        require(self.position == "rope",
                "preset %1 has no RoPE (its positions are %2)", self.name, self.position)
        return inv_frequencies(self.head_dim, self.rope_theta, self.rope_scaling, seq_len,
                               self.max_position_embeddings)

    def summary(self) -> dict:
        """Plain JSON-able values (rope_scaling as its 5.x dict)."""
        out = {key: getattr(self, key) for key in ("name",) + _KEYS if key not in ("sources", "rope_scaling")}
        out["rope_scaling"] = None if self.rope_scaling is None else self.rope_scaling.to_dict()
        if out["rope_scaling"] is not None:
            out["rope_scaling"].pop("partial_rotary_factor", None)
            if out["rope_scaling"] == {"rope_type": "default"}:
                out["rope_scaling"] = None
        out["sources"] = [{k: v for k, v in vars(s).items() if v} for s in self.sources]
        return out


def _whole(name: str, where: str, value, allow_none: bool = False) -> None:
    if allow_none and value is None:
        return
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= 1
    require(ok, "presets: %1.%2 must be a whole number >= 1, not %3", where, name, repr(value))


def _source(where: str, data) -> Source:
    require(isinstance(data, dict) and data.get("repo") and data.get("path"),
            "presets: %1.sources entries need repo and path", where)
    return Source(repo=data["repo"], path=data["path"], what=data.get("what", ""), commit=data.get("commit"))


def _preset(name: str, data) -> Preset:
    """One validated entry; InputError naming the entry and field."""
    require(isinstance(data, dict), "presets: %1 must be an object", name)
    missing = [k for k in _KEYS if k not in data]
    require(not missing, "presets: %1 lacks %2", name, ", ".join(missing))
    for key in ("d_model", "n_heads", "n_kv_heads", "head_dim", "context_length"):
        _whole(key, name, data[key])
    _whole("max_position_embeddings", name, data["max_position_embeddings"], allow_none=True)
    _whole("vocab_size", name, data["vocab_size"], allow_none=True)
    family = data["position"]
    require(family in POSITION_FAMILIES,
            "presets: %1.position must be one of %2, not %3", name, ", ".join(POSITION_FAMILIES), repr(family))
    rope = family == "rope"
    for key in ("rope_theta", "rotary_fraction", "pairing"):
        require((data[key] is not None) == rope,
                "presets: %1.%2 must be set exactly when position is rope", name, key)
    require(data["pairing"] is None or data["pairing"] in PAIRINGS,
            "presets: %1.pairing must be one of %2 or null", name, ", ".join(PAIRINGS))
    require(rope or data["rope_scaling"] is None, "presets: %1.rope_scaling needs position rope", name)
    scale = data["embedding_scale"]
    require(isinstance(scale, (int, float)) and math.isfinite(scale) and scale > 0,
            "presets: %1.embedding_scale must be a number > 0", name)
    require(isinstance(data["sources"], list) and data["sources"], "presets: %1.sources must be a list",
                                                                               name)
    scaling = None
    if rope:
        params = dict(data["rope_scaling"] or {"rope_type": "default"})
        params["partial_rotary_factor"] = data["rotary_fraction"]
        try:
            scaling = RopeScaling(**params)
        except TypeError as exc:
            raise InputError(msg("presets: %1.rope_scaling: %2", name, exc)) from None
    preset = Preset(name=name, title=data["title"], d_model=data["d_model"], n_heads=data["n_heads"],
                    n_kv_heads=data["n_kv_heads"], head_dim=data["head_dim"], position=family,
                    context_length=data["context_length"],
                    max_position_embeddings=data["max_position_embeddings"],
                    rope_theta=None if not rope else float(data["rope_theta"]), rope_scaling=scaling,
                    rotary_fraction=data["rotary_fraction"], pairing=data["pairing"],
                    embedding_scale=float(scale), vocab_size=data["vocab_size"],
                    sources=tuple(_source(name, s) for s in data["sources"]), notes=data["notes"])
    if rope:
        preset.frequencies()           # every rope preset must compute (lengths of longrope lists, ...)
    return preset


def presets_from_json(text: str) -> dict[str, Preset]:
    """Parse and validate a presets file's text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(msg("presets: not valid JSON (%1 at line %2)", exc.msg, exc.lineno)) from None
    require(isinstance(data, dict) and isinstance(data.get("presets"), dict),
            "presets: the file must be an object with a 'presets' object")
    return {name: _preset(name, entry) for name, entry in data["presets"].items()}


@lru_cache(maxsize=1)
def load_presets() -> dict[str, Preset]:
    """Every bundled preset by name (read once)."""
    from explorer.paths import resource

    path = resource("presets", "models.json")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(msg("cannot read the presets file %1: %2", path, exc.strerror or exc)) from None
    return presets_from_json(text)


def preset_names() -> tuple[str, ...]:
    return tuple(load_presets())


def get_preset(name: str) -> Preset:
    """The preset called name; InputError listing the known names."""
    presets = load_presets()
    require(name in presets, "unknown preset %1; known presets: %2", repr(name), ", ".join(presets))
    return presets[name]
