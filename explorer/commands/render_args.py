"""`pe-explorer render`'s arguments: the parser, --size, and the plan of pictures to draw (every
refusal made here, before a window is built)."""

from __future__ import annotations

import argparse
import os
import re
from dataclasses import replace
from pathlib import Path

from explorer.errors import InputError, require

PROG = "pe-explorer render"
SIZE_RANGE = (200, 8000)
DEFAULT_SIZE = "1280x800"
DEFAULT_DPI = 144.0
WAIT_MS = 120_000
PARAM_FLAGS = {"d_model": int, "max_len": int, "base": float, "layout": str, "metric": str,
               "dtype": str, "text": str, "tokenizer": str, "seed": int}
PARAM_HELP = {
    "d_model": ("D", "embedding width, 1 to 8192 (default 128)"),
    "max_len": ("N", "number of positions, 1 to 10,000,000 (default 256)"),
    "base": ("B", "the 10000 of the paper (any value > 1; default 10000)"),
    "layout": ("L", "channel layout: interleaved (the paper, default), concat or t2t"),
    "metric": ("M", "position similarity: cosine (default) or dot"),
    "dtype": ("T", "float32 (default) or float64"),
    "text": ("TEXT", "the sentence of the tokens view"),
    "tokenizer": ("NAME", "cl100k (default), wordpiece or char"),
    "seed": ("S", "seed of the untrained embedding table E (default 0): the same seed gives the "
                  "same table, so pictures can be redrawn exactly"),
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        raise InputError(message)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description="Render a view or a deck of scenes to image files, "
                                       "without opening a window. The parameter flags override "
                                       "a --scene's values; the defaults are the app's.")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--scene", metavar="FILE", help="a scene .json (params, view, cursor)")
    src.add_argument("--deck", metavar="FILE",
                     help="a deck .json (or 'builtin' for the lesson deck); -o is a folder")
    from explorer.catalogue import NAMES

    p.add_argument("--view", metavar="NAME", help="the view to draw: " + ", ".join(NAMES))
    for name, kind in PARAM_FLAGS.items():
        metavar, text = PARAM_HELP[name]
        p.add_argument("--" + name.replace("_", "-"), type=kind, dest=name, default=None,
                       metavar=metavar, help=text)
    p.add_argument("--preset", metavar="NAME", default=None,
                   help="a model preset (see `pe-explorer presets`); flags override its values")
    p.add_argument("--cursor", type=int, default=None, help="position to mark")
    p.add_argument("-o", "--output", required=True, help="FILE.png / FILE.svg, or a folder (--deck)")
    p.add_argument("--format", default=None, metavar="png|svg",
                   help="image type for --deck: png (default) or svg (one picture takes its -o suffix)")
    p.add_argument("--dpi", type=float, default=DEFAULT_DPI, help="96 = screen size (PNG only)")
    p.add_argument("--lang", default="en", metavar="en|zh_CN", help="language of the picture: en (default) or zh_CN")
    p.add_argument("--size", default=DEFAULT_SIZE, help="view size WxH in screen pixels")
    return p


def parse_size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d{1,6})\s*[xX×]\s*(\d{1,6})\s*", text or "")
    require(m is not None, "--size must look like 1280x800, not %1", repr(text))
    w, h = int(m.group(1)), int(m.group(2))
    lo, hi = SIZE_RANGE
    require(lo <= w <= hi and lo <= h <= hi,
            "--size must be between %1 and %2 pixels a side; got %3", lo, hi, f"{w}x{h}")
    return w, h


def plan(args) -> list:
    """[(Scene, Path)] for every image to write; raises InputError before anything is drawn."""
    from explorer import catalogue
    from explorer.paths import resource
    from explorer.scenes import BUILTIN_DECK, load_deck, load_scene, make_scene
    from explorer.state import State
    from explorer.ui.export import IMAGE_SUFFIXES, check_dpi

    check_dpi(args.dpi)
    require(args.lang in ("en", "zh_CN"), "--lang must be en or zh_CN, not %1", repr(args.lang))
    overrides = {k: getattr(args, k) for k in PARAM_FLAGS if getattr(args, k) is not None}
    out = Path(args.output)
    if args.deck:
        args.format = args.format or "png"
        require(args.format in ("png", "svg"), "--format must be png or svg, not %1", repr(args.format))
        path = resource(*BUILTIN_DECK) if args.deck == "builtin" else Path(args.deck)
        scenes = load_deck(path)
        require(not out.exists() or out.is_dir(), "-o must be a folder for --deck; %1 is a file", out)
        folder = out.parent if str(out.parent) else Path(".")
        require(folder.is_dir(), "cannot create %1: the folder %2 does not exist", out, folder)
    else:
        base = load_scene(args.scene) if args.scene else None
        require(base is not None or args.view, "give --view NAME (or --scene FILE, or --deck FILE)")
        suffix = out.suffix.lower()
        from explorer.fileio import refuse_folder_name

        refuse_folder_name(args.output)
        require(suffix in IMAGE_SUFFIXES, "the output must end in .png or .svg, not %1", repr(str(out)))
        require(args.format is None or f".{args.format}" == suffix,
                "--format %1 does not match the output %2: one picture is written as its name's suffix "
                "says (name it .%1, or drop --format)", args.format, out.name)
        folder = out.parent if str(out.parent) else Path(".")
        require(folder.is_dir(), "cannot write %1: the folder %2 does not exist", out, folder)
        require(os.access(folder, os.W_OK), "cannot write %1: the folder %2 is read-only", out, folder)
        require(not out.is_dir(), "cannot write %1: it is a folder", out)
        scenes = [base] if base else [None]
    jobs = []
    for i, scene in enumerate(scenes):
        state = scene.state if scene else State()
        if args.preset is not None:
            from explorer.presets_state import apply_preset

            state = apply_preset(state, args.preset)
        if overrides:
            try:
                state = state.with_params(**overrides)   # a cursor past a shorter table is dropped
            except TypeError as exc:
                raise InputError(str(exc)) from None
        if args.view:
            state = replace(state, view=catalogue.entry(args.view).name)
        if args.cursor is not None:
            state = replace(state, cursor=args.cursor)
        scene = make_scene(state)
        target = out / f"{i + 1:02d}_{state.view}.{args.format}" if args.deck else out
        jobs.append((scene, target))
    return jobs
