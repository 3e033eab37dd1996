"""numpy's errors for a table file it cannot read, said in the check's own words (translated: numpy's
English had reached the Chinese window, "the magic string is not correct", "could not convert string
to float"). A text numpy may write otherwise is kept as it is: it still says what went wrong. Also the
reasons the .pt and .npz readers know by an exception's type or their position (TRUNCATED, ...), and
where a .csv stops being UTF-8."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from explorer.errors import grouped, msg

# reasons known by an exception's type or the reader's position, not by a library's (English) words
TRUNCATED = msg("the file ends early (truncated: an unfinished copy or download?)")
NOT_TORCH = msg("it is not a PyTorch tensor file (it does not begin as the files torch.save writes do)")
TORCH_DAMAGED = msg("the file is damaged: it begins as torch.save's files do, but what follows cannot be read")

_MAGIC = re.compile(r"magic string is not correct.*got (b['\"].*['\"])")
_SHORT_DATA = re.compile(r"Expected .* = (\d+) elements, could only read (\d+) elements")
_NOT_A_NUMBER = re.compile(r"could not convert string (['\"].*?['\"]?) to \w+ at row (\d+), column (\d+)")
_RAGGED = re.compile(r"number of columns changed from (\d+) to (\d+) at row (\d+)")


def npy_reason(exc: BaseException):
    """Why numpy could not read a .npy stream (a file or a .npz member), when it is known: its start not
    numpy's signature, its header or values cut short; else None (numpy's own words are kept)."""
    text = " ".join(str(exc).split())
    magic = _MAGIC.search(text)
    if magic:                          # a text file, or a .pt / .npz renamed
        return msg("it is not a .npy array: it does not begin with numpy's signature \\x93NUMPY (it begins "
                   "with %1)", magic.group(1))
    short = _SHORT_DATA.search(text)
    if short:
        return msg("it holds %1 of the %2 values its header announces (cut short: an unfinished copy or "
                   "download?)", grouped(int(short.group(2))), grouped(int(short.group(1))))
    if text.startswith("EOF"):         # numpy's "EOF: reading array header / data, expected n bytes got m"
        return msg("it ends before its header or values do (cut short: an unfinished copy or download?)")
    return None


def csv_message(p: Path, exc: ValueError):
    """The one line for np.loadtxt's refusal of a .csv (its advice "use `usecols`" is for programmers), or
    None for a refusal not known here."""
    text = " ".join(str(exc).split())
    ragged = _RAGGED.search(text)
    if ragged:
        return msg("cannot read %1 as .csv: row %2 has %3 numbers and the rows before it %4; a table needs "
                   "the same count in every row", p, ragged[3], ragged[2], ragged[1])
    cell = _NOT_A_NUMBER.search(text)
    if cell is None:
        return None
    value, row, column = cell[1], int(cell[2]) + 1, int(cell[3])   # numpy counts rows from 0, columns from 1
    closed = len(value) > 1 and value[-1] == value[0]       # numpy cuts a long value short, its quote with it
    try:                                       # numpy quotes it as repr does ('1\\t2' for a tab)
        text = ast.literal_eval(value if closed else value.rstrip("\\") + value[0])
    except (ValueError, SyntaxError):
        text = value[1:-1] if closed else value[1:]
    shown = value if len(value) <= 40 and closed else value[:37] + "..."
    if not str(text).strip():
        return msg("cannot read %1 as .csv: row %2, column %3 is empty; a table needs a number in every "
                   "place (a comma too many?)", p, row, column)
    pieces = [piece for piece in re.split(r"[;\s]+", str(text).strip()) if piece]
    if len(pieces) > 1 and all(_is_number(s) for s in pieces):
        return msg("cannot read %1 as .csv: row %2 holds %3: the numbers must be separated by commas",
                   p, row, shown)
    return msg("cannot read %1 as .csv: row %2, column %3 holds %4, which is not a number (the file must "
               "hold numbers only, without a header row)", p, row, column, shown)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def first_non_utf8(p: Path) -> int:
    """The offset of the first byte of `p` that is not UTF-8 text (read a block at a time), else its size;
    a character the file's end cuts short is named by its first byte."""
    import codecs

    decoder, offset = codecs.getincrementaldecoder("utf-8")(), 0
    with open(p, "rb") as f:
        while True:
            block = f.read(1 << 20)
            try:
                decoder.decode(block, final=not block)      # b"": the end, where a cut character fails
            except UnicodeDecodeError as exc:
                return offset + max(exc.start, 0) - len(decoder.getstate()[0])
            if not block:
                return offset
            offset += len(block)
