"""Fuzz: corrupt safetensors headers -> a reader that reads what the safetensors library reads, or InputError.

Never a crash, never garbage: whenever our checks accept a file, the safetensors library opens it too and
gives the same values. Profile: PE_FUZZ_PROFILE=ci (default) or long (>= 10,000 examples per test).
"""

from __future__ import annotations

import json
import os
import struct

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from explorer.backend.models.tensors import DTYPE_SIZES, SafetensorsReader, parse_header
from explorer.errors import InputError

settings.register_profile("ci", max_examples=80, deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
settings.register_profile("long", max_examples=10_000, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
FUZZ = settings(settings.get_profile(os.environ.get("PE_FUZZ_PROFILE", "ci")))

rng = np.random.default_rng(0)
GOOD_DATA = rng.standard_normal(24).astype(np.float32).tobytes()        # 96 bytes
GOOD = {"a": {"dtype": "F32", "shape": [4, 3], "data_offsets": [0, 48]},
        "b": {"dtype": "F16", "shape": [2, 6], "data_offsets": [48, 72]},
        "c": {"dtype": "BF16", "shape": [12], "data_offsets": [72, 96]}}

INTS = st.one_of(st.integers(-3, 120), st.integers(-2 ** 70, 2 ** 70), st.sampled_from([0, 48, 72, 96]))
VALUES = st.one_of(INTS, st.floats(allow_nan=True), st.text(max_size=4), st.none(), st.booleans(),
                   st.lists(INTS, max_size=4))
ENTRY = st.fixed_dictionaries(
    {"dtype": st.one_of(st.sampled_from(sorted(DTYPE_SIZES) + ["F33", "f32", ""]), VALUES),
     "shape": st.one_of(st.lists(INTS, max_size=4), VALUES),
     "data_offsets": st.one_of(st.lists(INTS, min_size=2, max_size=2), VALUES)},
    optional={"extra": VALUES})


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    """One file path, rewritten by every example (a fresh folder each would dominate the run)."""
    return tmp_path_factory.mktemp("fuzz") / "m.safetensors"


def _file(path, header_bytes: bytes, data: bytes, declared: int | None = None) -> None:
    n = len(header_bytes) if declared is None else declared
    path.write_bytes(struct.pack("<Q", n % 2 ** 64) + header_bytes + data)


def _check(path) -> None:
    """Ours: opens and reads every float tensor, or InputError. If ours opens, the library agrees."""
    try:
        reader = SafetensorsReader([path])
    except InputError as exc:
        assert "\n" not in str(exc)
        event("refused")
        return
    event("opened")
    try:
        from safetensors import safe_open

        with safe_open(str(path), framework="numpy") as lib:                  # the library accepts it too
            assert sorted(lib.keys()) == reader.names()
            for name in reader.names():
                assert tuple(lib.get_slice(name).get_shape()) == reader.shape(name)
                try:
                    ours = reader.read(name)
                except InputError:
                    assert lib.get_slice(name).get_dtype() not in ("F32", "F16", "F64", "BF16")
                    continue
                if lib.get_slice(name).get_dtype() != "BF16":
                    np.testing.assert_array_equal(ours, lib.get_tensor(name).astype(np.float32))
                if len(reader.shape(name)) == 2 and reader.shape(name)[0] > 0:
                    last = reader.shape(name)[0] - 1
                    np.testing.assert_array_equal(reader.rows(name, [last, 0]), ours[[last, 0]])
    finally:
        reader.close()


@FUZZ
@given(entries=st.dictionaries(st.sampled_from(["a", "b", "c", "d", "__metadata__"]), ENTRY, max_size=4),
       cut=st.integers(0, 100))
def test_random_headers_never_crash(scratch, entries, cut):
    path = scratch
    header = {k: (v if k != "__metadata__" else {"format": "pt"}) for k, v in entries.items()}
    _file(path, json.dumps(header).encode(), GOOD_DATA[:cut])
    _check(path)


@FUZZ
@given(flips=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=6),
       truncate=st.one_of(st.none(), st.integers(0, 600)),
       declared=st.one_of(st.none(), st.integers(0, 2 ** 64 - 1), st.integers(0, 700)))
def test_mutated_valid_files_never_crash(scratch, flips, truncate, declared):
    blob = bytearray(struct.pack("<Q", 0) + json.dumps(GOOD).encode() + GOOD_DATA)
    struct.pack_into("<Q", blob, 0, len(blob) - 8 - len(GOOD_DATA) if declared is None else declared)
    for pos, byte in flips:
        blob[pos % len(blob)] = byte
    if truncate is not None:
        blob = blob[:truncate]
    path = scratch
    path.write_bytes(bytes(blob))
    _check(path)


def test_the_unmutated_file_reads_exactly(tmp_path):
    _file(tmp_path / "m.safetensors", json.dumps(GOOD).encode(), GOOD_DATA)
    r = SafetensorsReader([tmp_path / "m.safetensors"])
    np.testing.assert_array_equal(r.read("a").ravel(), np.frombuffer(GOOD_DATA[:48], np.float32))
    np.testing.assert_array_equal(r.read("b").ravel(),
                                  np.frombuffer(GOOD_DATA[48:72], np.float16).astype(np.float32))
    r.close()


def test_parse_header_limits():
    with pytest.raises(InputError, match="beyond the file"):
        parse_header("x", struct.pack("<Q", 2 ** 63), 100)
    with pytest.raises(InputError, match="not JSON"):
        parse_header("x", struct.pack("<Q", 3) + b"{x}", 11)
    with pytest.raises(InputError, match="cover 0 of the 5"):
        parse_header("x", struct.pack("<Q", 2) + b"{}", 15)
    assert parse_header("x", struct.pack("<Q", 2) + b"{}", 10) == {}
