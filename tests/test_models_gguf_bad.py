"""Bad GGUF files: each one a one-line InputError, no file descriptor left open; a fuzz of corrupt bytes.

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

from explorer.backend.models.gguf_file import _can_dequantize, open_gguf
from explorer.backend.models.gguf_header import read_header
from explorer.errors import InputError
from tests import gguf_fixtures as fx
from tests.open_files import open_files, opened_since

gguf = pytest.importorskip("gguf")
settings.register_profile("ci", max_examples=150, deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=10_000, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(settings.get_profile(os.environ.get("PE_FUZZ_PROFILE", "ci")))


def _s(text: str) -> bytes:
    raw = text.encode()
    return struct.pack("<Q", len(raw)) + raw


def raw_gguf(n_tensors: int, n_kv: int, body: bytes = b"", version: int = 3, magic: bytes = b"GGUF") -> bytes:
    return magic + struct.pack("<IQQ", version, n_tensors, n_kv) + body


@pytest.fixture(scope="module")
def good_bytes(tmp_path_factory):
    path = tmp_path_factory.mktemp("good") / "tiny.gguf"
    fx.write_llama_gguf(path, fx.tiny_llama())
    return path.read_bytes()


def refused(tmp_path, data: bytes, match: str) -> str:
    path = tmp_path / "bad.gguf"
    path.write_bytes(data)
    before = open_files()
    with pytest.raises(InputError, match=match) as info:
        open_gguf(path)
    assert opened_since(before) == {}                        # nothing half-loaded, nothing left open
    message = str(info.value)
    assert "\n" not in message and str(path) in message
    return message


@pytest.mark.parametrize("data,match", [
    (b"GG", "too short"),
    (raw_gguf(0, 0, magic=b"GGML"), "not a GGUF file"),
    (raw_gguf(0, 0, version=1), "version 1"),
    (b"GGUF" + struct.pack(">IQQ", 3, 0, 0), "big-endian"),
    (raw_gguf(2**62, 0), "claims 4,611,686,018,427,387,904 tensors"),
    (raw_gguf(0, 2**40), "claims 1,099,511,627,776 metadata entries"),
    (raw_gguf(0, 1, struct.pack("<Q", 2**40) + b"key" + b"\0" * 40), "a metadata key is 1,099,511,627,776 bytes long"),
    (raw_gguf(0, 1, _s("a") + struct.pack("<IQ", 8, 2**40) + b"\0" * 40), "ends at byte"),
    (raw_gguf(0, 1, _s("a") + struct.pack("<IIQ", 9, 4, 2**61) + b"\0" * 40), "claims 2,305,843,009,213,693,952 items"),
    (raw_gguf(0, 1, _s("a") + struct.pack("<IIQ", 9, 8, 2**40) + b"\0" * 40), "claims 1,099,511,627,776 items"),
    (raw_gguf(0, 1, _s("a") + struct.pack("<I", 77) + b"\0" * 16), "unknown value type 77"),
    (raw_gguf(0, 2, (_s("a") + struct.pack("<IB", 0, 1)) * 2 + b"\0" * 40), "appears twice"),
    (raw_gguf(1, 0, _s("x") + struct.pack("<IQIQ", 1, 32, 99, 0) + b"\0" * 64), "unknown ggml type 99"),
    (raw_gguf(1, 0, _s("x") + struct.pack("<IQIQ", 7, 32, 0, 0) + b"\0" * 64), "7 dimensions"),
    (raw_gguf(1, 0, _s("x") + struct.pack("<IQIQ", 1, 2**20, 0, 0) + b"\0" * 64), "truncated or corrupt"),
    (raw_gguf(1, 0, _s("x") + struct.pack("<IQIQ", 1, 33, 8, 0) + b"\0" * 64), "not a multiple"),
    (raw_gguf(2, 0, (_s("x") + struct.pack("<IQIQ", 1, 8, 0, 0)) + (_s("y") + struct.pack("<IQIQ", 1, 8, 0, 0))
              + b"\0" * 64), "overlap"),
    (raw_gguf(0, 1, _s("general.alignment") + struct.pack("<II", 4, 3) + b"\0" * 40), "power of two"),
    (raw_gguf(0, 0) + b"\0" * 40, "general.architecture is missing"),
    (raw_gguf(0, 1, _s("general.architecture") + struct.pack("<I", 8) + _s("gptj") + b"\0" * 40),
     "architecture 'gptj' is not supported; supported: llama, qwen2, qwen3, qwen2moe, qwen3moe, gemma, gemma2, gemma3, phi3, phi2, granite, granitemoe, smollm3, mistral3, hunyuan-dense, hunyuan-moe, seed_oss, apertus, olmo, olmo2, exaone4, stablelm, gpt-oss, starcoder2, olmoe, command-r, cohere2, deepseek2, llama4, ernie4_5, ernie4_5-moe, glm4, glm4moe, chatglm, qwen2vl, qwen3vl, qwen3vlmoe, gpt2, bert, starcoder, bloom, mpt, falcon, gptneox, nemotron, t5, t5encoder"),
])
def test_crafted_headers(tmp_path, data, match):
    """Each crafted header is refused for its own reason (the message names it)."""
    refused(tmp_path, data, match)


@pytest.mark.parametrize("fraction", [0.002, 0.01, 0.05, 0.5, 0.999])
def test_truncated_file(tmp_path, good_bytes, fraction):
    refused(tmp_path, good_bytes[:int(len(good_bytes) * fraction)], "truncated|ends at|too short|shrank")


def test_unsupported_quantization_type(tmp_path):
    q81 = gguf.GGMLQuantizationType.Q8_1
    assert not _can_dequantize(int(q81))                   # gguf 0.19 has no Q8_1 dequantizer
    block, size = gguf.GGML_QUANT_SIZES[q81]
    raw = np.zeros((64, 64 // block * size), np.uint8)
    path = tmp_path / "q81.gguf"
    fx.write_llama_gguf(path, fx.tiny_llama(), raw_override={"blk.0.attn_q.weight": (raw, q81)})
    refused(tmp_path, path.read_bytes(), "blk.0.attn_q.weight.*Q8_1, which cannot be dequantized")


@pytest.mark.parametrize("kwargs,match", [
    ({"arch": "phimoe"}, "architecture 'phimoe' is not supported; supported: llama, qwen2, qwen3, qwen2moe, qwen3moe, gemma, gemma2, gemma3, phi3, phi2, granite, granitemoe, smollm3, mistral3, hunyuan-dense, hunyuan-moe, seed_oss, apertus, olmo, olmo2, exaone4, stablelm, gpt-oss, starcoder2, olmoe, command-r, cohere2, deepseek2, llama4, ernie4_5, ernie4_5-moe, glm4, glm4moe, chatglm, qwen2vl, qwen3vl, qwen3vlmoe, gpt2, bert, starcoder, bloom, mpt, falcon, gptneox, nemotron, t5, t5encoder"),
    # Llama's separate q / k / v under phi3's keys: llama.cpp's Phi-3 reads a fused attn_qkv
    ({"arch": "phi3"}, "tensor blk.0.attn_qkv.weight is missing"),
    ({"tokenizer": False}, "tokenizer.ggml.model is missing"),
    ({"pre": "no-such-pre"}, "tokenizer.ggml.pre is 'no-such-pre'; supported pre-tokenizers are"),
])
def test_written_but_unsupported(tmp_path, kwargs, match):
    path = tmp_path / "w.gguf"
    model = fx.tiny_llama()
    if kwargs.get("arch"):                  # the same tensors under another architecture's keys
        fx.write_llama_gguf(path, model, arch=kwargs["arch"])
    else:
        fx.write_llama_gguf(path, model, **kwargs)
    refused(tmp_path, path.read_bytes(), match)


@pytest.mark.parametrize("base", [1.0, 0.25])
def test_a_rope_base_of_one_or_less_is_refused(tmp_path, base):
    """freq_base <= 1 (config.json's rope_theta is refused the same way) is named, not opened."""
    model = fx.tiny_llama()
    model.config.rope_parameters["rope_theta"] = base
    path = tmp_path / "b.gguf"
    fx.write_llama_gguf(path, model)
    refused(tmp_path, path.read_bytes(), rf"metadata llama.rope.freq_base is {base!r}; RoPE's base must be > 1")


def test_missing_file_and_folder(tmp_path):
    for path in (tmp_path / "none.gguf", tmp_path):
        with pytest.raises(InputError, match="cannot be opened|reading failed"):
            open_gguf(path)


def test_file_truncated_or_removed_while_open(tmp_path, good_bytes):
    path = tmp_path / "v.gguf"
    path.write_bytes(good_bytes)
    _, reader, _ = open_gguf(path)
    path.unlink()                                            # removed: the open descriptor still reads it
    assert reader.rows("embed_tokens.weight", [1, 2]).shape == (2, 64)
    reader.close()
    path.write_bytes(good_bytes)
    _, reader, _ = open_gguf(path)
    os.truncate(path, 7000)                                  # truncated under us: an error, not a SIGBUS
    with pytest.raises(InputError, match="ended early"):
        reader.read("layers.1.mlp.down_proj.weight")
    reader.close()
    with pytest.raises(InputError, match="closed"):
        reader.read("norm.weight")


_FUZZ_DIR = Path(tempfile.mkdtemp(prefix="pe-gguf-fuzz-"))
_GOOD: list[bytes] = []


def _good() -> bytes:
    if not _GOOD:
        path = _FUZZ_DIR / "base.gguf"
        fx.write_llama_gguf(path, fx.tiny_llama())
        _GOOD.append(path.read_bytes())
    return _GOOD[0]


U64 = st.sampled_from([0, 1, 2, 3, 8, 9, 31, 32, 255, 2**31 - 1, 2**32 - 1, 2**32, 2**63 - 1, 2**64 - 1])
EDIT = st.one_of(
    st.tuples(st.just("byte"), st.integers(0, 8000), st.integers(0, 255)),
    st.tuples(st.just("u64"), st.integers(0, 8000), U64 | st.integers(0, 2**64 - 1)),
    st.tuples(st.just("u32"), st.integers(0, 8000), st.integers(0, 2**32 - 1)),
)


def _mutate(data: bytes, cut: int | None, edits) -> bytes:
    buf = bytearray(data)
    for kind, pos, value in edits:
        if kind == "byte" and pos < len(buf):
            buf[pos] = value
        elif kind == "u64" and pos + 8 <= len(buf):
            buf[pos:pos + 8] = struct.pack("<Q", value)
        elif kind == "u32" and pos + 4 <= len(buf):
            buf[pos:pos + 4] = struct.pack("<I", value)
    return bytes(buf[:cut] if cut is not None else buf)


@FUZZ
@given(cut=st.none() | st.integers(0, 9000), edits=st.lists(EDIT, max_size=4))
def test_fuzz_corrupt_gguf_gives_input_error_or_a_working_model(cut, edits):
    path = _FUZZ_DIR / "fuzz.gguf"
    path.write_bytes(_mutate(_good(), cut, edits))
    before = open_files()
    try:
        config, reader, tok = open_gguf(path)
    except InputError as exc:
        assert "\n" not in str(exc)
        assert opened_since(before) == {}
        return
    try:
        ids = [i for i in tok.encode("hello world 12").ids if i < config["vocab_size"]]
        assert reader.rows("embed_tokens.weight", ids).shape == (len(ids), config["hidden_size"])
        for name in reader.names():
            if name.startswith("layers.0.") or name == "norm.weight":
                assert reader.read(name).shape == reader.shape(name)
    except InputError:
        pass
    finally:
        reader.close()
    assert opened_since(before) == {}


def test_header_walk_equals_gguf_reader_on_the_tiny_file(good_bytes, tmp_path):
    path = tmp_path / "g.gguf"
    path.write_bytes(good_bytes)
    with open(path, "rb") as fh:
        header = read_header(fh, len(good_bytes), str(path))
    ref = gguf.GGUFReader(path)
    for t in ref.tensors:
        info = header.tensors[t.name]
        assert (info.start, info.n_bytes, int(info.ggml_type)) == (t.data_offset, t.n_bytes, int(t.tensor_type))
    assert header.fields["tokenizer.ggml.tokens"] == ref.fields["tokenizer.ggml.tokens"].contents()


def test_every_ggml_type_is_classified():
    supported = {t.name for t in gguf.GGMLQuantizationType if _can_dequantize(int(t))}
    assert {"F32", "F16", "BF16", "Q8_0", "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q4_K", "Q6_K"} <= supported
    assert not {"I8", "I32", "F64", "Q8_1"} & supported
