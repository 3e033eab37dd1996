"""Regenerate the README's screenshots: python tools/screenshots.py [--lang zh_CN] [--size 1280x800] [--out DIR]."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SCALING_PRESET = "llama-3.1-8b"     # rope_scaling.png: the RoPE view's scaling page for this preset
P_ROPE_PRESET = "gemma-4-global"    # rope_prope.png: the same page for Gemma 4's p-RoPE (proportional)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lang", default="en")
    ap.add_argument("--size", default="1280x800")
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    ap.add_argument("--suffix", default="")
    ap.add_argument("--scale", type=float, default=1.0, help="presentation scale (1 to 3)")
    args = ap.parse_args()
    from PySide6.QtCore import QSettings

    from explorer.ui.app import make_app
    from explorer.ui.i18n import install_translator
    from explorer.ui.main_window import MainWindow
    from shot_window import wait_for_device_probe       # (tools/, beside this script)

    app = make_app()
    install_translator(app, args.lang)
    with tempfile.TemporaryDirectory() as tmp:
        window = MainWindow(settings=QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
        window.resize(*(int(v) for v in args.size.split("x")))
        window.show()
        if args.scale != 1.0:
            window.presenter.set_scale(args.scale)
        wait_for_device_probe(app, window)
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        def shoot(name: str, file: str) -> None:
            window.tabs.setCurrentIndex(list(window.views).index(name))
            app.processEvents()
            window.controller.wait_idle()
            window.controller.set_cursor(40)
            app.processEvents()
            window.grab()       # a first paint may widen an axis to its labels: lay that out first
            app.processEvents()
            window.grab().save(str(out / f"{file}{args.suffix}.png"))

        for name in window.views:
            shoot(name, name)
        # the README's RoPE section: the scaling page as a model preset sets it (last: a preset
        # sets every view's values)
        window.choose_preset(SCALING_PRESET)
        shoot("rope", "rope_scaling")
        window.choose_preset(P_ROPE_PRESET)
        shoot("rope", "rope_prope")
        window.close()
    print(f"wrote {len(window.views) + 2} screenshots to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
