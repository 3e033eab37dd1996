"""Screenshots of the check view (offscreen): python tools/check_screenshots.py OUT_DIR FILE... [--lang zh_CN]
[--size 1280x800]. Each FILE is opened with File → Check my table… and the window grabbed as PNG."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--lang", default="en")
    ap.add_argument("--size", default="1280x800")
    args = ap.parse_args(argv)
    import tempfile

    from PySide6.QtCore import QSettings, QThreadPool

    from explorer.ui.app import make_app
    from explorer.ui.i18n import install_translator
    from explorer.ui.main_window import MainWindow
    from shot_window import wait_for_device_probe       # (tools/, beside this script)

    app = make_app()
    install_translator(app, args.lang)
    store = QSettings(str(Path(tempfile.mkdtemp()) / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings=store)
    w, h = (int(v) for v in args.size.split("x"))
    window.resize(w, h)
    window.show()
    wait_for_device_probe(app, window)
    Path(args.out).mkdir(parents=True, exist_ok=True)      # QPixmap.save into a missing folder fails quietly
    for f in args.files:
        path, _, key = f.partition(":")
        window.check_actions.open_file(path, key or None)
        window.check_actions.wait_idle()
        window.controller.wait_idle()
        app.processEvents()
        name = f"{Path(path).stem}{'_' + key if key else ''}_{args.lang}_{args.size}.png"
        window.grab().save(str(Path(args.out) / name))
        print(name, window.statusBar().currentMessage())
    window.close()
    QThreadPool.globalInstance().waitForDone(10_000)     # the device probe may be importing torch
    return 0


if __name__ == "__main__":
    sys.exit(main())
