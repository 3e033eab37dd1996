"""An ImageItem whose picture is made in, and kept in, the format Qt's raster engine draws fastest."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QImage

FAST_FORMAT = QImage.Format.Format_ARGB32_Premultiplied


class ScreenImage(pg.ImageItem):
    """pg.ImageItem that colours a float picture straight into ARGB32 premultiplied.

    With a lookup table of <= 256 colours pyqtgraph renders an Indexed8 QImage: it rescales the data
    to uint8 indices, builds a 256-entry Python colour table (~0.25 ms), and QPainter.drawImage then
    converts every indexed pixel on every repaint (~0.9 ms for 256 x 64). Here the same indices (the
    same float arithmetic: (x - lo) * n / (hi - lo), clipped to [0, n - 1], truncated) get a colour
    table built once, and Qt converts the picture to ARGB32 once: 1.2 -> 0.35 ms for 512 x 512.
    Pictures this path does not cover (NaNs, colour tables with alpha, RGB data, downsampling) are
    rendered by pyqtgraph and converted once.
    """

    _table_key = None
    _table = None

    def render(self) -> None:
        if self._render_indexed():
            return
        super().render()
        if self.qimage is not None and self.qimage.format() == QImage.Format.Format_Indexed8:
            self.qimage = self.qimage.convertToFormat(FAST_FORMAT)

    def _render_indexed(self) -> bool:
        """The fast path; False (nothing done) when the picture is not a 2-D float array with
        levels and an opaque (n <= 256, 3) uint8 colour table."""
        image, lut, levels = self.image, self.lut, self.levels
        if (image is None or image.ndim != 2 or image.size == 0 or image.dtype.kind != "f"
                or not isinstance(lut, np.ndarray) or lut.dtype != np.uint8 or lut.ndim != 2
                or lut.shape[1] != 3 or not 1 <= lut.shape[0] <= 256 or levels is None
                or np.ndim(levels) != 1 or self.autoDownsample):
            return False
        if self.axisOrder == "col-major":     # pyqtgraph's default; the app sets row-major
            image = image.T
        indices = colour_indices(image, float(levels[0]), float(levels[1]), lut.shape[0])
        if indices is None:                   # NaNs are transparent: pyqtgraph's own path
            return False
        indexed = pg.functions.ndarray_to_qimage(indices, QImage.Format.Format_Indexed8)
        indexed.setColorTable(self._colours(lut))
        self.qimage = indexed.convertToFormat(FAST_FORMAT)    # Qt's own loop: ~0.1 ms for 512 x 512
        self._processingBuffer = None
        self._displayBuffer = None
        self._renderRequired = False
        self._unrenderable = False
        return True

    def _colours(self, lut: np.ndarray) -> list[int]:
        """The colour table as opaque ARGB32 words (n,), built once per table (pyqtgraph builds
        it on every render)."""
        key = lut.tobytes()
        if key != self._table_key:
            r, g, b = (lut[:, i].astype(np.uint32) for i in range(3))
            self._table = [int(v) for v in np.uint32(0xFF000000) | (r << 16) | (g << 8) | b]
            self._table_key = key
        return self._table


CHUNK_CELLS = 1 << 16    # pixels per pass of colour_indices: a 256 KB float32 chunk stays in cache


def colour_indices(image: np.ndarray, lo: float, hi: float, n: int) -> np.ndarray | None:
    """pyqtgraph's colour-table indices of a float picture: (x - lo) * n / (hi - lo) clipped to
    [0, n - 1] and truncated, in the picture's own float dtype (float32, or float64 for float64
    data), as its render computes them; (h, w) uint8, or None when the picture holds a NaN.

    A few rows at a time, so the scaled chunk stays in cache between its passes and is written
    straight into the uint8 result: ~1/2 the time of whole-picture passes at screen size."""
    work = np.float32 if np.can_cast(image, np.float32) else np.float64    # as pyqtgraph's
    scale = n / ((hi - lo) or 1.0)
    out = np.empty(image.shape, dtype=np.uint8)                              # (h, w)
    step = max(1, CHUNK_CELLS // max(1, image.shape[1]))
    chunk = np.empty((min(step, image.shape[0]), image.shape[1]), dtype=work)
    for r0 in range(0, image.shape[0], step):
        src = image[r0:r0 + step]
        scaled = chunk[:len(src)]
        np.subtract(src, lo, out=scaled, dtype=work)
        if np.isnan(scaled.min()):
            return None
        scaled *= scale
        np.clip(scaled, 0, n - 1, out=out[r0:r0 + step], casting="unsafe")   # truncates, as astype
    return out
