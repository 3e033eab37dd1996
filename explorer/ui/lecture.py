"""Lecture features installed on the main window (deck stepping, formula/code panels, animation,
predict-then-reveal). Placeholder until they land."""


class Lecture:
    def __init__(self, window):
        self.window = window
