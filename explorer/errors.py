"""The one exception type a user can meet, with a message meant for a person."""


class InputError(ValueError):
    """A value the user gave is outside what the program can do; the message says why."""


def require(ok: bool, message: str) -> None:
    """Raise InputError(message) unless ok."""
    if not ok:
        raise InputError(message)
