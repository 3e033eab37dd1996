"""SafetensorsReader against the safetensors library: dtypes, rows, shards, and a 7B-sized sparse file."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from explorer.backend.models.tensors import SafetensorsReader, open_safetensors_folder
from explorer.errors import InputError

torch = pytest.importorskip("torch")


def raw_file(path: Path, header: dict, data_len: int | None = None, data: bytes = b"") -> Path:
    """A safetensors file from a header dict; data_len bytes of data (sparse when data is short)."""
    blob = json.dumps(header).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(blob)) + blob + data)
        if data_len is not None:
            f.truncate(8 + len(blob) + data_len)
    return path


def test_every_float_dtype_reads_as_the_library_gives_it(tmp_path):
    from safetensors.torch import load_file, save_file

    torch.manual_seed(0)
    tensors = {"model.a": torch.randn(7, 5, dtype=torch.bfloat16), "b": torch.randn(3, 4, dtype=torch.float16),
               "c": torch.randn(6, dtype=torch.float64), "d": torch.randn(2, 3, 4),
               "position_ids": torch.arange(8)}
    save_file(tensors, tmp_path / "m.safetensors")
    ref = {k: v.float().numpy() for k, v in load_file(tmp_path / "m.safetensors").items() if k != "position_ids"}
    r = SafetensorsReader([tmp_path / "m.safetensors"])
    assert r.names() == ["a", "b", "c", "d", "position_ids"]           # "model." stripped
    for short, full in (("a", "model.a"), ("b", "b"), ("c", "c"), ("d", "d")):
        np.testing.assert_array_equal(r.read(short), ref[full])
        assert r.shape(short) == tuple(ref[full].shape)
    np.testing.assert_array_equal(r.rows("a", [6, 0, 6, 2]), ref["model.a"][[6, 0, 6, 2]])
    assert r.rows("a", []).shape == (0, 5)
    np.testing.assert_array_equal(r.rows("a", [2, 3, 4]), ref["model.a"][2:5])       # one read for a run
    np.testing.assert_array_equal(r.rows("b", [0, 1, 2]), ref["b"])
    with pytest.raises(InputError, match="dtype I64"):
        r.read("position_ids")
    with pytest.raises(InputError, match="0..6"):
        r.rows("a", [7])
    with pytest.raises(InputError, match="0..6"):
        r.rows("a", [-1])
    with pytest.raises(InputError, match="2 dimensions"):
        r.rows("d", [0])
    with pytest.raises(InputError, match="no tensor 'zz'"):
        r.read("zz")
    r.close()
    with pytest.raises(InputError, match="closed"):
        r.read("a")


def test_shards_from_the_index(tmp_path):
    from safetensors.torch import save_file

    a, b = torch.randn(4, 3), torch.randn(2, 2)
    save_file({"model.embed_tokens.weight": a}, tmp_path / "model-00001-of-00002.safetensors")
    save_file({"model.norm.weight": b}, tmp_path / "model-00002-of-00002.safetensors")
    (tmp_path / "model.safetensors.index.json").write_text(json.dumps({"weight_map": {
        "model.embed_tokens.weight": "model-00001-of-00002.safetensors",
        "model.norm.weight": "model-00002-of-00002.safetensors"}}))
    r = open_safetensors_folder(tmp_path)
    assert r.names() == ["embed_tokens.weight", "norm.weight"]
    np.testing.assert_array_equal(r.rows("embed_tokens.weight", [3, 1]), a.numpy()[[3, 1]])
    np.testing.assert_array_equal(r.read("norm.weight"), b.numpy())
    r.close()
    (tmp_path / "model.safetensors.index.json").write_text(json.dumps({"weight_map": {"x": "../evil.safetensors"}}))
    with pytest.raises(InputError, match="not a .safetensors file in the folder"):
        open_safetensors_folder(tmp_path)
    os.unlink(tmp_path / "model-00002-of-00002.safetensors")
    (tmp_path / "model.safetensors.index.json").write_text(json.dumps({"weight_map": {
        "a": "model-00001-of-00002.safetensors", "b": "model-00002-of-00002.safetensors"}}))
    with pytest.raises(InputError, match="missing"):
        open_safetensors_folder(tmp_path)


def test_a_file_truncated_after_opening_gives_an_input_error(tmp_path):
    from safetensors.torch import save_file

    save_file({"e": torch.randn(100, 8)}, tmp_path / "m.safetensors")
    r = SafetensorsReader([tmp_path / "m.safetensors"])
    os.truncate(tmp_path / "m.safetensors", 200)
    with pytest.raises(InputError, match="became shorter"):
        r.rows("e", [99])
    r.close()


LLAMA_7B = {"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008, "num_hidden_layers": 32,
            "num_attention_heads": 32, "num_key_value_heads": 32, "vocab_size": 32000,
            "max_position_embeddings": 4096, "rms_norm_eps": 1e-5, "rope_theta": 10000.0,
            "torch_dtype": "float16"}


def sparse_7b(folder: Path, shards: int = 1) -> int:
    """A Llama-7B-shaped checkpoint (F16, about 13.5 GB) that is all holes, in 1 file or `shards` files
    with an index; its data size."""
    d, f, v = 4096, 11008, 32000
    shapes = {"model.embed_tokens.weight": (v, d), "lm_head.weight": (v, d), "model.norm.weight": (d,)}
    for i in range(32):
        p = f"model.layers.{i}."
        shapes.update({p + "input_layernorm.weight": (d,), p + "post_attention_layernorm.weight": (d,),
                       **{p + f"self_attn.{x}_proj.weight": (d, d) for x in "qkvo"},
                       p + "mlp.gate_proj.weight": (f, d), p + "mlp.up_proj.weight": (f, d),
                       p + "mlp.down_proj.weight": (d, f)})
    folder.mkdir()
    names, total, weight_map = list(shapes), 0, {}
    for k in range(shards):
        file = "model.safetensors" if shards == 1 else f"model-{k + 1:05d}-of-{shards:05d}.safetensors"
        header, off = {}, 0
        for name in names[k::shards]:
            n = int(np.prod(shapes[name])) * 2
            header[name] = {"dtype": "F16", "shape": list(shapes[name]), "data_offsets": [off, off + n]}
            weight_map[name] = file
            off += n
        raw_file(folder / file, header, data_len=off)
        total += off
    if shards > 1:
        (folder / "model.safetensors.index.json").write_text(json.dumps({"weight_map": weight_map}))
    (folder / "config.json").write_text(json.dumps(LLAMA_7B))
    from tests.models_helpers import write_tokenizer

    write_tokenizer(folder / "tokenizer.json")
    return total


@pytest.mark.parametrize("shards", [1, 3])
def test_a_7b_sized_checkpoint_opens_reading_headers_and_rows_only(tmp_path, shards):
    size = sparse_7b(tmp_path / "llama7b", shards)
    assert len(list((tmp_path / "llama7b").glob("*.safetensors"))) == shards
    assert size > 13e9
    script = textwrap.dedent(f"""
        import json, sys
        import numpy as np
        from explorer.backend.models.hf_folder import open_model

        def io():
            return dict(l.split(": ") for l in open("/proc/self/io").read().splitlines())
        def rss():  # peak RSS of this process (VmHWM; ru_maxrss would carry the parent's peak over exec)
            line = [l for l in open("/proc/self/status") if l.startswith("VmHWM:")][0]
            return int(line.split()[1]) * 1024
        r0, io0 = rss(), int(io()["rchar"])
        m = open_model({str(tmp_path / "llama7b")!r})
        io1 = int(io()["rchar"])
        ids = m.tokenize("the cat sat on the mat").ids
        x = m.input_x(ids)
        qk = m.layer0_qk(ids)
        io2, r2 = int(io()["rchar"]), rss()
        print(json.dumps(dict(open_read=io1 - io0, total_read=io2 - io0, rss_growth=r2 - r0,
                              x=list(x.shape), q=list(qk.q.shape))))
    """)
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]), OMP_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["x"] == [6, 4096] and got["q"] == [32, 6, 128]
    assert got["open_read"] < 2_000_000                       # header (~0.05 MB) + config + tokenizer + imports
    # rows (6 x 8 KB) + the layer-0 norm, q_proj and k_proj (2 x 32 MB): far from 13.5 GB
    assert got["total_read"] < 80_000_000
    assert got["rss_growth"] <= 300 * 2 ** 20
