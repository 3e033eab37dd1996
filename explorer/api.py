"""The Python API for scripts and notebooks: `import explorer`, then

    explorer.sinusoidal(max_len, d_model, base=10000.0, layout="interleaved", dtype="float32")
    explorer.rope_frequencies(head_dim, base=10000.0, rope_type="default", **params)
    explorer.check(x)   # x: numpy array, torch tensor, a file path, or an nn.Module like the seeds'
    #                     PositionalEncoding
    explorer.show(x)    # opens the window on x
    explorer.open_model("smollm2")   # a checkpoint: its tokens, X and layer-0 q / k (a with block)

Everything heavy (numpy maths, torch, Qt) is imported inside the functions, so `import explorer`
stays light.
"""

from __future__ import annotations

MODULE_ROWS = 2048   # positions asked of an nn.Module when its own table is longer


def _plain(value):
    """A numpy scalar as the Python number it holds, anything else as it is: sizes multiplied in
    np.uint16 wrap round (65535 x 8192 x 3 // 2 read 16,383 numbers) and slipped past the memory
    budget."""
    if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0 and hasattr(value, "item"):
        return value.item()
    return value


def sinusoidal(max_len: int, d_model: int, base: float = 10000.0, layout: str = "interleaved",
               dtype="float32", start: int = 0):
    """The sinusoidal PE table, numpy (max_len, d_model); layout interleaved | concat | t2t;
    dtype float16 | float32 | float64 (float16: computed in float32, then rounded)."""
    import numpy as np

    from explorer.backend.encodings import sinusoidal_pe
    from explorer.errors import require, shown

    try:
        name = np.dtype(dtype).name if not isinstance(dtype, str) else dtype
    except (TypeError, ValueError):              # dtype=0, dtype=[4]: not a data type at all
        name = None
    require(name in ("float16", "float32", "float64"),
            "dtype must be one of float16, float32, float64, not %1", shown(dtype))
    compute = "float32" if name == "float16" else name
    max_len, d_model, base, start = (_plain(v) for v in (max_len, d_model, base, start))
    return sinusoidal_pe(max_len, d_model, base, layout, compute, start).astype(name, copy=False)


def rope_frequencies(head_dim: int, base: float = 10000.0, rope_type: str = "default", **params):
    """RoPE inverse frequencies theta_i = base^(-2i/d) (and the scaled types): delegates to
    explorer.backend.rope_scaling.rope_frequencies; without that module, the default formula
    (and linear: theta / factor). Returns (inv_freq (head_dim/2,) float64, attention_factor)."""
    try:
        from explorer.backend.rope_scaling import rope_frequencies as scaled
    except ImportError:
        scaled = None
    head_dim, base = _plain(head_dim), _plain(base)
    params = {key: _plain(value) for key, value in params.items()}
    if scaled is not None:
        return scaled(head_dim, base, rope_type=rope_type, **params)
    from typing import NamedTuple

    import numpy as np

    from explorer.backend.rope import rope_frequencies as default
    from explorer.errors import require

    class RopeFrequencies(NamedTuple):      # the fields of explorer.backend.rope_scaling's
        inv_freq: np.ndarray                # (head_dim/2,) float64
        attention_factor: float

    require(rope_type in ("default", "linear"),
            f"rope_type {rope_type!r} needs explorer.backend.rope_scaling; here: default, linear")
    theta = default(head_dim, base)
    if rope_type == "linear":
        factor = params.get("factor")
        require(isinstance(factor, (int, float)) and factor >= 1,
                f"linear scaling needs factor >= 1, not {factor!r}")
        theta = theta / factor
    return RopeFrequencies(theta, 1.0)


def check(x, *, kind: str | None = None, base: float | None = None, pairing: str | None = None,
          d_model: int | None = None, max_len: int | None = None, lang: str = "en", key: str | None = None):
    """Diagnosis of x: .match, .convention, .mistakes, .max_error, .summary, .fix, .reference.

    x: a numpy array, a torch tensor, a file path (.npy, .npz, .safetensors, .csv, .pt, .pth: read as
    `pe-explorer check FILE` reads it; key: the array of a file that holds several), or an nn.Module
    called the way the seeds' PositionalEncoding is used: zeros (1, max_len, d_model) in, eval mode,
    the PE out (d_model and max_len are read from its `pe` buffer, or given). kind / base / pairing:
    what the data should be (see the CLI)."""
    from explorer.backend.diagnose import diagnose, load_array

    base, d_model, max_len = _plain(base), _plain(d_model), _plain(max_len)
    file = file_and_key(x, key)   # a path string had been read as data: "must hold real numbers, not <U16"
    if file is not None:
        data, dtype, _ = load_array(*file, key_hint="key=NAME")
        return diagnose(data, kind=kind, base=base, pairing=pairing, lang=lang, dtype=dtype)
    if _is_module(x):
        x = module_table(x, d_model, max_len)
        kind = kind or "pe"
    return diagnose(x, kind=kind, base=base, pairing=pairing, lang=lang)


def file_and_key(x, key) -> tuple[str, str | None] | None:
    """(the path as text, key) when x is a file path (str, bytes or os.PathLike; bytes decoded as the file
    system does), else None; InputError for a key that names no array, or a key beside data."""
    import os

    from explorer.errors import InputError, msg, require, shown

    if not isinstance(x, (str, bytes, os.PathLike)):
        require(key is None, "key names an array in a file, but x is not a file path")
        return None
    require(key is None or (isinstance(key, str) and key != ""),
            "key must name an array of the file (text), not %1", shown(key))
    try:
        return os.fsdecode(x), key
    except (UnicodeDecodeError, TypeError):
        raise InputError(msg("the path %1 is not a file name this system can read", repr(x)[:80])) from None


def _is_module(x) -> bool:
    return type(x).__module__ != "numpy" and any(
        c.__module__.startswith("torch.nn") and c.__name__ == "Module" for c in type(x).__mro__)


def module_table(module, d_model: int | None = None, max_len: int | None = None):
    """The PE a module adds: module(zeros) in eval mode (its training flag restored), as (L, d).

    Batch-first, as the seeds' module: a (1, max_len, d) or (max_len, d) buffer, called with zeros
    (1, L, d). Sequence-first, as PyTorch's transformer tutorial: a (max_len, 1, d) buffer, called
    with zeros (L, 1, d), as that module's forward reads x.size(0) as the length."""
    import torch

    from explorer.errors import require

    table = next((b for b in module.buffers() if b.ndim in (2, 3)), None)
    seq_first = table is not None and table.ndim == 3 and table.shape[1] == 1 and table.shape[0] > 1
    if table is not None:
        d_model = int(table.shape[-1]) if d_model is None else d_model        # 0 is refused below
        max_len = min(int(table.shape[0] if seq_first else table.shape[-2]), MODULE_ROWS) \
            if max_len is None else max_len
    import numbers

    from explorer.backend.diagnose.loading import check_size
    from explorer.errors import InputError, shown

    require(d_model is not None and max_len is not None,
            "the module has no (max_len, d_model) buffer: give d_model= and max_len=")

    def whole(value) -> bool:            # not NaN, inf, 32.7 (cut to 32), True or 1e300
        return isinstance(value, numbers.Integral) and not isinstance(value, bool) and value >= 1

    require(whole(d_model), "d_model must be a whole number >= 1, not %1", shown(d_model))
    require(whole(max_len), "max_len must be a whole number >= 1, not %1", shown(max_len))
    d_model, max_len = int(d_model), int(max_len)
    check_size((max_len, d_model), max_len * d_model)    # before the zeros are made
    shape = (max_len, 1, d_model) if seq_first else (1, max_len, d_model)
    was_training = module.training
    try:
        module.eval()
        with torch.no_grad():
            out = module(torch.zeros(*shape))
    except Exception as exc:    # the user's module: its own error, said in one line (its first that says something)
        said = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
        raise InputError(f"the module failed on zeros {shape}: {type(exc).__name__}: {said}") from exc
    finally:
        module.train(was_training)
    require(isinstance(out, torch.Tensor), f"the module returned {type(out).__name__}, not a tensor")
    require(not out.is_nested and out.layout == torch.strided,
            "the module returned a nested or sparse tensor; the check reads a dense (L, d) one")
    require(out.numel() > 0, "the module returned an empty tensor (shape %1)", tuple(out.shape))
    if seq_first and out.ndim == 3 and out.shape[1] == 1:
        return out[:, 0, :]                        # (L, 1, d) -> (L, d)
    return out.reshape(-1, *out.shape[-2:])[0] if out.ndim >= 2 else out


def show(x, **kwargs):
    """Open the window on x (blocks in a plain script; returns at once inside IPython / Jupyter)."""
    from explorer.ui.api_window import show as show_window

    return show_window(x, **kwargs)


def open_model(spec):
    """A model read as PE Explorer reads it: "smollm2" | "minilm" | a Hugging Face folder | a .gguf file.
    It holds its files open: use it in a `with` block (or call .close()). What it gives:
    .config (d_model, n_heads, head_dim, rope_base, rope_scaling, ...), .tokenize(text) (tokens with
    .ids), .input_x(ids) (n, d_model) the X its first layer receives, .layer0_qk(ids) (q, k before and
    after RoPE per head, and the logits), .rope_inv_freq(seq_len), .positions(n) (a learned table, OPT's and
    RoBERTa's from the row of position 0) and .positions_of(ids) (the rows these tokens read: RoBERTa's pad token
    its own).
    InputError with one line for a file or folder it cannot read."""
    from explorer.backend.models.hf_folder import open_model as opened

    return opened(spec)
