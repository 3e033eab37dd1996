"""Command line: open the window (no arguments), or headless subcommands (export, bench)."""

from __future__ import annotations

import argparse
import sys

from explorer import __version__
from explorer.allocator import keep_freed_memory
from explorer.blas import single_threaded_blas
from explorer.commands import models as model_commands
from explorer.commands import check as check_command
from explorer.commands.exits import drop_stdout, exit_on_terminate, tolerant_streams
from explorer.errors import InputError, msg


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
    parser = _Parser(
        prog="pe-explorer",
        description="PE Explorer: token embeddings + positional encodings, seen. Run `pe-explorer` "
                    "with no command to open the window; the commands below work without one.",
        epilog="Each command has its own help, e.g. `pe-explorer export --help`, "
               "`pe-explorer render --help`.")
    parser.add_argument("--version", action="version", version=f"pe-explorer {__version__}")
    parser.add_argument("--lang", choices=["en", "zh_CN"],
                        help="language of the window: en or zh_CN (default: the last choice, "
                             "else the system's)")
    parser.add_argument("--self-test", action="store_true",
                        help="check this installation offscreen and exit")
    parser.add_argument("--model", dest="gui_model", metavar="PATH",
                        help="open the window with this model: a Hugging Face folder, a .gguf file, "
                             "smollm2 or minilm")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND",
                                title="commands (none: open the window)")
    export = sub.add_parser("export", help="write an array to .npy or .csv (several as .npz)")
    kinds = export.add_subparsers(dest="kind", parser_class=_Parser, metavar="KIND",
                                  title="kinds")
    _common_pe_args(kinds.add_parser("pe", help="the (max_len, d_model) PE table"))
    sim = kinds.add_parser("similarity", help="the (max_len, max_len) position similarity")
    sim.add_argument("--metric", default="dot", choices=["dot", "cosine"])
    _common_pe_args(sim)
    rope = kinds.add_parser("rope", help="(N, N) RoPE scores q(m)·k(n), all-ones q and k")
    rope.add_argument("--head-dim", type=int, required=True)
    rope.add_argument("--max-len", type=int, required=True)
    rope.add_argument("--base", type=float, default=10000.0)
    rope.add_argument("--pairing", default="interleaved", choices=["interleaved", "half"])
    rope.add_argument("-o", "--output", required=True)
    alibi = kinds.add_parser("alibi", help="(H, N, N) ALiBi bias tensor")
    alibi.add_argument("--heads", type=int, required=True)
    alibi.add_argument("--max-len", type=int, required=True)
    alibi.add_argument("-o", "--output", required=True)
    rot = kinds.add_parser("offset-rotation", help="(D, D) matrix R(K): PE(p+K) = R(K) PE(p)")
    rot.add_argument("--d-model", type=int, required=True)
    rot.add_argument("--offset", type=int, required=True)
    rot.add_argument("--base", type=float, default=10000.0)
    rot.add_argument("-o", "--output", required=True)
    learned = kinds.add_parser("learned-pe", help="MiniLM's learned (512, 384) position table")
    learned.add_argument("-o", "--output", required=True)
    inp = kinds.add_parser("input", help="X = E[ids] (x sqrt(d)) + PE for a sentence")
    inp.add_argument("--text", required=True)
    inp.add_argument("--tokenizer", default="cl100k", choices=["cl100k", "wordpiece", "char", "qwen"])
    inp.add_argument("--d-model", type=int, default=512)
    inp.add_argument("--base", type=float, default=10000.0)
    inp.add_argument("--seed", type=int, default=0,
                     help="seed of the untrained embedding table E (default 0): the same seed "
                          "gives the same table")
    inp.add_argument("--no-scale", action="store_true", help="do not multiply E by sqrt(d_model)")
    inp.add_argument("-o", "--output", required=True)
    tokens = sub.add_parser("tokens", help="tokenize TEXT and print tokens, ids, spans")
    tokens.add_argument("text")
    tokens.add_argument("--tokenizer", default="cl100k", choices=["cl100k", "wordpiece", "char", "qwen"])
    tokens.add_argument("--json", action="store_true", help="print JSON (default: a table)")
    from explorer.commands import views as views_command

    views_command.add_parsers(sub, kinds, _Parser)
    model_commands.add_parsers(kinds, inp=inp, learned=learned, tokens=tokens)
    sub.add_parser("render", help="draw a view, scene or deck to PNG/SVG, no window "
                                  "(see `pe-explorer render --help`)")
    bench = sub.add_parser("bench", help="time the backend (and the views)")
    bench.add_argument("--json", action="store_true")
    from explorer.commands import rope as rope_commands

    rope_commands.add_parsers(sub, kinds)
    check_command.add_parser(sub)
    export.description = ("Write one array to FILE.npy or FILE.csv (view, qk and rope-frequencies: "
                          "their arrays to FILE.npz). KIND is one of " + ", ".join(kinds.choices)
                          + "; `pe-explorer export KIND --help` lists its options.")
    export.set_defaults(all_kinds=tuple(kinds.choices))      # every kind, for the message below
    return parser


def _export_array(args):
    """The array an `export KIND` asks for; InputError for bad values."""
    from explorer.params import Params

    if args.kind in ("pe", "similarity"):
        params = Params(d_model=args.d_model, max_len=args.max_len, base=args.base,
                        layout=args.layout, dtype=args.dtype, device=args.device)
    if args.kind == "pe":
        from explorer.backend.torch_ops import full_pe

        table, used = full_pe(params.max_len, params.d_model, params.base, params.layout,
                              params.dtype, params.device)
        _say_device(args.device, used)
        return table
    if args.kind == "similarity":
        from explorer.backend.similarity import similarity_matrix

        return similarity_matrix(params.max_len, params.d_model, params.base, params.layout,
                                 args.metric).astype(params.dtype)
    if args.kind == "rope":
        from explorer.backend.rope import score_matrix

        return score_matrix(args.head_dim, args.max_len, args.base, args.pairing)
    if args.kind == "alibi":
        from explorer.backend.alibi import bias

        return bias(args.heads, args.max_len)
    if args.kind == "offset-rotation":
        from explorer.backend.relative import rotation_matrix

        return rotation_matrix(args.d_model, args.offset, args.base)
    if args.kind == "learned-pe":
        from explorer.backend.pretrained import minilm_available, minilm_tables

        reason = minilm_available()
        if reason:
            raise InputError(reason)
        return minilm_tables().position
    return _input_array(args)


def _say_device(requested: str, used: str) -> None:
    """A note on stderr when the device asked for by name was not the one that computed."""
    from explorer.backend.device import choose_device

    if requested in ("auto", used):
        return
    choice = choose_device(requested)
    why = choice.reason if choice.name != requested else f"{requested} failed during the computation"
    print(f"note: --device {requested} was not used: {why}; computed with {used}", file=sys.stderr)


def _input_array(args):
    """X for `export input`: untrained seeded rows (x sqrt(d)) + sinusoidal PE."""
    from explorer.backend.embeddings import input_rows, untrained_rows
    from explorer.backend.encodings import check_table_budget, sinusoidal_pe
    from explorer.backend.tokens import tokenize
    from explorer.params import Params

    params = Params(d_model=args.d_model, base=args.base, seed=args.seed)
    tokenized = tokenize(args.text, args.tokenizer)
    if len(tokenized) == 0:
        raise InputError("the text has no tokens; give some text with --text")
    # one position per token; the PE table's budget is the stricter one: checked before any rows
    check_table_budget(len(tokenized), params.d_model, "float32",
                       msg("use a shorter text or a smaller d_model"))
    rows = untrained_rows(tokenized.ids, params.d_model, params.seed)
    pe = sinusoidal_pe(len(tokenized), params.d_model, params.base)
    return input_rows(rows, pe, not args.no_scale)


def _run_tokens(args) -> int:
    from explorer.backend.tokens import tokenize, tokens_to_json

    return model_commands.print_tokens(tokens_to_json(tokenize(args.text, args.tokenizer)), args.json)


def _run_export(args) -> int:
    from explorer.fileio import check_array_path, save_array

    if not args.kind:
        raise InputError("export needs a KIND: " + ", ".join(args.all_kinds)
                         + " (e.g. `pe-explorer export pe --help`)")
    check_array_path(args.output)          # before any work: a bad suffix costs nothing
    array = _export_array(args)
    path = save_array(args.output, array)
    print(f"wrote {path} {array.shape} {array.dtype}")
    return 0


def _run_gui(args) -> int:
    from explorer.ui.app import run_app

    return run_app(lang=args.lang, model=getattr(args, "gui_model", None))


def main(argv: list[str] | None = None) -> int:
    """Entry point of `pe-explorer` and `python -m explorer`; returns the exit code."""
    exit_on_terminate()
    tolerant_streams()
    try:
        code = _main(argv)
        if code == 2:                   # bad input, already said: an unwritable stdout is not said twice
            drop_stdout()
        elif sys.stdout is not None:    # None: started with stdout closed (`>&-`, pythonw)
            sys.stdout.flush()          # a closed pipe or a full disk shows here, not at exit
        return code
    except BrokenPipeError:             # `pe-explorer views --json | head`: the reader has gone
        drop_stdout()
        return 141                      # as a shell tool killed by SIGPIPE
    except OSError as exc:              # e.g. standard output on a full disk
        where = f": {exc.filename}" if exc.filename else ""
        print(f"pe-explorer: error: {exc.strerror or exc}{where}", file=sys.stderr)
        drop_stdout()
        return 2


def _main(argv: list[str] | None) -> int:
    single_threaded_blas()
    keep_freed_memory()
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["render"]:
        from explorer.commands.render import render_main

        return render_main(argv[1:])
    args = None
    try:
        args = build_parser().parse_args(argv)
        if args.self_test:
            from explorer.commands.selftest import run_self_test

            return run_self_test()
        if args.command == "export" and args.kind == "view":
            from explorer.commands.views import run_export_view

            return run_export_view(args)
        from explorer.commands import rope as rope_commands

        if rope_commands.is_rope_export(args):
            return rope_commands.run_export(args)
        if args.command == "presets":
            return rope_commands.run_presets(args)
        if model_commands.handles(args):
            return model_commands.run(args)
        if args.command == "export":
            return _run_export(args)
        if args.command == "views":
            from explorer.commands.views import run_views

            return run_views(args)
        if args.command == "tokens":
            return _run_tokens(args)
        if args.command == "check":
            return check_command.run(args)
        if args.command == "bench":
            from explorer.bench import main as bench_main

            return bench_main(["--json"] if args.json else [])
        return _run_gui(args)
    except InputError as exc:      # in the language of --lang (check's report language, or the window's)
        from explorer.errors import error_text

        text = error_text(exc, getattr(args, "lang", None) or "en")
        print("pe-explorer: error: " + " ".join(text.splitlines()), file=sys.stderr)
        return 2
    except MemoryError:
        print("pe-explorer: error: not enough memory for this request; choose smaller sizes",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
