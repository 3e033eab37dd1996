"""Every visible string has its Chinese, and the committed .ts/.qm match the source."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_translations_check_passes():
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "translations.py"), "--check"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "0 problem(s)" in proc.stdout


@pytest.mark.parametrize("x, text", [(54410.14, "54,410"), (54437.2, "54,440"), (123456789, "1.235e+08"),
                                     (99999.9, "100,000"), (9999.5, "10,000"), (-9999.95, "-10,000"), (-0.0, "0"),
                                     (4.545e9, "4.545e+09"), (6.2832, "6.283"), (9999.4, "9999"), (1e4, "10,000"),
                                     (-2.5e5, "-250,000"), (1e20, "1e+20"), (1.234e-4, "0.0001234"),
                                     (float("inf"), "inf"), (float("nan"), "nan")])
def test_number_text_writes_big_numbers_out_whole(x, text):
    """To four significant figures, as "%.4g" was: a lane label that moves with the base changes
    no more often than before (every digit of "54,437" changing re-laid out Curves' axis each step)."""
    from explorer.translations import number_text

    assert number_text(x) == text


def test_number_text_writes_a_base_to_six_figures():
    from explorer.translations import number_text

    assert [number_text(b, 6) for b in (10000.0, 12345.0, 500000.0, 1e6, 2532929.0, 1e8, 100.0)] == \
        ["10,000", "12,345", "500,000", "1,000,000", "2,532,930", "1e+08", "100"]
