"""A GGUF file through the format-independent Model: X and layer-0 q/k equal transformers' own Llama.

The GGUF is written in F16 from a transformers Llama whose weights were first rounded to float16, so the file
holds them exactly and the comparison is to float32 rounding. Runs once the Model package is present
(explorer.backend.models.hf_folder, written alongside this reader).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests import gguf_fixtures as fx

hf_folder = pytest.importorskip("explorer.backend.models.hf_folder")
torch = pytest.importorskip("torch")


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    llama = fx.tiny_llama(seed=3)
    with torch.no_grad():
        for p in llama.parameters():
            if p.ndim == 2:
                p.copy_(p.half().float())        # F16 in the file is then exact
    path = tmp_path_factory.mktemp("m") / "tiny.gguf"
    fx.write_llama_gguf(path, llama, "F16")
    model = hf_folder.open_model(str(path))
    yield llama, model
    model.close()


def test_tokens_and_input_equal_transformers(pair):
    llama, model = pair
    t = model.tokenize("hello world 12 你好")
    tokens, _, merges = fx.vocabulary()
    assert t.ids.tolist() == fx.reference_encode("hello world 12 你好", fx.SMOLLM_RES, tokens, merges)
    with torch.no_grad():
        want = llama.model.embed_tokens(torch.tensor(t.ids)).numpy()
    np.testing.assert_allclose(model.input_x(t.ids), want, rtol=0, atol=1e-7)   # Llama: X = E[ids] only


def test_layer0_qk_equal_transformers_hooks(pair):
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    llama, model = pair
    ids = model.tokenize("hello world the end").ids
    seen = {}
    attn = llama.model.layers[0].self_attn
    hooks = [attn.q_proj.register_forward_hook(lambda m, i, o: seen.__setitem__("q", o)),
             attn.k_proj.register_forward_hook(lambda m, i, o: seen.__setitem__("k", o))]
    with torch.no_grad():
        llama(torch.tensor(ids)[None])
        n, hd = len(ids), 16
        q = seen["q"].view(1, n, 4, hd).transpose(1, 2)                   # (1, H, n, hd)
        k = seen["k"].view(1, n, 2, hd).transpose(1, 2)                   # (1, KV, n, hd)
        x = llama.model.embed_tokens(torch.tensor(ids)[None])
        cos, sin = llama.model.rotary_emb(x, torch.arange(n)[None])
        q_rot, k_rot = apply_rotary_pos_emb(q, k, cos, sin)
    for h in hooks:
        h.remove()
    got = model.layer0_qk(ids)
    kv = np.asarray(got.kv_head)
    assert kv.tolist() == [0, 0, 1, 1]
    np.testing.assert_allclose(got.q, q[0].numpy(), atol=1e-5)
    np.testing.assert_allclose(got.k, k[0].numpy()[kv], atol=1e-5)
    np.testing.assert_allclose(got.q_rot, q_rot[0].numpy(), atol=1e-5)
    np.testing.assert_allclose(got.k_rot, k_rot[0].numpy()[kv], atol=1e-5)
