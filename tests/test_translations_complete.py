"""Every visible string has its Chinese, and the committed .ts/.qm match the source."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_translations_check_passes():
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "translations.py"), "--check"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "0 problem(s)" in proc.stdout
