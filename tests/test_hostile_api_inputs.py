"""Inputs from a helper's attack on the Python API and the CLI (stop 52) that had broken the one-line promise:
huge whole numbers, paths over 255 bytes or with line breaks, a model's rows for ten million ids, odd
`positions(n)`, a module returning an empty or nested tensor, a table of values near 1e308. Each is now one
InputError line (CLI: exit 2, one line on stderr)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import explorer
from explorer.backend.budget import human_bytes
from explorer.commands.cli import main
from explorer.errors import InputError, grouped, msg, shown

HUGE = 10 ** 5000          # repr() and f"{:,}" of it raise ValueError (Python's 4,300-digit limit)


def one_line(exc_info, most: int = 200) -> str:
    text = str(exc_info.value)
    assert "\n" not in text and len(text) <= most, text
    return text


def test_huge_whole_numbers_read_as_powers_of_ten():
    assert grouped(12345) == "12,345" and grouped(10 ** 21 - 1) == "999,999,999,999,999,999,999"
    assert grouped(10 ** 21) == "1.0e+21" and grouped(-123456789 * 10 ** 30) == "-1.2e+38"
    assert grouped(10 ** 25 - 1) == "9.9e+24" and grouped(HUGE) == "1.0e+5000"
    assert msg("%1 positions", 10 ** 400) == "1.0e+400 positions"
    assert msg("%1 numbers", "8," + "000," * 133 + "000") == "8.0e+402 numbers"    # as check_size writes it
    assert shown(HUGE) == "1.0e+5000" and shown(True) == "True" and shown(7) == "7"
    assert human_bytes(10 ** 400) == "> 1024 EiB" and human_bytes(1536) == "1.5 KiB"


def test_a_line_break_in_an_argument_is_shown_not_followed():
    assert msg("%1 does not exist", "a\nb\rc") == "a\\nb\\rc does not exist"
    with pytest.raises(InputError) as got:
        explorer.open_model("/tmp/x\ny.gguf")
    assert one_line(got) == "/tmp/x\\ny.gguf does not exist"


@pytest.mark.parametrize("args", [(HUGE, 8), (8, HUGE), (10 ** 400, 8)])
def test_a_table_of_astronomical_size_is_refused_in_one_short_line(args):
    with pytest.raises(InputError) as got:
        explorer.sinusoidal(*args)
    assert "PE table would need > 1024 EiB" in one_line(got)


@pytest.mark.parametrize("flags, said", [
    (["--d-model", "9" * 400, "--offset", "1"], "rotation matrix would need > 1024 EiB"),
    (["--d-model", "8", "--offset", "9" * 309], "the offset k must lie within ±2^53"),
])
def test_export_offset_rotation_with_huge_numbers_is_one_line(tmp_path, capsys, flags, said):
    assert main(["export", "offset-rotation", *flags, "-o", str(tmp_path / "r.npy")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err and "Traceback" not in err and len(err) < 200, err
    assert not (tmp_path / "r.npy").exists()


def test_a_model_path_over_255_bytes_is_one_line(tmp_path):
    for spec in ("x" * 300, str(tmp_path / ("x" * 300 + ".gguf"))):
        with pytest.raises(InputError) as got:
            explorer.open_model(spec)
        assert "cannot open the model" in one_line(got, 500) and "too long" in str(got.value)
    from explorer.compute import models

    assert models.stamp("x" * 300) == ("x" * 300, None)          # the window's cache key: no OSError


def test_a_model_s_rows_for_ten_million_ids_are_refused_before_they_are_made():
    model = explorer.open_model("minilm")
    ids = np.zeros(10 ** 6, dtype=np.int64)
    for rows in (model.input_x, model.rows):
        with pytest.raises(InputError) as got:
            rows(ids)
        assert "of 1,000,000 tokens would need" in one_line(got) and "use a shorter text" in str(got.value)
    assert model.input_x(ids[:5]).shape == (5, 384)


def test_a_batch_of_ids_is_refused_not_read_as_one_long_text():
    """input_x([[a, b], [c, d]]) gave one 4-token text with positions 0..3 (found by the API review, stop 53);
    a batch of one, as tokenizers return it, is that one text."""
    with explorer.open_model("minilm") as model:
        ids = model.tokenize("positions matter").ids
        for call in (model.input_x, model.layer0_qk, model.rows):
            with pytest.raises(InputError) as got:
                call(np.stack([ids, ids]))
            assert one_line(got, 250).startswith("token ids must be one sequence, shape (n,) or (1, n), not (2, ")
        np.testing.assert_array_equal(model.input_x(ids[None, :]), model.input_x(ids))
        np.testing.assert_array_equal(model.layer0_qk(ids[None, :]).logits, model.layer0_qk(ids).logits)
        assert model.input_x([]).shape == (0, 384)
        with pytest.raises(InputError) as got:
            model.layer0_qk([])             # had named an argument the caller never passed: "seq_len must be ..."
        assert one_line(got).startswith("no tokens: give at least one token id")


@pytest.mark.parametrize("n", ["5", 2.5, True, -1, None.__class__])
def test_positions_takes_a_whole_number(n):
    model = explorer.open_model("minilm")
    with pytest.raises(InputError) as got:
        model.positions(n)
    assert one_line(got).startswith("n must be a whole number >= 0")
    assert model.positions(3).shape == (3, 384) and model.positions(np.int64(2)).shape == (2, 384)


class _Returns(torch.nn.Module):
    def __init__(self, make):
        super().__init__()
        self.make = make

    def forward(self, x):
        return self.make()


def _raises():
    raise RuntimeError("\nthe real message")


def _nested():
    """A nested tensor, made without torch's prototype warning (which the suite turns into an error)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return torch.nested.nested_tensor([torch.ones(2, 3), torch.ones(3, 3)])


@pytest.mark.parametrize("make, said", [
    (lambda: torch.ones(1, 0, 16), "the module returned an empty tensor (shape (1, 0, 16))"),
    (_nested, "nested or sparse tensor"),
    (_raises, "RuntimeError: the real message"),
])
def test_a_module_that_returns_nothing_to_check_is_one_line(make, said):
    with pytest.raises(InputError) as got:
        explorer.check(_Returns(make), d_model=16, max_len=8)
    assert said in one_line(got)


def test_a_nested_tensor_is_refused_by_name():
    nested = _nested()
    with pytest.raises(InputError) as got:
        explorer.check(nested)
    assert one_line(got).startswith("a nested tensor cannot be checked")


def test_a_table_of_values_near_the_float_limit_is_refused(tmp_path, capsys):
    np.save(tmp_path / "h.npy", np.array([[1e308, -1e308], [1e-308, 5e-324]]))
    assert main(["check", str(tmp_path / "h.npy")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "values as large as 1e+308" in err and "Warning" not in err, err
    np.save(tmp_path / "ok.npy", np.array([[1e300, -1e300], [1.0, 0.5]]))   # a table at 1e300 is still read
    assert main(["check", str(tmp_path / "ok.npy"), "--json"]) == 1
    out = capsys.readouterr()
    assert "Infinity" not in out.out and "Warning" not in out.err


@pytest.mark.parametrize("call", [
    lambda: explorer.sinusoidal(8, 8, dtype=HUGE),
    lambda: explorer.sinusoidal(8, 8, base=HUGE),
    lambda: explorer.sinusoidal(8, 8, start=HUGE),
    lambda: explorer.check(np.ones((8, 8)), kind=HUGE),
    lambda: explorer.check(np.ones((8, 8)), pairing=HUGE),
    lambda: explorer.rope_frequencies(HUGE),
    lambda: explorer.rope_frequencies(8, rope_type="yarn", factor=HUGE),
])
def test_a_number_past_python_s_digit_limit_is_named_not_a_value_error(call):
    with pytest.raises(InputError) as got:
        call()
    one_line(got, 300)


def test_ragged_ids_and_a_bad_context_length_are_named():
    """Ragged id lists raised numpy's ValueError; rope_frequencies blamed original_max_position_embeddings for
    a bad max_position_embeddings it had been given (the hostile-input review, stop 53)."""
    with explorer.open_model("minilm") as model:
        for call in (model.input_x, model.layer0_qk, model.rows):
            with pytest.raises(InputError) as got:
                call([[1, 2], [3]])
            assert one_line(got).startswith("token ids must be one sequence of whole numbers")
    for bad in (0, -1, 1.5, True, "8192"):
        with pytest.raises(InputError) as got:
            explorer.rope_frequencies(64, 1e4, "yarn", max_position_embeddings=bad, factor=4.0)
        assert one_line(got).startswith("max_position_embeddings must be a whole number")


def test_ids_of_bool_or_float_type_are_refused_as_ids_not_read_as_a_hidden_state():
    """layer0_qk read a bool or float (1, n) as a hidden state: "the layer input must have shape (n, 384), not
    (1, 2)" for ids that were only of the wrong type (the API review); the id readers named no type."""
    from explorer.errors import error_text

    with explorer.open_model("minilm") as model:
        ids = model.tokenize("positions matter").ids
        x = model.input_x(ids)
        for bad, kind in ((ids[None, :].astype(bool), "bool"), (ids[None, :].astype(np.float64), "float64"),
                          (ids.astype(np.float32), "float32"), (np.array([["a", "b"]]), "str")):
            for call in (model.layer0_qk, model.input_x, model.rows, model.norms):
                with pytest.raises(InputError) as got:
                    call(bad)
                assert one_line(got).startswith(f"token ids must be whole numbers, not {kind}")
        assert error_text(got.value, "zh_CN").startswith("词元 ID 必须是整数，而不是 str")
        with pytest.raises(InputError) as got:
            model.layer0_qk(x.astype(np.complex64))          # its imaginary part had been dropped with a warning
        assert one_line(got) == "the layer input must hold real numbers, not complex64 values"
        np.testing.assert_array_equal(model.layer0_qk(x[:1]).logits, model.layer0_qk(ids[:1]).logits)  # one row of X
