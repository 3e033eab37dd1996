"""RoPE as shipped models use it: the inverse frequencies and attention factor of every rope type.

The numbers are those of Hugging Face transformers' `modeling_rope_utils.ROPE_INIT_FUNCTIONS` (5.x),
computed here in float64 with numpy (transformers works in float32). dim = int(head_dim * p) channels
rotate (p = partial_rotary_factor); pair i < dim/2 has w_i = base^(-2i/dim), divided as the type says:
  default   w_i
  linear    w_i / factor                                    (position interpolation)
  dynamic   base' = base * (factor*L/L0 - (factor-1))^(dim/(dim-2)), L = max(seq_len, L0)
  yarn      blend of w_i and w_i / factor along a ramp in i set by beta_fast/beta_slow rotations in L0
  llama3    w_i where wavelength < L0/high_freq_factor, w_i / factor where > L0/low_freq_factor, between
            a smooth blend
  longrope  w_i / short_factor[i], or / long_factor[i] when seq_len > L0
  proportional  (Gemma 4's p-RoPE) the whole head's pairs, w_i = base^(-2i/head_dim) / factor for the
            first int(p * head_dim // 2) pairs and 0 for the rest (those channels do not turn)
The attention factor multiplies cos and sin (yarn: 0.1 ln(factor) + 1 or the mscale ratio; longrope:
sqrt(1 + ln(factor)/ln(L0)); others 1). L0 = original_max_position_embeddings.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import NamedTuple

import numpy as np

from explorer.backend.encodings import finite_number
from explorer.backend.rope_types import (  # noqa: F401 - MAX_HEAD_DIM and the widths: this module's API too
    MAX_HEAD_DIM,
    default_inv_freq,
    dynamic_scale,
    llama3_smooth,
    longrope_attention_factor,
    resolved_factor,
    rotary_dim,
    rotated_pairs,
    rotated_width,
    yarn_attention_factor,
    yarn_ramp,
)
from explorer.errors import InputError, msg, require, shown

ROPE_TYPES = ("default", "linear", "dynamic", "yarn", "longrope", "llama3", "proportional")
YARN_BETA_FAST, YARN_BETA_SLOW = 32.0, 1.0     # transformers' defaults ("or 32", "or 1")
_FIELDS_OF = {                                  # the parameters each type reads (besides the fraction)
    "default": (),
    "linear": ("factor", "original_max_position_embeddings"),
    "dynamic": ("factor", "original_max_position_embeddings"),
    "yarn": ("factor", "original_max_position_embeddings", "beta_fast", "beta_slow", "mscale",
             "mscale_all_dim", "attention_factor", "truncate"),
    "longrope": ("short_factor", "long_factor", "original_max_position_embeddings", "factor",
                 "attention_factor"),
    "llama3": ("factor", "low_freq_factor", "high_freq_factor", "original_max_position_embeddings"),
    "proportional": ("factor",),
}
_REQUIRED = {"linear": ("factor",), "dynamic": ("factor",),
             "yarn": ("original_max_position_embeddings",),
             "longrope": ("short_factor", "long_factor", "original_max_position_embeddings"),
             "llama3": ("factor", "low_freq_factor", "high_freq_factor", "original_max_position_embeddings")}


MAX_LENGTH = 1 << 53      # context lengths and seq_len: whole numbers exact as floats


def _is_length(value) -> bool:
    """A whole number 1 .. MAX_LENGTH (a context length, seq_len)."""
    return (isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
            and 1 <= value <= MAX_LENGTH)


def require_length(name: str, value) -> None:
    """InputError naming `name` unless `value` is a whole number 1 .. MAX_LENGTH (None allowed)."""
    require(value is None or _is_length(value), "%1 must be a whole number from 1 to 2^53, not %2", name,
            shown(value))


def _positive(name: str, value) -> None:
    require(finite_number(value) and value > 0, "%1 must be a finite number > 0, not %2", name, shown(value))


def _factor_list(name: str, value) -> tuple[float, ...]:
    ok = (isinstance(value, (list, tuple)) or (isinstance(value, np.ndarray) and value.ndim == 1)) \
        and len(value) > 0
    require(ok and all(finite_number(v) and v > 0 for v in value),
            "%1 must be a list of finite numbers > 0 (one per rotated pair), not %2", name, shown(value))
    return tuple(float(v) for v in value)


@dataclass(frozen=True)
class RopeScaling:
    """One rope type and its parameters (None: not set, or transformers' default); validated, hashable."""

    rope_type: str = "default"
    factor: float | None = None
    original_max_position_embeddings: int | None = None   # L0, the pre-training context
    low_freq_factor: float | None = None                  # llama3
    high_freq_factor: float | None = None                 # llama3
    beta_fast: float | None = None                        # yarn (default 32)
    beta_slow: float | None = None                        # yarn (default 1)
    mscale: float | None = None                           # yarn
    mscale_all_dim: float | None = None                   # yarn
    attention_factor: float | None = None                 # yarn, longrope: overrides the formula
    truncate: bool | None = None                          # yarn (default True)
    short_factor: tuple[float, ...] | None = None         # longrope, (dim/2,)
    long_factor: tuple[float, ...] | None = None          # longrope, (dim/2,)
    partial_rotary_factor: float = 1.0                    # fraction of head_dim that rotates

    def __post_init__(self) -> None:
        kind = self.rope_type
        require(kind in ROPE_TYPES, "rope_type must be one of %1; got %2", ", ".join(ROPE_TYPES), shown(kind))
        p = self.partial_rotary_factor
        require(finite_number(p) and 0 < p <= 1,
                "partial_rotary_factor must be a number in (0, 1], not %1", shown(p))
        used = _FIELDS_OF[kind]
        for f in fields(self):
            if f.name in ("rope_type", "partial_rotary_factor") or getattr(self, f.name) is None:
                continue
            require(f.name in used, "%1 is not a parameter of rope type %2 (it takes: %3)", f.name, kind,
                                    ", ".join(used) or msg("only partial_rotary_factor"))
        for name in _REQUIRED.get(kind, ()):
            require(getattr(self, name) is not None,
                    "rope type %1 needs %2 (it takes: %3)", kind, name, ", ".join(used))
        for name in ("factor", "low_freq_factor", "high_freq_factor", "attention_factor"):
            if getattr(self, name) is not None:
                _positive(name, getattr(self, name))
        for name in ("mscale", "mscale_all_dim"):
            value = getattr(self, name)
            require(value is None or finite_number(value), "%1 must be a finite number, not %2", name, shown(value))
        length = self.original_max_position_embeddings
        require_length("original_max_position_embeddings", length)
        if kind == "llama3":        # (equal: one step at L0 / low_freq_factor, as Llama-4-Scout-Instruct's 1 and 1)
            require(self.low_freq_factor <= self.high_freq_factor,
                    "low_freq_factor must not be greater than high_freq_factor; got %1 > %2", self.low_freq_factor,
                    self.high_freq_factor)
        if kind == "yarn":
            self._check_yarn()
        for name in ("short_factor", "long_factor"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, _factor_list(name, getattr(self, name)))

    def _check_yarn(self) -> None:
        fast, slow = self.yarn_betas
        _positive("beta_fast", fast)
        _positive("beta_slow", slow)
        require(fast > slow, "beta_fast must be greater than beta_slow; got %1 <= %2", fast, slow)
        require(self.truncate is None or isinstance(self.truncate, bool),
                "truncate must be true or false, not %1", shown(self.truncate))

    @property
    def yarn_betas(self) -> tuple[float, float]:
        """(beta_fast, beta_slow) with transformers' defaults 32 and 1 (its `or`: 0 counts as unset)."""
        return (self.beta_fast or YARN_BETA_FAST), (self.beta_slow or YARN_BETA_SLOW)

    def to_dict(self) -> dict:
        """The 5.x `rope_parameters` form without rope_theta: the set fields, lists for tuples."""
        out = {"rope_type": self.rope_type}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name != "rope_type" and value is not None:
                out[f.name] = list(value) if isinstance(value, tuple) else value
        if out.get("partial_rotary_factor") == 1.0:
            del out["partial_rotary_factor"]
        return out


class RopeFrequencies(NamedTuple):
    inv_freq: np.ndarray       # (dim/2,) float64
    attention_factor: float


def _check_inputs(head_dim, base, scaling, seq_len, max_position_embeddings) -> int:
    require(finite_number(base) and base > 1, "base (rope_theta) must be a finite number > 1, not %1", shown(base))
    require(scaling is None or isinstance(scaling, RopeScaling),
            "scaling must be a RopeScaling or None, not %1", shown(scaling))
    require_length("seq_len", seq_len)
    require_length("max_position_embeddings", max_position_embeddings)
    return rotated_width(head_dim, scaling)


def inv_frequencies(head_dim: int, base: float, scaling: RopeScaling | None = None,
                    seq_len: int | None = None, max_position_embeddings: int | None = None) -> RopeFrequencies:
    """Inverse frequencies (dim/2,) and attention factor, as transformers computes them.

    seq_len: the current length (dynamic; longrope picks long_factor when seq_len > L0).
    max_position_embeddings: the config's; dynamic's L0 when the scaling has none, and yarn/longrope's
    factor = max_position_embeddings / L0 when the scaling has no factor. InputError when the
    settings give a frequency or factor that is not a finite number (a factor of 1e-320 overflows)."""
    try:
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            out = _inv_frequencies(head_dim, base, scaling, seq_len, max_position_embeddings)
        finite = bool(np.all(np.isfinite(out.inv_freq))) and finite_number(out.attention_factor)
    except InputError:
        raise
    except (ArithmeticError, ValueError, TypeError):   # Python floats: a beta of 1e-320 overflows
        finite = False                                 # math.ceil; dynamic's s < 0 turns complex
    require(finite, "rope type %1 with these settings gives frequencies that are not finite numbers "
                    "(a factor too small or too large?)", (scaling or RopeScaling()).rope_type)
    return out


def _inv_frequencies(head_dim: int, base: float, scaling: RopeScaling | None,
                     seq_len: int | None, max_position_embeddings: int | None) -> RopeFrequencies:
    dim = _check_inputs(head_dim, base, scaling, seq_len, max_position_embeddings)
    scaling = scaling or RopeScaling()
    kind = scaling.rope_type
    plain = default_inv_freq(dim, base)                       # (dim/2,)
    if kind == "default":
        return RopeFrequencies(plain, 1.0)
    if kind == "linear":
        return RopeFrequencies(plain / scaling.factor, 1.0)
    if kind == "proportional":
        plain[rotated_pairs(head_dim, scaling):] = 0.0        # the low-frequency pairs do not turn
        return RopeFrequencies(plain / (1.0 if scaling.factor is None else scaling.factor), 1.0)
    if kind == "dynamic":
        require(dim >= 4, "rope type dynamic needs at least 4 rotated channels (dim/(dim-2)); got %1", dim)
        scaled = base * dynamic_scale(scaling, seq_len, max_position_embeddings) ** (dim / (dim - 2))
        return RopeFrequencies(default_inv_freq(dim, scaled), 1.0)
    if kind == "longrope":
        for name in ("short_factor", "long_factor"):
            got = len(getattr(scaling, name))
            require(got == dim // 2, "%1 must have %2 numbers (one per rotated pair: head_dim %3 x "
                                     "partial_rotary_factor %4 / 2), not %5", name, dim // 2, head_dim,
                                     scaling.partial_rotary_factor, got)
    factor = resolved_factor(scaling, max_position_embeddings)
    if kind == "yarn":
        ramp, _, _ = yarn_ramp(scaling, dim, base)
        inv = (plain / factor) * ramp + plain * (1 - ramp)
        return RopeFrequencies(inv, yarn_attention_factor(scaling, factor))
    if kind == "llama3":
        smooth = llama3_smooth(scaling, plain)
        return RopeFrequencies((1 - smooth) * plain / scaling.factor + smooth * plain, 1.0)
    long = seq_len is not None and seq_len > scaling.original_max_position_embeddings
    ext = np.asarray(scaling.long_factor if long else scaling.short_factor, dtype=np.float64)
    return RopeFrequencies(1.0 / (ext * float(base) ** (np.arange(0, dim, 2) / dim)),
                           longrope_attention_factor(scaling, factor))


def rope_frequencies(head_dim: int, base: float, rope_type: str = "default", *, seq_len: int | None = None,
                     max_position_embeddings: int | None = None, **params) -> RopeFrequencies:
    """The friendly form: rope_frequencies(128, 5e5, "llama3", factor=8, low_freq_factor=1, ...).
    Without original_max_position_embeddings, llama3, yarn and longrope take max_position_embeddings
    as L0, as transformers' config does (PretrainedConfig's rope standardisation)."""
    known = {f.name for f in fields(RopeScaling)} - {"rope_type"}
    extra = sorted(k for k in params if k not in known)
    require(not extra, "unknown RoPE parameter(s): %1; known: %2", ", ".join(extra), ", ".join(sorted(known)))
    if isinstance(rope_type, str) and rope_type in ("llama3", "yarn", "longrope") \
            and params.get("original_max_position_embeddings") is None:
        require_length("max_position_embeddings", max_position_embeddings)    # named as given, not as L0
        params["original_max_position_embeddings"] = max_position_embeddings
    scaling = RopeScaling(rope_type=rope_type, **params)
    return inv_frequencies(head_dim, base, scaling, seq_len, max_position_embeddings)


__all__ = [
    "ROPE_TYPES",
    "RopeFrequencies",
    "RopeScaling",
    "dynamic_scale",
    "inv_frequencies",
    "pair_profile",
    "resolved_factor",
    "rope_frequencies",
    "rotary_dim",
    "rotated_pairs",
    "rotated_width",
    "scaling_from_config",
]


def scaling_from_config(config: dict, layer_type: str | None = None) -> tuple[float, RopeScaling]:
    """(base, scaling) from a model config dict, 4.x style (rope_theta + rope_scaling) or 5.x style;
    layer_type for a config with RoPE per layer type (Gemma 3, 4)."""
    from explorer.backend.rope_config import scaling_from_config as convert

    return convert(config, layer_type)


def pair_profile(head_dim: int, base: float, scaling: RopeScaling | None = None, seq_len: int | None = None,
                 max_position_embeddings: int | None = None):
    """Per pair before/after scaling, with regimes; see explorer.backend.rope_profile.PairProfile."""
    from explorer.backend.rope_profile import pair_profile as profile

    return profile(head_dim, base, scaling, seq_len, max_position_embeddings)
