"""Read the user's array: .npy, .npz, .safetensors, .csv, or .pt/.pth (torch.load weights_only=True).

Nothing is ever unpickled: .npy/.npz with allow_pickle=False, torch.load with weights_only=True (a
file that needs pickle is refused). Every failure is an InputError with one clear line.
"""

from __future__ import annotations

import math
import os
import re
import warnings
from pathlib import Path

import numpy as np

from explorer.backend.diagnose.read_errors import csv_message, first_non_utf8, npy_reason
from explorer.errors import InputError, grouped, msg, os_reason, require, shown

SUFFIXES = (".npy", ".npz", ".safetensors", ".csv", ".pt", ".pth")
MAX_ABS = 1e303               # larger values are no PE table (1e308: its fitted scale overflowed to inf)
MAX_VALUES = 1 << 24          # 16,777,216 numbers: a 32768 x 512 table
MAX_FILE_BYTES = 1 << 31      # 2 GiB on disk, for the formats read whole (.csv, .pt)
LAZY = (".npy", ".npz", ".safetensors")   # headers first, then only the chosen array: any file size


def as_array(x) -> tuple[np.ndarray, str]:
    """(float64 array, storage dtype name) from a numpy array, a torch tensor or a nested list."""
    name = type(x).__module__ or ""
    if name.startswith("torch"):
        dtype = str(x.dtype).replace("torch.", "")
        require(not x.is_meta, "a meta tensor holds no values (it has only a shape): give a real one")
        require(not x.is_quantized, "a quantized tensor cannot be checked: give tensor.dequantize()")
        require(not x.is_nested, "a nested tensor cannot be checked: give one dense tensor (rows of equal length)")
        require(str(x.layout) == "torch.strided", "a %1 tensor cannot be checked: give a dense one "
                "(tensor.to_dense())", str(x.layout).replace("torch.", "").replace("_", " "))
        x = x.detach().cpu()
        if x.is_complex():
            raise InputError("a complex tensor cannot be checked: give its real part (the cos cache) "
                             "or its imaginary part (the sin cache)")
        check_size(tuple(x.shape), x.numel())   # before the copy: a tensor may claim far more
        x = x.double().numpy()                  # than it stores (stride 0 over a few values)
    else:
        try:
            x = np.asarray(x)
        except (ValueError, TypeError, OverflowError) as exc:   # [[1, 2], [3]], [10**400]
            raise InputError("the data must be a rectangular array of real numbers (rows of equal "
                             "length)") from exc
        dtype = str(x.dtype)
        check_size(x.shape, x.size)
    require(x.dtype.kind in "fiub",
            "the data must hold real numbers, not %1 values", x.dtype)
    return check_values(np.asarray(x, dtype=np.float64)), dtype


def check_size(shape: tuple, size: int) -> None:
    """InputError for an empty array or one of more than MAX_VALUES numbers."""
    require(size > 0, "the array is empty (shape %1)", tuple(shape))
    require(size <= MAX_VALUES, "the array holds %1 numbers; the check reads at most %2 (save fewer "
                                "positions)", f"{size:,}", f"{MAX_VALUES:,}")


def check_values(x: np.ndarray) -> np.ndarray:
    """InputError for an empty, too large, too many-dimensional or non-finite array."""
    check_size(x.shape, x.size)
    squeezed = x.squeeze() if x.ndim > 2 else x
    require(squeezed.ndim <= 2 or (squeezed.ndim == 3 and _rows_equal(squeezed)),
            "the array has shape %1: give (L, d), (d, L), (1, L, d) or a vector", x.shape)
    bad = int(np.count_nonzero(~np.isfinite(x)))
    require(bad == 0, "the array holds %1 NaN or infinite values; a PE table has none", f"{bad:,}")
    peak = float(np.abs(x).max())
    require(peak <= MAX_ABS, "the array holds values as large as %1; a PE table's lie within ±1 (times a scale "
                             "such as √d_model)", f"{peak:.3g}")
    return x


def _rows_equal(x: np.ndarray) -> bool:
    """True when a (B, L, d) array holds the same (L, d) table B times (a batch of zeros + PE)."""
    return bool(np.array_equal(x, np.broadcast_to(x[:1], x.shape)))


def load_array(path: str | os.PathLike, key: str | None = None, key_hint: str = "--key NAME"
               ) -> tuple[np.ndarray, str, str]:
    """(float64 array, storage dtype, name of the array in the file) from `path`; key_hint: how the
    caller names the array to take, for a file that holds several (the CLI's option, the API's key=)."""
    p = checked_file(path)
    suffix = p.suffix.lower()
    try:
        with warnings.catch_warnings():     # numpy's "input contained no data", torch's pickle notes:
            warnings.simplefilter("ignore")  # the one line below says what went wrong
            arrays = _read(p, suffix)
            return _pick(arrays, key, p, key_hint)   # inside: a truncated .npy fails when its values are read
    except InputError:
        raise
    except MemoryError:
        raise InputError(msg("not enough memory to read %1", p))
    except Exception as exc:  # every reader has its own errors; the user needs one line
        reason = npy_reason(exc) or " ".join(str(exc).split())[:160] or type(exc).__name__
        raise InputError(msg("cannot read %1 as %2: %3", p, suffix, reason))


def checked_file(path: str | os.PathLike) -> Path:
    """`path` if it names a table file the check can read (a known suffix, a file, not empty, not over the
    size limit), else an InputError saying why; nothing is read from it."""
    require(os.fspath(path) not in ("", b""), "the file path is empty: give a table file ending in %1",
            ", ".join(SUFFIXES))          # "" had been answered "must end in .npy, ..., not ''"
    p = Path(path)
    suffix = p.suffix.lower()
    require(suffix in SUFFIXES, "a table file must end in %1, not %2", ", ".join(SUFFIXES), repr(str(path)))
    try:
        stat = p.stat()          # a name too long, a folder that cannot be entered: one line, as "no such file"
    except FileNotFoundError:
        raise InputError(msg("cannot read %1: no such file", p)) from None
    except (OSError, ValueError) as exc:     # (ValueError: a NUL in the name)
        raise InputError(msg("cannot read %1: %2", p, os_reason(exc))) from None
    require(p.is_file(), "cannot read %1: it is not a file (a folder or a device)", p)
    size = stat.st_size
    require(size > 0, "cannot read %1: the file is empty", p)
    require(size <= MAX_FILE_BYTES or suffix in LAZY, "%1 is %2 bytes; the check reads files up to %3 bytes",
            p, f"{size:,}", f"{MAX_FILE_BYTES:,}")
    return p


class Stored:
    """An array of a .npy file, .npz member or safetensors tensor known by its header: shape (and for
    .npy the dtype) now, the values on load() (a 3 MB .npz can hold gigabytes of compressed zeros, a
    model.safetensors gigabytes of other tensors: sizes are checked first)."""

    def __init__(self, shape: tuple, dtype: np.dtype | None, load):
        self.shape, self.dtype, self.ndim = tuple(shape), dtype, len(shape)
        self._load = load

    def load(self) -> np.ndarray:
        check_size(self.shape, _size(self))
        return self._load()


def npy_header(f, p: Path) -> tuple[tuple, np.dtype]:
    """(shape, dtype) from the header of a .npy stream; InputError for one that is not a plain array."""
    from numpy.lib import format as npy

    from tokenize import TokenError

    version = None
    try:
        version = npy.read_magic(f)
        read_header = npy.read_array_header_1_0 if version == (1, 0) else npy.read_array_header_2_0
        shape, _, dtype = read_header(f)
    except (ValueError, SyntaxError, TokenError) as exc:
        reason = npy_reason(exc)
        if reason is None and version is not None:     # numpy's signature, then a header it cannot parse
            reason = msg("its header is damaged (it begins with numpy's signature, but the description of the "
                         "array after it cannot be read)")
        reason = reason or msg("it is not a .npy array (%1)", str(exc).splitlines()[0][:80] if str(exc)
                               else type(exc).__name__)
        raise InputError(msg("cannot read %1 as %2: %3", p, ".npy", reason))
    require(not dtype.hasobject, "cannot read %1: it holds Python objects (they would need pickle, which "
                                 "is refused); save numbers (np.save on a float array)", p)
    return shape, dtype


def _read_safetensors(p: Path) -> dict:
    """name -> Stored for each tensor of a .safetensors file, from its header (safetensors' safe_open);
    only the chosen tensor's bytes are read. torch tensors: bfloat16 and float8 have no numpy dtype."""
    from safetensors import SafetensorError, safe_open

    def tensor(name: str):
        with safe_open(str(p), framework="pt") as f:
            return f.get_tensor(name)

    try:
        with safe_open(str(p), framework="pt") as f:
            shapes = {name: tuple(f.get_slice(name).get_shape()) for name in f.keys()}
    except SafetensorError as exc:
        raise InputError(_safetensors_message(p, str(exc))) from None
    require(shapes, "%1 holds no tensors", p)
    return {name: Stored(shape, None, lambda name=name: tensor(name)) for name, shape in shapes.items()}


def _safetensors_message(p: Path, reason: str) -> str:
    """One line for the safetensors library's header errors (its words are for programmers)."""
    if "not fully covered" in reason or "invalid header length" in reason:
        return msg("cannot read %1 as .safetensors: the file is shorter than its header says (cut short: "
                   "an unfinished copy or download?)", p)
    if "header too small" in reason or "header too large" in reason:
        return msg("cannot read %1 as .safetensors: it does not start like one (an 8-byte header length, "
                   "then a JSON header)", p)
    unknown = re.search(r"unknown variant `([^`]{1,40})`", reason)
    if unknown:                                  # a dtype safetensors does not know
        return msg("cannot read %1 as .safetensors: its header names an unknown dtype %2", p, unknown.group(1))
    from explorer.backend.models.tensors import header_fault

    fault = header_fault(p)                      # the models' own header walk names the fault in our words
    if fault is not None:                        # (a shape of -2, invalid UTF-8, offsets that overlap)
        return msg("cannot read %1 as %2: %3", p, ".safetensors", fault)
    if "JSON" in reason:
        return msg("cannot read %1 as .safetensors: its header is not valid JSON", p)
    return msg("cannot read %1 as %2: %3", p, ".safetensors", " ".join(reason.split())[:160])


def _read(p: Path, suffix: str) -> dict:
    """name -> array-like (or Stored: its header read, its values on load()), everything the file holds."""
    if suffix == ".npy":
        with open(p, "rb") as f:
            shape, dtype = npy_header(f, p)
        return {"": Stored(shape, dtype, lambda: np.load(p, allow_pickle=False))}
    if suffix == ".npz":
        from explorer.backend.diagnose.npz_file import read_npz

        return read_npz(p)
    if suffix == ".csv":
        check_size(*_csv_extent(p))      # before numpy parses it: ~8 bytes of memory per number and more
        try:
            table = np.loadtxt(p, delimiter=",", ndmin=2)
        except UnicodeDecodeError:  # the codec's words ("can't decode byte 0xff in position 4") were English
            raise InputError(msg("cannot read %1 as .csv: it is not UTF-8 text (byte %2 is not); a table file "
                                 "is text: numbers separated by commas", p, grouped(first_non_utf8(p)))) from None
        except ValueError as exc:   # numpy's words are for its caller ("use `usecols`"), not the user
            said = csv_message(p, exc)
            if said is None:
                raise
            raise InputError(said) from None
        require(table.size > 0, "cannot read %1: it holds no numbers", p)
        return {"": table}
    if suffix == ".safetensors":
        return _read_safetensors(p)
    from explorer.backend.diagnose.torch_file import read_torch

    return read_torch(p)


def _csv_extent(p: Path) -> tuple[tuple[int, int], int]:
    """((rows, columns), numbers) of a CSV file from its first row's commas, its line count and all its
    commas, read a block at a time (a 600 MB file of zeros took 2.6 GB while numpy parsed it, before its
    size was known to be over the limit). The numbers are every row's commas + 1, so a short first row
    (a comment, a single number) before a wide one does not hide the wide one (a "#" line before 150
    million numbers took 4.8 GB)."""
    with open(p, "rb") as f:
        first = f.readline()                  # the first row, with its line break
        rows, commas, last = 1, first.count(b","), b"\n"
        for block in iter(lambda: f.read(1 << 20), b""):
            rows += block.count(b"\n")        # each ends a row
            commas += block.count(b",")
            last = block[-1:]
    rows += last != b"\n"                     # a last row without a final line break
    cols = first.count(b",") + 1
    return (rows, cols), max(rows * cols, commas + rows)


def _pick(arrays: dict, key: str | None, p: Path, key_hint: str = "--key NAME") -> tuple[np.ndarray, str, str]:
    if key is not None:
        require(isinstance(key, str) and key in arrays, "%1 has no array %2; it has: %3", p, shown(key),
                ", ".join(sorted(arrays)) or "-")
        chosen = key
    else:
        candidates = [k for k, v in arrays.items() if getattr(v, "ndim", 0) >= 1 and _size(v) > 1]
        require(candidates, "%1 holds no array with more than one number", p)
        require(len(candidates) == 1, "%1 holds %2 arrays (%3): choose one with %4", p, len(candidates),
                ", ".join(sorted(candidates)[:8]), key_hint)
        chosen = candidates[0]
    chosen_array = arrays[chosen]
    if isinstance(chosen_array, Stored):
        chosen_array = chosen_array.load()
    array, dtype = as_array(chosen_array)
    if p.suffix.lower() == ".csv":
        dtype = text_precision(array)
    return array, dtype, chosen


def text_precision(x: np.ndarray) -> str:
    """The narrowest float dtype that holds every value of x up to the printed digits (text: a
    float16 value written with %.9g reads back within 1e-7 of itself, relatively)."""
    for name in ("float16", "float32"):
        with np.errstate(over="ignore", invalid="ignore"):
            back = x.astype(name).astype(np.float64)
        if np.all(np.abs(back - x) <= 1e-7 * np.abs(x)):
            return name
    return "float64"


def _size(v) -> int:
    """The number of values (a Python int: np.prod wraps around for a header's 2^32 x 2^32)."""
    return math.prod(int(n) for n in v.shape) if hasattr(v, "shape") else 0
