"""GGUF reading: synthetic files from transformers' Llama (F16, Q8_0), the shipped SmolLM2, bad files.

References: the transformers weights the files were written from; gguf's own GGUFReader + dequantize;
transformers' LlamaTensorProcessor (its reverse of llama.cpp's q/k permutation) and its GGUF tokenizer
conversion; a plain-Python llama.cpp-style BPE (tests/gguf_fixtures.py).
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.gguf_file import open_gguf, unpermute_rows
from explorer.backend.models.gguf_vocab import PRE_REGEXES
from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import gguf_fixtures as fx

gguf = pytest.importorskip("gguf")
SENTENCES = ["Hello world", "hello world 12 12345", "你好，世界", "Emoji 🙂👨‍👩‍👧 and 🇨🇳!",
             "It's 2026; x=3.14  \n\n\tthe end   ", "<|endoftext|>the", "", "   ", "a\u00a0b\u200d"]


@pytest.fixture(scope="module")
def llama():
    return fx.tiny_llama()


@pytest.fixture(scope="module", params=["F16", "Q8_0"])
def written(request, llama, tmp_path_factory):
    path = tmp_path_factory.mktemp("gguf") / f"tiny-{request.param}.gguf"
    stored = fx.write_llama_gguf(path, llama, request.param)
    config, reader, tok = open_gguf(path)
    yield request.param, path, stored, config, reader, tok
    reader.close()


def test_config_matches_the_transformers_config(written, llama):
    _, _, _, config, _, _ = written
    c = llama.config
    assert config["model_type"] == "llama"
    for key in ("hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads", "head_dim",
                "intermediate_size", "vocab_size", "max_position_embeddings"):
        assert config[key] == getattr(c, key), key
    assert config["rms_norm_eps"] == pytest.approx(c.rms_norm_eps, rel=1e-6)
    assert config["rope_theta"] == pytest.approx(c.rope_parameters["rope_theta"])
    assert config["tie_word_embeddings"] is False
    from transformers import LlamaConfig

    again = LlamaConfig(**config)                       # transformers accepts the dict as a config.json
    assert again.num_key_value_heads == 2 and again.head_dim == 16


def test_names_and_shapes_are_hugging_face(written, llama):
    _, _, _, _, reader, _ = written
    want = fx.hf_weights(llama)
    assert sorted(reader.names()) == sorted(want)
    for name, arr in want.items():
        assert reader.shape(name) == arr.shape, name


def test_weights_equal_transformers_within_quantization(written, llama):
    qtype, _, _, _, reader, _ = written
    for name, want in fx.hf_weights(llama).items():
        got = reader.read(name)
        assert got.dtype == np.float32 and got.shape == want.shape
        if want.ndim == 1:
            np.testing.assert_array_equal(got, want)          # norms stay F32
        elif qtype == "F16":
            np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-6)
        else:                                                   # Q8_0: half a step of max|block| / 127
            assert np.abs(got - want).max() <= np.abs(want).max() / 127 * 0.51 + 1e-7, name


def test_weights_equal_gguf_dequantize_after_undoing_the_permutation(written, llama):
    """The round trip: our q/k permuted with llama.cpp's permute == gguf's own dequantize of the stored tensor."""
    _, path, stored, config, reader, _ = written
    ref = {t.name: t for t in gguf.GGUFReader(path).tensors}
    h, kv = config["num_attention_heads"], config["num_key_value_heads"]
    for name in reader.names():
        t = ref[fx.gguf_name(name)]
        theirs = gguf.quants.dequantize(t.data, t.tensor_type).reshape(reader.shape(name))
        ours = reader.read(name)
        if name.endswith("q_proj.weight"):
            ours = fx.permute(ours, h, h)
        elif name.endswith("k_proj.weight"):
            ours = fx.permute(ours, h, kv)
        np.testing.assert_array_equal(ours, theirs, err_msg=name)
        np.testing.assert_array_equal(theirs, stored[fx.gguf_name(name)].reshape(theirs.shape))


def test_rows_equal_the_whole_table(written):
    _, _, _, _, reader, _ = written
    for name in ("embed_tokens.weight", "layers.0.self_attn.q_proj.weight", "layers.1.self_attn.k_proj.weight"):
        table = reader.read(name)
        ids = [5, 0, 5, table.shape[0] - 1, 3]
        np.testing.assert_array_equal(reader.rows(name, ids), table[ids])
        assert reader.rows(name, []).shape == (0, table.shape[1])


@pytest.mark.parametrize("heads,kv,rows", [(4, 4, 64), (9, 3, 192), (9, 9, 576), (32, 8, 1024), (1, 1, 2)])
def test_unpermute_inverts_llama_cpp_permute(heads, kv, rows):
    w = np.random.default_rng(rows).normal(size=(rows, 5))
    np.testing.assert_array_equal(fx.permute(w, heads, kv)[unpermute_rows(rows, kv)], w)


def test_row_ids_outside_the_table_are_refused(written):
    _, _, _, config, reader, _ = written
    n = config["vocab_size"]
    for bad in ([n], [-1], [[1, 2]], [1.5], ["a"]):
        with pytest.raises(InputError, match="row ids"):
            reader.rows("embed_tokens.weight", bad)
    with pytest.raises(InputError, match="no tensor"):
        reader.read("layers.9.self_attn.q_proj.weight")


def test_tokenizer_equals_llama_cpp_style_reference(written):
    _, _, _, _, _, tok = written
    tokens, _, merges = fx.vocabulary()
    for text in SENTENCES:
        ids = tok.encode(text).ids
        if "<|endoftext|>" not in text:
            assert ids == fx.reference_encode(text, PRE_REGEXES["smollm"], tokens, merges), text
        assert tok.decode(ids, skip_special_tokens=False) == text
    assert tok.encode("hello world").ids == [tokens.index("hello"), tokens.index("Ġworld")]
    assert tok.encode("12").ids == [tokens.index("1"), tokens.index("2")]       # smollm splits digits
    assert tok.encode("<|endoftext|>the").ids[0] == 0                            # control token kept whole


def test_pre_tokenizer_gpt2_keeps_digits_together(llama, tmp_path):
    path = tmp_path / "gpt2pre.gguf"
    fx.write_llama_gguf(path, llama, pre="gpt2")
    _, reader, tok = open_gguf(path)
    tokens, _, merges = fx.vocabulary()
    assert tok.encode("12").ids == [tokens.index("12")]
    for text in SENTENCES[:6]:
        if "<|" not in text:
            assert tok.encode(text).ids == fx.reference_encode(text, PRE_REGEXES["gpt2"], tokens, merges)
    reader.close()


def test_tied_embeddings_and_rope_scaling(tmp_path):
    model = fx.tiny_llama(tie=True)
    path = tmp_path / "tied.gguf"
    fx.write_llama_gguf(path, model, extra_kv={"llama.rope.scaling.type": "linear",
                                               "llama.rope.scaling.factor": 4.0})
    config, reader, _ = open_gguf(path)
    assert config["tie_word_embeddings"] is True and "lm_head.weight" not in reader.names()
    assert config["rope_scaling"] == {"rope_type": "linear", "factor": 4.0}
    reader.close()


def test_7b_sized_sparse_file_opens_with_little_memory(tmp_path):
    """A 7B-shaped Q8_0 file (6.3 GB, a sparse hole): opening and reading rows + layer 0 grows RSS < 300 MB."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    path = tmp_path / "big.gguf"
    size = fx.write_sparse_llama(path)
    assert size > 6e9
    code = (
        "import json, gguf, tokenizers, numpy\n"
        "from explorer.backend.models.gguf_file import open_gguf\n"
        "def rss(): return int(open('/proc/self/status').read().split('VmRSS:')[1].split()[0]) * 1024\n"
        f"before = rss(); c, r, t = open_gguf({str(path)!r})\n"
        "x = r.rows('embed_tokens.weight', list(range(0, 32000, 63)))\n"
        "qk = [r.read(f'layers.0.self_attn.{p}_proj.weight').shape for p in 'qkvo']\n"
        "print(json.dumps({'grew': rss() - before, 'x': x.shape, 'qk': qk, 'layers': c['num_hidden_layers'],"
        " 'heads': [c['num_attention_heads'], c['num_key_value_heads'], c['head_dim']]}))\n")
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=root,
                         check=False, env={**__import__("os").environ, "PYTHONPATH": str(root)})
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["x"] == [508, 4096] and got["qk"] == [[4096, 4096], [1024, 4096], [1024, 4096], [4096, 4096]]
    assert got["layers"] == 32 and got["heads"] == [32, 8, 128]
    assert got["grew"] < 300 * 2**20, f"RSS grew {got['grew'] / 2**20:.0f} MB"


YARN_KV = {"llama.rope.scaling.type": "yarn", "llama.rope.scaling.factor": 4.0,
           "llama.rope.scaling.original_context_length": 64}


def test_yarn_betas_in_the_metadata_are_not_read_as_llama_cpp_does_not(tmp_path):
    """rope.scaling.yarn_beta_fast / _slow (convert_hf_to_gguf writes a config's beta_fast / beta_slow there)
    are not read by llama.cpp's common loader, which keeps 32 and 1 for a llama file: q and k after RoPE equal
    transformers' with betas 32 and 1, not those of a model with the file's 4 and 2 (which move the ramp's top
    from pair 3 to pair 2)."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    from explorer.backend.models.hf_folder import open_model
    from tests import models_helpers as mh

    def llama(**betas):
        torch.manual_seed(4)
        yarn = {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 4.0, "original_max_position_embeddings": 64,
                **betas}
        config = LlamaConfig(vocab_size=len(fx.vocabulary()[0]), hidden_size=64, intermediate_size=128,
                             num_hidden_layers=1, num_attention_heads=4, num_key_value_heads=2, head_dim=16,
                             max_position_embeddings=256, rope_parameters=yarn)
        config._attn_implementation = "eager"
        model = LlamaForCausalLM(config).eval()
        with torch.no_grad():
            for p in model.parameters():
                p.normal_(0.0, 0.3)
                p.copy_(p.half().float())                # F16 in the file is then exact
        return model

    path = tmp_path / "yarn.gguf"
    fx.write_llama_gguf(path, llama(), "F16", extra_kv={**YARN_KV, "llama.rope.scaling.yarn_beta_fast": 4.0,
                                                        "llama.rope.scaling.yarn_beta_slow": 2.0})
    with open_model(str(path)) as model:
        ids = model.tokenize("hello world the end of it all").ids
        got = model.layer0_qk(ids)
        assert model.config.rope_scaling.yarn_betas == (32.0, 1.0)
    ref = mh.capture(llama(), "llama", ids)
    np.testing.assert_allclose(got.q_rot, ref["q_rot"], atol=1e-5)
    np.testing.assert_allclose(got.k_rot, ref["k_rot"][got.kv_head], atol=1e-5)
    other = mh.capture(llama(beta_fast=4.0, beta_slow=2.0), "llama", ids)
    assert np.abs(got.q_rot - other["q_rot"]).max() > 1e-2


def test_yarns_attn_factor_is_refused(tmp_path):
    """rope.scaling.attn_factor multiplies cos and sin in every llama.cpp architecture: with YaRN, not modelled."""
    path = tmp_path / "yarn.gguf"
    fx.write_llama_gguf(path, fx.tiny_llama(), extra_kv={**YARN_KV, "llama.rope.scaling.attn_factor": 0.5})
    with pytest.raises(InputError, match="metadata llama.rope.scaling.attn_factor is not read") as err:
        open_gguf(path)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("key", ["yarn_ext_factor", "yarn_attn_factor", "yarn_log_multiplier"])
def test_yarn_keys_the_llama_loader_does_not_read_change_nothing(tmp_path, key):
    """The converter writes yarn_attn_factor from a config's attention_factor (OLMo 3's long-context models),
    yarn_ext_factor from extrapolation_factor; llama.cpp reads them (and yarn_log_multiplier) only in other
    architectures, and sets the YaRN attention factor from the factor itself: q and k as without them."""
    plain, extra = tmp_path / "plain.gguf", tmp_path / "extra.gguf"
    fx.write_llama_gguf(plain, fx.tiny_llama(), extra_kv=YARN_KV)
    fx.write_llama_gguf(extra, fx.tiny_llama(), extra_kv={**YARN_KV, f"llama.rope.scaling.{key}": 0.5})
    with open_model(str(plain)) as a, open_model(str(extra)) as b:
        ids = a.tokenize("hello world the end").ids
        assert a.config.rope_scaling == b.config.rope_scaling
        np.testing.assert_array_equal(a.layer0_qk(ids).q_rot, b.layer0_qk(ids).q_rot)


def test_yarn_rope_scaling(tmp_path):
    path = tmp_path / "yarn.gguf"
    fx.write_llama_gguf(path, fx.tiny_llama(), extra_kv={"llama.rope.scaling.type": "yarn",
                                                         "llama.rope.scaling.factor": 4.0,
                                                         "llama.rope.scaling.original_context_length": 64})
    config, reader, _ = open_gguf(path)
    reader.close()
    assert config["rope_scaling"] == {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 64}
    from transformers import LlamaConfig

    assert LlamaConfig(**config).rope_parameters["rope_type"] == "yarn"


def _ggml_rope_norm(x: np.ndarray, n_dims: int, base: float) -> np.ndarray:
    """ggml_rope's mode 0 (NORM, the llama arch), ported: rows (2i, 2i+1) of each head, i < n_dims/2, turn
    by p·base^(-2i/n_dims); the rest are kept. x (H, n, hd) in the file's row order; float64."""
    out = x.astype(np.float64).copy()
    p = np.arange(x.shape[1])
    for i0 in range(0, n_dims, 2):
        theta = p * base ** (-i0 / n_dims)
        a, b = x[..., i0].astype(np.float64), x[..., i0 + 1].astype(np.float64)
        out[..., i0] = a * np.cos(theta) - b * np.sin(theta)
        out[..., i0 + 1] = a * np.sin(theta) + b * np.cos(theta)
    return out


def test_llama_file_with_fewer_rotated_channels_turns_them_as_ggml_does(tmp_path, monkeypatch):
    """rope.dimension_count 8 of head_dim 16 in a llama file: ggml turns the file's neighbouring rows,
    which convert_hf_to_gguf's permute made of channels j and j + head_dim/2 (not j + 4)."""
    hd, rot = 16, 8
    writer_add = gguf.GGUFWriter.add_rope_dimension_count
    monkeypatch.setattr(gguf.GGUFWriter, "add_rope_dimension_count", lambda self, n: writer_add(self, rot))
    path = tmp_path / "partial.gguf"
    fx.write_llama_gguf(path, fx.tiny_llama(), "F16")
    from explorer.backend.models.hf_folder import open_model

    with open_model(str(path)) as model:
        assert model.config.rope_dim == rot and model.config.rope_pairs_across_head
        ids = model.tokenize("hello world the end of it all and more words here").ids
        got = model.layer0_qk(ids)
    for plain, rotated in ((got.q, got.q_rot), (got.k, got.k_rot)):
        in_file = np.concatenate([plain[..., :hd // 2, None], plain[..., hd // 2:, None]], -1).reshape(plain.shape)
        turned = _ggml_rope_norm(in_file, rot, model.config.rope_base)                 # the file's order
        want = np.concatenate([turned[..., 0::2], turned[..., 1::2]], axis=-1)         # back to HF's order
        np.testing.assert_allclose(rotated, want, atol=2e-6 * np.abs(want).max())


@pytest.mark.parametrize("key", ["llama.rope.scaling.factor", "llama.rope.scale_linear"])
def test_a_factor_without_a_scaling_type_is_linear_as_llama_cpp_reads_it(tmp_path, key):
    """llama.cpp's loader: the scaling type defaults to "linear", the factor is rope.scaling.factor or the older
    rope.scale_linear; a file with a factor of 4 and no type turns every pair 4 times slower (a type "none"
    never scales)."""
    path, none, zero = tmp_path / "m.gguf", tmp_path / "none.gguf", tmp_path / "zero.gguf"
    fx.write_llama_gguf(path, fx.tiny_llama(), extra_kv={key: 4.0})
    fx.write_llama_gguf(none, fx.tiny_llama(), extra_kv={key: 4.0, "llama.rope.scaling.type": "none"})
    fx.write_llama_gguf(zero, fx.tiny_llama(), extra_kv={key: 0.0})       # (freq_scale 1: no scaling)
    with open_model(str(path)) as model, open_model(str(none)) as plain, open_model(str(zero)) as unscaled:
        assert (model.config.rope_scaling.rope_type, model.config.rope_scaling.factor) == ("linear", 4.0)
        assert plain.config.rope_scaling.rope_type == unscaled.config.rope_scaling.rope_type == "default"
