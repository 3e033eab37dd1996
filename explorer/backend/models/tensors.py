"""The seam between checkpoint formats and the model: a TensorReader, and the safetensors one.

Names are Hugging Face tensor names with the `model.` / `transformer.` / `bert.` / `roberta.` prefix that the
*ForCausalLM / *ForMaskedLM classes add stripped ("embed_tokens.weight", "wte.weight", ...).

SafetensorsReader checks each file's header itself (length inside the file, JSON, known dtypes, shapes
that match their byte ranges, ranges that tile the data area without gaps or overlaps, as the
safetensors library demands) and then reads with positioned reads (os.pread) only the bytes asked for:
one row per token id, or a whole tensor for the small ones. It does not memory-map, so a file truncated
or replaced while open gives an InputError instead of a SIGBUS, and opening costs only the headers.
(safetensors' own `safe_open(...).get_slice` cannot take a list of row ids, nor give bfloat16 to numpy.)
"""

from __future__ import annotations

import json
import os
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from explorer.backend.models import fp8
from explorer.errors import InputError, link_loop, msg, os_reason, require

MAX_INDEX_BYTES = 64 << 20   # model.safetensors.index.json: a line a tensor name, far below this

# the longest first: a multimodal Gemma 3's text model is "language_model.model." (its vision tower's
# "vision_tower." names stay as they are, apart from the text model's); GPTNeoXForCausalLM's "gpt_neox."
PREFIXES = ("language_model.model.", "model.language_model.", "gpt_neox.", "model.", "transformer.", "bert.",
            "roberta.",              # (RobertaForMaskedLM's; XLM-RoBERTa's and CamemBERT's as well)
            "distilbert.transformer.", "distilbert.")   # DistilBertForMaskedLM's (DistilBertModel's: transformer.)
MAX_HEADER = 100_000_000            # the safetensors library's own limit on the JSON header
MAX_WHOLE_READ = 1 << 30            # read(): a whole tensor of at most 1 GiB
DTYPE_SIZES = {"BOOL": 1, "U8": 1, "I8": 1, "F8_E5M2": 1, "F8_E4M3": 1, "F8_E8M0": 1, "I16": 2, "U16": 2,
               "F16": 2, "BF16": 2, "I32": 4, "U32": 4, "F32": 4, "I64": 8, "U64": 8, "F64": 8, "C64": 8}
READABLE = {"F32": "<f4", "F16": "<f2", "F64": "<f8", "BF16": "<u2"}
DECODED = (*READABLE, *fp8.FP8, fp8.E8M0)    # float8 through a table of its 256 values (models.fp8)


class TensorReader(Protocol):
    """What a model needs from a checkpoint: names, shapes, and float32 reads of a few tensors or rows."""

    def names(self) -> list[str]: ...
    def shape(self, name: str) -> tuple[int, ...]: ...
    def read(self, name: str) -> np.ndarray: ...                       # float32, whole (small tensors only)
    def rows(self, name: str, ids) -> np.ndarray: ...                  # float32 (len(ids), cols)
    def close(self) -> None: ...


def strip_prefix(name: str) -> str:
    """'model.layers.0.x' -> 'layers.0.x'; names without a known prefix unchanged."""
    for prefix in PREFIXES:
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


@dataclass(frozen=True)
class _Entry:
    file: int                       # index into the reader's open files
    dtype: str
    shape: tuple[int, ...]
    start: int                      # absolute byte offset in the file
    nbytes: int


class HeaderFault(InputError):
    """A safetensors header parse_header refuses; `why` is the reason without the file's name."""

    def __init__(self, path, why: str):
        super().__init__(msg("%1 is not a valid safetensors file: %2", path, why))
        self.why = why


def parse_header(path, raw_head: bytes, file_size: int) -> dict[str, tuple[str, tuple[int, ...], int, int]]:
    """Validate a safetensors header; name -> (dtype, shape, absolute start, nbytes). InputError if bad."""
    if file_size < 8:
        raise HeaderFault(path, msg("%1 bytes is shorter than the 8-byte header length", file_size))
    (n,) = struct.unpack("<Q", raw_head[:8])
    if n > MAX_HEADER or n + 8 > file_size:
        raise HeaderFault(path, msg("header length %1 runs beyond the file (%2 bytes); truncated?", n, file_size))
    try:
        header = json.loads(raw_head[8:8 + n].decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise HeaderFault(path, msg("the header is not JSON")) from None
    if not isinstance(header, dict):
        raise HeaderFault(path, msg("the header is not a JSON object"))
    data_start, data_len = 8 + n, file_size - 8 - n
    out, spans = {}, []
    for name, info in header.items():
        if name == "__metadata__":
            if not isinstance(info, dict) or not all(isinstance(v, str) for v in info.values()):
                raise HeaderFault(path, msg("__metadata__ must map names to strings"))
            continue
        if not isinstance(info, dict) or set(info) - {"dtype", "shape", "data_offsets"}:
            raise HeaderFault(path, msg("tensor %1 has a malformed entry", repr(name)))
        dtype, shape, offs = info.get("dtype"), info.get("shape"), info.get("data_offsets")
        if not isinstance(dtype, str) or dtype not in DTYPE_SIZES:
            raise HeaderFault(path, msg("tensor %1 has unknown dtype %2", repr(name), repr(dtype)))
        if (not isinstance(shape, list) or len(shape) > 8
                or not all(type(s) is int and 0 <= s < 1 << 40 for s in shape)):
            raise HeaderFault(path, msg("tensor %1 has a bad shape %2", repr(name), repr(shape)))
        if (not isinstance(offs, list) or len(offs) != 2
                or not all(type(o) is int and 0 <= o for o in offs) or offs[0] > offs[1]):
            raise HeaderFault(path, msg("tensor %1 has bad data_offsets %2", repr(name), repr(offs)))
        if offs[1] > data_len:
            raise HeaderFault(path, msg("tensor %1 ends at byte %2 beyond the data (%3 bytes); truncated?",
                                        repr(name), offs[1], data_len))
        nbytes = int(np.prod(shape, dtype=object)) * DTYPE_SIZES[dtype]
        if nbytes != offs[1] - offs[0]:
            raise HeaderFault(path, msg("tensor %1: shape %2 in %3 needs %4 bytes, its offsets span %5",
                                        repr(name), shape, dtype, nbytes, offs[1] - offs[0]))
        spans.append((offs[0], offs[1], name))
        out[name] = (dtype, tuple(shape), data_start + offs[0], nbytes)
    end = 0
    for s, e, name in sorted(spans):
        if s != end:
            raise HeaderFault(path, msg("tensor %1 overlaps the one before it", repr(name)) if s < end
                              else msg("tensor %1 leaves a gap at byte %2", repr(name), end))
        end = e
    if end != data_len:
        raise HeaderFault(path, msg("the tensors cover %1 of the %2 data bytes", end, data_len))
    return out


def _raw_header(fd: int) -> tuple[bytes, int]:
    """(the header as parse_header takes it: its 8-byte length, then the JSON it announces where the file
    holds it and MAX_HEADER allows; the file's size) of the safetensors file open as `fd`."""
    size = os.fstat(fd).st_size
    head = os.pread(fd, 8, 0)
    n = struct.unpack("<Q", head)[0] if len(head) == 8 else 0
    if len(head) == 8 and n <= MAX_HEADER and n + 8 <= size:
        head += os.pread(fd, n, 8)
    return head, size


def header_fault(path):
    """Why parse_header refuses the safetensors file at `path` (its reason, without the path), or None when it
    finds no fault or the file cannot be read: the check asks it which part of a header the safetensors library
    refused, in our words (the library's are Rust's: "invalid utf-8 sequence of 1 bytes from index 4")."""
    try:
        with open(path, "rb") as f:
            head, size = _raw_header(f.fileno())
        parse_header(path, head, size)
    except HeaderFault as exc:
        return exc.why
    except OSError:
        return None
    return None


def _to_float32(buf: bytes, dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    if dtype in fp8.FP8 or dtype == fp8.E8M0:
        return fp8.decode(buf, dtype, shape)
    arr = np.frombuffer(buf, dtype=READABLE[dtype]).reshape(shape)
    if dtype == "BF16":
        return (arr.astype(np.uint32) << 16).view(np.float32)
    return arr.astype(np.float32)


class SafetensorsReader:
    """One `model.safetensors`, or the shards listed in `model.safetensors.index.json`; headers only on open."""

    def __init__(self, files: list[Path], quant: fp8.Quantization = fp8.Quantization()):
        self.quant = quant              # config.json's quantization_config: FP8 weights' block scales
        self._fds: list[int] = []
        self._paths = [Path(p) for p in files]
        require(bool(self._paths), "the checkpoint's safetensors index lists no files (an empty weight_map)")
        self._entries: dict[str, _Entry] = {}
        try:
            for i, path in enumerate(self._paths):
                self._open_one(i, path)
        except BaseException:
            self.close()
            raise
        require(bool(self._entries), "%1 holds no tensors", ", ".join(map(str, self._paths)))

    def _open_one(self, i: int, path: Path) -> None:
        loop = link_loop(path)
        require(loop is None, "cannot open %1: %2", path, loop)
        require(path.is_file(), "checkpoint file %1 is missing", path)
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError as exc:
            raise InputError(msg("cannot open %1: %2", path, os_reason(exc))) from None
        self._fds.append(fd)
        head, size = _raw_header(fd)
        for name, (dtype, shape, start, nbytes) in parse_header(path, head, size).items():
            short = strip_prefix(name)
            require(short not in self._entries, "%1: tensor %2 appears twice in the checkpoint", path,
                                                repr(short))
            self._entries[short] = _Entry(i, dtype, shape, start, nbytes)

    def _entry(self, name: str, ndim: int | None = None) -> _Entry:
        require(name in self._entries, "the checkpoint has no tensor %1", repr(name))
        e = self._entries[name]
        require(e.dtype in DECODED, "tensor %1 has dtype %2; only %3 tensors can be read", repr(name), e.dtype,
                ", ".join(DECODED))
        if e.dtype in fp8.FP8 and (not self.quant.scales
                                   or fp8.scale_name(name, self.quant.scales) not in self._entries):
            raise fp8.unreadable(name, e.dtype, self.quant)
        require(ndim is None or len(e.shape) == ndim,
                "tensor %1 has shape %2, expected %3 dimensions", repr(name), e.shape, ndim)
        return e

    def _pread(self, e: _Entry, nbytes: int, offset: int) -> bytes:
        require(bool(self._fds), "the checkpoint is closed")
        path = self._paths[e.file]
        try:
            buf = os.pread(self._fds[e.file], nbytes, offset)
        except OSError as exc:
            raise InputError(msg("cannot read %1: %2", path, exc.strerror or exc)) from None
        require(len(buf) == nbytes, "%1 became shorter while it was read (changed on disk?)", path)
        return buf

    def names(self) -> list[str]:
        return sorted(self._entries)

    def shape(self, name: str) -> tuple[int, ...]:
        require(name in self._entries, "the checkpoint has no tensor %1", repr(name))
        return self._entries[name].shape

    def read(self, name: str) -> np.ndarray:
        e = self._entry(name)
        require(e.nbytes <= MAX_WHOLE_READ, "tensor %1 (%2 bytes) is too big to read whole",
                                                     repr(name), f"{e.nbytes:,}")
        values = _to_float32(self._pread(e, e.nbytes, e.start), e.dtype, e.shape)
        return self._scaled(name, e, values) if e.dtype in fp8.FP8 else values

    def _scaled(self, name: str, e: _Entry, values: np.ndarray, row_ids: np.ndarray | None = None) -> np.ndarray:
        """FP8 values (of the whole tensor, or its rows row_ids) times their block scales."""
        scales = fp8.scale_name(name, self.quant.scales)
        return fp8.scaled(values, self.read(scales), self.quant, scales, e.shape, row_ids)

    def rows(self, name: str, ids) -> np.ndarray:
        e = self._entry(name, ndim=2)
        ids = np.asarray(ids, dtype=np.int64).reshape(-1)                     # (n,)
        n_rows, cols = e.shape
        require(ids.size == 0 or (ids.min() >= 0 and ids.max() < n_rows),
                "token ids must lie in 0..%1 (the rows of %2)", n_rows - 1, repr(name))
        row_bytes = cols * DTYPE_SIZES[e.dtype]
        if ids.size > 1 and (np.diff(ids) == 1).all():                        # a run (a position table)
            buf = self._pread(e, row_bytes * ids.size, e.start + int(ids[0]) * row_bytes)
            out = _to_float32(buf, e.dtype, (ids.size, cols))
        else:
            out = np.empty((ids.size, cols), dtype=np.float32)                # (n, cols)
            for j, i in enumerate(ids.tolist()):
                out[j] = _to_float32(self._pread(e, row_bytes, e.start + i * row_bytes), e.dtype, (cols,))
        return self._scaled(name, e, out, ids) if e.dtype in fp8.FP8 else out

    def close(self) -> None:
        fds, self._fds = self._fds, []
        for fd in fds:
            os.close(fd)


def open_safetensors_folder(folder: Path, quant: fp8.Quantization = fp8.Quantization()) -> SafetensorsReader:
    """The reader for a folder's model.safetensors or its index.json shards (quant: its config.json's
    quantization_config); InputError if neither."""
    index = folder / "model.safetensors.index.json"
    if index.is_file():
        require(index.stat().st_size <= MAX_INDEX_BYTES, "%1 is too large to be a safetensors index "
                "(%2 bytes; at most %3 are read)", index, f"{index.stat().st_size:,}", f"{MAX_INDEX_BYTES:,}")
        try:
            weight_map = json.loads(index.read_text(encoding="utf-8"))["weight_map"]
            shards = sorted(set(weight_map.values()))
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
            raise InputError(msg("%1 is not a valid index (it needs a 'weight_map' of tensor -> file)",
                                 index)) from None
        for shard in shards:
            require(isinstance(shard, str) and shard == Path(shard).name and shard.endswith(".safetensors"),
                    "%1 names a shard %2 that is not a .safetensors file in the folder", index, repr(shard))
        return SafetensorsReader([folder / s for s in shards], quant)
    single = folder / "model.safetensors"
    require(single.is_file(), "%1 has no model.safetensors (nor model.safetensors.index.json)", folder)
    return SafetensorsReader([single], quant)
