"""File menu: scenes and decks (open/save), view exports (PNG/SVG, CSV/NPY, clipboard)."""

from __future__ import annotations

import traceback
from dataclasses import replace

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QInputDialog,
    QMessageBox,
    QProgressDialog,
)

from explorer import scenes
from explorer.errors import InputError, error_text, internal_error
from explorer.translations import fill
from explorer.ui.i18n import current_language


def apply_scene(window, scene) -> None:
    """Show a scene: its whole State (params, every view's settings, the view, the cursor, the colour map;
    a scene that names no colour map keeps the window's). The scene was validated when loaded."""
    state = scene.state if scene.colormap_given else replace(scene.state, colormap=window.colormap)
    window.controller.set_state(state)


def current_scene(window):
    """The window's State as a Scene."""
    return scenes.make_scene(window.controller.state)


class FileActions(QObject):
    """Builds the File menu's scene and export actions on `window`."""

    def __init__(self, window, menu):
        super().__init__(window)
        self.window = window
        self.last_dir = ""
        items = [
            (self.tr("&Open scene or deck…"), "Ctrl+O", self.open_scene),
            (self.tr("&Save scene…"), "Ctrl+S", self.save_scene),
            (None, None, None),
            (self.tr("Export view as &image (PNG/SVG)…"), "Ctrl+E", self.export_image),
            (self.tr("Export view &data (CSV/NPY)…"), "Ctrl+Shift+E", self.export_data),
            (self.tr("&Copy view image"), "Ctrl+Shift+C", self.copy_image),
            (self.tr("Export full-size &PE table (CSV/NPY)…"), "", lambda: self.export_full("pe")),
            (self.tr("Export full-size si&milarity matrix (CSV/NPY)…"), "",
             lambda: self.export_full("similarity")),
            (None, None, None),
        ]
        first = menu.actions()[0] if menu.actions() else None
        for text, keys, slot in items:
            if text is None:
                menu.insertSeparator(first)
                continue
            act = QAction(text, window)
            if keys:
                act.setShortcut(QKeySequence(keys))
            act.triggered.connect(lambda _=False, slot=slot: self._guard(slot))
            menu.insertAction(first, act)

    def _guard(self, slot) -> None:
        """Run an action; a refusal becomes a message box, never a traceback."""
        try:
            slot()
        except InputError as exc:
            QMessageBox.warning(self.window, self.tr("PE Explorer"), error_text(exc, current_language()))
        except Exception as exc:  # a bug of ours: named in one line, the window stays usable
            traceback.print_exc()
            QMessageBox.warning(self.window, self.tr("PE Explorer"), internal_error(exc, current_language()))

    def _view(self):
        return self.window.views[self.window.controller.state.view]

    def _ask_save(self, title: str, filters: str, suggested: str) -> str:
        path, _ = QFileDialog.getSaveFileName(self.window, title, self.last_dir + suggested,
                                              filters)
        if path:
            self.last_dir = path.rsplit("/", 1)[0] + "/" if "/" in path else ""
        return path

    def open_scene(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.window, self.tr("Open scene or deck"),
                                              self.last_dir, self.tr("Scenes (*.json)"))
        if not path:
            return
        deck = scenes.load_deck(path)          # a single scene loads as a one-scene deck
        lecture = getattr(self.window, "lecture", None)
        if len(deck) > 1 and hasattr(lecture, "set_deck"):
            lecture.set_deck(deck)
        else:
            if hasattr(lecture, "end"):       # a lesson running: it ends, and this scene is what stays
                lecture.end()
            apply_scene(self.window, deck[0])
        self.window.statusBar().showMessage(fill(self.tr("Opened %1"), path), 5000)

    def save_scene(self) -> None:
        path = self._ask_save(self.tr("Save scene"), self.tr("Scenes (*.json)"),
                              "scene.json")
        if path:
            if not path.lower().endswith(".json"):
                path += ".json"
            scenes.save_scene(path, current_scene(self.window))
            self.window.statusBar().showMessage(fill(self.tr("Saved %1"), path), 5000)

    def export_image(self) -> None:
        from explorer.ui.export import export_view_image

        path = self._ask_save(self.tr("Export view as image"),
                              self.tr("PNG image (*.png);;SVG drawing (*.svg)"),
                              f"{self._view().title}.png")
        if not path:
            return
        dpi = 144
        if path.lower().endswith(".png"):
            dpi, ok = QInputDialog.getInt(self.window, self.tr("Resolution"),
                                          self.tr("Dots per inch (96 = screen size)"),
                                          192, 48, 600, 24)
            if not ok:
                return
        export_view_image(self._view(), path, dpi)
        self.window.statusBar().showMessage(fill(self.tr("Saved %1"), path), 5000)

    def export_data(self) -> None:
        from explorer.ui.export import export_view_data

        path = self._ask_save(self.tr("Export view data"),
                              self.tr("CSV table (*.csv);;NumPy array (*.npy);;"
                                      "All arrays of the view (*.npz)"),
                              f"{self._view().title}.csv")
        if path:
            export_view_data(self._view(), path)
            self.window.statusBar().showMessage(fill(self.tr("Saved %1"), path),
                                                5000)

    def export_full(self, kind: str) -> None:
        """The whole max_len-row table, written in blocks with a cancellable progress dialog."""
        from explorer.backend.full_export import Cancelled, export_full, full_shape

        params = self.window.controller.params
        rows, cols = full_shape(kind, params)
        path = self._ask_save(self.tr("Export full-size table"),
                              self.tr("NumPy array (*.npy);;CSV table (*.csv)"),
                              f"{kind}_{rows}x{cols}.npy")
        if not path:
            return
        dialog = QProgressDialog(fill(self.tr("Writing %1 × %2 values…"), f"{rows:,}", f"{cols:,}"), self.tr("Cancel"),
                                 0, 1000, self.window)
        dialog.setWindowTitle(self.tr("Export full-size table"))     # the File menu's words (it had none)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(300)

        def progress(fraction: float) -> None:
            dialog.setValue(int(fraction * 1000))
            QApplication.processEvents()

        try:
            export_full(kind, params, path, progress, dialog.wasCanceled)
        except Cancelled:
            self.window.statusBar().showMessage(self.tr("Export cancelled; nothing was written"),
                                                5000)
            return
        finally:
            dialog.close()
        self.window.statusBar().showMessage(fill(self.tr("Saved %1"), path), 5000)

    def copy_image(self) -> None:
        from explorer.ui.export import copy_view_image

        copy_view_image(self._view(), 144)
        self.window.statusBar().showMessage(self.tr("View image copied"), 3000)
