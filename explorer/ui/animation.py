"""Animation: sweep one parameter (cursor, base, d_model, offset k) at a chosen speed with a QTimer.

A tick is skipped while the controller still computes the previous step, so the sweep never queues
work faster than results arrive (it obeys the frame budget instead of piling up requests).
"""

from __future__ import annotations

import math

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QComboBox, QLabel, QPushButton, QSpinBox, QToolBar

from explorer.translations import number_text

PARAMETERS = ("cursor", "base", "d_model", "offset")
BASE_GRID = tuple(float(f"{10 ** (e / 8):.4g}") for e in range(3, 49))  # 2.37 .. 1e6, 8 per decade
D_MODEL_GRID = tuple(range(2, 513, 2))


def next_value(name: str, current, max_len: int):
    """The value after `current` in the sweep of `name`, or None at the end."""
    if name in ("cursor", "offset"):
        nxt = (current or 0) + 1
        return nxt if nxt < max_len else None
    grid = BASE_GRID if name == "base" else D_MODEL_GRID
    later = [v for v in grid if v > current * (1 + 1e-9)]
    return later[0] if later else None


class Animator(QObject):
    """Steps one parameter of a main window per timer tick."""

    stepped = Signal(str, object)     # (parameter, new value)
    running_changed = Signal(bool)

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.parameter = "cursor"
        self.speed = 4.0              # steps per second
        self.skipped = 0              # ticks skipped because a result was still being computed
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.tick)

    @property
    def running(self) -> bool:
        return self.timer.isActive()

    def set_speed(self, steps_per_second: float) -> None:
        self.speed = max(0.1, min(60.0, float(steps_per_second)))
        self.timer.setInterval(max(1, round(1000 / self.speed)))

    def set_parameter(self, name: str) -> None:
        if name not in PARAMETERS:
            raise ValueError(f"cannot animate {name!r}; choose one of {', '.join(PARAMETERS)}")
        self.parameter = name

    def play(self) -> None:
        if not self.running:
            if self.current() is not None and next_value(self.parameter, self.current(),
                                                         self._limit()) is None:
                self._restart()
            self.set_speed(self.speed)
            self.timer.start()
            self.running_changed.emit(True)

    def pause(self) -> None:
        if self.running:
            self.timer.stop()
            self.running_changed.emit(False)

    def toggle(self) -> None:
        self.pause() if self.running else self.play()

    # one parameter ------------------------------------------------------------------------------
    def _limit(self) -> int:
        return self.window.controller.params.max_len

    def current(self):
        c = self.window.controller
        if self.parameter == "cursor":
            return c.cursor or 0
        if self.parameter == "offset":
            return c.state.views["offset"].offset
        return getattr(c.params, self.parameter)

    def _restart(self) -> None:
        first = {"cursor": 0, "offset": 0, "base": BASE_GRID[0], "d_model": D_MODEL_GRID[0]}
        self._apply(first[self.parameter])

    def _apply(self, value) -> None:
        c = self.window.controller
        if self.parameter == "cursor":
            c.set_cursor(int(value))
        elif self.parameter == "offset":
            c.update_view("offset", offset=int(value))         # the offset view, when open, follows
        elif self.parameter == "d_model":
            c.update(d_model=int(value))          # curve pairs follow (State.with_params)
        else:
            c.update(base=float(value))
        self.stepped.emit(self.parameter, value)

    def tick(self) -> None:
        """One step, unless the last one is still being computed; stops at the end of the range."""
        c = self.window.controller
        if c._busy or c._pending:
            self.skipped += 1
            return
        current = self.current()
        if current is None:
            self.pause()
            return
        value = next_value(self.parameter, current, self._limit())
        if value is None or (isinstance(value, float) and not math.isfinite(value)):
            self.pause()
            return
        self._apply(value)


class AnimationBar(QToolBar):
    """Parameter, speed and play/pause for an Animator."""

    def __init__(self, animator: Animator, parent=None):
        super().__init__(parent)
        self.setObjectName("animationBar")
        self.animator = animator
        self.label = QLabel()
        self.choice = QComboBox()
        self.speed = QSpinBox()
        self.speed.setRange(1, 30)
        self.speed.setValue(int(animator.speed))
        self.play_button = QPushButton()
        self.value = QLabel(" ")
        self.value.setMinimumWidth(90)
        for widget in (self.label, self.choice, self.speed, self.play_button, self.value):
            self.addWidget(widget)
        self.choice.currentIndexChanged.connect(
            lambda i: animator.set_parameter(PARAMETERS[i]) if i >= 0 else None)
        self.speed.valueChanged.connect(animator.set_speed)
        self.play_button.clicked.connect(animator.toggle)
        animator.running_changed.connect(lambda _: self.retranslate_ui())
        animator.stepped.connect(lambda name, v: self.value.setText(
            f"{name} = {number_text(v)}" if isinstance(v, float) else f"{name} = {v}"))
        self.retranslate_ui()

    def retranslate_ui(self) -> None:
        self.setWindowTitle(self.tr("Animation"))
        self.label.setText(self.tr("Animate:"))
        names = [self.tr("position cursor"), self.tr("base"), self.tr("d_model"),
                 self.tr("offset k (Relative offset view)")]
        index = max(0, PARAMETERS.index(self.animator.parameter))
        self.choice.blockSignals(True)
        self.choice.clear()
        self.choice.addItems(names)
        self.choice.setCurrentIndex(index)
        self.choice.blockSignals(False)
        self.speed.setSuffix(self.tr(" steps/s"))
        self.play_button.setText(self.tr("Pause") if self.animator.running else self.tr("Play"))
        self.play_button.setToolTip(self.tr("Play or pause the sweep (Ctrl+P)"))

    def changeEvent(self, event) -> None:
        from PySide6.QtCore import QEvent

        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate_ui()
        super().changeEvent(event)
