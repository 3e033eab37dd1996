"""The PyTorch code that computes what each view shows (`code_for`; its last array is `result`), for the
formula panel's code tab; `run_code` executes it (tests compare it with the views' data). No Qt here."""

from __future__ import annotations

import re

import numpy as np

from explorer.backend.encodings import channel_counts
from explorer.backend.models.family_tables import SINUSOID_FAMILIES
from explorer.compute import tokens
from explorer.compute.formulas import num
from explorer.params import Params


def _pe_code(d: int, base: float, layout: str, dtype: str, rows: str = "max_len") -> list[str]:
    """Lines that build `pe` (rows, d) exactly as explorer.backend.encodings does."""
    t = f"torch.{dtype}"
    head = [f"position = torch.arange({rows}, dtype={t}).unsqueeze(1)          # ({rows}, 1)"]
    if layout == "t2t":
        half = d // 2
        lines = head + [
            f"half = d_model // 2                                             # {half} timescales",
            f"inv_timescales = torch.exp(torch.arange(half, dtype={t}) * -(math.log(base) / max(half - 1, 1)))",
            "angle = position * inv_timescales                                # (rows, half)",
            "pe = torch.cat([torch.sin(angle), torch.cos(angle)], dim=1)      # [sin | cos]"]
        if d % 2:
            lines.append("pe = torch.nn.functional.pad(pe, (0, 1))                       # odd d: zero column")
        return lines
    lines = head + [
        (f"div_term = torch.exp(torch.arange(0, d_model, 2, dtype={t}) * (-math.log(base) / d_model))"
         f"  # ({(d + 1) // 2},) ω_i"),
        "angle = position * div_term                                      # (rows, ceil(d/2))"]
    if layout == "concat":
        return lines + [("pe = torch.cat([torch.sin(angle), torch.cos(angle[:, : d_model // 2])], dim=1)"
                         "  # all sines, then all cosines")]
    return lines + [f"pe = torch.zeros({rows}, d_model, dtype={t})",
                    "pe[:, 0::2] = torch.sin(angle)                                   # even channels",
                    "pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])                # odd channels"
                    + ("  (odd d: the last sine has no cosine)" if d % 2 else "")]


def _header(title: str, params: Params, extra: str = "") -> list[str]:
    return [(f"# {title}: d_model = {params.d_model}, max_len = {params.max_len}, "
             f"base = {num(params.base)}, layout = {params.layout}{extra}"), "import math", "", "import torch", "",
            f"d_model, max_len, base = {params.d_model}, {params.max_len}, {float(params.base)!r}"]


def _freq_code(params: Params) -> list[str]:
    if params.layout == "t2t":
        return ["half = d_model // 2",
                "w = torch.exp(torch.arange(half, dtype=torch.float64) * -(math.log(base) / max(half - 1, 1)))"]
    return ["w = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float64) * (-math.log(base) / d_model))"]


def _model_tokens_code(params: Params, r) -> list[str]:
    """An opened model's X: its own tokenizer and table, as its first layer receives it (explorer.api)."""
    scale = ("" if r.scale == 1.0 else
             f" x embedding_multiplier {r.scale:g}" if r.by_multiplier else f" x {r.scale:g} (sqrt(d_model))"
             if r.family in (*SINUSOID_FAMILIES, "bart") else f" x {r.scale:g} (sqrt(hidden))")
    added = (" (RoPE: nothing added for position)" if r.position == "rope" else
             f" + its sinusoidal table from row {r.padding_idx + 1} (computed from config.json; a pad token reads "
             f"row {r.padding_idx}), its encoder's input" if r.family == "m2m_100" else
             " + its learned positions from row 2, then LayerNorm (layernorm_embedding), its encoder's input"
             if r.family == "bart" else
             f" + its learned positions (from row {r.padding_idx + 1}) + token type 0, then LayerNorm"
             if r.padding_idx is not None else
             ", then LayerNorm (ALiBi: nothing added for position)" if r.family == "bloom" else
             " (ALiBi: nothing added for position)" if r.position == "alibi" else
             " (T5's encoder: nothing added for position; a relative bias in attention)" if r.position == "relative"
             else
             " + its learned positions + token type 0, then LayerNorm" if r.family == "bert" else
             " + its learned positions, then LayerNorm" if r.family == "distilbert" else
             " + its sinusoidal table from row 2 (computed from config.json)" if r.family == "xglm" else
             " + its learned positions")
    return [f"# Tokens with {r.model_name}: X = E[ids]{scale}{added}, {r.n_shown} tokens",
            "from explorer import api", "",
            f"with api.open_model({params.model!r}) as model:",
            f"    ids = model.tokenize({params.text!r}).ids[:{r.n_shown}]",
            "    result = model.input_x(ids)                             # (n, d_model): X into layer 0"]


def _tokens_code(params: Params) -> list[str]:
    r = tokens.for_params(params)
    if r.source == "model" and not r.error:
        return _model_tokens_code(params, r)
    ids = [t.id for t in r.tokens]
    words = ", ".join(repr(t.text) for t in r.tokens[:12]) + (", …" if r.n_shown > 12 else "")
    out = [(f"# Tokens: X = E[ids]{' * sqrt(d_model)' if r.scale != 1.0 else ''} + PE, "
            f"tokenizer {r.tokenizer}, {r.n_shown} tokens"), "import math", "", "import numpy as np",
           "import torch", "", f"# {words}"[:200], "ids = torch.tensor(["]
    out += ["    " + ", ".join(str(i) for i in ids[j:j + 12]) + "," for j in range(0, len(ids), 12)]
    out += ["], dtype=torch.long)", "n = len(ids)"]
    if r.source == "minilm":
        return out + [
            "from explorer.backend import pretrained     # all-MiniLM-L6-v2's trained tables",
            "t = pretrained.minilm_tables()",
            "word, pos_table = torch.from_numpy(t.word), torch.from_numpy(t.position)",
            "x = word[ids] + pos_table[:n] + torch.from_numpy(t.token_type[0])   # BERT input before LayerNorm",
            "result = x.numpy()                                               # (n, 384)"]
    out += [f"d_model, base, seed = {params.d_model}, {float(params.base)!r}, {params.seed}",
            "# E = nn.Embedding(vocab, d_model), untrained: N(0, 1) rows. PE Explorer draws each used row",
            "# from its own seeded stream (same distribution); a trained model uses its own table here.",
            "rows = [np.random.default_rng([seed, t]).standard_normal(d_model, dtype=np.float32)",
            "        for t in ids.tolist()]",
            "E_ids = torch.from_numpy(np.array(rows, dtype=np.float32).reshape(n, d_model))  # (n, d)"]
    out += _pe_code(params.d_model, params.base, params.layout, "float32", rows="n")
    scale = " * math.sqrt(d_model)" if r.scale != 1.0 else ""
    return out + [f"x = E_ids{scale} + pe                      # the first layer's input X",
                  "result = x.numpy()                                               # (n, d_model)"]


def code_for(view: str, params: Params, state=None) -> str:
    """PyTorch code computing what `view` shows for `params` (and the view's own `state`)."""
    p = params
    if view == "tokens":
        return _tidy(_tokens_code(p))
    if view == "similarity":
        out = _header("Position similarity", p, f", metric = {p.metric}")
        out += _pe_code(p.d_model, p.base, p.layout, "float64")
        out += ["s = pe @ pe.T                                                    # (max_len, max_len)"]
        if p.metric == "cosine":
            out += ["norm = pe.norm(dim=1)                                            # |PE(p)|",
                    "denom = norm[:, None] * norm[None, :]",
                    "s = torch.where(denom > 0, s / denom, torch.zeros_like(s))      # cosine"]
        out += ["result = s.numpy()"]
    elif view == "curves":
        pairs = ", ".join(str(i) for i in dict.fromkeys(p.curve_pairs))
        n_cos = channel_counts(p.d_model, p.layout)[1]
        out = _header("Frequency curves", p) + _freq_code(p) + [
            "x = torch.arange(max_len, dtype=torch.float64)", "lines = []",
            f"for i in ({pairs},):", "    if i >= len(w):", "        continue",
            "    lines.append(torch.sin(x * w[i]))                            # channel with sin",
            f"    if i < {n_cos}:",
            "        lines.append(torch.cos(x * w[i]))                        # its cosine partner",
            "result = (torch.stack(lines) if lines else torch.zeros(0, max_len)).numpy()  # (lines, max_len)"]
    elif view == "frequencies":
        out = _header("Frequencies", p) + _freq_code(p) + [
            "wavelength = 2 * math.pi / w                                     # positions per period",
            "result = torch.stack([w, wavelength]).numpy()                    # (2, pairs)"]
    elif view == "offset":
        k, pos = getattr(state, "offset", 16), getattr(state, "position", 10)
        out = _header("Relative offset", p.with_(layout="interleaved"), f", p = {pos}, k = {k}") + [
            f"p, k = {pos}, {k}"] + _freq_code(p.with_(layout="interleaved")) + [
            "def pe_at(t):                                                    # PE(t), interleaved",
            "    v = torch.zeros(d_model, dtype=torch.float64)",
            "    v[0::2] = torch.sin(t * w)", "    v[1::2] = torch.cos(t * w[: d_model // 2])", "    return v",
            "R = torch.zeros(d_model, d_model, dtype=torch.float64)           # R(k): 2x2 blocks",
            "for i in range(d_model // 2):",
            "    c, s = math.cos(k * w[i]), math.sin(k * w[i])",
            "    R[2 * i:2 * i + 2, 2 * i:2 * i + 2] = torch.tensor([[c, s], [-s, c]])",
            "if d_model % 2:", "    R[-1, -1] = float('nan')                  # the unpaired sine has no rotation",
            "result = torch.stack([pe_at(p + k), R @ pe_at(p)]).numpy()       # PE(p+k) and R(k)PE(p)"]
    elif view == "rope":
        hd, b = getattr(state, "head_dim", 64), float(getattr(state, "base", 10000.0))
        out = [f"# RoPE: head_dim = {hd}, base = {num(b)}, max_len = {p.max_len}; all-ones q and k",
               "import torch", "", f"head_dim, base, max_len = {hd}, {b!r}, {p.max_len}",
               "theta = base ** (-torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim)",
               "def rotate(x, m):                                                 # pairs (2i, 2i+1)",
               "    a = m * theta", "    out = torch.empty_like(x)",
               "    out[0::2] = x[0::2] * torch.cos(a) - x[1::2] * torch.sin(a)",
               "    out[1::2] = x[0::2] * torch.sin(a) + x[1::2] * torch.cos(a)", "    return out",
               "q = k = torch.ones(head_dim, dtype=torch.float64)",
               "delta = torch.arange(-(max_len - 1), max_len, dtype=torch.float64)  # m - n",
               "result = torch.stack([rotate(q, m) @ rotate(k, 0.0) for m in delta]).numpy()"]
    elif view == "alibi":
        out = _alibi_code(p, state)
    else:
        out = _header("PE table", p) + _pe_code(p.d_model, p.base, p.layout, p.dtype) + [
            "result = pe.numpy()                                              # (max_len, d_model)"]
    return _tidy(out)


def _alibi_code(p: Params, state) -> list[str]:
    """The ALiBi view's bias for every head over max_len: the formula's slopes for the state's heads (float64), or the
    opened ALiBi model's as its transformers class makes them (BLOOM, MPT: float32; Falcon: bfloat16, ÷ √head_dim)."""
    from explorer import catalogue
    from explorer.compute import models

    r = catalogue.entry("alibi").run(p, state)
    if r.family == "t5":                  # its learned table at the bucket of j - i (models.t5_bias), every head
        return [f"# T5's relative position bias of {r.model_name}, max_len = {p.max_len}", "import numpy as np",
                "from explorer import api", "from explorer.backend.models.t5_bias import bias_at", "",
                f"with api.open_model({p.model!r}) as model:",
                f"    bias = bias_at(model.config, model.relative_bias_table(), np.arange({p.max_len}))"
                "   # (heads, L, L) [query i, key j]", "result = bias"]
    heads, cfg = len(r.slopes), models.open_config(p.model) if r.model_name else None
    dtype, falcon = "float64" if cfg is None else "float32", r.family == "falcon"
    whose = f" of {r.model_name} ({r.family})" if cfg is not None else ""
    out = [f"# ALiBi: {heads} heads{whose}, max_len = {p.max_len}", *(["import math"] if falcon else []),
           "import torch", "", f"heads, max_len = {heads}, {p.max_len}",
           "n = 2 ** int(torch.log2(torch.tensor(float(heads))).floor())    # largest power of 2 <= heads",
           "slopes = [2 ** (-8 * (h + 1) / n) for h in range(n)]",
           "slopes += [2 ** (-8 * (h + 1) / (2 * n)) for h in range(0, 2 * n, 2)][: heads - n]",
           f"m = torch.tensor(slopes, dtype=torch.{dtype})                  # (heads,)"]
    if falcon:     # transformers' build_alibi_tensor in bfloat16, then / sqrt(head_dim)
        out += [f"head_dim = {cfg.head_dim}",
                "j = torch.arange(max_len).to(torch.bfloat16)                     # positions in bfloat16 too",
                "b = (m.to(torch.bfloat16)[:, None] * j[None, :]).float() / math.sqrt(head_dim)   # (heads, L)",
                "bias = -(b[:, None, :] - b[:, :, None]).abs()                      # (heads, L, L)"]
    else:
        out += [f"i = torch.arange(max_len, dtype=torch.{dtype})",
                "bias = -m[:, None, None] * (i[:, None] - i[None, :]).abs()     # (heads, L, L)"]
    return out + ["result = bias.numpy()"]


def _tidy(lines: list[str]) -> str:
    """One text, trailing comments two spaces after the code (narrow panels stay readable)."""
    return "\n".join(re.sub(r"(\S) {2,}# ", r"\1  # ", line) for line in lines) + "\n"


def run_code(code: str) -> np.ndarray:
    """Execute generated code in a fresh namespace and return its `result` array."""
    namespace: dict = {"__name__": "pe_explorer_generated"}
    exec(compile(code, "<generated>", "exec"), namespace)  # noqa: S102 - our own generated text
    return np.asarray(namespace["result"])
