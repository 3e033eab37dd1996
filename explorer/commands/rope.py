"""`pe-explorer presets` and `pe-explorer export rope-frequencies`: model presets and RoPE inverse frequencies.

Imports of numpy and the backend stay inside the functions: the CLI must set BLAS threads first.
"""

from __future__ import annotations

import argparse

from explorer.errors import InputError, require

_SCALING_FLAGS = {             # flag dest -> RopeScaling field
    "factor": "factor", "original_max_len": "original_max_position_embeddings",
    "low_freq_factor": "low_freq_factor", "high_freq_factor": "high_freq_factor",
    "beta_fast": "beta_fast", "beta_slow": "beta_slow", "mscale": "mscale",
    "mscale_all_dim": "mscale_all_dim", "attention_factor": "attention_factor",
    "partial_rotary_factor": "partial_rotary_factor", "short_factor": "short_factor",
    "long_factor": "long_factor",
}


def add_parsers(sub, export_kinds) -> None:
    """Register `presets` under the top-level subcommands and `rope-frequencies` under `export`."""
    presets = sub.add_parser("presets", help="list the model presets with their values and sources")
    presets.add_argument("--json", action="store_true", help="print JSON (default: a table)")
    rope = export_kinds.add_parser("rope-frequencies",
                                   help="RoPE inv_freq and attention factor (.npz) of a preset or settings")
    rope.add_argument("--preset", help="a model preset (see `pe-explorer presets`)")
    rope.add_argument("--head-dim", type=int, help="channels per head D")
    rope.add_argument("--base", type=float, help="rope_theta")
    rope.add_argument("--rope-type", help="default, linear, dynamic, yarn, longrope, llama3 or proportional")
    rope.add_argument("--factor", type=float)
    rope.add_argument("--original-max-len", type=int, help="original_max_position_embeddings")
    rope.add_argument("--max-position-embeddings", type=int,
                      help="the config's max_position_embeddings (yarn/longrope factor, dynamic's L0)")
    for name in ("low-freq-factor", "high-freq-factor", "beta-fast", "beta-slow", "mscale", "mscale-all-dim",
                 "attention-factor", "partial-rotary-factor"):
        rope.add_argument(f"--{name}", type=float)
    rope.add_argument("--truncate", action=argparse.BooleanOptionalAction, default=None,
                      help="yarn: round the ramp's ends to whole pairs (transformers' default; a preset's own "
                           "otherwise: gpt-oss-20b's is --no-truncate)")
    rope.add_argument("--short-factor", nargs="+", help="longrope: dim/2 numbers (spaces or commas)")
    rope.add_argument("--long-factor", nargs="+", help="longrope: dim/2 numbers (spaces or commas)")
    rope.add_argument("--seq-len", type=int, help="the current sequence length (dynamic, longrope)")
    rope.add_argument("-o", "--output", required=True, help="FILE.npz")


def _numbers(flag: str, parts: list[str]) -> tuple[float, ...]:
    """'1,2' '3' -> (1.0, 2.0, 3.0); InputError naming the flag."""
    out = []
    for part in ",".join(parts).split(","):
        if part.strip():
            try:
                out.append(float(part))
            except ValueError:
                raise InputError(f"--{flag} takes numbers, not {part.strip()!r}") from None
    return tuple(out)


def _settings(args) -> tuple[int, float, object, int | None]:
    """(head_dim, base, RopeScaling, max_position_embeddings) from a preset and/or the flags."""
    from explorer.backend.presets import get_preset
    from explorer.backend.rope_scaling import RopeScaling

    given = {field: getattr(args, dest) for dest, field in _SCALING_FLAGS.items()
             if getattr(args, dest) is not None}
    for field in ("short_factor", "long_factor"):
        if field in given:
            given[field] = _numbers(field.replace("_", "-"), given[field])
    if args.truncate is not None:                  # (true: transformers' default, written as unset)
        given["truncate"] = None if args.truncate else False
    if args.preset is not None:
        require(args.head_dim is None,
                "give either --preset or --head-dim (a preset sets head_dim; its other values can be overridden)")
        preset = get_preset(args.preset)
        require(preset.position == "rope", f"preset {preset.name} has no RoPE (its positions are "
                f"{preset.position}); choose one with rope in `pe-explorer presets`")
        head_dim, base, max_len = preset.head_dim, preset.rope_theta, preset.max_position_embeddings
        params = preset.rope_scaling.to_dict()
        if args.rope_type is not None and args.rope_type != params["rope_type"]:
            # (a p-RoPE preset's fraction picks turning pairs of the whole head: not a rotated width)
            kept = 1.0 if params["rope_type"] == "proportional" else preset.rope_scaling.partial_rotary_factor
            params = {"rope_type": args.rope_type, "partial_rotary_factor": kept}
    else:
        require(args.head_dim is not None and args.base is not None,
                "give --preset NAME, or --head-dim D and --base B")
        head_dim, base, max_len = args.head_dim, None, None
        params = {"rope_type": args.rope_type or "default"}
    base = args.base if args.base is not None else base
    max_len = args.max_position_embeddings if args.max_position_embeddings is not None else max_len
    params.update(given)
    params.pop("rope_theta", None)
    if isinstance(params.get("short_factor"), list):
        params["short_factor"] = tuple(params["short_factor"])
    if isinstance(params.get("long_factor"), list):
        params["long_factor"] = tuple(params["long_factor"])
    return head_dim, base, RopeScaling(**params), max_len


def run_export(args) -> int:
    """Write inv_freq (dim/2,) float64 and attention_factor () to FILE.npz, atomically."""
    from pathlib import Path

    from explorer.fileio import refuse_folder_name

    refuse_folder_name(args.output)
    require(Path(args.output).suffix.lower() == ".npz",
            f"output file must end in .npz, not {str(args.output)!r}")
    import numpy as np

    from explorer.backend.rope_scaling import inv_frequencies
    from explorer.compute.arrays import npz_bytes
    from explorer.fileio import atomic_write_bytes

    head_dim, base, scaling, max_len = _settings(args)
    freqs = inv_frequencies(head_dim, base, scaling, args.seq_len, max_len)
    path = atomic_write_bytes(args.output, npz_bytes({"inv_freq": freqs.inv_freq,
                                                      "attention_factor": np.float64(freqs.attention_factor)}))
    print(f"wrote {path} inv_freq {freqs.inv_freq.shape} float64, attention_factor {freqs.attention_factor:.9g}")
    return 0


def _cell(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def run_presets(args) -> int:
    """Print every preset: a table with sources, or JSON."""
    import json

    from explorer.backend.presets import load_presets

    summaries = [p.summary() for p in load_presets().values()]
    if args.json:
        print(json.dumps(summaries, ensure_ascii=False, indent=1))
        return 0
    columns = ("name", "position", "d_model", "n_heads", "n_kv_heads", "head_dim", "context_length",
               "rope_theta", "rope", "rotary_fraction", "pairing", "embedding_scale", "vocab_size")
    rows = []
    for s in summaries:
        s = dict(s, rope=(s["rope_scaling"] or {}).get("rope_type", "default" if s["rope_theta"] else None))
        rows.append([_cell(s[c]) for c in columns])
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(columns)]
    print("  ".join(c.ljust(w) for c, w in zip(columns, widths)))
    for row, s in zip(rows, summaries):
        print("  ".join(v.ljust(w) for v, w in zip(row, widths)))
        for src in s["sources"]:
            print(f"    source: {src['repo']} {src['path']}")
    return 0


def is_rope_export(args: argparse.Namespace) -> bool:
    return getattr(args, "command", None) == "export" and getattr(args, "kind", None) == "rope-frequencies"
