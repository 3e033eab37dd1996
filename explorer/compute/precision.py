"""The precision view's data: neighbour distances in float32 / float16 / bfloat16. No Qt here."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache


from explorer.backend import precision
from explorer.params import Params
from explorer.viewstate import ViewState


@dataclass(frozen=True)
class PrecisionState(ViewState):
    RANGES = {"train_max_len": (1, 10_000_000), "span": (0, 1 << 24)}
    CHOICES = {"mode": ("compute", "store")}

    train_max_len: int = 512
    span: int = 4096          # positions shown (0 = the shared max_len): bfloat16 collides at 256,
    #                           float16 at 2048, so the lesson shows at the defaults
    mode: str = "compute"


@dataclass(frozen=True)
class PrecisionResult:
    curves: dict              # dtype -> backend.precision.PrecisionCurve
    span: int                 # positions 0 .. span - 1 shown
    params: Params
    state: PrecisionState


PRECISION_POINTS = 256   # grid positions sampled (fewer for wide d); collision edges added exactly
PRECISION_WORK = 1 << 17  # positions x channels per frame: keeps wide d within the frame budget
PRECISION_MIN_POINTS = 96  # at d = 4096: 3.8 ms of compute, not 4.9 at 128 (Xeon); a chart of
#                            spikes and zeros reads the same (the readout says how many are drawn)


def precision_points(d_model: int) -> int:
    """256 grid positions, or fewer (>= 96) when d_model is wide: the cost is positions x d."""
    return max(PRECISION_MIN_POINTS, min(PRECISION_POINTS, PRECISION_WORK // d_model))


@lru_cache(maxsize=4)
def precision_view(params: Params, state: PrecisionState = PrecisionState()) -> PrecisionResult:
    """Neighbour distances ||PE~(p+1) - PE~(p)|| in float32 / float16 / bfloat16."""
    span = state.span or params.max_len
    curves = precision.all_precisions(span, params.d_model, params.base, state.mode,
                                      params.layout, state.train_max_len,
                                      precision_points(params.d_model), errors=False,
                                      jitter=True)
    return PrecisionResult(curves, span, params, state)
