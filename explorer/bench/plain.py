"""The plain way to draw each view, for the bench: full arrays, one thread, setImage/plot, autoLevels.

`PLAIN[name](params, view) -> panels`, a list of ("image", (rows, cols) array) and
("curves", [(x, y), ...][, {"log_y": True}]) in the view's panel order: the same panels, curves and colour bars the view
draws, from full tables computed the textbook way (the whole (max_len, d_model) PE table, matmul
similarity, one rotation per position) instead of screen-size closed forms, which
explorer.bench.plain_canvas.PlainCanvas draws as a beginner would.

Two limits the plain way cannot pass: pyqtgraph draws at most 32767 rows or columns of an image
(larger tables are sliced), and an n x n matrix is computed for at most MATRIX_CAP positions
(32768^2 float32 is 4 GiB); ALiBi's four bias images stop at ALIBI_CAP. A view without an entry
here gets `mirror(view)`: its own data drawn the plain way (draw cost only; marked "mirror").
"""

from __future__ import annotations

import math

import numpy as np

from explorer.backend.encodings import _frequencies_like_seed, channel_layout, frequencies

MATRIX_CAP = 8192    # positions of an n x n matrix computed the plain way
ALIBI_CAP = 4096     # positions of each of the four ALiBi bias images
IMAGE_LIMIT = 32767  # pyqtgraph: rows / columns of one image


def textbook_pe(n: int, d: int, base: float, layout: str, dtype: str = "float32") -> np.ndarray:
    """The full PE table as the seeds' listing builds it: every angle, then sin and cos into a zeroed
    table's columns (the app's sinusoidal_pe gives the same values a cache-sized block at a time); (n, d)."""
    kind = np.dtype(dtype).type
    angle = np.arange(n, dtype=kind)[:, None] * _frequencies_like_seed(d, base, layout, kind)[None, :]
    sin_cols, cos_cols = channel_layout(d, layout)
    pe = np.zeros((n, d), dtype=kind)
    pe[:, sin_cols] = np.sin(angle)
    pe[:, cos_cols] = np.cos(angle[:, :len(range(d)[cos_cols])])
    return pe


def _pe(p, n: int | None = None, layout: str | None = None) -> np.ndarray:
    """The full PE table, float32; (n, d)."""
    return textbook_pe(n or p.max_len, p.d_model, p.base, layout or p.layout)


def _sim(pe: np.ndarray, metric: str = "dot") -> np.ndarray:
    """pe @ pe.T (cosine: divided by the row norms); (n, n)."""
    s = pe @ pe.T
    if metric == "cosine":
        norm = np.linalg.norm(pe, axis=1)
        s /= np.outer(norm, norm)
    return s


def _img(a) -> tuple[str, np.ndarray]:
    return ("image", a[:IMAGE_LIMIT, :IMAGE_LIMIT])


def heatmap(p, view):
    return [_img(_pe(p))]


def curves(p, view):
    pe = _pe(p)
    sin_cols, cos_cols = channel_layout(p.d_model, p.layout)
    sin_idx, cos_idx = range(p.d_model)[sin_cols], range(p.d_model)[cos_cols]
    x = np.arange(p.max_len)
    lines = []
    for lane, i in enumerate(dict.fromkeys(p.curve_pairs)):          # one lane per pair, as the view
        if i < len(sin_idx):
            lines.append((x, pe[:, sin_idx[i]] - 2.5 * lane))
        if i < len(cos_idx):
            lines.append((x, pe[:, cos_idx[i]] - 2.5 * lane))
    return [("curves", lines)]


def similarity(p, view):
    s = _sim(_pe(p, min(p.max_len, MATRIX_CAP)), p.metric)
    return [_img(s), ("curves", [(np.arange(len(s)), s[0])])]


def conventions(p, view):
    from explorer.backend import layouts

    pes = {lay: _pe(p, layout=lay) for lay in ("interleaved", "concat", "t2t")}
    cap = min(p.max_len, MATRIX_CAP)
    sims = {lay: _sim(pes[lay][:cap], p.metric) for lay in ("interleaved", "t2t")}
    return [*(_img(pe) for pe in pes.values()), _img(layouts.concat_permutation(p.d_model)),
            _img(sims["interleaved"]), _img(sims["t2t"] - sims["interleaved"])]


def offset(p, view):
    from explorer.backend import relative

    state = getattr(view, "state", None)
    n, d = p.max_len, p.d_model
    pos = min(max(0, int(getattr(state, "position", 10))), n - 1)
    k = min(max(0, int(getattr(state, "offset", 16))), n - 1)
    ps = sorted({0, pos, n // 4, n // 2})
    pe = _pe(p, max(ps) + n)                                             # (max p + n, d)
    rot = relative.rotation_matrix(d, k, p.base).astype(np.float32)      # (d, d)
    ch = np.arange(d)
    dots = [(np.arange(n), pe[q:q + n] @ pe[q]) for q in ps]
    return [_img(rot), ("curves", [(ch, pe[pos + k]), (ch, rot @ pe[pos])]), ("curves", dots)]


def frequencies_view(p, view):
    w = frequencies(p.d_model, p.base, p.layout)
    i = np.arange(len(w))
    return [("curves", [(i, w), (i, 2 * np.pi / w)], {"log_y": True})]     # as the view: log y


def _rotate(x: np.ndarray, n: int, theta: np.ndarray) -> np.ndarray:
    """x (hd,) rotated to every position 0 .. n-1, interleaved pairs, float32; (n, hd)."""
    angle = np.arange(n, dtype=np.float32)[:, None] * theta.astype(np.float32)[None, :]
    c, s = np.cos(angle), np.sin(angle)
    out = np.empty((n, len(x)), np.float32)
    out[:, 0::2] = x[0::2] * c - x[1::2] * s
    out[:, 1::2] = x[0::2] * s + x[1::2] * c
    return out


def rope_view(p, view):
    from explorer.backend import rope

    state = getattr(view, "state", None)
    hd, b = int(getattr(state, "head_dim", 64)), float(getattr(state, "base", 1e4))
    scale = float(getattr(state, "scale", 4.0))
    n = p.max_len
    theta = rope.rope_frequencies(hd, b)
    q, k = rope.query_key(hd, "random", int(getattr(state, "seed", 0)))
    ones = np.ones(hd)
    q_rot, k_rot, o_rot = _rotate(q, n, theta), _rotate(k, n, theta), _rotate(ones, n, theta)
    delta = np.arange(-(n - 1), n)

    def both_ways(a, c):      # score at m - n = delta: a(delta).c(0), and a(0).c(-delta) below 0
        return np.concatenate([(c[1:] @ a[0])[::-1], a @ c[0]])

    span = math.ceil(scale * n)
    ext = np.arange(span)
    variants = []
    for th in rope.frequency_variants(hd, b, scale).values():
        rotated = _rotate(ones, span, th)                                # (s n, hd)
        variants.append((ext, rotated @ rotated[0]))
    return [_img(q_rot), _img(k_rot), _img(rope.pairing_permutation(hd)),
            ("curves", [(delta, both_ways(o_rot, o_rot)), (delta, both_ways(q_rot, k_rot))]),
            ("curves", variants)]


def alibi_view(p, view):
    from explorer.backend import alibi

    state = getattr(view, "state", None)
    heads, causal = int(getattr(state, "heads", 8)), bool(getattr(state, "causal", False))
    m = alibi.slopes(heads)
    shown = dict.fromkeys(round(x) for x in np.linspace(0, heads - 1, min(4, heads)))
    n = min(p.max_len, ALIBI_CAP)
    i = np.arange(n, dtype=np.float32)
    dist = np.abs(i[:, None] - i[None, :])                              # (n, n)
    panels = [("curves", [(np.arange(heads), m)])]
    for h in shown:
        bias = -m[h] * dist
        if causal:
            bias[np.triu_indices(n, 1)] = np.nan
        panels.append(_img(bias))
    return panels


def distance_view(p, view):
    from explorer.backend import alibi, rope

    state = getattr(view, "state", None)
    hd, b = int(getattr(state, "head_dim", 64)), float(getattr(state, "rope_base", 1e4))
    head = int(getattr(state, "alibi_head", 0))
    m = float(alibi.slopes(int(getattr(state, "heads", 8)))[head])
    n = p.max_len
    k = np.arange(n)
    pe = _pe(p)
    o_rot = _rotate(np.ones(hd), n, rope.rope_frequencies(hd, b))
    lines = [(k, pe @ pe[0] / (pe[0] @ pe[0])), (k, o_rot @ o_rot[0] / hd), (k, np.exp(-m * k)),
             (k, np.ones(n))]
    if bool(getattr(state, "learned", False)):        # MiniLM: mean cosine of rows p and p + k
        from explorer.backend import pretrained
        from explorer.compute.learned import cosine_matrix

        if pretrained.minilm_available() is None:
            cos = cosine_matrix(pretrained.minilm_tables().position)        # (512, 512)
            lk = np.arange(min(n, len(cos)))
            lines.append((lk, np.array([np.diagonal(cos, int(j)).mean() for j in lk])))
    return [("curves", lines)]


def precision_view(p, view):
    from explorer.backend.dtype_rounding import round_to

    state = getattr(view, "state", None)
    span = int(getattr(state, "span", 0) or p.max_len)
    exact = textbook_pe(span, p.d_model, p.base, p.layout, "float64")
    table = _pe(p, span)
    tables = {"float32": table, "float16": round_to(table, "float16"),
              "bfloat16": round_to(table, "bfloat16")}
    x = np.arange(span - 1)
    lines = [(x, np.linalg.norm(np.diff(exact, axis=0), axis=1))]
    lines += [(x, np.linalg.norm(np.diff(t, axis=0), axis=1)) for t in tables.values()]
    return [("curves", lines)]


def learned(p, view):
    from explorer.compute.learned import cosine_matrix

    r = getattr(view, "result", None)
    sin = textbook_pe(512, 384, p.base, p.layout)
    table = getattr(r, "learned", None)
    table = sin if table is None else table
    return [_img(table), _img(sin), _img(cosine_matrix(table)), _img(cosine_matrix(sin))]


def tokens(p, view):
    """The view's own matrices drawn plainly, plus the full PE table its rows come from."""
    _pe(p)
    return mirror(view)


def mirror(view) -> list:
    """The images and curves the view shows now, in scene order (its own data, drawn plainly)."""
    import pyqtgraph as pg

    panels = []
    for gv in view.findChildren(pg.GraphicsView):
        if not gv.isVisibleTo(view):
            continue
        for item in gv.scene().items(gv.scene().itemsBoundingRect()):
            if isinstance(item, pg.ImageItem) and item.image is not None and item.isVisible():
                panels.append(_img(np.asarray(item.image)))
            elif isinstance(item, pg.PlotItem):
                lines = [(c.xData, c.yData) for c in item.listDataItems()   # curves (not scatter dots)
                         if c.isVisible() and getattr(c, "xData", None) is not None and len(c.xData)]
                if lines:
                    panels.append(("curves", lines))
    return panels[::-1]     # items() lists the top of the stacking order first


PLAIN = {"heatmap": heatmap, "curves": curves, "similarity": similarity, "tokens": tokens,
         "learned": learned, "conventions": conventions, "offset": offset,
         "frequencies": frequencies_view, "rope": rope_view, "alibi": alibi_view,
         "distance": distance_view, "precision": precision_view}


def plain_panels(name: str, params, view) -> tuple[list, str]:
    """(panels, kind): kind "full" (textbook arrays) or "mirror" (the view's own data)."""
    fn = PLAIN.get(name)
    return (fn(params, view), "full") if fn is not None else (mirror(view), "mirror")
