"""Opened models, shared by the window's loader and the worker: one open Model per (spec, file stamp).

`open_cached(spec)` opens a model (headers only) the first time and hands the same object back after,
from any thread; a file that changed on disk (another modification time or size) is opened again.
`forget(spec)` drops one (a cancelled load). No Qt.
"""

from __future__ import annotations

import atexit
import threading
from collections import OrderedDict
from pathlib import Path

from explorer.errors import InputError, msg, require

KEEP = 3                       # models kept open at most (each holds only headers and file handles)
SHIPPED = ("minilm", "smollm2")
_lock = threading.Lock()
_open: OrderedDict = OrderedDict()      # (spec, stamp) -> Model


def normal_spec(spec: str) -> str:
    """'SmolLM2' -> 'smollm2'; a path stays as typed (stripped)."""
    require(isinstance(spec, str) and spec.strip() != "",
            "model must be a folder, a .gguf file or one of minilm, smollm2")
    spec = spec.strip()
    return spec.lower() if spec.lower() in SHIPPED else spec


def _stat(path: Path) -> tuple:
    try:
        st = path.stat()
    except OSError:
        return (str(path), None)
    return (str(path), st.st_mtime_ns, st.st_size)


def stamp(spec: str) -> tuple:
    """What says a model's files are unchanged: modification times and sizes of the files opened."""
    spec = normal_spec(spec)
    if spec in SHIPPED:
        return (spec,)
    path = Path(spec).expanduser()
    try:
        is_dir = path.is_dir()
    except OSError:                            # a name over 255 bytes: opening it says so, in one line
        return (str(path), None)
    if is_dir:
        names = ("config.json", "tokenizer.json", "model.safetensors", "model.safetensors.index.json")
        return tuple(_stat(path / n) for n in names if (path / n).exists())
    return (_stat(path),)


def open_cached(spec: str):
    """The opened Model of spec (explorer.backend.models.hf_folder.open_model); InputError if it cannot be."""
    spec = normal_spec(spec)
    key = (spec, stamp(spec))
    with _lock:
        model = _open.get(key)
        if model is not None:
            _open.move_to_end(key)
            return model
        from explorer.backend.models.hf_folder import open_model

        try:
            model = open_model(spec)
        except InputError:
            raise
        except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
            raise InputError(msg("cannot open the model %1: %2", spec, str(exc).splitlines()[0][:160])) from None
        for old in [k for k in _open if k[0] == spec]:   # an older version of the same files
            del _open[old]
        _open[key] = model
        while len(_open) > KEEP:
            _open.popitem(last=False)     # dropped, not closed: a view may still read its rows
        return model


def open_config(spec: str):
    """The ModelConfig of spec's model when it is open already and its files are unchanged; else None
    (never opens a checkpoint)."""
    try:
        key = (normal_spec(spec), stamp(spec))
    except (InputError, OSError):
        return None
    with _lock:
        model = _open.get(key)
    return None if model is None else model.config


@atexit.register
def _close_all() -> None:
    """Close the cached models before the interpreter tears modules down (their readers' __del__
    would otherwise run without the modules they need)."""
    with _lock:
        for model in _open.values():
            try:
                model.close()
            except Exception:  # noqa: BLE001 - closing at exit must not raise
                pass
        _open.clear()


def forget(spec: str) -> None:
    """Drop spec's opened model from the cache (a cancelled load leaves nothing behind)."""
    try:
        spec = normal_spec(spec)
    except InputError:
        return
    with _lock:
        for key in [k for k in _open if k[0] == spec]:
            del _open[key]


def is_open(spec: str) -> bool:
    """True when spec's model is in the cache (for tests and the loader)."""
    spec = normal_spec(spec)
    with _lock:
        return any(k[0] == spec for k in _open)


def display_name(spec: str) -> str:
    """A short name for a spec without opening it: the shipped name, or the folder / file name."""
    if not spec:
        return ""
    spec = normal_spec(spec)
    if spec == "smollm2":
        return "SmolLM2-135M"
    if spec == "minilm":
        return "all-MiniLM-L6-v2"
    path = Path(spec).expanduser()
    if path.name in ("config.json", "tokenizer.json") or path.suffix == ".safetensors":
        path = path.parent
    return path.stem if path.suffix.lower() == ".gguf" else path.name or str(path)
