"""GGUF files of SmolLM3 (llama.cpp's `smollm3`) against the transformers SmolLM3ForCausalLM they came from.

Each tiny random model (8 layers: transformers' default no_rope_layer_interval 4 leaves layers 3 and 7 without
RoPE) is saved with save_pretrained and written as convert_hf_to_gguf.py's SmolLM3Model(LlamaModel) writes it
(tests/gguf_arch_writer.py: LlamaModel's keys, q/k rows permuted, nothing of the NoPE layers). llama.cpp's
smollm3 graph skips RoPE where (il + 1) % 4 == 0 (a step fixed at 4): the file reads as those layers. F16 files
hold the float16-rounded model exactly; Q8_0 files are checked against the model holding gguf's own
dequantization of the stored blocks (un-permuted). Damaged files give one-line InputErrors, in Chinese too.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError, error_text
from tests import gguf_arch_writer as aw
from tests import gguf_fixtures as fx
from tests import models_helpers as mh

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2]
SETTINGS = dict(mh.FAMILIES["smollm3"], num_hidden_layers=8)


def close(ours, ref, tol=1e-5):
    ref = np.asarray(ref, dtype=np.float64)
    np.testing.assert_allclose(ours, ref, rtol=0, atol=tol * max(1.0, float(np.abs(ref).max())))


def damaged(header, fields=None, tensors=None):
    """`header` with `fields` merged into its metadata (a dict) or made from it (a function of the fields), and its
    tensor table made by `tensors(header)`: a damaged header for config_from_metadata."""
    given = fields(header.fields) if callable(fields) else dict(header.fields, **(fields or {}))
    return dataclasses.replace(header, fields=given, tensors=tensors(header) if tensors else header.tensors)


def without_field(key: str):
    """A `fields` function for damaged(): the metadata without `key`."""
    return lambda fields: {k: v for k, v in fields.items() if k != key}


def refused_in_one_line(read, says: str) -> None:
    """read() (config_from_metadata or a layer-0 check of a damaged header read as "m.gguf") raises an InputError
    matching `says`: one line naming the file, in English and in Chinese."""
    with pytest.raises(InputError, match=says) as info:
        read()
    text, zh = str(info.value), error_text(info.value, "zh_CN")
    assert text.startswith("m.gguf: ") and "\n" not in text and "\n" not in zh
    assert any("\u4e00" <= ch <= "\u9fff" for ch in zh) and "m.gguf" in zh


def same_as_folder(written, ids, qk, parts=("q_rot", "k_rot")) -> None:
    """F16 (the file holds its folder's weights exactly): the folder opened by PE Explorer gives the file's layer-0
    `parts` of qk; Q8_0 files are compared with transformers only."""
    held, _, torch_model, folder = written
    if held is torch_model:
        with open_model(str(folder / "hf")) as from_folder:
            want = from_folder.layer0_qk(ids)
            for part in parts:
                close(getattr(qk, part), getattr(want, part))


def _write(folder, qtype="F16", seed=23, **settings):
    return aw.write_saved(folder, "smollm3", "smollm3", qtype, seed, dict(SETTINGS, **settings))


written = aw.written_fixture("smollm3", _write)


def test_the_file_reads_as_smollm3_with_llama_cpps_nope_layers(written):
    """model type smollm3 (Llama's family), the folder's heads and base, and NoPE layers 3 and 7: llama.cpp's
    (il + 1) % 4 == 0, transformers' no_rope_layers zeros, and the folder's own reading."""
    _, model, torch_model, folder = written
    cfg, hf = model.config, torch_model.config
    flags = hf.no_rope_layers
    assert (cfg.model_type, cfg.family, cfg.n_layers, cfg.n_heads, cfg.n_kv_heads) == ("smollm3", "llama", 8, 4, 2)
    assert cfg.rope_base == pytest.approx(5000.0) and cfg.rope_dim == cfg.head_dim == 8
    assert cfg.nope_layers == (3, 7) == tuple(i for i, f in enumerate(flags) if f == 0)
    assert tuple(il for il in range(8) if (il + 1) % 4 == 0) == cfg.nope_layers
    with open_model(str(folder / "hf")) as from_folder:
        assert from_folder.config.nope_layers == cfg.nope_layers


def test_x_layer0_qk_and_attention_equal_transformers(written):
    """X, layer 0's rotated q and k (turned: layer 0 has RoPE in both) and its attention equal
    SmolLM3ForCausalLM's own; F16: the folder opened by PE Explorer gives the same q and k."""
    held, model, _, _ = written
    mh.assert_layer0_as_transformers(model, held, "smollm3", IDS)
    qk = model.layer0_qk(IDS)
    assert not np.allclose(qk.q_rot, qk.q)
    same_as_folder(written, IDS, qk)


def _layer_inputs(torch_model, ids):
    """Each layer's real input (n, d) and transformers' attention weights (L, H, n, n)."""
    got: dict = {}
    hooks = [layer.register_forward_pre_hook(
        lambda m, args, kwargs, il=il: got.update({il: (args or [kwargs["hidden_states"]])[0][0].numpy().copy()}),
        with_kwargs=True) for il, layer in enumerate(torch_model.model.layers)]
    mh._run_hooked(torch_model, ids, hooks, None)
    with torch.no_grad():
        out = torch_model(input_ids=torch.as_tensor(np.asarray(ids)[None, :]), output_attentions=True)
    return got, [a[0].numpy() for a in out.attentions]


def test_later_layers_turn_or_not_as_llama_cpp_and_transformers_do(written):
    """Given each layer's real input: layers 3 and 7 leave q and k as projected, layers 1, 2 and 4 turn them,
    and every one's causal softmax equals transformers' attention weights of that layer."""
    held, model, _, _ = written
    inputs, attentions = _layer_inputs(held, IDS)
    for il in (1, 2, 3, 4, 7):
        qk = model.layer0_qk(inputs[il], layer=il)
        if il in (3, 7):
            np.testing.assert_array_equal(qk.q_rot, qk.q)
            np.testing.assert_array_equal(qk.k_rot, qk.k)
        else:
            assert not np.allclose(qk.q_rot, qk.q)
        close(mh.attention_of(qk), attentions[il])


def test_the_views_and_export_read_the_gguf_file(written, tmp_path):
    """Tokens (X = E[ids]), Real RoPE (layer 0's rotated q, k and logits) and `export qk` on the .gguf."""
    from explorer.commands.cli import main
    from explorer.compute import qk as qk_view
    from explorer.compute.model_tokens import for_model
    from explorer.params import Params

    _, model, _, folder = written
    path, text = str(folder / "m.gguf"), "12, 34. 56 (7)"          # (bytes < 64: ids of the 64-row table)
    ids = model.tokenize(text).ids
    want = model.layer0_qk(ids)
    params = Params(model=path, embedding_source="model", text=text)
    r = for_model(params)
    assert (r.error, r.position) == ("", "rope")
    np.testing.assert_array_equal(r.x, model.input_x(ids))
    view = qk_view.qk_view(params, qk_view.QkState(head=1))
    assert (view.error, view.head, view.n_heads, view.n_kv_heads) == ("", 1, 4, 2)
    np.testing.assert_array_equal(view.q, want.q_rot)
    np.testing.assert_array_equal(view.logits, want.logits)
    assert main(["export", "qk", "--model", path, "--text", text, "-o", str(tmp_path / "f.npz")]) == 0
    f = np.load(tmp_path / "f.npz")
    np.testing.assert_array_equal(f["q"], want.q_rot)
    np.testing.assert_array_equal(f["logits"], want.logits)


def test_a_checkpoint_with_another_interval_reads_as_llama_cpp_runs_it(tmp_path):
    """A folder with no_rope_layer_interval 3 (NoPE layers 2 and 5) converts to a file that says nothing of it:
    llama.cpp runs it with every 4th layer NoPE, and the file reads so; the folder reads its own."""
    _write(tmp_path, no_rope_layer_interval=3)
    assert json.loads((tmp_path / "hf" / "config.json").read_text())["no_rope_layer_interval"] == 3
    with open_model(str(tmp_path / "hf")) as from_folder, open_model(str(tmp_path / "m.gguf")) as from_file:
        assert (from_folder.config.nope_layers, from_file.config.nope_layers) == ((2, 5), (3, 7))


def _header(tmp_path):
    _write(tmp_path)
    return fx.header_of(tmp_path / "m.gguf")


def _reshaped(header, name, ne):
    return dict(header.tensors, **{name: dataclasses.replace(header.tensors[name], ne=ne)})


def _without(header, name):
    return {k: v for k, v in header.tensors.items() if k != name}


def _with(header, name, like):
    return dict(header.tensors, **{name: header.tensors[like]})


@pytest.mark.parametrize("fields, tensors, says", [
    ({}, lambda h: _without(h, "blk.5.attn_k.weight"), r"tensor blk\.5\.attn_k\.weight is missing"),
    ({}, lambda h: _without(h, "blk.0.attn_q.weight"), r"tensor blk\.0\.attn_q\.weight is missing"),
    ({}, lambda h: _reshaped(h, "blk.6.attn_q.weight", (32, 24)),
     r"tensor blk\.6\.attn_q\.weight has shape \[32, 24\], expected \[32, 32\]"),
    ({}, lambda h: _reshaped(h, "blk.2.attn_v.weight", (32, 8)),
     r"tensor blk\.2\.attn_v\.weight has shape \[32, 8\], expected \[32, 16\]"),
    ({"smollm3.attention.head_count_kv": 3}, None, r"4 attention heads cannot share 3 key/value heads"),
    ({"smollm3.attention.head_count": 0}, None, r"smollm3\.attention\.head_count is 0; it must be an integer"),
    ({"smollm3.rope.dimension_count": 4}, None,
     r"smollm3\.rope\.dimension_count is 4; llama\.cpp's smollm3 turns the whole head \(8 channels\)"),
    ({"smollm3.block_count": 9}, None, r"tensor blk\.8\.attn_q\.weight is missing"),
    ({"smollm3.block_count": 7}, None, r"tensor blk\.7\.\S+ is not one llama\.cpp's smollm3 loads \(its loader "
                                       r"refuses the file\)"),
    ({}, lambda h: _with(h, "blk.3.attn_q_norm.weight", "blk.3.attn_norm.weight"),
     r"tensor blk\.3\.attn_q_norm\.weight is not one llama\.cpp's smollm3 loads"),
    ({}, lambda h: _with(h, "rope_freqs.weight", "blk.0.attn_norm.weight"), r"tensor rope_freqs\.weight is only "
                                                                            r"read in a 'llama', 'llama4', "
                                                                            r"'exaone4' or 'apertus' file"),
])
def test_damaged_files_are_refused_in_one_line(tmp_path, fields, tensors, says):
    """Missing or misshapen q / k / v in any layer, bad head counts, a partial rotation (the graph asserts
    n_rot == head_dim), a block count that is not the file's, and a tensor llama.cpp's smollm3 does not load:
    one line naming the file, in English and in Chinese."""
    from explorer.backend.models.gguf_config import config_from_metadata

    header = _header(tmp_path)
    bad = damaged(header, fields, tensors)
    refused_in_one_line(lambda: config_from_metadata(bad, "m.gguf"), says)
    assert config_from_metadata(header, "m.gguf")["no_rope_layers"] == [1, 1, 1, 0, 1, 1, 1, 0]


def test_a_damaged_file_on_disk_is_refused_when_opened(tmp_path, monkeypatch):
    """open_model itself refuses a written file with a partial rotation, in one line."""
    monkeypatch.setattr(gguf.GGUFWriter, "add_rope_dimension_count", lambda self, n: self.add_uint32(
        "smollm3.rope.dimension_count", 6))
    _write(tmp_path)
    with pytest.raises(InputError, match=r"smollm3\.rope\.dimension_count is 6; llama\.cpp's smollm3 turns the "
                                         r"whole head") as info:
        open_model(str(tmp_path / "m.gguf"))
    assert "\n" not in str(info.value)
