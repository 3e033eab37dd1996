"""The bench's command line, tables and JSON (see explorer.bench for what each part measures)."""

from __future__ import annotations

import argparse
import json
import sys

from explorer.bench.timing import cpu_model, load_average

FLOOR_FACTOR = 3.0        # a view's p50 should stay within this many floors
RATIO_WANTED = 1.0        # plain p50 / view p50, every view and size
RATIO_WANTED_BIG = 30.0   # ... heatmap and similarity at max_len >= 8192


def parse_sizes(text: str) -> tuple[tuple[int, int], ...]:
    """'512x512,8192x4096' -> ((512, 512), (8192, 4096)); argparse.ArgumentTypeError (one line) for a
    part that is not max_len x d_model within the sliders' ranges."""
    from explorer.params import D_MODEL_RANGE, MAX_LEN_RANGE

    out = []
    for part in [p for p in text.split(",") if p.strip()] or [text]:
        n, _, d = part.strip().lower().partition("x")
        try:
            size = (int(n), int(d))
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{part.strip()!r} is not max_len x d_model, e.g. 8192x4096") from None
        for name, value, (lo, hi) in zip(("max_len", "d_model"), size, (MAX_LEN_RANGE, D_MODEL_RANGE)):
            if not lo <= value <= hi:
                raise argparse.ArgumentTypeError(f"{name} must be between {lo} and {hi:,}; got {value:,}")
        out.append(size)
    return tuple(dict.fromkeys(out))                      # each size once


def parse_views(text: str) -> list[str]:
    """'heatmap,rope' -> ['heatmap', 'rope']; argparse.ArgumentTypeError naming the catalogue's views
    for a name it does not have."""
    from explorer.catalogue import NAMES

    views = list(dict.fromkeys(v.strip() for v in text.split(",") if v.strip()))   # each once
    unknown = [v for v in views if v not in NAMES]
    if unknown or not views:
        raise argparse.ArgumentTypeError(
            f"no view {', '.join(unknown) or '(empty)'}; the views are {', '.join(NAMES)}")
    return views


def ratio_rows(frames: list[dict], plains: list[dict], floor_ms: float | None) -> list[dict]:
    """Per view and size: plain p50 / view p50, the wanted ratio, view p50 / floor (the row's own
floor_ms when it has one, else floor_ms)."""
    plain = {(r["view"], r["max_len"], r["d_model"]): r for r in plains}
    rows = []
    for f in frames:
        key = (f["view"], f["max_len"], f["d_model"])
        row = {"view": f["view"], "max_len": f["max_len"], "d_model": f["d_model"]}
        if key in plain:
            row["ratio"] = round(plain[key]["p50_ms"] / max(f["p50_ms"], 1e-3), 2)
            row["wanted"] = RATIO_WANTED_BIG if f["view"] in ("heatmap", "similarity") \
                and f["max_len"] >= 8192 else RATIO_WANTED
            row["plain_kind"] = plain[key]["kind"]
        local = f.get("floor_ms") or floor_ms
        if local:
            row["floors"] = round(f["p50_ms"] / local, 2)
        rows.append(row)
    return rows


def _backend_table(rows: list[dict]) -> str:
    lines = [f"{'what':<38} {'max_len':>8} {'d_model':>8} {'p50 ms':>8} {'p95 ms':>8} {'min ms':>8}"]
    for r in rows:
        lines.append(f"{r['what']:<38} {r['max_len']:>8} {r['d_model']:>8} {r['p50_ms']:>8.2f} "
                     f"{r['p95_ms']:>8.2f} {r['min_ms']:>8.2f}")
    return "\n".join(lines)


def _frame_table(frames: list[dict], plains: list[dict], ratios: list[dict], plain_run: bool = True) -> str:
    """The frames table; plain_run: the plain paths were run (not --no-plain), so a row without one
    is a size whose full arrays do not fit in memory (a note says so)."""
    plain = {(r["view"], r["max_len"], r["d_model"]): r for r in plains}
    head = (f"{'view':<12} {'size':>11} {'view p50/p95 ms':>16} {'plain p50/p95 ms':>18} "
            f"{'ratio':>7} {'want':>5} {'floors':>6}")
    lines = [head]
    for f, r in zip(frames, ratios):
        p = plain.get((f["view"], f["max_len"], f["d_model"]))
        size = f"{f['max_len']}x{f['d_model']}"
        pl = f"{p['p50_ms']:.1f} / {p['p95_ms']:.1f}" + ("*" if p["kind"] == "mirror" else " ") \
            if p else "-"
        ratio = f"{r['ratio']:.1f}" if "ratio" in r else "-"
        flag = "" if "ratio" not in r or r["ratio"] >= r["wanted"] else "  <- below wanted"
        floors = f"{r['floors']:.1f}" if "floors" in r else "-"
        if "floors" in r and r["floors"] > FLOOR_FACTOR:
            flag += f"  <- over {FLOOR_FACTOR:g} floors"
        want = f"{r['wanted']:g}" if "wanted" in r else "-"
        lines.append(f"{f['view']:<12} {size:>11} {f['p50_ms']:>7.1f} / {f['p95_ms']:<6.1f} "
                     f"{pl:>18} {ratio:>7} {want:>5} {floors:>6}{flag}")
    if plain_run and any(not p and f["view"] != "check" for f, p in
                         ((f, plain.get((f["view"], f["max_len"], f["d_model"]))) for f in frames)):
        lines.append("plain '-': its full arrays do not fit in this machine's memory (check has none: "
                     "no slider moves it)")
    return "\n".join(lines)


def _startup_text(s: dict) -> str:
    parts = [f"offscreen {s['offscreen_ms']} ms"]
    parts.append(f"X11 {s['x11_display']} {s['x11_ms']} ms" if "x11_ms" in s else f"X11: {s['x11']}")
    if s["window_visible_ms"] is None:
        return f"window visible: not measured ({s['x11']})"
    first = (f"; the launch before them, which writes any bytecode missing: {s['first_launch_ms']:.0f} ms"
             if s.get("first_launch_ms") else "")
    return (f"window visible {s['window_visible_ms']:.0f} ms (median, worse platform): " + "; ".join(parts)
            + first)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m explorer.bench")
    ap.add_argument("--json", action="store_true", help="print JSON instead of tables")
    ap.add_argument("--steps", type=int, default=60, help="slider steps per view and size")
    ap.add_argument("--backend-only", action="store_true", help="skip the window frames")
    ap.add_argument("--views", type=parse_views, help="comma-separated view names (default: every tab)")
    ap.add_argument("--sizes", type=parse_sizes,
                    help="comma-separated max_len x d_model (default: the four sizes)")
    ap.add_argument("--no-plain", action="store_true", help="skip the plain path beside each view")
    ap.add_argument("--no-startup", action="store_true", help="skip the start-up measurement")
    ap.add_argument("--save", metavar="FILE.json", help="also write the JSON to this file")
    args = ap.parse_args(argv)
    from explorer.bench.backend import backend_rows
    from explorer.bench.frames import SIZES

    sizes = args.sizes or SIZES
    out: dict = {"cpu": cpu_model(), "load_average": {"start": load_average()}}
    if not args.no_startup:
        from explorer.bench.startup import startup_rows

        out["startup"] = startup_rows()
    out["backend"] = backend_rows(sizes)
    if not args.backend_only:
        from explorer.bench.frames import frame_rows

        views = args.views
        log = None if args.json else _progress
        out["frames"], out["plain"], out["floor"] = frame_rows(max(1, args.steps), views, sizes,
                                                               not args.no_plain, log)
        out["ratios"] = ratio_rows(out["frames"], out["plain"], out["floor"]["p50_ms"])
        out["textbook"] = [r for r in out["plain"] if r["view"] in ("heatmap", "curves",
                                                                     "similarity")]
    out["load_average"]["end"] = load_average()
    if args.save:
        from explorer.fileio import atomic_write_bytes

        atomic_write_bytes(args.save, (json.dumps(out, indent=1) + "\n").encode())
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"CPU: {out['cpu']}; load average {out['load_average']['start']} -> "
          f"{out['load_average']['end']} (1/5/15 min; > 0.5 per core: numbers measured under load)")
    if "startup" in out:
        print(_startup_text(out["startup"]))
    print("\nBackend\n" + _backend_table(out["backend"]))
    if "frames" in out:
        fl = out["floor"]
        print(f"\nFloor: {fl['p50_ms']:.2f} ms = empty redraw {fl['empty_redraw_p50_ms']:.2f} + "
              f"screen-filling image {fl['image_p50_ms']:.2f} ({fl['width']}x{fl['height']}); "
              f"median of the per-series floors {fl.get('series_p50_ms', fl['p50_ms']):.2f}; "
              f"target: every view p50 <= {FLOOR_FACTOR:g} floors (each row: its own floor)")
        print("\nFrames: slider change -> rendered pixels; plain path beside it "
              "(* = the view's own data drawn plainly)\n"
              + _frame_table(out["frames"], out["plain"], out["ratios"], not args.no_plain))
        print("\nWhere a frame goes (p50 ms of each part): to job = the GUI's work and the hop to the "
              "worker; job = the compute; back = the hop back; set_result = the views' own; grab = "
              "the render\n" + _split_table(out["frames"]))
    return 0


def _split_table(frames: list[dict]) -> str:
    from explorer.bench.frames import SPLIT as parts
    lines = [f"{'view':<12} {'size':>11} " + " ".join(f"{p:>10}" for p in parts)]
    for f in frames:
        split = f.get("split_ms") or {}
        cells = " ".join(f"{split[p]:>10.2f}" if p in split else f"{'-':>10}" for p in parts)
        lines.append(f"{f['view']:<12} {f['max_len']:>6}x{f['d_model']:<4} {cells}")
    return "\n".join(lines)


def _progress(frame: dict, plain: dict | None) -> None:
    """One line per view and size on stderr while the bench runs (it takes minutes)."""
    text = f"  {frame['view']:<12} {frame['max_len']:>6}x{frame['d_model']:<5} {frame['p50_ms']:7.1f} ms"
    if plain:
        text += f"   plain {plain['p50_ms']:8.1f} ms"
    print(text, file=sys.stderr, flush=True)
