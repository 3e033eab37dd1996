"""`pe-explorer views [--json]` (the catalogue) and `pe-explorer export view` (the arrays a view draws,
headless, from a scene and/or shared-parameter flags). No Qt: the data comes from the catalogue."""

from __future__ import annotations

import json
from dataclasses import replace

from explorer.errors import InputError, require

PARAM_FLAGS = {"d_model": int, "max_len": int, "base": float, "layout": str, "metric": str,
               "dtype": str, "text": str, "tokenizer": str, "seed": int, "model": str}
ROWS_PX, COLS_PX = 800, 1000      # the screen size a headless windowed view is computed for


def add_parsers(sub, kinds, parser_class) -> None:
    """`views` under the top-level commands, `view` under `export`."""
    from explorer import catalogue

    views = sub.add_parser("views", help="list every view with its own settings and their defaults")
    views.add_argument("--json", action="store_true", help="print JSON (default: a table)")
    view = kinds.add_parser("view", help="the arrays one view draws, as .npz (like Ctrl+Shift+E)")
    view.add_argument("--view", required=True, choices=catalogue.NAMES, metavar="NAME",
                      help="one of: " + ", ".join(catalogue.NAMES))
    view.add_argument("--scene", metavar="FILE", help="a scene .json: the whole state to show")
    for name, kind in PARAM_FLAGS.items():
        view.add_argument("--" + name.replace("_", "-"), type=kind, dest=name, default=None,
                          help="shared parameter (overrides the scene)")
    view.add_argument("--preset", metavar="NAME", default=None,
                      help="a model preset (see `pe-explorer presets`), or `model`: the --model's own "
                           "settings; flags override its values")
    view.add_argument("-o", "--output", required=True, help="FILE.npz")


def run_views(args) -> int:
    from explorer import catalogue

    rows = catalogue.describe()
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    for row in rows:
        settings = ", ".join(f"{s['name']}={s['default']}" for s in row["state"]) or "-"
        print(f"{row['name']:<12} {row['title']:<20} {settings}")
    return 0


def view_arrays(args) -> dict:
    """The named arrays of view args.view for the scene and flags; InputError for bad input."""
    from explorer import catalogue
    from explorer.compute.arrays import result_arrays
    from explorer.scenes import load_scene
    from explorer.state import State

    state = load_scene(args.scene).state if args.scene else State()
    if getattr(args, "preset", None) is not None:
        from explorer.model_settings import with_preset

        state = with_preset(state, args.preset, args.model)
    overrides = {k: getattr(args, k) for k in PARAM_FLAGS if getattr(args, k) is not None}
    if overrides.get("model"):              # --model: the tokens view shows that model's rows
        overrides["embedding_source"] = "model"
    if overrides:
        try:
            state = state.with_params(**overrides)
        except TypeError as exc:
            raise InputError(str(exc)) from None
    state = replace(state, view=args.view)
    entry = catalogue.entry(args.view)
    view_state = state.views[args.view]
    window = (catalogue.zoom_window(state.params, view_state, ROWS_PX, COLS_PX)
              if entry.windowed else None)
    result = entry.run(state.params, view_state, window)
    refusal = refusal_of(result)
    if refusal:
        raise InputError(refusal)
    arrays = result_arrays(result)
    require(bool(arrays), f"the {args.view} view has no array data")
    return arrays


def refusal_of(result) -> str:
    """Why a result holds none of what was asked: its error (no tokenizer, an unreadable model or
    file), or the model it could not read and fell back from (the window says so beside its
    fallback; a file of the fallback's arrays would not). "" when it holds what was asked."""
    if getattr(result, "error", ""):
        return str(result.error)
    if getattr(result, "note_kind", "") == "failed":     # the why, without the fallback named
        return str(result.reason)
    return ""


def run_export_view(args) -> int:
    from pathlib import Path

    from explorer.compute.arrays import npz_bytes
    from explorer.fileio import atomic_write_bytes

    from explorer.fileio import refuse_folder_name

    refuse_folder_name(args.output)
    require(Path(args.output).suffix.lower() == ".npz",
            f"the output of `export view` must end in .npz, not {args.output!r}")
    arrays = view_arrays(args)
    path = atomic_write_bytes(args.output, npz_bytes(arrays))
    print(f"wrote {path}: {len(arrays)} arrays of the {args.view} view")
    return 0
