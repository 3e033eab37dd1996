"""What the self-test reads from a grabbed view's pixels: how many colours it has, and how much of it differs
from the same view left empty (explorer.commands.selftest). Qt and numpy are imported when called.
"""

from __future__ import annotations


def image_colours(image) -> tuple[int, int]:
    """(distinct colours, distinct non-grey colours) of a QImage."""
    import numpy as np
    from PySide6.QtGui import QImage

    img = image.convertToFormat(QImage.Format.Format_RGB32)
    h, w, stride = img.height(), img.width(), img.bytesPerLine()
    if h == 0 or w == 0:
        return 0, 0
    raw = np.frombuffer(img.constBits(), dtype=np.uint8, count=stride * h)
    px = raw.reshape(h, stride)[:, : 4 * w].reshape(h, w, 4)[..., :3].astype(np.int32)  # (h, w, 3) BGR
    packed = np.unique((px[..., 0] << 16) | (px[..., 1] << 8) | px[..., 2])               # (k,)
    rgb = np.stack([(packed >> 16) & 255, (packed >> 8) & 255, packed & 255], axis=1)     # (k, 3)
    chroma = rgb.max(axis=1) - rgb.min(axis=1)                                             # (k,)
    return int(packed.size), int((chroma > 24).sum())


def changed_fraction(a, b) -> float:
    """Fraction of pixels that differ between two QImages (1.0 when their sizes differ)."""
    import numpy as np
    from PySide6.QtGui import QImage

    if a.size() != b.size():
        return 1.0
    arrays = []
    for img in (a, b):
        img = img.convertToFormat(QImage.Format.Format_RGB32)
        raw = np.frombuffer(img.constBits(), dtype=np.uint8, count=img.bytesPerLine() * img.height())
        arrays.append(raw.reshape(img.height(), -1)[:, : 4 * img.width()].reshape(img.height(), img.width(), 4))
    return float((arrays[0][..., :3] != arrays[1][..., :3]).any(axis=2).mean())


def blank_grab(view, colormap: str):
    """The same kind of view, same size and colour map, with nothing computed: what 'blank' looks like."""
    from PySide6.QtCore import QCoreApplication

    from explorer.ui.views.bar_span import settle as settle_bars

    blank = type(view)()
    try:
        blank.set_colormap(colormap)
        blank.resize(view.size())
        blank.show()
        QCoreApplication.processEvents()
        settle_bars()                  # colour bars follow their plots after the layout pass
        return blank.grab().toImage()
    finally:
        blank.close()
        blank.deleteLater()
