"""Run the fuzz targets with the long hypothesis profile (>= 10,000 examples per target).

    python tools/fuzz_long.py            # all fuzz files, prints per-target figures
    python tools/fuzz_long.py -k cli     # extra arguments go to pytest

The quick CI profile of the same tests runs with the normal suite. Figures go in RELIABILITY.md.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = ["tests/test_fuzz_params.py", "tests/test_fuzz_cli.py", "tests/test_fuzz_text.py",
         "tests/test_models_fuzz.py", "tests/test_models_gguf_bad.py", "tests/test_tokens_qwen.py",
         "tests/test_backend_rope_scaling.py", "tests/test_fuzz_check.py"]


def main(argv: list[str] | None = None) -> int:
    extra = list(sys.argv[1:] if argv is None else argv)
    env = dict(os.environ, PE_FUZZ_PROFILE=os.environ.get("PE_FUZZ_PROFILE", "long"), QT_QPA_PLATFORM="offscreen",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    cmd = [sys.executable, "-m", "pytest", *FILES, "-q", "-p", "no:cacheprovider",
           "--hypothesis-show-statistics", "--durations=0",
           "-o", "faulthandler_timeout=0", *extra]   # one long target runs past the 300 s per-test limit
    print("running:", " ".join(cmd), flush=True)
    t0 = time.monotonic()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    elapsed = time.monotonic() - t0
    out = proc.stdout + proc.stderr
    print(out)
    print("\nper-target figures:")
    for target, block in re.findall(r"^(tests/\S+):\n(.*?)(?=^tests/|^=|\Z)", out, flags=re.M | re.S):
        counts = [tuple(map(int, c)) for c in
                  re.findall(r"(\d+) passing, (\d+) failing, and (\d+) invalid", block)]
        seconds = sum(float(x) for x in re.findall(r"phase \(([\d.]+) seconds\)", block))
        passing, failing, invalid = (sum(c[i] for c in counts) for i in range(3))
        stop = re.search(r"Stopped because (.*)", block)
        print(f"  {target}: {passing} passing, {failing} failing, {invalid} invalid, {seconds:.0f} s"
              f" ({stop.group(1).strip() if stop else '?'})")
    print(f"\npytest exit code {proc.returncode}; {elapsed / 60:.1f} min")
    return proc.returncode


if __name__ == "__main__":
    raise SystemExit(main())
