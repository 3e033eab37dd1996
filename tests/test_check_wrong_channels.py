"""A PE table right except in a few channels: the check names those channels and what they hold.

The tables are built here (tests/pe_tables.py: the seeds' frequencies, sines in float64), then damaged by
hand as a slip in indexing would: two channels swapped, one left at zero, one filled at another frequency.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import explorer
from tests.pe_tables import float64_table


def _table(n=100, d=64, base=10000.0, layout="interleaved"):
    return float64_table(n, d, base, layout).astype(np.float32)


def _swapped(x, a, b):
    x = x.copy()
    x[:, [a, b]] = x[:, [b, a]]
    return x


@pytest.mark.parametrize("n, d, base, layout, a, b", [
    (100, 64, 10000.0, "interleaved", 3, 10),
    (512, 128, 10000.0, "concat", 0, 1),          # a sine and its own cosine
    (300, 256, 500000.0, "interleaved", 100, 200),
])
def test_two_swapped_channels_are_named_with_what_they_hold(n, d, base, layout, a, b):
    r = explorer.check(_swapped(_table(n, d, base, layout), a, b))
    assert not r.match and [m.id for m in r.mistakes] == ["wrong_channels"]
    assert (r.convention["layout"], r.convention["base"], r.convention["scale"]) == (layout, base, 1.0)
    assert r.summary.startswith(f"a PE table ((L, d)), {layout} layout, base {base:g}, positions from 0, stored "
                                f"as float32, except in channels {a}, {b} (max error there ")
    assert r.summary.endswith(f"channel {a} holds channel {b}'s values, channel {b} holds channel {a}'s values")
    difference = np.abs(r.difference).max(axis=0)                  # the drawn difference: those two channels
    assert set(np.flatnonzero(difference > r.tolerance)) == {a, b}


def test_a_zero_channel_is_named_not_taken_for_dropout():
    """A channel never filled (1 of 64: 1.6% zeros) was read as "dropout p = 0.016 was on"; the fix of a
    concat table is concat's."""
    x = _table(layout="concat")
    x[:, 7] = 0
    r = explorer.check(x)
    assert [m.id for m in r.mistakes] == ["wrong_channels"], r.summary
    assert r.fix == "pe = torch.cat([torch.sin(position * div_term), torch.cos(position * div_term)], dim=-1)"
    assert r.summary.endswith("except in channel 7 (max error there 1 > %.3g; the other channels are within "
                              "it): channel 7 is all zeros" % r.tolerance)


def test_scattered_zeros_are_still_dropout():
    x = _table()
    keep = np.random.default_rng(1).random(x.shape) > 0.1
    r = explorer.check(np.where(keep, x / 0.9, 0).astype(np.float32))
    assert [m.id for m in r.mistakes] == ["dropout_on"], r.summary


def test_a_channel_at_another_frequency_is_named_without_a_holder():
    x = _table()
    x[:, 9] = np.sin(np.arange(100) * 0.37)
    r = explorer.check(x)
    assert [m.id for m in r.mistakes] == ["wrong_channels"]
    assert r.summary.endswith("except in channel 9 (max error there %.3g > %.3g; the other channels are "
                              "within it)" % (r.max_error, r.tolerance))


def test_with_positions_from_1_both_slips_are_named():
    x = _swapped(float64_table(101, 64, 10000.0, "interleaved")[1:].astype(np.float32), 3, 10)
    r = explorer.check(x)
    assert [m.id for m in r.mistakes] == ["positions_from_1", "wrong_channels"]
    assert r.convention["start"] == 1


@pytest.mark.parametrize("damage", ["one wild entry", "a quarter of the channels and more", "noise"])
def test_what_is_not_a_few_wrong_channels_matches_nothing(damage):
    x = _table()
    rng = np.random.default_rng(0)
    if damage == "one wild entry":
        x[10, 1] = 5.0
    elif damage == "a quarter of the channels and more":
        x[:, :17] = rng.normal(size=(100, 17))
    else:
        x = x + rng.normal(scale=0.1, size=x.shape).astype(np.float32)
    assert [m.id for m in explorer.check(x).mistakes] == ["unknown"]


def test_the_words_in_chinese():
    r = explorer.check(_swapped(_table(), 3, 10), lang="zh_CN")
    assert r.summary.startswith("除通道 3, 10 外，是一张 PE 表（(L, d)），交错排列，基数 10000，位置从 0 开始，"
                                "存储为 float32（这些通道的最大误差 ")
    assert r.summary.endswith("通道 3 里是通道 10 的值，通道 10 里是通道 3 的值")


def test_many_wrong_channels_are_listed_up_to_eight():
    x = _table(n=200, d=128)
    for c in range(0, 20, 2):
        x[:, c] = 0
    r = explorer.check(x)
    assert "except in channels 0, 2, 4, 6, 8, 10, 12, 14, … (10 in all) (max error" in r.summary, r.summary
    assert r.summary.endswith("channel 12 is all zeros, channel 14 is all zeros, …"), r.summary


def test_cli_exit_code_and_json(tmp_path, capsys):
    from explorer.commands.cli import main

    path = tmp_path / "pe.npy"
    np.save(path, _swapped(_table(), 3, 10))
    assert main(["check", str(path), "--json"]) == 1
    got = json.loads(capsys.readouterr().out)
    assert got["match"] is False and [m["id"] for m in got["mistakes"]] == ["wrong_channels"]
    assert got["mistakes"][0]["fix"] == ("pe[:, 0::2] = torch.sin(position * div_term); "
                                         "pe[:, 1::2] = torch.cos(position * div_term)")


@pytest.mark.parametrize("p", [0.1, 0.5, 0.8])
def test_dropout_is_named_but_not_on_a_handful_of_values(p):
    """A fit that leaves the zeros out needs enough nonzero values: a one-hot 4 x 8 table (4 ones) read
    "about 83% zeros and the rest x 1: dropout p = 0.83 was on"."""
    keep = np.random.default_rng(0).random((200, 64)) > p
    r = explorer.check(np.where(keep, _table(200, 64) / (1 - p), 0).astype(np.float32))
    assert [m.id for m in r.mistakes] == ["dropout_on"] and f"dropout p = {p:g} was on" in r.summary, r.summary
    assert "dropout" not in explorer.check(np.eye(4, 8, dtype=np.float32)).summary


def test_the_words_carry_the_scale_sign_and_orientation_and_negated_channels():
    """The convention as an OK check words it (a table x -1 read as the plain one), a transposed table's
    channels are rows of the array, and a negated channel says so."""
    x = -_swapped(_table(), 3, 10)
    r = explorer.check(x)
    assert r.convention["scale"] == -1.0 and ", scale -1, " in r.summary, r.summary
    r = explorer.check(_swapped(_table(), 3, 10).T.copy())
    assert r.summary.startswith("a PE table ((d, L): transposed), interleaved layout"), r.summary
    x = _table()
    x[:, 5] *= -1
    assert explorer.check(x).summary.endswith("except in channel 5 (max error there 2 > %.3g; the other channels "
                                              "are within it): channel 5 holds its own values negated"
                                              % explorer.check(x).tolerance)


def test_the_convention_is_chosen_as_for_a_clean_table():
    """t2t at base 10000 and concat at base 37276 share their frequencies (d = 16): the damaged table is
    named as its clean self is, not by the odd alias its damaged fit had kept."""
    x = float64_table(241, 16, 10000.0, "t2t").astype(np.float32)
    clean = explorer.check(x).convention
    x[:, 11] *= 1.3
    r = explorer.check(x)
    assert [m.id for m in r.mistakes] == ["wrong_channels"]
    assert (r.convention["layout"], r.convention["base"]) == (clean["layout"], clean["base"]) == ("t2t", 10000.0)


@pytest.mark.parametrize("make", ["five channels", "rope sin cache"])
def test_not_named_where_the_rest_cannot_tell_or_a_cache_reading_fits(make):
    """A 5-wide table whose one damaged channel set the base (it read "base 1e+09"), and a RoPE sin cache
    (the numbers of a PE table with its sines written twice) with two channels swapped: no wrong_channels."""
    if make == "five channels":
        x = (float64_table(57, 5, 10000.0, "t2t") * 0.5).astype(np.float32)
        x[:, 1] *= -1
    else:
        freqs = np.outer(np.arange(200), 1 / 1e4 ** (np.arange(0, 64, 2) / 64))
        x = np.sin(np.concatenate([freqs, freqs], -1)).astype(np.float32)
        x = _swapped(x, 1, 35)
    assert "wrong_channels" not in [m.id for m in explorer.check(x).mistakes]
