"""Open a `.gguf` file (llama.cpp's format): a Hugging Face-style config, a lazy tensor reader, its tokenizer.

Opening reads the header only (gguf_header.py); tensors are read later with `os.pread`, a row at a time where
only rows are asked for, and dequantized with `gguf.quants.dequantize`. Never the whole file.

llama.cpp's converter stores a "llama" file's q_proj/k_proj rows permuted (convert_hf_to_gguf.py,
`LlamaModel.permute`: `w.reshape(n_head, 2, rows // n_head // 2, cols).swapaxes(1, 2).reshape(w.shape)`, with
n_head = the kv head count for k_proj), turning Hugging Face's half-split RoPE layout back into Meta's
interleaved pairs. The reader undoes it, so q_proj / k_proj equal the Hugging Face weights. Qwen2 / Qwen3 /
Gemma are stored unpermuted; Gemma's norms carry a +1 that the reader takes off (gguf_archs.py); Gemma 2 / 3,
Phi-3 and Phi-2 have names and keys of their own (gguf_gemma_phi3.py). The metadata becomes a config.json-like
dict in gguf_config.py. `gpt2`, `bert` and `starcoder` (learned positions) have their own names and config
(gguf_learned.py); GPT-2's Conv1D weights, which the converter transposed, are transposed back. `bloom` (ALiBi):
gguf_bloom.py, its fused q; k; v rows put back head by head; `mpt` (ALiBi): gguf_mpt.py; `falcon` (rotary):
gguf_falcon.py, its fused q; k; v rows put back in KV groups; `gptneox` (Pythia, partial rotary): gguf_gptneox.py, its
fused q; k; v rows put back head by head as BLOOM's.
"""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path

import numpy as np

from explorer.backend.models.gguf_apertus import NAMES as APERTUS_NAMES
from explorer.backend.models.gguf_archs import arch_of
from explorer.backend.models.gguf_bloom import qkv_rows
from explorer.backend.models.gguf_chatglm import NAMES as CHATGLM_NAMES
from explorer.backend.models.gguf_config import config_from_metadata
from explorer.backend.models.gguf_layer0 import check_rope_layer0
from explorer.backend.models.gguf_deepseek import NAMES as DEEPSEEK_NAMES
from explorer.backend.models.gguf_falcon import FUSED_ARCHS
from explorer.backend.models.gguf_gemma_phi3 import BLOCK_NAMES, phi3_longrope
from explorer.backend.models.gguf_glm import NAMES as GLM_NAMES
from explorer.backend.models.gguf_gpt_oss import BARE
from explorer.backend.models.gguf_gpt_oss import NAMES as GPT_OSS_NAMES
from explorer.backend.models.gguf_header import Header, TensorInfo, read_header
from explorer.backend.models.gguf_hunyuan import NAMES as HUNYUAN_NAMES
from explorer.backend.models.gguf_learned import (
    BLOCK_RE,
    LEARNED,
    check_learned_layer0,
    learned_hf_name,
    transposed,
)
from explorer.backend.models.gguf_rope_freqs import ROPE_FREQS, apply_rope_freqs
from explorer.backend.models.gguf_seed_oss import NAMES as SEED_OSS_NAMES
from explorer.backend.models.gguf_vocab import tokenizer_from_metadata
from explorer.errors import InputError, msg, os_reason, require

_TOP = {"token_embd.weight": "embed_tokens.weight", "output_norm.weight": "norm.weight",
        "output.weight": "lm_head.weight"}
_BLOCK = {"attn_norm": "input_layernorm", "attn_q": "self_attn.q_proj", "attn_k": "self_attn.k_proj",
          "attn_v": "self_attn.v_proj", "attn_output": "self_attn.o_proj", "ffn_norm": "post_attention_layernorm",
          "ffn_gate": "mlp.gate_proj", "ffn_up": "mlp.up_proj", "ffn_down": "mlp.down_proj",
          "attn_q_norm": "self_attn.q_norm", "attn_k_norm": "self_attn.k_norm"}
OWN_NAMES = {"gpt-oss": GPT_OSS_NAMES, "deepseek2": DEEPSEEK_NAMES, **GLM_NAMES,    # names kept beside their reader
             **HUNYUAN_NAMES, **SEED_OSS_NAMES, **APERTUS_NAMES, **CHATGLM_NAMES}
MAX_WHOLE_READ = 1 << 30           # read(): at most 1 GiB of float32 out, as the safetensors reader
WHOLE_TABLE_READ = 1 << 24         # rows(): a table this small is read in one go when many rows are asked
_dequantizable: dict[int, bool] = {}


def hf_name(gguf_name: str, arch: str = "llama", tensors=()) -> str | None:
    """Hugging Face name (without the `model.` prefix) of a GGUF tensor name of `arch`, or None if unknown (tensors:
    the file's names, which tell a falcon layer's attn_norm: ln_mlp beside attn_norm_2)."""
    if arch in LEARNED:
        return learned_hf_name(arch, gguf_name)
    if arch in FUSED_ARCHS:
        return FUSED_ARCHS[arch][0](gguf_name, tensors)
    if gguf_name in _TOP:
        return _TOP[gguf_name]
    m = BLOCK_RE.fullmatch(gguf_name)
    names = OWN_NAMES.get(arch) or BLOCK_NAMES.get(arch, {})
    if m and (m.group(2) in names or m.group(2) in _BLOCK):
        name = names.get(m.group(2)) or _BLOCK[m.group(2)]
        if name in BARE:                 # a parameter Hugging Face names without ".weight" (GPT-OSS's sinks)
            return f"layers.{int(m.group(1))}.{name}" if m.group(3) == "weight" else None
        return f"layers.{int(m.group(1))}.{name}.{m.group(3)}"
    return None


def unpermute_rows(n_rows: int, n_head: int) -> np.ndarray:
    """Index g such that hf[j] = gguf[g[j]] for LlamaModel.permute(w, n_head, n_head) on n_rows rows."""
    src = np.arange(n_rows).reshape(n_head, 2, n_rows // n_head // 2).swapaxes(1, 2).reshape(-1)  # (n_rows,)
    return np.argsort(src)                                                                       # (n_rows,)


def _can_dequantize(code: int) -> bool:
    """Whether gguf.quants.dequantize handles ggml type `code` (tried once on one zero block)."""
    if code not in _dequantizable:
        import gguf

        qtype = gguf.GGMLQuantizationType(code)
        _, size = gguf.GGML_QUANT_SIZES[qtype]
        try:
            with np.errstate(all="ignore"):
                gguf.quants.dequantize(np.zeros((1, size), np.uint8), qtype)
            _dequantizable[code] = qtype.name not in ("I8", "I16", "I32", "I64", "F64")
        except Exception:   # NotImplementedError, or whatever a half-supported type's code raises
            _dequantizable[code] = False
    return _dequantizable[code]


class GGUFTensorReader:
    """TensorReader over a GGUF file: Hugging Face names and orientation, float32 out, q/k un-permuted."""

    def __init__(self, path: Path, fd: int, header: Header, config: dict):
        self._path, self._fd, self._lock = path, fd, threading.Lock()
        self._info: dict[str, TensorInfo] = {}
        arch = header.fields["general.architecture"]               # (gemma3's model_type is gemma3_text)
        unread = {"k_b": "self_attn.kv_b_proj.weight", "kv_b": "self_attn.k_b_proj.weight"}.get(
            config.get("kv_b_layout"))            # (deepseek2: the one llama.cpp does not read, by is_mla)
        for gname, info in header.tensors.items():
            name = hf_name(gname, arch, header.tensors)
            if name is not None and not (unread and name.endswith(unread)):
                self._info[name] = info
        self._heads = {"q_proj": config.get("num_attention_heads"), "k_proj": config.get("num_key_value_heads")}
        self._kv = config.get("num_kv_heads")            # (falcon's KV groups; None: BLOOM's one a head)
        self._arch = arch_of(header.fields, str(path))
        self._transposed = {name for name in self._info if transposed(arch, name)}   # GPT-2's Conv1D weights

    def names(self) -> list[str]:
        return list(self._info)

    def _get(self, name: str) -> TensorInfo:
        require(self._fd is not None, "%1: the model file is closed", self._path)
        info = self._info.get(name)
        require(info is not None, "%1: no tensor named %2", self._path, repr(name))
        return info

    def shape(self, name: str) -> tuple:
        ne = tuple(int(n) for n in self._get(name).ne)
        return ne if name in self._transposed else ne[::-1]            # HF orientation: (out, in); Conv1D (in, out)

    def _row_index(self, name: str, n_rows: int) -> np.ndarray | None:
        kind = name.split(".")[-2]
        if kind in self._heads and name.startswith("layers.") and self._arch.permuted_qk:
            heads = self._heads[kind]
            require(n_rows % (2 * heads) == 0, "%1: %2 has %3 rows, not 2 x %4 heads", self._path, name, n_rows,
                                               heads)
            return unpermute_rows(n_rows, heads)
        fused = self._arch.model_type in ("bloom", "falcon", "gpt_neox")
        return qkv_rows(name, n_rows, self._heads["q_proj"], self._kv) if fused else None

    def _pread(self, start: int, n: int) -> bytes:
        try:
            with self._lock:
                data = os.pread(self._fd, n, start)
        except OSError as exc:
            raise InputError(msg("%1: reading failed (%2)", self._path, exc.strerror or exc)) from exc
        require(len(data) == n, "%1: the file ended early (was it changed or removed while open?)", self._path)
        return data

    def _dequantize(self, raw: bytes, info: TensorInfo, n_rows: int) -> np.ndarray:
        import gguf

        qtype = gguf.GGMLQuantizationType(info.ggml_type)
        blocks = np.frombuffer(raw, dtype=np.uint8).reshape(n_rows, len(raw) // n_rows)   # (n_rows, row_bytes)
        with np.errstate(all="ignore"):
            out = gguf.quants.dequantize(blocks, qtype)                       # (n_rows, cols)
        return np.ascontiguousarray(out, dtype=np.float32).reshape(n_rows, info.ne[0])

    def rows(self, name: str, ids) -> np.ndarray:
        """Rows `ids` of a 2-D tensor, float32 (len(ids), cols); InputError for ids outside the table."""
        if name in self._transposed:                 # a Conv1D weight: its Hugging Face rows are stored columns
            return self.read(name)[self._ids(name, ids, self.shape(name)[0])]
        return self._stored_rows(name, ids)

    @staticmethod
    def _ids(name: str, ids, n_rows: int) -> np.ndarray:
        idx = np.asarray(ids)
        require(idx.ndim == 1 and (idx.size == 0 or np.issubdtype(idx.dtype, np.integer)),
                "%1: row ids must be a 1-D list of integers", name)
        idx = idx.astype(np.int64)
        require(idx.size == 0 or (idx.min() >= 0 and idx.max() < n_rows),
                "%1: row ids must be from 0 to %2", name, n_rows - 1)
        return idx

    def _stored_rows(self, name: str, ids) -> np.ndarray:
        """Rows `ids` of a 2-D tensor as stored (ne[1] rows of ne[0] columns), float32 (len(ids), ne[0])."""
        info = self._get(name)
        require(len(info.ne) == 2, "%1: %2 is not a 2-D table", self._path, name)
        cols, n_rows = int(info.ne[0]), int(info.ne[1])
        idx = self._ids(name, ids, n_rows)
        perm = self._row_index(name, n_rows)
        stored = perm[idx] if perm is not None else idx                         # (n,) rows as stored
        row_bytes = info.n_bytes // n_rows
        if stored.size == 0:
            return np.zeros((0, cols), dtype=np.float32)
        if stored.size > n_rows // 4 and info.n_bytes <= WHOLE_TABLE_READ:
            table = self._dequantize(self._pread(info.start, info.n_bytes), info, n_rows)   # (n_rows, cols)
            return table[stored]
        unique, back = np.unique(stored, return_inverse=True)                  # (u,) sorted, (n,)
        runs = np.split(unique, np.flatnonzero(np.diff(unique) != 1) + 1)       # consecutive rows: one read
        raw = b"".join(self._pread(info.start + int(run[0]) * row_bytes, len(run) * row_bytes) for run in runs)
        return self._dequantize(raw, info, len(unique))[back].reshape(len(stored), cols)

    def read(self, name: str) -> np.ndarray:
        """The whole tensor, float32, in Hugging Face shape (at most 1 GiB of it)."""
        info = self._get(name)
        out_bytes = 4 * int(np.prod(info.ne, dtype=object))
        require(out_bytes <= MAX_WHOLE_READ, "%1: %2 (%3 bytes as float32) is too big to read whole; read "
                                             "rows of it", self._path, name, f"{out_bytes:,}")
        if len(info.ne) == 2:
            table = self._stored_rows(name, np.arange(info.ne[1]))            # (ne[1], ne[0])
            return np.ascontiguousarray(table.T) if name in self._transposed else table
        n_rows = int(np.prod(info.ne[1:]))
        out = self._dequantize(self._pread(info.start, info.n_bytes), info, n_rows)
        if len(info.ne) == 1:
            perm = self._row_index(name, int(info.ne[0]))                      # a q/k bias, permuted as its rows
            out = out.reshape(-1)[perm] if perm is not None else out
            if self._arch.norm_shift and name.endswith("norm.weight"):
                out = out - np.float32(self._arch.norm_shift)                  # Gemma: the converter's + 1
        return out.reshape(self.shape(name))

    def close(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)

    def __del__(self):          # a reader dropped without close() still gives its descriptor back
        try:
            self.close()
        except OSError:
            pass


def open_gguf(path) -> tuple[dict, GGUFTensorReader, object]:
    """(config_dict, tensor_reader, tokenizers.Tokenizer) of a GGUF file; one InputError for any fault."""
    path = Path(path)
    where = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise InputError(msg("%1: cannot be opened (%2)", where, os_reason(exc))) from exc
    try:
        size = os.fstat(fd).st_size
        with os.fdopen(os.dup(fd), "rb", buffering=0) as fh:
            header = read_header(fh, size, where)
        config = config_from_metadata(header, where)
        arch = header.fields["general.architecture"]              # (gemma3's model_type is gemma3_text)
        for info in header.tensors.values():
            if hf_name(info.name, arch, header.tensors) is not None:
                import gguf

                require(_can_dequantize(info.ggml_type), "%1: tensor %2 is stored as %3, which cannot be "
                    "dequantized here", where, repr(info.name), gguf.GGMLQuantizationType(info.ggml_type).name)
        check = (check_learned_layer0 if arch in LEARNED else FUSED_ARCHS[arch][2] if arch in FUSED_ARCHS
                 else check_rope_layer0)
        check(header, config, where)
        if ROPE_FREQS in header.tensors and arch not in LEARNED:
            apply_rope_freqs(fd, header.tensors[ROPE_FREQS], config, where)
        if arch == "phi3":
            phi3_longrope(fd, header, config, where)
        tokenizer = tokenizer_from_metadata(header.fields, where)
    except InputError:
        os.close(fd)
        raise
    except OSError as exc:
        os.close(fd)
        raise InputError(msg("%1: reading failed (%2)", where, exc.strerror or exc)) from exc
    return config, GGUFTensorReader(path, fd, header, config), tokenizer
