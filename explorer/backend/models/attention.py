"""A layer's q and k per head from its input X, rotated with RoPE as Hugging Face Llama does, and logits.

Steps as transformers runs them: the family's input norm (LayerNorm for GPT-2 / pre-LN OPT / GPT-NeoX / Phi /
StableLM, OLMo's without weight or bias, RMSNorm for Llama / Mistral / Qwen / Phi-3, Gemma's (1 + w) RMSNorm, none
for post-LN BERT and OLMo 2), the projections with their biases (GPT-2's fused Conv1D c_attn: x @ W + b with W (d,
3d); Phi-3's fused qkv_proj rows, a Phi-2 GGUF's attn_qkv and GPT-BigCode's multi-query nn.Linear c_attn
(explorer.backend.models.gpt_bigcode): whole q, k, v blocks; GPT-NeoX's fused query_key_value, q, k and v rows head
by head (GPT-BigCode's without multi_query too); OLMo's clamped to +-clip_qkv), OLMo 2's RMSNorms over all of q's
and all of k's channels, Qwen3's and Gemma 3's per-head q_norm / k_norm (Phi's qk_layernorm: LayerNorms; StableLM's:
a LayerNorm of each head's own, without bias), kv heads repeated onto q heads (GQA, like repeat_kv), then RoPE with
rotate-half pairing (channel i turns with channel i + rot/2) on the first rope_dim channels of each head (a
llama.cpp llama file with fewer rotated channels than head_dim: channel i with i + head_dim/2, as ggml rotates its
rows; GPT-J: neighbours 2i and 2i + 1), with the layer's own RoPE (Gemma 3: its layer type's; DeepSeek's MLA,
explorer.backend.models.mla: q and k from its latent path, the rotation on each head's last rope channels). Every
norm and bias read must have exactly its width. Logits: q·k / sqrt(head_dim), or / sqrt(query_pre_attn_scalar) for
Gemma 2/3 (Granite: x attention_multiplier, kept as the score scalar attention_multiplier^-2; DeepSeek: x mscale²,
as head_dim / mscale⁴), then Gemma 2's soft cap (BLOOM, MPT, Falcon: each head's ALiBi bias slope · (n − m) on the
logits, not on the plain ones; Falcon's made in bfloat16, models.alibi_family). The layer's sliding window
(explorer.backend.models.layer_attention) and GPT-OSS's sink logit per head (self_attn.sinks, a softmax slot that no
key fills) come with them. Shapes: heads first.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from explorer.backend.models.alibi_family import bias_of, slopes_of
from explorer.backend.models.config import ModelConfig
from explorer.backend.models.finite import bad_rows, count_non_finite
from explorer.backend.models.families import (
    first,
    input_norm_names,
    layer_norm,
    need,
    qk_names,
    rms_norm,
)
from explorer.backend.models.hunyuan import HUNYUAN, hunyuan_qk
from explorer.backend.models.llama4 import llama4_qk
from explorer.backend.models.ministral3 import ministral3_q
from explorer.backend.models.layer_weights import bias as _bias, projection as _projection, vector as _vector
from explorer.backend.models.mla import mla_qk
from explorer.backend.models.t5_bias import relative_bias
from explorer.backend.models.tensors import TensorReader
from explorer.errors import require


@dataclass(frozen=True)
class LayerQK:
    """q and k of one layer for a sentence, per head (kv heads already mapped onto q heads)."""

    q: np.ndarray            # (H, n, hd) before rotation (after biases and q_norm)
    k: np.ndarray            # (H, n, hd)
    q_rot: np.ndarray        # (H, n, hd) after RoPE (= q for learned-position models and NoPE layers)
    k_rot: np.ndarray        # (H, n, hd)
    logits: np.ndarray       # (H, n, n) q_rot(m) . k_rot(n) / sqrt(hd) (ALiBi: + slope_h (n - m))
    logits_plain: np.ndarray  # (H, n, n) q(m) . k(n) / sqrt(hd), without rotation (or ALiBi's bias)
    kv_head: np.ndarray      # (H,) the kv head each q head reads
    finite: bool = True                 # whether q, k and both logits are free of NaN and ±inf
    bad_tensors: tuple[str, ...] = ()   # when not: the tensors read that hold NaN or ±inf
    bad_input: tuple[int, ...] = ()     # and the rows of the input X that do
    window: int | None = None           # the layer's sliding window: query m reads keys m - window < n <= m
    chunk: int | None = None            # Llama 4's chunked layers: keys n <= m with n // chunk == m // chunk
    sinks: np.ndarray | None = None     # (H,) GPT-OSS: each head's learned sink logit, a softmax slot of no key
    slopes: np.ndarray | None = None    # (H,) ALiBi: each head's slope, in logits as slope_h (n - m)


def default_inv_freq(base: float, rope_dim: int) -> np.ndarray:
    """base^(-2i/rope_dim), i = 0 .. rope_dim/2 - 1, computed as transformers' default RoPE does."""
    i = np.arange(0, rope_dim, 2, dtype=np.int64).astype(np.float32)
    with np.errstate(over="ignore"):          # a base past float32 (1e39): inf, then 0, as torch gives
        return (1.0 / (base ** (i / rope_dim))).astype(np.float32)              # (rope_dim/2,)


def rotate(x: np.ndarray, inv_freq: np.ndarray, scale: float = 1.0, gap: int | None = None,
           interleaved: bool = False, offset: int = 0) -> np.ndarray:
    """RoPE at positions 0..n-1: channel j turns with channel j + gap, j < len(inv_freq), by p·θ_j;
    (H, n, hd). gap None: len(inv_freq), the rotate-half pairing of Hugging Face's Llama on the first
    2·len(inv_freq) channels; llama.cpp's llama files pair across the whole head (gap head_dim/2).
    interleaved: GPT-J's rotate_every_two, channel 2j with 2j + 1 (gap is not read). offset: the channels
    from it on are the ones that turn, as above (MLA's rope part, after its nope channels)."""
    if offset:
        require(0 < offset < x.shape[-1], "RoPE's first channel %1 is outside a head of %2", offset, x.shape[-1])
        out = x.astype(np.float32, copy=True)
        out[..., offset:] = rotate(x[..., offset:], inv_freq, scale, gap, interleaved)
        return out
    half = inv_freq.shape[0]
    gap = half if gap is None else gap
    require(0 < 2 * half <= x.shape[-1], "inv_freq has %1 frequencies; a head of %2 channels takes at most %3",
                                         half, x.shape[-1], x.shape[-1] // 2)
    require(interleaved or half <= gap <= x.shape[-1] - half,
            "channel pairs %1 apart do not fit a head of %2 channels", gap, x.shape[-1])
    pos = np.arange(x.shape[-2], dtype=np.float32)                            # (n,)
    freqs = pos[:, None] * inv_freq.astype(np.float32)[None, :]               # (n, half)
    cos, sin = np.cos(freqs) * np.float32(scale), np.sin(freqs) * np.float32(scale)
    first, second = ((slice(0, 2 * half, 2), slice(1, 2 * half, 2)) if interleaved
                     else (slice(0, half), slice(gap, gap + half)))
    a, b = x[..., first], x[..., second]                                      # (H, n, half) each
    out = x.astype(np.float32, copy=True)
    out[..., first] = a * cos - b * sin
    out[..., second] = b * cos + a * sin
    return out


class _KeptReads:
    """A TensorReader that keeps what it read, by name (to name a non-finite tensor afterwards)."""

    def __init__(self, reader: TensorReader):
        self.reader, self.kept = reader, {}
        self.quant = getattr(reader, "quant", None)      # (families.need names a quantized checkpoint's method)

    def names(self) -> list[str]:
        return self.reader.names()

    def shape(self, name: str) -> tuple[int, ...]:
        return self.reader.shape(name)

    def read(self, name: str) -> np.ndarray:
        self.kept[name] = self.reader.read(name)
        return self.kept[name]


def _heads(y: np.ndarray, heads: int, hd: int) -> np.ndarray:
    return np.ascontiguousarray(y.reshape(y.shape[0], heads, hd).transpose(1, 0, 2))   # (h, n, hd)


def _head_weights(reader: TensorReader, pattern: str | None, stacked: str, layer: int, heads: int,
                  hd: int) -> np.ndarray:
    """The norm weights of `heads` heads, pattern.format(head=h) each of hd entries, or the (heads, hd)
    tensor `stacked` (a llama.cpp file's; Cohere's own, pattern None); (heads, 1, hd)."""
    if pattern is None or first(reader, stacked) and not first(reader, pattern.format(head=0)):
        w = reader.read(need(reader, stacked))
        require(w.shape == (heads, hd), "layer %1's %2 has shape %3, not (%4, %5)", layer, stacked,
                tuple(w.shape), heads, hd)
        return w[:, None, :]
    return np.stack([_vector(reader, pattern.format(head=h), layer, hd) for h in range(heads)])[:, None, :]


def project_qk(cfg: ModelConfig, reader: TensorReader, x: np.ndarray, layer: int):
    """(q (H, n, hd), k (KV, n, hd)) of `layer` from its input x (n, d), before RoPE."""
    require(0 <= layer < cfg.n_layers, "layer must be in 0..%1, not %2", cfg.n_layers - 1, layer)
    x = np.asarray(x, dtype=np.float32)
    require(x.ndim == 2 and x.shape[1] == cfg.d_model,
            "the layer input must have shape (n, %1), not %2", cfg.d_model, x.shape)
    w_name, b_name = input_norm_names(cfg, layer)
    if cfg.family == "falcon" and first(reader, f"h.{layer}.ln_attn.weight"):   # new_decoder_architecture's two norms
        w_name, b_name = f"h.{layer}.ln_attn.weight", f"h.{layer}.ln_attn.bias"
    if cfg.family == "olmo":                        # OlmoLayerNorm: no weight, no bias, eps 1e-5
        x = layer_norm(x, None, None, cfg.norm_eps)
    elif w_name is not None:
        w = _vector(reader, w_name, layer, cfg.d_model)
        if cfg.norm_1p:                             # NemotronLayerNorm1P: F.layer_norm(..., weight + 1.0, bias)
            w = w + np.float32(1.0)
        if cfg.layer_norms:                         # (Cohere's LayerNorm has no bias)
            b = _vector(reader, b_name, layer, cfg.d_model) if b_name is not None else None
            x = layer_norm(x, w, b, cfg.norm_eps)
        else:
            x = rms_norm(x, w, cfg.norm_eps, gemma=cfg.gemma_norms)
    names, hd = qk_names(cfg, layer), cfg.head_dim
    if cfg.mla is not None:                         # DeepSeek's latent attention (explorer.backend.models.mla)
        q, k = mla_qk(cfg, reader, x, layer)                                            # (n, H hd) each
    elif "qkv" in names:                            # GPT-2's Conv1D (GPT-BigCode's nn.Linear: qkv_rows / qkv_heads)
        w = _projection(reader, names["qkv"], layer, cfg.d_model, axis=0, rows=3 * cfg.d_model)  # (d, 3d) Conv1D
        qkv = x @ w + _bias(reader, names["qkv_bias"], layer, 3 * cfg.d_model)           # (n, 3d)
        q, k = qkv[:, :cfg.d_model], qkv[:, cfg.d_model:2 * cfg.d_model]
    elif "qkv_rows" in names or ("qkv_fused" in names and first(reader, names["qkv_fused"])
                                 and not first(reader, names["q"])):
        # Phi-3's nn.Linear, a Phi-2 GGUF's attn_qkv (with its bias): rows q, k, v (a Phi folder's stray
        # qkv_proj beside q_proj is not read, as transformers does not read it)
        fused = names.get("qkv_rows") or names["qkv_fused"]
        w = _projection(reader, fused, layer, cfg.d_model)                               # ((H + 2 KV) hd, d)
        q_rows, k_rows = cfg.n_heads * hd, cfg.n_kv_heads * hd
        require(w.shape[0] == q_rows + 2 * k_rows, "layer %1's %2 has %3 rows; config.json says %4 q, %5 k "
                "and %5 v rows", layer, fused, w.shape[0], q_rows, k_rows)
        bias = (_bias(reader, names["qkv_fused_bias"], layer, w.shape[0]) if "qkv_fused_bias" in names
                and cfg.qk_bias else np.float32(0.0))
        bias = np.broadcast_to(bias, (w.shape[0],))          # (a bias of no tensor: 0 for every row)
        q = x @ w[:q_rows].T + bias[:q_rows]                                            # (n, H*hd)
        k = x @ w[q_rows:q_rows + k_rows].T + bias[q_rows:q_rows + k_rows]              # (n, KV*hd)
    elif "qkv_heads" in names:      # GPT-NeoX's nn.Linear: head h's q, k, v rows, then h + 1's; Falcon's: KV groups
        w = _projection(reader, names["qkv_heads"], layer, cfg.d_model)                 # ((H + 2 KV) hd, d)
        rows, kv = (cfg.n_heads + 2 * cfg.n_kv_heads) * hd, cfg.n_kv_heads           # (of H / KV q heads, k, v)
        require(w.shape[0] == rows or kv != cfg.n_heads, "layer %1's %2 has %3 rows; config.json says %4 heads of "
                "%5 q, k and v rows", layer, names["qkv_heads"], w.shape[0], cfg.n_heads, hd)
        require(w.shape[0] == rows, "layer %1's %2 has %3 rows; config.json says %4: %5 q heads, %6 k and %6 v "
                "heads of %7 rows", layer, names["qkv_heads"], w.shape[0], rows, cfg.n_heads, kv, hd)   # (Falcon's)
        bias = _bias(reader, names["qkv_heads_bias"], layer, rows) if cfg.qk_bias else np.float32(0.0)
        qkv = (x @ w.T + bias).reshape(len(x), kv, cfg.n_heads // kv + 2, hd)          # (n, KV, H/KV + 2, hd)
        q, k = qkv[:, :, :-2].reshape(len(x), -1), qkv[:, :, -2].reshape(len(x), -1)     # (n, H*hd), (n, KV*hd)
    else:
        q_bias, k_bias = ((_bias(reader, names["q_bias"], layer, cfg.n_heads * hd),
                           _bias(reader, names["k_bias"], layer, cfg.n_kv_heads * hd)) if cfg.qk_bias
                          else (0.0, 0.0))          # (a config without biases: transformers reads none)
        q = x @ _projection(reader, names["q"], layer, cfg.d_model, rows=cfg.n_heads * hd).T + q_bias
        k = x @ _projection(reader, names["k"], layer, cfg.d_model, rows=cfg.n_kv_heads * hd).T + k_bias
        #                                                                 (n, H*hd), (n, KV*hd)
    require(q.shape[1] == cfg.n_heads * hd and k.shape[1] == cfg.n_kv_heads * hd,
            "layer %1's q/k projections give %2 / %3 channels; config.json says %4 x %5 and %6 x %5",
            layer, q.shape[1], k.shape[1], cfg.n_heads, hd, cfg.n_kv_heads)
    if cfg.qk_norm and "q_norm_all" in names:        # OLMo 2, OLMoE: one RMSNorm over all of q's heads, one over k's
        q = rms_norm(q, _vector(reader, names["q_norm_all"], layer, q.shape[1]), cfg.norm_eps)
        k = rms_norm(k, _vector(reader, names["k_norm_all"], layer, k.shape[1]), cfg.norm_eps)
    if cfg.qkv_clip is not None:                    # clip_qkv: OLMo's on the projections, OLMoE's after its norms
        q, k = np.clip(q, -cfg.qkv_clip, cfg.qkv_clip), np.clip(k, -cfg.qkv_clip, cfg.qkv_clip)
    q, k = _heads(q, cfg.n_heads, hd), _heads(k, cfg.n_kv_heads, hd)
    if cfg.qk_norm and "q_norm_stacked" in names:    # StableLM's qk_layernorm, Cohere's use_qk_norm: head h its
        q, k = (layer_norm(t, _head_weights(reader, names.get(f"{side}_norm_heads"),     # own LayerNorm, no bias
                                            names[f"{side}_norm_stacked"], layer, len(t), hd), None, cfg.norm_eps)
                for t, side in ((q, "q"), (k, "k")))
    elif cfg.qk_norm and "q_norm_bias" in names:     # Phi's qk_layernorm: LayerNorms over each head
        def head_norm(t: np.ndarray, which: str) -> np.ndarray:
            w, b = (_vector(reader, names[which + key], layer, hd) for key in ("_norm", "_norm_bias"))
            return layer_norm(t, w, b, cfg.norm_eps)

        q, k = head_norm(q, "q"), head_norm(k, "k")
    elif cfg.qk_norm and "q_norm" in names:
        q = rms_norm(q, _vector(reader, names["q_norm"], layer, hd), cfg.norm_eps, gemma=cfg.gemma_norms)
        k = rms_norm(k, _vector(reader, names["k_norm"], layer, hd), cfg.norm_eps, gemma=cfg.gemma_norms)
    return q.astype(np.float32, copy=False), k.astype(np.float32, copy=False)


def layer_qk(cfg: ModelConfig, reader: TensorReader, x: np.ndarray, layer: int = 0,
             inv_freq: np.ndarray | None = None, attention_scaling: float = 1.0) -> LayerQK:
    """q, k (rotated and not) and the per-head logits of `layer` for input x (n, d)."""
    reads = _KeptReads(reader)
    with np.errstate(invalid="ignore", over="ignore"):   # NaN weights are named below, not warned of
        q, kv = project_qk(cfg, reads, x, layer)
        group = cfg.n_heads // cfg.n_kv_heads
        kv_head = np.arange(cfg.n_heads) // group                                 # (H,)
        k = kv[kv_head]                                                           # (H, n, hd)
        rotated = cfg.position == "rope" and (inv_freq is not None or layer not in cfg.nope_layers)
        if rotated:
            # GPT-J looks its sines up in a table of n_positions rows (create_sinusoidal_positions): the
            # model cannot turn a later position at all
            require(cfg.family != "gptj" or x.shape[0] <= cfg.max_positions, "%1 tokens is longer than "
                    "GPT-J's table of %2 rotary positions (n_positions); shorten the text", x.shape[0],
                    cfg.max_positions)
            if inv_freq is None:
                base, scaling, _ = cfg.rope_of(layer)
                inv_freq = default_inv_freq(base, cfg.rope_dim_of(scaling))
            inv_freq = np.asarray(inv_freq, dtype=np.float32).reshape(-1)
            gap = cfg.head_dim // 2 if cfg.rope_pairs_across_head else None
            q_rot = rotate(q, inv_freq, attention_scaling, gap, cfg.rope_interleaved, cfg.rope_offset)
            k_rot = rotate(k, inv_freq, attention_scaling, gap, cfg.rope_interleaved, cfg.rope_offset)
        else:
            q_rot, k_rot = q, k
            # MPT builds its ALiBi bias for max_seq_len keys: transformers cannot run a longer text
            require(cfg.family != "mpt" or x.shape[0] <= cfg.max_positions, "%1 tokens is longer than MPT's "
                    "max_seq_len of %2 (its ALiBi bias spans that many keys); shorten the text", x.shape[0],
                    cfg.max_positions)
        if cfg.model_type == "llama4_text":          # its q/k norm after RoPE; its NoPE layers' temperature
            q, k, q_rot, k_rot = llama4_qk(cfg, layer, rotated, q, k, q_rot, k_rot)
        if cfg.model_type in HUNYUAN:                # Hunyuan: each head's q / k RMSNorm (a weight) after RoPE
            q, k, q_rot, k_rot = hunyuan_qk(cfg, reads, layer, q, k, q_rot, k_rot)
        if cfg.q_scale is not None:                  # Ministral 3: q x its position scale after RoPE
            q, q_rot = ministral3_q(cfg, q, q_rot)
        scale = np.float32(1.0 / np.sqrt(cfg.score_scalar or cfg.head_dim))   # Gemma 2/3, Granite, DeepSeek: their own
        logits = np.einsum("hmd,hnd->hmn", q_rot, k_rot) * scale                  # (H, n, n)
        plain = np.einsum("hmd,hnd->hmn", q, k) * scale                           # (H, n, n)
        if cfg.attn_softcap is not None:                                          # Gemma 2
            cap = np.float32(cfg.attn_softcap)
            logits, plain = np.tanh(logits / cap) * cap, np.tanh(plain / cap) * cap
        slopes = slopes_of(cfg) if cfg.position == "alibi" else None           # (H,) BLOOM, MPT, Falcon
        if slopes is not None:                   # its bias, slope_h n less the slope_h m the softmax cancels
            logits = logits + bias_of(cfg, slopes, x.shape[0])                    # (H, n, n)
        if cfg.position == "relative":           # T5: layer 0's bias per head and bucket of n - m, every layer's
            logits = logits + relative_bias(cfg, reads, x.shape[0], layer)        # (H, n, n) (UMT5: the layer's)
        sinks = (_vector(reads, qk_names(cfg, layer)["sinks"], layer, cfg.n_heads) if cfg.attention_sinks
                 else None)                                                       # (H,) GPT-OSS
    out = LayerQK(q=q, k=k, q_rot=q_rot, k_rot=k_rot, logits=logits.astype(np.float32),
                  logits_plain=plain.astype(np.float32), kv_head=kv_head, window=cfg.window_of(layer),
                  chunk=cfg.chunk_of(layer),
                  sinks=sinks, slopes=slopes)
    checked = (out.q_rot, out.k_rot, out.logits, out.logits_plain) + ((sinks,) if sinks is not None else ())
    if not any(count_non_finite(a) for a in checked):
        return out
    bad = tuple(name for name, a in reads.kept.items() if count_non_finite(a))
    return replace(out, finite=False, bad_tensors=bad, bad_input=tuple(int(i) for i in bad_rows(x)))
