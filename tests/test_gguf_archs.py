"""GGUF files of every RoPE family (llama, qwen2, qwen3, qwen2moe, qwen3moe, gemma, gemma2, gemma3, phi3, phi2, granite, granitemoe, smollm3, mistral3, hunyuan-dense, hunyuan-moe, seed_oss, apertus, olmo, olmo2, exaone4, stablelm, gpt-oss, starcoder2, olmoe, command-r, cohere2, deepseek2, llama4, ernie4_5, ernie4_5-moe, glm4, glm4moe, chatglm, qwen2vl, qwen3vl, qwen3vlmoe, gpt2, bert, starcoder, bloom, mpt, falcon, gptneox, nemotron, t5, t5encoder) against the transformers model they came from.

Each tiny random model (tests/models_helpers.py) is written the way llama.cpp's converter writes that
architecture (tests/gguf_arch_writer.py). F16 files hold float16-rounded weights exactly, so X into layer 0 and
layer-0 q/k (before and after RoPE) equal the transformers model's own, captured with hooks, to 1e-5; Q8_0
files' weights equal gguf's own dequantization of the stored blocks (permutation and Gemma's +1 undone); where
transformers' own GGUF loader reads the architecture, its weights equal the reader's.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import gguf_arch_writer as aw
from tests import gguf_fixtures as fx
from tests import models_helpers as mh

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
FAMILIES = ("llama", "qwen2", "qwen3", "gemma")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2]


def close(ours, ref, tol=1e-5):
    ref = np.asarray(ref, dtype=np.float64)
    np.testing.assert_allclose(ours, ref, rtol=0, atol=tol * max(1.0, float(np.abs(ref).max())))


@pytest.fixture(scope="module", params=[(f, q) for f in FAMILIES for q in ("F16", "Q8_0")],
                ids=lambda p: f"{p[0]}-{p[1]}")
def written(request, tmp_path_factory):
    family, qtype = request.param
    folder = tmp_path_factory.mktemp(f"{family}-{qtype}")
    torch_model = mh.build(family, folder / "hf", seed=len(family) + 11)
    if qtype == "F16":
        aw.fp16_exact(torch_model)
    path = folder / "m.gguf"
    stored = aw.write_family_gguf(path, torch_model, family, qtype)
    model = open_model(str(path))
    yield family, qtype, torch_model, model, stored, path
    model.close()


def _inverse_permutation(n_rows: int, heads: int) -> np.ndarray:
    """Index g with hf = gguf[g], from the fixture's own llama.cpp permute (not the reader's)."""
    src = fx.permute(np.arange(n_rows)[:, None], heads, heads)[:, 0]                  # gguf[j] = hf[src[j]]
    return np.argsort(src)


def test_config_is_the_family(written):
    family, _, torch_model, model, _, _ = written
    c, hf = model.config, torch_model.config
    assert (c.family, c.d_model, c.n_heads, c.n_kv_heads) == (family, hf.hidden_size, hf.num_attention_heads,
                                                              hf.num_key_value_heads)
    assert c.head_dim == (getattr(hf, "head_dim", None) or hf.hidden_size // hf.num_attention_heads)
    assert c.rope_base == pytest.approx(hf.rope_parameters["rope_theta"])
    assert c.qk_bias == (family in ("llama", "qwen2")) and c.qk_norm == (family == "qwen3")
    assert c.embed_scale == (pytest.approx(np.sqrt(hf.hidden_size)) if family == "gemma" else 1.0)


def gguf_side_weights(path, family: str, cfg, names) -> dict[str, np.ndarray]:
    """HF name -> gguf's own reader + dequantize, un-permuted (llama, olmo) and minus 1 (gemma norms)."""
    ref = {t.name: t for t in gguf.GGUFReader(path).tensors}
    out = {}
    for name in names:
        t = ref[aw.gguf_name(name, family)]
        want = gguf.quants.dequantize(t.data, t.tensor_type).astype(np.float32)
        want = want.reshape(tuple(int(n) for n in reversed(t.shape.tolist())))
        if family in ("llama", "olmo") and (".q_proj." in name or ".k_proj." in name):
            heads = cfg.num_attention_heads if ".q_proj." in name else cfg.num_key_value_heads
            want = want[_inverse_permutation(want.shape[0], heads)]
        if family == "gemma" and name.endswith("norm.weight"):
            want = want - np.float32(1)
        out[name] = want
    return out


def test_weights_equal_gguf_dequantize_undone(written):
    family, _, torch_model, model, _, path = written
    names = model.tensors.names()
    for name, want in gguf_side_weights(path, family, torch_model.config, names).items():
        np.testing.assert_array_equal(model.tensors.read(name), want, err_msg=name)


def test_weights_equal_the_transformers_model(written):
    family, qtype, torch_model, model, _, _ = written
    want = fx.hf_weights(torch_model)
    assert set(model.tensors.names()) == set(want) - ({"lm_head.weight"} if family == "gemma" else set())
    for name in model.tensors.names():
        got = model.tensors.read(name)
        if got.ndim == 1:                                   # norms and biases F32 (Gemma: (w + 1) - 1)
            np.testing.assert_allclose(got, want[name], rtol=0, atol=2.5e-7, err_msg=name)
        elif qtype == "F16":
            np.testing.assert_array_equal(got, want[name], err_msg=name)
        else:
            assert np.abs(got - want[name]).max() <= np.abs(want[name]).max() / 127 * 0.51 + 1e-7, name


def test_x_and_layer0_qk_equal_transformers(written):
    """F16: the model itself (the file holds it exactly); Q8_0: the model with gguf's dequantized weights."""
    import copy

    family, qtype, torch_model, model, _, path = written
    if qtype != "F16":
        torch_model = copy.deepcopy(torch_model)
        weights = gguf_side_weights(path, family, torch_model.config, model.tensors.names())
        state = {k: torch.from_numpy(weights[k.removeprefix("model.")]) for k in torch_model.state_dict()
                 if k.removeprefix("model.") in weights}
        torch_model.load_state_dict(state, strict=False)
    ref = mh.capture(torch_model, family, IDS)
    cfg = model.config
    close(model.input_x(IDS), ref["x"])
    qk = model.layer0_qk(IDS)
    if family == "qwen3":
        q_ref, k_ref = ref["q"].transpose(1, 0, 2), ref["k"].transpose(1, 0, 2)
    else:
        n = len(IDS)
        q_ref = ref["q"].reshape(n, cfg.n_heads, -1).transpose(1, 0, 2)
        k_ref = ref["k"].reshape(n, cfg.n_kv_heads, -1).transpose(1, 0, 2)
    close(qk.q, q_ref)
    close(qk.k, k_ref[qk.kv_head])
    close(qk.q_rot, ref["q_rot"])
    close(qk.k_rot, ref["k_rot"][qk.kv_head])
    assert not np.allclose(qk.q_rot, qk.q)


@pytest.mark.parametrize("family", ["llama", "qwen2", "qwen3"])
def test_transformers_gguf_loader_reads_the_same_weights(family, tmp_path):
    """transformers' own GGUF loader (load_gguf_checkpoint: dequantizes, reverses llama.cpp's permutation for
    llama, leaves qwen2 / qwen3 alone) == the reader. (from_pretrained(gguf_file=) would need accelerate.)"""
    from transformers.modeling_gguf_pytorch_utils import load_gguf_checkpoint

    torch_model = mh.build(family, tmp_path / "hf", seed=5)
    aw.write_family_gguf(tmp_path / "m.gguf", torch_model, family, "Q8_0")
    loaded = load_gguf_checkpoint(str(tmp_path / "m.gguf"), return_tensors=True, model_to_load=torch_model)
    assert loaded["config"]["model_type"] == family
    want = {k.removeprefix("model."): np.asarray(v, dtype=np.float32) for k, v in loaded["tensors"].items()}
    with open_model(str(tmp_path / "m.gguf")) as model:
        for name in model.tensors.names():
            np.testing.assert_allclose(model.tensors.read(name), want[name], rtol=0, atol=1e-6, err_msg=name)


def test_qwen3_without_q_norm_is_refused(tmp_path):
    torch_model = mh.build("qwen3", tmp_path / "hf", seed=1)
    path = tmp_path / "m.gguf"
    aw.write_family_gguf(path, torch_model, "qwen3")
    data = path.read_bytes().replace(b"blk.0.attn_q_norm.weight", b"blk.0.attn_x_norm.weight")
    path.write_bytes(data)
    with pytest.raises(InputError, match=r"^[^\n]*tensor blk\.0\.attn_q_norm\.weight is missing$"):
        open_model(str(path))


def test_a_q_bias_without_its_k_bias_is_refused(tmp_path):
    """Qwen2's q/k biases come together: a file with only the q bias was read with k unbiased."""
    torch_model = mh.build("qwen2", tmp_path / "hf", seed=1)
    path = tmp_path / "m.gguf"
    aw.write_family_gguf(path, torch_model, "qwen2")
    path.write_bytes(path.read_bytes().replace(b"blk.0.attn_k.bias", b"blk.0.attn_x.bias"))
    with pytest.raises(InputError, match=r"^[^\n]*tensor blk\.0\.attn_k\.bias is missing beside blk\.0\.attn_q\.bias$"):
        open_model(str(path))


@pytest.mark.parametrize("arch", ["gptj", "refact", "mistral4"])   # (falcon, gptneox: their own tests)
def test_other_architectures_are_refused_by_name(tmp_path, arch):
    path = tmp_path / "m.gguf"
    fx.write_llama_gguf(path, fx.tiny_llama(), arch=arch)
    with pytest.raises(InputError, match=rf"^[^\n]*architecture '{arch}' is not supported; supported: "
                                         r"llama, qwen2, qwen3, qwen2moe, qwen3moe, gemma, gemma2, gemma3, phi3, phi2, granite, granitemoe, smollm3, mistral3, hunyuan-dense, hunyuan-moe, seed_oss, apertus, olmo, olmo2, exaone4, stablelm, gpt-oss, starcoder2, olmoe, command-r, cohere2, deepseek2, llama4, ernie4_5, ernie4_5-moe, glm4, glm4moe, chatglm, qwen2vl, qwen3vl, qwen3vlmoe, gpt2, bert, starcoder, bloom, mpt, falcon, gptneox, nemotron, t5, t5encoder$"):
        open_model(str(path))
