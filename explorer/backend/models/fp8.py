"""FP8 checkpoints: float8 weights and their scales, read back to float32 as transformers does. No Qt.

A fine-grained FP8 checkpoint (config.json's `quantization_config` with `"quant_method": "fp8"`: DeepSeek-V3 and
R1, Qwen3's -FP8 releases, ...) stores a linear weight W (rows, cols) as `<name>.weight` in F8_E4M3 and, beside it,
`<name>.weight_scale_inv` (float32, or F8_E8M0 powers of two when `"scale_fmt": "ue8m0"`): one number for each
`weight_block_size` block (128 x 128 in the published configs; the last blocks of a side that is not a multiple
are partial, so the grid is ceil(rows / 128) x ceil(cols / 128)), or one for the whole tensor when the block size
is null. W = the float8 value x its block's scale, as transformers' FP8 integration dequantizes it
(`finegrained_fp8._dequantize_fp8_weight`; on a machine without a GPU it loads such a checkpoint that way).
compressed-tensors' FP8 (`"quant_method": "compressed-tensors"`, llm-compressor's FP8 models) is the same with
`<name>.weight_scale`, one scale a tensor, an output channel, a group of columns or a block (its config group's
strategy), as compressed-tensors' own `dequantize` reads it. Tensors the checkpoint keeps unquantized
(embeddings, norms) are read as they are. Activation scales are not modelled: they round the inputs of the
projections at run time on FP8 kernels only.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from explorer.errors import InputError, msg, require

FP8 = ("F8_E4M3", "F8_E5M2")           # safetensors' float8 weight dtypes
E8M0 = "F8_E8M0"                       # an 8-bit power of two (the ue8m0 scales)
MAX_BLOCK = 1 << 20


@dataclass(frozen=True)
class Quantization:
    """What config.json's quantization_config says about the weights."""

    method: str = ""                  # its quant_method ("" when the config has none)
    block: tuple | None = None        # (rows, columns) that share one scale, None for a whole side; None: one
    #                                   scale a tensor
    scales: str = ""                  # the suffix of a float8 weight's scales: "weight_scale_inv" (fine-grained
    #                                   FP8), "weight_scale" (compressed-tensors); "": float8 weights are not read


def quantization_of(config: dict) -> Quantization:
    """The checkpoint's Quantization from its config.json (InputError for a malformed one)."""
    q = config.get("quantization_config")
    if q is None and isinstance(config.get("text_config"), dict):        # (a few multimodal configs)
        q = config["text_config"].get("quantization_config")
    if q is None:
        return Quantization()
    require(isinstance(q, dict), "config.json's quantization_config must be an object, not %1", repr(q))
    method = q.get("quant_method", "")
    require(isinstance(method, str), "config.json's quantization_config.quant_method must be text, not %1",
            repr(method))
    if method == "fp8":
        return Quantization(method, _block(q.get("weight_block_size"), "weight_block_size"), "weight_scale_inv")
    if method == "compressed-tensors":
        return _compressed_tensors(q)
    return Quantization(method)


def _block(value, key: str, needed: bool = False) -> tuple[int, int] | None:
    """config.json's `key`: two block sides, or None (one scale a tensor) where it is null and not needed."""
    if value is None and not needed:
        return None
    require(isinstance(value, list) and len(value) == 2
            and all(type(b) is int and 0 < b <= MAX_BLOCK for b in value),
            "config.json's %1 must be two whole numbers from 1 to %2, not %3", key, MAX_BLOCK, repr(value))
    return value[0], value[1]


def _compressed_tensors(q: dict) -> Quantization:
    """compressed-tensors' float-quantized FP8 (llm-compressor's FP8 models): the 8-bit float weights of its
    config groups under one symmetric scheme, one scale a tensor, an output channel, a group of columns
    (group_size) or a block (block_structure). Several schemes, zero points or other strategies: not read."""
    groups = q.get("config_groups")
    require(isinstance(groups, dict), "config.json's quantization_config.config_groups must be an object, not %1",
            repr(groups))
    keys = ("strategy", "group_size", "block_structure", "symmetric")
    schemes = {tuple(repr(w.get(k)) for k in keys): w for g in groups.values() if isinstance(g, dict)
               for w in [g.get("weights")] if isinstance(w, dict) and w.get("type") == "float"
               and w.get("num_bits") == 8}
    if len(schemes) != 1 or next(iter(schemes.values())).get("symmetric") is False:
        return Quantization("compressed-tensors")
    w = next(iter(schemes.values()))
    strategy, group = w.get("strategy"), w.get("group_size")
    if strategy == "group":
        require(type(group) is int and 0 < group <= MAX_BLOCK, "config.json's group_size must be a whole number "
                "from 1 to %1, not %2", MAX_BLOCK, repr(group))
        return Quantization("compressed-tensors", (1, group), "weight_scale")
    if strategy == "block":
        return Quantization("compressed-tensors", _block(w.get("block_structure"), "block_structure", True),
                            "weight_scale")
    if strategy in ("tensor", "channel"):
        return Quantization("compressed-tensors", None if strategy == "tensor" else (1, None), "weight_scale")
    return Quantization("compressed-tensors")


def scale_name(name: str, suffix: str = "weight_scale_inv") -> str:
    """The scales' tensor of float8 weight `name` ("x.weight" -> "x.weight_scale_inv")."""
    if name.endswith(".weight"):
        return name.rsplit(".", 1)[0] + "." + suffix
    return name + "_" + suffix.removeprefix("weight_")               # (transformers' 3-D experts: x_scale_inv)


@lru_cache(maxsize=None)
def _table(dtype: str) -> np.ndarray:
    """The float32 value of each of the 256 bytes of a float8 dtype; (256,). torch's own float8 types."""
    if dtype == E8M0:           # 2^(byte - 127); 255 is NaN (OCP microscaling formats, E8M0)
        out = np.ldexp(np.float32(1.0), np.arange(256) - 127).astype(np.float32)
        out[255] = np.nan
        return out
    import torch

    kind = {"F8_E4M3": torch.float8_e4m3fn, "F8_E5M2": torch.float8_e5m2}[dtype]
    return torch.arange(256, dtype=torch.uint8).view(kind).to(torch.float32).numpy()


def decode(buf: bytes, dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    """Float8 bytes as float32 values; shape."""
    return _table(dtype)[np.frombuffer(buf, dtype=np.uint8)].reshape(shape)


def scaled(values: np.ndarray, scale: np.ndarray, quant: Quantization, name: str, shape: tuple[int, ...],
           row_ids: np.ndarray | None = None) -> np.ndarray:
    """values (the float8 weight `name` of `shape`, or its rows row_ids: (len(row_ids), cols)) times their
    blocks' scales; float32, values' shape. InputError where the scales do not fit the blocks."""
    if quant.block is None:
        require(scale.size == 1, "%1 has %2 scales where config.json's quantization_config gives one to the whole "
                "tensor", repr(name), scale.size)
        return values * np.float32(scale.reshape(()))
    b0, b1 = (side or whole for side, whole in zip(quant.block, shape[-2:]))      # (None: the whole side)
    grid = (*shape[:-2], -(-shape[-2] // b0), -(-shape[-1] // b1))
    require(len(shape) >= 2 and scale.shape == grid,
            "%1 has scales of shape %2; blocks of %3 x %4 over its shape %5 need %6", repr(name), tuple(scale.shape),
            b0, b1, shape, grid)
    if row_ids is None:
        lead = int(np.prod(shape[:-2], dtype=np.int64))
        out = values.reshape(lead, shape[-2], shape[-1])                                # (L, rows, cols)
        per_row = np.repeat(scale.reshape(lead, *grid[-2:]), b0, axis=1)[:, :shape[-2]]  # (L, rows, C)
    else:
        out, per_row = values[None], scale[row_ids // b0][None]                        # (1, n, cols), (1, n, C)
    for j in range(grid[-1]):                   # one column of blocks at a time: no weight-sized scale array
        out[:, :, j * b1:(j + 1) * b1] *= per_row[:, :, j:j + 1]
    return out.reshape(values.shape)


def unreadable(name: str, dtype: str, quant: Quantization) -> InputError:
    """Why the float8 tensor `name` cannot be read: config.json names no scales PE Explorer reads, or the
    checkpoint has none for this tensor."""
    if not quant.scales:
        return InputError(msg("tensor %1 is stored as %2 (FP8), but config.json's quantization_config (%3) is "
                              "neither fine-grained FP8 nor compressed-tensors' FP8 under one symmetric scheme, so "
                              "its scales are unknown", repr(name), dtype,
                              repr(quant.method) if quant.method else msg("none")))
    return InputError(msg("tensor %1 is stored as %2 (FP8) without its scales %3", repr(name), dtype,
                          repr(scale_name(name, quant.scales))))
