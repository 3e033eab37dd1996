"""A bounded walk over a GGUF file's header: metadata and tensor table, every length checked against the file.

Layout (GGUF v2/v3, little-endian; ggml's docs/gguf.md): magic "GGUF", uint32 version, uint64 tensor_count,
uint64 kv_count, kv_count x (string key, uint32 type, value), tensor_count x (string name, uint32 n_dims,
n_dims x uint64 ne, uint32 ggml type, uint64 offset), padding to `general.alignment` (default 32), tensor data.

gguf's own GGUFReader parses the same bytes, but on hostile input it can raise odd exceptions or try to
allocate huge arrays, and it builds one numpy view per string (4 s for SmolLM2's 49,152 tokens here). This walk
reads the header with plain file reads (no mmap, so a file truncated meanwhile cannot SIGBUS), never allocates
more than the file holds, and turns every inconsistency into one InputError. The tests check that it gives the
same fields and tensor table as GGUFReader.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

import numpy as np

from explorer.errors import InputError, msg, require

MAGIC = b"GGUF"
VERSIONS = (2, 3)
MAX_NAME = 65_535        # bytes in a key or tensor name
MAX_DIMS = 4             # GGML_MAX_DIMS
MAX_DEPTH = 3            # arrays of arrays
DEFAULT_ALIGNMENT = 32
# value type -> (struct code, numpy dtype) for fixed-size scalars (GGUFValueType)
SCALARS = {0: ("<B", "<u1"), 1: ("<b", "<i1"), 2: ("<H", "<u2"), 3: ("<h", "<i2"), 4: ("<I", "<u4"),
           5: ("<i", "<i4"), 6: ("<f", "<f4"), 7: ("<?", "<u1"), 10: ("<Q", "<u8"), 11: ("<q", "<i8"),
           12: ("<d", "<f8")}
STRING, ARRAY = 8, 9
MIN_KV = 8 + 4 + 1       # empty key, type, one byte of value
MIN_TENSOR = 8 + 4 + 8 + 4 + 8   # empty name, n_dims 1, one ne, type, offset


@dataclass(frozen=True)
class TensorInfo:
    """One entry of the tensor table: GGUF name, ne (fastest first), ggml type code, absolute byte range."""

    name: str
    ne: tuple[int, ...]
    ggml_type: int
    start: int           # absolute file offset of the first byte
    n_bytes: int


@dataclass(frozen=True)
class Header:
    version: int
    fields: dict         # key -> int | float | bool | str | np.ndarray | list
    tensors: dict        # GGUF name -> TensorInfo
    data_start: int
    file_size: int


class _Bytes:
    """Reads a file forward in growing blocks; every read is bounded by the file's size."""

    def __init__(self, fh, size: int, where: str):
        self.fh, self.size, self.where = fh, size, where
        self.buf = bytearray()
        self.pos = 0

    def _need(self, n: int) -> None:
        end = self.pos + n
        if end > self.size:
            raise InputError(msg("%1: the file ends at byte %2 inside its header (it needs %3); the file is "
                                 "truncated or corrupt", self.where, f"{self.size:,}", f"{end:,}"))
        while len(self.buf) < end:
            chunk = self.fh.read(max(end - len(self.buf), min(1 << 22, self.size - len(self.buf))))
            if not chunk:
                raise InputError(msg("%1: the file shrank while it was being read", self.where))
            self.buf += chunk

    def unpack(self, code: str):
        n = struct.calcsize(code)
        self._need(n)
        value = struct.unpack_from(code, self.buf, self.pos)[0]
        self.pos += n
        return value

    def string(self, what: str, limit: int | None = None) -> str:
        n = self.unpack("<Q")
        if limit is not None:
            require(n <= limit, "%1: %2 is %3 bytes long (at most %4)", self.where, what, f"{n:,}", f"{limit:,}")
        self._need(n)
        raw = bytes(self.buf[self.pos:self.pos + n])
        self.pos += n
        return raw.decode("utf-8", errors="replace")

    def array(self, dtype: str, count: int) -> np.ndarray:
        n = count * np.dtype(dtype).itemsize
        self._need(n)
        out = np.frombuffer(bytes(self.buf[self.pos:self.pos + n]), dtype=dtype)   # (count,)
        self.pos += n
        return out


def _value(r: _Bytes, vtype: int, key: str, depth: int = 0):
    if vtype in SCALARS:
        value = r.unpack(SCALARS[vtype][0])
        return bool(value) if vtype == 7 else value
    if vtype == STRING:
        return r.string(msg("the value of %1", repr(key)))
    require(vtype == ARRAY, "%1: metadata %2 has unknown value type %3", r.where, repr(key), vtype)
    require(depth < MAX_DEPTH, "%1: metadata %2 nests arrays deeper than %3", r.where, repr(key), MAX_DEPTH)
    item = r.unpack("<I")
    count = r.unpack("<Q")
    left = r.size - r.pos
    if item in SCALARS:
        size = np.dtype(SCALARS[item][1]).itemsize
        require(count * size <= left, "%1: metadata %2 claims %3 items, more than the file holds; the file "
                                      "is truncated or corrupt", r.where, repr(key), f"{count:,}")
        values = r.array(SCALARS[item][1], count)
        return values.astype(bool) if item == 7 else values
    require(item in (STRING, ARRAY), "%1: metadata %2 has unknown item type %3", r.where, repr(key), item)
    require(count * 8 <= left, "%1: metadata %2 claims %3 items, more than the file holds; the file is "
                               "truncated or corrupt", r.where, repr(key), f"{count:,}")
    return [_value(r, item, key, depth + 1) for _ in range(count)]


def read_header(fh, size: int, where: str) -> Header:
    """Walk the header of the open binary file `fh` of `size` bytes; InputError naming `where` on any fault."""
    r = _Bytes(fh, size, where)
    require(size >= 24, "%1: %2 bytes is too short for a GGUF file (its header alone is 24 bytes)", where, size)
    r._need(4)
    magic = bytes(r.buf[:4])
    require(magic == MAGIC, "%1: not a GGUF file (it starts with %2, a GGUF file with b'GGUF')", where,
                            repr(magic))
    r.pos = 4
    version = r.unpack("<I")
    if version not in VERSIONS and struct.unpack(">I", struct.pack("<I", version))[0] in VERSIONS:
        raise InputError(msg("%1: a big-endian GGUF file; only little-endian GGUF can be read", where))
    require(version in VERSIONS, "%1: GGUF version %2; versions %3 and %4 can be read", where, version,
                                 VERSIONS[0], VERSIONS[1])
    n_tensors, n_kv = r.unpack("<Q"), r.unpack("<Q")
    require(n_kv <= (size - r.pos) // MIN_KV,
            "%1: the header claims %2 metadata entries, more than %3 bytes can hold", where, f"{n_kv:,}",
            f"{size:,}")
    require(n_tensors <= (size - r.pos) // MIN_TENSOR,
            "%1: the header claims %2 tensors, more than %3 bytes can hold", where, f"{n_tensors:,}",
            f"{size:,}")
    fields: dict = {}
    for _ in range(n_kv):
        key = r.string(msg("a metadata key"), MAX_NAME)
        require(key not in fields, "%1: metadata key %2 appears twice", where, repr(key))
        fields[key] = _value(r, r.unpack("<I"), key)
    raw = []
    for _ in range(n_tensors):
        name = r.string(msg("a tensor name"), MAX_NAME)
        n_dims = r.unpack("<I")
        require(1 <= n_dims <= MAX_DIMS, "%1: tensor %2 has %3 dimensions (1 to %4)", where, repr(name), n_dims,
                                         MAX_DIMS)
        ne = tuple(r.unpack("<Q") for _ in range(n_dims))
        raw.append((name, ne, r.unpack("<I"), r.unpack("<Q")))
    alignment = fields.get("general.alignment", DEFAULT_ALIGNMENT)
    require(isinstance(alignment, int) and not isinstance(alignment, bool) and 0 < alignment <= 1 << 20
            and alignment & (alignment - 1) == 0,
            "%1: general.alignment is %2; it must be a power of two", where, repr(alignment))
    data_start = -(-r.pos // alignment) * alignment
    tensors = _tensor_table(raw, data_start, size, alignment, where)
    return Header(version, fields, tensors, data_start, size)


def _tensor_table(raw, data_start: int, size: int, alignment: int, where: str) -> dict:
    from gguf import GGML_QUANT_SIZES, GGMLQuantizationType

    tensors: dict[str, TensorInfo] = {}
    for name, ne, code, offset in raw:
        require(name not in tensors, "%1: tensor %2 appears twice", where, repr(name))
        require(code in GGMLQuantizationType._value2member_map_,
                "%1: tensor %2 has unknown ggml type %3", where, repr(name), code)
        block, type_size = GGML_QUANT_SIZES[GGMLQuantizationType(code)]
        require(all(0 < n < 1 << 40 for n in ne), "%1: tensor %2 has impossible shape %3", where, repr(name),
                                                  list(ne))
        require(ne[0] % block == 0, "%1: tensor %2 has %3 columns, not a multiple of its %4 block size %5",
                                    where, repr(name), ne[0], GGMLQuantizationType(code).name, block)
        n_elements = int(np.prod(ne, dtype=object))
        n_bytes = n_elements // block * type_size
        start = data_start + offset
        require(offset % alignment == 0, "%1: tensor %2 starts at offset %3, not a multiple of the alignment %4",
                                         where, repr(name), offset, alignment)
        require(start + n_bytes <= size, "%1: tensor %2 needs bytes %3 to %4 but the file has %5; the file is "
                                         "truncated or corrupt", where, repr(name), f"{start:,}",
                                         f"{start + n_bytes:,}", f"{size:,}")
        tensors[name] = TensorInfo(name, ne, code, start, n_bytes)
    spans = sorted((t.start, t.start + t.n_bytes, t.name) for t in tensors.values())
    for (_, end, a), (start, _, b) in zip(spans, spans[1:]):
        require(start >= end, "%1: tensors %2 and %3 overlap", where, repr(a), repr(b))
    return tensors
