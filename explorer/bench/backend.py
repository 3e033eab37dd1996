"""Backend rows: screen-size PE and similarity (closed forms) and full size (the textbook path).

Each screen-size case runs many times with a new base each time (as a slider drags), and reports the
median and the minimum: on a shared machine the minimum is the least-disturbed run.
"""

from __future__ import annotations

import math

import numpy as np

from explorer.bench.timing import stats, timed

SCREEN_REPEAT = 40
FULL_REPEAT = 3


def _cases(n: int, d: int) -> dict:
    """name -> fn(i), each with base 1e4 + i, for one size."""
    from explorer.compute import heatmap, similarity
    from explorer.compute.screen import Window, block_step, channel_step
    from explorer.backend.encodings import check_table_budget, sinusoidal_pe
    from explorer.backend.pe_screen import pe_screen, pe_screen_plain
    from explorer.backend.similarity import similarity_matmul
    from explorer.errors import InputError
    from explorer.params import Params

    p = Params(max_len=n, d_model=d)
    win = Window.full(p, 800, 1000)
    step = block_step(n, win.rows_px)
    count = math.ceil(n / step)
    ch_step = channel_step(d, win.cols_px)       # as the heatmap draws it
    cols = d // ch_step
    cases = {
        "pe screen (compute.heatmap)": lambda i: heatmap.heatmap.__wrapped__(
            p.with_(base=1e4 + i), win),
        "pe screen fast (pe_screen)": lambda i: pe_screen(0, step, count, 0, ch_step, cols, d,
                                                          1e4 + i),
        "pe screen plain (block mean)": lambda i: pe_screen_plain(
            0, step, count, 0, ch_step, cols, d, 1e4 + i, dtype=np.float32),
        "similarity screen": lambda i: similarity.similarity.__wrapped__(p.with_(base=1e4 + i), win),
    }
    try:                        # the textbook table, where the app's memory budget allows one
        check_table_budget(n, d, "float32")
        cases["pe full float32"] = lambda i: sinusoidal_pe(n, d, 1e4 + i)
    except InputError:
        pass
    if n <= 8192:
        cases["similarity full (matmul)"] = lambda i: similarity_matmul(n, min(d, 512), 1e4 + i,
                                                                       dtype="float32")
    return cases


MODEL_TOKENS = 512      # the sentence length of the model row (issue #15: within a frame once read)


def model_case():
    """(name, d_model, fn(i)) for a 512-token sentence with SmolLM2 after the model is open: the tokens
    view's whole compute uncached (tokenize, rows, X, norms), i.e. what a text edit costs (a slider move
    keeps the cached result: the model's tokens do not depend on the shared sliders); None without
    SmolLM2."""
    from explorer.backend.models.shipped import smollm2_path
    from explorer.compute import model_tokens, models
    from explorer.params import Params

    if smollm2_path() is None:
        return None
    words = " ".join(f"word{i}" for i in range(MODEL_TOKENS))        # well over 512 tokens
    p = Params(model="smollm2", embedding_source="model", text=words, max_len=MODEL_TOKENS)
    stamp = models.stamp(p.model)
    model_tokens.tokens_model.__wrapped__(p, stamp)                  # reads the rows once
    return ("tokens with SmolLM2, 512 tokens, text edit", models.open_cached(p.model).config.d_model,
            lambda i: model_tokens.tokens_model.__wrapped__(p, stamp))


LEARNED_TABLES = {"GPT-2": (1024, 768), "OPT-350m": (2048, 1024)}   # position tables (rows, d)
LEARNED_PANEL = (250, 480)    # pixels of one Learned image panel in the bench's 1400 x 900 window


def learned_cases() -> dict:
    """name -> (n, d, fn(i)): the Learned view's base step beside a trained table of GPT-2's and
    OPT-350m's size (random values: the cost depends on the shape alone), which the frame rows,
    drawn with MiniLM's 512 x 384, do not show."""
    from explorer.compute.learned import beside_table
    from explorer.params import Params

    out = {}
    for model, (n, d) in LEARNED_TABLES.items():
        table = (np.random.default_rng(0).standard_normal((n, d)) * 0.1).astype(np.float32)
        out[f"learned step, {model}-sized table"] = (n, d, lambda i, t=table: beside_table(
            t, Params(base=1e4 + i), *LEARNED_PANEL))
    return out


def backend_rows(sizes, repeat: int = SCREEN_REPEAT) -> list[dict]:
    rows = []
    for n, d in sizes:
        for name, fn in _cases(n, d).items():
            count = FULL_REPEAT if "full" in name else repeat
            fn(count + 1)                             # untimed: caches, page faults
            rows.append({"what": name, "max_len": n, "d_model": d, **stats(timed(fn, count))})
    for name, (n, d, fn) in learned_cases().items():
        fn(repeat + 1)
        rows.append({"what": name, "max_len": n, "d_model": d, **stats(timed(fn, repeat))})
    case = model_case()
    if case is not None:
        name, d, fn = case
        rows.append({"what": name, "max_len": MODEL_TOKENS, "d_model": d, **stats(timed(fn, 20))})
    return rows
