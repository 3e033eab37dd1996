"""Corrupt `gpt2` / `bert` GGUF files: each one a one-line InputError or a model whose reads work.

Profile: PE_FUZZ_PROFILE=ci (default, small) or long (>= 10,000 examples), as tests/test_fuzz_text.py.
"""

from __future__ import annotations

import os
import struct
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import gguf_learned_writer as lw

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=10_000, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(settings.get_profile(os.environ.get("PE_FUZZ_PROFILE", "ci")))
_DIR = Path(tempfile.mkdtemp(prefix="pe-gguf-learned-fuzz-"))
_GOOD: dict[str, bytes] = {}


def _good(arch: str) -> bytes:
    if arch not in _GOOD:
        model, tokenizer = lw.tiny_gpt2() if arch == "gpt2" else lw.tiny_bert()
        lw.save(_DIR / arch, model, tokenizer)
        path = _DIR / f"{arch}.gguf"
        lw.write_learned_gguf(path, model, tokenizer, _DIR / arch, arch, "Q8_0")
        _GOOD[arch] = path.read_bytes()
    return _GOOD[arch]


EDIT = st.one_of(
    st.tuples(st.just("byte"), st.integers(0, 9000), st.integers(0, 255)),
    st.tuples(st.just("u64"), st.integers(0, 9000), st.sampled_from([0, 1, 3, 32, 64, 2**31 - 1, 2**32, 2**63])),
    st.tuples(st.just("u32"), st.integers(0, 9000), st.integers(0, 2**32 - 1)),
)


def _mutate(data: bytes, cut, edits) -> bytes:
    buf = bytearray(data)
    for kind, pos, value in edits:
        size = {"byte": 1, "u32": 4, "u64": 8}[kind]
        if pos + size <= len(buf):
            buf[pos:pos + size] = bytes([value]) if kind == "byte" else struct.pack(
                "<I" if kind == "u32" else "<Q", value)
    return bytes(buf[:cut] if cut is not None else buf)


@FUZZ
@given(arch=st.sampled_from(["gpt2", "bert"]), cut=st.none() | st.integers(0, 12000),
       edits=st.lists(EDIT, min_size=1, max_size=3))
def test_fuzz_corrupt_learned_gguf(arch, cut, edits):
    path = _DIR / "fuzz.gguf"
    path.write_bytes(_mutate(_good(arch), cut, edits))
    try:
        model = open_model(str(path))
    except InputError as exc:
        assert "\n" not in str(exc)
        return
    with model, np.errstate(all="ignore"):       # damaged tensor bytes may hold inf / nan: not the point here
        try:
            ids = [i for i in model.tokenize("the cat sat, 中国").ids if i < model.vocab_rows][:8] or [0]
            assert model.input_x(ids).shape == (len(ids), model.config.d_model)
            assert model.positions(len(ids)).shape == (len(ids), model.config.d_model)
            model.layer0_qk(ids)
        except InputError as exc:
            assert "\n" not in str(exc)
