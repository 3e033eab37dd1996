"""Command line: open the window (no arguments), or headless subcommands (export, bench)."""

from __future__ import annotations

import argparse
import sys

from explorer import __version__
from explorer.errors import InputError


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad input as one line and exit code 2 (no usage dump)."""

    def error(self, message: str):
        raise InputError(message)


def _common_pe_args(p: argparse.ArgumentParser, need_d: bool = True) -> None:
    p.add_argument("--max-len", type=int, required=True, help="number of positions N")
    if need_d:
        p.add_argument("--d-model", type=int, required=True, help="embedding width d")
    p.add_argument("--base", type=float, default=10000.0, help="the 10000 of the paper")
    p.add_argument("--layout", default="interleaved", choices=["interleaved", "concat", "t2t"])
    p.add_argument("--dtype", default="float32", choices=["float32", "float64"])
    p.add_argument("--device", default="auto", choices=["auto", "cpu", "cuda", "mps"])
    p.add_argument("-o", "--output", required=True, help="FILE.npy or FILE.csv")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pe-explorer", description="PE Explorer: positional encodings, seen.")
    parser.add_argument("--version", action="version", version=f"pe-explorer {__version__}")
    parser.add_argument("--lang", choices=["en", "zh_CN"], help="interface language")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    export = sub.add_parser("export", help="write arrays to .npy/.csv")
    kinds = export.add_subparsers(dest="kind", required=True, parser_class=_Parser)
    _common_pe_args(kinds.add_parser("pe", help="the (max_len, d_model) PE table"))
    sim = kinds.add_parser("similarity", help="the (max_len, max_len) position similarity")
    sim.add_argument("--metric", default="dot", choices=["dot", "cosine"])
    _common_pe_args(sim)
    bench = sub.add_parser("bench", help="time the backend (and the views)")
    bench.add_argument("--json", action="store_true")
    return parser


def _run_export(args) -> int:
    from explorer.fileio import save_array
    from explorer.params import Params

    params = Params(d_model=args.d_model, max_len=args.max_len, base=args.base,
                    layout=args.layout, dtype=args.dtype, device=args.device)
    if args.kind == "pe":
        from explorer.backend.torch_ops import full_pe

        array, used = full_pe(params.max_len, params.d_model, params.base, params.layout,
                              params.dtype, params.device)
    else:
        from explorer.backend.similarity import similarity_matrix

        array = similarity_matrix(params.max_len, params.d_model, params.base, params.layout,
                                  args.metric).astype(params.dtype)
    path = save_array(args.output, array)
    print(f"wrote {path} {array.shape} {array.dtype}")
    return 0


def _run_gui(args) -> int:
    from explorer.ui.app import run_app

    return run_app(lang=args.lang)


def main(argv: list[str] | None = None) -> int:
    """Entry point of `pe-explorer` and `python -m explorer`; returns the exit code."""
    try:
        args = build_parser().parse_args(argv)
        if args.command == "export":
            return _run_export(args)
        if args.command == "bench":
            from explorer.bench import main as bench_main

            return bench_main(["--json"] if args.json else [])
        return _run_gui(args)
    except InputError as exc:
        print(f"pe-explorer: error: {exc}", file=sys.stderr)
        return 2
    except MemoryError:
        print("pe-explorer: error: not enough memory for this request; choose smaller sizes",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
