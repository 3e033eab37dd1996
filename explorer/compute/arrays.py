"""Every array a view's result holds, flattened to named arrays: what `export view` writes (.npz) and
what the window's data export writes as .npz. Reads results only; no Qt here."""

from __future__ import annotations

import dataclasses
import io

import numpy as np

MAX_DEPTH = 4


def result_arrays(result) -> dict[str, np.ndarray]:
    """{"image": ..., "lines.0.x": ..., "pe.concat": ...}: the numeric arrays (and numbers) of a
    frozen result, in field order; nested results, dicts and tuples are walked with dotted names."""
    out: dict[str, np.ndarray] = {}
    _walk(result, "", out, 0)
    return out


def _walk(value, name: str, out: dict, depth: int) -> None:
    if depth > MAX_DEPTH or value is None:
        return
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "biuf":
            out[name] = np.ascontiguousarray(value)
        return
    if isinstance(value, (bool, int, float, np.number)) and name:
        out[name] = np.asarray(value)
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if type(value).__name__ in ("Params", "Token") or name.endswith("state"):
            return                  # the inputs, not what is drawn (a scene holds those)
        for f in dataclasses.fields(value):
            _walk(getattr(value, f.name), f"{name}.{f.name}" if name else f.name, out, depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            _walk(item, f"{name}.{key}" if name else str(key), out, depth + 1)
    elif isinstance(value, (tuple, list)) and value and not isinstance(value[0], str):
        if all(isinstance(v, (int, float)) for v in value):
            out[name] = np.asarray(value)
            return
        for i, item in enumerate(value):
            _walk(item, f"{name}.{i}", out, depth + 1)


def npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    """The arrays as one .npz file's bytes (uncompressed, never pickled)."""
    buf = io.BytesIO()
    np.savez(buf, allow_pickle=False, **arrays)
    return buf.getvalue()
