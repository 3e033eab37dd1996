"""File → Open model…: open a Hugging Face folder or a .gguf file off the GUI thread, then show it.

Opening reads headers only, on a thread of its own, under a progress dialog with Cancel. Only a load
that finished, was not cancelled and is still the newest changes the State (model spec, embedding
source "model"); a refusal is one line in the status bar and nothing else changes.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMenu, QProgressDialog

from explorer.compute import models
from explorer.errors import InputError, error_text, localized, msg
from explorer.translations import fill, number_text
from explorer.ui.gc_pauses import without_collections
from explorer.ui.i18n import current_language
from explorer.ui.idle_wait import wait_until_idle
from explorer.ui.views.rope_words import rope_parts

MODEL_FILTER = "*.gguf config.json *.safetensors model.safetensors.index.json"
SHOW_AFTER_MS = 300       # a quick open shows no dialog at all
DEFAULT_TEXTS = {"zh_CN": "注意力机制需要位置信息"}     # the window's first sentence per UI language


def default_state():
    """The window's default State: Params' defaults, with a sentence in the UI's language (English
    keeps Params' own default, so the Qt-free defaults stay what scenes and the CLI assume)."""
    from explorer.state import State
    from explorer.ui.i18n import current_language

    text = DEFAULT_TEXTS.get(current_language())
    state = State()
    return state.with_params(text=text) if text else state


class _LoadSignals(QObject):
    done = Signal(int, str, object, str)     # (ticket, spec, model or None, error)


class _Load(QRunnable):
    def __init__(self, ticket: int, spec: str, text: str, signals: _LoadSignals, lang: str = "en"):
        super().__init__()
        self.ticket, self.spec, self.text, self.signals = ticket, spec, text, signals
        self.lang = lang                            # the UI's language, for a refusal
        self.setAutoDelete(True)

    @without_collections
    def run(self) -> None:
        try:
            model = models.open_cached(self.spec)
            model.tokenize(self.text[:2000])        # the tokenizer works on this machine
            self.signals.done.emit(self.ticket, self.spec, model, "")
        except InputError as exc:
            self.signals.done.emit(self.ticket, self.spec, None, " ".join(error_text(exc, self.lang).splitlines()))
        except Exception as exc:  # noqa: BLE001 - a damaged file must not end the window
            self.signals.done.emit(self.ticket, self.spec, None,
                                   localized(msg("cannot open %1: %2: %3", self.spec, type(exc).__name__,
                                                 exc), self.lang).splitlines()[0])


class ModelActions(QObject):
    """The File menu's model entries on `window`, and the loader behind them."""

    loaded = Signal(str)          # spec, once shown
    failed = Signal(str)          # the one-line reason

    def __init__(self, window, menu):
        super().__init__(window)
        self.window = window
        self.last_dir = ""
        self.ticket = 0
        self.busy = False
        self.dialog: QProgressDialog | None = None
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._signals = _LoadSignals()
        self._signals.done.connect(self._on_done)
        first = menu.actions()[0] if menu.actions() else None
        self.open_action = QAction(self.tr("Open &model…"), window)
        self.open_action.setShortcut("Ctrl+M")
        self.open_action.triggered.connect(self.ask_file)
        self.folder_action = QAction(self.tr("Open model &folder…"), window)
        self.folder_action.triggered.connect(self.ask_folder)
        for act in (self.open_action, self.folder_action):
            menu.insertAction(first, act)
        self.submenu = QMenu(self.tr("Mo&del"), menu)
        menu.insertMenu(first, self.submenu)
        self.shipped = {}
        for spec, text in (("smollm2", self.tr("SmolLM2-135M (shipped, RoPE)")),
                           ("minilm", self.tr("all-MiniLM-L6-v2 (shipped, learned positions)"))):
            act = QAction(text, window)
            act.triggered.connect(lambda _=False, spec=spec: self.open_spec(spec))
            self.submenu.addAction(act)
            self.shipped[spec] = act
        self.submenu.addSeparator()
        self.close_action = QAction(self.tr("&No model (untrained table)"), window)
        self.close_action.triggered.connect(self.no_model)
        self.submenu.addAction(self.close_action)
        self.settings_action = QAction(self.tr("Use the opened model's &settings in the views"), window)
        self.settings_action.triggered.connect(self.use_model_settings)
        self.submenu.addAction(self.settings_action)
        self.submenu.aboutToShow.connect(self.update_shipped)
        menu.insertSeparator(first)
        self.update_shipped()

    def update_shipped(self) -> None:
        """Grey out a shipped model that is not installed; its tooltip says how to install it."""
        from explorer.backend.models.shipped import smollm2_missing
        from explorer.backend.pretrained import minilm_available

        self.submenu.setToolTipsVisible(True)
        self.settings_action.setEnabled(bool(self.window.controller.params.model))
        for spec, reason in (("smollm2", smollm2_missing()), ("minilm", minilm_available())):
            act = self.shipped[spec]
            act.setEnabled(reason is None)
            text = localized(reason, current_language()) if reason else ""
            act.setToolTip(text)
            act.setStatusTip(text)

    # asking -------------------------------------------------------------------------------------
    def ask_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.window, self.tr("Open model: a .gguf file, or a file of a Hugging Face folder"),
            self.last_dir, fill(self.tr("Models (%1);;All files (*)"), MODEL_FILTER))
        if path:
            self.last_dir = path.rsplit("/", 1)[0]
            self.open_spec(path)

    def ask_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self.window, self.tr("Open a Hugging Face model folder"),
                                                self.last_dir)
        if path:
            self.last_dir = path
            self.open_spec(path)

    def no_model(self) -> None:
        """Back to no model: the untrained table (the model spec is dropped from the State)."""
        c = self.window.controller
        source = "untrained" if c.params.embedding_source == "model" else c.params.embedding_source
        c.update(model="", embedding_source=source)

    def use_model_settings(self) -> None:
        """The opened model's d_model, context, heads and RoPE (or ALiBi heads) in every view, as a preset of it
        would set them (explorer.model_settings); the status bar says what was set, or why not in one line."""
        from explorer.model_settings import model_preset_applied, preset_of_model, settings_line

        c, lang = self.window.controller, current_language()
        config = models.open_config(c.params.model) if c.params.model else None
        if config is None:
            self.window.statusBar().showMessage(self.tr("Open a model first: its settings are read from it"), 8000)
            return
        try:
            preset = preset_of_model(config)               # (made once: its frequencies are checked)
            state = model_preset_applied(c.state, preset)
        except InputError as exc:
            self.window.statusBar().showMessage(error_text(exc, lang), 10000)
            return
        c.set_state(state)
        self.window.statusBar().showMessage(fill(self.tr("The views now use the model's own settings: %1"),
                                                 settings_line(preset, config, lang)), 15000)

    # loading ------------------------------------------------------------------------------------
    def open_spec(self, spec: str) -> None:
        """Open spec off the GUI thread under a cancellable progress dialog; show it when done."""
        self.ticket += 1
        self.busy = True
        name = models.display_name(spec) if spec.strip() else spec
        self._close_dialog()
        dialog = QProgressDialog(fill(self.tr("Opening %1… (reading headers only)"), name),
                                 self.tr("Cancel"), 0, 0, self.window)
        dialog.setWindowTitle(self.tr("Open model"))
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.canceled.connect(self.cancel)
        dialog.hide()                    # shown only if the load takes longer than SHOW_AFTER_MS
        self.dialog = dialog
        QTimer.singleShot(SHOW_AFTER_MS, self, lambda ticket=self.ticket: self._show_dialog(ticket))
        self._pool.start(_Load(self.ticket, spec, self.window.controller.params.text, self._signals,
                                      current_language()))

    def _show_dialog(self, ticket: int) -> None:
        if ticket == self.ticket and self.busy and self.dialog is not None:
            self.dialog.show()

    def cancel(self) -> None:
        """Forget the running load: its model is dropped when it arrives and the State stays."""
        self.ticket += 1
        self.busy = False
        self._close_dialog()
        self.window.statusBar().showMessage(self.tr("Opening the model was cancelled; nothing changed"), 6000)

    def _close_dialog(self) -> None:
        if self.dialog is not None:
            self.dialog.canceled.disconnect(self.cancel)
            self.dialog.close()
            self.dialog.deleteLater()
            self.dialog = None

    def _on_done(self, ticket: int, spec: str, model, error: str) -> None:
        if ticket != self.ticket:                    # cancelled or superseded
            if model is not None and spec != self.window.controller.params.model:
                models.forget(spec)
            return
        self.busy = False
        self._close_dialog()
        if model is None:
            text = fill(self.tr("Cannot open the model: %1"), error)
            self.window.statusBar().showMessage(text, 15000)
            self.failed.emit(error)
            return
        c = self.window.controller
        if not c.update(model=spec, embedding_source="model"):
            return
        self.window.statusBar().showMessage(self.opened_text(model), 8000)
        self.loaded.emit(spec)

    def opened_text(self, model) -> str:
        """'Opened model NAME (model type, d = 576, 9 heads, RoPE base 100000)' in the UI's language."""
        c = model.config
        where = (fill(self.tr("encoder; sinusoidal positions computed from config (%1, from row %2 = pad_token_id "
                              "+ 1)"), str(c.max_positions), str(c.position_offset)) if c.family == "m2m_100" else
                 fill(self.tr("sinusoidal positions computed from config (%1, from row %2)"), str(c.max_positions),
                      str(c.position_offset)) if c.computed_positions else    # (XGLM's: models.xglm)
                 fill(self.tr("encoder; learned positions (%1, from row %2)"), str(c.max_positions),
                      str(c.position_offset)) if c.family == "bart" else            # (BART's, mBART's: models.bart)
                 fill(self.tr("learned positions (%1, from row %2)"), str(c.max_positions), str(c.position_offset))
                 if c.position == "learned" and c.position_offset else
                 fill(self.tr("learned positions (%1)"), str(c.max_positions)) if c.position == "learned"
                 else self.tr("ALiBi: nothing added at the input, a bias on each head's scores")
                 if c.position == "alibi"
                 else fill(self.tr("encoder; relative position bias: nothing added at the input, a learned "
                                   "bias per head and bucket of n − m, key minus query (%1 buckets) on the scores"),
                           str(c.relative_buckets[0]))
                 if c.position == "relative"
                 else fill(self.tr("RoPE base %1"), number_text(c.rope_base, 6))
                 + "".join(self.tr(", ") + part
                           for part in rope_parts(c.rope_type_label, c.partial_rotary_factor,
                                                  neighbour_pairs=c.rope_interleaved,
                                                  yarn_unrounded=c.yarn_unrounded,
                                                  decoupled=c.decoupled_rope, mrope=c.mrope,
                                                  still_pairs=c.still_pairs)))
        return fill(self.tr("Opened model %1 (%2, d = %3, %4 heads, %5)"), model.name, c.model_type, str(c.d_model),
                    str(c.n_heads), where)

    def wait_idle(self, timeout_ms: int = 60000) -> bool:
        """Block until the load finished and its result was handled (tests)."""
        return wait_until_idle(lambda: self.busy, timeout_ms)

    def shutdown(self) -> None:
        self.ticket += 1
        self._close_dialog()
        self._pool.waitForDone(5000)
