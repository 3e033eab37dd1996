"""The one exception type a user can meet, with a message meant for a person.

A message is English (the CLI, logs and tests read `str(exc)`), but the window shows it in its own
language. Write a message with numbered arguments, ``msg("%1 is not a folder", path)``: the result is
the English text (a `str`) that also remembers its template and arguments, so `localized(text, lang)`
can translate the template (context "Errors" of resources/i18n/<lang>.json) and put the arguments
back. A plain literal (``require(ok, "text must be a string")``) is translated as it is;
``require(ok, "%1 is not a folder", path)`` makes the message only when it is raised.
tools/translations.py collects every literal template of ``msg(...)``, ``require(_, ...)`` and
``InputError(...)`` into that context.
"""

from __future__ import annotations

import errno
import math
import os
import re
import sys
from pathlib import PurePath

from explorer.translations import fill, translate

CONTEXT = "Errors"
_ARG = re.compile(r"%(\d+)")
_compiled: dict[str, tuple] = {}        # template -> (its texts, the argument numbers between them)


def _english(template: str, args: tuple) -> str:
    """`translations.fill(template, *args)`, with the template's split kept (a message is made often)."""
    split = _compiled.get(template)
    if split is None:
        parts = _ARG.split(template)
        split = _compiled[template] = (parts[0::2], [int(p) for p in parts[1::2]])
    texts, numbers = split
    if not numbers:
        return template
    n, out = len(args), [texts[0]]
    for k, text in zip(numbers, texts[1:]):
        out.append(str(args[k - 1]) if 0 < k <= n else f"%{k}")
        out.append(text)
    return "".join(out)


HUGE = 10 ** 21      # whole numbers from here on are shown as 1.0e+21: their digits help no reader


def grouped(n: int) -> str:
    """A whole number for a message: 12,345 with separators, from HUGE on 1.2e+25 (f"{n:,}" of one over
    4,300 digits raises ValueError)."""
    n = int(n)
    if abs(n) < HUGE:
        return f"{n:,}"
    exponent = int(math.log10(abs(n)))
    while 10 ** exponent > abs(n):              # log10's rounding, either way
        exponent -= 1
    while 10 ** (exponent + 1) <= abs(n):
        exponent += 1
    lead = abs(n) // 10 ** (exponent - 1)       # its first two digits
    return f"{'-' if n < 0 else ''}{lead // 10}.{lead % 10}e+{exponent}"


_LONG_NUMBER = re.compile(r"-?\d{1,3}(?:,?\d{3}){7,}")   # 22 digits and more, with or without separators


def _one_line_arg(arg):
    """An argument as a one-line message shows it: a whole number of 22 digits or more as 1.0e+N (a d_model
    of 10^400 made a 648-character message), a text's line breaks as \\n (a path with a newline made a
    message of two lines). Messages and other values unchanged."""
    if isinstance(arg, PurePath):
        arg = str(arg)
    if isinstance(arg, Message) or isinstance(arg, bool) or not isinstance(arg, (int, str)):
        return arg
    if isinstance(arg, int) and abs(arg) >= HUGE:
        return grouped(arg)
    text = str(arg)
    if _LONG_NUMBER.fullmatch(text):
        digits = text.lstrip("-").replace(",", "")
        return f"{'-' if text.startswith('-') else ''}{digits[0]}.{digits[1]}e+{len(digits) - 1}"
    if isinstance(arg, str) and ("\n" in arg or "\r" in arg):
        return arg.replace("\r", "\\r").replace("\n", "\\n")
    return arg


class Message(str):
    """English text made from `template` ("%1 .. %N") and `args`; `localized(lang)` in another language."""

    def __new__(cls, template: str, *args):
        args = tuple(_one_line_arg(a) for a in args)
        text = super().__new__(cls, _english(template, args))
        text.template, text.args = template, args
        return text

    def __reduce__(self):
        return Message, (self.template, *self.args)

    def localized(self, lang: str) -> str:
        return localized(self, lang)


def msg(template: str, *args) -> Message:
    """A message from a literal English `template` with %1 .. %N and its arguments (str, numbers,
    paths, or other messages, which are translated too)."""
    return Message(template, *args)


def localized(text, lang: str) -> str:
    """`text` (a Message, a plain English message or an InputError) in `lang`; "en" gives it unchanged."""
    if isinstance(text, BaseException):
        return error_text(text, lang)
    if lang == "en":
        return str(text)
    if isinstance(text, Message):
        args = [localized(a, lang) if isinstance(a, (Message, BaseException)) else a for a in text.args]
        return fill(translate(CONTEXT, text.template, lang), *args)
    return translate(CONTEXT, str(text), lang) if isinstance(text, str) else str(text)


def error_text(exc: BaseException, lang: str) -> str:
    """What the user reads for `exc` in `lang`: an InputError's message translated, any other str(exc)."""
    if lang == "en" or not isinstance(exc, InputError) or len(exc.args) != 1:
        return str(exc)
    return localized(exc.args[0], lang)


def message_of(exc: BaseException) -> str:
    """An exception's message to keep in a result (a Message keeps its template; else str(exc))."""
    args = getattr(exc, "args", ())
    return args[0] if len(args) == 1 and isinstance(args[0], Message) else str(exc)


class InputError(ValueError):
    """A value the user gave is outside what the program can do; the message says why."""

    def localized(self, lang: str) -> str:
        """The message in `lang` (English: the same as str(self))."""
        return error_text(self, lang)


def require(ok: bool, message: str, *args) -> None:
    """Raise InputError(message) unless ok; with args, message is a template and msg(message, *args) is
    made only when it is raised (a check run for every row or every slider step stays cheap)."""
    if not ok:
        raise InputError(Message(message, *args) if args else message)


def internal_error(exc: BaseException, lang: str) -> str:
    """The one line a bug of ours shows in `lang`: "internal error: <type>: <message>"."""
    return localized(msg("internal error: %1: %2", type(exc).__name__, exc), lang)


def shown(value) -> str:
    """A user's value as a one-line message may show it: its repr on one line (an array's repr has
    line breaks), at most 40 characters; a whole number from HUGE on as 1.0e+N (repr of one over 4,300 digits
    raises ValueError)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= HUGE:
        return grouped(value)
    text = " ".join(repr(value).split())
    return text if len(text) <= 40 else text[:37] + "..."


def os_reason(exc: BaseException):
    """Why a file could not be used, for "cannot read %1: %2": a loop of symbolic links said in a message
    of ours (translated; the system's "Too many levels of symbolic links" is English only), any other
    OSError by its strerror, anything else by its text."""
    if getattr(exc, "errno", None) == errno.ELOOP:
        return msg("the path runs into a loop of symbolic links and cannot be resolved")
    return getattr(exc, "strerror", None) or exc


def link_loop(path) -> Message | None:
    """os_reason's message when `path` is (or runs through) a loop of symbolic links, else None: Path.exists()
    and is_file() answer False for one, and it had been said to be missing ("has no config.json")."""
    try:
        os.stat(path)
    except OSError as exc:
        return os_reason(exc) if exc.errno == errno.ELOOP else None
    except ValueError:          # a NUL in the name: said where the path is used
        return None
    return None


# json's complaints (JSONDecodeError.msg, from its start) said in messages of ours: its English words had
# reached the Chinese window ("Expecting value")
_JSON_REASONS = (
    ("Expecting value", msg("a value is missing or is not JSON (a comma too many? Text goes in double quotes; "
                            "true, false and null are lower case)")),
    ("Expecting ',' delimiter", msg("a comma is missing between two items")),
    ("Expecting ':' delimiter", msg("a colon is missing after a name")),
    ("Expecting property name", msg("a name in double quotes was expected (single quotes, or a comma too many "
                                    "before the closing brace?)")),
    ("Extra data", msg("more text follows the end of the JSON value")),
    ("Unterminated string", msg("a text in double quotes is not closed")),
    ("Invalid control character", msg("a control character (a line break or a tab) inside a text in double "
                                      "quotes")),
    ("Invalid \\u", msg("an invalid \\uXXXX escape in a text")),
    ("Invalid \\escape", msg("an invalid backslash escape in a text (a backslash itself is written \\\\)")),
    ("Illegal trailing comma", msg("a comma too many before the end of a list or object")),
    ("Unexpected UTF-8 BOM", msg("the file begins with a byte order mark (BOM); save it as UTF-8 without one")),
)


def json_reason(exc: BaseException):
    """Why and where a JSON text could not be parsed (a json.JSONDecodeError): json's usual complaints in
    a message of ours, "at line 3, column 5"; any other in json's words. json.loads' other refusals are known
    by their type: a RecursionError (lists nested thousands deep), a plain ValueError (int() of a number of
    more than sys.get_int_max_str_digits() digits)."""
    if isinstance(exc, RecursionError):
        return msg("lists or objects are nested too deeply to be read")
    if type(exc) is ValueError:            # not json's JSONDecodeError (a subclass), nor a decode error
        return msg("it holds a whole number of more than %1 digits", grouped(sys.get_int_max_str_digits()))
    doc = getattr(exc, "doc", None)
    if isinstance(doc, str) and not doc.strip():
        return msg("the file is empty")
    text = getattr(exc, "msg", None) or str(exc)
    reason = next((said for start, said in _JSON_REASONS if text.startswith(start)), text.removesuffix(" at"))
    return msg("%1 at line %2, column %3", reason, getattr(exc, "lineno", 1), getattr(exc, "colno", 1))
