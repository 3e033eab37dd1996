"""A sinusoidal table whose first row is a later position (a slice pe[5000:5064], a later chunk's positions):
the check read it as "matches no known convention" (it tried positions from 0 and 1); row 0's phases now give
the first position, named as `positions_from_1` ("row 0 equals PE(5000)"). References: sinusoidal_pe from
that position (the seeds' formula, tests/test_encodings) and the table from 0."""

from __future__ import annotations

import numpy as np
import pytest

import explorer
from explorer.backend.diagnose.pe_models import Spec
from explorer.backend.diagnose.pe_start import start_guess
from explorer.backend.encodings import sinusoidal_pe


@pytest.mark.parametrize("start, base, layout, d, dtype", [
    (5, 10000.0, "interleaved", 128, "float64"), (5000, 10000.0, "interleaved", 64, "float32"),
    (1000, 10000.0, "concat", 128, "float64"), (70000, 500000.0, "concat", 256, "float32"),
    (300, 10000.0, "t2t", 96, "float64"), (2, 10.0, "interleaved", 16, "float64"),
    (2_000_000, 10000.0, "interleaved", 128, "float64")])
def test_a_table_from_a_later_position_names_it(start, base, layout, d, dtype):
    table = sinusoidal_pe(64, d, base, layout, dtype, start=start)
    r = explorer.check(table)
    assert not r.match and [m.id for m in r.mistakes] == ["positions_from_1"]
    assert r.convention["start"] == start and r.convention["base"] == base and r.convention["layout"] == layout
    assert r.summary == f"row 0 equals PE({start}): positions start at {start}, not 0"
    assert np.allclose(r.reference, sinusoidal_pe(64, d, base, layout, "float64"), atol=1e-12)   # the right one: 0


def test_a_t2t_table_from_position_2_is_named_t2t_base_10000_not_its_concat_alias():
    """XGLM's table (t2t, base 10000, rows from position 2; torch's float32, as transformers makes it): concat at base
    10000^(32/31) = 13459.6 has the very same frequencies at d = 64, and the float32 noise had made that alias the
    closer fit; the common base is named."""
    xglm = pytest.importorskip("transformers").models.xglm.modeling_xglm
    table = xglm.XGLMSinusoidalPositionalEmbedding.get_embedding(302, 64, None).numpy()[2:]
    r = explorer.check(table)
    assert (r.convention["layout"], r.convention["base"], r.convention["start"]) == ("t2t", 10000.0, 2)
    assert [m.id for m in r.mistakes] == ["positions_from_1"]
    assert "a fairseq-style model (XGLM, M2M100, NLLB) reads row p + 2 for position p by design" in r.summary
    assert r.mistakes[0].fix.startswith("a model's own table: keep it (position p is row p + 2)")


@pytest.mark.parametrize("start, layout", [(3, "t2t"), (2, "interleaved"), (2, "concat")])
def test_other_later_starts_are_not_told_as_fairseqs(start, layout):
    """Only t2t from position 2 is fairseq's own start (XGLM's offset 2, M2M100's padding_idx + 1)."""
    r = explorer.check(sinusoidal_pe(64, 64, 10000.0, layout, "float64", start=start))
    assert r.summary == f"row 0 equals PE({start}): positions start at {start}, not 0"
    assert r.mistakes[0].fix == "position = torch.arange(0, max_len).unsqueeze(1).float()"


def test_the_start_comes_from_row_0_alone_whatever_the_scale_sign():
    """sqrt(d) x PE and -PE from position 777: every phase turned by pi for the negative one."""
    table = sinusoidal_pe(8, 64, 10000.0, "interleaved", "float64", start=777)
    for scale in (8.0, -1.0):
        assert start_guess(scale * table, None, Spec("interleaved"), 10000.0) == 777
    assert start_guess(table, None, Spec("interleaved", "swapped"), 10000.0) is None    # not its pairs
    assert start_guess(table, None, Spec("interleaved"), 20000.0) is None                # nor its base
    assert start_guess(sinusoidal_pe(8, 64, 1e4, "interleaved", "float64"), None, Spec("interleaved"), 1e4) is None


def test_noise_and_right_tables_are_read_as_before():
    noise = np.random.default_rng(0).standard_normal((64, 128))
    r = explorer.check(noise)
    assert [m.id for m in r.mistakes] == ["unknown"] and r.convention.get("start", 0) in (0, 1)
    assert explorer.check(sinusoidal_pe(64, 128, 10000.0, "interleaved", "float32")).match
    one = explorer.check(sinusoidal_pe(64, 128, 10000.0, "interleaved", "float64", start=1))
    assert one.summary == "row 0 equals PE(1): positions start at 1, not 0"


def test_past_half_the_angles_beyond_2_to_15_it_cannot_be_checked():
    """At position ~10^7 most channels' angles p·w pass 2^15, where a float32 table is noise: the start is read
    from the phases, but the fit cannot be checked on half the table, so it stays unknown (as the README says)."""
    table = sinusoidal_pe(64, 128, 10000.0, "interleaved", "float64", start=9_999_000)
    assert start_guess(table, None, Spec("interleaved"), 10000.0) == 9_999_000
    assert [m.id for m in explorer.check(table).mistakes] == ["unknown"]


@pytest.mark.parametrize("start", [5000, 300000])
@pytest.mark.parametrize("func", ["cos", "sin"])
def test_a_rope_cache_from_a_later_position_names_it(start, func):
    """A cos / sin cache cut from a longer one (transformers' rotary embedding at positions start ..): its row
    holds only cos (or sin) of each phase, the next row gives the other."""
    torch = pytest.importorskip("torch")
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    rotary = LlamaRotaryEmbedding(LlamaConfig(hidden_size=256, num_attention_heads=4, rope_theta=10000.0))
    cos, sin = rotary(torch.zeros(1), torch.arange(start, start + 96)[None])
    cache = (cos if func == "cos" else sin)[0].numpy()                        # (96, 64) float32, rotate-half
    r = explorer.check(cache, kind="rope_cache")
    assert [m.id for m in r.mistakes] == ["positions_from_1"] and r.convention["start"] == start
    assert r.convention["function"] == func and r.convention["base"] == 10000.0
    assert r.summary == f"row 0 equals PE({start}): positions start at {start}, not 0"
    right = rotary(torch.zeros(1), torch.arange(96)[None])
    assert np.allclose(r.reference, right[0 if func == "cos" else 1][0].numpy(), atol=1e-4)   # the cache from 0


@pytest.mark.parametrize("table", [np.ones((8, 8)), np.full((8, 8), 0.5), np.ones((8, 8), np.int64),
                                   np.ones((8, 8), bool), np.ones((8, 8), np.float16)],
                         ids=["ones", "halves", "int64", "bool", "float16"])
def test_a_constant_table_is_not_a_cache_from_a_far_position(table):
    """An all-ones 8 x 8 table had read as 'row 0 equals PE(20791688)': a cos cache from there, every angle past
    ANGLE_CAP, whose tolerance (growing with the angle) was 7, so any values in [-1, 1] fitted. Such a start is
    not proposed (as a PE table's fit is not checked there): it matches nothing known."""
    r = explorer.check(table)
    assert [m.id for m in r.mistakes] == ["unknown"] and r.convention.get("start", 0) in (0, 1)
    assert r.tolerance < 0.01


def test_a_cache_past_half_its_angles_beyond_2_to_15_is_not_named_from_there():
    """As a PE table's: a cos cache from position 10^7 (head_dim 64, base 10^4) has most angles past 2^15."""
    from tests.check_reference import cache_formula

    r = explorer.check(cache_formula(96, 64, 1e4, "half", "cos", start=10 ** 7).astype(np.float32), kind="rope_cache")
    assert [m.id for m in r.mistakes] == ["unknown"]
