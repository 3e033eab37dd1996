"""Check boxes and radio buttons whose indicators grow with the presentation scale.

Qt's styles draw a check box's square at a fixed ~13 px whatever the font: in F11, beside 1.5x-3x
text, "causal (mask future keys)" or "× √d_model" showed a faint speck a projector loses. A proxy of
the application's own style reports the indicator metrics times the scale; the style draws its
indicator into that larger square (Fusion scales its tick with it). Only the check boxes and radio
buttons take it, and only above 1x: at 1x they use the application's style, so the window's
normal drawing (and the bench's frames) are untouched.
"""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractButton, QApplication, QCheckBox, QProxyStyle, QRadioButton, QStyle, QWidget

_SCALED = (QStyle.PixelMetric.PM_IndicatorWidth, QStyle.PixelMetric.PM_IndicatorHeight,
           QStyle.PixelMetric.PM_ExclusiveIndicatorWidth, QStyle.PixelMetric.PM_ExclusiveIndicatorHeight)


class ScaledIndicators(QProxyStyle):
    """The application's style with check box and radio indicators `scale` times their size."""

    def __init__(self, base: str):
        super().__init__(base)
        self.scale = 1.0

    def pixelMetric(self, metric, option=None, widget=None) -> int:  # noqa: N802 (Qt name)
        value = super().pixelMetric(metric, option, widget)
        return round(value * self.scale) if metric in _SCALED else value


_style: list = []     # one proxy for the process, a child of the QApplication: it outlives every window


def scaled_style(scale: float) -> ScaledIndicators:
    """The shared proxy of the application's style, set to `scale`."""
    if not _style:
        app = QApplication.instance()
        style = ScaledIndicators(app.style().name())
        style.setParent(app)
        _style.append(style)
    _style[0].scale = scale
    return _style[0]


def scale_indicators(root: QWidget, scale: float) -> None:
    """Every check box and radio button under `root` (and root itself) with indicators at `scale`
    (the application's own style at 1x)."""
    style = scaled_style(scale) if scale > 1.0 else None
    buttons = [b for b in root.findChildren(QAbstractButton) if isinstance(b, (QCheckBox, QRadioButton))]
    if isinstance(root, (QCheckBox, QRadioButton)):
        buttons.append(root)
    for button in buttons:
        if style is None and button.style() is QApplication.style():
            continue
        button.setStyle(style)      # None: the application's style again
        button.updateGeometry()
        button.update()
