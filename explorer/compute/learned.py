"""The learned-positions view's data: MiniLM's table beside sinusoidal PE at d = 384. No Qt here."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from explorer.backend import pretrained
from explorer.backend.encodings import sinusoidal_pe
from explorer.backend.similarity import similarity_matrix
from explorer.errors import InputError
from explorer.params import Params
from explorer.compute.tokens import MINILM_D, MINILM_LEN


@dataclass(frozen=True)
class LearnedResult:
    """MiniLM's learned positions beside sinusoidal PE at d = 384 (params.base, params.layout)."""

    params: Params
    sinusoidal: np.ndarray            # (512, 384)
    sim_sinusoidal: np.ndarray        # (512, 512) cosine, closed form
    learned: np.ndarray | None        # (512, 384) or None when MiniLM is missing
    sim_learned: np.ndarray | None    # (512, 512) cosine
    error: str = ""                   # why the learned table is missing

    @property
    def learned_level(self) -> float:
        """A colour limit for the learned table: the 99.5th percentile of |value| (a few channels are
        outliers ~30x larger than the rest, which would wash the picture out)."""
        if self.learned is None:
            return 1.0
        return max(float(np.percentile(np.abs(self.learned), 99.5)), 1e-12)


def cosine_matrix(rows: np.ndarray) -> np.ndarray:
    """Cosine similarity of every pair of rows, float64; (n, n). Zero rows give 0."""
    a = np.asarray(rows, dtype=np.float64)                                     # (n, d)
    norm = np.linalg.norm(a, axis=1)                                           # (n,)
    unit = a / np.where(norm > 0, norm, 1.0)[:, None]
    return unit @ unit.T


@lru_cache(maxsize=4)
def _learned(base: float, layout: str) -> LearnedResult:
    sin = sinusoidal_pe(MINILM_LEN, MINILM_D, base, layout, "float32")                # (512, 384)
    sim_sin = similarity_matrix(MINILM_LEN, MINILM_D, base, layout, "cosine").astype(np.float32)
    learned_rows, sim_learned, error = None, None, ""
    try:
        learned_rows = pretrained.minilm_tables().position                             # (512, 384)
        sim_learned = cosine_matrix(learned_rows).astype(np.float32)                  # (512, 512)
    except InputError as exc:
        error = str(exc)
    return LearnedResult(Params(), sin, sim_sin, learned_rows, sim_learned, error)


@lru_cache(maxsize=4)
def learned(params: Params) -> LearnedResult:
    """Learned vs sinusoidal positions; depends only on params.base and params.layout."""
    r = _learned(float(params.base), params.layout)
    return LearnedResult(params, r.sinusoidal, r.sim_sinusoidal, r.learned, r.sim_learned, r.error)
