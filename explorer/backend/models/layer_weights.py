"""A layer's weights read with their shapes checked: projections, norm weights, biases. No Qt."""

from __future__ import annotations

import numpy as np

from explorer.backend.models.families import first, need, unread_quantization
from explorer.backend.models.tensors import TensorReader
from explorer.errors import InputError, msg, require


def bias(reader: TensorReader, name: str, layer: int, size: int) -> np.ndarray | float:
    """The bias `name` of `size` entries; 0 where the checkpoint has none (transformers' zeros too)."""
    return vector(reader, name, layer, size) if first(reader, name) else np.float32(0.0)


def projection(reader: TensorReader, name: str, layer: int, d_model: int, axis: int = 1,
               rows: int | None = None) -> np.ndarray:
    """The 2-D weight `name`, whose `axis` must have d_model entries (what it multiplies) and, when `rows` is
    given, its other axis `rows` (what it makes). Its shape is checked before it is read: a weight of millions
    of rows was read and multiplied (n x rows x 4 bytes) before its refusal."""
    name = need(reader, name)
    shape = tuple(reader.shape(name))
    if not (len(shape) == 2 and shape[axis] == d_model):
        method = unread_quantization(reader)
        require(not method, "layer %1's %2 has shape %3: its weights are quantized (%4), which PE Explorer does not "
                "read; a BF16, FP16, FP32 or FP8 copy opens", layer, name, shape, method)
        raise InputError(msg("layer %1's %2 has shape %3; it must read the model's %4 channels", layer, name,
                             shape, d_model))
    require(rows is None or shape[1 - axis] == rows,
            "layer %1's %2 has shape %3; it must make %4 channels", layer, name, shape, rows)
    return reader.read(name)


def vector(reader: TensorReader, name: str, layer: int, size: int) -> np.ndarray:
    """A norm's weight or bias, or a projection's bias, `name`: exactly `size` entries (a 0-d or (1,) one
    would be broadcast over the channels, where transformers refuses to load it)."""
    v = reader.read(need(reader, name))
    require(v.shape == (size,), "layer %1's %2 has shape %3, not (%4,)", layer, name, tuple(v.shape), size)
    return v
