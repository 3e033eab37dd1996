"""Where the formula panel docks: beside the view (right) while every tab's name still fits above the
view, else under the view, so that a 1280-px window shows each tab's whole name.

At 1280 x 800 in English the control panel (325 px), the formula panel beside the view (328 px) and the
tab bar's full names (861 px) need ~1530 px: the names were cut to "Heat…", "Simi…", "Lear…" and the
last tabs scrolled. Under the view the panel takes height instead of width; wide windows (1920) and
Chinese at 1280 (shorter names) keep it on the right, as before. It goes under the view only where the
window keeps VIEW_ROOM x the presentation scale of height beside it: in F11 at 1280 x 800 (1.5x) it stays
on the right, names cut, since under the view it left the plots a few pixels high."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QStyle

RIGHT = Qt.DockWidgetArea.RightDockWidgetArea
BOTTOM = Qt.DockWidgetArea.BottomDockWidgetArea
LEFT = Qt.DockWidgetArea.LeftDockWidgetArea
FORMULA_LINES = 6          # under the view the panel shows about this many formula lines, unscrolled
MOST_OF_HEIGHT = 0.3       # ... and takes no more than this share of the window's height
VIEW_ROOM = 420            # px of the window's height (x the presentation scale) left to the rest with the panel under


class FormulaPlacer(QObject):
    """Moves `dock` between the right of the view and under it when the window is resized, the tab
    names change size (a presentation scale) or the panel is shown. A panel the user docked elsewhere
    or floated stays where it is."""

    def __init__(self, window, dock: QDockWidget):
        super().__init__(dock)
        self.window = window
        self.dock = dock
        self.placed = RIGHT            # where this placer last put the panel (lecture.py docks it right)
        self._refit = False            # size it again where it is (a new scale, another dock shown)
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self.place)
        window.installEventFilter(self)
        window.tabs.tabBar().installEventFilter(self)
        dock.visibilityChanged.connect(lambda shown: shown and self._again())    # opened: its own size
        for other in window.findChildren(QDockWidget):     # the control panel, the lesson's caption
            if other is not dock:
                other.visibilityChanged.connect(lambda _shown: self._again(under_only=True))

    def carry_from(self, old: FormulaPlacer) -> None:
        """A window rebuilt for a language switch keeps the place the user gave the panel in the old one:
        floated (at its place and size), docked in another area (at its size there) or tabbed with another
        dock; it came back beside the view. A panel where the old placer put it is placed for the new window."""
        was, dock, w = old.dock, self.dock, self.window
        if was.isFloating():
            dock.setFloating(True)
            dock.setGeometry(was.geometry())
            return
        area = old.window.dockWidgetArea(was)
        if area == old.placed:
            return
        self.placed = old.placed       # not where it is, as in the old window: place() leaves it there
        partners = [w.findChild(QDockWidget, d.objectName()) for d in old.window.tabifiedDockWidgets(was)]
        partners = [d for d in partners if d is not None and d is not dock]
        if partners:
            w.tabifyDockWidget(partners[0], dock)
            if was.isVisible() and not was.visibleRegion().isEmpty():      # its tab was the one in front
                dock.show()
                dock.raise_()
            return
        w.addDockWidget(area, dock)
        across = area in (LEFT, RIGHT)
        w.resizeDocks([dock], [was.width() if across else was.height()],
                      Qt.Orientation.Horizontal if across else Qt.Orientation.Vertical)

    def _again(self, under_only: bool = False) -> None:
        """Size the panel anew: a lesson's caption shown beside it under the view had squeezed it to
        4 of its lines (the 5th cut through), the caption hidden left it the caption's room (345 px
        in F11 at 1280 x 800), and after F11 it kept its 1.5x height at 1x. under_only (another dock
        shown or hidden): only under the view; beside it a width dragged by hand had gone back to 328 px."""
        if under_only and self.placed != BOTTOM:
            return
        if self.dock.isVisible():
            self._refit = True
            self._timer.start()

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt's name)
        if event.type() in (QEvent.Type.StyleChange, QEvent.Type.FontChange):
            self._again()
        elif event.type() == QEvent.Type.Resize and self.dock.isVisible():
            self._timer.start()
        return False

    def _side_width(self, area) -> int:
        """The width the docks in `area` other than the formula panel take from the view."""
        w = self.window
        widths = [d.width() for d in w.findChildren(QDockWidget)
                  if d is not self.dock and d.isVisible() and not d.isFloating() and w.dockWidgetArea(d) == area]
        return max(widths) + self._separator() if widths else 0

    def _separator(self) -> int:
        return self.window.style().pixelMetric(QStyle.PixelMetric.PM_DockWidgetSeparatorExtent, None, self.window)

    def rooms(self) -> tuple[int, int]:
        """(the view's width with the panel on the right, with it under the view)."""
        under = self.window.width() - self._side_width(LEFT) - self._side_width(RIGHT)
        return under - self.dock.sizeHint().width() - self._separator(), under

    def wanted_area(self) -> Qt.DockWidgetArea:
        """Right when the tab bar's whole names fit beside the panel, or fit nowhere (then the bar
        scrolls, as before); under the view when only there they fit and the view keeps its room there
        (VIEW_ROOM x the presentation scale: in F11 at 1280 x 800 the panel under the view left the Learned,
        RoPE and Offset views' plots a few pixels high; beside it, some tab names are cut instead)."""
        need = self.window.tabs.tabBar().sizeHint().width()      # every tab with its whole name
        right, under = self.rooms()
        if not right < need <= under:
            return RIGHT
        room = self.window.height() - self.bottom_height()
        return BOTTOM if room >= VIEW_ROOM * self.window.presenter.scale else RIGHT

    def place(self) -> None:
        w, dock = self.window, self.dock
        if not dock.isVisible() or dock.isFloating() or w.dockWidgetArea(dock) != self.placed:
            return                   # hidden, or moved by hand: the user's place
        area = self.wanted_area()
        refit, self._refit = self._refit, False
        if area == self.placed and not refit:
            return
        if area != self.placed:
            self.placed = area
            # under the view, the panel sits beside the control panel, which keeps the window's height
            w.setCorner(Qt.Corner.BottomLeftCorner, LEFT if area == BOTTOM else BOTTOM)
            w.addDockWidget(area, dock, Qt.Orientation.Vertical)
        if area == BOTTOM:     # (with the lesson's caption there too, each keeps its own height)
            others = [d for d in w.findChildren(QDockWidget) if d is not dock and d.isVisible()
                      and not d.isFloating() and w.dockWidgetArea(d) == BOTTOM]
            w.resizeDocks(others + [dock], [d.sizeHint().height() for d in others] + [self.bottom_height()],
                          Qt.Orientation.Vertical)
        else:
            w.resizeDocks([dock], [self.right_width()], Qt.Orientation.Horizontal)

    def right_width(self) -> int:
        """The panel's width beside the view: its own width times the presentation scale (at 1x in F11
        at 1.5x its lines wrapped every few words at 1920 px), as far as every tab's whole name still
        fits beside it; never below its own width."""
        own = self.dock.sizeHint().width()
        _, under = self.rooms()
        spare = under - self.window.tabs.tabBar().sizeHint().width() - self._separator()
        return max(own, min(int(own * self.window.presenter.scale), spare))

    def bottom_height(self) -> int:
        """Room for FORMULA_LINES lines of the (1.3x) formula, its page tabs and the dock's title."""
        panel = self.dock.widget()
        lines = self.dock.formula.fontMetrics().lineSpacing() * FORMULA_LINES
        chrome = panel.tabBar().sizeHint().height() + 2 * self.dock.fontMetrics().height() + 8
        return min(lines + chrome, int(self.window.height() * MOST_OF_HEIGHT))
