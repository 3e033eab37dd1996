"""`pe-explorer check FILE [--json]`: what a saved PE table, RoPE cache or inv_freq vector is.

Exit codes: 0 the data matches a known convention (its base, scale, orientation are reported),
1 it matches nothing known or shows a known mistake, 2 bad input (unreadable file, NaN, empty,
a file that needs pickle, several arrays and no --key).
"""

from __future__ import annotations

import argparse
import math

KINDS = ("pe", "rope_cache", "inv_freq")


def add_parser(sub) -> argparse.ArgumentParser:
    """Register `check` on the subparsers object of the main parser."""
    p = sub.add_parser("check", help="say what a saved PE table / RoPE cache / inv_freq is, or "
                                     "which known mistake it has")
    p.add_argument("file", metavar="FILE", help=".npy, .npz, .safetensors, .csv, .pt or .pth")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--key", help="the array to read from a file that holds several")
    p.add_argument("--kind", choices=KINDS, help="what the data is (default: guessed)")
    p.add_argument("--base", type=float, help="the base the data should have (a different one is "
                                              "reported as a mistake)")
    p.add_argument("--pairing", choices=["half", "interleaved"],
                   help="the RoPE pairing the cache should have")
    p.add_argument("--lang", default="en", choices=["en", "zh_CN"], help="language of the report")
    return p


def run(args) -> int:
    """Load, diagnose, print; the exit code (InputError propagates: the CLI turns it into 2)."""
    from explorer.backend.diagnose import diagnose, load_array

    data, dtype, name = load_array(args.file, args.key)
    result = diagnose(data, kind=args.kind, base=args.base, pairing=args.pairing,
                      lang=args.lang, dtype=dtype)
    if args.json:
        import json

        out = result.to_json()
        out["file"] = str(args.file)
        out["key"] = name or None
        print(json.dumps(out, ensure_ascii=False, default=_plain))
    else:
        print(report(result, args.file, name, args.lang))
    return 0 if result.match else 1


def _plain(value):
    """numpy scalars in the convention dict -> plain Python numbers for json."""
    return value.item() if hasattr(value, "item") else str(value)


LABELS = {"match": ("match", "符合"), "no match": ("no match", "不符合"), "mistake": ("mistake", "错误"),
          "fix": ("fix", "修正"), "max error": ("max error {err:.3g} (tolerance {tol:.3g})",
                                              "最大误差 {err:.3g}（容差 {tol:.3g}）"),
          # nothing was fitted (an error of inf): no error to tell, as the check view's formula line says
          "no fit": ("max error: none, there is no nearest fit to measure against (tolerance {tol:.3g})",
                     "最大误差：无，没有可用来比较的最接近拟合（容差 {tol:.3g}）"),
          # all zeros: error 0 against any reference times 0, a fit the check refuses (it read "max error 0
          # (tolerance 0)" beside "no match")
          "zeros": ("max error: none, all zeros equal every reference times 0, so none is chosen",
                    "最大误差：无，全为 0 时等于任何参考表乘以 0，因此不选定参考表")}


def report(result, path, name: str = "", lang: str = "en") -> str:
    """The text report: verdict line, the convention, each mistake with its fix, the max error."""
    from explorer.compute.check import all_zero

    say = {k: v[1 if lang == "zh_CN" else 0] for k, v in LABELS.items()}
    where = f"{path}" + (f" [{name}]" if name else "")
    lines = [f"{where}: {say['match'] if result.match else say['no match']}", f"  {result.summary}"]
    conv = result.convention
    for key in ("layout", "pairing", "function", "head_dim", "d_model", "max_len", "base", "rope_type",
                "rope_params", "preset", "scale", "orientation", "start", "dtype"):
        if key in conv and conv[key] not in ({}, None):
            value = conv[key]
            lines.append(f"  {key:<12}{value:.6g}" if isinstance(value, float) else f"  {key:<12}{value}")
    for m in result.mistakes:
        lines.append(f"  {say['mistake']} {m.id}: {m.message}")
        if m.fix:
            lines.append(f"    {say['fix']}: {m.fix}")
    error = say["max error"] if math.isfinite(result.max_error) else say["no fit"]
    if all_zero(result.mistakes):
        error = say["zeros"]
    lines.append("  " + error.format(err=result.max_error, tol=result.tolerance))
    return "\n".join(lines)
