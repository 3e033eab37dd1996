"""Bad model files: each refused with one InputError line, nothing left open, the next open works."""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path

import numpy as np
import pytest

from explorer.backend.models import hf_folder
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh
from tests.open_files import open_files, opened_since

pytest.importorskip("transformers")


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("good") / "llama"
    mh.build("llama", folder)
    return folder


def copy(good: Path, dest: Path) -> Path:
    dest.mkdir()
    for f in good.iterdir():
        (dest / f.name).write_bytes(f.read_bytes())
    return dest


def refused(spec, match: str) -> str:
    before = open_files()
    with pytest.raises(InputError, match=match) as info:
        open_model(spec)
    message = str(info.value)
    assert "\n" not in message
    assert opened_since(before) == {}                       # no file left open by the failed load
    return message


def test_pickle_checkpoints_are_refused_without_being_read(tmp_path, monkeypatch):
    import io

    opened = []

    def spying(real):
        def spy(path, *a, **kw):
            opened.append(str(path))
            return real(path, *a, **kw)
        return spy

    for name in ("pytorch_model.bin", "model.pt", "last.ckpt", "weights.pth"):
        (tmp_path / name).write_bytes(b"\x80\x04 not really a pickle")
    (tmp_path / "probe.txt").write_text("probe")
    folder = tmp_path / "torch_folder"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"model_type": "llama"}))
    (folder / "pytorch_model.bin").write_bytes(b"\x80\x04")
    for target, real in (("builtins.open", open), ("io.open", io.open), ("os.open", os.open)):
        monkeypatch.setattr(target, spying(real))
    for name in ("pytorch_model.bin", "model.pt", "last.ckpt", "weights.pth"):
        assert "never unpickles" in refused(str(tmp_path / name), "pickle checkpoint")
    assert "never unpickles" in refused(folder, "pytorch_model.bin is a pickle")
    (tmp_path / "probe.txt").read_bytes()                        # the spy does see pathlib's reads
    monkeypatch.undo()
    assert not any(p.endswith((".bin", ".pt", ".ckpt", ".pth")) for p in opened)
    assert opened[-1].endswith("probe.txt")


def test_a_gguf_file_without_the_gguf_reader_says_so(tmp_path):
    import importlib.util

    if importlib.util.find_spec("explorer.backend.models.gguf_file") is not None:
        pytest.skip("the GGUF reader is installed; its own tests cover .gguf files")
    (tmp_path / "m.gguf").write_bytes(b"GGUF")
    refused(str(tmp_path / "m.gguf"), "GGUF reader is unavailable")
    refused(str(tmp_path / "absent.gguf"), "does not exist")


def test_missing_config_tokenizer_or_weights(good, tmp_path):
    for missing, match in (("config.json", "has no config.json"), ("tokenizer.json", "has no tokenizer.json"),
                           ("model.safetensors", "has no model.safetensors")):
        folder = copy(good, tmp_path / missing)
        (folder / missing).unlink()
        refused(folder, match)
    refused(str(tmp_path / "nothing-here"), "does not exist")
    (tmp_path / "notes.txt").write_text("hi")
    refused(str(tmp_path / "notes.txt"), "is not a model")
    refused("", "must be a folder")


def test_unsupported_model_type_names_the_supported_ones(good, tmp_path):
    folder = copy(good, tmp_path / "mamba")
    (folder / "config.json").write_text(json.dumps({"model_type": "mamba", "d_model": 8}))
    msg = refused(folder, "model_type 'mamba' is not supported")
    assert "gpt2, bert, opt, llama, mistral, qwen2, qwen3, gemma" in msg
    (folder / "config.json").write_text("{not json")
    refused(folder, "is not a valid config.json")
    (folder / "config.json").write_text("[1, 2]")
    refused(folder, "JSON object")
    cfg = json.loads((good / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**cfg, "num_attention_heads": 0}))
    refused(folder, "num_attention_heads must be a positive integer")
    (folder / "config.json").write_text(json.dumps({**cfg, "hidden_size": 48}))
    refused(folder, "token table has shape")


def _header(path: Path) -> tuple[dict, bytes]:
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    return json.loads(raw[8:8 + n]), raw[8 + n:]


def _write(path: Path, header: dict, data: bytes) -> None:
    blob = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(blob)) + blob + data)


def test_corrupt_safetensors(good, tmp_path):
    header, data = _header(good / "model.safetensors")
    names = sorted((k for k in header if k != "__metadata__"), key=lambda k: header[k]["data_offsets"][0])
    a, b = names[0], names[1]
    cases = {
        "truncated": lambda h, d: (h, d[:-10], "beyond the data|cover"),
        "header_len": None,
        "overlap": lambda h, d: ({**h, b: {**h[b], "data_offsets": [h[b]["data_offsets"][0] - 4,
                                                                     h[b]["data_offsets"][1] - 4]}},
                                 d, "overlaps|gap"),
        "out_of_range": lambda h, d: ({**h, a: {**h[a], "data_offsets": [0, len(d) + 4]}}, d, "beyond the data"),
        "dtype": lambda h, d: ({**h, a: {**h[a], "dtype": "F33"}}, d, "unknown dtype 'F33'"),
        "shape": lambda h, d: ({**h, a: {**h[a], "shape": [3, -1]}}, d, "bad shape"),
        "size": lambda h, d: ({**h, a: {**h[a], "shape": h[a]["shape"][:1] + [1]}}, d, "needs"),
        "not_json": None,
    }
    for case, make in cases.items():
        folder = copy(good, tmp_path / case)
        st = folder / "model.safetensors"
        if case == "header_len":
            raw = st.read_bytes()
            st.write_bytes(struct.pack("<Q", len(raw) * 2) + raw[8:])
            match = "header length .* beyond the file"
        elif case == "not_json":
            raw = st.read_bytes()
            st.write_bytes(raw[:8] + b"\xff" * 16 + raw[24:])
            match = "not JSON"
        else:
            h, d, match = make(dict(header), data)
            _write(st, h, d)
        refused(folder, match)
    folder = copy(good, tmp_path / "tiny")
    (folder / "model.safetensors").write_bytes(b"\x01\x02")
    refused(folder, "shorter than the 8-byte")
    folder = copy(good, tmp_path / "wrong_dtype_table")
    h = {**header, names[0]: header[names[0]]}
    emb = "model.embed_tokens.weight"
    h[emb] = {**h[emb], "dtype": "I32"}
    _write(folder / "model.safetensors", h, data)
    with open_model(folder) as m:                                 # opens: the header is valid ...
        with pytest.raises(InputError, match="dtype I32"):        # ... but the table cannot be read
            m.input_x([1, 2])


def test_token_ids_beyond_the_table_and_padded_tables(good):
    with open_model(good) as m:
        assert m.tokenizer.get_vocab_size() < m.vocab_rows == mh.VOCAB      # padded table: fine
        m.input_x([mh.VOCAB - 1])                                            # past the vocabulary, in the table
        for bad in ([mh.VOCAB], [-1], [0, 10 ** 12]):
            with pytest.raises(InputError, match=f"0..{mh.VOCAB - 1}"):
                m.input_x(bad)
        with pytest.raises(InputError, match="token ids must be whole numbers, not float64 values"):
            m.rows([0.5])
        with pytest.raises(InputError, match="only layer 0"):
            m.layer0_qk([1, 2], layer=1)
        assert m.layer0_qk(m.input_x([1, 2]), layer=1).q.shape[1] == 2       # a hidden state: any layer
        for layer in (2, "1", 1.0, True, None, [1], np.zeros((3, 3))):      # (not an index: named, one line)
            with pytest.raises(InputError, match="layer must be in 0..1") as err:
                m.layer0_qk(m.input_x([1, 2]), layer=layer)
            assert "\n" not in str(err.value)
        assert m.layer0_qk(m.input_x([1, 2]), layer=np.int64(1)).q.shape[1] == 2


def test_a_file_that_vanishes_while_loading(good, tmp_path, monkeypatch):
    folder = copy(good, tmp_path / "vanish")
    real = hf_folder.load_tokenizer

    def load_then_delete(path):
        tok = real(path)
        (folder / "model.safetensors").unlink()
        return tok

    monkeypatch.setattr(hf_folder, "load_tokenizer", load_then_delete)
    refused(folder, "model.safetensors")
    monkeypatch.undo()
    folder = copy(good, tmp_path / "vanish_late")
    with open_model(folder) as m:
        (folder / "model.safetensors").unlink()                   # deleted while open: the fd still reads
        assert m.input_x([1, 2]).shape == (2, 32)


def test_the_next_good_open_works_after_every_failure(good):
    with open_model(good) as m:
        assert np.isfinite(m.input_x(m.tokenize(mh.TEXT).ids)).all()


def test_a_projection_of_the_wrong_width_is_named_not_a_matmul_traceback(tmp_path):
    """A valid checkpoint whose layer-0 k_proj reads 7 channels instead of d_model: one line naming
    the tensor (it was numpy's matmul error)."""
    from safetensors.numpy import load_file, save_file

    from tests import models_helpers as mh

    folder = tmp_path / "llama"
    mh.build("llama", folder)
    tensors = load_file(folder / "model.safetensors")
    name = next(k for k in tensors if k.endswith("layers.0.self_attn.k_proj.weight"))
    tensors[name] = np.ascontiguousarray(tensors[name][:, :7])
    save_file(tensors, folder / "model.safetensors", metadata={"format": "pt"})
    with open_model(folder) as m:
        with pytest.raises(InputError, match=r"k_proj.weight has shape \(\d+, 7\); it must read"):
            m.layer0_qk(np.array([1, 2, 3]))


@pytest.mark.parametrize("family, which", [("llama", "q_proj"), ("llama", "k_proj"), ("gpt2", "c_attn")])
def test_a_projection_with_too_many_rows_is_refused_before_it_is_read(tmp_path, monkeypatch, family, which):
    """A q or k projection (GPT-2's fused c_attn) with 50 times its rows: its shape is refused from the header,
    in one line naming the rows it must make, before a byte of it is read (it was read, multiplied into an
    (n, rows) array, and only then refused)."""
    from safetensors.numpy import load_file, save_file

    from explorer.backend.models import tensors as tensors_module

    folder = tmp_path / family
    mh.build(family, folder)
    tensors = load_file(folder / "model.safetensors")
    name = next(k for k in tensors if k.endswith(f"h.0.attn.{which}.weight")
                or k.endswith(f"layers.0.self_attn.{which}.weight"))
    good = tensors[name]
    axis = 1 if family == "gpt2" else 0                          # Conv1D (in, out); nn.Linear (out, in)
    tensors[name] = np.ascontiguousarray(np.repeat(good, 50, axis=axis))
    save_file(tensors, folder / "model.safetensors", metadata={"format": "pt"})
    read = []
    real_read = tensors_module.SafetensorsReader.read
    monkeypatch.setattr(tensors_module.SafetensorsReader, "read",
                        lambda self, n: read.append(n) or real_read(self, n))
    with open_model(folder) as m:
        with pytest.raises(InputError, match=rf"{which}.weight has shape \(\d+, \d+\); it must make "
                                             rf"{good.shape[axis]} channels$"):
            m.layer0_qk(np.array([1, 2, 3]))
    assert read and name not in read            # (other tensors were read: the spy is in the path)


def test_odd_configs_indexes_and_tokenizers_found_by_fuzzing(good, tmp_path, monkeypatch):
    """Found by a helper's fuzz: a list as model_type (TypeError: unhashable), head_dim 10^9 (5.9 GB of
    inv_freq before the weights' shapes were read), an index.json nested 100,000 deep
    (RecursionError) or of any size (read whole), a tokenizer.json whose template names a
    sequence the text has not (a Rust panic, a BaseException, at every text)."""
    from explorer.backend.models import tensors

    folder = copy(good, tmp_path / "m")
    cfg = json.loads((good / "config.json").read_text())
    for odd in (["llama"], {"a": 1}):
        (folder / "config.json").write_text(json.dumps({**cfg, "model_type": odd}))
        refused(folder, "model_type .* is not supported")
    (folder / "config.json").write_text(json.dumps({**cfg, "head_dim": 10 ** 9}))
    refused(folder, "head_dim must be a whole number from 1 to 65,536, not 1000000000")
    (folder / "config.json").write_text(json.dumps(cfg))
    (folder / "model.safetensors.index.json").write_text("[" * 100_000 + "]" * 100_000)
    refused(folder, "is not a valid index")
    monkeypatch.setattr(tensors, "MAX_INDEX_BYTES", 1000)
    (folder / "model.safetensors.index.json").write_text(json.dumps({"weight_map": {}, "pad": "x" * 2000}))
    refused(folder, "is too large to be a safetensors index")
    monkeypatch.undo()
    (folder / "model.safetensors.index.json").write_text(json.dumps({"weight_map": {}}))
    refused(folder, "the checkpoint's safetensors index lists no files")       # was " holds no tensors"
    (folder / "model.safetensors.index.json").unlink()
    tok = json.loads((good / "tokenizer.json").read_text())
    tok["post_processor"] = {"type": "TemplateProcessing", "single": [{"Sequence": {"id": "B", "type_id": 0}}],
                             "pair": [{"Sequence": {"id": "A", "type_id": 0}},
                                      {"Sequence": {"id": "B", "type_id": 1}}], "special_tokens": {}}
    (folder / "tokenizer.json").write_text(json.dumps(tok))
    refused(folder, "the model's tokenizer failed")
    (folder / "tokenizer.json").write_text((good / "tokenizer.json").read_text())
    with open_model(folder) as model:                           # and the folder opens again
        assert len(model.tokenize("hello").ids) > 0
