"""Fuzz `pe-explorer render` with random scenes, all in one process (as a deck or a script would).

    python tools/fuzz_render.py [--seed 0] [--count 400] [--rope]

Each scene sets some of one view's own fields (from `pe-explorer views --json`: their choices,
range ends, defaults, and now and then an odd value) and some shared parameters; --rope draws RoPE
scaling states instead (a rope type and only its own parameters, at valid extremes), for the RoPE,
Frequencies and Distance views. Every render must exit 0 with a file, or 2 with one line and no
traceback. Prints the failures, the renders slower than 5 s and the outcome counts per view.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ODD = [0, -1, 1, 2, 0.5, 1e308, -1e308, 1e-320, 10**30, "nan", "", "😀" * 50, None, [], {}, True,
       [1.0, 2.0], [0.0] * 33, 65536, 4097, 1.0000001, 63, 64, 1e6, "default", "yarn"]
PARAMS = {"d_model": [1, 2, 3, 7, 8, 64, 129, 4096, 8191, 8192], "max_len": [1, 2, 3, 17, 512, 32768, 65536],
          "base": [1.0000001, 2, 10000.0, 1e9], "layout": ["interleaved", "concat", "t2t"],
          "dtype": ["float32", "float64"], "metric": ["cosine", "dot", "euclidean"],
          "seed": [0, 1, 2**31 - 1], "text": ["", "😀" * 3, "a" * 5000, "中文测试", "\u200b\u0301", "x"]}
# Each rope type's own parameters (explorer.backend.rope_scaling; transformers' ROPE_INIT_FUNCTIONS)
ROPE_TYPES = {"default": [], "linear": ["factor"],
              "dynamic": ["factor", "original_max_len", "max_position_embeddings", "seq_len"],
              "yarn": ["factor", "original_max_len", "beta_fast", "beta_slow", "mscale", "mscale_all_dim",
                       "attention_factor", "max_position_embeddings"],
              "longrope": ["short_factor", "long_factor", "original_max_len", "attention_factor",
                           "max_position_embeddings", "factor", "seq_len"],
              "llama3": ["factor", "low_freq_factor", "high_freq_factor", "original_max_len"]}


def view_state(row: dict, rng: random.Random) -> dict:
    state = {}
    for f in row["state"]:
        r = rng.random()
        if r < 0.45:
            continue
        if r < 0.92 and f.get("choices"):
            state[f["name"]] = rng.choice(f["choices"])
        elif r < 0.92 and f.get("range"):
            lo, hi = f["range"]
            state[f["name"]] = rng.choice([lo, hi, (lo + hi) / 2, lo + 1])
        else:
            state[f["name"]] = f["default"] if rng.random() < 0.5 else rng.choice(ODD)
    return state


def rope_state(row: dict, rng: random.Random) -> dict:
    fields = {f["name"]: f for f in row["state"]}
    kind = rng.choice(list(ROPE_TYPES))
    state = {"rope_type": kind}
    head_dim = rng.choice([2, 4, 8, 64, 128, 256])
    if "head_dim" in fields:
        state["head_dim"] = head_dim
    for name in ROPE_TYPES[kind]:
        if name not in fields or rng.random() < 0.2:
            continue
        if name in ("short_factor", "long_factor"):
            n = head_dim // 2 if rng.random() < 0.8 else rng.choice([1, 3])
            state[name] = [rng.choice([0.5, 1.0, 2.0, 1e3, 1e-3, 1.0001]) for _ in range(n)]
        elif fields[name].get("range"):
            lo, hi = fields[name]["range"]
            state[name] = rng.choice([lo, hi, lo + 1, 2, 4.0, 8, 32.0, 0.5, 4096, 8192, 1e-3])
    return state


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=400)
    ap.add_argument("--rope", action="store_true", help="RoPE scaling states (rope, frequencies, distance)")
    args = ap.parse_args()
    from explorer import catalogue
    from explorer.commands.render import render_main

    rows = catalogue.describe()
    if args.rope:
        rows = [r for r in rows if r["name"] in ("rope", "frequencies", "distance")]
    rng = random.Random(args.seed)
    outcomes, failures = Counter(), []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.count):
            row = rng.choice(rows)
            scene = {"version": 2, "view": row["name"], "cursor": rng.choice([None, None, None, 0, 5]),
                     "params": {k: rng.choice(v) for k, v in PARAMS.items() if rng.random() < 0.3},
                     "views": {row["name"]: (rope_state if args.rope else view_state)(row, rng)},
                     "title": {"en": "", "zh_CN": ""}, "explain": {"en": "", "zh_CN": ""}}
            path, out = Path(tmp) / f"s{i}.json", Path(tmp) / f"o{i}.png"
            path.write_text(json.dumps(scene), encoding="utf-8")
            err, start = io.StringIO(), time.perf_counter()
            try:
                with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                    rc = render_main(["--scene", str(path), "-o", str(out), "--size", "1000x700"])
            except BaseException as exc:  # what must never happen: say which scene
                rc = f"raised {type(exc).__name__}: {exc}"
            seconds, text = time.perf_counter() - start, err.getvalue()
            ok = (rc == 0 and out.exists()) or (rc == 2 and text.count("\n") == 1 and "Traceback" not in text)
            outcomes[row["name"], rc if isinstance(rc, int) else "raised"] += 1
            if not ok or seconds > 5:
                failures.append(f"{'SLOW' if ok else 'BAD'} {seconds:.1f} s rc {rc}: {text[-300:]!r} {json.dumps(scene)[:600]}")
            out.unlink(missing_ok=True)
    print(f"{args.count} scenes, {sum(f.startswith('BAD') for f in failures)} bad, "
          f"{sum(f.startswith('SLOW') for f in failures)} slow")
    print("\n".join(failures[:20]))
    print(" ".join(f"{view}:{rc}={n}" for (view, rc), n in sorted(outcomes.items(), key=str)))
    return 1 if any(f.startswith("BAD") for f in failures) else 0


if __name__ == "__main__":
    raise SystemExit(main())
