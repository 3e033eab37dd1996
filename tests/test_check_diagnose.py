"""explorer.check / diagnose: deliberately wrong implementations get the right mistake named, right
ones from several conventions are recognised, and every claimed match is re-verified from the formulas."""

from __future__ import annotations

import re
import string
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

import explorer
from explorer.backend.diagnose.messages import LANGS, TEMPLATES
from tests.check_implementations import (RIGHT, WRONG, PositionalEncoding, SequenceFirstPositionalEncoding,
                                        seeds_table)
from tests.check_reference import claimed_error, pe_formula

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_right_implementation_matches(name):
    builder, expected = RIGHT[name]
    data = builder()
    r = explorer.check(data)
    assert r.match, (name, r.summary)
    assert r.mistakes == ()
    for key, value in expected.items():
        got = r.convention[key]
        assert got == pytest.approx(value) if isinstance(value, float) else got == value, (key, got)
    assert r.max_error <= r.tolerance
    if not isinstance(data, torch.nn.Module):
        assert claimed_error(r, data.detach().double().numpy()) <= r.tolerance * 1.01 + 1e-9
    assert r.summary.startswith("OK: ")


@pytest.mark.parametrize("name", sorted(WRONG))
def test_wrong_implementation_names_its_mistake(name):
    builder, mistake_id, kwargs = WRONG[name]
    r = explorer.check(builder(), **kwargs)
    assert not r.match
    assert [m.id for m in r.mistakes] == [mistake_id], (name, r.summary)
    m = r.mistakes[0]
    assert m.message and m.message in r.summary
    if mistake_id != "unknown":
        assert m.fix and r.fix == m.fix
        assert r.max_error <= r.tolerance                   # the slip itself explains the data


def test_evidence_words():
    swapped = explorer.check(WRONG["sin_cos_swapped"][0]())
    assert "channel 0 starts at 1" in swapped.summary and "cosine where the paper has a sine" in swapped.summary
    assert "row 0 equals PE(1)" in explorer.check(WRONG["positions_from_1"][0]()).summary
    assert "base^(-i/d), not base^(-2i/d)" in explorer.check(WRONG["i_instead_of_2i"][0]()).summary
    drop = explorer.check(WRONG["dropout_on"][0]())
    assert "x 1.11: dropout p = 0.1 was on" in drop.summary
    assert drop.convention["scale"] == pytest.approx(1.0, abs=0.02)


def test_reference_and_difference_for_the_view():
    """For a mistake the reference is the right table (fitted base/scale), the difference data - it."""
    data = WRONG["sin_cos_swapped"][0]().numpy()
    r = explorer.check(data)
    np.testing.assert_allclose(r.reference, pe_formula(*data.shape, 10000.0, "interleaved"), atol=1e-9)
    np.testing.assert_allclose(r.difference, data - r.reference, atol=0)
    right = explorer.check(seeds_table().numpy())
    assert np.max(np.abs(right.difference)) <= right.tolerance


def test_module_is_called_in_eval_mode_and_left_as_it_was():
    module = PositionalEncoding(32, max_len=80, dropout=0.5)
    assert module.training
    r = explorer.check(module)
    assert r.match and r.convention["max_len"] == 80 and r.convention["d_model"] == 32
    assert module.training
    np.testing.assert_allclose(r.table, module.pe[0].numpy(), atol=0)


def test_a_sequence_first_module_is_called_sequence_first():
    """PyTorch's tutorial module (pe (max_len, 1, d), x (seq, batch, d)) was called with (1, L, d):
    its x.size(0) of 1 gave one row and the check said "an inv_freq vector, not a pe table"."""
    module = SequenceFirstPositionalEncoding(32, dropout=0.5, max_len=80)
    r = explorer.check(module)
    assert r.match and r.convention["max_len"] == 80 and r.convention["d_model"] == 32
    assert module.training
    np.testing.assert_allclose(r.table, module.pe[:, 0].numpy(), atol=0)
    np.testing.assert_allclose(r.table, seeds_table(d=32, n=80).numpy(), atol=1e-6)


@pytest.mark.parametrize("kwargs, words", [
    ({"d_model": float("nan")}, "d_model must be a whole number >= 1, not nan"),   # was a ValueError
    ({"d_model": float("inf")}, "d_model must be a whole number >= 1, not inf"),   # an OverflowError
    ({"d_model": 32.7}, "not 32.7"),                                                # was cut to 32
    ({"max_len": 1e300}, "max_len must be a whole number >= 1, not 1e+300"),
    ({"max_len": True}, "not True"),
    ({"d_model": 0}, "d_model must be a whole number >= 1, not 0"),               # was read as "none"
])
def test_a_module_s_sizes_must_be_whole_numbers(kwargs, words):
    from explorer.errors import InputError

    with pytest.raises(InputError, match=re.escape(words)):
        explorer.check(PositionalEncoding(32, max_len=80), **kwargs)
    assert explorer.check(PositionalEncoding(32, max_len=80), d_model=np.int64(32), max_len=np.int32(40)).match


@pytest.mark.parametrize("call", [
    lambda: explorer.sinusoidal(np.uint16(65535), np.uint16(8192)),     # 65535 x 8192 x 3 // 2 in uint16
    lambda: explorer.sinusoidal(np.int32(2 ** 18), np.int32(8192)),     # wrapped negative in int32
])
def test_numpy_sizes_are_counted_as_the_numbers_they_hold(call):
    """np.uint16 sizes wrapped round in the budget's product: a 2 GiB table was made past the 1 GiB
    budget (a review of the API)."""
    from explorer.errors import InputError

    with pytest.raises(InputError, match="more than the memory budget"):
        call()
    np.testing.assert_array_equal(explorer.sinusoidal(np.int64(6), np.uint8(4), base=np.float32(100)),
                                  explorer.sinusoidal(6, 4, base=100.0))


def test_check_takes_numpy_scalars_and_refuses_ragged_or_huge_input_in_one_line():
    from explorer.errors import InputError

    pe = explorer.sinusoidal(64, 32)
    assert explorer.check(pe, base=np.float32(1e4)).match and explorer.check(pe, base=np.int64(10000)).match
    with pytest.raises(InputError, match=re.escape("rows of equal length")):
        explorer.check([[1.0, 2.0], [3.0]])                 # was numpy's "inhomogeneous shape" ValueError
    with pytest.raises(InputError, match="base must be a finite number > 1"):
        explorer.check(pe, base=10 ** 400)                  # was a TypeError from np.isfinite
    with pytest.raises(InputError, match="lang must be one of en, zh_CN, not 'fr'"):
        explorer.check(pe, lang="fr")                       # was taken, and English given
    with pytest.raises(InputError, match="^one number is no table or vector to check$"):
        explorer.check(np.array([[3.0]]), kind="pe")        # was "a vector of 1 numbers is …"


def test_module_without_buffer_needs_sizes():
    class Formula(torch.nn.Module):
        def forward(self, x):
            return x + seeds_table(d=x.shape[-1], n=x.shape[1])

    from explorer.errors import InputError

    with pytest.raises(InputError, match="d_model= and max_len="):
        explorer.check(Formula())
    assert explorer.check(Formula(), d_model=16, max_len=30).match


def test_pairing_and_base_expectations_accept_the_right_data():
    cache = WRONG["cat_where_interleaved_meant"][0]()
    assert explorer.check(cache, pairing="half", base=10000.0).match
    assert explorer.check(seeds_table(), base=10000.0).match
    r = explorer.check(seeds_table(base=500.0), base=10000.0)
    assert [m.id for m in r.mistakes] == ["wrong_base"]


def test_chinese_messages_keep_every_field():
    fields = lambda s: {f for _, f, _, _ in string.Formatter().parse(s) if f}
    for mid, texts in TEMPLATES.items():
        assert len(texts) == len(LANGS)
        assert fields(texts[1]) == fields(texts[0]), mid
    r = explorer.check(WRONG["sin_cos_swapped"][0](), lang="zh_CN")
    assert "sin 与 cos 对调了" in r.summary


def test_sinusoidal_and_rope_frequencies():
    np.testing.assert_allclose(explorer.sinusoidal(20, 9, layout="concat", dtype="float64"),
                               pe_formula(20, 9, 10000.0, "concat"), atol=1e-12)
    half = explorer.sinusoidal(20, 8, base=500.0, dtype="float16")
    assert half.dtype == np.float16
    np.testing.assert_allclose(half, pe_formula(20, 8, 500.0, "interleaved"), atol=1e-3)
    # transformers' default formula, independent of the package
    want = 1.0 / (10000 ** (torch.arange(0, 64, 2, dtype=torch.int64).float() / 64))
    got = explorer.rope_frequencies(64, 10000.0)
    np.testing.assert_allclose(np.asarray(got.inv_freq), want.double().numpy(), rtol=1e-6)
    assert got.attention_factor == 1.0
    linear = explorer.rope_frequencies(64, 10000.0, "linear", factor=4.0)
    np.testing.assert_allclose(np.asarray(linear.inv_freq), want.double().numpy() / 4, rtol=1e-6)


@pytest.mark.parametrize("kwargs, needle", [
    (dict(start=float("nan")), "start must be a whole number"),
    (dict(start="8"), "start must be a whole number"),
    (dict(start=None), "start must be a whole number"),
    (dict(start=np.array([4, 4])), "start must be a whole number"),
    (dict(max_len=True), "max_len must be a whole number >= 1, not True"),
    (dict(d_model=True), "d_model must be a whole number >= 1, not True"),
    (dict(dtype=0), "dtype must be one of float16, float32, float64, not 0"),
    (dict(dtype=[4]), "dtype must be one of float16, float32, float64"),
    (dict(layout=np.array([4, 4])), "layout must be one of interleaved, concat, t2t, not array"),
    (dict(base=10 ** 400), "base must be a finite number > 1"),
    (dict(max_len=10 ** 20), "PE table would need .* more than the memory budget"),
    (dict(max_len=10 ** 7, d_model=8192), "PE table would need 457.8 GiB, more than the memory budget"),
])
def test_sinusoidal_refuses_odd_input_in_one_line(kwargs, needle):
    """Found by a helper's fuzz: numpy's ValueError / TypeError from deep inside, or a MemoryError
    after trying to allocate 153 GiB."""
    from explorer.errors import InputError

    args = {"max_len": 8, "d_model": 8, **kwargs}
    with pytest.raises(InputError, match=needle) as err:
        explorer.sinusoidal(**args)
    assert "\n" not in str(err.value)
    assert explorer.sinusoidal(8, 8, start=np.int64(3)).shape == (8, 8)


def test_import_explorer_is_light():
    code = ("import sys, explorer\n"
            "assert callable(explorer.check) and callable(explorer.sinusoidal)\n"
            "import numpy as np\n"
            "r = explorer.check(explorer.sinusoidal(30, 8))\n"
            "assert r.match, r.summary\n"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('torch', 'PySide6', 'pyqtgraph')]\n"
            "print(bad)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_unknown_attribute():
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        explorer.nope  # noqa: B018


def _llama3_cache():
    """transformers' llama3 RoPE (head_dim 64): its inv_freq and its cos cache (float32)."""
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    params = {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0, "low_freq_factor": 1.0,
              "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}
    cfg = LlamaConfig(hidden_size=256, num_attention_heads=4, max_position_embeddings=131072,
                      rope_parameters=params)
    rot = LlamaRotaryEmbedding(cfg)
    cos, _ = rot(torch.zeros(1, 200, 64), torch.arange(200)[None])
    return rot.inv_freq, cos[0]


def test_scaled_rope_types_go_through_the_preset_hook(monkeypatch):
    from explorer.backend.diagnose import scaled_rope

    inv, cos = _llama3_cache()
    monkeypatch.setattr(scaled_rope, "preset_candidates", lambda head_dim: [])
    for data in (inv, cos):                       # not one straight line in log space: unknown alone
        r = explorer.check(data)
        assert not r.match and [m.id for m in r.mistakes] == ["unknown"]
    cand = scaled_rope.Candidate("test-llama3", "llama3", {"factor": 8.0}, 500000.0,
                                 inv.double().numpy(), 1.0)
    monkeypatch.setattr(scaled_rope, "preset_candidates", lambda head_dim: [cand] if head_dim == 64 else [])
    for data, kind in ((inv, "inv_freq"), (cos, "rope_cache")):
        r = explorer.check(data)
        assert r.match and r.kind == kind, r.summary
        assert r.convention["rope_type"] == "llama3" and r.convention["preset"] == "test-llama3"
        assert r.convention["base"] == 500000.0


def test_a_llama3_cache_from_transformers_is_named_llama3_through_the_presets():
    """Without any monkeypatch: transformers' own llama3 inv_freq (Llama 3.1's settings), laid out as
    cat(freqs, freqs), is recognised as rope_type llama3 with its parameters, via the model presets."""
    pytest.importorskip("transformers")
    from transformers import LlamaConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    params = {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0, "low_freq_factor": 1.0,
              "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}
    config = LlamaConfig(hidden_size=256, num_attention_heads=2, head_dim=128,
                         max_position_embeddings=131072, rope_parameters=params)
    inv, _ = ROPE_INIT_FUNCTIONS["llama3"](config, "cpu")
    angles = np.arange(300)[:, None] * inv.double().numpy()[None, :]
    result = explorer.check(np.cos(np.concatenate([angles, angles], axis=1)))
    assert result.match and result.convention["rope_type"] == "llama3"
    assert result.convention["pairing"] == "half" and result.convention["head_dim"] == 128
    # transformers makes inv_freq in float32: its rounding times 300 positions is ~1e-5
    assert result.convention["rope_params"]["factor"] == 8.0 and result.max_error < 5e-5


def test_a_table_is_never_fitted_with_more_channels_than_a_model_has(monkeypatch):
    """(2, 8388608) read as 8M channels made the fit allocate 4 GB grids (bases x rows x d) and run
    for minutes: an orientation wider than MAX_CHANNELS is not tried, and a shape too wide either
    way round is refused in one line."""
    import explorer.backend.diagnose as diag
    from explorer.backend.encodings import sinusoidal_pe
    from explorer.errors import InputError

    monkeypatch.setattr(diag, "MAX_CHANNELS", 16)
    table = sinusoidal_pe(100, 8, 10000.0, "interleaved", "float32")
    r = diag.diagnose(table.T.copy())                       # (8, 100): only (100, 8) may be fitted
    assert r.match and r.convention["orientation"].startswith("(d, L)")
    seen = []
    real = diag._check_table
    monkeypatch.setattr(diag, "_check_table", lambda t, *a, **k: seen.append(t.shape) or real(t, *a, **k))
    diag.diagnose(np.random.default_rng(0).standard_normal((4, 100)))
    assert seen == [(100, 4)]
    with pytest.raises(InputError, match="more than 16 columns either way round"):
        diag.diagnose(np.ones((20, 30)) + np.arange(30))


def test_templates_written_into_a_used_buffer_and_blocked_residuals_equal_the_plain_ones():
    """The large-table shortcuts of the PE check (one reused template buffer, residual maxima a
    block of rows at a time) give the numbers of the plain computation bit for bit."""
    from explorer.backend.diagnose.fitting import max_residual
    from explorer.backend.diagnose.pe_models import Spec, all_specs, template

    rng = np.random.default_rng(3)
    positions = np.arange(5, 205)
    work = np.empty((len(positions), 12))
    for spec in all_specs(12):
        work[:] = rng.standard_normal(work.shape)                 # whatever the last template left
        got = template(spec, 12, 500.0, positions, work)
        assert got is work or np.shares_memory(got, work)
        np.testing.assert_array_equal(got, template(spec, 12, 500.0, positions))
    x = rng.standard_normal((200, 12))
    t = template(Spec(), 12, 500.0, positions)
    for s in (1.0, -2.5):
        assert max_residual(x, t, s) == float(np.abs(x - s * t).max())


@pytest.mark.parametrize("kind", ["float64 array", "float32 array", "float64 tensor", "list"])
def test_the_diagnosis_never_holds_the_callers_memory(kind):
    """A check skips the copy of data it converted itself (dividing by a peak of 1 copied a 4096 x
    4096 table once more: ~2 s of page faults here); the caller's own array or tensor is still
    copied, so changing it later does not change the diagnosis."""
    table = seeds_table().numpy()
    data = {"float64 array": table.astype(np.float64), "float32 array": table.astype(np.float32),
            "float64 tensor": torch.from_numpy(table.astype(np.float64)),
            "list": table.tolist()}[kind]
    r = explorer.check(data)
    assert r.match
    if not isinstance(data, list):
        mine = data.numpy() if isinstance(data, torch.Tensor) else data
        assert not np.shares_memory(r.table, mine)
        before = r.table.copy()
        mine[...] = 0
        np.testing.assert_array_equal(r.table, before)


@pytest.mark.parametrize("p", [0.6, 0.8])
def test_heavy_dropout_is_named_with_its_scale(p):
    """The seeds' module in train mode with p >= 0.5: under half of the table is non-zero, yet every
    non-zero entry is PE / (1 - p). The 'under half checkable' rule is about angles beyond
    ANGLE_CAP among the entries asked for, not about the zeros left out (the check called this
    'unknown': the fitted scale 1 / (1 - p) was then swapped for 1)."""
    from tests.check_implementations import dropout_saved

    r = explorer.check(dropout_saved(p))
    assert [m.id for m in r.mistakes] == ["dropout_on"], r.summary
    assert f"x {1 / (1 - p):.3g}: dropout p = {p:g} was on" in r.summary
    assert r.max_error <= r.tolerance


def test_a_fit_that_cannot_be_checked_keeps_its_scale_and_its_inf():
    """_snap_scale must not turn an uncheckable fit (err inf) into a round scale with a finite
    error over the few entries left."""
    from explorer.backend.diagnose import pe_fit
    from explorer.backend.diagnose.pe_models import Spec, template

    positions = np.arange(64)
    x = 3.0 * template(Spec(), 8, 1e4, positions)
    mask = np.zeros(x.shape, bool)
    mask[:, :3] = True                                    # under half of the entries asked for
    ok = np.ones(x.shape, bool)
    assert pe_fit._snap_scale(x, mask, Spec(), 1e4, 0, 2.9, float("inf"), 1e-3) == (2.9, float("inf"))
    assert pe_fit._snap_scale(x, ok, Spec(), 1e4, 0, 3.0001, 1e-4, 1e-3) == (3.0, pytest.approx(0, abs=1e-12))


def _direct_templates(spec, d, bases, positions):
    """The plain computation: a sine or cosine of each angle p * w (float64), per column."""
    from explorer.backend.diagnose.pe_models import COS, SIN, column_exponents

    e, kind = column_exponents(spec, d)
    out = np.zeros((len(bases), len(positions), d))
    for g, base in enumerate(bases):
        angle = np.asarray(positions, np.float64)[:, None] * np.exp(e * np.log(base))[None, :]
        out[g][:, kind == SIN] = np.sin(angle[:, kind == SIN])
        out[g][:, kind == COS] = np.cos(angle[:, kind == COS])
    return out


@pytest.mark.parametrize("positions", [np.arange(200), np.arange(1, 4097), np.arange(5, 605, 3),
                                       np.arange(1_000_000, 1_000_040), np.arange(7, 11)])
def test_templates_of_whole_rows_by_doubling_equal_a_sine_per_entry(positions, monkeypatch):
    """Rows in arithmetic progression (a whole table, its first rows) take e^{i p w} by doubling:
    every spec's templates equal the sine / cosine of each angle within a few float64 ulp of that
    angle, across several row blocks, for right specs as the formula of the paper too."""
    from explorer.backend.diagnose import pe_models
    from explorer.backend.diagnose.pe_models import all_specs, templates

    monkeypatch.setattr(pe_models, "ROW_BLOCK_BYTES", 16 * 13 * 4 * 3 * 7)     # several blocks
    bases = [1.5, 500.0, 1e4, 1e8]
    for d in (12, 13):
        for spec in all_specs(d):
            got = templates(spec, d, np.log(bases), positions)
            want = _direct_templates(spec, d, bases, positions)
            angle = float(positions[-1]) * (max(bases) if spec.sign > 0 else 1.0)   # max |p w|
            np.testing.assert_allclose(got, want, rtol=0, atol=64 * np.finfo(float).eps * angle + 1e-15,
                                       err_msg=f"{spec} d={d}")
            if spec.is_right and np.all(np.diff(positions) == 1):    # the paper's formula
                np.testing.assert_allclose(got[2], pe_formula(len(positions), d, 1e4, spec.layout,
                                                              int(positions[0])),
                                           rtol=0, atol=64 * np.finfo(float).eps * angle + 1e-15)


def test_templates_of_scattered_rows_are_a_sine_per_entry_bit_for_bit():
    """Rows that are no arithmetic progression (a sample spread over the table) keep the plain
    sine per entry."""
    from explorer.backend.diagnose.pe_models import all_specs, progression_step, templates

    rows = np.array([0, 1, 2, 3, 10, 500, 4095])
    assert progression_step(rows.astype(float)) is None
    assert progression_step(np.arange(3.0)) is None                  # too few rows to pay
    assert progression_step(np.arange(2.0, 10.0, 2)) == 2.0
    assert progression_step(np.arange(0.5, 6.5)) is None             # not whole positions
    for spec in all_specs(12):
        np.testing.assert_array_equal(templates(spec, 12, np.log([1e4, 77.0]), rows),
                                      _direct_templates(spec, 12, [1e4, 77.0], rows))


def _pair_frequencies_whole(x, mask, layout):
    """The mean wrapped atan2 step per pair over the whole table at once (the plain way)."""
    from explorer.backend.encodings import channel_counts, channel_layout

    sin_cols, cos_cols = channel_layout(x.shape[1], layout)
    n = channel_counts(x.shape[1], layout)[1]
    a, b = x[:, sin_cols][:, :n], x[:, cos_cols]
    theta = np.arctan2(a, b)
    step = np.pi - np.mod(np.pi - np.diff(theta, axis=0), 2 * np.pi)
    ok = (a ** 2 + b ** 2) > 0
    if mask is not None:
        ok &= mask[:, sin_cols][:, :n] & mask[:, cos_cols]
    valid = ok[1:] & ok[:-1]
    count = valid.sum(axis=0)
    return np.where(count > 0, (step * valid).sum(axis=0) / np.maximum(count, 1), 0.0)


@pytest.mark.parametrize("block_bytes", [16, 8 * 7 * 3, 4 << 20])
def test_pair_speeds_and_duplicated_pairs_taken_by_row_blocks_equal_the_whole_table(block_bytes,
                                                                                   monkeypatch):
    """pair_frequencies and duplicated_pairing go a block of rows at a time (no table-sized
    temporaries): the same speeds as the whole table at once, every step counted once; a pairing
    that breaks in the last row only is not claimed."""
    from explorer.backend.diagnose import pe_models, rope_cache

    monkeypatch.setattr(pe_models, "PAIR_BLOCK_BYTES", block_bytes)
    monkeypatch.setattr(rope_cache, "PAIRING_BLOCK_BYTES", block_bytes)
    rng = np.random.default_rng(5)
    for rows, d in [(2, 4), (3, 5), (100, 12), (1001, 13)]:
        x = rng.standard_normal((rows, d))
        mask = rng.random((rows, d)) > 0.2
        for layout in ("interleaved", "concat", "t2t"):
            for m in (None, mask):
                np.testing.assert_allclose(pe_models.pair_frequencies(x, m, layout),
                                           _pair_frequencies_whole(x, m, layout), rtol=1e-12, atol=1e-15)
    u = rng.standard_normal((301, 6))
    half, inter = np.concatenate([u, u], axis=1), np.repeat(u, 2, axis=1)
    assert rope_cache.duplicated_pairing(half, 1e-9) == "half"
    assert rope_cache.duplicated_pairing(inter, 1e-9) == "interleaved"
    for table in (half, inter):
        table[-1, -1] += 1e-3
        assert rope_cache.duplicated_pairing(table, 1e-9) is None


def test_a_table_far_from_every_convention_is_never_given_base_1():
    """MiniLM's learned position table matches nothing; its closest fit ran to the bottom of the
    base search (1.0001) and was rounded to "base 1", a base no PE or RoPE has (and that a model's
    config is refused for)."""
    from explorer.backend.pretrained import minilm_available, minilm_tables

    if minilm_available():
        pytest.skip(minilm_available())
    r = explorer.check(minilm_tables().position)
    assert not r.match and [m.id for m in r.mistakes] == ["unknown"]
    assert r.convention["base"] > 1 and "base 1," not in r.summary


def test_a_rope_cache_fit_at_the_bottom_of_its_search_is_never_given_base_1():
    """A cos cache of base 1.00001 (every pair nearly the same speed, but not within tolerance of
    one speed) is fitted at the bottom of the base search, 1.0001, which rounds to 1: the guard
    keeps the fitted value (without it: "nearest: cos cache, base 1")."""
    h = 32
    angle = np.arange(64)[:, None] * (1.00001 ** (-np.arange(h) / h))[None, :]
    r = explorer.check(np.cos(np.concatenate([angle, angle], axis=1)), kind="rope_cache")
    assert r.kind == "rope_cache" and not r.match and [m.id for m in r.mistakes] == ["unknown"]
    assert r.convention["base"] > 1 and "base 1," not in r.summary and "base 1.0001" in r.summary


def _far_words(lang: str) -> str:
    return TEMPLATES["unknown_far"][LANGS.index(lang)].split("{")[0]


@pytest.mark.parametrize("lang", LANGS)
def test_a_table_no_sinusoid_comes_near_says_so_with_both_rms(lang):
    """"nearest: t2t sin/cos, base 1.41824" alone read as a finding for MiniLM's learned table. A
    fit whose RMS error passes half the table's RMS is named as far, with both RMS values (a
    random table, a uniform one, MiniLM's learned positions when installed); still id "unknown"."""
    from explorer.backend.diagnose import pe_table
    from explorer.backend.pretrained import minilm_available, minilm_tables

    rng = np.random.default_rng(1)
    tables = [(rng.standard_normal((512, 768)) * 0.02).astype(np.float32),
              rng.uniform(-1, 1, (300, 128)).astype(np.float32)]
    if not minilm_available():
        tables.append(minilm_tables().position)
    for x in tables:
        r = explorer.check(x, lang=lang)
        assert not r.match and [m.id for m in r.mistakes] == ["unknown"]
        assert r.summary.startswith(_far_words(lang)), r.summary
        after = r.summary.split("RMS error of" if lang == "en" else "均方根误差为")[1]
        rms = float(re.findall(r"\d[\d.]*(?:e[+-]?\d+)?", after)[0])
        size = float(np.sqrt(np.mean(np.square(x, dtype=np.float64))))
        assert rms > pe_table.FAR * size and f"{size:.3g}" in r.summary


def test_a_noisy_sine_table_keeps_the_plain_nearest_words():
    """A sine table with 12% noise matches nothing, but its fit (base 10000) is near: the plain
    "nearest" words, not the far ones."""
    from explorer.backend.encodings import sinusoidal_pe

    x = sinusoidal_pe(200, 256, 1e4, "interleaved", "float32")
    x = x + 0.12 * np.random.default_rng(2).standard_normal(x.shape).astype(np.float32)
    r = explorer.check(x)
    assert [m.id for m in r.mistakes] == ["unknown"] and "nearest: interleaved" in r.summary
    assert not r.summary.startswith(_far_words("en"))


def test_the_rms_error_of_a_fit_is_that_of_its_residual():
    """_rms_error's blocked dot products equal the RMS of the residual at the least-squares scale
    (not the fit's snapped one), over every entry and over the checkable ones of a rising law
    (angles past ANGLE_CAP left out), in one block of rows and in several."""
    from explorer.backend.diagnose import pe_table
    from explorer.backend.diagnose.pe_models import Spec, template
    from explorer.backend.diagnose.pe_fit import ANGLE_CAP, Fit
    from explorer.backend.diagnose.pe_table import _rms_error, column_plan

    for d in (64, 8192):                                     # one block of rows; 128 rows a block
        x = np.random.default_rng(3).standard_normal((300, d))
        x[:, 3] += 2 * np.sin(np.arange(300))               # something for the template to explain
        for spec, base, start in ((Spec(), 1e4, 0), (Spec(sign=1), 1e3, 1)):
            fit = Fit(spec, base, start, -1.0, 1.0)         # a snapped scale, not the best one
            t = template(spec, d, base, np.arange(300) + start)
            ok = np.abs((np.arange(300) + start)[:, None] * column_plan(spec, d, base)[0][None, :]) <= ANGLE_CAP
            assert (spec.sign < 0) == ok.all()
            s = np.vdot(x[ok], t[ok]) / np.vdot(t[ok], t[ok])
            want = (np.sqrt(np.mean((x - s * t)[ok] ** 2)), np.sqrt(np.mean(x[ok] ** 2)))
            assert _rms_error(x, fit) == pytest.approx(want, rel=1e-9)
    assert (1 << 20) // 8192 < 300 and pe_table.FAR == 0.5


def test_one_outlier_in_a_clean_table_is_not_far_and_keeps_its_scale_and_start():
    """A 0.2-scaled sine table with one wild entry matches nothing, but its nearest fit is the
    table's own: the plain "nearest" words (a review found it called far), positions from 0 and
    scale ~0.2 (its max error had let the scale snap to -1, a reference drawn upside down, and
    then the wild entry decided the first position)."""
    from explorer.backend.encodings import sinusoidal_pe

    x = 0.2 * sinusoidal_pe(256, 128, 1e4, "interleaved", "float64")
    x[10, 1] = 5.0
    r = explorer.check(x)
    assert "nearest: interleaved sin/cos, base 10000, positions from 0," in r.summary
    assert not r.summary.startswith(_far_words("en")) and r.convention["rms_error"] < 0.5 * r.convention["rms"]
    assert r.convention["scale"] == pytest.approx(0.2, rel=0.02) and r.convention["start"] == 0
    assert np.abs(r.difference).max() == pytest.approx(abs(5.0 - r.reference[10, 1]))


def test_between_two_far_readings_the_one_a_sinusoid_explains_better_wins():
    """A sine table with heavy noise, stored transposed in float8 (never screened, so both readings
    are fitted, and both are far): the reading with the lower RMS ratio is kept, which is the
    table's own (base 10000), not the first one tried."""
    from explorer.backend.diagnose import diagnose
    from explorer.backend.encodings import sinusoidal_pe

    x = sinusoidal_pe(300, 300, 1e4, "interleaved", "float64")
    x = x + 0.45 * np.random.default_rng(0).standard_normal(x.shape)
    r = diagnose(x.T, dtype="float8_e4m3fn")
    assert r.convention["orientation"] == "(d, L): transposed" and r.convention["base"] == pytest.approx(1e4, rel=1e-3)
    assert r.summary.startswith(_far_words("en")) and "read as (d, L)" in r.summary


@pytest.mark.parametrize("scale", [1e-5, 1e120])
def test_the_far_words_and_rms_are_in_the_datas_own_units(scale):
    """Data with an extreme peak is fitted divided by it; its RMS values (JSON and words) and the
    max error and tolerance in the words are told in the data's own units."""
    from explorer.backend.diagnose import diagnose

    x = np.random.default_rng(1).standard_normal((512, 96)) * scale
    r = diagnose(x)
    rms = float(np.sqrt(np.mean(x ** 2)))
    # (over the entries the nearest fit is checked on: a rising law's leave a few out)
    assert r.convention["rms"] == pytest.approx(rms, rel=0.02) and r.convention["rms_error"] > 0.5 * rms
    for value in (r.convention["rms_error"], r.convention["rms"], r.max_error, r.tolerance):
        assert f"{value:.3g}" in r.summary


@pytest.mark.parametrize("scale", [1e-300, 1e-20, 1e-5, 1e30, 1e300])
def test_a_table_at_any_scale_is_found_at_that_scale(scale):
    """Tolerances keep an absolute 1e-12, so data below it looked the same everywhere: a PE table
    x 1e-20 was "a RoPE cache, transposed, positions from 1" (a helper's review). Data with a
    peak outside (1e-3, 1e100) is fitted at peak 1 and told at its own scale."""
    from explorer.backend.diagnose.pe_models import Spec, template

    r = explorer.check(template(Spec(), 256, 1e4, np.arange(40)) * scale)
    assert r.match and r.kind == "pe" and r.convention["orientation"] == "(L, d)"
    assert r.convention["scale"] == pytest.approx(scale) and r.convention["base"] == 10000


@pytest.mark.parametrize("assign, words", [("sincos", ""), ("swapped", "sin 与 cos 对调")])
def test_the_nearest_fit_is_named_in_the_checks_language(assign, words):
    """In Chinese the nearest fit's words were English ("最接近：interleaved sin/cos, base 10000,
    positions from 0", found by a screenshot review): they now come from the same table as the
    mistakes' own messages."""
    from explorer.backend.diagnose.messages import SPEC_WORDS
    from explorer.backend.encodings import sinusoidal_pe

    x = 0.2 * sinusoidal_pe(256, 128, 1e4, "interleaved", "float64")
    if assign == "swapped":
        x[:, 0::2], x[:, 1::2] = x[:, 1::2].copy(), x[:, 0::2].copy()
    x[10, 1] = 5.0                                        # matches nothing: "nearest" is named
    zh = explorer.check(x, lang="zh_CN")
    assert "最接近：交错 sin/cos，基数 10000，位置从 0 起" in zh.summary, zh.summary
    assert words in zh.summary
    assert not re.search(r"positions from|base \d|swapped", zh.summary), zh.summary
    en = explorer.check(x)
    assert "nearest: interleaved sin/cos, base 10000, positions from 0" in en.summary
    assert all(len(pair) == 2 for pair in SPEC_WORDS.values())



def _noisy_rope_cache():
    """A half-paired cos cache with one frequency's two columns disturbed: still a cache, nearest a fit."""
    from tests.check_implementations import rope_cache

    x = rope_cache().numpy().astype(np.float64)
    x[5, 3] += 0.05
    x[5, 3 + x.shape[1] // 2] += 0.05
    return x


@pytest.mark.parametrize("data, kind, english, chinese", [
    (lambda: np.random.default_rng(0).normal(size=(64, 32)), "rope_cache",      # nothing fitted: why, not "nearest"
     "(no two columns share a frequency)", "（没有哪两列共用同一个频率）"),
    (_noisy_rope_cache, None, "nearest: cos cache, base 10000", "最接近：cos 缓存，基数 10000"),
    (lambda: np.array([1.0, 0.5, 0.3, 0.29, 0.1, 0.01]), None, "nearest: base 100, factor 0.7",
     "最接近：基数 100，factor 0.7"),
    (lambda: np.array([1.0, 0.5, 0.3, 0.2, 0.0, 0.0, 0.0]), None,
     "nearest: proportional, base 40, 4 of 7 pairs turning", "最接近：proportional（p-RoPE），基数 40，7 对中有 4 对在旋转"),
])
def test_the_nearest_rope_fit_is_named_in_the_checks_language(data, kind, english, chinese):
    """A RoPE cache or inv_freq vector that matches nothing named its nearest fit in English inside the
    Chinese sentence ("最接近：no two columns share a frequency，最大误差 inf > ..."); the words now come
    from SPEC_WORDS, as the PE table's do."""
    zh = explorer.check(data(), kind=kind, lang="zh_CN")
    assert not zh.match and chinese in zh.summary, zh.summary
    assert not re.search(r"share|cache|base \d|pairs turning", zh.summary), zh.summary
    en = explorer.check(data(), kind=kind)
    assert english in en.summary, en.summary



@pytest.mark.parametrize("case, english, chinese", [
    ("R:seeds_module", "PE table ((L, d)), interleaved layout, base 10000,", "PE 表（(L, d)），交错排列，基数 10000，"),
    ("R:tf_tutorial_concat", "PE table ((L, d)), concat layout,", "PE 表（(L, d)），拼接排列，"),
    ("R:tensor2tensor", "PE table ((L, d)), t2t layout,", "PE 表（(L, d)），t2t 排列，"),
    ("R:transposed", "PE table ((d, L): transposed), interleaved", "PE 表（(d, L)：转置），交错排列"),
    ("R:batch_of_one", "PE table (1x60x32 squeezed to (L, d)), interleaved",
     "PE 表（1x60x32 去掉长度为 1 的维后为 (L, d)），交错排列"),
    ("R:hf_inv_freq", "RoPE inv_freq, head_dim 16, base 10000,", "RoPE inv_freq，head_dim 16，基数 10000，"),
    ("W:cat_where_interleaved_meant", "cat(freqs, freqs) (rotate_half pairs i with i + d/2)",
     "cat(freqs, freqs)（rotate_half 把 i 与 i + d/2 配成一对）"),
    ("W:interleave_where_half_meant", "repeat_interleave (pairs 2i, 2i+1)", "repeat_interleave（2i 与 2i+1 配成一对）"),
])
def test_the_convention_is_described_in_the_checks_language(case, english, chinese):
    """The Chinese description of a match kept English words: 'PE 表（(d, L): transposed），interleaved 排列，
    base 10000' (the layout's name, which the control panel writes 交错 / 拼接, the orientation's words, the
    base the check view asks for as 基数); a wrong pairing's reason read 'rotate_half pairs i with i + d/2'.
    The convention itself keeps its English values (the --json output)."""
    kind, name = case.split(":")
    builder, *rest = (RIGHT if kind == "R" else WRONG)[name]
    kwargs = rest[-1] if kind == "W" else {}        # what the data should be (a pairing asked for)
    zh = explorer.check(builder(), lang="zh_CN", **kwargs)
    assert chinese in zh.summary, zh.summary
    assert not re.search(r"layout|transposed|squeezed|base \d|pairs", zh.summary), zh.summary
    en = explorer.check(builder(), **kwargs)
    assert english in en.summary, en.summary
    assert en.convention.get("orientation") == zh.convention.get("orientation")


@pytest.mark.parametrize("layout, asked, english, chinese", [
    ("half", None, "half pairing", "，前后半配对，"),
    ("interleaved", None, "interleaved pairing", "，交错配对，"),
    ("half", "interleaved", "laid out as half, but interleaved was asked for", "缓存按前后半配对排列，但要求的是交错配对："),
    ("interleaved", "half", "laid out as interleaved, but half was asked for", "缓存按交错配对排列，但要求的是前后半配对："),
])
def test_a_rope_caches_pairing_is_named_in_the_checks_language(layout, asked, english, chinese):
    """The Chinese check view named a RoPE cache's pairing by its English value ("half 配对", "缓存按 half 排列，
    但要求的是 interleaved") where the RoPE page says 前后半配对 / 交错配对; English (the CLI) and the convention's
    value (--json) unchanged."""
    from tests.check_implementations import rope_cache

    zh = explorer.check(rope_cache(layout=layout), pairing=asked, lang="zh_CN")
    assert chinese in zh.summary, zh.summary
    named = re.sub(r"cat\(freqs, freqs\)|repeat_interleave|rotate_half", "", zh.summary)   # the code's names
    assert not re.search(r"half|interleaved", named), zh.summary
    en = explorer.check(rope_cache(layout=layout), pairing=asked)
    assert english in en.summary, en.summary
    assert zh.convention["pairing"] == en.convention["pairing"] == layout


def _p_rope_config(head_dim, fraction, base, factor):
    """A transformers LlamaConfig with proportional RoPE (p-RoPE) of these settings."""
    pytest.importorskip("transformers")
    from transformers import LlamaConfig

    params = {"rope_type": "proportional", "rope_theta": base, "partial_rotary_factor": fraction}
    if factor is not None:
        params["factor"] = factor
    return LlamaConfig(hidden_size=2 * head_dim, num_attention_heads=2, head_dim=head_dim, rope_parameters=params)


@pytest.mark.parametrize("head_dim, fraction, base, factor", [
    (512, 0.25, 1e6, None),        # Gemma 4's full-attention layers (Gemma4TextConfig defaults)
    (128, 0.5, 1e4, 8.0),
    (64, 0.1, 5e5, None),          # int(0.1 * 64 // 2) = 3 pairs: reported as the fraction 3/32
])
def test_proportional_inv_freq_from_transformers_is_recognised(head_dim, fraction, base, factor):
    """transformers' own p-RoPE inv_freq (float32, its zeros included) is named proportional, with its
    base, fraction and factor; the named settings give the same vector again."""
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    from explorer.backend.rope_scaling import rope_frequencies

    w, _ = ROPE_INIT_FUNCTIONS["proportional"](_p_rope_config(head_dim, fraction, base, factor), "cpu")
    r = explorer.check(w)
    assert r.match and r.kind == "inv_freq", r.summary
    conv = r.convention
    assert conv["rope_type"] == "proportional" and conv["head_dim"] == head_dim and conv["base"] == base
    assert conv["rope_params"].get("factor") == factor
    again = rope_frequencies(head_dim, conv["base"], "proportional", **conv["rope_params"]).inv_freq
    np.testing.assert_allclose(again, w.double().numpy(), rtol=1e-6)
    assert claimed_error(r, w.double().numpy()) <= r.tolerance
    assert "proportional" in r.summary and r.summary.startswith("OK: ")


@pytest.mark.parametrize("w, says", [
    ([1.0, 0.5, 0.3, 0.2, 0.0, 0.0, 0.0], "nearest: proportional, base"),     # not geometric
    ([1.0, 0.1, 0.0, 0.5], "holds positive numbers"),                   # a zero inside
    ([1.0, 0.0, 0.0, 0.0], "holds positive numbers"),                   # one pair turning: no base to fit
])
def test_zeros_that_are_not_p_rope_match_nothing(w, says):
    r = explorer.check(np.array(w))
    assert not r.match and says in r.summary


@pytest.mark.parametrize("head_dim, fraction, base, factor", [(128, 0.5, 1e4, None), (64, 0.25, 5e5, 4.0),
                                                             (32, 0.3, 1e4, None)])
def test_proportional_cos_sin_caches_of_transformers_rotary_embedding_are_recognised(head_dim, fraction, base,
                                                                                     factor):
    """LlamaRotaryEmbedding's own cos and sin with p-RoPE (their still columns: cos 1, sin 0) are named
    proportional with base, the fraction int(p hd // 2) / (hd / 2) and factor; from position 1 they
    are the positions_from_1 mistake."""
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    rotary = LlamaRotaryEmbedding(_p_rope_config(head_dim, fraction, base, factor))
    x = torch.zeros(1, 300, head_dim)
    for start in (0, 1):
        cos, sin = rotary(x, torch.arange(start, start + 300)[None, :])
        for name, cache in (("cos", cos[0]), ("sin", sin[0])):
            r = explorer.check(cache)
            if start:
                assert not r.match and [m.id for m in r.mistakes] == ["positions_from_1"], r.summary
                continue
            conv = r.convention
            assert r.match and conv["rope_type"] == "proportional" and conv["function"] == name, r.summary
            assert conv["base"] == base and conv["head_dim"] == head_dim and conv["pairing"] == "half"
            turning = int(fraction * head_dim // 2)
            assert conv["rope_params"] == {"partial_rotary_factor": 2 * turning / head_dim,
                                           **({"factor": factor} if factor else {})}
            assert claimed_error(r, cache.double().numpy()) <= r.tolerance * 1.01 + 1e-9


def test_a_plain_vector_beside_the_p_rope_preset_warns_of_nothing():
    """The gemma-4-global preset's zeros were divided by for every 256-long vector that missed the
    plain fit (a bfloat16-rounded one): a RuntimeWarning, a traceback under -W error."""
    import warnings

    from explorer.backend.rope_scaling import rope_frequencies

    w = torch.tensor(rope_frequencies(512, 1e6).inv_freq).bfloat16().float().numpy()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = explorer.check(w)
    assert r.kind == "inv_freq"


def test_the_reported_fraction_turns_as_many_pairs_as_the_data():
    """head_dim 44 with 15 turning pairs: 30/44 x 44 = 29.999999999999996, one pair short in
    transformers' int(p * head_dim // 2); the fraction reported must give the data back."""
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    from explorer.backend.rope_scaling import rope_frequencies

    w, _ = ROPE_INIT_FUNCTIONS["proportional"](_p_rope_config(44, 31 / 44, 1e4, None), "cpu")
    assert int((w > 0).sum()) == 15
    r = explorer.check(w)
    assert r.match, r.summary
    again = rope_frequencies(44, r.convention["base"], "proportional", **r.convention["rope_params"]).inv_freq
    np.testing.assert_allclose(again, w.double().numpy(), rtol=1e-6)


@pytest.mark.parametrize("w", [[1, 1, 1, 1, 0, 0, 0, 0], [5, 1, 0, 0, 0, 0, 0, 0], [1, 2, 3, 0, 0, 0]])
def test_zeros_after_numbers_that_do_not_fall_or_too_few_are_not_p_rope(w):
    """Two falling numbers always fit a base and a factor; equal or rising ones are no p-RoPE (it read
    "nearest: proportional, base 1, max error 0 > 4e-05")."""
    r = explorer.check(np.array(w, dtype=np.float32))
    assert not r.match and "holds positive numbers" in r.summary and "proportional" not in r.summary
