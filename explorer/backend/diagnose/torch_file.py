"""Read a .pt / .pth file for the check: torch.load(weights_only=True), never a pickle of objects.

A zip archive (what torch.save writes) is refused when its members unpack to more than the check's
file limit, before torch reads a storage; a pickle stream (torch before 1.6) must begin with torch's
magic number, and is read through a memory map, so that where a failed read stopped is known: at the
end of the file it was cut short (torch's "unexpected EOF", pickle's "pop from empty list" and
EOFError were shown in English). A state dict is flattened to "name.sub[i]" -> tensor.
"""

from __future__ import annotations

from pathlib import Path

from explorer.backend.diagnose import loading
from explorer.backend.diagnose.read_errors import NOT_TORCH, TORCH_DAMAGED, TRUNCATED
from explorer.errors import InputError, msg, require


def _unpacked_size(p: Path) -> int | None:
    """The bytes a zip archive's members unpack to (torch.load reads every storage whole: a 1.5 MB
    deflated .pt held a 1.6 GB storage); None when its directory cannot be read (damaged)."""
    import zipfile

    try:
        with zipfile.ZipFile(p) as z:
            return sum(info.file_size for info in z.infolist())
    except zipfile.BadZipFile:
        return None


def read_torch(p: Path) -> dict:
    """Tensors of a .pt/.pth file with torch.load(weights_only=True); a state dict is flattened."""
    import pickle

    import torch

    with open(p, "rb") as f:
        magic = f.read(6)
    require(magic != b"\x93NUMPY", "%1 is a NumPy .npy file, not a torch file: name it .npy", p)
    # torch.save writes a zip archive (before torch 1.6: a pickle stream, which starts with 0x80)
    is_zip = magic.startswith(b"PK\x03\x04")
    require(is_zip or magic[:1] == b"\x80", "cannot read %1 as .pt: it is not a file torch.save wrote "
                                           "(that is a zip archive or a pickle stream)", p)
    damaged = msg("cannot read %1 as .pt: its zip archive is damaged or cut short (an unfinished copy "
                  "or download?)", p)
    if is_zip:              # one read of the zip directory: damaged, or its unpacked size
        unpacked = _unpacked_size(p)
        if unpacked is None:
            raise InputError(damaged)
        require(unpacked <= loading.MAX_FILE_BYTES, "%1 unpacks to %2 bytes; the check reads files up to %3 bytes",
                p, f"{unpacked:,}", f"{loading.MAX_FILE_BYTES:,}")
    needs_pickle = msg("%1 needs pickle to load (it holds Python objects, not only tensors); it is refused: "
                       "save the tensor with torch.save(tensor) or as .npy", p)
    if not is_zip:
        obj = _read_stream(p, needs_pickle)
    else:
        try:
            obj = torch.load(p, map_location="cpu", weights_only=True)
        except pickle.UnpicklingError:
            raise InputError(needs_pickle) from None
        except RuntimeError as exc:     # torch's zip reader: "PytorchStreamReader failed reading ..."
            if "PytorchStreamReader" in str(exc):
                raise InputError(damaged) from None
            raise
    out: dict = {}
    _collect(obj, "", out)
    require(out, "%1 holds no tensor", p)
    return out


def _stream_start(head: bytes):
    """None when `head` (a file's first bytes) begins as torch.save's pickle stream does (torch's magic
    number, pickled with protocol 2 to 5), else why not: a file shorter than that start is cut short."""
    import pickle

    import torch

    starts = [pickle.dumps(torch.serialization.MAGIC_NUMBER, protocol=k) for k in range(2, 6)]
    if any(head.startswith(start) for start in starts):
        return None
    return TRUNCATED if any(start.startswith(head) for start in starts) else NOT_TORCH


def _read_stream(p: Path, needs_pickle: str):
    """torch.load(weights_only=True) of a pickle stream (torch before 1.6), through a memory map: its
    position says whether a failure stopped at the file's end (cut short) or before it (damaged)."""
    import mmap
    import pickle
    import struct

    import torch

    with open(p, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        reason = _stream_start(m[:32])
        if reason is None:
            try:
                return torch.load(m, map_location="cpu", weights_only=True)
            except EOFError:
                reason = TRUNCATED
            except (pickle.UnpicklingError, RuntimeError, IndexError, KeyError, ValueError, TypeError,
                    struct.error) as exc:     # torch's "unexpected EOF", the unpickler's "pop from empty list"
                if m.tell() >= len(m):
                    reason = TRUNCATED
                elif isinstance(exc, pickle.UnpicklingError):    # weights_only refused what it holds
                    raise InputError(needs_pickle) from None
                else:
                    reason = TORCH_DAMAGED
    raise InputError(msg("cannot read %1 as %2: %3", p, ".pt", reason))


def _collect(obj, prefix: str, out: dict) -> None:
    import torch

    if isinstance(obj, torch.Tensor):
        out[prefix] = obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            _collect(v, f"{prefix}.{k}" if prefix else str(k), out)
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            _collect(v, f"{prefix}[{i}]" if prefix else f"[{i}]", out)
