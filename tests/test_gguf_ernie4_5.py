"""GGUF files of ERNIE 4.5 (llama.cpp's `ernie4_5` and `ernie4_5-moe`) against the transformers Ernie4_5ForCausalLM /
Ernie4_5_MoeForCausalLM they came from.

Each tiny random model is written as conversion/ernie.py's Ernie4_5Model(TextModel) / Ernie4_5MoeModel write it
(tests/gguf_arch_writer.py: no permutation, q/k/v biases when the model has them, the MoE keys and MLP tensors).
llama_model_rope_type gives both NORM (neighbouring rows (2j, 2j + 1)), which are ERNIE's own pairs: X, layer-0 q/k
after RoPE and the causal softmax equal transformers' (F16: the model exactly; Q8_0: the model holding gguf's own
dequantization of the stored blocks). Damaged files give one-line InputErrors.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import gguf_arch_writer as aw
from tests import gguf_converter_writer as gw
from tests import gguf_fixtures as fx
from tests import models_helpers as mh

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2]
FAMILY = {"ernie4_5": "ernie4_5", "ernie4_5-moe": "ernie4_5_moe"}
CASES = {"dense F16": ("ernie4_5", "F16", {}), "dense Q8_0": ("ernie4_5", "Q8_0", {}),
         "dense no bias": ("ernie4_5", "F16", {"use_bias": False}),
         "moe F16": ("ernie4_5-moe", "F16", {}), "moe Q8_0": ("ernie4_5-moe", "Q8_0", {}),
         "moe head_dim 16": ("ernie4_5-moe", "F16", {"head_dim": 16, "use_bias": False})}


def _held(torch_model, path, names, qtype):
    """The torch model holding what the file holds (F16: itself; Q8_0: gguf's dequantization, nothing permuted)."""
    if qtype == "F16":
        return torch_model
    import copy

    from tests.test_gguf_archs import gguf_side_weights

    held = copy.deepcopy(torch_model)
    weights = gguf_side_weights(str(path), "ernie", held.config, [n for n in names if ".mlp." not in n])
    held.load_state_dict({k: torch.from_numpy(weights[k.removeprefix("model.")]) for k in held.state_dict()
                          if k.removeprefix("model.") in weights}, strict=False)
    return held


@pytest.fixture(scope="module", params=sorted(CASES))
def written(request, tmp_path_factory):
    arch, qtype, settings = CASES[request.param]
    folder = tmp_path_factory.mktemp(request.param.replace(" ", "-"))
    torch_model = aw.write_saved(folder, FAMILY[arch], arch, qtype, 31, dict(mh.FAMILIES[FAMILY[arch]], **settings))
    with open_model(str(folder / "m.gguf")) as model:
        yield arch, settings, _held(torch_model, folder / "m.gguf", model.tensors.names(), qtype), model, folder


def test_the_file_reads_as_ernie_with_neighbour_pairs(written):
    arch, settings, torch_model, model, folder = written
    cfg, hf = model.config, torch_model.config
    head_dim = getattr(hf, "head_dim", None) or hf.hidden_size // hf.num_attention_heads
    assert (cfg.model_type, cfg.family, cfg.rope_interleaved, cfg.rope_pairs_across_head) == (
        FAMILY[arch], "llama", True, False)
    assert (cfg.head_dim, cfg.rope_dim, cfg.n_kv_heads, cfg.qk_bias) == (
        head_dim, head_dim, hf.num_key_value_heads, settings.get("use_bias", True))
    assert cfg.rope_base == pytest.approx(hf.rope_parameters["rope_theta"])
    with open_model(str(folder / "hf")) as from_folder:
        want = from_folder.config
        assert (want.head_dim, want.rope_interleaved, want.qk_bias) == (cfg.head_dim, True, cfg.qk_bias)


@pytest.mark.parametrize("ids", [IDS, IDS * 4], ids=["12 tokens", "48 tokens"])
def test_x_layer0_qk_and_attention_equal_transformers(written, ids):
    arch, _, torch_model, model, _ = written
    mh.assert_layer0_as_transformers(model, torch_model, FAMILY[arch], ids)


def test_q_turns_in_neighbouring_pairs(written):
    """q after RoPE is q_proj's turned in pairs (2j, 2j + 1) (rows as stored: NORM), not rotate-half."""
    arch, _, torch_model, model, _ = written
    qk, hd, base = model.layer0_qk(IDS), model.config.head_dim, model.config.rope_base
    angles = np.arange(len(IDS))[:, None] * base ** (-np.arange(0, hd, 2) / hd)[None, :]        # (n, hd / 2)
    q = qk.q.astype(np.float64)
    a, b = q[..., 0::2], q[..., 1::2]
    pairs = np.stack([a * np.cos(angles) - b * np.sin(angles), a * np.sin(angles) + b * np.cos(angles)], -1)
    np.testing.assert_allclose(qk.q_rot, pairs.reshape(q.shape), rtol=0, atol=1e-5 * np.abs(q).max())


def _write_edited(tmp_path, arch, edit, **settings):
    family = FAMILY[arch]
    torch_model = aw.fp16_random_model(family, tmp_path / "hf", 31, dict(mh.FAMILIES[family], **settings))
    path = tmp_path / "m.gguf"
    aw.write_family_gguf(path, torch_model, arch, edit=edit)
    return path


@pytest.mark.parametrize("arch, edit, match", [
    ("ernie4_5", lambda w, stored: gw.replace_tensor(w, stored, "blk.0.attn_k.bias"),
     r"tensor blk\.0\.attn_k\.bias is missing beside blk\.0\.attn_q\.bias"),
    ("ernie4_5-moe", lambda w, stored: (fx.drop_keys(w, "ernie4_5-moe.rope.dimension_count"),
                                        w.add_rope_dimension_count(4)),
     r"ernie4_5-moe\.rope\.dimension_count is 4; llama\.cpp's ernie4_5-moe turns the whole head \(8 channels\)"),
    ("ernie4_5", lambda w, stored: gw.replace_tensor(w, stored, "blk.0.attn_q.weight", np.ones((30, 32), np.float32)),
     r"tensor blk\.0\.attn_q\.weight has shape \[32, 30\], expected \[32, 48\]"),
])
def test_damaged_files_are_refused_in_one_line(tmp_path, arch, edit, match):
    path = _write_edited(tmp_path, arch, edit)
    with pytest.raises(InputError, match=match) as info:
        with open_model(str(path)) as model:
            model.layer0_qk(IDS)
    assert "\n" not in str(info.value)
